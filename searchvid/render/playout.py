"""The playout frame: a board that shows where a random playout ended, not a position played.

MCTS reports the end of each random playout (a ``LEAF`` off its tree: no tree id, the
playout's start as parent), and, when that end is the best so far, an ``IMPROVE`` of the same
state; with ``rollout_events``, every state of the playout (``ROLLOUT``). A frame of such an
event draws the playout's state on the board, which may look like the goal reached (a sorted
Water Sort, a full Railroad Ink board) while the search has played nothing of it. The strip
says "playout, not played", but the eye reads the board first: so the board itself is framed
in orange on that frame only, and the legend names the frame.

The frame is a band along the board's edge, inside its edge cells (the outline of all its
cells, :meth:`~searchvid.render.canvas.TileBoard.outline`), twice as wide as the "undone"
outline, so that it differs from it in colour and shape (all the board, not some cells).
Everything here is domain-free: it reads the event's kind and tree ids only.

The same frame, in the tree panel's "current" colour (yellow), marks a board that shows a
*searched* position: in a game played move by move, a frame of the search whose board is the
node being searched, ahead of the game's position (the strip's "MCTS searched position (not
played)", :meth:`~searchvid.render.narration.Narration.shows_searched`). The legend names it
too, so the board itself says it is not the position played.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.boardlegend import Mark
from searchvid.render.canvas import cell_bands
from searchvid.render.palette import ORANGE, YELLOW
from searchvid.render.settings import VideoOptions
from searchvid.render.undo import line_width
from searchvid.search.events import Event, EventKind

COLOR: RGB = ORANGE
"""The frame's colour."""

WORDS = "a playout's end, not played"
"""The legend's words for the frame."""

MARK = Mark("searchvid:playout", WORDS)
"""The legend's entry (its "tile" is the renderer's own swatch, :func:`swatch`)."""

SEARCHED_COLOR: RGB = YELLOW
"""The frame's colour on a searched position: the tree panel's "current" colour (its
node is the current one there)."""

SEARCHED_WORDS = "a searched position, not played"
"""The legend's words for that frame."""

SEARCHED_MARK = Mark("searchvid:searched", SEARCHED_WORDS)
"""The legend's entry for it (the renderer's own swatch, :func:`swatch`)."""

_KINDS = frozenset({EventKind.LEAF, EventKind.IMPROVE, EventKind.ROLLOUT})


def shows_playout(event: Event) -> bool:
    """Whether ``event``'s board is a state a random playout reached: an MCTS ``LEAF``,
    ``IMPROVE`` or ``ROLLOUT`` off the tree (no tree id, a parent: the playout's start)."""
    return event.kind in _KINDS and event.id is None and event.parent is not None


def playout_marks(video: VideoOptions, iterations: bool) -> tuple[Mark, ...]:
    """The legend's entry for the frame, on boards of searches that think in iterations
    (``iterations``: MCTS, whose frames may show a playout's end); none where the frames
    are the moves played only (no playout is then a frame)."""
    if not iterations or video.frames == "moves":
        return ()
    return (MARK,)


def searched_marks(video: VideoOptions, iterations: bool, playing: bool) -> tuple[Mark, ...]:
    """The legend's entry for the searched-position frame: on boards of searches that think
    in iterations (MCTS) playing a game move by move (``playing``: a voice's ``move_phase``
    is "playing"), whose search frames show positions ahead of the game's; none where the
    frames are the moves played only."""
    if not iterations or not playing or video.frames == "moves":
        return ()
    return (SEARCHED_MARK,)


def frame_width(tile_size: int) -> int:
    """The frame's width in tiles of ``tile_size`` pixels: twice the "undone" outline's
    (even, at most a quarter of a tile); 0 where tiles are too small for an outline."""
    return min(2 * line_width(tile_size), tile_size // 4 & ~1)


def cells(size: int) -> range:
    """The cells a frame outlines on a board of ``size`` cells: all of them (the outline
    of the whole board runs along its edge only)."""
    return range(size)


def swatch(side: int, background: RGB, color: RGB = COLOR) -> npt.NDArray[np.uint8]:
    """The legend's picture of the frame: ``side`` x ``side`` pixels of ``background``
    framed in ``color`` (:data:`COLOR`, or :data:`SEARCHED_COLOR`), as wide as on a tile of
    ``side`` pixels (at least 2 px)."""
    picture = np.empty((side, side, 3), dtype=np.uint8)
    picture[:] = background
    width = max(2, frame_width(side), side // 6 & ~1)
    for top, left, bottom, right in cell_bands(0, 0, side, width):
        picture[top:bottom, left:right] = color
    return picture
