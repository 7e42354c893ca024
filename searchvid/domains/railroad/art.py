"""Draws the Railroad Ink tiles: ``python -m searchvid.domains.railroad.art OUTDIR``.

Every tile of the view (:data:`view.TILE_NAMES`) is drawn at 100x100 pixels from the small
fixed :data:`PALETTE`, without anti-aliasing. Shapes are computed on a 50x50 grid of 2x2-pixel
blocks and then doubled, so every colour edge lies on even pixel coordinates (yuv420p
subsamples chroma in 2x2 blocks, so the video keeps the colours exact) and every route meets
the tile edge at the same place, so routes continue seamlessly from tile to tile.

Roads are dark grey bands with a white dashed centre line; rails are two black rails on brown
ties; a station is a red building on black; the overpass carries the road over the rail on a
bridge; exits are orange arrows pointing off the board.

A route end the scoring counts as an error runs into a barrier (:data:`view.ERROR_TILE_NAMES`):
a bar striped red and white in a black frame, just inside the edge of the cell the route runs
into, wider than a route (so it reads as closing it, not as a station or an exit) and clear
of the routes, markers and buildings drawn in that cell. The legend's swatch shows a road
ending at a larger barrier.

The game's row under the board (:data:`view.STRIP_TILE_NAMES`) uses the same palette: a
round is a dark badge with its number and seven pips; a die is a white rounded face showing
its route in the first orientation, greyed once drawn and crossed out in red when skipped; a
special route drawn is a white card with an orange frame, a free slot a dashed outline in
road grey, two blocks thick so that it keeps its dashes when the legend shrinks it.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.domains.railroad.tiles import TILES, ExitKind, Group, Side, Transport
from searchvid.domains.railroad.view import DIE_STATES, ERROR_SWATCH, TILE_NAMES
from searchvid.render.tileart import tile_art_main, write_tile_pngs

__all__ = ["PALETTE", "TILE_SIZE", "draw_tile", "main", "tile_pixels", "write_tiles"]

TILE_SIZE = 100
"""Edge of a drawn tile in pixels."""

_B = TILE_SIZE // 2  # blocks per edge
_MID = _B / 2  # centre line, in blocks

PALETTE: tuple[tuple[int, int, int], ...] = (
    (244, 241, 232),  # 0 paper: interior cells
    (200, 194, 180),  # 1 grid lines
    (214, 205, 182),  # 2 border cells
    (70, 70, 76),  # 3 road
    (250, 250, 250),  # 4 road centre line
    (24, 24, 24),  # 5 rails, outlines, bridge parapets
    (140, 92, 48),  # 6 rail ties
    (198, 46, 38),  # 7 station
    (236, 132, 20),  # 8 exit arrow
    (40, 150, 72),  # 9 open-position marker
)
"""Every colour the tiles use (index = palette entry)."""

_PAPER, _GRID, _BORDER, _ROAD, _LINE, _BLACK, _TIE, _STATION, _EXIT, _OPEN = range(10)

Canvas = npt.NDArray[np.uint8]
Field = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

# Block-centre coordinates, in blocks.
_Y, _X = np.mgrid[0:_B, 0:_B].astype(np.float64) + 0.5

_ROAD_HALF = 7.0  # half width of the road band
_RAIL_AT = 4.0  # outer edge of the two rails, +- this offset
_TIE_HALF = 6.5  # half length of a tie


def _dash(t: Field) -> Mask:
    """The centre-line dashes along a route coordinate ``t`` (symmetric about 0 and 50)."""
    phase = np.mod(t, 5.0)
    return (phase >= 1.0) & (phase < 4.0)


def _tie(t: Field) -> Mask:
    phase = np.mod(t, 5.0)
    return (phase >= 1.5) & (phase < 3.5)


def _along(side: Side) -> tuple[Field, Field]:
    """``(u, v)``: distance from ``side``'s edge into the tile, and offset across the route."""
    if side is Side.N:
        return _Y, _X - _MID
    if side is Side.S:
        return _B - _Y, _X - _MID
    if side is Side.W:
        return _X, _Y - _MID
    return _B - _X, _Y - _MID


def _curve(a: Side, b: Side) -> tuple[Field, Field]:
    """``(t, v)`` for a quarter circle joining adjacent sides ``a`` and ``b``."""
    corner_x = _B if Side.E in (a, b) else 0
    corner_y = _B if Side.S in (a, b) else 0
    dx, dy = np.abs(_X - corner_x), np.abs(_Y - corner_y)
    v = np.hypot(dx, dy) - _MID
    t = np.arctan2(dy, dx) / (math.pi / 2) * _B
    return t, v


