"""Shared pieces of the benchmarks: the result row and small measuring helpers.

Each ``benchmarks/bench_<topic>.py`` defines ``def benchmarks() -> Iterator[Row]``; the rows
are printed as one table by ``benchmarks/run.py`` (``make bench``). Targets are checked here,
never in timed tests.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    """One benchmark figure.

    Attributes:
        topic: Group, e.g. ``"render"``.
        name: What was measured.
        figure: The measurement, formatted with units.
        target: The target it is held against ("" when informational).
        ok: Whether the target is met (None when informational).
    """

    topic: str
    name: str
    figure: str
    target: str = ""
    ok: bool | None = None


def timed(fn: Callable[[], T], *, repeat: int = 1) -> tuple[float, T]:
    """Best wall time of ``repeat`` calls of ``fn`` in seconds, and the last result."""
    best = float("inf")
    result: T
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def run_isolated(code: str, timeout: float = 600) -> str:
    """Run Python ``code`` in a fresh interpreter (for clean peak-memory figures).

    Returns its standard output; raises ``RuntimeError`` with its stderr on failure.
    """
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed")
    return proc.stdout


def rows_of(topic: str, fn: Callable[[], Iterator[Row]]) -> Iterator[Row]:
    """Run a benchmark group, turning a crash into a failed row instead of stopping all."""
    try:
        yield from fn()
    except Exception as exc:  # a broken benchmark must not hide the others
        yield Row(topic, "crashed", f"{type(exc).__name__}: {exc}", "runs", False)
