"""Tile atlas: every tile of a tile set as one numpy array indexed by tile id."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.errors import RunError
from searchvid.render.view import TileSet
from searchvid.render.yuv import Plane, rgb_to_yuv420
from searchvid.resources import tile_assets_dir

RGB = tuple[int, int, int]
"""One colour as ``(red, green, blue)``."""

ASSETS_ENV = "SEARCHVID_TILE_ASSETS"
"""Environment variable naming another ``tile_assets`` folder (tests, custom art)."""

MAX_COLORS = 256
"""A GIF palette holds at most this many colours; the atlas palette never exceeds it."""

_MAX_SNAP_COLORS = 256  # art with more colours is reduced first, to keep snapping cheap


def assets_dir() -> Path:
    """The ``tile_assets`` folder: ``$SEARCHVID_TILE_ASSETS``, the installed art or the checkout's.

    See :func:`searchvid.resources.tile_assets_dir`.
    """
    return tile_assets_dir()


class TileAtlas:
    """The tiles of a :class:`TileSet` at one even size, with their palette.

    Tiles come from ``tile_assets/<folder>/<name>.png`` (art drawn at 100 px; other sizes are
    resampled and snapped back to each tile's own colours, so colours stay exact) or from the
    tile set's run-time drawer. The palette is the set of colours of all tiles plus
    ``extra_colors`` (the HUD's); if that exceeds 256 colours the tiles are quantised once so
    that every output format (PNG, GIF, MP4) shows the same pixels.

    Attributes:
        tileset: The tile set loaded.
        size: Pixels per tile edge.
        tiles: ``(n_tiles, size, size, 3)`` uint8 RGB, indexed by tile id.
        palette: ``(n_colors, 3)`` uint8, at most 256 colours, sorted.
        indexed: ``(n_tiles, size, size)`` uint8 palette indices of :attr:`tiles`.
    """

    def __init__(
        self,
        tileset: TileSet,
        size: int,
        *,
        extra_colors: Sequence[RGB] = (),
        assets: Path | None = None,
    ) -> None:
        if size <= 0 or size % 2:
            raise ValueError(f"tile size must be even and positive, got {size}")
        if not tileset.names:
            raise ValueError("a tile set needs at least one tile")
        self.tileset = tileset
        self.size = size
        tiles = np.stack([self._load(name, assets) for name in tileset.names])
        extra = np.array(extra_colors, dtype=np.uint8).reshape(-1, 3)
        if len(_unique_colors(tiles, extra)) > MAX_COLORS:
            tiles = _quantize(tiles, MAX_COLORS - len(np.unique(_pack(extra))))
        self.tiles: npt.NDArray[np.uint8] = tiles
        self.palette: npt.NDArray[np.uint8] = _unpack(_unique_colors(tiles, extra))
        self.indexed: npt.NDArray[np.uint8] = self.index_of(tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def index_of(self, rgb: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """Palette indices of RGB pixels (shape ``(..., 3)``), which must be palette colours."""
        packed_palette = _pack(self.palette)
        packed = _pack(rgb)
        found = np.searchsorted(packed_palette, packed)
        found = np.minimum(found, len(packed_palette) - 1)
        if not np.array_equal(packed_palette[found], packed):
            raise ValueError("colour not in the atlas palette")
        return found.astype(np.uint8)

    @cached_property
    def yuv(self) -> tuple[Plane, Plane, Plane]:
        """The tiles as yuv420p planes: Y ``(n, s, s)``, U and V ``(n, s/2, s/2)``."""
        return rgb_to_yuv420(self.tiles)

    def _load(self, name: str, assets: Path | None) -> npt.NDArray[np.uint8]:
        if self.tileset.draw is not None:
            image = self.tileset.draw(name, self.size).convert("RGB")
            if image.size != (self.size, self.size):
                raise RunError(
                    f"tile {name!r} was drawn at {image.size[0]}x{image.size[1]} px, "
                    f"expected {self.size}x{self.size}"
                )
            return np.asarray(image, dtype=np.uint8).copy()
        assert self.tileset.folder is not None  # TileSet guarantees one of folder/draw
        path = (assets or assets_dir()) / self.tileset.folder / f"{name}.png"
        try:
            with Image.open(path) as opened:
                art = np.asarray(opened.convert("RGB"), dtype=np.uint8)
        except FileNotFoundError:
            raise RunError(f"missing tile image {path} (tile {name!r})") from None
        except OSError as exc:
            raise RunError(f"cannot read tile image {path}: {exc}") from None
        if art.shape[0] != art.shape[1]:
            raise RunError(f"tile image {path} is not square ({art.shape[1]}x{art.shape[0]})")
        return fit_tile(art, self.size)


def fit_tile(art: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.uint8]:
    """Resample square RGB art to ``size`` px, then snap every pixel to the art's own colours.

    Snapping keeps the palette small and exact: a scaled tile shows no colour its art lacks.
    """
    if art.shape[0] == size:
        return np.ascontiguousarray(art)
    image = Image.fromarray(art)
    own = np.unique(_pack(art))
    if len(own) > _MAX_SNAP_COLORS:
        image = image.quantize(_MAX_SNAP_COLORS, dither=Image.Dither.NONE).convert("RGB")
        own = np.unique(_pack(np.asarray(image)))
    method = Image.Resampling.BOX if size < art.shape[0] else Image.Resampling.BICUBIC
    scaled = np.asarray(image.resize((size, size), method), dtype=np.uint8)
    seen, where = np.unique(_pack(scaled).ravel(), return_inverse=True)
    candidates = _unpack(seen).astype(np.int32)
    colors = _unpack(own).astype(np.int32)
    distance = ((candidates[:, None, :] - colors[None, :, :]) ** 2).sum(axis=-1)
    nearest = colors[distance.argmin(axis=1)].astype(np.uint8)
    fitted: npt.NDArray[np.uint8] = nearest[where].reshape(size, size, 3)
    return fitted


def _quantize(tiles: npt.NDArray[np.uint8], colors: int) -> npt.NDArray[np.uint8]:
    """Reduce all tiles together to ``colors`` colours (no dithering, deterministic)."""
    n, size = tiles.shape[0], tiles.shape[1]
    mosaic = Image.fromarray(tiles.reshape(n * size, size, 3))
    reduced = mosaic.quantize(colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    return np.asarray(reduced.convert("RGB"), dtype=np.uint8).reshape(tiles.shape).copy()


def _pack(rgb: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint32]:
    wide = rgb.astype(np.uint32)
    shift16, shift8 = np.uint32(16), np.uint32(8)
    packed: npt.NDArray[np.uint32] = (
        (wide[..., 0] << shift16) | (wide[..., 1] << shift8) | wide[..., 2]
    )
    return packed


def _unpack(packed: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint8]:
    shifts = np.array([16, 8, 0], dtype=np.uint32)
    rgb: npt.NDArray[np.uint8] = ((packed[..., None] >> shifts) & 0xFF).astype(np.uint8)
    return rgb


def _unique_colors(
    tiles: npt.NDArray[np.uint8], extra: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint32]:
    unique: npt.NDArray[np.uint32] = np.unique(
        np.concatenate([_pack(tiles).ravel(), _pack(extra).ravel()])
    )
    return unique
