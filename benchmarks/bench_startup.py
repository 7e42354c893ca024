"""Start-up of the command line (issue 22, item 6): ``searchvid --version`` and ``--help``
against ``python -c pass``, the floor, in interleaved runs (the machine's load hits all three
alike); each figure is the median of its runs, wall time and, beside it, the CPU time of the
process (user + system), which other processes' load barely changes. Target: at most 0.15 s
of wall time each."""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from common import Row

TOPIC = "startup"
RUNS = 21
TARGET = 0.15
"""Seconds allowed for ``--version`` and ``--help`` (issue 22)."""


def _seconds(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu


def medians(runs: int = RUNS) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of each command, the three run in turn ``runs`` times."""
    searchvid = str(Path(sys.executable).with_name("searchvid"))  # the console script
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "searchvid --version": [searchvid, "--version"],
        "searchvid --help": [searchvid, "--help"],
    }
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(_seconds(command))
    return {
        name: (statistics.median(w for w, _ in pairs), statistics.median(c for _, c in pairs))
        for name, pairs in times.items()
    }


def benchmarks() -> Iterator[Row]:
    """One row per command; the floor's row is informational."""
    found = medians()
    floor, floor_cpu = found.pop("python -c pass")
    yield Row(
        TOPIC, f"python -c pass (floor), median of {RUNS}", f"{floor:.3f} s, cpu {floor_cpu:.3f}"
    )
    for name, (seconds, cpu) in found.items():
        yield Row(
            TOPIC,
            f"{name} (median of {RUNS}, interleaved)",
            f"{seconds:.3f} s={seconds / floor:.1f}x, cpu {cpu:.3f}",
            f"<= {TARGET} s",
            seconds <= TARGET,
        )


if __name__ == "__main__":
    for row in benchmarks():
        print(row)
