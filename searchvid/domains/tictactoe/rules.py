"""Tic-tac-toe on an n x n board with k in a row, on two bitboards.

Cell ``i`` is row ``i // size``, column ``i % size`` (row 0 at the top); its bit is ``1 << i``.
X is player 0 and moves first. A position is a :class:`Board`: the two bitboards, the side to
move, the last move and the game status, plus a tuple of the position's codes under the
board's symmetries, kept up to date move by move so that :meth:`Board.key` (the canonical
transposition key) is a single ``min``.

Everything that depends only on the board size is computed once per ``(size, k)`` in a
:class:`Geometry`: the win-line masks, the lines through each cell, the static move order and
the symmetry tables.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from searchvid.search.node import Capability

X = 0
"""Player 0, who moves first."""
O = 1  # noqa: E741 - the game's own name for the second player
"""Player 1."""

ONGOING, X_WON, O_WON, DRAW = 0, 1, 2, 3
"""Values of :attr:`Board.status`."""

_REWARD = (0.5, 1.0, 0.0, 0.5)
_MARKS = ".XO"
FILES = "abcdefghijklmnopqrstuvwxyz"
"""Column letters, from the left (:meth:`Board.cell_name`)."""


@dataclass(frozen=True, eq=False)
class Geometry:
    """Tables for one board size and line length, shared by every board of that kind.

    Attributes:
        size: Cells per side.
        k: Marks in a row that win.
        cells: ``size * size``.
        full: Bitmask of every cell.
        lines: Every winning line as a bitmask, rows first, then columns, then diagonals.
        lines_through: ``lines_through[i]``: the lines containing cell ``i``.
        order: Cells in the static move order: most lines through them first, then nearest
            the centre, then by index (centre first helps alpha-beta).
        codes: ``codes[player][i]``: for each symmetry, the bit that a mark of ``player`` on
            cell ``i`` sets in the position's code under that symmetry. One symmetry (the
            identity) when symmetric keys are off.
    """

    size: int
    k: int
    cells: int
    full: int
    lines: tuple[int, ...]
    lines_through: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]
    codes: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


@functools.cache
def geometry(size: int, k: int, *, symmetric: bool = True) -> Geometry:
    """The shared tables for an ``size`` x ``size`` board with ``k`` in a row.

    Args:
        size: Cells per side, at least 1.
        k: Line length, ``1 <= k <= size``.
        symmetric: Whether keys identify the 8 symmetries of the square.
    """
    if not 1 <= k <= size:
        raise ValueError(f"need 1 <= k <= size, got size {size}, k {k}")
    cells = size * size
    lines = tuple(_line_masks(size, k))
    through = tuple(tuple(m for m in lines if m >> i & 1) for i in range(cells))
    centre = (size - 1) / 2

    def rank(i: int) -> tuple[int, float, int]:
        r, c = divmod(i, size)
        return (-len(through[i]), abs(r - centre) + abs(c - centre), i)

    order = tuple(sorted(range(cells), key=rank))
    perms = _symmetries(size) if symmetric else (tuple(range(cells)),)
    codes = tuple(
        tuple(tuple(1 << (perm[i] + player * cells) for perm in perms) for i in range(cells))
        for player in (X, O)
    )
    return Geometry(size, k, cells, (1 << cells) - 1, lines, through, order, (codes[0], codes[1]))


def _line_masks(size: int, k: int) -> Iterator[int]:
    directions = ((0, 1), (1, 0), (1, 1), (1, -1))
    for dr, dc in directions:
        for r in range(size):
            for c in range(size):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    yield sum(1 << ((r + dr * j) * size + c + dc * j) for j in range(k))


def _symmetries(size: int) -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square as cell permutations (identity first)."""
    n = size - 1
    maps: tuple[Callable[[int, int], tuple[int, int]], ...] = (
        lambda r, c: (r, c),
        lambda r, c: (c, n - r),
        lambda r, c: (n - r, n - c),
        lambda r, c: (n - c, r),
        lambda r, c: (r, n - c),
        lambda r, c: (n - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - c, n - r),
    )
    perms = []
    for f in maps:
        perm = []
        for i in range(size * size):
            r, c = f(*divmod(i, size))
            perm.append(r * size + c)
        perms.append(tuple(perm))
    return tuple(perms)


def _completes(bits: int, lines: tuple[int, ...]) -> bool:
    for m in lines:  # noqa: SIM110 - a plain loop is faster than any() here
        if bits & m == m:
            return True
    return False


