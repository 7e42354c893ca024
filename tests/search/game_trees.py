"""Small explicit trees, graphs and games shared by the search tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from searchvid.search.node import Capability

# -- explicit graphs ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Graph:
    """An explicit directed graph: node ids 0..n-1, node 0 is the root.

    ``kids[i]`` lists the children of node i in order (a child may appear in several lists:
    transpositions; cycles are allowed). ``values`` feed value functions, ``rewards`` are
    player 0's outcome at terminal nodes, ``to_move`` the player to move.
    """

    kids: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...] = ()
    values: tuple[float, ...] = ()
    rewards: tuple[float, ...] = ()
    to_move: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.kids)

    def root(self, cls: type[GraphNode] | None = None) -> GraphNode:
        return (cls or GraphNode)(self, 0)


class GraphNode:
    """A node of a :class:`Graph`; equal (and keyed) by id."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})
    __slots__ = ("graph", "id")

    def __init__(self, graph: Graph, id: int) -> None:
        self.graph = graph
        self.id = id

    def children(self) -> list[Any]:
        cls = type(self)
        return [cls(self.graph, c) for c in self.graph.kids[self.id]]

    def key(self) -> int:
        return self.id

    @property
    def label(self) -> str:
        return self.graph.labels[self.id] if self.graph.labels else str(self.id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GraphNode) and other.graph is self.graph and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label})"


class BareGraphNode(GraphNode):
    """A graph node declaring no capability at all (its key is itself)."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset()


class DrawingGraphNode(GraphNode):
    """A graph node that can draw a random child without listing them (RANDOM_CHILD)."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.RANDOM_CHILD}
    )

    def random_child(self, rng: random.Random) -> DrawingGraphNode | None:
        kids = self.graph.kids[self.id]
        if not kids:
            return None
        return type(self)(self.graph, kids[rng.randrange(len(kids))])


class GameNode(GraphNode):
    """A two-player game position in a :class:`Graph`: terminal where it has no children."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.TO_MOVE, Capability.REWARD}
    )

    def is_terminal(self) -> bool:
        return not self.graph.kids[self.id]

    @property
    def to_move(self) -> int:
        return self.graph.to_move[self.id]

    def reward(self) -> float:
        return self.graph.rewards[self.id]


class DrawingGameNode(GameNode):
    """A game node that also draws random children (RANDOM_CHILD)."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = GameNode.CAPABILITIES | {
        Capability.RANDOM_CHILD
    }

    def random_child(self, rng: random.Random) -> DrawingGameNode | None:
        kids = self.graph.kids[self.id]
        if not kids:
            return None
        return type(self)(self.graph, kids[rng.randrange(len(kids))])


