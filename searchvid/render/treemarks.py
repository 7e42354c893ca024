"""The tree panel's colours and marks: every colour it draws, and the masks of its shapes.

Each state of a node has a colour from the Okabe-Ito palette *and* a shape or line style,
so that no state is told apart by colour alone (see :mod:`searchvid.render.palette`):

===========  ==========================================  =============================
state        shape / line style                          colour
===========  ==========================================  =============================
current      a ring around the node; the path to it      yellow
             drawn over the edges
frontier     a hollow ring                               light grey
visited      a filled disk (no value yet, where nodes    dark grey (darker in two-
             show values)                                player panels, away from
                                                         a draw's light grey)
leaf         a filled square                             dark grey
dropped      a thin cross                                dark grey
pruned       a bold cross at the end of a dashed edge    reddish purple
played       a heavy (4 px) edge into the node, and      bluish green
             its outline
hidden       a hollow square with ``+k``                 grey (light while on the
                                                         frontier)
principal    (MCTS) a second line beside each edge of    sky blue
variation    the line of most visits, and a base line
             under its bars
undone       (a step back, that frame only) a ring       magenta
             around the node the search left
===========  ==========================================  =============================

Values are fills on a ramp (9 colours): :func:`~searchvid.render.palette.sequential` for one
player, :func:`~searchvid.render.palette.diverging` between the players' colours for two.
A board picture (thumbnail) shows the same states and values as the colour of its frame.
The greys differ in lightness from the colours they share a shape with, so that readers
with any common colour-vision deficiency still tell them apart (tests/render/test_palette.py
simulates protanopia, deuteranopia and tritanopia).

Shapes are exact: no anti-aliasing, lines 2 px wide on even columns (4 px for played
edges), boxes of sizes 2 mod 4 centred on even pixel pairs. Text is anti-aliased on the
panel's background (:func:`paint_ink`): each text colour brings its ``LEVELS - 1`` blends
with the background (:data:`INK_BLENDS`), so the panel's colour table stays small and exact.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.palette import (
    BLUISH_GREEN,
    REDDISH_PURPLE,
    SKY_BLUE,
    UNDONE,
    YELLOW,
    diverging,
    sequential,
)
from searchvid.render.textink import LEVELS, ramp

Pixels = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]
Ink = npt.NDArray[np.uint8]
"""Anti-aliased text: ink levels from 0 (background) to ``LEVELS`` (full ink)."""

# -- colours --------------------------------------------------------------------------------

BACKGROUND: RGB = (24, 24, 24)
EDGE: RGB = (96, 96, 96)
PATH: RGB = YELLOW
TEXT: RGB = (214, 214, 214)
FRONTIER: RGB = (230, 230, 230)
VISITED: RGB = (104, 104, 104)
NO_VALUE: RGB = (76, 76, 76)
"""A two-player panel's node with no value yet: darker than :data:`VISITED`, so that it
stands well apart from a draw, the light grey middle of :data:`DIVERGING`."""
DROPPED: RGB = (60, 60, 60)
CROSS: RGB = (86, 86, 86)
PLAYED: RGB = BLUISH_GREEN
PRUNED: RGB = REDDISH_PURPLE
HIDDEN: RGB = (116, 116, 116)
PV: RGB = SKY_BLUE

SCALE_STEPS = 9
"""Colours per value scale."""
SEQUENTIAL: tuple[RGB, ...] = sequential(SCALE_STEPS)
"""A one-player value from 0 (dark blue) through grey to 1 (khaki)."""
DIVERGING: tuple[RGB, ...] = diverging(SCALE_STEPS)
"""Player 0's value from 0 (player 1's colour: player 1 wins) through grey to 1 (player 0's)."""

BASE_COLORS: tuple[RGB, ...] = (
    BACKGROUND,
    EDGE,
    PATH,
    TEXT,
    FRONTIER,
    VISITED,
    DROPPED,
    CROSS,
    PLAYED,
    PRUNED,
    HIDDEN,
    PV,
    UNDONE,
)
"""The colours of every panel; a panel with values adds one scale."""

TEXT_INKS: tuple[RGB, ...] = (TEXT, PATH, PRUNED)
"""The colours the panel writes in: words and counts, the current node's name, pruned counts."""
INK_BLENDS: tuple[RGB, ...] = tuple(
    blend for ink in TEXT_INKS for blend in ramp(ink, BACKGROUND)[1:LEVELS]
)
"""The anti-aliased edges of text: the ``LEVELS - 1`` blends of each of :data:`TEXT_INKS`
on the background, in that order."""

COLORS: tuple[RGB, ...] = (*BASE_COLORS, *SEQUENTIAL, *DIVERGING, *INK_BLENDS)
"""Every colour any panel draws (thumbnails add their own)."""

BG, EDGE_I, PATH_I, TEXT_I, FRONTIER_I, VISITED_I, DROPPED_I, CROSS_I = range(8)
PLAYED_I, PRUNED_I, HIDDEN_I, PV_I, UNDONE_I, SCALE_I = 8, 9, 10, 11, 12, 13
"""Indices into a panel's colour table; the scale's colours follow ``SCALE_I``."""
BLENDS_I = SCALE_I + SCALE_STEPS
"""Index of the first of :data:`INK_BLENDS` in a panel's colour table (after the scale)."""
_INK_I = (TEXT_I, PATH_I, PRUNED_I)  # the indices of TEXT_INKS


def panel_colors(two_players: bool) -> tuple[RGB, ...]:
    """A panel's colour table: the base colours, its value scale, then the text's blends.
    A two-player panel draws its nodes with no value yet in :data:`NO_VALUE` (at
    ``VISITED_I``): its scale's middle, a draw, is the light grey of a visited node."""
    if not two_players:
        return (*BASE_COLORS, *SEQUENTIAL, *INK_BLENDS)
    base = tuple(NO_VALUE if c == VISITED else c for c in BASE_COLORS)
    return (*base, *DIVERGING, *INK_BLENDS)


def ink_ramp(color: int) -> list[int]:
    """The indices of the colour of each ink level of text in ``color`` (``TEXT_I``,
    ``PATH_I`` or ``PRUNED_I``) on the background: ``LEVELS + 1`` of them, ``BG`` first and
    ``color`` last, as :func:`~searchvid.render.textink.ramp` blends them."""
    first = BLENDS_I + _INK_I.index(color) * (LEVELS - 1)
    return [BG, *range(first, first + LEVELS - 1), color]


# -- shapes ---------------------------------------------------------------------------------

DISK, SQUARE, CROSS_SHAPE = 0, 1, 2

DASH = 4
"""Length of the dashes (and gaps) of a pruned edge, in pixels."""


def paint_mask(pixels: Pixels, top: int, left: int, mask: Mask, color: Pixels) -> None:
    """Set the pixels under ``mask`` (placed at ``(top, left)``, clipped) to ``color``."""
    h, w = mask.shape
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(pixels.shape[0], top + h), min(pixels.shape[1], left + w)
    if y0 >= y1 or x0 >= x1:
        return
    region = pixels[y0:y1, x0:x1]
    region[mask[y0 - top : y1 - top, x0 - left : x1 - left]] = color


def paint_ink(
    pixels: Pixels, top: int, left: int, ink: Ink, shades: Pixels, *, right: int | None = None
) -> None:
    """Set each pixel under ``ink`` (placed at ``(top, left)``, clipped to ``pixels`` and
    before column ``right``) whose level ``k`` is above 0 to ``shades[k]``; pixels of level
    0 keep their colour.

    ``shades`` holds ``LEVELS + 1`` colours, a text colour's ramp on the background beneath
    (``rgb[ink_ramp(TEXT_I)]``): the text is blended over that background, so it must be
    painted on it. ``right`` bounds the anti-aliased fringe that may pass the width text
    is measured by (:meth:`~searchvid.render.textink.TextInk.width`).
    """
    h, w = ink.shape
    end = pixels.shape[1] if right is None else min(pixels.shape[1], right)
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(pixels.shape[0], top + h), min(end, left + w)
    if y0 >= y1 or x0 >= x1:
        return
    region = pixels[y0:y1, x0:x1]
    level = ink[y0 - top : y1 - top, x0 - left : x1 - left]
    inked = level > 0
    region[inked] = shades[level[inked]]


def paint_line(
    pixels: Pixels, rows: tuple[int, int], cols: tuple[int, int], color: Pixels, *, dashed: bool
) -> None:
    """Fill ``pixels[rows, cols]`` (half-open ranges), or only its dashes: runs of
    :data:`DASH` pixels along its longer side, counted from the panel's edge so that the
    pieces of one dashed edge line up."""
    (y0, y1), (x0, x1) = rows, cols
    if y1 <= y0 or x1 <= x0:
        return
    if not dashed:
        pixels[y0:y1, x0:x1] = color
        return
    if y1 - y0 >= x1 - x0:
        keep = (np.arange(y0, y1) // DASH) % 2 == 0
        pixels[y0:y1, x0:x1][keep] = color
    else:
        keep = (np.arange(x0, x1) // DASH) % 2 == 0
        pixels[y0:y1, x0:x1][:, keep] = color


_MASKS: dict[tuple[int, int, int, int], Mask] = {}


def solid(shape: int, height: int, width: int) -> Mask:
    """A filled disk (a square box) or rectangle."""
    key = (shape, height, width, 0)
    mask = _MASKS.get(key)
    if mask is None:
        if shape == DISK and height == width:
            c = (width - 1) / 2
            yy, xx = np.mgrid[0:width, 0:width]
            mask = (yy - c) ** 2 + (xx - c) ** 2 <= (width / 2) ** 2 + 0.25
        else:
            mask = np.ones((height, width), dtype=bool)
        _MASKS[key] = mask
    return mask


def ring(shape: int, height: int, width: int, thickness: int) -> Mask:
    """The outer ``thickness`` pixels of a disk or rectangle."""
    key = (shape, height, width, thickness)
    mask = _MASKS.get(key)
    if mask is None:
        mask = solid(shape, height, width).copy()
        inner_h, inner_w = height - 2 * thickness, width - 2 * thickness
        if inner_h > 0 and inner_w > 0:
            inside = mask[thickness : thickness + inner_h, thickness : thickness + inner_w]
            inside &= ~solid(shape, inner_h, inner_w)
        _MASKS[key] = mask
    return mask


def cross(size: int, *, bold: bool = False) -> Mask:
    """An x in a ``size`` square: two diagonals 2 px wide (4 px when ``bold``)."""
    key = (CROSS_SHAPE, size, size, 2 if bold else 1)
    mask = _MASKS.get(key)
    if mask is None:
        half = 2 if bold else 1
        yy, xx = np.mgrid[0:size, 0:size]
        mask = (np.abs(yy - xx) <= half) | (np.abs(yy + xx - (size - 1)) <= half)
        _MASKS[key] = mask
    return mask


def fit(board: Pixels, inner: int) -> Pixels:
    """``board`` scaled by nearest neighbour to fit an ``inner`` square, even-sized."""
    h, w = board.shape[:2]
    scale = inner / max(h, w, 1)
    th = max(2, int(h * scale) & ~1)
    tw = max(2, int(w * scale) & ~1)
    rows = np.arange(th) * h // th
    cols = np.arange(tw) * w // tw
    return np.ascontiguousarray(board[rows][:, cols])


def size4(limit: float) -> int:
    """The largest size ``2 + 4k`` not above ``limit`` (at least 2)."""
    return max(2, (int(limit) - 2) // 4 * 4 + 2)


def body(box: int) -> int:
    """Size of a node's body in a box (the rest holds the current-node ring)."""
    if box >= 18:
        return box - 8
    if box >= 10:
        return box - 4
    return box


def bucket(value: float) -> int:
    """Which of the scale's colours shows ``value`` in [0, 1] (clamped; NaN: the middle)."""
    if math.isnan(value):
        return SCALE_STEPS // 2
    top = SCALE_STEPS - 1
    return min(top, max(0, int(max(-1.0, min(2.0, value)) * SCALE_STEPS)))


def number(value: float) -> str:
    """A short label for a value: ``1``, ``0.5``, ``0.33``."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e6:
        return str(int(value))
    return f"{value:.2g}"


def count(n: int) -> str:
    """A count in at most four characters: ``999``, ``1.2k``, ``12k``."""
    if n < 1000:
        return str(n)
    if n < 10_000:
        return f"{n / 1000:.1f}k"
    return f"{n // 1000}k"


def paint_shape(
    pixels: Pixels,
    rgb: Pixels,
    at: tuple[int, int],
    size: tuple[int, int],
    shape: int,
    fill: int,
    line: int,
) -> None:
    """A disk, box or cross of ``size`` ``(height, width)`` at ``at`` ``(top, left)``:
    filled with colour ``fill`` and outlined 2 px in ``line`` (-1: none), by index into
    ``rgb``. A shape too small for an outline is filled with the outline's colour."""
    (top, left), (height, width) = at, size
    if shape == CROSS_SHAPE:
        paint_mask(pixels, top, left, cross(width), rgb[fill])
        return
    if min(height, width) < 6 and line >= 0:
        fill, line = line, -1
    if fill >= 0:
        paint_mask(pixels, top, left, solid(shape, height, width), rgb[fill])
    if line >= 0:
        paint_mask(pixels, top, left, ring(shape, height, width, 2), rgb[line])
