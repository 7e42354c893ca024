"""The "just placed" cue: the cells a forward move changed, outlined on its frame.

A frame shows the board after a move; where the move put its piece is easy to miss on a
busy board (a Railroad Ink tile among thirty). A view opts in by listing
:data:`~searchvid.render.boardlegend.PLACED_MARK` among its ``marks``: on the frame of every
event that steps forward from its tree parent (any event that shows a state, but a
``BACKTRACK``), the cells the step changed get blue corner brackets, for that frame only,
and the legend names the mark "just placed". The cells are the view's
``move_cells(parent, node)`` where it has that hook (the heat map's: the cells a move
occupies), else those whose tile id differs between the two grids. A step back keeps the
violet "undone" outline instead (:mod:`searchvid.render.undo`): brackets at the corners
against a full frame, so the two differ in shape as well as colour.

The parent is found from the events alone: :class:`PlacedWatch` remembers, per depth, the
tree id and node of the latest event that showed a state there, and an event at depth
``d`` whose ``parent`` id is the one remembered at ``d - 1`` stepped forward from that
node. It keeps one node per depth (bounded memory) and needs no frame history, so a
preview of one frame marks the same cells as the whole render. Everything here is
domain-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Rect, TileBoard
from searchvid.render.palette import BLUE
from searchvid.search.events import Event, EventKind

COLOR: RGB = BLUE
"""The mark's colour: Okabe-Ito blue, unused by the boards that opt in (Railroad Ink)."""

WORDS = "just placed"
"""What the board legend calls the mark."""

_BACKTRACK = EventKind.BACKTRACK


def bracket_width(tile_size: int) -> int:
    """The brackets' line width in tiles of ``tile_size`` pixels: even (on yuv420p's 2x2
    chroma grid), about a 16th of the tile (6 px on 100 px tiles), 2 px at least; 0 on tiles
    too small to show it."""
    if tile_size < 8:
        return 0
    return max(2, tile_size // 16 & ~1)


def bracket_bands(top: int, left: int, size: int, width: int) -> list[Rect]:
    """The rectangles of corner brackets on the square at ``(top, left)`` of ``size`` px:
    at each corner an L of two bands ``width`` px wide and a third of the side long (even),
    inside the square."""
    arm = max(2 * width, size // 3) + 1 & ~1
    bottom, right = top + size, left + size
    bands: list[Rect] = []
    for y0, y1 in ((top, top + width), (bottom - width, bottom)):  # horizontal arms
        bands.append(Rect(y0, left, y1, left + arm))
        bands.append(Rect(y0, right - arm, y1, right))
    for x0, x1 in ((left, left + width), (right - width, right)):  # vertical arms
        bands.append(Rect(top, x0, top + arm, x1))
        bands.append(Rect(bottom - arm, x0, bottom, x1))
    return bands


def changed_cells(
    view: Any, parent: Any, node: Any, parent_grid: npt.NDArray[np.integer], grid: Any
) -> list[int]:
    """Flat (row-major) indices of the cells the step from ``parent`` to ``node`` changed,
    ascending: the view's ``move_cells`` where it has one, else the cells whose tile id
    differs between the two grids (none when the grids differ in shape)."""
    hook = getattr(view, "move_cells", None)
    cols = int(np.shape(grid)[1])
    if callable(hook):
        return sorted({int(r) * cols + int(c) for r, c in hook(parent, node)})
    if np.shape(parent_grid) != np.shape(grid):
        return []
    cells: list[int] = np.flatnonzero(np.asarray(parent_grid) != np.asarray(grid)).tolist()
    return cells


class Step(NamedTuple):
    """A state an event showed: its tree id and its node."""

    id: int | None
    node: Any


class PlacedWatch:
    """Fed every event of one search, knows the tree parent of each forward event.

    Remembers the latest state shown at each depth (one node per depth), so that
    :meth:`parent_of` answers for the latest event observed.
    """

    def __init__(self) -> None:
        self._path: list[Step] = []
        self._step: int | None = None  # the step of the latest event that showed a state
        self._parent: Step | None = None

    def observe(self, event: Event) -> None:
        """Take the next event of the stream (every event, in order)."""
        if not event.kind.shows_state:
            return
        depth = event.depth
        path = self._path
        above = path[depth - 1] if 0 < depth <= len(path) else None
        forward = event.kind is not _BACKTRACK and event.parent is not None
        self._parent = above if forward and above is not None and above.id == event.parent else None
        self._step = event.step
        del path[depth:]
        if len(path) < depth:  # a jump down past depths never shown: nothing to step from
            path.extend([Step(None, None)] * (depth - len(path)))
        path.append(Step(event.id, event.node))

    def parent_of(self, event: Event) -> Step | None:
        """The state ``event`` stepped forward from, when it is the latest event observed
        and a forward step from a state shown one level up; None otherwise."""
        if event.step != self._step or event.kind is _BACKTRACK:
            return None
        return self._parent

    def remember(self, event: Event, parent: Step | None) -> None:
        """Take it that ``event`` stepped forward from ``parent`` (for a frame drawn without
        the events before it)."""
        self._step, self._parent = event.step, parent


def swatch(side: int, background: RGB, color: RGB = COLOR) -> npt.NDArray[np.uint8]:
    """The legend's picture of the mark: ``side`` x ``side`` pixels of ``background`` with
    the corner brackets of a cell just placed, in ``color``."""
    picture = np.empty((side, side, 3), dtype=np.uint8)
    picture[:] = background
    width = max(2, bracket_width(side), side // 10 & ~1)
    for top, left, bottom, right in bracket_bands(0, 0, side, width):
        picture[top:bottom, left:right] = color
    return picture


def bracket(board: TileBoard, cells: Sequence[int], *, width: int, color: RGB = COLOR) -> None:
    """Draw the corner brackets of ``color`` on each of the board's cells at flat
    (row-major) indices ``cells``, over the tiles of its last update, until its next."""
    if not width or board.grid is None or not cells:
        return
    size = board.atlas.size
    cols = board.shape[1]
    for k in cells:
        r, c = divmod(int(k), cols)
        top, left = board.top + r * size, board.left + c * size
        for band in bracket_bands(top, left, size, width):
            board.buffer.fill(band, color)
    board.drawn_over(cells)
