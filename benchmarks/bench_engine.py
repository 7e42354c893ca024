"""Engine overhead (issue 22, item 4): a full depth-first search through searchvid against a
bare recursive loop over the same domain's ``children()``, side by side in one process.

Four figures per domain:

- *bare*: a recursive function that visits every node (``children()`` and a counter);
- *least generator*: the least a stream of backtracking's events costs, for reference: a
  generator that walks the same tree on an explicit stack and yields an event per visit
  and per return to a parent (as backtracking does), with no value, budget or tree ids;
- *algorithm*: the backtracking algorithm's event generator alone (``traverse(root)``,
  with the scene's value functions as a render shares them, each event counted);
- *engine*: ``Scene.run()``, what ``searchvid run`` does, with ``max_frames`` and
  ``max_events`` large enough for the whole tree. Nothing there needs each event, so it
  runs backtracking's quiet pass (:meth:`~searchvid.Algorithm.quiet`): the algorithm's
  own loop counts the events and frames and yields only its IMPROVE events.

They are timed in turn, in CPU time of this process (``time.process_time``: the machine
may be shared, and none of them starts a child), interleaved: each round times each of
them once (a round of the tree domain runs it ``TREE_ROUNDS`` times). A ratio is the
median over the rounds of that round's ratio (a round's figures are measured side by
side, under the same load), a rate the median of its rounds.

The target is engine <= 1.3x bare, on tic-tac-toe (3x3, the whole game tree: 549,946
nodes) and on the explicit tree domain (a complete tree of 2,047 nodes, run many times).
Where ``children()`` is cheap (the tree domain: about 1 us a node), two events per node
cost more than the bare loop's margin (the least generator alone is about 1.3x there),
which is why the engine does not read them one by one.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from common import Row

import searchvid
from searchvid.search.events import Event, EventKind, new_event

TOPIC = "engine"
TARGET = 1.3
TREE_DEPTH = 10  # a binary tree of 2**11 - 1 = 2,047 nodes (the tree view's limit is 2,178)
TREE_ROUNDS = 10  # the small tree is searched this many times per measurement


def _binary(depth: int, name: str = "n") -> dict[str, Any]:
    if depth == 0:
        return {}
    return {f"{name}0": _binary(depth - 1, f"{name}0"), f"{name}1": _binary(depth - 1, f"{name}1")}


SCENES: dict[str, tuple[dict[str, Any], int, int]] = {
    # domain, runs per measurement, rounds (the whole game tree takes about 2 s a run)
    "tic-tac-toe 3x3": ({"name": "tictactoe", "size": 3}, 1, 5),
    "tree domain, 2,047 nodes": (
        {"name": "tree", "root": "n", "children": _binary(TREE_DEPTH)},
        TREE_ROUNDS,
        41,
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


def _least(root: Any) -> int:
    """Events of a depth-first walk from ``root`` yielded by the least generator: one per
    node visited and one per return to a parent, counted."""
    return sum(1 for _ in _walk(root))


def _walk(root: Any) -> Iterator[Event]:
    enter, back = EventKind.ENTER, EventKind.BACKTRACK
    stack: list[tuple[Any, Iterator[Any]]] = []
    node, step = root, 0
    while True:
        kids = iter(node.children())
        first = next(kids, None)
        yield new_event(Event, (enter, node, len(stack), step, 0.0, None, None))
        step += 1
        if first is not None:
            stack.append((node, kids))
            node = first
            continue
        while stack:
            above, siblings = stack[-1]
            yield new_event(Event, (back, above, len(stack) - 1, step, 0.0, None, None))
            step += 1
            following = next(siblings, None)
            if following is not None:
                node = following
                break
            stack.pop()
        else:
            return


def _interleaved(
    fns: dict[str, Callable[[], int]], runs: int, rounds: int
) -> dict[str, list[float]]:
    """The CPU seconds of ``runs`` calls of each of ``fns``, timed in turn, for each of
    ``rounds`` rounds."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.process_time()
            for _ in range(runs):
                fn()
            times[name].append(time.process_time() - start)
    return times


def _ratio(times: dict[str, list[float]], name: str) -> float:
    """The median over the rounds of ``name``'s time over the bare recursion's."""
    return statistics.median(a / b for a, b in zip(times[name], times["bare"], strict=True))


def benchmarks() -> Iterator[Row]:
    """Per domain: the bare rate, then the algorithm's and the engine's time against it."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for label, (domain, runs, rounds) in SCENES.items():
        scene = _scene(domain)
        root = scene.domain.root()
        nodes = _bare(root)

        def algorithm(scene: searchvid.Scene = scene) -> int:
            search = scene.search()
            return sum(1 for _ in search.traverse(scene.domain.root()))

        def engine(scene: searchvid.Scene = scene) -> int:
            return int(scene.run()["events"])

        engine()  # a first run outside the timing (imports, caches)
        times = _interleaved(
            {
                "bare": partial(_bare, root),
                "least": partial(_least, root),
                "algorithm": algorithm,
                "engine": engine,
            },
            runs,
            rounds,
        )
        bare = statistics.median(times["bare"])
        engine_ratio = _ratio(times, "engine")
        yield Row(TOPIC, f"{label}: bare recursion", f"{nodes * runs / bare:,.0f} nodes/s CPU")
        yield Row(
            TOPIC,
            f"{label}: least generator of the same events",
            f"{_ratio(times, 'least'):.2f}x the bare CPU time",
        )
        yield Row(
            TOPIC,
            f"{label}: backtracking's events alone",
            f"{_ratio(times, 'algorithm'):.2f}x the bare CPU time",
        )
        rate = nodes * runs / statistics.median(times["engine"])
        yield Row(
            TOPIC,
            f"{label}: Scene.run() against the bare recursion",
            f"{engine_ratio:.2f}x the CPU time ({rate:,.0f} nodes/s)",
            f"<= {TARGET}x",
            engine_ratio <= TARGET,
        )


if __name__ == "__main__":
    for row in benchmarks():
        print(row)
