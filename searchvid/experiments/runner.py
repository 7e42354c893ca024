"""A sweep's plan (its grid, its columns) and its execution over any executor."""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from searchvid.errors import RunError, UsageError
from searchvid.experiments.grid import Task, make_grid
from searchvid.experiments.settings import SceneSource, Setting, source_of
from searchvid.experiments.table import cell, flatten, is_timing, run_columns
from searchvid.experiments.worker import Outcome, run_task

_POLL_SECONDS = 0.1
"""How often the waiting process looks up from the executor (a signal is acted on then)."""

TEXT_COLUMNS = frozenset({"scene", "title", "domain", "algorithm", "best.label", "ended"})
"""Columns of ``run --json`` that are words, never a metric."""


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep runs and the tables it fills.

    Attributes:
        source: The scene, as workers receive it.
        settings: The ``--set`` options, in the order given.
        tasks: The runs, in the grid's order.
        columns: ``runs.csv``'s header.
        timing_columns: ``timings.csv``'s header.
    """

    source: SceneSource
    settings: tuple[Setting, ...]
    tasks: tuple[Task, ...]
    columns: tuple[str, ...]
    timing_columns: tuple[str, ...]

    @property
    def keys(self) -> list[str]:
        """The settings' keys (the first columns after ``run``)."""
        return [one.key for one in self.settings]

    @property
    def metrics(self) -> list[str]:
        """The columns a ``--metric`` may name: the numbers and flags of ``run --json``."""
        fixed = {"run", "seed", "error", "failed", *self.keys}
        return [
            c
            for c in self.columns
            if c not in fixed and c.rpartition(".")[2] not in TEXT_COLUMNS | {"error", "label"}
        ]

    @property
    def default_metric(self) -> str:
        """The game's score where the domain reports one (``score.total``, ``score``), else
        the value of the best node found (``best.value``)."""
        for name in ("score.total", "score"):
            if name in self.columns:
                return name
        return "best.value"


def plan_sweep(
    scene: str | os.PathLike[str] | Mapping[str, Any],
    settings: Sequence[Setting],
    seeds: Iterable[int],
    *,
    name: str = "scene",
) -> SweepPlan:
    """Check the scene and every combination of settings (each scene is built once, so a
    bad value is refused before any run), and lay out the tables.

    Raises:
        UsageError: A bad option; SceneError: a bad scene or a bad value for a key.
    """
    if any(one.key == "title" for one in settings):
        raise UsageError("--set title: the title is the same for every run; not a setting")
    source = source_of(scene, name=name)
    tasks = make_grid(settings, seeds)
    reported: dict[str, None] = {}
    searches = 1
    seen: set[tuple[str, ...]] = set()
    for task in tasks:
        combination = tuple(task.texts.values())
        if combination in seen:
            continue
        seen.add(combination)
        built = source.scene(task.values)
        searches = len(built.searches)
        reported.update(dict.fromkeys(_report_keys(built)))
    keys = [one.key for one in settings]
    shown = [c for c in run_columns(reported, searches) if not is_timing(c)]
    timing = ["run", "seconds", "peak_rss_mb", "wall_seconds"]
    if searches > 1:
        timing += [
            f"searches.{i}.{key}" for i in range(searches) for key in ("seconds", "peak_rss_mb")
        ]
    return SweepPlan(
        source,
        tuple(settings),
        tuple(tasks),
        ("run", *keys, "seed", *shown, "error"),
        tuple(timing),
    )


def _report_keys(scene: Any) -> list[str]:
    """The flattened keys the domain's ``report`` adds to ``run --json``."""
    try:
        report = scene.domain.report(scene.root())
    except Exception:  # the domain's own code: its runs will say what is wrong
        return []
    return list(flatten(report))


def execute(
    source: SceneSource,
    tasks: Sequence[Task],
    executor: Executor | None,
    done: Callable[[Task, Outcome], None],
) -> None:
    """Run ``tasks``, calling ``done`` for each as it finishes (in this process).

    With no executor the runs go one after the other in this process. With one, all are
    submitted at once; the wait looks up every :data:`_POLL_SECONDS`, so that a signal stops
    the sweep at once (:func:`searchvid.signals.checkpoint`), and the runs not finished are
    cancelled on the way out.

    Raises:
        RunError: The executor failed (a worker process died, a cluster went away).
    """
    from searchvid.signals import checkpoint

    if executor is None:
        for task in tasks:
            checkpoint()
            done(task, run_task(source, task))
        return
    futures = {executor.submit(run_task, source, task): task for task in tasks}
    pending = set(futures)
    try:
        while pending:
            finished, pending = cf.wait(
                pending, timeout=_POLL_SECONDS, return_when=cf.FIRST_COMPLETED
            )
            for future in sorted(finished, key=lambda f: futures[f].index):
                done(futures[future], _result(future))
            checkpoint()
    finally:
        # A process pool cancels its own queue when stopped (executors.open_executor): a
        # future cancelled here as well makes Python 3.11's pool fail on it when its
        # killed workers are noticed (an InvalidStateError in its thread).
        if not isinstance(executor, cf.ProcessPoolExecutor):
            for future in pending:
                future.cancel()


def _result(future: cf.Future[Outcome]) -> Outcome:
    try:
        return future.result()
    except cf.process.BrokenProcessPool:
        raise RunError(
            "a worker process died (out of memory, or killed); the finished runs are kept"
        ) from None
    except Exception as error:  # run_task reports a run's failure; this is the executor's
        from searchvid.usercode import describe_failure

        raise RunError(f"the executor failed: {describe_failure(error, hint=False)}") from None


def csv_cells(
    plan: SweepPlan, task: Task, outcome: Outcome
) -> tuple[dict[str, str], dict[str, str]]:
    """One run's row of ``runs.csv`` and of ``timings.csv``."""
    flat = flatten(outcome.stats)
    row = {"run": task.run, **task.texts, "seed": str(task.seed)}
    for column in plan.columns[len(row) : -1]:
        row[column] = cell(flat.get(column))
    row["error"] = outcome.error or ""
    timing = {c: cell(flat.get(c)) for c in plan.timing_columns}
    timing["run"] = task.run
    timing["wall_seconds"] = cell(outcome.wall_seconds)
    return row, timing


def api_row(task: Task, outcome: Outcome) -> dict[str, Any]:
    """One run as the Python API gives it: a plain dict of plain values."""
    return {
        "run": task.run,
        **task.values,
        "seed": task.seed,
        **{k: v for k, v in flatten(outcome.stats).items() if k != "seed"},
        "wall_seconds": outcome.wall_seconds,
        "error": outcome.error,
    }
