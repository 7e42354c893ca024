"""The filmstrip under the board: a frontier search's next boards, or a beam's level.

::

    the frontier in A*'s order: lowest f = g + h first; ties: the deepest (largest g)
    +--------+ +--------+ +--------+ +--------+ +--------+
    | board  | | board  | | board  | | board  | | board  |
    +--------+ +--------+ +--------+ +--------+ +--------+
    g 5 h 34   g 6 h 33   g 6 h 33   g 5 h 34   g 4 h 35
    [] expanding: the board above   [] on the frontier: the next 4 of 124

The boards and their numbers come from the frame's status fields
(:class:`~searchvid.search.frontierview.FrontierView`, which breadth-first, best-first, A*
and beam search attach to the frames of the nodes they expand), so the strip is
domain-free: each board is the view's own tiles, each first shrunk to the thumbnail's
cell size keeping its marks (:func:`shrunk_tiles`), then scaled by nearest neighbour (only
tile colours). Each board's frame says what it is to the search, and the last line explains
every mark the strip shows, with counts:

=============  ==============================================  ==============
role           mark                                            colour
=============  ==============================================  ==============
expanding      a frame (the board above is this one)           yellow
frontier       a frame                                         light grey
expanded       a frame (beam: done on this level)              dark grey
dropped        a cross over a dimmed board (beam)              light on dark
=============  ==============================================  ==============

A frame without a frontier view leaves the strip empty. On a found solution being replayed
(``MOVE`` frames) a line says that the search is over, over the solution's boards so far
(:meth:`~searchvid.render.narration.Narration.replay_view`): the latest moves, the one on
the board framed in yellow, the ones before it in grey, each with its move number. Only
the parts whose look changed are redrawn: each board slot, the heading and the legend line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Rect
from searchvid.render.hud import HUD_COLORS
from searchvid.render.palette import YELLOW
from searchvid.render.textink import MIN_TEXT, TextInk, ramp
from searchvid.search.events import Event, EventKind
from searchvid.search.frontierview import FrontierView, Glimpse, Role, frontier_of
from searchvid.search.status import Field, format_number

Pixels = npt.NDArray[np.uint8]

BACKGROUND: RGB = HUD_COLORS[0]
"""The strip's background: it reads as part of the status strip under it."""
TEXT: RGB = HUD_COLORS[2]
"""Its words: the status strip's colour."""
CURRENT: RGB = YELLOW
"""The frame of the board being expanded (the tree panel's colour for the current node)."""
WAITING: RGB = (230, 230, 230)
"""The frame of a board on the frontier (the tree panel's frontier colour)."""
DONE: RGB = (104, 104, 104)
"""The frame of a beam's board expanded already (the tree panel's visited colour)."""
CROSS: RGB = (230, 230, 230)
"""The core of a dropped board's cross; its edges are the background colour."""

FRAME_OF: dict[Role, RGB] = {
    Role.CURRENT: CURRENT,
    Role.WAITING: WAITING,
    Role.DONE: DONE,
    Role.DROPPED: DONE,
}

COLORS: tuple[RGB, ...] = (BACKGROUND, CURRENT, WAITING, DONE, CROSS, *ramp(TEXT, BACKGROUND))
"""Every colour the strip paints besides the boards' tiles."""

MARGIN = 6
"""Pixels around the strip's content (even)."""
GAP = 8
"""Pixels between two board slots (even)."""
_ROW_GAP = 4

REPLAY_NOTE = "the search is over: the board shows the solution it found, played move by move"
"""What the strip says on a frame without a frontier view (the solution replayed)."""


INK_SHARE = 0.2
"""A shrunk tile's pixel takes the most common colour of its block other than the tile's
ground where that colour covers at least this share of the block: thin lines and rings
(a road's edge, an open cell's target) stay, in their own colour, instead of falling
between the pixels a plain nearest-neighbour sampling reads (a ring read at every tenth
pixel is a few scattered dots, an "x")."""


