"""Micro benchmarks of the domain-free search engine on synthetic trees.

The nodes here cost next to nothing, so the figures are the algorithms' own overhead: events
per second for the traversals, iterations per second for MCTS, nodes per second for negamax.
The real targets (Quarto, Water Sort, tic-tac-toe, Railroad Ink) are measured by the domains'
benchmarks; the memory row here mirrors the Railroad Ink one with a synthetic tree as wide.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

from common import Row, run_isolated, timed

from searchvid.search.algorithm import make_algorithm
from searchvid.search.algorithms.minimax import Minimax, MinimaxOptions
from searchvid.search.events import Event, EventKind
from searchvid.search.node import Capability

TOPIC = "search"


class TreeState:
    """A node of a complete ``branching``-ary tree ``height`` deep (an index per level)."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.RANDOM_CHILD}
    )
    __slots__ = ("branching", "depth", "height", "index")

    def __init__(self, depth: int, index: int, branching: int, height: int) -> None:
        self.depth = depth
        self.index = index
        self.branching = branching
        self.height = height

    def children(self) -> list[TreeState]:
        if self.depth >= self.height:
            return []
        d, b, h = self.depth + 1, self.branching, self.height
        first = self.index * b
        return [TreeState(d, first + i, b, h) for i in range(b)]

    def random_child(self, rng: random.Random) -> TreeState | None:
        if self.depth >= self.height:
            return None
        b = self.branching
        return TreeState(self.depth + 1, self.index * b + rng.randrange(b), b, self.height)

    def is_terminal(self) -> bool:
        return self.depth >= self.height

    def key(self) -> tuple[int, int]:
        return self.depth, self.index

    def value(self) -> float:
        """A deterministic pseudo-random value in [0, 1)."""
        return (self.index * 2654435761 + self.depth * 40503) % 1000 / 1000


def tree_value(node: TreeState) -> float:
    return node.value()


class GameState:
    """A two-player game on a layered graph with many transpositions.

    Position ``(depth, x)``; move ``i`` leads to ``(depth + 1, (x * 7 + i * 13) % width)``;
    the game ends at ``height`` with a pseudo-random outcome in {0, 0.5, 1}.
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {
            Capability.KEY,
            Capability.TERMINAL,
            Capability.TO_MOVE,
            Capability.REWARD,
            Capability.RANDOM_CHILD,
        }
    )
    __slots__ = ("depth", "x")
    branching = 6
    width = 5000
    height = 12

    def __init__(self, depth: int, x: int) -> None:
        self.depth = depth
        self.x = x

    def children(self) -> list[GameState]:
        if self.depth >= self.height:
            return []
        d, x7, w = self.depth + 1, self.x * 7, self.width
        return [GameState(d, (x7 + i * 13) % w) for i in range(self.branching)]

    def random_child(self, rng: random.Random) -> GameState | None:
        if self.depth >= self.height:
            return None
        i = rng.randrange(self.branching)
        return GameState(self.depth + 1, (self.x * 7 + i * 13) % self.width)

    def is_terminal(self) -> bool:
        return self.depth >= self.height

    @property
    def to_move(self) -> int:
        return self.depth % 2

    def reward(self) -> float:
        return (self.x * 2654435761 % 3) / 2

    def key(self) -> tuple[int, int]:
        return self.depth, self.x


def _count(events: Iterator[Event]) -> int:
    count = 0
    for _ in events:
        count += 1
    return count


def _events_per_second(name: str, table: dict[str, Any], root: Any, **kwargs: Any) -> Row:
    def once() -> int:
        algorithm = make_algorithm(name, table, rng=random.Random(1), **kwargs)
        return _count(algorithm.traverse(root))

    seconds, events = timed(once, repeat=3)
    label = f"{name} {table}" if table else name
    return Row(TOPIC, f"{label}: events/s", f"{events / seconds:,.0f} ({events:,} events)")


def _traversals() -> Iterator[Row]:
    tree = TreeState(0, 0, 4, 8)  # 87,381 nodes
    values = {"v": tree_value}
    yield _events_per_second("backtracking", {}, tree)
    yield _events_per_second("breadth-first", {}, tree)
    yield _events_per_second("beam", {"width": 1000, "value": "v"}, tree, values=values)
    yield _events_per_second("astar", {}, tree)
    yield _events_per_second("random-walk", {"restarts": 5000}, TreeState(0, 0, 30, 20))


def _mcts() -> Iterator[Row]:
    iterations = 5000
    cases: list[tuple[str, Any, dict[str, Any]]] = [
        ("one player, 30 children", TreeState(0, 0, 30, 20), {"reward": "v"}),
        ("two players", GameState(0, 0), {}),
    ]
    for label, root, extra in cases:
        table = {"iterations": iterations, **extra}

        def once(root: Any = root, table: dict[str, Any] = table) -> int:
            algorithm = make_algorithm(
                "mcts", table, rng=random.Random(1), values={"v": tree_value}
            )
            return _count(algorithm.traverse(root))

        seconds, _ = timed(once, repeat=3)
        yield Row(TOPIC, f"mcts {label}: iterations/s", f"{iterations / seconds:,.0f}")
    code = """
