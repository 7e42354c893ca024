"""Tile art of the Water Sort view, drawn with Pillow.

``python -m searchvid.domains.watersort.art OUTDIR`` writes one 100 x 100 PNG per tile name
(``make tiles`` runs it with ``tile_assets/watersort``). The committed PNGs must equal what
this module draws; a test checks it.

Every tile is drawn on a 50 x 50 grid of "art pixels" and scaled up 2x without smoothing, so
every colour edge falls on an even pixel (4:2:0 video keeps tile art sharp) and no edge is
anti-aliased. The palette is small (see :data:`PALETTE`) and the liquids are a
colour-blind-friendly set after Paul Tol's schemes, ordered so that neighbouring colour ids
also differ in lightness; each liquid carries its own glyph, so no two colours are told apart
by hue alone.

Tiles of a tube column, top to bottom: a rim (``rim``, or ``rim-source`` / ``rim-target``
with an arrow out of / into the tube for the last pour), ``capacity`` cells (``empty`` or a
liquid ``cNN``), and the rounded base (``base``, or ``base-done`` with a check mark under a
sorted tube). Tubes of the last pour use the ``-lit``
variants: a lighter background and white glass.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from searchvid.render.tileart import tile_art_main, write_tile_pngs

TILE_SIZE = 100
"""Pixels per tile edge of the committed PNGs."""

_ART = 50  # art pixels per tile edge; scaled 2x to TILE_SIZE

RGB = tuple[int, int, int]

BACKGROUND: RGB = (20, 22, 30)
BACKGROUND_LIT: RGB = (48, 56, 84)
GLASS: RGB = (150, 160, 178)
GLASS_LIT: RGB = (255, 255, 255)
INSIDE: RGB = (34, 37, 48)
INSIDE_LIT: RGB = (66, 74, 104)
MARK_DARK: RGB = (16, 16, 20)
MARK_LIGHT: RGB = (250, 250, 250)
ARROW: RGB = (255, 214, 64)

LIQUIDS: tuple[RGB, ...] = (
    (0xEE, 0x77, 0x33),  # 1 orange
    (0x00, 0x77, 0xBB),  # 2 blue
    (0xEE, 0xDD, 0x88),  # 3 sand
    (0x88, 0x22, 0x55),  # 4 wine
    (0x33, 0xBB, 0xEE),  # 5 cyan
    (0x11, 0x77, 0x33),  # 6 green
    (0xFF, 0xAA, 0xBB),  # 7 pink
    (0x66, 0x66, 0x66),  # 8 grey
    (0xBB, 0xCC, 0x33),  # 9 pear
    (0xCC, 0x33, 0x11),  # 10 red
    (0xDD, 0xDD, 0xDD),  # 11 pale grey
    (0xAA, 0x44, 0x99),  # 12 purple
    (0x44, 0xBB, 0x99),  # 13 mint
    (0xEE, 0x33, 0x77),  # 14 magenta
    (0x77, 0xAA, 0xDD),  # 15 light blue
    (0x99, 0x99, 0x33),  # 16 olive
)
"""Liquid colour of colour id ``i`` at index ``i - 1``."""

PALETTE: tuple[RGB, ...] = (
    BACKGROUND,
    BACKGROUND_LIT,
    GLASS,
    GLASS_LIT,
    INSIDE,
    INSIDE_LIT,
    MARK_DARK,
    MARK_LIGHT,
    ARROW,
    *LIQUIDS,
)
"""Every colour any tile uses."""

# 7 x 7 glyphs, one per colour id; each glyph cell is 2 x 2 art pixels (4 x 4 pixels).
_GLYPHS: tuple[tuple[str, ...], ...] = (
    (".......", ".......", "..###..", "..###..", "..###..", ".......", "......."),  # dot
    (".......", ".#####.", ".#...#.", ".#...#.", ".#...#.", ".#####.", "......."),  # square
    ("...#...", "..###..", ".#####.", "#######", ".......", ".......", "......."),  # up
    ("#.....#", ".#...#.", "..#.#..", "...#...", "..#.#..", ".#...#.", "#.....#"),  # cross
    ("...#...", "...#...", "...#...", "#######", "...#...", "...#...", "...#..."),  # plus
    (".......", ".......", "#######", "#######", "#######", ".......", "......."),  # bar
    ("...#...", "..###..", ".#####.", "#######", ".#####.", "..###..", "...#..."),  # diamond
    (".##.##.", ".##.##.", ".##.##.", ".##.##.", ".##.##.", ".##.##.", ".##.##."),  # pillars
    (".......", ".......", ".......", "#######", ".#####.", "..###..", "...#..."),  # down
    ("#.#.#.#", ".#.#.#.", "#.#.#.#", ".#.#.#.", "#.#.#.#", ".#.#.#.", "#.#.#.#"),  # checks
    ("...#...", "..#.#..", ".#...#.", "#.....#", ".#...#.", "..#.#..", "...#..."),  # rhombus
    ("##.....", "##.....", ".......", "...#...", ".......", ".....##", ".....##"),  # dice
    ("#######", ".......", "#######", ".......", "#######", ".......", "#######"),  # lines
    ("#......", "##.....", "###....", "####...", "#####..", "######.", "#######"),  # wedge
    ("#######", "#.....#", "#.###.#", "#.#.#.#", "#.###.#", "#.....#", "#######"),  # target
    ("...#...", "..#.#..", ".#...#.", "#.....#", ".......", ".......", "......."),  # chevron
)

# Tube geometry in art pixels.
_WALL_LEFT = (10, 12)  # x range of the left wall
_WALL_RIGHT = (38, 40)
_RIM_Y = 34  # top of the lip in the rim tile
_GLYPH_ORIGIN = 18  # top-left art pixel of the 14 x 14 glyph


def colour_tile(colour: int, *, lit: bool = False) -> str:
    """The name of the cell tile holding ``colour`` (0 = empty), plain or lit."""
    base = "empty" if colour == 0 else f"c{colour:02d}"
    return f"{base}-lit" if lit else base


def tile_names() -> tuple[str, ...]:
    """Every tile name, in tile-id order."""
    names = ["rim", "rim-source", "rim-target", "base", "base-lit", "base-done", "base-done-lit"]
    for lit in (False, True):
        names.extend(colour_tile(c, lit=lit) for c in range(len(LIQUIDS) + 1))
    return tuple(names)


def mark_colour(liquid: RGB) -> RGB:
    """The glyph colour on ``liquid``: dark on light liquids, light on dark ones."""
    red, green, blue = liquid
    luma = 0.299 * red + 0.587 * green + 0.114 * blue
    return MARK_DARK if luma >= 128 else MARK_LIGHT


def draw_tile(name: str) -> Image.Image:
    """Draw the tile called ``name`` as a 100 x 100 RGB image.

    Raises:
        ValueError: For a name not in :func:`tile_names`.
    """
    if name not in tile_names():
        raise ValueError(f"unknown Water Sort tile {name!r}")
    lit = name.endswith("-lit") or name in ("rim-source", "rim-target")
    image = Image.new("RGB", (_ART, _ART), BACKGROUND_LIT if lit else BACKGROUND)
    pen = ImageDraw.Draw(image)
    glass = GLASS_LIT if lit else GLASS
    if name.startswith("rim"):
        _draw_rim(pen, glass, name.removeprefix("rim").removeprefix("-"))
    elif name.startswith("base"):
        _draw_base(pen, glass, done="-done" in name)
    else:
        stem = name.removesuffix("-lit")
        colour = 0 if stem == "empty" else int(stem[1:])
        _draw_cell(pen, glass, colour, lit)
    return image.resize((TILE_SIZE, TILE_SIZE), Image.Resampling.NEAREST)


def _box(pen: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int, fill: RGB) -> None:
    """Fill art pixels x0 <= x < x1, y0 <= y < y1."""
    if x1 > x0 and y1 > y0:
        pen.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill)


def _walls(pen: ImageDraw.ImageDraw, glass: RGB, y0: int, y1: int) -> None:
    _box(pen, _WALL_LEFT[0], y0, _WALL_LEFT[1], y1, glass)
    _box(pen, _WALL_RIGHT[0], y0, _WALL_RIGHT[1], y1, glass)


def _draw_cell(pen: ImageDraw.ImageDraw, glass: RGB, colour: int, lit: bool) -> None:
    fill = (INSIDE_LIT if lit else INSIDE) if colour == 0 else LIQUIDS[colour - 1]
    _box(pen, _WALL_LEFT[1], 0, _WALL_RIGHT[0], _ART, fill)
    _walls(pen, glass, 0, _ART)
    if colour:
        ink = mark_colour(fill)
        for row, line in enumerate(_GLYPHS[colour - 1]):
            for col, char in enumerate(line):
                if char == "#":
                    x, y = _GLYPH_ORIGIN + 2 * col, _GLYPH_ORIGIN + 2 * row
                    _box(pen, x, y, x + 2, y + 2, ink)


def _draw_rim(pen: ImageDraw.ImageDraw, glass: RGB, marker: str) -> None:
    inside = INSIDE_LIT if marker else INSIDE
    _box(pen, _WALL_LEFT[1], _RIM_Y + 2, _WALL_RIGHT[0], _ART, inside)
    _walls(pen, glass, _RIM_Y, _ART)
    _box(pen, _WALL_LEFT[0] - 2, _RIM_Y, _WALL_LEFT[1], _RIM_Y + 2, glass)  # lip
    _box(pen, _WALL_RIGHT[0], _RIM_Y, _WALL_RIGHT[1] + 2, _RIM_Y + 2, glass)
    if marker == "source":
        _draw_arrow(pen, up=True)
    elif marker == "target":
        _draw_arrow(pen, up=False)


def _draw_arrow(pen: ImageDraw.ImageDraw, *, up: bool) -> None:
    """A stepped arrow in the marker area (art rows 2..30): out of or into the tube."""
    top, bottom = 2, 30
    head = 12  # rows of the head
    for step in range(head // 2):
        half = 2 * step + 2  # the head widens by 2 art pixels every 2 rows
        y = top + 2 * step if up else bottom - 2 - 2 * step
        _box(pen, 25 - half, y, 25 + half, y + 2, ARROW)
    if up:
        _box(pen, 21, top + head, 29, bottom, ARROW)
    else:
        _box(pen, 21, top, 29, bottom - head, ARROW)


def _draw_base(pen: ImageDraw.ImageDraw, glass: RGB, *, done: bool) -> None:
    left, right = _WALL_LEFT[0], _WALL_RIGHT[1]
    _box(pen, left, 0, right, 2, glass)
    _box(pen, left + 2, 2, right - 2, 4, glass)
    _box(pen, left + 6, 4, right - 6, 6, glass)
    if done:  # a stepped check mark under a sorted tube
        for x, y in ((14, 26), (16, 28), (18, 30), (20, 32), (22, 30), (24, 28), (26, 26)):
            _box(pen, x, y, x + 4, y + 4, ARROW)
        for x, y in ((28, 24), (30, 22), (32, 20), (34, 18)):
            _box(pen, x, y, x + 4, y + 4, ARROW)


def write_tiles(folder: Path) -> list[Path]:
    """Write every tile as ``<name>.png`` into ``folder`` (created if needed)."""
    return write_tile_pngs(tile_names(), draw_tile, folder)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m searchvid.domains.watersort.art OUTDIR``."""
    return tile_art_main("searchvid.domains.watersort.art", write_tiles, argv)


if __name__ == "__main__":
    sys.exit(main())
