"""Experiments: many runs of a scene, over settings and seeds, as one tidy table.

``searchvid sweep`` (:mod:`searchvid.sweepcli`) and :func:`searchvid.sweep` (:mod:`.api`)
run every combination of ``--set`` values and seeds through ``Scene.run()`` on an executor:
this process, a process pool over every core, or a Dask cluster (:mod:`.executors`). The
rows (:mod:`.table`) are the same whatever the executor. Summary statistics (:mod:`.stats`)
and matplotlib plots (:mod:`.plots`) are drawn from them.

Importing this package imports neither matplotlib nor Dask: they load on first use.
"""