def _paint_road(canvas: Canvas, t: Field, v: Field, extent: Mask, dashes: Mask) -> None:
    canvas[extent & (np.abs(v) < _ROAD_HALF)] = _ROAD
    canvas[extent & dashes & (np.abs(v) < 1.0) & _dash(t)] = _LINE


def _paint_rail(canvas: Canvas, t: Field, v: Field, extent: Mask, ties: Mask) -> None:
    canvas[extent & ties & (np.abs(v) < _TIE_HALF) & _tie(t)] = _TIE
    off = np.abs(v)
    canvas[extent & (off > _RAIL_AT - 1.0) & (off < _RAIL_AT + 0.6)] = _BLACK


def _paint(canvas: Canvas, transport: Transport, t: Field, v: Field, extent: Mask) -> None:
    everywhere = np.ones_like(extent)
    if transport is Transport.ROAD:
        _paint_road(canvas, t, v, extent, everywhere)
    else:
        _paint_rail(canvas, t, v, extent, everywhere)


def _paint_stub(canvas: Canvas, side: Side, transport: Transport) -> None:
    """A route from ``side`` to the centre of the tile (T junctions, crosses, stations)."""
    u, v = _along(side)
    if transport is Transport.ROAD:
        _paint_road(canvas, u, v, u < _MID + _ROAD_HALF, u < _MID - _ROAD_HALF)
    else:
        _paint_rail(canvas, u, v, u < _MID + _RAIL_AT + 0.6, u < _MID)


def _paint_group(canvas: Canvas, group: Group) -> None:
    pairs = sorted(group)
    transports = {t for _, t in pairs}
    if len(pairs) == 2 and len(transports) == 1:
        (a, transport), (b, _) = pairs
        everywhere = np.ones((_B, _B), dtype=bool)
        if a.opposite is b:
            u, v = _along(a)
            _paint(canvas, transport, u, v, everywhere)
        else:
            t, v = _curve(a, b)
            _paint(canvas, transport, t, v, v > -_MID)
        return
    # Junctions: rails first so that roads cross over them cleanly.
    for side, transport in sorted(pairs, key=lambda p: (-p[1], p[0])):
        _paint_stub(canvas, side, transport)
    if len(transports) > 1:
        _paint_station(canvas)


def _paint_station(canvas: Canvas) -> None:
    box = (np.abs(_X - _MID) < 9) & (np.abs(_Y - _MID) < 9)
    canvas[box] = _BLACK
    canvas[(np.abs(_X - _MID) < 8) & (np.abs(_Y - _MID) < 8)] = _STATION
    canvas[(np.abs(_X - _MID) < 2) & (_Y - _MID > 3) & (_Y - _MID < 8)] = _BLACK  # a door


def _paint_bridge(canvas: Canvas, road: Group) -> None:
    """The road group of an overpass, carried on a bridge over the rail."""
    side = min(s for s, _ in road)
    u, v = _along(side)
    span = np.abs(u - _MID) < 10
    off = np.abs(v)
    canvas[span & (off < _ROAD_HALF + 2)] = _PAPER
    canvas[span & (off >= _ROAD_HALF) & (off < _ROAD_HALF + 1)] = _BLACK
    _paint(canvas, Transport.ROAD, u, v, np.ones((_B, _B), dtype=bool))


def _cell_canvas() -> Canvas:
    canvas = np.full((_B, _B), _PAPER, dtype=np.uint8)
    canvas[[0, -1], :] = _GRID
    canvas[:, [0, -1]] = _GRID
    return canvas


def _tile_blocks(groups: tuple[Group, ...]) -> Canvas:
    canvas = _cell_canvas()
    if len(groups) == 1:
        _paint_group(canvas, groups[0])
        return canvas
    # An overpass: the rail below, the road bridged over it.
    lower = [g for g in groups if all(t is Transport.RAIL for _, t in g)]
    upper = [g for g in groups if g not in lower]
    for group in lower:
        _paint_group(canvas, group)
    for group in upper:
        _paint_bridge(canvas, group)
    return canvas


def _exit_blocks(kind: ExitKind) -> Canvas:
    canvas = np.full((_B, _B), _BORDER, dtype=np.uint8)
    u, v = _along(kind.side)
    arrow = (u >= 22) & (u < 44) & (np.abs(v) < (44 - u) * 0.6)
    canvas[arrow] = _EXIT
    stub = u < 24
    if kind.transport is Transport.ROAD:
        _paint_road(canvas, u, v, stub, stub)
    else:
        _paint_rail(canvas, u, v, stub, stub)
    return canvas


def _open_blocks() -> Canvas:
    canvas = _cell_canvas()
    r = np.hypot(_X - _MID, _Y - _MID)
    canvas[(r >= 7) & (r < 10)] = _OPEN
    canvas[r < 3] = _OPEN
    return canvas


