"""The cached canvas: the current frame, redrawn only where the tile grid changed.

Comparing consecutive tile-id grids tells the canvas exactly which cells to re-blit, for any
algorithm: one cell after a backtracking step, many after an MCTS jump or a random-walk
restart (then the whole board is recomposed in one vectorised step).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from searchvid.errors import RunError
from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.yuv import rgb_to_yuv420

Pixels = npt.NDArray[np.uint8]


class PixelFormat(enum.Enum):
    """Memory layout of a frame, as ffmpeg names it."""

    RGB24 = "rgb24"
    """``(height, width, 3)`` RGB."""
    PAL8 = "pal8"
    """``(height, width)`` indices into the atlas palette."""
    YUV420P = "yuv420p"
    """Flat: the Y plane ``(height, width)``, then U and V ``(height/2, width/2)``."""


class Rect(NamedTuple):
    """A pixel rectangle: rows ``top:bottom``, columns ``left:right``."""

    top: int
    left: int
    bottom: int
    right: int


@dataclass(frozen=True)
class _Layer:
    """One plane of the board: tiles of ``th`` x ``tw`` pixels blitted into ``target``."""

    tiles: Pixels
    target: Pixels
    blocks: Pixels  # the same memory as target, viewed as (rows, cols, th, tw[, 3])
    th: int
    tw: int


class Canvas:
    """Holds the current frame of a board of ``shape`` tiles, plus an optional footer strip.

    Call :meth:`update` with each new tile grid: only cells whose id changed are re-blitted,
    and the whole board is recomposed in one numpy step when most cells changed. The footer
    (the HUD strip under the board) is set with :meth:`set_footer`. :attr:`frame` is one
    C-contiguous buffer in ``pixel_format`` layout, ready for an encoder.

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
        self._footer_rgb = np.array(footer_colors, dtype=np.uint8).reshape(-1, 3)
        self._footer_pal = (
            atlas.index_of(self._footer_rgb) if pixel_format is PixelFormat.PAL8 else None
        )
        self._footer: Pixels | None = None
        self._footer_yuv = self._footer_luts() if pixel_format is PixelFormat.YUV420P else None
        self._grid: npt.NDArray[np.int16] | None = None
        self._dirty: tuple[int, int, int, int] | None = None
        self._cells = self.shape[0] * self.shape[1]
        self.frame, self._planes = self._allocate()
        self._layers = self._make_layers()
        self._blits = tuple((lay.tiles, lay.target, lay.th, lay.tw) for lay in self._layers)

    @property
    def grid(self) -> npt.NDArray[np.int16] | None:
        """The grid currently drawn (None before the first :meth:`update`)."""
        return self._grid

    def update(self, grid: npt.NDArray[np.integer]) -> int:
        """Draw ``grid``; returns how many cells were re-blitted (all on a full recompose).

        Raises:
            RunError: The grid's shape differs from :attr:`shape` or it holds unknown tile ids.
        """
        if grid.shape != self.shape:
            raise RunError(f"the view returned a grid of shape {grid.shape}, expected {self.shape}")
        previous = self._grid
        if previous is not None:
            changed: list[int] = (grid != previous).ravel().nonzero()[0].tolist()
            if not changed:
                return 0
            if 2 * len(changed) <= self._cells:  # a few cells: re-blit just those
                self._blit_cells(grid, changed)
                self._grid = grid.astype(np.int16)
                return len(changed)
        own = grid.astype(np.int16)
        if own.size and (int(own.min()) < 0 or int(own.max()) >= len(self.atlas)):
            bad = int(own.min()) if int(own.min()) < 0 else int(own.max())
            raise RunError(f"the view returned tile id {bad}; the tile set has {len(self.atlas)}")
        self._grid = own
        self.recompose()
        return self._cells

    def recompose(self) -> None:
        """Redraw the whole board from the current grid in one vectorised step per plane."""
        grid = self._grid
        if grid is None:
            return
        for layer in self._layers:
            layer.blocks[...] = layer.tiles[grid]
        self._mark(0, 0, self.board_height, self.width)

    def set_footer(self, strip: npt.NDArray[np.uint8]) -> None:
        """Show ``strip`` (footer colour indices, ``(footer_height, width)``) under the board.

        Only the part that differs from the previous strip is converted and copied.
        """
        if strip.shape != (self.footer_height, self.width):
            raise ValueError(f"footer strip of shape {strip.shape} does not fit the canvas")
        previous = self._footer
        if previous is None:
            box = Rect(0, 0, self.footer_height, self.width)
        else:
            rows = np.flatnonzero((strip != previous).any(axis=1))
            if rows.size == 0:
                return
            cols = np.flatnonzero(
                (strip[rows[0] : rows[-1] + 1] != previous[rows[0] : rows[-1] + 1]).any(axis=0)
            )
            box = Rect(int(rows[0]), int(cols[0]), int(rows[-1]) + 1, int(cols[-1]) + 1)
        self._footer = strip.copy()
        self._paint_footer(box, strip)

    def take_dirty(self) -> Rect:
        """The rectangle bounding the pixels changed since the last call (empty if none)."""
        dirty, self._dirty = self._dirty, None
        return Rect(*dirty) if dirty is not None else Rect(0, 0, 0, 0)

    def rgb(self) -> Pixels:
        """The current frame as ``(height, width, 3)`` RGB (a view for RGB24, else a copy)."""
        if self.pixel_format is PixelFormat.RGB24:
            return self.frame
        if self.pixel_format is PixelFormat.PAL8:
            rgb: Pixels = self.atlas.palette[self.frame]
            return rgb
        raise ValueError("a yuv420p canvas cannot be read back as RGB exactly")

    def _allocate(self) -> tuple[Pixels, tuple[Pixels, ...]]:
        h, w = self.height, self.width
        frame: Pixels
        if self.pixel_format is PixelFormat.RGB24:
            frame = np.zeros((h, w, 3), dtype=np.uint8)
            return frame, (frame,)
        if self.pixel_format is PixelFormat.PAL8:
            frame = np.zeros((h, w), dtype=np.uint8)
            return frame, (frame,)
        luma, chroma = h * w, (h // 2) * (w // 2)
        frame = np.zeros(luma + 2 * chroma, dtype=np.uint8)
        y = frame[:luma].reshape(h, w)
        u = frame[luma : luma + chroma].reshape(h // 2, w // 2)
        v = frame[luma + chroma :].reshape(h // 2, w // 2)
        return frame, (y, u, v)

    def _make_layers(self) -> tuple[_Layer, ...]:
        if self.pixel_format is PixelFormat.RGB24:
            sources: tuple[Pixels, ...] = (self.atlas.tiles,)
        elif self.pixel_format is PixelFormat.PAL8:
            sources = (self.atlas.indexed,)
        else:
            sources = self.atlas.yuv
        rows, cols = self.shape
        layers = []
        for tiles, plane in zip(sources, self._planes, strict=True):
            th, tw = tiles.shape[1], tiles.shape[2]
            target = plane[: rows * th]
            blocks = target.reshape(rows, th, cols, tw, *tiles.shape[3:]).swapaxes(1, 2)
            layers.append(_Layer(tiles, target, blocks, th, tw))
        return tuple(layers)

    def _blit_cells(self, grid: npt.NDArray[np.integer], changed: list[int]) -> None:
        """Re-blit the cells at flat indices ``changed`` (ascending) from ``grid``."""
        cols = self.shape[1]
        count = len(self.atlas)
        left, right = cols, -1
        for k in changed:
            tile = grid.item(k)
            if not 0 <= tile < count:
                raise RunError(f"the view returned tile id {tile}; the tile set has {count}")
            r, c = divmod(k, cols)
            for source, target, th, tw in self._blits:
                target[r * th : (r + 1) * th, c * tw : (c + 1) * tw] = source[tile]
            left = min(left, c)
            right = max(right, c)
        s = self.atlas.size
        top, bottom = changed[0] // cols, changed[-1] // cols  # flat indices ascend by row
        self._mark(top * s, left * s, (bottom + 1) * s, (right + 1) * s)

    def _footer_luts(self) -> tuple[Pixels, tuple[int, int] | None]:
        """Luma per footer colour, and the chroma if all footer colours share it (greys)."""
        blocks = np.repeat(np.repeat(self._footer_rgb[:, None, None, :], 2, 1), 2, 2)
        y, u, v = rgb_to_yuv420(blocks)
        chroma = set(zip(u.ravel().tolist(), v.ravel().tolist(), strict=True))
        return y[:, 0, 0].copy(), chroma.pop() if len(chroma) == 1 else None

    def _paint_footer(self, box: Rect, strip: npt.NDArray[np.uint8]) -> None:
        if self.pixel_format is PixelFormat.YUV420P:  # chroma is 2x2: widen to even edges
            box = Rect(box.top & ~1, box.left & ~1, (box.bottom + 1) & ~1, (box.right + 1) & ~1)
        part = strip[box.top : box.bottom, box.left : box.right]
        top, bottom = self.board_height + box.top, self.board_height + box.bottom
        if self.pixel_format is PixelFormat.RGB24:
            self.frame[top:bottom, box.left : box.right] = self._footer_rgb[part]
        elif self.pixel_format is PixelFormat.PAL8:
            assert self._footer_pal is not None
            self.frame[top:bottom, box.left : box.right] = self._footer_pal[part]
        else:
            assert self._footer_yuv is not None
            luma, chroma = self._footer_yuv
            py, pu, pv = self._planes
            py[top:bottom, box.left : box.right] = luma[part]
            half = (slice(top // 2, bottom // 2), slice(box.left // 2, box.right // 2))
            if chroma is not None:
                pu[half], pv[half] = chroma
            else:
                _, u, v = rgb_to_yuv420(self._footer_rgb[part])
                pu[half] = u
                pv[half] = v
        self._mark(top, box.left, bottom, box.right)

    def _mark(self, top: int, left: int, bottom: int, right: int) -> None:
        dirty = self._dirty
        if dirty is None:
            self._dirty = (top, left, bottom, right)
        else:
            self._dirty = (
                min(dirty[0], top),
                min(dirty[1], left),
                max(dirty[2], bottom),
                max(dirty[3], right),
            )