def shrunk_tiles(tiles: Pixels, cell: int) -> Pixels:
    """Each of ``tiles`` (``(n, s, s, 3)``) shrunk to ``cell`` x ``cell`` pixels, in its own
    colours: a pixel's block of the tile (rows and columns ``k * s // cell`` up to the next)
    gives the most common colour other than the tile's ground (its most common colour)
    where that covers :data:`INK_SHARE` of the block, else the block's most common colour.
    Tiles no larger than ``cell`` are returned as they are."""
    n, size = tiles.shape[0], tiles.shape[1]
    if cell >= size:
        return tiles
    edges = np.arange(cell + 1) * size // cell
    area = np.diff(edges)[:, None] * np.diff(edges)[None, :]
    out: Pixels = np.empty((n, cell, cell, 3), dtype=np.uint8)
    for k in range(n):
        tile = tiles[k]
        colors, inverse, counts = np.unique(
            tile.reshape(-1, 3), axis=0, return_inverse=True, return_counts=True
        )
        which = inverse.reshape(size, size)
        # per colour, its pixels in each block: a summed-area table read at the block edges
        hot = (which[None] == np.arange(len(colors))[:, None, None]).astype(np.int32)
        table = np.zeros((len(colors), size + 1, size + 1), dtype=np.int32)
        table[:, 1:, 1:] = hot.cumsum(1).cumsum(2)
        top, bottom = edges[:-1, None], edges[1:, None]
        left, right = edges[None, :-1], edges[None, 1:]
        sums = table[:, bottom, right] - table[:, top, right] - table[:, bottom, left]
        sums += table[:, top, left]
        ground = int(counts.argmax())
        most = sums.argmax(0)
        others = sums.copy()
        others[ground] = -1
        ink = others.argmax(0)
        inked = others.max(0) >= INK_SHARE * area
        out[k] = colors[np.where(inked, ink, most)]
    return out


