"""Draws a Quarto position: the board, the piece in hand and the reserve of pieces.

The grid is 4 rows by 9 columns: the board in columns 0-3; column 4 is a gap with the hand
slot in row 1 (the piece in hand, on the colour of the player who holds it; empty at the
opening and once the game is over, when nobody holds one); columns 5-8 are the reserve
(the "pool"), where piece ``p`` keeps its own slot (row ``p // 4``, column ``5 + p % 4``)
until it leaves the reserve. The gap's free cells name the three parts (:data:`LABELS`), so
that a reader need not guess which grid is which.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from searchvid.domains.quarto.art import GROUNDS, TILE_NAMES, piece_tile
from searchvid.domains.quarto.rules import PIECES, QuartoState
from searchvid.render.boardlegend import Mark
from searchvid.render.celllabels import CellLabel
from searchvid.render.view import TileGrid, TileSet

ROWS, COLS = 4, 9
"""Shape of every grid."""
HAND_CELL = (1, 4)
"""Row and column of the hand slot."""
RESERVE_COLUMN = 5
"""Column of the reserve's first slot."""

_TILESET = TileSet(names=TILE_NAMES, folder="quarto")
_ID = {name: i for i, name in enumerate(TILE_NAMES)}
# _PIECE[ground][piece]: tile id of the piece on that ground
_PIECE = {g: [_ID[piece_tile(p, g)] for p in range(PIECES)] for g in GROUNDS}
MARKS = (
    Mark(piece_tile(0, "last"), "last placed"),
    Mark(piece_tile(0, "win"), "winning line"),
    Mark("hand0", "first player's hand"),
    Mark("hand1", "second player's hand"),
)
"""What the highlighted cells and the hand slot's colours mean (the frame's legend)."""

LABELS = (
    CellLabel(0, 4, "\u2190 board", "nw"),
    CellLabel(2, 4, "\u2191 hand", "nw"),
    CellLabel(3, 4, "pool \u2192", "se"),
)
"""Names of the board (left), the hand slot (above) and the pool of pieces not yet played
(right), on the gap's free cells beside each: no move ever changes those cells."""


class QuartoView:
    """Board, hand slot and reserve of a Quarto position; last placement and win highlighted."""

    @property
    def tileset(self) -> TileSet:
        """The Quarto tiles."""
        return _TILESET

    @property
    def marks(self) -> tuple[Mark, ...]:
        """The last placement, the winning line and the players' hands, for the legend."""
        return MARKS

    @property
    def cell_labels(self) -> tuple[CellLabel, ...]:
        """The parts' names on the gap between board and pool (:data:`LABELS`)."""
        return LABELS

    @property
    def shape(self) -> tuple[int, int]:
        """``(4, 9)``."""
        return (ROWS, COLS)

    def move_cells(self, node: Any, child: Any) -> tuple[tuple[int, int], ...]:
        """The cells of a move: where it places its piece, and the reserve cell of the piece
        it hands over (not the hand slot, which every move changes)."""
        cells: list[tuple[int, int]] = []
        if child.last >= 0 and child.last != node.last:
            cells.append(divmod(child.last, 4))
        if child.hand >= 0 and child.hand != node.hand:
            cells.append((child.hand // 4, RESERVE_COLUMN + child.hand % 4))
        return tuple(cells)

    def grid(self, node: Any) -> TileGrid:
        """The tiles of ``node``, a :class:`~searchvid.domains.quarto.rules.QuartoState`."""
        state: QuartoState = node
        tiles = np.full((ROWS, COLS), _ID["gutter"], dtype=np.int16)
        winning = state.winning_cells()
        for cell in range(PIECES):
            piece = state.piece_at(cell)
            if piece < 0:
                tile = _ID["board"]
            elif winning >> cell & 1:
                tile = _PIECE["win"][piece]
            elif cell == state.last:
                tile = _PIECE["last"][piece]
            else:
                tile = _PIECE["board"][piece]
            tiles[cell // 4, cell % 4] = tile
        for piece in range(PIECES):
            on_hold = state.pool >> piece & 1
            tile = _PIECE["reserve"][piece] if on_hold else _ID["reserve"]
            tiles[piece // 4, RESERVE_COLUMN + piece % 4] = tile
        tiles[HAND_CELL] = self._hand(state)
        return tiles

    @staticmethod
    def _hand(state: QuartoState) -> int:
        if state.hand >= 0:
            return _PIECE[f"hand{state.to_move}"][state.hand]
        # nobody holds a piece: at the opening (the first player is to choose one) and once
        # the game is over; a slot in a player's colour would read as that player's hand
        return _ID["gutter"]