class OnePlayerNode(GraphNode):
    """A one-player puzzle state: terminal where it has no children, reward in ``rewards``."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.REWARD}
    )

    def is_terminal(self) -> bool:
        return not self.graph.kids[self.id]

    def reward(self) -> float:
        return self.graph.rewards[self.id]


def graph_value(node: GraphNode) -> float:
    """The value function reading ``Graph.values``."""
    return node.graph.values[node.id]


def tree_graph(
    nested: dict[str, Any], root: str = "Root", values: dict[str, float] | None = None
) -> Graph:
    """A :class:`Graph` from nested dicts of labels (breadth-first ids, children in order)."""
    labels = [root]
    subtrees = [nested]
    kids: list[tuple[int, ...]] = []
    index = 0
    while index < len(subtrees):
        mine = []
        for label, sub in subtrees[index].items():
            mine.append(len(labels))
            labels.append(label)
            subtrees.append(sub)
        kids.append(tuple(mine))
        index += 1
    table = values or {}
    return Graph(tuple(kids), tuple(labels), tuple(table.get(x, 0.0) for x in labels))


def complete_tree(branching: int, depth: int) -> Graph:
    """Every node down to ``depth`` has ``branching`` children; ids in breadth-first order."""
    kids: list[tuple[int, ...]] = []
    level_start, level_size, next_id = 0, 1, 1
    for _ in range(depth):
        for _ in range(level_size):
            kids.append(tuple(range(next_id, next_id + branching)))
            next_id += branching
        level_start += level_size
        level_size *= branching
    kids.extend(() for _ in range(level_size))
    return Graph(tuple(kids))


def random_graph(
    rng: random.Random, layers: Sequence[int], branching: int, *, share: bool = True
) -> Graph:
    """A layered random game graph: each node has 0..``branching`` children in the next layer.

    With ``share``, children are drawn from the whole next layer (so subtrees are shared:
    transpositions); without it every node gets fresh children (a tree). Leaves get random
    rewards in {0, 0.5, 1}, every node a random value in [0, 1); layer parity is the player
    to move.
    """
    kids: list[tuple[int, ...]] = [()]
    layer_of = [0]
    current = [0]
    for depth in range(1, len(layers) + 1):
        size = layers[depth - 1]
        nxt: list[int] = []
        if share:
            nxt = list(range(len(kids), len(kids) + size))
            kids.extend(() for _ in nxt)
            layer_of.extend(depth for _ in nxt)
        for node in current:
            count = rng.randint(0, branching) if node else rng.randint(1, branching)
            if share:
                chosen = tuple(rng.choice(nxt) for _ in range(count))
            else:
                chosen = tuple(range(len(kids), len(kids) + count))
                kids.extend(() for _ in chosen)
                layer_of.extend(depth for _ in chosen)
                nxt.extend(chosen)
            kids[node] = chosen
        current = sorted(set(nxt)) if share else nxt
    rewards = tuple(rng.choice((0.0, 0.5, 1.0)) for _ in kids)
    values = tuple(rng.random() for _ in kids)
    to_move = tuple(d % 2 for d in layer_of)
    return Graph(tuple(kids), (), values, rewards, to_move)


def minimax_reference(graph: Graph, node: int = 0, depth: int | None = None) -> float:
    """Plain exhaustive minimax (recursive; small graphs only), player 0's value.

    With ``depth``, nodes at the cut-off are scored by ``values`` (player 0's view).
    """
    if not graph.kids[node]:
        return graph.rewards[node]
    if depth == 0:
        return graph.values[node]
    below = None if depth is None else depth - 1
    results = [minimax_reference(graph, c, below) for c in graph.kids[node]]
    return max(results) if graph.to_move[node] == 0 else min(results)


# -- chains, grids and games -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChainNode:
    """Position ``depth`` of a chain ``length`` long: one child each, a two-player game.

    Player 0 moves at even depths; at the bottom player 0 has won.
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.TO_MOVE, Capability.REWARD}
    )

    depth: int
    length: int

    def children(self) -> Iterator[ChainNode]:
        if self.depth < self.length:
            yield ChainNode(self.depth + 1, self.length)

    def is_terminal(self) -> bool:
        return self.depth >= self.length

    @property
    def to_move(self) -> int:
        return self.depth % 2

    def reward(self) -> float:
        return 1.0

    def key(self) -> int:
        return self.depth


@dataclass(frozen=True)
class Maze:
    """A grid of cells; ``#`` is a wall, ``S`` the start, ``G`` the goal."""

    rows: tuple[str, ...]

    def find(self, char: str) -> tuple[int, int]:
        for r, row in enumerate(self.rows):
            if char in row:
                return r, row.index(char)
        raise ValueError(char)

    def root(self) -> MazeNode:
        return MazeNode(self, *self.find("S"))

    def is_goal(self, node: MazeNode) -> bool:
        return self.rows[node.row][node.col] == "G"

    def manhattan(self, node: MazeNode) -> float:
        gr, gc = self.find("G")
        return float(abs(node.row - gr) + abs(node.col - gc))

    def distances(self) -> dict[tuple[int, int], int]:
        """Moves from the start to every reachable cell (a reference BFS)."""
        start = self.find("S")
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for r, c in frontier:
                for cell in MazeNode(self, r, c).cells():
                    if cell not in dist:
                        dist[cell] = dist[(r, c)] + 1
                        nxt.append(cell)
            frontier = nxt
        return dist


