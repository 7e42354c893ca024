"""Water Sort rules: tubes of coloured liquid, pours, the goal and admissible estimates.

A state is a tuple of tubes; a tube is a ``bytes`` of colour ids (1..16) from the bottom up,
so states are compact, immutable and cheap to hash and copy. A pour moves the whole top run
of one colour from a source tube onto an empty tube or onto the same colour, as much of the
run as fits (seed 004's rule). Three kinds of pour are never offered because they cannot help
(seed 004 drops the first two too): pouring out of a full single-colour tube; pouring a
single-colour tube into an empty one; and pouring the top of a full tube onto a tube that
holds exactly the rest of it (``[1,5,5,5]`` onto ``[1,5]`` gives ``[1,5]`` and ``[1,5,5,5]``).
The last two give the same state with two tubes swapped, the same key as before: no move at
all. A state whose only pours are such is a dead end: terminal, no children. Pours from one
source into *different* empty tubes give the same state up to tube order, so only the first
empty tube is offered as a target.

The puzzle is solved when every tube is empty or full of one colour. States that differ only
in the order of their tubes are interchangeable, so :meth:`WaterState.key` sorts the tubes.

Seed 004 hashed states by summing their colours, so every state of a puzzle collided and its
breadth-first search ran out of 60 GB around depth 30; with the canonical key below,
breadth-first search visits a few tens of thousands of states on the same puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from searchvid.search.node import Capability

Pour = tuple[int, int]
"""A pour: ``(source tube, target tube)``, tube indices from 0."""

MAX_COLOUR = 16
"""Colour ids run from 1 to this (the view's palette)."""

TubeInfo = tuple[int, int, int]
"""``(cells, top colour, length of the top run)`` of a tube; ``(0, 0, 0)`` when empty."""


class Memo:
    """What the states of one puzzle remember between them (shared, bounded).

    ``tubes`` maps a tube to its :data:`TubeInfo` (a puzzle has few distinct tubes);
    ``moves`` maps the tubes of a state to its pours, since searches such as MCTS meet the
    same states over and over (seed 004's puzzle: 66,000 look-ups, 10,000 distinct states).
    Each starts over when it reaches its limit, so memory stays bounded.
    """

    __slots__ = ("moves", "tubes")

    TUBES_LIMIT: ClassVar[int] = 1 << 16
    MOVES_LIMIT: ClassVar[int] = 1 << 14

    def __init__(self) -> None:
        self.tubes: dict[bytes, TubeInfo] = {}
        self.moves: dict[tuple[bytes, ...], tuple[Pour, ...]] = {}


def describe(tube: bytes) -> TubeInfo:
    """The :data:`TubeInfo` of ``tube``."""
    if not tube:
        return (0, 0, 0)
    top = tube[-1:]
    return (len(tube), tube[-1], len(tube) - len(tube.rstrip(top)))


class WaterState:
    """An immutable Water Sort state: the tubes, plus how it was reached.

    Equality and hashing look only at the tubes (in order); :meth:`key` also ignores their
    order. The last pour and the pour count ride along for the view and labels and never
    affect equality, hashing or the key.

    The states of one puzzle share a :class:`Memo`, so finding the pours of a state is a
    dictionary look-up when the state was met before and a few more otherwise.

    Attributes:
        tubes: One ``bytes`` per tube, colour ids from the bottom up.
        capacity: Cells per tube.
        pour: The pour that produced this state, None at the root.
        pours: Pours made from the root to this state.
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.TERMINAL, Capability.REWARD, Capability.KEY, Capability.RANDOM_CHILD}
    )

    __slots__ = ("_key", "_memo", "_moves", "capacity", "pour", "pours", "tubes")

    tubes: tuple[bytes, ...]
    capacity: int
    pour: Pour | None
    pours: int
    _key: bytes | None
    _moves: tuple[Pour, ...] | None
    _memo: Memo

    def __init__(
        self,
        tubes: tuple[bytes, ...],
        capacity: int,
        pour: Pour | None = None,
        pours: int = 0,
        memo: Memo | None = None,
    ) -> None:
        self.tubes = tubes
        self.capacity = capacity
        self.pour = pour
        self.pours = pours
        self._key = None
        self._moves = None
        self._memo = Memo() if memo is None else memo

    @classmethod
    def from_lists(cls, tubes: Sequence[Sequence[int]], capacity: int = 4) -> WaterState:
        """A root state from tubes written as lists of colour ids, bottom to top."""
        return cls(tuple(bytes(t) for t in tubes), capacity)

    def as_lists(self) -> list[list[int]]:
        """The tubes as lists of colour ids, bottom to top."""
        return [list(t) for t in self.tubes]

    # -- identity --------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WaterState):
            return NotImplemented
        return self.tubes == other.tubes and self.capacity == other.capacity

    def __hash__(self) -> int:
        return hash(self.tubes)

    def __repr__(self) -> str:
        body = " ".join("[" + ",".join(str(c) for c in t) + "]" for t in self.tubes)
        return f"WaterState({body}, pours={self.pours})"

    def key(self) -> bytes:
        """The canonical key: the tubes sorted, joined by zero bytes (tube order ignored)."""
        key = self._key
        if key is None:
            key = b"\0".join(sorted(self.tubes))
            self._key = key
        return key

    # -- moves -----------------------------------------------------------------------------

    def moves(self) -> tuple[Pour, ...]:
        """The useful legal pours, sorted by source then target (computed once per state)."""
        moves = self._moves
        if moves is None:
            memo = self._memo.moves
            moves = memo.get(self.tubes)
            if moves is None:
                moves = self._find_moves()
                if len(memo) >= Memo.MOVES_LIMIT:
                    memo.clear()
                memo[self.tubes] = moves
            self._moves = moves
        return moves

    def _infos(self) -> list[TubeInfo]:
        table = self._memo.tubes
        get = table.get
        infos = []
        for tube in self.tubes:
            info = get(tube)
            if info is None:
                if len(table) >= Memo.TUBES_LIMIT:
                    table.clear()
                info = describe(tube)
                table[tube] = info
            infos.append(info)
        return infos

    def _find_moves(self) -> tuple[Pour, ...]:
        cap = self.capacity
        tubes = self.tubes
        infos = self._infos()
        open_by_colour: dict[int, list[int]] = {}  # tubes with room, by top colour
        first_empty = -1
        for j, (size, top, _) in enumerate(infos):
            if size == 0:
                if first_empty < 0:
                    first_empty = j
            elif size < cap:
                targets = open_by_colour.get(top)
                if targets is None:
                    open_by_colour[top] = [j]
                else:
                    targets.append(j)
        result: list[Pour] = []
        append = result.append
        for i, (size, top, run) in enumerate(infos):
            if size == 0:
                continue
            targets = open_by_colour.get(top)
            if targets is None:
                # only an empty tube can take it, and only a mixed tube is worth pouring there
                if first_empty >= 0 and run != size:
                    append((i, first_empty))
                continue
            if run == size:  # one colour: never into an empty tube
                if size < cap:  # (a full one is sorted: pouring it out cannot help)
                    result.extend([(i, j) for j in targets if j != i])
                continue
            if size == cap:  # not onto its own lower part, where the run fills it: a swap
                tube = tubes[i]
                targets = [
                    j for j in targets if infos[j][0] + run < cap or not tube.startswith(tubes[j])
                ]
            if first_empty < 0:
                result.extend([(i, j) for j in targets if j != i])
                continue
            pending = True  # the empty target, inserted in index order
            for j in targets:
                if pending and first_empty < j:
                    append((i, first_empty))
                    pending = False
                if j != i:
                    append((i, j))
            if pending:
                append((i, first_empty))
        return tuple(result)

    def after(self, pour: Pour) -> WaterState:
        """The state after ``pour`` (which must be legal): the top run, as much as fits."""
        source, target = pour
        tubes = self.tubes
        src, dst = tubes[source], tubes[target]
        info = self._memo.tubes.get(src)
        run = describe(src)[2] if info is None else info[2]
        room = self.capacity - len(dst)
        amount = run if run < room else room
        new = list(tubes)
        new[source] = src[:-amount]
        new[target] = dst + src[-1:] * amount
        return WaterState(tuple(new), self.capacity, pour, self.pours + 1, self._memo)

    def is_legal(self, pour: Pour) -> bool:
        """Whether ``pour`` is a legal pour by the plain game rules (useless ones included).

        A legal pour has distinct tubes, a non-empty source, and a target with room whose top
        is empty or the source's top colour.
        """
        source, target = pour
        n = len(self.tubes)
        if not (0 <= source < n and 0 <= target < n) or source == target:
            return False
        src, dst = self.tubes[source], self.tubes[target]
        if not src or len(dst) >= self.capacity:
            return False
        return not dst or dst[-1] == src[-1]

    def children(self) -> list[WaterState]:
        """The states after each useful pour, in the order of :meth:`moves`."""
        after = self.after
        return [after(pour) for pour in self.moves()]

    def random_child(self, rng: random.Random) -> WaterState | None:
        """One child drawn uniformly with ``rng`` (one ``randrange`` call), or None."""
        moves = self.moves()
        if not moves:
            return None
        return self.after(moves[rng.randrange(len(moves))])

    # -- outcome ---------------------------------------------------------------------------

    def is_solved(self) -> bool:
        """Whether every tube is empty or full of one colour."""
        cap = self.capacity
        for tube in self.tubes:
            if tube and (len(tube) != cap or tube.rstrip(tube[:1])):
                return False
        return True

    def is_terminal(self) -> bool:
        """Whether no useful pour is left (solved, or stuck)."""
        return not self.moves()

    def reward(self) -> float:
        """1.0 when solved, 0.0 otherwise (a stuck state)."""
        return 1.0 if self.is_solved() else 0.0

    def sorted_tubes(self) -> int:
        """How many tubes are full of one colour."""
        cap = self.capacity
        return sum(1 for t in self.tubes if len(t) == cap and not t.rstrip(t[:1]))

    def colour_count(self) -> int:
        """How many distinct colours the puzzle has."""
        return len(set(b"".join(self.tubes)))


def runs(tube: bytes) -> int:
    """The number of maximal single-colour runs in ``tube`` (0 when empty)."""
    if not tube:
        return 0
    count = 1
    previous = tube[0]
    for colour in tube:
        if colour != previous:
            count += 1
            previous = colour
    return count


class RunsHeuristic:
    """Admissible and consistent estimate of the pours left: runs, plus buried colours.

    ``h = sum over colours c of (runs(c) - 1 + buried(c))``, where ``runs(c)`` counts the
    maximal single-colour runs of ``c`` in all tubes and ``buried(c)`` is 1 when no run of
    ``c`` lies at the bottom of a tube.

    Why it never overestimates: only a pour *of* colour ``c`` changes the term of ``c`` (other
    pours neither split, join nor move runs of ``c``, and a run of ``c`` cannot reach the
    bottom of its tube without being poured). A pour of ``c`` onto ``c`` joins at most one
    run to another (-1), and if that emptied its tube it may bury ``c`` (+1); a pour of ``c``
    into an empty tube joins no runs (0, or +1 when only part of the run fits) and may
    unbury ``c`` (-1). So every pour lowers ``h`` by at most 1, and ``h`` is 0 when solved
    (one run per colour, at the bottom of its tube). Hence ``h`` is a lower bound on the
    pours left, and ``h(n) <= 1 + h(child)``, so A* with a closed set stays optimal.

    Per-tube figures are memoised (a puzzle has few distinct tube contents).
    """

    def __init__(self) -> None:
        self._tube_runs: dict[bytes, int] = {}

    def __call__(self, node: WaterState) -> float:
        return float(self.pours_left(node))

    def pours_left(self, node: WaterState) -> int:
        """The estimate as an int."""
        memo = self._tube_runs
        total = 0
        bottoms = set()
        for tube in node.tubes:
            if tube:
                count = memo.get(tube)
                if count is None:
                    count = runs(tube)
                    memo[tube] = count
                total += count
                bottoms.add(tube[0])
        # sum over colours of (runs - 1 + buried) == all runs - colours found at a bottom
        return total - len(bottoms)


class SpreadHeuristic:
    """Admissible but weaker: for each colour, the tubes it is spread over, minus one.

    A pour moves one colour out of one tube, so it lowers the number of tubes holding that
    colour by at most one and leaves every other colour where it was; solved states spread
    every colour over exactly one tube.
    """

    def __call__(self, node: WaterState) -> float:
        spread = sum(len(set(t)) for t in node.tubes)
        return float(spread - node.colour_count())


class ProgressValue:
    """How sorted a state is, in [0, 1]: ``1 - h / h_max`` with ``h`` from RunsHeuristic.

    ``h_max`` is ``colours * capacity`` (every cell its own run, every colour buried), so
    the value is 1 exactly when solved and 0 only for the most scrambled states.
    """

    def __init__(self) -> None:
        self._runs = RunsHeuristic()

    def __call__(self, node: WaterState) -> float:
        worst = node.colour_count() * node.capacity
        if worst == 0:
            return 1.0
        return 1.0 - self._runs.pours_left(node) / worst


def sorted_fraction(node: WaterState) -> float:
    """The fraction of colours whose tube is full and sorted, in [0, 1]."""
    colours = node.colour_count()
    return node.sorted_tubes() / colours if colours else 1.0
