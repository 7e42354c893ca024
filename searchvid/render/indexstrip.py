"""The status strip's place in the frame (:class:`IndexStrip`: a strip of colour indices whose
changed parts alone are compared and converted, by lookup, never from RGB, into the
:class:`~searchvid.render.canvas.FrameBuffer`), and :class:`Canvas`, a board with such a strip
under it: the single-search frame."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.canvas import FrameBuffer, PixelFormat, Pixels, Rect, even_box
from searchvid.render.yuv import IndexedYuv


class IndexStrip:
    """A strip of colour indices (the HUD) inside a :class:`FrameBuffer`.

    :meth:`show` converts and copies only the part that differs from the strip shown before;
    told which rectangles its drawer touched, it compares only those. For yuv420p the
    indices are converted by lookup (:class:`~searchvid.render.yuv.IndexedYuv`).

    Args:
        buffer: The frame it draws into.
        colors: The colours the indices refer to (palette colours for PAL8).
        top: First pixel row (even).
        left: First pixel column (even).
        height: Rows (even).
        width: Columns (even).
    """

    def __init__(
        self,
        buffer: FrameBuffer,
        colors: tuple[RGB, ...],
        *,
        top: int,
        left: int,
        height: int,
        width: int,
    ) -> None:
        if (top | left | height) & 1:
            raise ValueError("a strip starts on even pixels and has an even height")
        self.buffer = buffer
        self.top, self.left, self.height, self.width = top, left, height, width
        self._rgb = np.array(colors, dtype=np.uint8).reshape(-1, 3)
        self._pal: npt.NDArray[np.uint8] | None = None  # palette indices of the colours
        self._yuv = IndexedYuv(self._rgb) if buffer.pixel_format is PixelFormat.YUV420P else None
        self._shown: npt.NDArray[np.uint8] | None = None

    def show(self, strip: npt.NDArray[np.uint8], changed: Sequence[Rect] | None = None) -> None:
        """Show ``strip`` (``(height, width)`` colour indices).

        Args:
            strip: The strip's indices.
            changed: Rectangles of ``strip`` (its own coordinates) holding every index that
                may differ from the strip shown before (None: any may).
        """
        if strip.shape != (self.height, self.width):
            raise ValueError(
                f"strip of shape {strip.shape} does not fit ({self.height}, {self.width})"
            )
        previous = self._shown
        if previous is None:
            self._shown = strip.copy()
            self._paint(strip, Rect(0, 0, self.height, self.width))
            return
        areas = [Rect(0, 0, self.height, self.width)] if changed is None else changed
        for area in areas:
            box = _changed_box(strip, previous, area)
            if box is not None:
                rows, cols = slice(box.top, box.bottom), slice(box.left, box.right)
                previous[rows, cols] = strip[rows, cols]
                self._paint(strip, box)

    def _paint(self, strip: npt.NDArray[np.uint8], box: Rect) -> None:
        """Convert and copy ``box`` of ``strip`` into the frame."""
        buffer = self.buffer
        if buffer.pixel_format is PixelFormat.YUV420P:
            box = even_box(box)
        part = strip[box.top : box.bottom, box.left : box.right]
        top, left = self.top + box.top, self.left + box.left
        bottom, right = top + part.shape[0], left + part.shape[1]
        if buffer.pixel_format is PixelFormat.PAL8:  # a lookup, no colour search
            if self._pal is None:
                self._pal = buffer.index_of(self._rgb)
            buffer.frame[top:bottom, left:right] = self._pal[part]
        elif self._yuv is not None:  # a lookup too: no conversion of RGB pixels
            y, u, v = self._yuv.convert(part)
            py, pu, pv = buffer.planes
            py[top:bottom, left:right] = y
            half = (slice(top // 2, bottom // 2), slice(left // 2, right // 2))
            pu[half] = u
            pv[half] = v
        else:
            buffer.paint_rgb(top, left, self._rgb[part])
            return
        buffer.mark(top, left, bottom, right)


def _changed_box(
    strip: npt.NDArray[np.uint8], previous: npt.NDArray[np.uint8], area: Rect
) -> Rect | None:
    """The smallest rectangle inside ``area`` holding every index where ``strip`` and
    ``previous`` differ (None: none do)."""
    top, left = max(0, area.top), max(0, area.left)
    bottom, right = min(strip.shape[0], area.bottom), min(strip.shape[1], area.right)
    if bottom <= top or right <= left:
        return None
    differs = strip[top:bottom, left:right] != previous[top:bottom, left:right]
    rows = np.flatnonzero(differs.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(differs[rows[0] : rows[-1] + 1].any(axis=0))
    return Rect(
        top + int(rows[0]), left + int(cols[0]), top + int(rows[-1]) + 1, left + int(cols[-1]) + 1
    )


class Canvas:
    """One board of ``shape`` tiles plus an optional footer strip: the single-search frame.

    A thin composite of :class:`FrameBuffer`, one :class:`TileBoard` at the top left and one
    :class:`IndexStrip` under it.

    Args:
        atlas: The tiles.
        shape: ``(rows, cols)`` of every grid.
        pixel_format: Layout of :attr:`frame`.
        footer_height: Even number of pixel rows under the board for the footer.
        footer_colors: Colours the footer strip's indices refer to (palette colours for PAL8).
    """

    def __init__(
        self,
        atlas: TileAtlas,
        shape: tuple[int, int],
        pixel_format: PixelFormat = PixelFormat.RGB24,
        *,
        footer_height: int = 0,
        footer_colors: tuple[RGB, ...] = (),
    ) -> None:
        if footer_height % 2 or footer_height < 0:
            raise ValueError(f"footer height must be even, got {footer_height}")
        self.atlas = atlas
        self.shape = (int(shape[0]), int(shape[1]))
        self.pixel_format = pixel_format
        rows, cols = self.shape
        self.board_height = rows * atlas.size
        self.width = cols * atlas.size
        self.height = self.board_height + footer_height
        self.footer_height = footer_height
        first = atlas.palette[0]
        background: RGB = (
            footer_colors[0] if footer_colors else (int(first[0]), int(first[1]), int(first[2]))
        )
        self.buffer = FrameBuffer(
            self.width,
            max(self.height, 2),
            pixel_format,
            palette=atlas.palette,
            background=background,
        )
        self.buffer.take_dirty()
        self.frame = self.buffer.frame
        self._board = self.buffer.board(atlas, self.shape)
        self._footer = (
            IndexStrip(
                self.buffer,
                footer_colors,
                top=self.board_height,
                left=0,
                height=footer_height,
                width=self.width,
            )
            if footer_height
            else None
        )

    @property
    def grid(self) -> npt.NDArray[np.int16] | None:
        """The grid currently drawn (None before the first :meth:`update`)."""
        return self._board.grid

    def update(self, grid: npt.NDArray[np.integer]) -> int:
        """Draw ``grid``; see :meth:`TileBoard.update`."""
        return self._board.update(grid)

    def recompose(self) -> None:
        """Redraw the whole board from the current grid."""
        self._board.recompose()

    def outline(self, cells: Sequence[int], color: RGB, *, width: int) -> None:
        """Outline ``cells`` until the next :meth:`update`; see :meth:`TileBoard.outline`."""
        self._board.outline(cells, color, width=width)

    def set_footer(self, strip: npt.NDArray[np.uint8]) -> None:
        """Show ``strip`` (footer colour indices, ``(footer_height, width)``) under the board."""
        if self._footer is None or strip.shape != (self.footer_height, self.width):
            raise ValueError(f"footer strip of shape {strip.shape} does not fit the canvas")
        self._footer.show(strip)

    def take_dirty(self) -> Rect:
        """The rectangle bounding the pixels changed since the last call (empty if none)."""
        return self.buffer.take_dirty()

    def rgb(self) -> Pixels:
        """The current frame as ``(height, width, 3)`` RGB (a view for RGB24, else a copy)."""
        return self.buffer.rgb()
