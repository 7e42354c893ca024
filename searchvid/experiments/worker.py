"""One run of a sweep, as a worker does it: in this process, a pool's or a Dask worker's.

:func:`run_task` is a module-level function of plain arguments, so any
``concurrent.futures.Executor`` can send it to another process or machine (where searchvid
is installed). It never raises for a failed run: the failure is the result.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass
from typing import Any

from searchvid.experiments.grid import Task
from searchvid.experiments.settings import SceneSource

_BUILT: dict[tuple[SceneSource, tuple[tuple[str, str], ...]], Any] = {}
_BUILT_KEPT = 16


@dataclass(frozen=True)
class Outcome:
    """What one run gave.

    Attributes:
        index: The run's place in the grid.
        stats: The object ``searchvid run --json`` prints for it; for a run that raised,
            only ``scene``, ``title``, ``domain``, ``algorithm`` and ``seed``.
        error: The failure as one line (the user's file and line for an error in the
            user's code), or None.
        wall_seconds: The run's time in the worker, building the scene included.
    """

    index: int
    stats: dict[str, Any]
    error: str | None
    wall_seconds: float


def run_task(source: SceneSource, task: Task) -> Outcome:
    """Run ``task``'s settings and seed of ``source``'s scene; never raises for a failed run.

    Ctrl-C and signals pass through (the caller stops the sweep).
    """
    from searchvid.usercode import describe_failure, is_interrupt

    start = time.perf_counter()
    scene = _scene(source, task).with_overrides(seed=task.seed)
    identity = {
        "scene": str(scene.path),
        "title": scene.title,
        "domain": scene.domain_name,
        "algorithm": scene.algorithm,
        "seed": scene.seed,
    }
    error: str | None = None
    try:
        stats: dict[str, Any] = scene.run()
    except BaseException as exc:  # a run's failure, even sys.exit() in the user's code
        if is_interrupt(exc):
            raise
        stats, error = identity, describe_failure(exc, hint=False)
    else:
        failed = stats.get("failed") or []
        if failed:  # a race whose search raised: the others ran, the row says which failed
            error = f"search[{failed[0]}]: {stats['searches'][failed[0]]['error']}"
    return Outcome(task.index, stats, error, round(time.perf_counter() - start, 6))


def _scene(source: SceneSource, task: Task) -> Any:
    """The scene of ``task``'s settings, built once per worker and setting."""
    key = (source, tuple(sorted(task.texts.items())))
    scene = _BUILT.get(key)
    if scene is None:
        if len(_BUILT) >= _BUILT_KEPT:
            _BUILT.clear()
        scene = _BUILT[key] = source.scene(task.values)
    return scene


def ignore_interrupts() -> None:
    """A pool worker's start: Ctrl-C at a terminal reaches every process of the group, and
    only the sweep's own process decides what it means (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
