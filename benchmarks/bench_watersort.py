"""Water Sort on seed 004's 14-tube puzzle: optimal solves (A*, breadth-first) and MCTS.

Each search runs in a fresh interpreter (:func:`common.run_isolated`) so that its peak memory
is its own; the time is measured there, around the search only (imports excluded).
Targets (DESIGN.md): an optimal solution (39 pours) in <= 0.5 s; MCTS solves it in <= 2 s
(the seed's own MCTS: 8-10 s and 44-45 pours; its breadth-first search ran out of 60 GB).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from common import Row, run_isolated

TOPIC = "watersort"

_SCRIPT = """
import json, random, time
from searchvid.domains import make_domain
from searchvid.search.algorithm import make_algorithm
from searchvid.search.events import EventKind

def rss():
    from searchvid.memory import peak_rss_mb
    return peak_rss_mb()

domain = make_domain("watersort", {{}})
before = rss()
best = float("inf")
for attempt in range({repeat}):
    algorithm = make_algorithm(
        {name!r}, {table!r}, rng=random.Random({seed}), values=domain.values(),
        heuristics=domain.heuristics(), default_value=domain.default_value,
        default_heuristic=domain.default_heuristic, goal=domain.is_goal)
    start = time.perf_counter()
    events = moves = 0
    last = None
    visited = 0
    for event in algorithm.traverse(domain.root()):
        events += 1
        if event.kind is EventKind.MOVE:
            moves += 1
            last = event
        elif event.kind in (EventKind.ENTER, EventKind.LEAF):
            visited += 1
    best = min(best, time.perf_counter() - start)
solved = last is not None and domain.is_goal(last.node)
print(json.dumps({{"seconds": best, "events": events, "visited": visited,
                  "pours": last.depth if solved else None, "solved": solved,
                  "peak_mb": rss(), "search_mb": rss() - before}}))
"""


def measure(name: str, table: dict[str, Any], *, seed: int = 0, repeat: int = 1) -> dict[str, Any]:
    """Run one search on the seed puzzle in a fresh interpreter and return its figures."""
    code = _SCRIPT.format(name=name, table=table, seed=seed, repeat=repeat)
    result: dict[str, Any] = json.loads(run_isolated(code))
    return result


MCTS_TABLE: dict[str, Any] = {
    "mode": "plan",
    "iterations": 100,
    "avoid_cycles": True,
    "commit_solution": False,
}
"""Seed 004's method: commit a pour after 100 iterations, cycle-avoiding rollouts."""

MCTS_VARIANTS = (
    ("pour by pour", MCTS_TABLE),
    ("commit rollout", {**MCTS_TABLE, "commit_solution": True}),
)

MCTS_SEEDS = (0, 1, 2)


def benchmarks() -> Iterator[Row]:
    """A* and breadth-first optimal solves, then MCTS in plan mode over a few seeds."""
    astar = measure("astar", {}, repeat=3)
    yield Row(
        TOPIC,
        "A* (runs heuristic), seed 004 puzzle: optimal solve",
        f"{astar['seconds']:.3f} s, {astar['pours']} pours",
        "<= 0.5 s, 39 pours",
        astar["seconds"] <= 0.5 and astar["pours"] == 39,
    )
    yield Row(
        TOPIC,
        "A*: states expanded / peak RSS (+ search's own)",
        f"{astar['visited']} / {astar['peak_mb']:.0f} MB (+{astar['search_mb']:.0f})",
    )
    bfs = measure("breadth-first", {})
    yield Row(
        TOPIC,
        "breadth-first (canonical keys): optimal solve",
        f"{bfs['seconds']:.2f} s, {bfs['pours']} pours",
        "39 pours",
        bfs["pours"] == 39,
    )
    yield Row(
        TOPIC,
        "breadth-first: states / peak RSS (+ search's own)",
        f"{bfs['visited']} / {bfs['peak_mb']:.0f} MB (+{bfs['search_mb']:.0f})",
        "seed: > 60 GB",
    )
    for label, table in MCTS_VARIANTS:
        yield from _mcts_rows(label, table)


def _mcts_rows(label: str, table: dict[str, Any]) -> Iterator[Row]:
    runs = [measure("mcts", table, seed=seed) for seed in MCTS_SEEDS]
    worst = max(r["seconds"] for r in runs)
    all_solved = all(r["solved"] for r in runs)
    pours = ", ".join(str(r["pours"]) for r in runs)
    yield Row(
        TOPIC,
        f"MCTS plan ({label}): slowest of seeds {MCTS_SEEDS[0]}-{MCTS_SEEDS[-1]}",
        f"{worst:.2f} s" + ("" if all_solved else " (unsolved)"),
        "<= 2 s (seed: 8-10)",
        all_solved and worst <= 2.0,
    )
    yield Row(
        TOPIC,
        "  pours per seed / peak RSS (slowest run)",
        f"{pours} / {max(r['peak_mb'] for r in runs):.0f} MB",
        "seed: 44-45 pours",
    )