# --- error barriers ------------------------------------------------------------------------------

_BAR_FROM, _BAR_TO = 1, 6  # the barrier's frame, in blocks from the edge (past the grid line)
_BAR_HALF = 11.0  # half its length: past the road band (7) and the rail ties (6.5)


def _paint_barrier(
    canvas: Canvas, u: Field, v: Field, start: float, end: float, half: float
) -> None:
    """A barrier across a route: a black frame from ``start`` to ``end`` blocks along ``u``,
    ``half`` blocks either side across it, filled with red and white diagonal stripes."""
    frame = (u >= start) & (u < end) & (np.abs(v) < half)
    canvas[frame] = _BLACK
    inside = (u >= start + 1) & (u < end - 1) & (np.abs(v) < half - 1)
    canvas[inside] = _STATION
    canvas[inside & (np.mod(u + v, 6.0) < 3.0)] = _LINE


def _error_blocks(name: str) -> Canvas:
    """Tile ``name`` (``"<tile>+error-<sides>"``): the tile with a barrier on each side.
    An open cell's barriers (``"open+error-<sides>"``, on a terminal board only) stand on the
    plain empty cell, without the open ring: the ring's legend says each tile's end into it
    costs a point, which the barriers now say, and a reader would count each end twice."""
    base, letters = name.split("+error-")
    canvas = _cell_canvas() if base == "open" else _named_blocks(base)
    for letter in letters:
        u, v = _along(Side("NESW".index(letter)))
        _paint_barrier(canvas, u, v, _BAR_FROM, _BAR_TO, _BAR_HALF)
    return canvas


def _error_swatch_blocks() -> Canvas:
    """The legend's picture: a road from the west edge ending at a barrier."""
    canvas = _cell_canvas()
    u, v = _along(Side.W)
    _paint_road(canvas, u, v, u < 26, u < 26)
    _paint_barrier(canvas, u, v, 26, 36, 18)
    return canvas


# --- the game's row: rounds, dice, special routes ----------------------------------------------

_GLYPHS: dict[str, tuple[str, ...]] = {
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", ".#.", ".#."),
    "?": ("###", "..#", ".##", "...", ".#."),
}
"""A 3x5 pixel font for the round numbers and the unrolled die."""

_LO, _HI = 6, 44  # the badge, die or card spans these blocks on both axes
_FACE = _HI - _LO - 2  # blocks of the picture inside a die or card (within the outline)
_ROUNDS = 7


def _rounded(lo: int, hi: int, radius: float) -> Mask:
    """A square from block ``lo`` to ``hi`` (exclusive) with rounded corners."""
    nx = np.clip(_X, lo + radius, hi - radius)
    ny = np.clip(_Y, lo + radius, hi - radius)
    mask: Mask = np.hypot(_X - nx, _Y - ny) <= radius
    return mask


def _glyph(canvas: Canvas, char: str, top: int, left: int, scale: int, color: int) -> None:
    for r, row in enumerate(_GLYPHS[char]):
        for c, bit in enumerate(row):
            if bit == "#":
                y, x = top + r * scale, left + c * scale
                canvas[y : y + scale, x : x + scale] = color


