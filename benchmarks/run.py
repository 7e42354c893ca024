"""Run every ``benchmarks/bench_*.py`` and print one table (``make bench``).

Usage: ``python benchmarks/run.py [TOPIC ...]`` runs only the named topics.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from common import Row, rows_of


def main(argv: list[str]) -> int:
    """Run the selected benchmark modules and print their rows as they come."""
    here = Path(__file__).parent
    topics = sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
    chosen = [t for t in topics if not argv or t in argv]
    print(f"{'topic':<10} {'benchmark':<52} {'figure':<24} {'target':<18} ok")
    print("-" * 110)
    failed = 0
    for topic in chosen:
        module = importlib.import_module(f"bench_{topic}")
        for row in rows_of(topic, module.benchmarks):
            failed += row.ok is False
            print(_format(row), flush=True)
    print("-" * 110)
    print(f"{failed} target(s) missed" if failed else "all targets met")
    return 1 if failed else 0


def _format(row: Row) -> str:
    mark = {True: "yes", False: "NO", None: ""}[row.ok]
    return f"{row.topic:<10} {row.name:<52} {row.figure:<24} {row.target:<18} {mark}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
