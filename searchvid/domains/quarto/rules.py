"""Quarto: 16 pieces, a 4 x 4 board, four in a line sharing an attribute wins (seed 003).

Pieces are the numbers 0-15; bit ``a`` of a piece is its value of attribute ``a``:

=====  ==============  =======
bit    0               1
=====  ==============  =======
0      short (``S``)   tall (``T``)
1      light (``L``)   dark (``D``)
2      square (``Q``)  round (``R``)
3      solid (``F``)   hollow (``H``)
=====  ==============  =======

so piece 15 is ``TDRH`` (tall, dark, round, hollow) and piece 0 is ``SLQF``.

A move places the piece in hand on an empty cell and then chooses, from the pieces left, the
one the opponent must place next. The game opens with player 0 *choosing* the piece player 1
places first (a move without a placement), unless the domain starts with a given piece in
player 0's hand. Whoever completes a line of four pieces that share an attribute wins; when
the board fills without such a line the game is drawn. A winning or final placement hands over
nothing, so it is one move (one child) whatever pieces remain.

The board is one integer with a byte per cell: a piece ``p`` is stored as its *code*
``p | (~p & 15) << 4``, which has a bit for every attribute value it has, and an empty cell is
0. Four cells form a win exactly when the AND of their bytes is non-zero, with no separate
test for empty cells.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from searchvid.search.node import Capability

PIECES = 16
"""Number of pieces (and of cells)."""
ALL = (1 << PIECES) - 1
"""A 16-bit mask of every piece or every cell."""

ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("short", "tall"),
    ("light", "dark"),
    ("square", "round"),
    ("solid", "hollow"),
)
"""Attribute ``a`` as ``(name of value 0, name of value 1)``."""
_LETTERS = ("ST", "LD", "QR", "FH")

ONGOING, P0_WON, P1_WON, DRAW = 0, 1, 2, 3
"""Values of :attr:`QuartoState.status`."""
_REWARD = (0.5, 1.0, 0.0, 0.5)
_FILES = "abcd"


def code(piece: int) -> int:
    """The byte stored for ``piece``: one bit per attribute value it has."""
    return piece | (piece ^ 15) << 4


def piece_name(piece: int) -> str:
    """Four letters, one per attribute: ``S``/``T``, ``L``/``D``, ``Q``/``R``, ``F``/``H``."""
    return "".join(_LETTERS[a][piece >> a & 1] for a in range(4))


def piece_words(piece: int) -> str:
    """The piece's four attributes in words, in the order of :data:`ATTRIBUTES`:
    ``"tall dark round hollow"`` for ``TDRH``."""
    return " ".join(ATTRIBUTES[a][piece >> a & 1] for a in range(4))


def parse_piece(name: str) -> int:
    """The piece named by :func:`piece_name` (any order of the four letters, any case).

    Raises:
        ValueError: Not one letter of each attribute.
    """
    piece = 0
    seen = 0
    for ch in name.upper():
        for a, letters in enumerate(_LETTERS):
            if ch in letters:
                seen |= 1 << a
                piece |= letters.index(ch) << a
                break
        else:
            raise ValueError(f"unknown attribute letter {ch!r} in piece {name!r}")
    if seen != 15 or len(name) != 4:
        raise ValueError(f"a piece needs one letter of each of ST, LD, QR, FH; got {name!r}")
    return piece


def cell_name(cell: int) -> str:
    """Chess-like name of a cell: file ``a``-``d``, then rank 4 (top) to 1 (bottom)."""
    r, c = divmod(cell, 4)
    return f"{_FILES[c]}{4 - r}"


def _lines() -> tuple[tuple[int, ...], ...]:
    rows = [tuple(range(r * 4, r * 4 + 4)) for r in range(4)]
    cols = [tuple(range(c, 16, 4)) for c in range(4)]
    return (*rows, *cols, (0, 5, 10, 15), (3, 6, 9, 12))


LINES: tuple[tuple[int, ...], ...] = _lines()
"""The 10 lines as cell tuples: rows, columns, then the two diagonals."""


def line_name(line: int) -> str:
    """Line ``line`` of :data:`LINES` in the terms of :func:`cell_name` (files a-d from the
    left, ranks 1-4 from the bottom): ``row 3``, ``column b``, ``the a4-d1 diagonal`` or
    ``the a1-d4 diagonal`` (a diagonal by its end cells, file ``a``'s first)."""
    cells = LINES[line]
    if line < 4:
        return f"row {4 - line}"
    if line < 8:
        return f"column {_FILES[line - 4]}"
    ends = sorted((cells[0], cells[-1]), key=lambda cell: cell % 4)
    return f"the {cell_name(ends[0])}-{cell_name(ends[1])} diagonal"


def traits(shared: int) -> list[str]:
    """The attribute values a code byte has, in the order of :data:`ATTRIBUTES`: the AND of
    a winning line's codes gives the traits its four pieces share (``["hollow"]``)."""
    out = []
    for a, (low, high) in enumerate(ATTRIBUTES):
        if shared >> a & 1:
            out.append(high)
        if shared >> (a + 4) & 1:
            out.append(low)
    return out


_LINE_MASKS = tuple(sum(1 << c for c in line) for line in LINES)
_LINE_SHIFTS = tuple(tuple(8 * c for c in line) for line in LINES)
# per cell: (16-bit mask, four byte shifts) of each line through it
_THROUGH = tuple(
    tuple((m, s) for m, s in zip(_LINE_MASKS, _LINE_SHIFTS, strict=True) if m >> cell & 1)
    for cell in range(PIECES)
)
_CODES = tuple(code(p) for p in range(PIECES))
_THROUGH_INDEX = tuple(
    tuple(i for i, m in enumerate(_LINE_MASKS) if m >> cell & 1) for cell in range(PIECES)
)
_OTHER_INDEX = tuple(
    tuple(i for i, m in enumerate(_LINE_MASKS) if not m >> cell & 1) for cell in range(PIECES)
)
# _SHIFTED[piece][cell]: the piece's code in the byte of the cell
_SHIFTED = tuple(tuple(code(p) << 8 * c for c in range(PIECES)) for p in range(PIECES))


def _byte_bits() -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


_BYTE_BITS = _byte_bits()


def _nth_bit(mask: int, n: int) -> int:
    """Index of the ``n``-th (from 0) set bit of the 16-bit ``mask``."""
    low = _BYTE_BITS[mask & 255]
    if n < len(low):
        return low[n]
    return 8 + _BYTE_BITS[mask >> 8][n - len(low)]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _wins_at(cells: int, empty: int, cell: int) -> bool:
    """Whether the piece just placed on ``cell`` completes a line (``cells`` includes it)."""
    for mask, (a, b, c, d) in _THROUGH[cell]:
        if not empty & mask and (cells >> a) & (cells >> b) & (cells >> c) & (cells >> d) & 255:
            return True
    return False


def threats(cells: int, empty: int) -> list[tuple[int, int]]:
    """Lines one piece short of full: ``(empty cell, AND of the three codes)`` for each.

    A piece wins on that cell exactly when its code shares a bit with the AND.
    """
    out = []
    for mask, shifts in zip(_LINE_MASKS, _LINE_SHIFTS, strict=True):
        hole = empty & mask
        if hole and not hole & (hole - 1):
            cell = hole.bit_length() - 1
            common = 255
            for s in shifts:
                if s != 8 * cell:
                    common &= cells >> s
            if common & 255:
                out.append((cell, common & 255))
    return out


def _line_states(cells: int, empty: int) -> list[tuple[int, int]]:
    """For each line: (empty cells on it, AND of the codes on it -- 255 when none)."""
    out = []
    for mask, shifts in zip(_LINE_MASKS, _LINE_SHIFTS, strict=True):
        common = 255
        for s in shifts:
            byte = cells >> s & 255
            if byte:
                common &= byte
        out.append(((empty & mask).bit_count(), common))
    return out


@dataclass(frozen=True)
class Shortcuts:
    """Which of seed 003's shortcuts :meth:`QuartoState.filtered_children` applies.

    Attributes:
        win_at_once: When a winning placement exists, keep only the winning moves.
        safe_handover: Never hand over a piece that lets the opponent win at once, while a
            move exists that hands over a safe one.
    """

    win_at_once: bool = True
    safe_handover: bool = True


@functools.cache
def shortcuts(win_at_once: bool, safe_handover: bool) -> Shortcuts:
    """The shared :class:`Shortcuts` object for these flags."""
    return Shortcuts(win_at_once, safe_handover)


_new = tuple.__new__


class _StateFields(NamedTuple):
    cells: int
    empty: int
    hand: int
    pool: int
    to_move: int
    last: int
    status: int
    shortcuts: Shortcuts


class QuartoState(_StateFields):
    """An immutable Quarto position.

    Attributes:
        cells: A byte per cell (cell ``i`` at bits ``8i``..``8i+7``): the piece's code or 0.
        empty: 16-bit mask of the empty cells.
        hand: The piece the side to move must place; -1 at the opening (player 0 only
            chooses) and once the game is over.
        pool: 16-bit mask of the pieces neither on the board nor in hand.
        to_move: The player to move, 0 or 1.
        last: The cell of the last placement, -1 before the first.
        status: :data:`ONGOING`, :data:`P0_WON`, :data:`P1_WON` or :data:`DRAW`.
        shortcuts: What :meth:`filtered_children` keeps.
    """

    __slots__ = ()

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {
            Capability.TERMINAL,
            Capability.TO_MOVE,
            Capability.REWARD,
            Capability.KEY,
            Capability.RANDOM_CHILD,
            Capability.FILTERED_CHILDREN,
        }
    )

    @classmethod
    def start(cls, first_piece: int | None = None, rules: Shortcuts | None = None) -> QuartoState:
        """An empty board, player 0 to move.

        Args:
            first_piece: The piece in player 0's hand; None: player 0 opens by choosing the
                piece player 1 places first.
            rules: The shortcuts for :meth:`filtered_children` (default: both on).

        Raises:
            ValueError: ``first_piece`` is not a piece.
        """
        rules = rules or shortcuts(True, True)
        if first_piece is None:
            return _new(cls, (0, ALL, -1, ALL, 0, -1, ONGOING, rules))
        if not 0 <= first_piece < PIECES:
            raise ValueError(f"pieces are 0-15, got {first_piece}")
        return _new(cls, (0, ALL, first_piece, ALL ^ 1 << first_piece, 0, -1, ONGOING, rules))

    @classmethod
    def from_board(
        cls,
        board: Sequence[int],
        hand: int,
        to_move: int,
        rules: Shortcuts | None = None,
    ) -> QuartoState:
        """A position in the middle of a game (for tests and set pieces).

        Args:
            board: 16 entries, cell by cell (a4, b4, .., d1), a piece or -1 for empty.
            hand: The piece the side to move must place (-1 only for a full board).
            to_move: The player to move.
            rules: The shortcuts for :meth:`filtered_children` (default: both on).

        Raises:
            ValueError: A wrong length, a piece twice, a line already complete, or a hand
                that does not fit the number of empty cells.
        """
        rules = rules or shortcuts(True, True)
        if len(board) != PIECES or any(not -1 <= p < PIECES for p in board):
            raise ValueError("a board is 16 cells, each a piece 0-15 or -1")
        placed = [p for p in board if p >= 0]
        if len(set(placed)) != len(placed) or hand in placed:
            raise ValueError("a piece can be used only once")
        if to_move not in (0, 1):
            raise ValueError(f"to_move is 0 or 1, got {to_move}")
        if (hand < 0) != (len(placed) == PIECES) or hand >= PIECES:
            raise ValueError("a piece in hand is needed exactly while a cell is empty")
        cells = sum(code(p) << 8 * i for i, p in enumerate(board) if p >= 0)
        empty = sum(1 << i for i, p in enumerate(board) if p < 0)
        for mask, (a, b, c, d) in zip(_LINE_MASKS, _LINE_SHIFTS, strict=True):
            if not empty & mask and (cells >> a) & (cells >> b) & (cells >> c) & (cells >> d) & 255:
                raise ValueError("the board already has a winning line")
        pool = ALL
        for p in (*placed, hand):
            if p >= 0:
                pool ^= 1 << p
        status = DRAW if not empty else ONGOING
        return _new(cls, (cells, empty, hand, pool, to_move, -1, status, rules))

    # -- the node contract -------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether a line was completed or the board is full."""
        return self.status != ONGOING

    def reward(self) -> float:
        """Player 0's outcome: 1 win, 0 loss, 0.5 draw (0.5 too while the game goes on)."""
        return _REWARD[self.status]

    def key(self) -> int:
        """The whole state as one integer (board, piece in hand, side to move)."""
        return (self.cells << 6) | ((self.hand + 1) << 1) | self.to_move

    def children(self) -> list[QuartoState]:
        """Every move: by cell (a1..d4 in index order), then by piece handed over.

        A placement that wins or fills the board is a single child.
        """
        if self.status:
            return []
        if self.hand < 0:
            return [self._choose(q) for q in _bits(self.pool)]
        pool = self.pool
        handovers = [(q, pool ^ 1 << q) for q in _bits(pool)]
        shifted = _SHIFTED[self.hand]
        mover, rules = 1 - self.to_move, self.shortcuts
        out: list[QuartoState] = []
        for cell in _bits(self.empty):
            cells = self.cells | shifted[cell]
            empty = self.empty ^ 1 << cell
            if not handovers or _wins_at(cells, empty, cell):
                out.append(self._placed(cells, empty, cell, -1))
            else:
                out += [
                    _new(QuartoState, (cells, empty, q, rest, mover, cell, ONGOING, rules))
                    for q, rest in handovers
                ]
        return out

    def filtered_children(self) -> list[QuartoState]:
        """The children an agent should consider, per :attr:`shortcuts`.

        With ``win_at_once``, only the winning placements when one exists. With
        ``safe_handover``, only the moves that hand over a piece the opponent cannot win
        with at once, unless every move hands over such a piece. Never empty when
        :meth:`children` is not; in the order of :meth:`children`.
        """
        if self.status:
            return []
        rules = self.shortcuts
        if self.hand < 0 or not (rules.win_at_once or rules.safe_handover):
            return self.children()
        code_ = _CODES[self.hand]
        winning = {cell for cell, common in threats(self.cells, self.empty) if common & code_}
        if winning and rules.win_at_once:
            out = []
            for cell in sorted(winning):
                cells = self.cells | code_ << 8 * cell
                out.append(self._placed(cells, self.empty ^ 1 << cell, cell, -1))
            return out
        if not rules.safe_handover:
            return self.children()
        return self._safe_children(winning)

    def _safe_children(self, winning: set[int]) -> list[QuartoState]:
        hand = _CODES[self.hand]
        shifted = _SHIFTED[self.hand]
        pool = self.pool
        handovers = [(q, pool ^ 1 << q, _CODES[q]) for q in _bits(pool)]
        lines = _line_states(self.cells, self.empty)
        threat = [common if holes == 1 else 0 for holes, common in lines]
        mover, rules = 1 - self.to_move, self.shortcuts
        safe: list[QuartoState] = []
        for cell in _bits(self.empty):
            cells = self.cells | shifted[cell]
            empty = self.empty ^ 1 << cell
            if cell in winning or not handovers:
                safe.append(self._placed(cells, empty, cell, -1))
                continue
            # after the placement: threats off its lines stay, lines through it may gain one
            danger = 0
            for i in _OTHER_INDEX[cell]:
                danger |= threat[i]
            for i in _THROUGH_INDEX[cell]:
                holes, common = lines[i]
                if holes == 2:
                    danger |= common & hand
            safe += [
                _new(QuartoState, (cells, empty, q, rest, mover, cell, ONGOING, rules))
                for q, rest, c in handovers
                if not c & danger
            ]
        return safe or self.children()

    def random_child(self, rng: random.Random) -> QuartoState | None:
        """A child drawn uniformly from :meth:`children` (None when the game is over).

        Draws a cell and a piece uniformly; a winning placement is one child however many
        pieces could have been handed over, so it is kept with probability 1/pieces and
        otherwise drawn again, which makes every child equally likely.
        """
        if self.status:
            return None
        rand = rng.random
        pool = self.pool
        if self.hand < 0:
            return self._choose(_nth_bit(pool, int(rand() * pool.bit_count())))
        n_pieces = pool.bit_count()
        free = self.empty
        n_cells = free.bit_count()
        shifted = _SHIFTED[self.hand]
        while True:
            cell = _nth_bit(free, int(rand() * n_cells))
            cells = self.cells | shifted[cell]
            empty = free ^ 1 << cell
            if _wins_at(cells, empty, cell):
                if n_pieces <= 1 or rand() * n_pieces < 1:
                    return self._placed(cells, empty, cell, -1)
                continue
            if not n_pieces:
                return self._placed(cells, empty, cell, -1)
            piece = _nth_bit(pool, int(rand() * n_pieces))
            return _new(
                QuartoState,
                (
                    cells,
                    empty,
                    piece,
                    pool ^ 1 << piece,
                    1 - self.to_move,
                    cell,
                    ONGOING,
                    self.shortcuts,
                ),
            )

    # -- moves ------------------------------------------------------------------------

    def choose(self, piece: int) -> QuartoState:
        """The opening move: player 0 chooses the piece player 1 places first.

        Raises:
            ValueError: Not the opening, or ``piece`` is not available.
        """
        if self.hand >= 0 or self.status:
            raise ValueError("only the opening move chooses a piece without placing one")
        if not 0 <= piece < PIECES or not self.pool >> piece & 1:
            raise ValueError(f"piece {piece} is not available")
        return self._choose(piece)

    def play(self, position: int, next_piece: int | None) -> QuartoState:
        """Place the piece in hand on ``position`` and hand over ``next_piece``.

        ``next_piece`` must be None exactly when no piece is left to hand over; when the
        placement wins, the piece handed over is ignored (the game is over).

        Raises:
            ValueError: The game is over or has not begun (use :meth:`choose`), the cell is
                off the board or taken, or the piece is not available.
        """
        if self.status:
            raise ValueError("the game is over")
        if self.hand < 0:
            raise ValueError("no piece in hand: the opening move is choose(piece)")
        if not 0 <= position < PIECES:
            raise ValueError(f"cells are 0-15, got {position}")
        if not self.empty >> position & 1:
            raise ValueError(f"cell {cell_name(position)} is taken")
        if next_piece is None:
            if self.pool:
                raise ValueError("a piece must be handed over while pieces remain")
        elif not 0 <= next_piece < PIECES or not self.pool >> next_piece & 1:
            raise ValueError(f"piece {next_piece} is not available")
        cells = self.cells | _CODES[self.hand] << 8 * position
        empty = self.empty ^ 1 << position
        if _wins_at(cells, empty, position) or next_piece is None:
            return self._placed(cells, empty, position, -1)
        return self._placed(cells, empty, position, next_piece)

    def _choose(self, piece: int) -> QuartoState:
        return _new(
            QuartoState,
            (self.cells, self.empty, piece, self.pool ^ 1 << piece, 1, -1, ONGOING, self.shortcuts),
        )

    def _placed(self, cells: int, empty: int, cell: int, next_piece: int) -> QuartoState:
        """The state after placing on ``cell``; ``next_piece`` -1 when the game ends."""
        mover = self.to_move
        if next_piece < 0:
            status = P0_WON + mover if _wins_at(cells, empty, cell) else DRAW
            pool = self.pool
        else:
            status = ONGOING
            pool = self.pool ^ 1 << next_piece
        return _new(
            QuartoState,
            (cells, empty, next_piece, pool, 1 - mover, cell, status, self.shortcuts),
        )

    # -- reading the position ---------------------------------------------------------

    def piece_at(self, cell: int) -> int:
        """The piece on ``cell``, or -1 when it is empty."""
        byte = self.cells >> 8 * cell & 255
        return byte & 15 if byte else -1

    def winning_cells(self) -> int:
        """16-bit mask of the cells on completed lines (0 unless someone has won)."""
        if self.status not in (P0_WON, P1_WON):
            return 0
        out = 0
        cells = self.cells
        for mask, (a, b, c, d) in zip(_LINE_MASKS, _LINE_SHIFTS, strict=True):
            if (
                not self.empty & mask
                and (cells >> a) & (cells >> b) & (cells >> c) & (cells >> d) & 255
            ):
                out |= mask
        return out

    def completed_lines(self) -> list[tuple[int, int]]:
        """``(line, shared)`` for each full line of :data:`LINES` whose pieces share a trait:
        its index and the AND of its four codes (see :func:`traits`); empty unless someone
        has won."""
        if self.status not in (P0_WON, P1_WON):
            return []
        out = []
        cells = self.cells
        for i, (mask, (a, b, c, d)) in enumerate(zip(_LINE_MASKS, _LINE_SHIFTS, strict=True)):
            shared = (cells >> a) & (cells >> b) & (cells >> c) & (cells >> d) & 255
            if not self.empty & mask and shared:
                out.append((i, shared))
        return out

    def text(self) -> str:
        """The board as rows of piece names (``....`` for empty) joined by ``/``, then the hand."""
        names = [piece_name(p) if p >= 0 else "...." for p in map(self.piece_at, range(16))]
        rows = "/".join(" ".join(names[r * 4 : r * 4 + 4]) for r in range(4))
        hand = piece_name(self.hand) if self.hand >= 0 else "-"
        return f"{rows} hand {hand}"

    def __repr__(self) -> str:
        return f"QuartoState({self.text()!r}, to_move={self.to_move})"


def outcome_value(node: QuartoState) -> float:
    """Player 0's outcome at the end of the game, 0.5 (unknown) before it."""
    return _REWARD[node.status]
