"""Engine overhead (issue 22, item 4): a full depth-first search through searchvid against a
bare recursive loop over the same domain's ``children()``, side by side in one process.

Three figures per domain, each the best of ``REPEAT`` runs:

- *bare*: a recursive function that visits every node (``children()`` and a counter);
- *algorithm*: the backtracking algorithm's event generator alone (``traverse(root)``);
- *engine*: ``Scene.run()``, what ``searchvid run`` does (events, frame selection,
  outcome bookkeeping), with ``max_frames`` and ``max_events`` large enough for the whole
  tree.

The target is engine <= 1.3x bare, on tic-tac-toe (3x3, the whole game tree: 549,946
nodes) and on the explicit tree domain (a complete tree of 2,047 nodes, run many times).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from common import Row

import searchvid

TOPIC = "engine"
REPEAT = 3
TARGET = 1.3
TREE_DEPTH = 10  # a binary tree of 2**11 - 1 = 2,047 nodes (the tree view's limit is 2,178)
TREE_ROUNDS = 100  # the small tree is searched this many times per measurement


def _binary(depth: int, name: str = "n") -> dict[str, Any]:
    if depth == 0:
        return {}
    return {f"{name}0": _binary(depth - 1, f"{name}0"), f"{name}1": _binary(depth - 1, f"{name}1")}


SCENES: dict[str, tuple[dict[str, Any], int]] = {
    "tic-tac-toe 3x3": ({"name": "tictactoe", "size": 3}, 1),
    "tree domain, 2,047 nodes": (
        {"name": "tree", "root": "n", "children": _binary(TREE_DEPTH)},
        TREE_ROUNDS,
    ),
}


def _scene(domain: dict[str, Any]) -> searchvid.Scene:
    table = {
        "seed": 0,
        "domain": domain,
        "search": {"algorithm": "backtracking"},
        "video": {
            "frames": "all",
            "max_frames": 10**7,
            "max_events": 10**8,
            "hud": False,
            "tile_size": 8,
        },
    }
    return searchvid.scene_from_dict(table, name="engine-bench")


def _bare(root: Any) -> int:
    """Nodes under ``root``, by plain recursion (the trees are shallow: 10 levels at most)."""
    return 1 + sum(_bare(child) for child in root.children())


def _best(fn: Callable[[], int], rounds: int) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(REPEAT):
        start = time.perf_counter()
        count = sum(fn() for _ in range(rounds))
        best = min(best, time.perf_counter() - start)
    return best, count


def benchmarks() -> Iterator[Row]:
    """Per domain: bare, algorithm and engine rates, and the engine/bare ratio."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for label, (domain, rounds) in SCENES.items():
        scene = _scene(domain)
        root = scene.domain.root()
        bare, nodes = _best(lambda root=root: _bare(root), rounds)

        def algorithm(scene: searchvid.Scene = scene) -> int:
            search = scene.search()
            return sum(1 for _ in search.traverse(scene.domain.root()))

        alone, events = _best(algorithm, rounds)
        engine, _ = _best(lambda scene=scene: int(scene.run()["events"]), rounds)
        yield Row(TOPIC, f"{label}: bare recursion", f"{nodes / bare:,.0f} nodes/s")
        yield Row(TOPIC, f"{label}: backtracking's events alone", f"{events / alone:,.0f} events/s")
        yield Row(
            TOPIC,
            f"{label}: Scene.run() against the bare recursion",
            f"{engine / bare:.2f}x the time ({nodes / engine:,.0f} nodes/s)",
            f"<= {TARGET}x",
            engine / bare <= TARGET,
        )


if __name__ == "__main__":
    for row in benchmarks():
        print(row)
