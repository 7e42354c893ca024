"""Draws a tic-tac-toe position as an n x n grid of tiles."""

from __future__ import annotations

from typing import Any

import numpy as np

from searchvid.domains.tictactoe.art import TILE_NAMES
from searchvid.domains.tictactoe.rules import FILES, Board
from searchvid.render.boardlegend import Mark
from searchvid.render.celllabels import CellLabel
from searchvid.render.view import TileGrid, TileSet

_TILESET = TileSet(names=TILE_NAMES, folder="tictactoe")
_EMPTY = TILE_NAMES.index("empty")
# tile id of a mark of player p: _PLAIN[p], _LAST[p], _WIN[p]
_PLAIN = (TILE_NAMES.index("x"), TILE_NAMES.index("o"))
_LAST = (TILE_NAMES.index("x_last"), TILE_NAMES.index("o_last"))
_WIN = (TILE_NAMES.index("x_win"), TILE_NAMES.index("o_win"))
MARKS = (Mark("x_last", "last move"), Mark("x_win", "winning line"))
"""What the highlighted cells mean (the frame's legend)."""


def coordinates(size: int) -> tuple[CellLabel, ...]:
    """The labels of a ``size`` x ``size`` board: letters in the bottom row's lower-right
    corners, numbers in the left column's lower-left corners (see
    :meth:`~searchvid.domains.tictactoe.rules.Board.cell_name`)."""
    bottom = size - 1
    return (
        *(CellLabel(bottom, col, FILES[col], "se") for col in range(size)),
        *(CellLabel(row, 0, str(size - row), "sw") for row in range(size)),
    )


class TicTacToeView:
    """One tile per cell: empty, X or O; the last move and the winning line(s) highlighted."""

    def __init__(self, size: int) -> None:
        self._size = size

    @property
    def tileset(self) -> TileSet:
        """The tic-tac-toe tiles."""
        return _TILESET

    @property
    def marks(self) -> tuple[Mark, ...]:
        """The last move and the winning line, for the frame's legend."""
        return MARKS

    @property
    def cell_labels(self) -> tuple[CellLabel, ...]:
        """The board's coordinates as moves are named (``"O:c1"``, ``"X at b3"``): column
        letters from ``a`` in the bottom row's cells, row numbers from ``1`` at the bottom
        in the left column's, both in the cells' lower corners, clear of the last move's
        mark (the top-left corner)."""
        return coordinates(self._size)

    @property
    def shape(self) -> tuple[int, int]:
        """``(size, size)``."""
        return (self._size, self._size)

    def move_cells(self, node: Any, child: Any) -> tuple[tuple[int, int], ...]:
        """The cell of the mark that makes ``child`` from ``node``: only it, not the cells
        whose highlight the move changes (the last move's, a winning line's)."""
        last: int = child.last
        return (divmod(last, self._size),) if last >= 0 else ()

    def grid(self, node: Any) -> TileGrid:
        """The tiles of ``node``, a :class:`~searchvid.domains.tictactoe.rules.Board`."""
        board: Board = node
        tiles = np.full(board.geo.cells, _EMPTY, dtype=np.int16)
        winning = 0
        for line in board.winning_lines():
            winning |= line
        for player, bits in enumerate((board.x, board.o)):
            while bits:
                low = bits & -bits
                cell = low.bit_length() - 1
                bits ^= low
                if winning & low:
                    tiles[cell] = _WIN[player]
                elif cell == board.last:
                    tiles[cell] = _LAST[player]
                else:
                    tiles[cell] = _PLAIN[player]
        return tiles.reshape(self._size, self._size)