def board_picture(grid: npt.NDArray[Any], tiles: Pixels, height: int, width: int) -> Pixels:
    """The board of tile ids ``grid`` drawn with ``tiles`` (``(n, s, s, 3)``) and scaled by
    nearest neighbour to ``height`` x ``width``: pixel ``(y, x)`` is the full-size board's
    pixel ``(y * H // height, x * W // width)``, without drawing the full-size board."""
    size = tiles.shape[1]
    rows = np.arange(height) * (grid.shape[0] * size) // height
    cols = np.arange(width) * (grid.shape[1] * size) // width
    ids = np.asarray(grid)[(rows // size)[:, None], (cols // size)[None, :]]
    picture: Pixels = tiles[ids, (rows % size)[:, None], (cols % size)[None, :]]
    return picture


class Filmstrip:
    """The strip of boards under one search's board.

    Args:
        width: Width in pixels (even): the board's.
        board: The board's size in pixels ``(width, height)``: its boards keep that shape.
        slots: Boards side by side (at least 1).
        font_size: Text size in pixels (at least :data:`~searchvid.render.textink.MIN_TEXT`).
        grid: The view's ``grid(node)``: the tile ids of a node's board.
        tiles: The frame's tiles, ``(n, s, s, 3)`` RGB in the frame's colours; called when
            the first board is drawn (the frame's tiles are loaded after its palette is
            known, and that needs :attr:`colors`).

    Attributes:
        height: Height in pixels (even).
        text_height: The ink height of a line of its text.
        slot: Width of a board slot in pixels (even).
        thumb: ``(height, width)`` of a board picture in pixels (even).
        thick: Width of a board's frame in pixels.
    """

    def __init__(
        self,
        width: int,
        board: tuple[int, int],
        slots: int,
        *,
        font_size: int = MIN_TEXT + 2,
        grid: Callable[[Any], npt.NDArray[Any]] | None = None,
        tiles: Callable[[], Pixels] | None = None,
    ) -> None:
        if width % 2 or slots < 1:
            raise ValueError(f"a filmstrip is even-wide with a slot, got {width} px, {slots}")
        if font_size < MIN_TEXT:
            raise ValueError(f"font_size must be at least {MIN_TEXT}, got {font_size}")
        self.width = width
        self.slots = slots
        self._text = TextInk(font_size)
        self.text_height = self._text.height
        line = self._text.line
        self.slot = max(8, (width - 2 * MARGIN - (slots - 1) * GAP) // slots // 2 * 2)
        self.thick = 4 if self.slot >= 80 else 2
        inner = self.slot - 2 * self.thick
        board_w, board_h = max(1, board[0]), max(1, board[1])
        thumb_h, thumb_w = inner * board_h // board_w, inner
        if thumb_h > 3 * inner // 2:  # a tall board: no taller than 1.5 slots
            thumb_h = 3 * inner // 2
            thumb_w = thumb_h * board_w // board_h
        self.thumb = (max(2, thumb_h // 2 * 2), max(2, thumb_w // 2 * 2))
        box = self.thumb[0] + 2 * self.thick
        self.swatch = max(line, 12) // 2 * 2
        # rows: heading, boards, labels, legend
        self._heading_top = MARGIN
        self._boards_top = self._heading_top + line + _ROW_GAP
        self._labels_top = self._boards_top + box + 2
        self._legend_top = self._labels_top + line + _ROW_GAP
        height = self._legend_top + max(line, self.swatch) + MARGIN
        self.height = height + height % 2
        self._box = box
        self._grid = grid
        self._tiles = tiles
        self._tile_pixels: Pixels | None = None
        self._pictures: dict[bytes, Pixels] = {}
        self._shades = np.array(ramp(TEXT, BACKGROUND), dtype=np.uint8)
        self.pixels: Pixels = np.empty((self.height, width, 3), dtype=np.uint8)
        self.pixels[:] = BACKGROUND
        self._drawn_slots: list[tuple[Any, ...] | None] = [None] * slots
        self._drawn_heading: str | None = None
        self._drawn_legend: tuple[tuple[Role, str], ...] | None = None
        self._fresh = True

    @classmethod
    def measure(
        cls, width: int, board: tuple[int, int], slots: int, *, font_size: int = MIN_TEXT + 2
    ) -> int:
        """The height of a strip, nothing drawn."""
        return cls(width, board, slots, font_size=font_size).height

    @property
    def colors(self) -> tuple[RGB, ...]:
        """Every colour it paints besides the boards' tiles."""
        return COLORS

    def draw(self, fields: Sequence[Field], event: Event | None = None) -> list[Rect]:
        """Show the frontier view carried by the status ``fields`` of a frame showing
        ``event``; the rectangles that changed. Without a view the strip is empty, and on
        the frame of a found solution's move (``MOVE``) says that the search is over."""
        view = frontier_of(fields)
        changed: list[Rect] = []
        if self._fresh:
            self._fresh = False
            changed.append(Rect(0, 0, self.height, self.width))
        boards = shown_boards(view, self.slots) if view is not None else ()
        if view is not None:
            heading = view.order
        else:
            replay = event is not None and event.kind is EventKind.MOVE
            heading = REPLAY_NOTE if replay else ""
        if heading != self._drawn_heading:
            self._drawn_heading = heading
            changed.append(self._paint_heading(heading))
        for slot in range(self.slots):
            board = boards[slot] if slot < len(boards) else None
            look = _look(board)
            if look != self._drawn_slots[slot]:
                self._drawn_slots[slot] = look
                changed.append(self._paint_slot(slot, board))
        legend = legend_entries(view, boards) if view is not None else ()
        if legend != self._drawn_legend:
            self._drawn_legend = legend
            changed.append(self._paint_legend(legend))
        return changed

    # -- painting ----------------------------------------------------------------------

    def slot_rect(self, slot: int) -> Rect:
        """Where board slot ``slot`` (its frame and its label) sits in the strip."""
        left = MARGIN + slot * (self.slot + GAP)
        return Rect(self._boards_top, left, self._legend_top - _ROW_GAP, left + self.slot)

    def picture_rect(self, slot: int) -> Rect:
        """Where the board picture of slot ``slot`` sits (inside its frame)."""
        rect = self.slot_rect(slot)
        top = rect.top + self.thick
        left = rect.left + (self.slot - self.thumb[1]) // 2 // 2 * 2
        return Rect(top, left, top + self.thumb[0], left + self.thumb[1])

    def _paint_heading(self, text: str) -> Rect:
        rect = Rect(self._heading_top, 0, self._heading_top + self._text.line, self.width)
        self.pixels[rect.top : rect.bottom, :] = BACKGROUND
        self._write(text, rect.top, MARGIN, self.width - 2 * MARGIN)
        return rect

    def _paint_slot(self, slot: int, board: Glimpse | None) -> Rect:
        rect = self.slot_rect(slot)
        self.pixels[rect.top : rect.bottom, rect.left : rect.right] = BACKGROUND
        if board is None:
            return rect
        pic = self.picture_rect(slot)
        frame = Rect(
            pic.top - self.thick,
            pic.left - self.thick,
            pic.bottom + self.thick,
            pic.right + self.thick,
        )
        color = FRAME_OF[board.role]
        self.pixels[frame.top : frame.bottom, frame.left : frame.right] = color
        picture = self._picture(board.node)
        region = self.pixels[pic.top : pic.bottom, pic.left : pic.right]
        region[:] = picture
        if board.role is Role.DROPPED:
            _dim(region)
            _cross(region, self.thick)
        label = " ".join(f.text() for f in board.fields)
        width = self._text.advance(label)
        room = rect.right - rect.left
        left = rect.left + max(0, (room - width) // 2)
        self._write(label, self._labels_top, left, room)
        return rect

    def _paint_legend(self, entries: tuple[tuple[Role, str], ...]) -> Rect:
        top = self._legend_top
        rect = Rect(top, 0, min(self.height, top + max(self._text.line, self.swatch)), self.width)
        self.pixels[rect.top : rect.bottom, :] = BACKGROUND
        x = MARGIN
        s = self.swatch
        text_top = top + (s - self._text.line) // 2 if s > self._text.line else top
        for role, words in entries:
            if x + s > self.width - MARGIN:
                break
            self._paint_swatch(role, top, x)
            x += s + 6
            x += self._write(words, max(top, text_top), x, self.width - MARGIN - x) + 16
        return rect

    def _paint_swatch(self, role: Role, top: int, left: int) -> None:
        s = self.swatch
        box = self.pixels[top : top + s, left : left + s]
        box[:] = FRAME_OF[role]
        inner = box[3 : s - 3, 3 : s - 3]
        inner[:] = BACKGROUND
        if role is Role.DROPPED:
            _cross(box, 2)

    def _write(self, text: str, top: int, left: int, width: int) -> int:
        """Write ``text`` (cut with "…" to ``width`` px) from ``(top, left)``; its advance."""
        text = self._text.fit_advance(text, width)
        if not text:
            return 0
        shade = self._text.shade(text)
        region = self.pixels[top : top + shade.shape[0], left : left + shade.shape[1]]
        shade = shade[: region.shape[0], : region.shape[1]]
        inked = shade > 0
        region[inked] = self._shades[shade[inked]]
        return int(shade.shape[1])

    def _picture(self, node: Any) -> Pixels:
        """``node``'s board at the strip's size (kept for boards that stay on screen)."""
        if self._grid is None or self._tiles is None:
            raise RuntimeError("a filmstrip that draws boards needs grid and tiles")
        grid = np.asarray(self._grid(node))
        key = grid.tobytes() + bytes(str(grid.shape), "ascii")
        picture = self._pictures.get(key)
        if picture is None:
            if self._tile_pixels is None:
                tiles = np.asarray(self._tiles())[..., :3]
                rows, cols = grid.shape[0], grid.shape[1]
                # at least the thumbnail's pixels per cell: no row or column of the shrunk
                # tiles is skipped when the board is scaled to the thumbnail
                cell = max(1, min(self.thumb[0] // rows, self.thumb[1] // cols))
                self._tile_pixels = shrunk_tiles(tiles, cell)
            picture = board_picture(grid, self._tile_pixels, *self.thumb)
            if len(self._pictures) >= 4 * self.slots:  # only the boards of recent frames
                self._pictures.clear()
            self._pictures[key] = picture
        return picture


def shown_boards(view: FrontierView, slots: int) -> tuple[Glimpse, ...]:
    """The boards of ``view`` a strip of ``slots`` shows: the first ones, moved on so that
    the board being expanded is among them."""
    boards = view.boards
    at = next((i for i, b in enumerate(boards) if b.role is Role.CURRENT), 0)
    start = max(0, at - slots + 1)
    return boards[start : start + slots]


def legend_entries(view: FrontierView, boards: Sequence[Glimpse]) -> tuple[tuple[Role, str], ...]:
    """The legend line for ``boards`` shown of ``view``: each role shown, in words, with
    what part of the search's nodes of that role the strip shows."""
    entries: list[tuple[Role, str]] = []
    for role in Role:
        shown = sum(1 for b in boards if b.role is role)
        if not shown:
            continue
        total = view.total(role)
        if view.order == REPLAY_NOTE:  # a played-out solution: the moves up to this one
            words = "the board above" if role is Role.CURRENT else "its moves before it"
        elif role is Role.CURRENT:
            words = "expanding: the board above"
        elif total > shown:
            which = "best" if role is Role.DROPPED else "next"
            words = f"{role.value}: the {which} {shown} of {format_number(total)}"
        else:
            words = role.value
        entries.append((role, words))
    return tuple(entries)


def _look(board: Glimpse | None) -> tuple[Any, ...] | None:
    """Everything that decides a slot's pixels (a tree node id is always one state)."""
    if board is None:
        return None
    return (board.id, board.role, tuple(f.text() for f in board.fields))


def _dim(region: Pixels) -> None:
    """Cover one 2 x 2 block in four of ``region`` with the background: the board shows
    through, dimmed but legible, in its own colours (blocks on even pixels keep 4:2:0
    chroma exact)."""
    h, w = region.shape[:2]
    rows = (np.arange(h) // 2) % 2 == 0
    cols = (np.arange(w) // 2) % 2 == 0
    region[rows[:, None] & cols[None, :]] = BACKGROUND


def _cross(region: Pixels, thick: int) -> None:
    """A cross corner to corner over ``region``: a light core ``thick`` px wide, edged
    with the background so that it shows on any board."""
    h, w = region.shape[:2]
    if h < 4 or w < 4:
        return
    ys = np.arange(h)[:, None]
    xs = np.arange(w)[None, :]
    # distance in x from each diagonal, scaled to the region's aspect
    down = np.abs(xs - ys * (w - 1) / max(1, h - 1))
    up = np.abs(xs - (h - 1 - ys) * (w - 1) / max(1, h - 1))
    near = np.minimum(down, up)
    half = max(1.0, thick / 2)
    region[near <= half + 2] = BACKGROUND
    region[near <= half] = CROSS