import random
from bench_search import TreeState, tree_value
from searchvid.memory import peak_rss_mb
from searchvid.search.algorithm import make_algorithm
algorithm = make_algorithm("mcts", {"iterations": 10000}, rng=random.Random(1),
                           values={"v": tree_value}, default_value="v")
for _ in algorithm.traverse(TreeState(0, 0, 300, 40)):
    pass
print(peak_rss_mb())
"""
    peak = float(run_isolated(f"import sys; sys.path.insert(0, {_here()!r})\n" + code))
    yield Row(
        TOPIC,
        "mcts 10,000 iterations, 300 children/node: peak RSS",
        f"{peak:.0f} MB",
        "<= 250 MB",
        peak <= 250,
    )


def _here() -> str:
    from pathlib import Path

    return str(Path(__file__).parent)


def _negamax() -> Iterator[Row]:
    root = GameState(0, 0)
    algorithm = Minimax(MinimaxOptions(), rng=random.Random())
    seconds, value = timed(lambda: algorithm.solve(root), repeat=3)
    nodes = algorithm.nodes
    yield Row(
        TOPIC,
        "negamax solve (alpha-beta + TT): nodes/s",
        f"{nodes / seconds:,.0f} ({nodes:,} nodes)",
    )
    plain = Minimax(MinimaxOptions(alpha_beta=False), rng=random.Random())
    seconds, plain_value = timed(lambda: plain.solve(root), repeat=1)
    yield Row(
        TOPIC,
        "negamax without alpha-beta: nodes/s (same value)",
        f"{plain.nodes / seconds:,.0f} ({plain.nodes:,} nodes)",
        "same value",
        plain_value == value,
    )
    traced = Minimax(MinimaxOptions(play=False), rng=random.Random())
    seconds, events = timed(lambda: _count(traced.traverse(root)), repeat=1)
    yield Row(TOPIC, "negamax traverse, every event: events/s", f"{events / seconds:,.0f}")
    shallow = Minimax(MinimaxOptions(play=False, event_depth=2), rng=random.Random())
    seconds, events = timed(lambda: _count(shallow.traverse(root)), repeat=1)
    yield Row(
        TOPIC,
        "negamax traverse, event_depth 2: nodes/s",
        f"{shallow.nodes / seconds:,.0f} ({events:,} events)",
    )


def _event_cost() -> Iterator[Row]:
    def make() -> int:
        kind = EventKind.ENTER
        for i in range(100_000):
            Event(kind, None, 0, i)
        return 100_000

    seconds, count = timed(make, repeat=3)
    yield Row(TOPIC, "Event construction (named tuple)", f"{seconds / count * 1e9:.0f} ns")


def benchmarks() -> Iterator[Row]:
    """Events/s of each traversal, MCTS iterations/s and memory, negamax nodes/s."""
    yield from _traversals()
    yield from _mcts()
    yield from _negamax()
    yield from _event_cost()
