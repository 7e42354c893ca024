"""Tile art for Quarto: ``python -m searchvid.domains.quarto.art OUTDIR``.

A piece is seen from above and shows all four attributes at once: tall pieces are large and
short ones small, dark pieces are dark brown and light ones cream, round pieces are discs and
square ones squares, and hollow pieces have a hole that shows the ground beneath. Each piece is
drawn on every background it can stand on: a board cell (plain, last placed, on the winning
line), a reserve slot, and the hand slot in the colour of the player who holds it.

Tiles are drawn without anti-aliasing at half resolution (50 px) from a small palette and
doubled with nearest-neighbour scaling, so every colour edge falls on an even pixel.

The hand slot takes the players' colours (:data:`~searchvid.render.palette.PLAYER_COLORS`),
the same the tree panel gives their wins. A highlight never relies on colour alone: the
last piece placed has a folded corner, the winning line a dark frame inside each cell.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from searchvid.domains.quarto.rules import PIECES, piece_name
from searchvid.render.palette import ORANGE, PLAYER_COLORS
from searchvid.render.tileart import tile_art_main, write_tile_pngs

TILE_SIZE = 100
"""Edge of a tile in pixels."""
_HALF = TILE_SIZE // 2

PALETTE: dict[str, tuple[int, int, int]] = {
    "board": (124, 158, 116),
    "last": (172, 140, 206),
    "win": ORANGE,
    "reserve": (162, 152, 140),
    "hand0": PLAYER_COLORS[0],
    "hand1": PLAYER_COLORS[1],
    "gutter": (40, 44, 52),
    "line": (28, 30, 36),
    "dark": (64, 36, 20),
    "light": (244, 226, 176),
    "outline": (16, 16, 20),
}
"""Every colour the tiles use, by role."""

GROUNDS: tuple[str, ...] = ("board", "last", "win", "reserve", "hand0", "hand1")
"""Backgrounds a piece can stand on, in tile-id order."""

EMPTY_TILES: tuple[str, ...] = ("gutter", "board", "reserve", "hand0", "hand1", "hand")
"""Tiles without a piece: the gap between areas, an empty board cell or reserve slot, and
the empty hand slot coloured for player 0, player 1, or neutral (a drawn game)."""

TILE_NAMES: tuple[str, ...] = EMPTY_TILES + tuple(
    f"{piece_name(p)}_{ground}" for ground in GROUNDS for p in range(PIECES)
)
"""Tile names in tile-id order: :data:`EMPTY_TILES`, then ``<piece name>_<ground>`` for each
ground of :data:`GROUNDS` and each piece 0-15."""


def piece_tile(piece: int, ground: str) -> str:
    """The tile name of ``piece`` standing on ``ground`` (one of :data:`GROUNDS`)."""
    return f"{piece_name(piece)}_{ground}"


def draw_tile(name: str) -> Image.Image:
    """Draw the tile ``name`` (one of :data:`TILE_NAMES`) as a 100 x 100 RGB image.

    Raises:
        ValueError: An unknown tile name.
    """
    if name not in TILE_NAMES:
        raise ValueError(f"unknown tile {name!r}; see TILE_NAMES")
    if name == "hand":  # a drawn game: half of each player's colour
        img = _ground("hand0", framed=False)
        ImageDraw.Draw(img).rectangle((_HALF // 2, 0, _HALF - 1, _HALF - 1), PALETTE["hand1"])
        ImageDraw.Draw(img).rectangle((0, 0, _HALF - 1, _HALF - 1), outline=PALETTE["line"])
    elif name in EMPTY_TILES:
        img = _ground(name, framed=name != "gutter")
    else:
        piece_text, _, ground = name.partition("_")
        img = _ground(ground, framed=True)
        draw = ImageDraw.Draw(img)
        if ground == "last":  # a folded corner
            draw.polygon([(1, 1), (9, 1), (1, 9)], fill=PALETTE["line"])
        elif ground == "win":  # a frame inside the cell: the line reads as a band of frames
            draw.rectangle((2, 2, _HALF - 3, _HALF - 3), outline=PALETTE["line"], width=2)
        _draw_piece(draw, piece_text, PALETTE[ground])
    return img.resize((TILE_SIZE, TILE_SIZE), Image.Resampling.NEAREST)


def _ground(ground: str, *, framed: bool) -> Image.Image:
    img = Image.new("RGB", (_HALF, _HALF), PALETTE[ground])
    if framed:
        ImageDraw.Draw(img).rectangle((0, 0, _HALF - 1, _HALF - 1), outline=PALETTE["line"])
    return img


def _draw_piece(draw: ImageDraw.ImageDraw, name: str, ground: tuple[int, int, int]) -> None:
    tall, dark, round_, hollow = (ch in "TDRH" for ch in name)
    radius = 18 if tall else 11
    lo, hi = 25 - radius, 24 + radius
    fill = PALETTE["dark" if dark else "light"]
    box = (lo, lo, hi, hi)
    if round_:
        draw.ellipse(box, fill=fill, outline=PALETTE["outline"], width=2)
    else:
        draw.rectangle(box, fill=fill, outline=PALETTE["outline"], width=2)
    if hollow:
        hole = (19, 19, 30, 30)
        if round_:
            draw.ellipse(hole, fill=ground, outline=PALETTE["outline"], width=2)
        else:
            draw.rectangle(hole, fill=ground, outline=PALETTE["outline"], width=2)


def write_tiles(folder: Path) -> list[Path]:
    """Write every tile as ``<name>.png`` into ``folder`` (created if needed)."""
    return write_tile_pngs(TILE_NAMES, draw_tile, folder)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m searchvid.domains.quarto.art OUTDIR``."""
    return tile_art_main("searchvid.domains.quarto.art", write_tiles, argv)


if __name__ == "__main__":
    sys.exit(main())