@dataclass(frozen=True, slots=True)
class MazeNode:
    """A position in a :class:`Maze`; moves go up, left, right, down."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})

    maze: Maze = field(compare=False, hash=False)
    row: int
    col: int

    def cells(self) -> list[tuple[int, int]]:
        rows = self.maze.rows
        out = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            r, c = self.row + dr, self.col + dc
            if 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] != "#":
                out.append((r, c))
        return out

    def children(self) -> list[MazeNode]:
        return [MazeNode(self.maze, r, c) for r, c in self.cells()]

    def key(self) -> tuple[int, int]:
        return self.row, self.col


def random_maze(rng: random.Random, height: int, width: int, walls: float) -> Maze:
    """A random maze with start top-left and goal bottom-right (maybe unreachable)."""
    rows = []
    for _r in range(height):
        row = "".join("#" if rng.random() < walls else "." for _ in range(width))
        rows.append(row)
    rows[0] = "S" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "G"
    return Maze(tuple(rows))


@dataclass(frozen=True, slots=True)
class NimNode:
    """Nim with one heap: take 1..3 stones; whoever takes the last stone wins."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.TO_MOVE, Capability.REWARD}
    )

    stones: int
    player: int = 0

    def children(self) -> list[NimNode]:
        return [NimNode(self.stones - t, 1 - self.player) for t in (1, 2, 3) if t <= self.stones]

    def is_terminal(self) -> bool:
        return self.stones == 0

    @property
    def to_move(self) -> int:
        return self.player

    def reward(self) -> float:
        # the player to move at the end did not take the last stone: they lost
        return 0.0 if self.player == 0 else 1.0

    def key(self) -> tuple[int, int]:
        return self.stones, self.player


# -- games of chance ---------------------------------------------------------------------------

FAIR_DIE: tuple[float, ...] = (1 / 6,) * 6


@dataclass(frozen=True, slots=True)
class DiceNode:
    """Roll a die, then keep it or roll again while rolls are left; the reward is face / 6.

    ``face`` 0 is the die in the air (a chance node); a face with ``rerolls`` left is the
    player's decision: keep it (the first child, terminal) or roll again (the second child,
    a chance node with one roll fewer). The last roll is kept. With one reroll and a fair
    die, the best play keeps 4, 5 and 6 and rerolls the rest: an expected face of 4.25.
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.REWARD, Capability.CHANCE}
    )

    face: int = 0
    rerolls: int = 1
    kept: bool = False
    weights: tuple[float, ...] = field(default=FAIR_DIE, compare=False, repr=False)

    def is_chance(self) -> bool:
        return self.face == 0

    def outcomes(self) -> list[tuple[float, DiceNode]]:
        if self.face:
            return []
        return [
            (p, DiceNode(f, self.rerolls, False, self.weights))
            for f, p in enumerate(self.weights, 1)
        ]

    def sample_outcome(self, rng: random.Random) -> DiceNode:
        face = rng.choices(range(1, len(self.weights) + 1), self.weights)[0]
        return DiceNode(face, self.rerolls, False, self.weights)

    def children(self) -> list[DiceNode]:
        if self.face == 0:
            return [node for _, node in self.outcomes()]
        if self.is_terminal():
            return []
        return [
            DiceNode(self.face, self.rerolls, True, self.weights),
            DiceNode(0, self.rerolls - 1, False, self.weights),
        ]

    def is_terminal(self) -> bool:
        return self.face > 0 and (self.kept or self.rerolls == 0)

    def reward(self) -> float:
        return self.face / 6

    def key(self) -> tuple[int, int, bool]:
        return self.face, self.rerolls, self.kept


def dice_value(rerolls: int, weights: Sequence[float] = FAIR_DIE) -> float:
    """The expected face of the dice game played perfectly with ``rerolls`` rerolls."""
    expected = sum(f * p for f, p in enumerate(weights, 1))
    for _ in range(rerolls):
        expected = sum(max(f, expected) * p for f, p in enumerate(weights, 1))
    return expected


@dataclass(frozen=True, eq=False)
class ChanceGraph:
    """An explicit game graph with chance nodes: node ids 0..n-1, node 0 is the root.

    ``probs[i]`` are the probabilities of chance node i's children (None at decision nodes);
    ``to_move`` is empty for a one-player game.
    """

    kids: tuple[tuple[int, ...], ...]
    probs: tuple[tuple[float, ...] | None, ...]
    rewards: tuple[float, ...]
    values: tuple[float, ...]
    to_move: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()

    def root(self) -> ChanceGraphNode:
        cls = TwoPlayerChanceNode if self.to_move else ChanceGraphNode
        return cls(self, 0)


class ChanceGraphNode(GraphNode):
    """A node of a :class:`ChanceGraph` (one player): terminal where it has no children."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.REWARD, Capability.CHANCE}
    )
    graph: Any

    def is_terminal(self) -> bool:
        return not self.graph.kids[self.id]

    def reward(self) -> float:
        return float(self.graph.rewards[self.id])

    def is_chance(self) -> bool:
        return self.graph.probs[self.id] is not None

    def outcomes(self) -> list[tuple[float, Any]]:
        probs = self.graph.probs[self.id] or ()
        return list(zip(probs, self.children(), strict=True))

    def sample_outcome(self, rng: random.Random) -> Any:
        pairs = self.outcomes()
        return rng.choices([node for _, node in pairs], [p for p, _ in pairs])[0]