def _check_last_move(winner: int, bits: int, lead: int, geo: Geometry, text: str) -> None:
    """Refuse a won position that no legal game reaches.

    The game ends with the move that completes a line, so the winner made the last move (X
    then has one mark more than O, O as many as X), and that one mark lies on every line the
    winner holds. Taking it back leaves a position without lines, which any order of moves
    reaches; so these two conditions are all there is.

    Args:
        winner: :data:`X` or :data:`O`, the player with a line.
        bits: The winner's bitboard.
        lead: X's marks minus O's (0 or 1, already checked).
        geo: The board's tables.
        text: The position as written, for the message.

    Raises:
        ValueError: The winner did not move last, or no single cell lies on all their lines.
    """
    name = _MARKS[winner + 1]
    if lead != (1 if winner == X else 0):
        raise ValueError(
            f"{name} has a line, so {name} moved last and the game ended there, "
            f"yet {name} is to move in {text!r}"
        )
    common = bits
    for m in geo.lines:
        if bits & m == m:
            common &= m
    if not common:
        raise ValueError(
            f"{name}'s lines share no cell, so no single last move made them all (the game "
            f"ends at the first line) in {text!r}"
        )


_new = tuple.__new__


class _BoardFields(NamedTuple):
    x: int
    o: int
    to_move: int
    last: int
    status: int
    sym: tuple[int, ...]
    geo: Geometry


