"""Sweeps on every core: the dice game's 50 seeds with ``--jobs 2`` against ``--jobs 1``.

The sweep is the one ``searchvid sweep`` runs (the same executor path): the dice game played
by MCTS as shipped (``railroad-game-mcts``, 800 playouts per die), 50 seeds; a run takes about
6 s, the figure about 8 minutes. ``--jobs 1`` runs in this process, ``--jobs 2`` in a
process pool.

This machine has 2 cores, so scaling beyond them cannot be measured: the 16-core figure is an
estimate from measured costs: the work (the sum of the runs' own times in the serial sweep),
the longest run, and the pool's fixed cost (a 2-job sweep of 50 runs that take milliseconds,
random play: starting the workers, building the scene in each, sending 50 runs and their
rows back): ``T16 = fixed + max(work / 16, longest run)``, against ``T1``.

Other processes on the machine take the second core first. A control says whether there was
one to take: the same pure-Python loop four times, in this process and then in a pool of 2
(about 1.95x on an idle machine). When the control is far below 2x, so is the sweep, and the
ratio measures the machine's load, not the sweep.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from common import Row

import searchvid
from searchvid.experiments.worker import ignore_interrupts

TOPIC = "sweep"
SCENE = "railroad-game-mcts"
SETTINGS: dict[str, list[int]] = {}  # the scene as shipped
SEEDS = range(50)
TARGET = 1.8
TINY = "railroad-game-random"


def _sweep(executor: Any, scene: str = SCENE) -> tuple[float, list[dict[str, Any]]]:
    settings = SETTINGS if scene == SCENE else None
    start = time.perf_counter()
    rows = searchvid.sweep(scene, seeds=SEEDS, settings=settings, executor=executor)
    return time.perf_counter() - start, rows


def _pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(2, initializer=ignore_interrupts)


def _burn(count: int) -> float:
    total = 0
    for i in range(count):
        total += i * i
    return float(total)


def _control() -> float:
    """Pure computation, 4 times in this process and then in a pool of 2: the ratio."""
    work = [5_000_000] * 4
    start = time.perf_counter()
    for count in work:
        _burn(count)
    serial = time.perf_counter() - start
    with _pool() as pool:
        pool.submit(_burn, 1).result()  # the workers are up before the clock starts
        start = time.perf_counter()
        list(pool.map(_burn, work))
        parallel = time.perf_counter() - start
    return serial / parallel


def benchmarks() -> Iterator[Row]:
    """The serial and the 2-job sweep, their ratio, and the 16-core estimate."""
    load = os.getloadavg()[0]
    control = _control()
    serial, rows = _sweep(None)
    with _pool() as pool:
        parallel, pooled = _sweep(pool)
    with _pool() as pool:
        fixed, _ = _sweep(pool, TINY)
    strip = ("seconds", "peak_rss_mb", "wall_seconds")
    same = [{k: v for k, v in r.items() if k not in strip} for r in rows] == [
        {k: v for k, v in r.items() if k not in strip} for r in pooled
    ]
    runs = len(rows)
    yield Row(TOPIC, f"dice-game sweep, {runs} seeds, --jobs 1", f"{serial:.1f} s")
    yield Row(TOPIC, f"dice-game sweep, {runs} seeds, --jobs 2", f"{parallel:.1f} s")
    speedup = serial / parallel
    yield Row(
        TOPIC, "  --jobs 2 against --jobs 1", f"{speedup:.2f}x", f">= {TARGET}x", speedup >= TARGET
    )
    yield Row(TOPIC, "  rows identical, timings aside", "yes" if same else "NO", "yes", same)
    yield Row(TOPIC, "  load average (1 min) at the start", f"{load:.1f} on {os.cpu_count()} cores")
    yield Row(TOPIC, "  control: a pure loop, 2 processes against 1", f"{control:.2f}x")
    work = sum(float(r["wall_seconds"]) for r in rows)
    longest = max(float(r["wall_seconds"]) for r in rows)
    yield Row(TOPIC, "  per run (mean, serial sweep)", f"{work / runs:.3f} s")
    yield Row(TOPIC, f"  fixed cost: 2-job sweep of {runs} tiny runs", f"{fixed:.2f} s")
    estimate = fixed + max(work / 16, longest)
    yield Row(
        TOPIC,
        "  16 cores: an ESTIMATE, not measured",
        f"{estimate:.1f} s, {serial / estimate:.1f}x",
    )
