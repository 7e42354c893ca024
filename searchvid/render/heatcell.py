"""Drawing one heated cell of the MCTS heat map (:mod:`searchvid.render.heatmap`): its ground
read at the edges, the tint, the played move's outline and the count's badge, placed where it
covers least of the cell's own drawing."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Pixels
from searchvid.render.hud import HUD_COLORS
from searchvid.render.palette import REDDISH_PURPLE, SKY_BLUE
from searchvid.render.textink import TextInk, blend

TINT: RGB = REDDISH_PURPLE
"""The colour a heated cell's ground is blended toward (no other MCTS mark uses it)."""

PV: RGB = SKY_BLUE
"""The outline of the most visited move: the tree panel's principal-variation colour."""

ALPHA = 0.2
"""How far each level blends the ground toward :data:`TINT`."""

BADGE: RGB = HUD_COLORS[0]
"""The count's badge: the status strip's background."""

SLIVER = 0.03
"""The most of the drawing of the piece just placed a count may cover where the move has
another cell to write it on: a sliver of a ring's rim beside a corner."""

CORNER = 0.12
"""The most of the drawing of the piece just placed a count may cover where the move has no
roomier cell: a road's corner (3-digit counts on Railroad Ink's tiles cover up to 0.115),
not a piece filling its cell (a Quarto winning piece's ``1,319``: 0.17, ``1.3k``: 0.13)."""

BADGE_MARGIN = 2
"""The least room between a count's badge and its cell's edge, in pixels."""

INK: RGB = HUD_COLORS[2]
"""The count's text: the status strip's colour (its blends are already in the palette)."""


def as_rgb(color: Any) -> RGB:
    return (int(color[0]), int(color[1]), int(color[2]))


def cell_ground(tile: Pixels) -> RGB:
    """The most common colour of ``tile``'s edge band, an eighth of its side wide (ties:
    the smallest packed value): a cell's ground shows at its edges, while a piece that
    fills most of the cell would win a count over the whole tile and be tinted."""
    band = max(1, tile.shape[0] // 8)
    edges = np.ones(tile.shape[:2], dtype=bool)
    edges[band:-band, band:-band] = False
    flat = tile[edges].astype(np.uint32)
    # packed as 0xRRGGBB, whose order is the colours' order: np.unique over rows (axis=0)
    # sorts far slower, and Railroad Ink's atlas asks for some 170 tiles twice
    packed = flat[:, 0] << 16 | flat[:, 1] << 8 | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    most = int(values[int(counts.argmax())])
    return (most >> 16, most >> 8 & 0xFF, most & 0xFF)


def tinted(ground: RGB, level: int) -> RGB:
    """``ground`` blended ``ALPHA * level`` of the way toward :data:`TINT`."""
    a = ALPHA * level
    return (
        round(ground[0] + (TINT[0] - ground[0]) * a),
        round(ground[1] + (TINT[1] - ground[1]) * a),
        round(ground[2] + (TINT[2] - ground[2]) * a),
    )


def outline_width(side: int) -> int:
    """Width of the most visited move's outline in a cell ``side`` pixels wide."""
    return max(2, side // 16 & ~1)


def badge_edge(side: int) -> int:
    """The band along a cell's edges a count's badge keeps clear of (the outline's)."""
    return max(BADGE_MARGIN, outline_width(side))


def short_count(n: int) -> str:
    """``n`` in at most four characters: ``999``, ``1.2k``, ``12k``, ``120k``, ``1.2M``."""
    if n < 1000:
        return str(n)
    if n < 10_000:
        return f"{n / 1000:.1f}k"
    if n < 1_000_000:
        return f"{n // 1000}k"
    return f"{n / 1_000_000:.1f}M"


def draw_outline(picture: Pixels, width: int) -> None:
    """A :data:`PV` frame ``width`` pixels wide along ``picture``'s edges, in place."""
    picture[:width] = PV
    picture[-width:] = PV
    picture[:, :width] = PV
    picture[:, -width:] = PV


def least_words(
    text: TextInk, words: str, visits: int, art: npt.NDArray[np.bool_]
) -> tuple[str, float]:
    """``words`` or the shorter ``1.3k`` form, whichever badge covers less of the tile's
    drawing ``art`` where it stands (``words`` on a tie, and whenever it covers at most
    :data:`SLIVER`), and the share of the drawing it covers (0 for a tile with none)."""
    side = art.shape[0]
    edge = badge_edge(side)
    drawn = max(1, int(art.sum()))
    best: tuple[str, float] | None = None
    for option in dict.fromkeys((words, short_count(visits))):
        height, width = badge_size(text, option, side)
        top, left = badge_place(art, height, width, edge)
        share = int(art[top : top + height, left : left + width].sum()) / drawn
        if best is None or share < best[1]:
            best = (option, share)
        if share <= SLIVER:
            break
    assert best is not None
    return best


def badge_size(text: TextInk, words: str, side: int) -> tuple[int, int]:
    """The ``(height, width)`` of ``words``' badge in a cell ``side`` pixels wide."""
    ink = text.ink(words)
    return ink.shape[0] + 4, min(ink.shape[1] + 8, side - 2 * badge_edge(side))


def draw_badge(picture: Pixels, text: TextInk, words: str, art: npt.NDArray[np.bool_]) -> None:
    """``words`` on a badge in the status strip's colours, where it covers the fewest
    pixels of the tile's own drawing ``art`` (a mask of ``picture``'s shape): the centre
    of an empty cell, else the corner or side its piece leaves free (ties: the centre, then
    the corners, then the sides), so that a count never hides the piece it counts."""
    ink = text.ink(words)
    side = picture.shape[0]
    edge = badge_edge(side)
    height, width = badge_size(text, words, side)
    top, left = badge_place(art, height, width, edge)
    box = picture[top : top + height, left : left + width]
    box[:] = BADGE
    level = np.zeros(box.shape[:2], dtype=np.uint8)
    part = ink[:, : width - 4]
    level[2 : 2 + part.shape[0], 4 : 4 + part.shape[1]] = part
    blend(box, level, INK)


def badge_place(art: npt.NDArray[np.bool_], height: int, width: int, edge: int) -> tuple[int, int]:
    """The (top, left) of a ``height`` x ``width`` badge inside a cell's ``edge`` band
    covering the fewest ``art`` pixels (first of centre, corners, sides on a tie)."""
    side = art.shape[0]
    middle_top, middle_left = (side - height) // 2, (side - width) // 2
    low, right = side - edge - height, side - edge - width
    places = [
        (middle_top, middle_left),
        (edge, edge),
        (edge, right),
        (low, edge),
        (low, right),
        (edge, middle_left),
        (low, middle_left),
        (middle_top, edge),
        (middle_top, right),
    ]
    covered = [int(art[t : t + height, x : x + width].sum()) for t, x in places]
    return places[covered.index(min(covered))]
