"""The Railroad Ink board: an immutable 9x9 state, legal placements and its children.

The board is seed 000's ``Board``: a 9x9 grid whose border holds the twelve exits and whose
7x7 interior takes tiles. A state is 81 bytes (one per cell, row-major; see
:mod:`searchvid.domains.railroad.tiles` for the codes) plus the shared :class:`TileRules` of
the tile set in play.

Placement (seeds 000 and 001): a tile may go on an *open position*, an empty interior cell
that a neighbouring route (a tile or an exit) leads into, if no side is incompatible with a
neighbour and at least one side matches. Against an empty cell (interior or border) every
side is neutral; against a tile or an exit a side matches when both carry the same transport,
and is incompatible when the transports differ or only one of the two sides has a route. So
routes never run into the blank side of a tile, and may leave the board only at an exit or
over a border cell that holds no exit.

Placement is decided per cell from a small *constraint key*: for each side, what the
neighbour shows there (0 blank, 1 road, 2 rail, 3 nothing yet). The tiles that fit each of
the 256 keys are computed once per tile set, so listing the children is a few table look-ups
per empty cell.

A board also keeps its *spots*, the open positions that take a tile with their keys, and how
many placements they offer, once they are first asked for. A board made from another by
:meth:`Board.place` or :meth:`Board.random_child` gets them from its parent's by looking
again at the placed cell and its four neighbours only (a drawn child when first asked, as
MCTS draws many children it never asks), so a random playout never rescans the board, and
:meth:`Board.is_terminal` is a comparison. Boards listed by :meth:`Board.children` find
theirs by a scan when first asked (most are never asked), so listing stays as cheap as
before. Only the spots are kept, never the children: a board holds its 81 bytes and one small
tuple, most of whose pairs it shares with its parent. :meth:`Board.random_playout` plays a
whole random playout on one mutable copy of the cells and makes one board at its end.

These are the puzzle's rules (``rules = "puzzle"``). The published game, where a route end may
face a blank side, has its own tables and states: :mod:`searchvid.domains.railroad.game`.
"""

from __future__ import annotations

import functools
import random
from bisect import insort
from collections.abc import Iterator
from typing import ClassVar, Literal

from searchvid.domains.railroad.grid import (
    EXIT_CELLS,
    FACING,
    INTERIOR,
    NEIGHBOURS,
    SIZE,
    START_CELLS,
    Spots,
    fits,
    is_open_key,
    placed_spots,
    scan_spots,
)
from searchvid.domains.railroad.network import largest_network
from searchvid.domains.railroad.tiles import TILES
from searchvid.search.node import Capability

__all__ = ["Board", "TileRules", "TileSetName", "tile_rules"]

TileSetName = Literal["all", "basic"]
"""``basic``: the route dice and the station die; ``all``: also the six special routes."""

_F0, _F1, _F2, _F3 = FACING


class TileRules:
    """Placement tables of one tile set, shared by every board that uses it.

    Attributes:
        name: The tile set (``"all"`` or ``"basic"``).
        codes: Cell bytes of the tiles in play, ascending.
        choices: ``choices[key]``: the cell bytes that fit a cell with constraint ``key``,
            ascending (empty for a key with no route leading in, which is not open).
        counts: ``counts[key]``: how many tiles fit (``len(choices[key])``).
    """

    __slots__ = ("choices", "codes", "counts", "name")

    def __init__(self, name: TileSetName) -> None:
        self.name = name
        tiles = [t for t in TILES if name == "all" or not t.special]
        self.codes: tuple[int, ...] = tuple(t.id + 1 for t in tiles)
        self.choices: tuple[tuple[int, ...], ...] = tuple(
            tuple(t.id + 1 for t in tiles if fits(t.sides, key)) for key in range(256)
        )
        self.counts: tuple[int, ...] = tuple(len(fitting) for fitting in self.choices)

    def __repr__(self) -> str:
        return f"TileRules({self.name!r})"


@functools.cache
def tile_rules(name: TileSetName) -> TileRules:
    """The shared placement tables of a tile set."""
    return TileRules(name)