class Board(_BoardFields):
    """An immutable tic-tac-toe position.

    Attributes:
        x: Bitboard of X's marks.
        o: Bitboard of O's marks.
        to_move: 0 when X is to move, 1 for O.
        last: The cell of the last move, -1 at the start or for a parsed position.
        status: :data:`ONGOING`, :data:`X_WON`, :data:`O_WON` or :data:`DRAW`.
        sym: The position's code ``x | o << cells`` under each symmetry of ``geo``.
        geo: The board's shared tables.
    """

    __slots__ = ()

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {
            Capability.TERMINAL,
            Capability.TO_MOVE,
            Capability.REWARD,
            Capability.KEY,
            Capability.RANDOM_CHILD,
        }
    )

    @classmethod
    def start(cls, geo: Geometry) -> Board:
        """The empty board, X to move."""
        return _new(cls, (0, 0, X, -1, ONGOING, (0,) * len(geo.codes[X][0]), geo))

    @classmethod
    def parse(cls, text: str, geo: Geometry) -> Board:
        """A position from rows of ``X``, ``O`` and ``.`` separated by ``/`` or whitespace.

        The side to move follows from the counts (X moves first); ``last`` is -1.

        Raises:
            ValueError: Wrong shape, unknown characters, impossible counts, or a position no
                legal game reaches (see :func:`_check_last_move`).
        """
        rows = text.replace("/", " ").split()
        if len(rows) != geo.size or any(len(row) != geo.size for row in rows):
            raise ValueError(f"need {geo.size} rows of {geo.size} cells, got {text!r}")
        board = cls.start(geo)
        marks = [(i, ch) for i, ch in enumerate("".join(rows).upper()) if ch != "."]
        if any(ch not in "XO" for _, ch in marks):
            raise ValueError(f"cells must be X, O or '.', got {text!r}")
        xs = [i for i, ch in marks if ch == "X"]
        os = [i for i, ch in marks if ch == "O"]
        if not 0 <= len(xs) - len(os) <= 1:
            raise ValueError(f"X must have as many marks as O or one more, got {text!r}")
        x = sum(1 << i for i in xs)
        o = sum(1 << i for i in os)
        x_won = any(x & m == m for m in geo.lines)
        o_won = any(o & m == m for m in geo.lines)
        if x_won and o_won:
            raise ValueError(f"both players have a line in {text!r}")
        if x_won or o_won:
            _check_last_move(X if x_won else O, x if x_won else o, len(xs) - len(os), geo, text)
        status = X_WON if x_won else O_WON if o_won else DRAW if x | o == geo.full else ONGOING
        sym = board.sym
        for player, cells in ((X, xs), (O, os)):
            for i in cells:
                sym = tuple(a | b for a, b in zip(sym, geo.codes[player][i], strict=True))
        to_move = O if len(xs) > len(os) else X
        return _new(cls, (x, o, to_move, -1, status, sym, geo))

    # -- the node contract -------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether someone has a line or the board is full."""
        return self.status != ONGOING

    def reward(self) -> float:
        """X's outcome: 1 X won, 0 O won, 0.5 a draw (0.5 too while the game goes on)."""
        return _REWARD[self.status]

    def key(self) -> int:
        """The smallest code of the position under the board's symmetries."""
        return min(self.sym)

    def children(self) -> Iterator[Board]:
        """Every move, immediate wins first, then blocks of the opponent's wins, then the rest.

        Within each group the cells follow :attr:`Geometry.order`. The order depends only on
        the position, so it is deterministic. The moves are ordered at once but the child
        boards are built one by one as they are consumed, so a search that cuts off early
        does not pay for the rest.
        """
        if self.status:
            return iter(())
        geo = self.geo
        occupied = self.x | self.o
        own, other = (self.o, self.x) if self.to_move else (self.x, self.o)
        # cells completing a line of either player: lines holding k - 1 marks of one player
        # and none of the other
        wins = blocks = 0
        needed = geo.k - 1
        for m in geo.lines:
            if not other & m:
                if (own & m).bit_count() == needed:
                    wins |= m & ~own
            elif not own & m and (other & m).bit_count() == needed:
                blocks |= m & ~other
        order = [cell for cell in geo.order if not occupied >> cell & 1]
        if wins | blocks:
            first = [c for c in order if wins >> c & 1]
            second = [c for c in order if blocks >> c & 1 and not wins >> c & 1]
            order = first + second + [c for c in order if not (wins | blocks) >> c & 1]
        return map(self._child, order)

    def random_child(self, rng: random.Random) -> Board | None:
        """A uniformly drawn move (None when the game is over)."""
        if self.status:
            return None
        empty = self.geo.full & ~(self.x | self.o)
        for _ in range(int(rng.random() * empty.bit_count())):
            empty &= empty - 1
        bit = empty & -empty
        cell = bit.bit_length() - 1
        return self._child(cell)

    # -- moves ------------------------------------------------------------------------

    def play(self, cell: int) -> Board:
        """The position after the side to move marks ``cell``.

        Raises:
            ValueError: The game is over, or the cell is off the board or taken.
        """
        if self.status:
            raise ValueError("the game is over")
        if not 0 <= cell < self.geo.cells:
            raise ValueError(f"cell {cell} is off the {self.geo.size}x{self.geo.size} board")
        if (self.x | self.o) >> cell & 1:
            raise ValueError(f"cell {self.cell_name(cell)} is taken")
        return self._child(cell)

    def _child(self, cell: int) -> Board:
        """The board after the side to move marks the empty ``cell``."""
        geo = self.geo
        mover = self.to_move
        x, o = self.x, self.o
        if mover:
            o |= 1 << cell
            own = o
        else:
            x |= 1 << cell
            own = x
        if _completes(own, geo.lines_through[cell]):
            status = X_WON + mover
        elif x | o == geo.full:
            status = DRAW
        else:
            status = ONGOING
        sym = tuple(map(int.__or__, self.sym, geo.codes[mover][cell]))
        return _new(Board, (x, o, 1 - mover, cell, status, sym, geo))

    # -- reading the position ---------------------------------------------------------

    def mark(self, cell: int) -> int:
        """0 for X, 1 for O, -1 for an empty cell."""
        bit = 1 << cell
        return X if self.x & bit else O if self.o & bit else -1

    def winning_lines(self) -> tuple[int, ...]:
        """The completed lines of the winner (empty unless someone has won)."""
        if self.status not in (X_WON, O_WON):
            return ()
        bits = self.x if self.status == X_WON else self.o
        return tuple(m for m in self.geo.lines if bits & m == m)

    def cell_name(self, cell: int) -> str:
        """Chess-like name of a cell: file letter, then rank counted from the bottom."""
        r, c = divmod(cell, self.geo.size)
        return f"{FILES[c]}{self.geo.size - r}"

    def text(self) -> str:
        """The board as rows of ``X``, ``O`` and ``.`` joined by ``/`` (top row first)."""
        size = self.geo.size
        chars = [_MARKS[self.mark(i) + 1] for i in range(self.geo.cells)]
        return "/".join("".join(chars[r * size : (r + 1) * size]) for r in range(size))

    def __repr__(self) -> str:
        return f"Board({self.text()!r})"


def outcome_value(node: Board) -> float:
    """X's outcome at the end of the game, 0.5 (unknown) before it."""
    return _REWARD[node.status]


def lines_value(node: Board) -> float:
    """X's outcome at the end of the game; before it, a guess from the open lines.

    Each line that holds marks of only one player counts ``4 ** (marks - 1)`` for that
    player; X's total minus O's is squashed into (0.1, 0.9), so any proven win or loss ranks
    above or below every guess.
    """
    if node.status:
        return _REWARD[node.status]
    x, o = node.x, node.o
    score = 0
    for m in node.geo.lines:
        xs = (x & m).bit_count()
        os = (o & m).bit_count()
        if xs and not os:
            score += 4 ** (xs - 1)
        elif os and not xs:
            score -= 4 ** (os - 1)
    scale = 4 ** max(node.geo.k - 2, 0)
    return 0.5 + 0.4 * math.tanh(score / scale)