def _round_blocks(number: int | None) -> Canvas:
    """A round badge: the number and a pip per round played; a chequered flag at the end."""
    canvas = np.full((_B, _B), _BORDER, dtype=np.uint8)
    outer = _rounded(_LO, _HI, 5)
    canvas[outer] = _BLACK
    canvas[_rounded(_LO + 1, _HI - 1, 4)] = _ROAD
    if number is None:
        # A chequered flag on a pole.
        canvas[12:38, 13:15] = _LINE
        flag = (_Y >= 12) & (_Y < 28) & (_X >= 15) & (_X < 37)
        checks = ((_Y.astype(int) - 12) // 4 + (_X.astype(int) - 15) // 4) % 2 == 0
        canvas[flag] = _BLACK
        canvas[flag & checks] = _LINE
        pips = _ROUNDS
    else:
        _glyph(canvas, str(number), 10, 19, 4, _LINE)
        pips = number
    for i in range(_ROUNDS):
        left = 9 + 5 * i
        canvas[34:37, left : left + 3] = _EXIT if i < pips else _GRID
    return canvas


def _picture(name: str) -> Canvas:
    """Tile ``name``'s blocks shrunk to the inside of a die or card (nearest block)."""
    tile = next(t for t in TILES if t.name == name)
    index = ((np.arange(_FACE) + 0.5) * _B / _FACE).astype(np.intp)
    return _tile_blocks(tile.groups)[np.ix_(index, index)]


def _die_blocks(base: str | None, state: str) -> Canvas:
    """A die showing ``base`` (None: not rolled yet) in one of :data:`view.DIE_STATES`."""
    canvas = np.full((_B, _B), _BORDER, dtype=np.uint8)
    spent = state != ""
    body = _rounded(_LO, _HI, 5)
    inside = _rounded(_LO + 1, _HI - 1, 4)
    canvas[body] = _GRID if spent else _BLACK
    face = np.full((_B, _B), _PAPER if spent else _LINE, dtype=np.uint8)
    if base is None:
        _glyph(face, "?", 15, 19, 4, _GRID)
    else:
        picture = _picture(f"{base}-r0")
        background = (picture == _PAPER) | (picture == _GRID)
        if spent:
            picture = np.where(background, _PAPER, _GRID).astype(np.uint8)
        else:
            picture = np.where(background, _LINE, picture).astype(np.uint8)
        face[_LO + 1 : _HI - 1, _LO + 1 : _HI - 1] = picture
    canvas[inside] = face[inside]
    if state == "-skipped":
        cross = (np.abs(_X - _Y) < 2.0) | (np.abs(_X + _Y - _B) < 2.0)
        canvas[cross & _rounded(_LO + 3, _HI - 3, 2)] = _STATION
    return canvas


def _special_blocks(name: str | None) -> Canvas:
    """A special route drawn (``name``) as a framed card, or a free slot (None)."""
    canvas = np.full((_B, _B), _BORDER, dtype=np.uint8)
    square = (_X >= _LO) & (_X < _HI) & (_Y >= _LO) & (_Y < _HI)
    if name is None:
        ring = square & ~((_X >= _LO + 2) & (_X < _HI - 2) & (_Y >= _LO + 2) & (_Y < _HI - 2))
        dashes = np.mod(_X + _Y, 8.0) < 4.0
        canvas[ring & dashes] = _ROAD
        return canvas
    canvas[square] = _EXIT
    picture = _picture(f"{name}-r0")
    background = (picture == _PAPER) | (picture == _GRID)
    canvas[_LO + 1 : _HI - 1, _LO + 1 : _HI - 1] = np.where(background, _LINE, picture)
    frame = square & ~((_X >= _LO + 2) & (_X < _HI - 2) & (_Y >= _LO + 2) & (_Y < _HI - 2))
    canvas[frame] = _EXIT
    return canvas


def _strip_blocks(name: str) -> Canvas | None:
    """The blocks of a tile of the game's row, or None when ``name`` is not one."""
    if name.startswith("round-"):
        return _round_blocks(int(name.removeprefix("round-")))
    if name == "game-over":
        return _round_blocks(None)
    if name == "die-unrolled":
        return _die_blocks(None, "")
    if name.startswith("die-"):
        rest = name.removeprefix("die-")
        for state in DIE_STATES[1:]:
            if rest.endswith(state):
                return _die_blocks(rest.removesuffix(state), state)
        return _die_blocks(rest, "")
    if name == "special-slot":
        return _special_blocks(None)
    if name.startswith("special-"):
        return _special_blocks(name.removeprefix("special-"))
    return None


def tile_pixels(name: str) -> Canvas:
    """The palette indices of tile ``name``, shape (100, 100)."""
    if name == "empty":
        blocks = np.full((_B, _B), _BORDER, dtype=np.uint8)
    elif name == "empty-cell":
        blocks = _cell_canvas()
    elif name == "open":
        blocks = _open_blocks()
    elif name.startswith("exit-"):
        blocks = _exit_blocks(ExitKind(name))
    elif (strip := _strip_blocks(name)) is not None:
        blocks = strip
    elif name == ERROR_SWATCH:
        blocks = _error_swatch_blocks()
    elif "+error-" in name:
        blocks = _error_blocks(name)
    else:
        blocks = _named_blocks(name)
    return np.repeat(np.repeat(blocks, 2, axis=0), 2, axis=1)


def _named_blocks(name: str) -> Canvas:
    """The blocks of the oriented route tile ``name``."""
    tile = next((t for t in TILES if t.name == name), None)
    if tile is None:
        raise ValueError(f"unknown railroad tile {name!r}")
    return _tile_blocks(tile.groups)


def draw_tile(name: str) -> Image.Image:
    """Tile ``name`` as a 100x100 RGB image."""
    lut = np.array(PALETTE, dtype=np.uint8)
    return Image.fromarray(lut[tile_pixels(name)])


def write_tiles(folder: Path) -> list[Path]:
    """Write every tile as ``<name>.png`` into ``folder`` (created if needed)."""
    return write_tile_pngs(TILE_NAMES, draw_tile, folder)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m searchvid.domains.railroad.art OUTDIR``."""
    return tile_art_main("searchvid.domains.railroad.art", write_tiles, argv)


if __name__ == "__main__":
    sys.exit(main())