class Board:
    """An immutable Railroad Ink state: 81 cell bytes and the tile set in play.

    Boards are equal when their cells and tile sets are; :meth:`key` is the cell bytes.
    The spots kept beside them (see the module docstring) take no part in that.
    """

    __slots__ = ("_cells", "_from", "_rules", "_spots", "_total")

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.TERMINAL, Capability.REWARD, Capability.KEY, Capability.RANDOM_CHILD}
    )
    SEARCHVID_FAST_ROLLOUTS: ClassVar[bool] = True
    """MCTS may use :meth:`child_count` and :meth:`random_playout` (see ``Mcts``)."""

    _cells: bytes
    _rules: TileRules
    # unset until first asked for (boards listed by children() mostly never are, and
    # leaving the slots unset keeps listing as cheap as before)
    _spots: Spots | None  # None: a drawn child's, to be found from _from
    _total: int  # placements the spots offer (-1 while _spots is None)
    # a child drawn by random_child: its parent's spots and total and the cell placed, from
    # which its own are found when first asked for (MCTS draws many children it never asks)
    _from: tuple[Spots, int, int]

    def __init__(self, cells: bytes, rules: TileRules) -> None:
        if len(cells) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} cells, got {len(cells)}")
        _SET_CELLS(self, bytes(cells))
        _SET_RULES(self, rules)

    @classmethod
    def start(cls, tiles: TileSetName = "basic") -> Board:
        """The empty board with its twelve exits."""
        return cls(START_CELLS, tile_rules(tiles))

    @property
    def cells(self) -> bytes:
        """The 81 cell bytes, row-major (0 empty, else a tile or exit code)."""
        return self._cells

    @property
    def rules(self) -> TileRules:
        """The tile set in play."""
        return self._rules

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Board is immutable; cannot set {name!r}")

    def __hash__(self) -> int:
        return hash(self._cells)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._cells == other._cells and self._rules is other._rules

    def __repr__(self) -> str:
        return f"Board({self.tile_count} tiles, tiles={self._rules.name!r})"

    def key(self) -> bytes:
        """The transposition key: the cell bytes."""
        return self._cells

    @property
    def tile_count(self) -> int:
        """Number of tiles placed."""
        cells = self._cells
        return sum(1 for c in INTERIOR if cells[c])

    def at(self, row: int, col: int) -> int:
        """The byte of cell ``(row, col)`` (0 empty, else a tile or exit code)."""
        return self._cells[row * SIZE + col]

    def spots(self) -> Spots:
        """Open positions that take at least one tile, row-major, as ``(cell, key)``: the
        cell and its constraint key (kept, see the module docstring)."""
        try:
            kept = self._spots
        except AttributeError:  # a listed child: scan
            spots, total = scan_spots(self._cells, self._rules.counts)
        else:
            if kept is not None:
                return kept
            parent, total, cell = self._from  # a drawn child: from its parent's
            spots, total = placed_spots(parent, total, self._cells, cell, self._rules.counts)
        _SET_SPOTS(self, spots)
        _SET_TOTAL(self, total)
        return spots

    def placements(self) -> list[tuple[int, tuple[int, ...]]]:
        """Open positions that take at least one tile, row-major, with the codes that fit."""
        choices = self._rules.choices
        return [(c, choices[key]) for c, key in self.spots()]

    def open_cells(self) -> list[int]:
        """Open positions: empty interior cells that some route leads into, row-major.

        Unlike :meth:`placements` this includes open cells no tile fits.
        """
        cells = self._cells
        result = []
        for c, n, e, s, w in NEIGHBOURS:
            if cells[c]:
                continue
            if is_open_key(_F0[cells[n]] | _F1[cells[e]] | _F2[cells[s]] | _F3[cells[w]]):
                result.append(c)
        return result

    def place(self, cell: int, code: int) -> Board:
        """The board with tile byte ``code`` on ``cell`` (no legality check)."""
        cells = self._cells
        rules = self._rules
        board = _board(cells[:cell] + bytes((code,)) + cells[cell + 1 :], rules)
        try:
            spots = self._spots
        except AttributeError:
            return board  # the child finds its own when asked
        if spots is None:
            spots = self.spots()
        spots, total = placed_spots(spots, self._total, board._cells, cell, rules.counts)
        _SET_SPOTS(board, spots)
        _SET_TOTAL(board, total)
        return board

    def move_count(self) -> int:
        """Number of legal placements (children)."""
        self.spots()
        return self._total

    def child_count(self) -> int:
        """Number of children, all different boards (what MCTS counts to open a node)."""
        self.spots()
        return self._total

    def children(self) -> Iterator[Board]:
        """Every legal placement: positions row-major, then tiles by id."""
        cells = self._cells
        rules = self._rules
        choices = rules.choices
        new, set_cells, set_rules, byte = _NEW, _SET_CELLS, _SET_RULES, _BYTE
        for c, key in self.spots():
            head, tail = cells[:c], cells[c + 1 :]
            for code in choices[key]:
                board = new(Board)  # as _board() does, without a call per child
                set_cells(board, head + byte[code] + tail)
                set_rules(board, rules)
                yield board

    def random_child(self, rng: random.Random) -> Board | None:
        """One legal placement drawn uniformly, or None when there is none.

        It is the child ``rng.choice(list(children()))`` would draw (one ``randrange`` of
        the number of children), found by counting the fitting tiles per open position
        instead of building every child. The child finds its spots from this board's when
        first asked for (no rescan).
        """
        rules = self._rules
        try:
            spots = self._spots
        except AttributeError:  # a listed child
            spots = self.spots()
        if spots is None:  # a drawn child: as spots() does, inline (the random walks' path)
            parent, total, cell = self._from
            spots, total = placed_spots(parent, total, self._cells, cell, rules.counts)
            _SET_SPOTS(self, spots)
            _SET_TOTAL(self, total)
        else:
            total = self._total
        if total == 0:
            return None
        index = rng.randrange(total)
        choices = rules.choices
        for c, key in spots:
            fitting = choices[key]
            if index < len(fitting):
                cells = self._cells
                board = _board(cells[:c] + _BYTE[fitting[index]] + cells[c + 1 :], rules)
                _SET_SPOTS(board, None)  # found from these when asked
                _SET_TOTAL(board, -1)
                _SET_FROM(board, (spots, total, c))
                return board
            index -= len(fitting)
        raise AssertionError("unreachable: index within total")

    def random_playout(self, rng: random.Random, limit: int) -> tuple[Board, int]:
        """The board that up to ``limit`` calls of :meth:`random_child` in a row reach, and
        the number of moves made: the playout stops early at a board where no tile fits.

        It draws the same numbers from ``rng`` as those calls and reaches the same board,
        but plays on one mutable copy of the cells and makes a single board at the end (the
        rollouts of MCTS, see :class:`~searchvid.search.algorithms.mcts.Mcts`). The spots are
        kept as a list of cells, row-major, beside each cell's key and weight; a move looks
        again at the cell's empty interior neighbours only.
        """
        spots = self.spots()
        total = self._total
        if total == 0 or limit <= 0:
            return self, 0
        rules = self._rules
        choices, weight = rules.choices, rules.counts
        cells = bytearray(self._cells)
        order = [c for c, _ in spots]  # the spots' cells, row-major
        keys = [0] * len(cells)
        counts = [0] * len(cells)  # placements on each spot, 0 elsewhere
        for c, key in spots:
            keys[c] = key
            counts[c] = weight[key]
        f0, f1, f2, f3 = FACING
        randrange = rng.randrange
        remove = order.remove
        around = _AROUND
        moves = 0
        while total and moves != limit:
            index = randrange(total)
            for c in order:
                count = counts[c]
                if index < count:
                    break
                index -= count
            cells[c] = choices[keys[c]][index]
            total -= counts[c]
            counts[c] = 0
            remove(c)
            for b, n, e, s, w in around[c]:
                if cells[b]:
                    continue
                key = f0[cells[n]] | f1[cells[e]] | f2[cells[s]] | f3[cells[w]]
                new = weight[key]
                old = counts[b]
                if new:
                    if not old:
                        insort(order, b)
                    keys[b] = key
                elif old:
                    remove(b)
                counts[b] = new
                total += new - old
            moves += 1
        board = _board(bytes(cells), rules)
        _SET_SPOTS(board, tuple([(c, keys[c]) for c in order]))
        _SET_TOTAL(board, total)
        return board, moves

    def is_terminal(self) -> bool:
        """Whether no tile can be placed any more."""
        try:
            total = self._total
        except AttributeError:
            total = -1
        if total < 0:  # not found yet
            self.spots()
            total = self._total
        return total == 0

    def reward(self) -> float:
        """Seed 001's partial reward: exits in the largest network over 12."""
        return largest_network(self._cells) / len(EXIT_CELLS)


