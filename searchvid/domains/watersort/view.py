"""The Water Sort view: one column of tiles per tube, the last pour highlighted."""

from __future__ import annotations

from typing import Any

import numpy as np

from searchvid.domains.watersort.art import colour_tile, tile_names
from searchvid.domains.watersort.rules import MAX_COLOUR
from searchvid.render.boardlegend import Mark
from searchvid.render.view import TileGrid, TileSet

MARKS = (
    Mark("rim-source", "poured from"),
    Mark("rim-target", "poured into"),
    Mark("base-done", "sorted tube"),
)
"""What the arrows and the check mark mean (the frame's legend)."""


class WaterSortView:
    """Draws a puzzle of ``n_tubes`` tubes holding ``capacity`` cells each.

    The grid has ``capacity + 2`` rows and one column per tube: row 0 is the tube's rim
    (with an arrow out of the source and into the target of the last pour), rows
    ``1..capacity`` the cells from the top down, and the last row the rounded base (with a
    check mark under a tube full of one colour). The two tubes of the last pour use the
    highlighted ("lit") tiles.
    """

    move_cells = None
    """A pour changes two tubes and many pours share a tube: moves have no board position
    of their own, so no heat map of the MCTS root's moves."""

    def __init__(self, n_tubes: int, capacity: int) -> None:
        self.n_tubes = n_tubes
        self.capacity = capacity
        self._tileset = TileSet(tile_names(), folder="watersort")
        ids = {name: index for index, name in enumerate(self._tileset.names)}
        self._rim = ids["rim"]
        self._rim_source = ids["rim-source"]
        self._rim_target = ids["rim-target"]
        self._base = ids["base"]
        self._base_lit = ids["base-lit"]
        self._base_done = ids["base-done"]
        self._base_done_lit = ids["base-done-lit"]
        # cell tile id by colour (0 = empty), plain and lit
        self._cells = [ids[colour_tile(c)] for c in range(MAX_COLOUR + 1)]
        self._cells_lit = [ids[colour_tile(c, lit=True)] for c in range(MAX_COLOUR + 1)]

    @property
    def tileset(self) -> TileSet:
        """The Water Sort tiles (``tile_assets/watersort``)."""
        return self._tileset

    @property
    def marks(self) -> tuple[Mark, ...]:
        """The last pour's arrows and the sorted tubes' check mark, for the legend."""
        return MARKS

    @property
    def shape(self) -> tuple[int, int]:
        """``(capacity + 2, n_tubes)``."""
        return (self.capacity + 2, self.n_tubes)

    def grid(self, node: Any) -> TileGrid:
        """The tiles showing ``node`` (a :class:`~.rules.WaterState`)."""
        rows = self.capacity + 2
        grid = np.empty((rows, self.n_tubes), dtype=np.int16)
        source, target = node.pour if node.pour is not None else (-1, -1)
        for index, tube in enumerate(node.tubes):
            lit = index in (source, target)
            cells = self._cells_lit if lit else self._cells
            column = [cells[0]] * (self.capacity - len(tube))
            column.extend(cells[colour] for colour in reversed(tube))
            if index == source:
                grid[0, index] = self._rim_source
            elif index == target:
                grid[0, index] = self._rim_target
            else:
                grid[0, index] = self._rim
            grid[1 : rows - 1, index] = column
            if len(tube) == self.capacity and not tube.rstrip(tube[:1]):
                grid[rows - 1, index] = self._base_done_lit if lit else self._base_done
            else:
                grid[rows - 1, index] = self._base_lit if lit else self._base
        return grid
