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

Where the view has a ``move_cells`` hook (the cells a move occupies), the outline keeps to
what the step really undid: after one move undone, only that move's cells (not those whose
tile changed only by a highlight: a winning line that no longer is, the "last move" mark
passing back to the node returned to); after a longer step back, never the cells of the
move that made the node returned to, which that frame shows as its last move: one cell is
never both "last move" and "undone". That move is known from the events too: the watch
remembers the latest state shown at each depth, so the node returned to's tree parent is
the one remembered one level up (when its id matches).

A paced depth-first video (``[video] keep_depth``) shows every step onto a node at most that
deep, but few of the steps back between them: after a first move's subtree, the search steps
back to the start and the next frame is the next first move. With ``siblings`` (the
``keep_depth``), such a forward step, at most that deep and straight after a step back to
its parent, also outlines what that step back undid (the previous sibling's cells, which an
earlier frame showed), less the cells the new move takes: a tile moved elsewhere reads as
one taken back and another placed, not as one that jumped.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import cell_bands
from searchvid.render.palette import UNDONE
from searchvid.render.placed import changed_cells
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
    """The node a ``BACKTRACK`` event left: its state and its search-tree id (or None), the
    tree parent of the node it returned to (None: not known, or the root) and the tree id
    of its own parent."""

    node: Any
    id: int | None
    above: Any = None
    up: int | None = None
    """The search-tree id of the node left's parent (None: not known)."""


def marked_cells(view: Any, left: Left, event: Event, grid: npt.NDArray[np.integer]) -> list[int]:
    """The cells the step back ``event`` (whose node's tiles are ``grid``) outlines, from
    ``left``, ascending: the cells whose tile differs between the two nodes
    (:func:`undone_cells`), narrowed where the view's ``move_cells`` hook can say more.

    Where the node left is a child of the node returned to, only the cells of the move
    between them (the hook's) are undone: a cell whose tile differs only by a highlight (a
    winning line that no longer is, the last move's mark) is not. Otherwise the cells of
    the move that made the node returned to from its parent (``left.above``, when known)
    are left out: that is the frame's last move, not something undone. A view without the
    hook keeps every differing cell (tile ids alone cannot tell a move from a highlight)."""
    cells = undone_cells(np.asarray(view.grid(left.node)), grid)
    hook = getattr(view, "move_cells", None)
    if not cells or not callable(hook) or np.shape(view.grid(left.node)) != np.shape(grid):
        return cells
    if left.up is not None and left.up == event.id:  # one move undone: the hook's cells
        cols = int(np.shape(grid)[1])
        moved = {int(r) * cols + int(c) for r, c in hook(event.node, left.node)}
        return [k for k in cells if k in moved]
    if left.above is None:
        return cells
    above = left.above
    made = set(changed_cells(view, above, event.node, np.asarray(view.grid(above)), grid))
    return [k for k in cells if k not in made]


def undone_before(
    view: Any, back: tuple[Event, Left], node: Any, grid: npt.NDArray[np.integer]
) -> list[int]:
    """The cells the step back ``back`` (:meth:`UndoWatch.back_before`) outlines on the frame
    of the forward step onto ``node`` (whose tiles are ``grid``) just after it: those it
    undid (:func:`marked_cells`), less those the new move takes again."""
    event, left = back
    returned = np.asarray(view.grid(event.node))
    undone = marked_cells(view, left, event, returned)
    taken = set(changed_cells(view, event.node, node, returned, grid))
    return [k for k in undone if k not in taken]


class UndoWatch:
    """Fed every event of one search, knows which node each recent ``BACKTRACK`` left.

    Only the latest ``BACKTRACK`` is remembered (a frame shows the latest event of its
    column), keyed by its step so that a stale answer is never given.

    Args:
        siblings: Forward steps at most this deep that come straight after a step back to
            their parent are told the step back too (:meth:`back_before`; 0: none are).
    """

    def __init__(self, siblings: int = 0) -> None:
        self.siblings = siblings
        # a forward step's step, and the step back just before it with the node it left
        self._after: tuple[int, Event, Left] | None = None
        self._last: Event | None = None  # the latest event that showed a state
        self._step: int | None = None  # the step of the latest BACKTRACK
        self._left: Left | None = None
        # the latest state shown at each depth, as (tree id, node): the parent of the node
        # a step back returns to is the one a level up (one node per depth: bounded memory)
        self._path: list[tuple[int | None, Any]] = []

    def observe(self, event: Event) -> None:
        """Take the next event of the stream (every event, in order)."""
        kind = event.kind
        if not kind.shows_state:
            return
        depth, path = event.depth, self._path
        last = self._last
        if (
            kind is not _BACKTRACK
            and 0 < depth <= self.siblings
            and last is not None
            and last.kind is _BACKTRACK
            and last.id is not None
            and event.parent == last.id
            and self._left is not None
        ):  # the next sibling, straight after the step back from the one before
            self._after = (event.step, last, self._left)
        if kind is _BACKTRACK:
            last = self._last
            above = path[depth - 1] if 0 < depth <= len(path) else None
            parent = above[1] if above is not None and above[0] == event.parent else None
            self._step = event.step
            self._left = Left(last.node, last.id, parent, last.parent) if last is not None else None
        del path[depth:]
        if len(path) < depth:  # a jump down past depths never shown: no parent known there
            path.extend([(None, None)] * (depth - len(path)))
        path.append((event.id, event.node))
        self._last = event

    def remember(self, event: Event, left: Left) -> None:
        """Take it that the ``BACKTRACK`` ``event`` left ``left`` (for a frame drawn without
        the events before it, such as the last frames of a stream read once)."""
        self._step, self._left, self._last = event.step, left, event

    def back_before(self, event: Event) -> tuple[Event, Left] | None:
        """The step back just before ``event`` and the node it left, when ``event`` is a
        forward step onto the next sibling at most ``siblings`` deep (the latest observed);
        None otherwise."""
        after = self._after
        if after is None or event.kind is _BACKTRACK or after[0] != event.step:
            return None
        return after[1], after[2]

    def remember_back(self, event: Event, back: tuple[Event, Left] | None) -> None:
        """Take it that the step back before ``event`` is ``back`` (:meth:`back_before`; for
        a frame drawn without the events before it)."""
        self._after = (event.step, *back) if back is not None else None

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
