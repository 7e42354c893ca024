"""The cached canvas: the current frame, redrawn only where the tile grid changed.

Comparing consecutive tile-id grids tells the canvas exactly which cells to re-blit, for any
algorithm: one cell after a backtracking step, many after an MCTS jump or a random-walk
restart (then the whole board is recomposed in one vectorised step).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from searchvid.errors import RunError
from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.yuv import rgb_to_yuv420

Pixels = npt.NDArray[np.uint8]


PACK_ROWS = 64
"""Most rows of a block :meth:`FrameBuffer.paint_rgb_blocks` converts packed with others
(a tree panel's changed boxes are at most 32 rows high, ``panelchanges.BAND``)."""


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
    """One plane of a board: tiles of ``th`` x ``tw`` pixels blitted into ``target``."""

    tiles: Pixels
    target: Pixels
    blocks: Pixels  # the same memory as target, viewed as (rows, cols, th, tw[, 3])
    th: int
    tw: int


class FrameBuffer:
    """One frame in an encoder's pixel format, painted region by region.

    Regions are tile boards (:meth:`board`), strips of colour indices (the HUD) and blocks of
    RGB pixels (the tree panel). Every paint notes the rectangle it touched; :meth:`take_dirty`
    returns their union since the last call, which is what the GIF encoder re-encodes.
    Regions start on even pixels so that yuv420p's 2x2 chroma never straddles two regions.

    Args:
        width: Frame width in pixels (even).
        height: Frame height in pixels (even).
        pixel_format: Layout of :attr:`frame`.
        palette: ``(n, 3)`` sorted, unique colours every RGB paint uses (needed for PAL8).
        background: Colour of pixels no region covers (must be in ``palette`` for PAL8).
    """

    def __init__(
        self,
        width: int,
        height: int,
        pixel_format: PixelFormat = PixelFormat.RGB24,
        *,
        palette: Pixels | None = None,
        background: RGB = (0, 0, 0),
    ) -> None:
        if width % 2 or height % 2 or width <= 0 or height <= 0:
            raise ValueError(f"a frame needs even, positive sizes, got {width}x{height}")
        self.width = width
        self.height = height
        self.pixel_format = pixel_format
        self.palette = (
            np.asarray(palette, dtype=np.uint8).reshape(-1, 3)
            if palette is not None
            else np.zeros((0, 3), dtype=np.uint8)
        )
        self._packed_palette = _pack(self.palette)
        self._dirty: tuple[int, int, int, int] | None = None
        self.frame, self.planes = self._allocate()
        self.fill(Rect(0, 0, height, width), background)

    def board(
        self, atlas: TileAtlas, shape: tuple[int, int], *, top: int = 0, left: int = 0
    ) -> TileBoard:
        """A tile board of ``shape`` cells drawn at ``(top, left)``."""
        return TileBoard(self, atlas, shape, top=top, left=left)

    def fill(self, rect: Rect, color: RGB) -> None:
        """Paint ``rect`` (even edges) in one colour."""
        top, left, bottom, right = rect
        if bottom <= top or right <= left:
            return
        rgb = np.array(color, dtype=np.uint8).reshape(1, 1, 3)
        if self.pixel_format is PixelFormat.YUV420P and not (top | left | bottom | right) & 1:
            # one colour has one (y, u, v): convert a 2x2 block of it, not every pixel
            y, u, v = rgb_to_yuv420(np.broadcast_to(rgb, (2, 2, 3)))
            py, pu, pv = self.planes
            py[top:bottom, left:right] = y[0, 0]
            half = (slice(top // 2, bottom // 2), slice(left // 2, right // 2))
            pu[half] = u[0, 0]
            pv[half] = v[0, 0]
            self.mark(top, left, bottom, right)
            return
        self.paint_rgb(top, left, np.broadcast_to(rgb, (bottom - top, right - left, 3)))

    def paint_rgb(self, top: int, left: int, rgb: Pixels) -> None:
        """Copy the RGB block ``rgb`` to ``(top, left)``, converted to the pixel format.

        For yuv420p the block must start and end on even pixels (widen it first); for PAL8
        every colour must be in :attr:`palette`.
        """
        height, width = rgb.shape[0], rgb.shape[1]
        bottom, right = top + height, left + width
        if not height or not width:
            return
        if self.pixel_format is PixelFormat.RGB24:
            self.frame[top:bottom, left:right] = rgb
        elif self.pixel_format is PixelFormat.PAL8:
            self.frame[top:bottom, left:right] = self.index_of(rgb)
        else:
            if (top | left | height | width) & 1:
                raise ValueError("yuv420p regions start and end on even pixels")
            y, u, v = rgb_to_yuv420(rgb)  # any strides: the conversion copies anyway
            py, pu, pv = self.planes
            py[top:bottom, left:right] = y
            half = (slice(top // 2, bottom // 2), slice(left // 2, right // 2))
            pu[half] = u
            pv[half] = v
        self.mark(top, left, bottom, right)

    def paint_rgb_blocks(self, blocks: Sequence[tuple[int, int, Pixels]]) -> None:
        """:meth:`paint_rgb` of each ``(top, left, rgb)`` in ``blocks``: parts of one picture
        (where two overlap, they hold the same pixels, so the order they land in is moot).

        For yuv420p, blocks of at most :data:`PACK_ROWS` rows (a tree panel's changes: tens
        of small boxes a frame) are set side by side in one picture and converted in one call:
        a conversion costs about as much per call as per 1,500 pixels. Every block starts on
        an even column there, so each of its 2x2 chroma blocks is one of the picture's, and
        its planes are the very bytes of converting it alone.
        """
        if self.pixel_format is not PixelFormat.YUV420P:
            for top, left, rgb in blocks:
                self.paint_rgb(top, left, rgb)
            return
        small = [b for b in blocks if 0 < b[2].shape[0] <= PACK_ROWS and b[2].shape[1]]
        if len(small) < 2:
            for top, left, rgb in blocks:
                self.paint_rgb(top, left, rgb)
            return
        for top, left, rgb in blocks:
            if (top | left | rgb.shape[0] | rgb.shape[1]) & 1:
                raise ValueError("yuv420p regions start and end on even pixels")
            if not 0 < rgb.shape[0] <= PACK_ROWS:
                self.paint_rgb(top, left, rgb)
        height = max(rgb.shape[0] for _, _, rgb in small)
        packed = np.empty((height, sum(rgb.shape[1] for _, _, rgb in small), 3), np.uint8)
        x = 0
        for _, _, rgb in small:  # rows under a shorter block are converted, never copied out
            packed[: rgb.shape[0], x : x + rgb.shape[1]] = rgb
            x += rgb.shape[1]
        y, u, v = rgb_to_yuv420(packed)
        py, pu, pv = self.planes
        x = 0
        for top, left, rgb in small:
            rows, cols = rgb.shape[0], rgb.shape[1]
            py[top : top + rows, left : left + cols] = y[:rows, x : x + cols]
            half = (slice(top // 2, (top + rows) // 2), slice(left // 2, (left + cols) // 2))
            cut = (slice(0, rows // 2), slice(x // 2, (x + cols) // 2))
            pu[half] = u[cut]
            pv[half] = v[cut]
            self.mark(top, left, top + rows, left + cols)
            x += cols

    def index_of(self, rgb: Pixels) -> npt.NDArray[np.uint8]:
        """Palette indices of RGB pixels, which must all be palette colours."""
        packed = _pack(rgb)
        found = np.minimum(np.searchsorted(self._packed_palette, packed), len(self.palette) - 1)
        if len(self.palette) == 0 or not np.array_equal(self._packed_palette[found], packed):
            raise RunError("a colour drawn is not in the frame's palette")
        return found.astype(np.uint8)

    def mark(self, top: int, left: int, bottom: int, right: int) -> None:
        """Note that the pixels of this rectangle changed."""
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

    def take_dirty(self) -> Rect:
        """The rectangle bounding the pixels changed since the last call (empty if none)."""
        dirty, self._dirty = self._dirty, None
        return Rect(*dirty) if dirty is not None else Rect(0, 0, 0, 0)

    def rgb(self) -> Pixels:
        """The current frame as ``(height, width, 3)`` RGB (a view for RGB24, else a copy)."""
        if self.pixel_format is PixelFormat.RGB24:
            return self.frame
        if self.pixel_format is PixelFormat.PAL8:
            rgb: Pixels = self.palette[self.frame]
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


class TileBoard:
    """A board of tiles inside a :class:`FrameBuffer`, redrawn only where the grid changed.

    Call :meth:`update` with each new tile grid: only cells whose id changed are re-blitted,
    and the whole board is recomposed in one numpy step when most cells changed. Marks drawn
    over cells (:meth:`outline`) last one frame: the next :meth:`update` re-blits those cells
    too, so every frame equals a fresh board drawn from its grid (plus its own marks).

    Args:
        buffer: The frame it draws into.
        atlas: The tiles (converted once to the buffer's pixel format).
        shape: ``(rows, cols)`` of every grid.
        top: First pixel row of the board (even).
        left: First pixel column of the board (even).
    """

    def __init__(
        self,
        buffer: FrameBuffer,
        atlas: TileAtlas,
        shape: tuple[int, int],
        *,
        top: int = 0,
        left: int = 0,
    ) -> None:
        if top % 2 or left % 2:
            raise ValueError(f"a board starts on even pixels, got ({top}, {left})")
        self.buffer = buffer
        self.atlas = atlas
        self.shape = (int(shape[0]), int(shape[1]))
        self.top, self.left = top, left
        rows, cols = self.shape
        self.height = rows * atlas.size
        self.width = cols * atlas.size
        if top + self.height > buffer.height or left + self.width > buffer.width:
            raise ValueError("the board does not fit the frame")
        self._grid: npt.NDArray[np.int16] | None = None
        self._cells = rows * cols
        self._marked: list[int] = []  # cells drawn over by outline(): re-blitted next update
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
        self._check_ids(grid)  # in the grid's own type: before any cast can wrap an id
        previous = self._grid
        marked, self._marked = self._marked, []
        if previous is not None:
            changed: list[int] = (grid != previous).ravel().nonzero()[0].tolist()
            if marked:  # last frame's marks go: their cells are drawn again from the grid
                changed = sorted({*changed, *marked})
            if not changed:
                return 0
            if 2 * len(changed) <= self._cells:  # a few cells: re-blit just those
                self._blit_cells(grid, changed)
                self._grid = grid.astype(np.int16)
                return len(changed)
        self._grid = grid.astype(np.int16)
        self.recompose()
        return self._cells

    def outline(self, cells: Sequence[int], color: RGB, *, width: int) -> None:
        """Outline the region of the cells at flat (row-major) indices ``cells`` in
        ``color``: a band ``width`` pixels wide inside the cells, along every cell edge that
        borders a cell not in ``cells`` (or the board's edge), so that neighbouring cells
        share one outline. Drawn over the tiles of the last :meth:`update`, until the next.

        Raises:
            ValueError: An odd or negative width, or one wider than half a tile.
        """
        size = self.atlas.size
        if width & 1 or width < 0 or 2 * width > size:
            raise ValueError(f"an outline {width} px wide in {size} px tiles")
        if not width or self._grid is None:
            return
        rows, cols = self.shape
        inside = {int(k) for k in cells}
        for k in sorted(inside):
            r, c = divmod(k, cols)
            open_sides = (
                r == 0 or k - cols not in inside,
                r == rows - 1 or k + cols not in inside,
                c == 0 or k - 1 not in inside,
                c == cols - 1 or k + 1 not in inside,
            )
            top, left = self.top + r * size, self.left + c * size
            for band, side in zip(cell_bands(top, left, size, width), open_sides, strict=True):
                if side:
                    self.buffer.fill(band, color)
            self._marked.append(k)

    def drawn_over(self, cells: Sequence[int]) -> None:
        """Take it that marks were drawn over the cells at flat indices ``cells`` (by a
        layer of its own, as :meth:`outline` draws): the next :meth:`update` re-blits them,
        so the marks last one frame."""
        if self._grid is not None:
            self._marked.extend(int(k) for k in cells)

    def _check_ids(self, grid: npt.NDArray[np.integer]) -> None:
        """Refuse a grid that is not of integers, or holds ids the atlas does not have."""
        if grid.dtype.kind not in "iu":
            raise RunError(
                f"the view returned a grid of dtype {grid.dtype}; tile ids must be integers"
            )
        if not grid.size:
            return
        low, high = int(grid.min()), int(grid.max())
        if low < 0 or high >= len(self.atlas):
            bad = low if low < 0 else high
            raise RunError(
                f"the view returned tile id {bad}; the tile set has {len(self.atlas)} tiles "
                f"(ids 0 to {len(self.atlas) - 1})"
            )

    def recompose(self) -> None:
        """Redraw the whole board from the current grid in one vectorised step per plane."""
        grid = self._grid
        if grid is None:
            return
        for layer in self._layers:
            layer.blocks[...] = layer.tiles[grid]
        self.buffer.mark(self.top, self.left, self.top + self.height, self.left + self.width)

    def _make_layers(self) -> tuple[_Layer, ...]:
        fmt = self.buffer.pixel_format
        if fmt is PixelFormat.RGB24:
            sources: tuple[Pixels, ...] = (self.atlas.tiles,)
        elif fmt is PixelFormat.PAL8:
            sources = (_reindex(self.atlas, self.buffer),)
        else:
            sources = self.atlas.yuv
        rows, cols = self.shape
        layers = []
        for tiles, plane in zip(sources, self.buffer.planes, strict=True):
            th, tw = tiles.shape[1], tiles.shape[2]
            scale = self.atlas.size // th  # 1 for full planes, 2 for yuv420p chroma
            top, left = self.top // scale, self.left // scale
            target = plane[top : top + rows * th, left : left + cols * tw]
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
        self.buffer.mark(
            self.top + top * s,
            self.left + left * s,
            self.top + (bottom + 1) * s,
            self.left + (right + 1) * s,
        )


class RgbPanel:
    """A block of RGB pixels owned by a drawing component (the tree panel).

    Args:
        buffer: The frame it draws into.
        top: First pixel row (even).
        left: First pixel column (even).
    """

    def __init__(self, buffer: FrameBuffer, *, top: int, left: int) -> None:
        if top % 2 or left % 2:
            raise ValueError(f"a panel starts on even pixels, got ({top}, {left})")
        self.buffer = buffer
        self.top, self.left = top, left

    def show(self, pixels: Pixels, rects: Sequence[Rect] | None = None) -> None:
        """Copy the parts ``rects`` of the panel's ``pixels`` (all of it when None)."""
        height, width = pixels.shape[0], pixels.shape[1]
        blocks: list[tuple[int, int, Pixels]] = []
        for rect in rects if rects is not None else (Rect(0, 0, height, width),):
            box = Rect(
                max(0, rect.top),
                max(0, rect.left),
                min(height, rect.bottom),
                min(width, rect.right),
            )
            if self.buffer.pixel_format is PixelFormat.YUV420P:
                box = even_box(box)
            if box.bottom <= box.top or box.right <= box.left:
                continue
            part = pixels[box.top : box.bottom, box.left : box.right]
            blocks.append((self.top + box.top, self.left + box.left, part))
        self.buffer.paint_rgb_blocks(blocks)


def cell_bands(top: int, left: int, size: int, width: int) -> tuple[Rect, Rect, Rect, Rect]:
    """The top, bottom, left and right bands, ``width`` pixels wide, just inside the
    ``size``-pixel square at ``(top, left)`` (they overlap at its corners)."""
    bottom, right = top + size, left + size
    return (
        Rect(top, left, top + width, right),
        Rect(bottom - width, left, bottom, right),
        Rect(top, left, bottom, left + width),
        Rect(top, right - width, bottom, right),
    )


def even_box(box: Rect) -> Rect:
    """``box`` widened to even edges (yuv420p's chroma is 2x2)."""
    return Rect(box.top & ~1, box.left & ~1, (box.bottom + 1) & ~1, (box.right + 1) & ~1)


def _reindex(atlas: TileAtlas, buffer: FrameBuffer) -> Pixels:
    """The atlas's tiles as indices into the buffer's palette (the same palette as a rule)."""
    if np.array_equal(atlas.palette, buffer.palette):
        return atlas.indexed
    return buffer.index_of(atlas.tiles)


def _pack(rgb: Pixels) -> npt.NDArray[np.uint32]:
    wide = rgb.astype(np.uint32)
    packed: npt.NDArray[np.uint32] = (
        (wide[..., 0] << np.uint32(16)) | (wide[..., 1] << np.uint32(8)) | wide[..., 2]
    )
    return packed
