"""Tile art for tic-tac-toe: ``python -m searchvid.domains.tictactoe.art OUTDIR``.

Tiles are drawn without anti-aliasing at half resolution (50 px) from a small palette and
doubled with nearest-neighbour scaling, so every colour edge falls on an even pixel and 4:2:0
chroma subsampling never straddles two colours. Marks are dark on light backgrounds for a
strong luma contrast.

X and O take the players' colours (:data:`~searchvid.render.palette.PLAYER_COLORS`), the
same the tree panel gives their wins. A highlight never relies on colour alone: the last
move has a folded corner, a winning line a dark frame inside each of its cells.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from searchvid.render.palette import PLAYER_COLORS, YELLOW
from searchvid.render.tileart import tile_art_main, write_tile_pngs

TILE_SIZE = 100
"""Edge of a tile in pixels."""
_HALF = TILE_SIZE // 2

PALETTE: dict[str, tuple[int, int, int]] = {
    "paper": (244, 236, 216),
    "last": (226, 216, 190),
    "win": YELLOW,
    "grid": (52, 58, 70),
    "cross": PLAYER_COLORS[0],
    "nought": PLAYER_COLORS[1],
}
"""Every colour the tiles use, by role."""

TILE_NAMES: tuple[str, ...] = ("empty", "x", "o", "x_last", "o_last", "x_win", "o_win")
"""Tile names in tile-id order: marks plain, as the last move, and on a winning line."""

_BACKGROUND = {"": "paper", "last": "last", "win": "win"}


def draw_tile(name: str) -> Image.Image:
    """Draw the tile ``name`` (one of :data:`TILE_NAMES`) as a 100 x 100 RGB image.

    Raises:
        ValueError: An unknown tile name.
    """
    if name not in TILE_NAMES:
        raise ValueError(f"unknown tile {name!r}; known: {', '.join(TILE_NAMES)}")
    mark, _, state = name.partition("_")
    img = Image.new("RGB", (_HALF, _HALF), PALETTE[_BACKGROUND[state]])
    draw = ImageDraw.Draw(img)
    # one half-pixel of grid line on each side: neighbours add up to a 4 px line
    draw.rectangle((0, 0, _HALF - 1, _HALF - 1), outline=PALETTE["grid"], width=1)
    if state == "last":  # a folded corner
        draw.polygon([(1, 1), (12, 1), (1, 12)], fill=PALETTE["grid"])
    elif state == "win":  # a frame inside the cell: the line reads as a band of frames
        draw.rectangle((4, 4, _HALF - 5, _HALF - 5), outline=PALETTE["grid"], width=2)
    if mark == "x":
        _draw_cross(draw)
    elif mark == "o":
        draw.ellipse((11, 11, 38, 38), outline=PALETTE["nought"], width=6)
    return img.resize((TILE_SIZE, TILE_SIZE), Image.Resampling.NEAREST)


def _draw_cross(draw: ImageDraw.ImageDraw) -> None:
    lo, hi, w = 12, 37, 3  # a stroke is the band |x - y| <= w around each diagonal
    for y in range(lo - w, hi + w + 1):
        for x in range(lo - w, hi + w + 1):
            inside = lo - 1 <= min(x, y) and max(x, y) <= hi + 1
            on_diagonal = abs(x - y) <= w or abs(x + y - (lo + hi)) <= w
            if inside and on_diagonal:
                draw.point((x, y), fill=PALETTE["cross"])


def write_tiles(folder: Path) -> list[Path]:
    """Write every tile as ``<name>.png`` into ``folder`` (created if needed)."""
    return write_tile_pngs(TILE_NAMES, draw_tile, folder)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m searchvid.domains.tictactoe.art OUTDIR``."""
    return tile_art_main("searchvid.domains.tictactoe.art", write_tiles, argv)


if __name__ == "__main__":
    sys.exit(main())
