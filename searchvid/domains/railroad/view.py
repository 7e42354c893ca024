"""The Railroad Ink view: a board as a 9x9 grid of tile ids.

Tile ids follow the cell bytes: id 0 is ``"empty"`` (a border cell without an exit), ids
``1 + tile.id`` are the oriented tiles, then the eight exit kinds; two more ids mark the
empty interior cells, ``"empty-cell"`` and ``"open"`` (an open position: a route leads in).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from searchvid.domains.railroad.grid import INTERIOR, SIZE
from searchvid.domains.railroad.tiles import TILES, ExitKind
from searchvid.render.view import TileGrid, TileSet

__all__ = ["EMPTY_CELL_ID", "OPEN_ID", "TILE_NAMES", "RailroadView"]

TILE_NAMES: tuple[str, ...] = (
    "empty",
    *(t.name for t in TILES),
    *(k.value for k in ExitKind),
    "empty-cell",
    "open",
)
"""Every tile the view uses, in id order; the first 67 ids equal the cell bytes."""

EMPTY_CELL_ID = TILE_NAMES.index("empty-cell")
OPEN_ID = TILE_NAMES.index("open")

_INTERIOR_MASK = np.zeros(SIZE * SIZE, dtype=bool)
_INTERIOR_MASK[list(INTERIOR)] = True


class RailroadView:
    """Draws boards with the art in ``tile_assets/railroad``."""

    def __init__(self) -> None:
        self._tileset = TileSet(names=TILE_NAMES, folder="railroad")

    @property
    def tileset(self) -> TileSet:
        """Every oriented tile, the exits, and the empty and open markers."""
        return self._tileset

    @property
    def shape(self) -> tuple[int, int]:
        """The 9x9 board, border included."""
        return (SIZE, SIZE)

    def grid(self, node: Any) -> TileGrid:
        """Tile ids of ``node``: its cells, with empty interior cells shown empty or open."""
        cells = np.frombuffer(node.cells, dtype=np.uint8).astype(np.int16)
        cells[(cells == 0) & _INTERIOR_MASK] = EMPTY_CELL_ID
        cells[node.open_cells()] = OPEN_ID
        return cells.reshape(SIZE, SIZE)