# The slot descriptors' setters: they bypass the __setattr__ that keeps boards immutable.
_SET_CELLS = vars(Board)["_cells"].__set__
_SET_RULES = vars(Board)["_rules"].__set__
_SET_SPOTS = vars(Board)["_spots"].__set__
_SET_TOTAL = vars(Board)["_total"].__set__
_SET_FROM = vars(Board)["_from"].__set__
_NEW = object.__new__
_BYTE: tuple[bytes, ...] = tuple(bytes((code,)) for code in range(256))
_INNER = {nb[0]: nb for nb in NEIGHBOURS}
_AROUND: tuple[tuple[tuple[int, int, int, int, int], ...], ...] = tuple(
    tuple(_INNER[c] for c in (cell - SIZE, cell - 1, cell + 1, cell + SIZE) if c in _INNER)
    for cell in range(SIZE * SIZE)
)
"""``_AROUND[cell]``: the interior neighbours of ``cell``, each with its own neighbours as in
:data:`NEIGHBOURS` (the cells whose keys a tile on ``cell`` may change)."""


def _board(cells: bytes, rules: TileRules) -> Board:
    """A board from trusted parts: no length check (the children hot path); its spots are
    found when first asked for, unless the caller sets them."""
    board: Board = _NEW(Board)
    _SET_CELLS(board, cells)
    _SET_RULES(board, rules)
    return board