class TwoPlayerChanceNode(ChanceGraphNode):
    """A node of a two-player :class:`ChanceGraph`."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = ChanceGraphNode.CAPABILITIES | {
        Capability.TO_MOVE
    }

    @property
    def to_move(self) -> int:
        return int(self.graph.to_move[self.id])


def random_chance_graph(
    rng: random.Random, layers: Sequence[int], branching: int, *, players: int = 1
) -> ChanceGraph:
    """A layered random game graph whose nodes are chance nodes one time in three.

    Children come from the whole next layer (transpositions); a chance node has two or more
    distinct outcomes with random probabilities, a decision node 0..``branching`` children
    (the root at least one). Leaves get rewards in {0, 0.25, ..., 1}, every node a value in
    [0, 1); with two players each decision node's player is drawn at random.
    """
    sizes = [1, *layers]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    total = sum(sizes)
    kids: list[tuple[int, ...]] = []
    probs: list[tuple[float, ...] | None] = []
    for depth, size in enumerate(sizes):
        below = (
            list(range(starts[depth + 1], starts[depth + 1] + sizes[depth + 1]))
            if depth + 1 < len(sizes)
            else []
        )
        for index in range(size):
            chance = len(below) >= 2 and rng.random() < 1 / 3
            if chance:
                chosen = tuple(rng.sample(below, rng.randint(2, min(len(below), branching + 1))))
                weights = [rng.randint(1, 5) for _ in chosen]
                kids.append(chosen)
                probs.append(tuple(w / sum(weights) for w in weights))
                continue
            low = 1 if depth == 0 and index == 0 else 0
            count = rng.randint(low, branching) if below else 0
            kids.append(tuple(rng.choice(below) for _ in range(count)))
            probs.append(None)
    rewards = tuple(rng.randint(0, 4) / 4 for _ in range(total))
    values = tuple(rng.random() for _ in range(total))
    to_move = tuple(rng.randint(0, 1) for _ in range(total)) if players == 2 else ()
    return ChanceGraph(tuple(kids), tuple(probs), rewards, values, to_move)


def expectimax_reference(graph: ChanceGraph, node: int = 0, depth: int | None = None) -> float:
    """Plain recursive expectimax (small graphs only), player 0's value.

    With ``depth``, nodes at the cut-off are scored by ``values``; rolls do not count.
    """
    kids = graph.kids[node]
    if not kids:
        return graph.rewards[node]
    if depth == 0:
        return graph.values[node]
    probs = graph.probs[node]
    if probs is not None:
        pairs = zip(probs, kids, strict=True)
        return sum(p * expectimax_reference(graph, c, depth) for p, c in pairs)
    below = None if depth is None else depth - 1
    results = [expectimax_reference(graph, c, below) for c in kids]
    if graph.to_move and graph.to_move[node] == 1:
        return min(results)
    return max(results)


def chance_graph_value(node: ChanceGraphNode) -> float:
    """The value function reading ``ChanceGraph.values``."""
    return float(node.graph.values[node.id])
