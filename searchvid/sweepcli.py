"""``searchvid sweep``: a scene run over settings and seeds, into a folder of tables and plots.

Registered in :mod:`searchvid.cli`. Its imports are light (the command line starts fast);
matplotlib, the process pool and Dask load when a sweep runs.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from searchvid.errors import UsageError

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from searchvid.experiments.grid import Task
    from searchvid.experiments.runner import SweepPlan
    from searchvid.experiments.table import SweepFiles
    from searchvid.experiments.worker import Outcome

_RENDERS = ("best", "median", "worst")


@click.command()
@click.argument("scene", metavar="SCENE")
@click.option(
    "--seeds",
    default="0..9",
    show_default=True,
    help="Seeds: FIRST..LAST (both included) or a list, 1,5,9.",
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="KEY=V1,V2",
    help="A scene key and the values it takes, e.g. search.iterations=100,400,1600 "
    "(repeatable: every combination runs).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for runs.csv, timings.csv, summary.csv, the plots and renders "
    "(default renders/<scene>-sweep).",
)
@click.option("--metric", help="Column summarized and plotted (default score.total or best.value).")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    help="Worker processes (default: every core; 1 runs in this process).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run on Dask: local (a LocalCluster of --jobs processes) or tcp://HOST:PORT.",
)
@click.option(
    "--render",
    "renders",
    metavar="WHICH",
    help="Also render the videos of these runs by the metric: best,median,worst.",
)
@click.option("--resume", is_flag=True, help="Go on with the sweep in the folder: skip its runs.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def sweep(
    scene: str,
    seeds: str,
    settings: tuple[str, ...],
    output: Path | None,
    metric: str | None,
    jobs: int | None,
    scheduler: str | None,
    renders: str | None,
    resume: bool,
    quiet: bool,
) -> None:
    """Run SCENE for every combination of --set values and every seed, and tabulate.

    Writes DIR/runs.csv (one row per run: its settings, seed and the numbers of run --json,
    flattened), DIR/timings.csv (seconds and memory, by run), DIR/summary.csv (per setting:
    n, mean, sd and 95% CI of the metric, solved rate, mean seconds, also printed) and plots
    (DIR/distribution.png and .svg; DIR/vs-KEY.png and .svg for a numeric setting). A run
    that raises is a row with its error; the sweep goes on. Ctrl-C keeps the finished rows:
    --resume goes on from them.
    """
    from searchvid.experiments.grid import parse_seeds
    from searchvid.experiments.runner import plan_sweep
    from searchvid.experiments.settings import parse_setting

    plan = plan_sweep(scene, [parse_setting(text) for text in settings], parse_seeds(seeds))
    chosen = metric or plan.default_metric
    if chosen not in plan.metrics:
        raise UsageError(
            f"--metric {chosen}: not a number of these runs; choose one of: "
            + ", ".join(plan.metrics)
        )
    which = _parse_renders(renders)
    folder = (
        output if output is not None else Path("renders") / f"{Path(plan.source.name).stem}-sweep"
    )
    from searchvid.experiments.executors import open_executor
    from searchvid.experiments.table import SweepFiles

    # The folder is checked before any worker starts (an earlier sweep's rows are kept).
    files = SweepFiles(folder, plan.columns, plan.timing_columns, resume=resume)
    with open_executor(jobs=jobs, scheduler=scheduler) as executor:
        _run(plan, files, executor, quiet=quiet)
    _report(plan, files, chosen, which, quiet=quiet)


def _parse_renders(text: str | None) -> list[str]:
    if text is None:
        return []
    which = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [w for w in which if w not in _RENDERS]
    if unknown or not which:
        raise UsageError(f"--render {text!r}: choose from {', '.join(_RENDERS)}, e.g. best,worst")
    return list(dict.fromkeys(which))


def _run(plan: SweepPlan, files: SweepFiles, executor: Executor | None, *, quiet: bool) -> None:
    """Run the runs not yet in the files; they are rewritten in grid order, even when a
    signal or an error stops the sweep."""
    from searchvid.experiments.runner import csv_cells, execute
    from searchvid.signals import defer_signals

    todo = [task for task in plan.tasks if task.run not in files.rows]
    with files, _progress(len(todo), quiet=quiet) as advance:

        def done(task: Task, outcome: Outcome) -> None:
            files.add(*csv_cells(plan, task, outcome))
            advance()

        try:
            execute(plan.source, todo, executor, done)
        finally:
            with defer_signals():  # the tables end in the grid's order, whatever stops us
                files.rewrite([task.run for task in plan.tasks])


@contextlib.contextmanager
def _progress(total: int, *, quiet: bool) -> Iterator[Callable[[], None]]:
    from searchvid.progress import wants_progress_bar

    if not wants_progress_bar(quiet=quiet) or total == 0:
        yield lambda: None
        return
    with click.progressbar(
        length=total, label="sweep", file=sys.stderr, show_eta=True, show_pos=True
    ) as bar:
        yield lambda: bar.update(1)


def _report(
    plan: SweepPlan, files: SweepFiles, metric: str, which: Sequence[str], *, quiet: bool
) -> None:
    """summary.csv, the terminal's table, the plots and the renders."""
    from searchvid.cli import _echo as echo  # a closed pipe ends quietly, as elsewhere
    from searchvid.experiments.plots import draw_plots
    from searchvid.experiments.summary import (
        SUMMARY_COLUMNS,
        SUMMARY_FILE,
        group_rows,
        summary_rows,
        summary_table,
    )
    from searchvid.experiments.table import RUNS_FILE, TIMINGS_FILE, write_csv

    order = {task.run: task.index for task in plan.tasks}
    rows = sorted(files.rows.values(), key=lambda r: order.get(r["run"], len(order)))
    groups = group_rows(rows, files.timings, plan.keys, metric)
    summary = files.folder / SUMMARY_FILE
    write_csv(summary, [*plan.keys, *SUMMARY_COLUMNS], summary_rows(groups, metric))
    for line in summary_table(groups, plan.keys, metric):
        echo(line)
    # Not the scene's title: it may name a setting the sweep varies ("400 playouts").
    base = plan.source.scene()
    title = f"{Path(plan.source.name).stem}: {base.algorithm} on {base.domain_name}"
    written = [files.folder / RUNS_FILE, files.folder / TIMINGS_FILE, summary]
    written += draw_plots(files.folder, groups, plan.keys, metric, title)
    echo(f"{len(rows)} runs -> " + ", ".join(str(p) for p in written))
    for name, task, value in _picked(plan, rows, metric, which):
        scene = plan.source.scene(task.values).with_overrides(seed=task.seed)
        result = scene.render(files.folder / f"{name}.mp4", progress=_wants_bar(quiet))
        echo(f"{name} ({metric} {value:.4g}, {task.run}): {result}")


def _wants_bar(quiet: bool) -> bool:
    from searchvid.progress import wants_progress_bar

    return wants_progress_bar(quiet=quiet)


def _picked(
    plan: SweepPlan, rows: Sequence[dict[str, str]], metric: str, which: Sequence[str]
) -> list[tuple[str, Task, float]]:
    """The runs named by ``--render``: the highest metric (best), the lowest (worst), the
    median (of an even count, the lower middle); ties go to the run earlier in the grid."""
    from searchvid.experiments.summary import metric_value

    by_run = {task.run: task for task in plan.tasks}
    ranked: list[tuple[float, int, Task]] = []
    for row in rows:
        value = metric_value(row.get(metric, ""))
        task = by_run.get(row["run"])
        if value is not None and not row.get("error") and task is not None:
            ranked.append((value, task.index, task))
    if not ranked:
        return []
    ranked.sort(key=lambda item: (item[0], item[1]))
    best = max(ranked, key=lambda item: (item[0], -item[1]))
    chosen = {"best": best, "median": ranked[(len(ranked) - 1) // 2], "worst": ranked[0]}
    return [(name, chosen[name][2], chosen[name][0]) for name in which]
