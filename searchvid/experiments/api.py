"""The Python face of a sweep: :func:`sweep` and :func:`to_pandas`."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from searchvid.experiments.grid import Task, settings_from_mapping
from searchvid.experiments.runner import api_row, execute, plan_sweep
from searchvid.experiments.worker import Outcome


def sweep(
    scene: str | os.PathLike[str] | Mapping[str, Any],
    *,
    seeds: Iterable[int],
    settings: Mapping[str, Sequence[Any]] | None = None,
    executor: Executor | None = None,
) -> list[dict[str, Any]]:
    """Run a scene for every combination of settings and every seed; one row per run.

    The Python form of ``searchvid sweep``. Each run is ``Scene.run()`` of the scene with
    those settings and that seed, so a row holds the numbers of ``searchvid run SCENE --seed
    S --set KEY=VALUE --json``, flattened with dots (``best.value``, ``score.total``).

    Args:
        scene: A scene file's path, a shipped scene's name, or a table shaped like a scene
            file (as :func:`searchvid.scene_from_dict` takes). Workers build the scene from
            this source, never from a pickled scene. (A :class:`~searchvid.Scene` object is
            refused: pass the file or table it came from.)
        seeds: The seeds, e.g. ``range(50)``.
        settings: Dotted scene keys and the values each takes, e.g.
            ``{"search.iterations": [100, 400, 1600], "domain.size": [3, 4]}``; the first
            key varies slowest. None: the scene as it is.
        executor: Any ``concurrent.futures.Executor``: a ``ProcessPoolExecutor``, Dask's
            ``Client.get_executor()``, Ray's. None runs the sweep in this process, one run
            after the other. The rows are the same whatever the executor.

    Returns:
        The rows in the grid's order (settings, the first slowest, then seeds): plain dicts
        with ``run`` (the run's id, ``search.iterations=400 seed=3``), each setting's key,
        ``seed``, the flattened keys of ``run --json`` (timings included: ``seconds``,
        ``peak_rss_mb``, and ``wall_seconds``, the run's time in its worker), and ``error``:
        None, or the failure of a run that raised, as one line (your file and line for an
        error in your own code). A failed run does not stop the sweep.

    Raises:
        SceneError: A bad scene, or a bad value for a key (before any run).
        UsageError: A key that is not a scene key, or no seed.
        RunError: The executor failed (a worker process died).
    """
    plan = plan_sweep(scene, settings_from_mapping(settings), seeds)
    found: dict[int, dict[str, Any]] = {}

    def keep(task: Task, outcome: Outcome) -> None:
        found[task.index] = api_row(task, outcome)

    execute(plan.source, plan.tasks, executor, keep)
    return [found[i] for i in sorted(found)]


def to_pandas(rows: Sequence[Mapping[str, Any]]) -> Any:
    """The rows of :func:`searchvid.sweep` as a ``pandas.DataFrame``, one column per key.

    pandas is not a dependency of searchvid: install it to use this (``pip install pandas``).

    Raises:
        ModuleNotFoundError: pandas is not installed (the message says how to install it).
    """
    try:
        pandas: Any = importlib.import_module("pandas")
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "searchvid.to_pandas needs pandas, which searchvid does not install: "
            "pip install pandas",
            name="pandas",
        ) from None
    return pandas.DataFrame.from_records([dict(row) for row in rows])
