"""The "undone" cue: a step back looks different from a step down.

A depth-first search's ``BACKTRACK`` event shows the node it returned to, which on the board
looks just like a step down to that node. On the frame of a ``BACKTRACK``, the cells the
step undid (those whose tile differs between the node it left and the node it returned to)
are outlined in :data:`~searchvid.render.palette.UNDONE` (one outline around each group of
neighbouring cells), and the tree panel rings the node left in the same colour. The board
legend names the mark ("undone") in scenes whose algorithm backtracks. Everything here is
domain-free: it reads events and tile grids.

The node left is the node of the last event before the ``BACKTRACK`` that showed a state
(``ENTER``, ``LEAF``, an earlier ``BACKTRACK``...): the step undoes exactly the difference
between the two. It is known from the events alone, so a preview of one frame, which
observes every event but draws only that frame, marks the same cells as the whole render.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import cell_bands
from searchvid.render.palette import UNDONE
from searchvid.search.events import Event, EventKind

COLOR: RGB = UNDONE
"""The mark's colour (every format's palette holds it when the mark may be drawn)."""

WORDS = "undone"
"""What the board legend calls the mark."""

_BACKTRACK = EventKind.BACKTRACK


def line_width(tile_size: int) -> int:
    """The outline's width in tiles of ``tile_size`` pixels: even (so that its edges fall on
    even pixels, where yuv420p's 2x2 chroma cannot straddle it and the tile under it), 2 px
    on small tiles and about a 25th of the tile on large ones (8 px on 200 px tiles); 0 on
    tiles too small to show it."""
    if tile_size < 8:
        return 0
    return max(2, tile_size // 25 & ~1)


def undone_cells(left: npt.NDArray[np.integer], returned: npt.NDArray[np.integer]) -> list[int]:
    """Flat (row-major) indices of the cells whose tile differs between the grid of the node
    left and that of the node returned to, ascending."""
    if left.shape != returned.shape:  # a view whose grids change shape: mark the whole board
        return list(range(int(returned.size)))
    cells: list[int] = np.flatnonzero(np.asarray(left) != np.asarray(returned)).tolist()
    return cells


class Left(NamedTuple):
    """The node a ``BACKTRACK`` event left: its state and its search-tree id (or None)."""

    node: Any
    id: int | None


class UndoWatch:
    """Fed every event of one search, knows which node each recent ``BACKTRACK`` left.

    Only the latest ``BACKTRACK`` is remembered (a frame shows the latest event of its
    column), keyed by its step so that a stale answer is never given.
    """

    def __init__(self) -> None:
        self._last: Event | None = None  # the latest event that showed a state
        self._step: int | None = None  # the step of the latest BACKTRACK
        self._left: Left | None = None

    def observe(self, event: Event) -> None:
        """Take the next event of the stream (every event, in order)."""
        kind = event.kind
        if not kind.shows_state:
            return
        if kind is _BACKTRACK:
            last = self._last
            self._step = event.step
            self._left = Left(last.node, last.id) if last is not None else None
        self._last = event

    def remember(self, event: Event, left: Left) -> None:
        """Take it that the ``BACKTRACK`` ``event`` left ``left`` (for a frame drawn without
        the events before it, such as the last frames of a stream read once)."""
        self._step, self._left, self._last = event.step, left, event

    def left_by(self, event: Event) -> Left | None:
        """The node ``event`` left, when it is a ``BACKTRACK`` (the latest one observed);
        None otherwise."""
        if event.kind is not _BACKTRACK or event.step != self._step:
            return None
        return self._left


def swatch(side: int, background: RGB) -> npt.NDArray[np.uint8]:
    """The legend's picture of the mark: ``side`` x ``side`` pixels of ``background``
    outlined as a cell the step undid (at least 2 px wide)."""
    picture = np.empty((side, side, 3), dtype=np.uint8)
    picture[:] = background
    width = max(2, line_width(side), side // 10 & ~1)
    for top, left, bottom, right in cell_bands(0, 0, side, width):
        picture[top:bottom, left:right] = COLOR
    return picture
