"""Colours that carry meaning, chosen so that colour-blind readers can tell them apart.

Categories (the states of the tree panel, the players of a game) take colours from the
Okabe-Ito palette (Okabe & Ito, *Color Universal Design*, 2002), eight colours that readers
with any common colour-vision deficiency still see as distinct. Values take colours from
ramps interpolated in the OKLab colour space (Ottosson, 2020), where equal steps look like
equal changes:

- :func:`sequential` for a quantity with no middle (a puzzle's value, a mean reward): most
  of the cividis map (Nuñez, Anderton & Renslow, 2018), rebuilt from its published control
  points;
- :func:`diverging` for a two-player game's value for player 0: from player 1's colour
  (player 1 wins) through a neutral grey (a draw) to player 0's colour (player 0 wins), so a
  player's colour means the same on the board (:data:`PLAYER_COLORS`) and in the tree.

Colour is never the only cue: the drawing code pairs each category with a shape or a line
style, and every ramp is shown in a legend with its ends named.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB

# -- Okabe-Ito ------------------------------------------------------------------------------

BLACK: RGB = (0, 0, 0)
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)

OKABE_ITO: tuple[RGB, ...] = (
    BLACK,
    ORANGE,
    SKY_BLUE,
    BLUISH_GREEN,
    YELLOW,
    BLUE,
    VERMILLION,
    REDDISH_PURPLE,
)
"""The eight Okabe-Ito colours, in their published order."""

UNDONE: RGB = (180, 0, 255)
"""The colour of what a backtracking step undid: the cells it changed on the board and the
tree node it left, on that frame only. All eight Okabe-Ito colours already mean something
(players, the current node, the path, pruned, played, the principal variation), so this is
a ninth: a vivid violet, chosen as the colour farthest (in OKLab) from all eight, from the
tree panel's greys and from white, for normal vision and for simulated protanopia,
deuteranopia and tritanopia alike. It is always drawn as an outline or a ring (a shape of
its own), never as a fill."""

PLAYER_COLORS: tuple[RGB, RGB] = (VERMILLION, BLUE)
"""Player 0's and player 1's colour, on boards and at the ends of :func:`diverging`.

Both are dark enough to draw marks on a light board and light enough to see on the tree
panel's dark background."""

# -- ramps ----------------------------------------------------------------------------------

CIVIDIS_POINTS: tuple[RGB, ...] = (
    (0, 34, 78),
    (53, 69, 108),
    (102, 105, 112),
    (148, 142, 119),
    (200, 184, 102),
    (254, 232, 56),
)
"""Cividis at 0, 0.2, 0.4, 0.6, 0.8 and 1 (its published table, rounded to 8 bits)."""

_SEQUENTIAL_SPAN = (0.1, 0.8)
"""The part of cividis :func:`sequential` uses: its darkest navy vanishes on a dark panel,
and its last yellow is the colour of the current node and its path."""

DRAW_GREY: RGB = (200, 200, 200)
"""The middle of :func:`diverging`: no player ahead."""

_LMS = np.array(
    [
        [0.4122214708, 0.5363325363, 0.0514459929],
        [0.2119034982, 0.6806995451, 0.1073969566],
        [0.0883024619, 0.2817188376, 0.6299787005],
    ]
)
_LAB = np.array(
    [
        [0.2104542553, 0.7936177850, -0.0040720468],
        [1.9779984951, -2.4285922050, 0.4505937099],
        [0.0259040371, 0.7827717662, -0.8086757660],
    ]
)


def to_oklab(colors: Sequence[RGB]) -> npt.NDArray[np.float64]:
    """8-bit sRGB colours as ``(n, 3)`` OKLab coordinates (L from 0 to 1, then a, b)."""
    srgb = np.asarray(colors, dtype=np.float64).reshape(-1, 3) / 255.0
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    lms = np.cbrt(linear @ _LMS.T)
    lab: npt.NDArray[np.float64] = lms @ _LAB.T
    return lab


def from_oklab(lab: npt.NDArray[np.float64]) -> list[RGB]:
    """OKLab coordinates back to 8-bit sRGB colours (clipped to the sRGB gamut)."""
    lms = (np.asarray(lab, dtype=np.float64).reshape(-1, 3) @ np.linalg.inv(_LAB).T) ** 3
    linear = np.clip(lms @ np.linalg.inv(_LMS).T, 0.0, 1.0)
    srgb = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    values = np.rint(np.clip(srgb, 0.0, 1.0) * 255).astype(int)
    return [(int(r), int(g), int(b)) for r, g, b in values]


def ramp(points: Sequence[RGB], stops: Sequence[float]) -> list[RGB]:
    """Colours at ``stops`` (each in [0, 1]) along the piecewise path through ``points``
    (evenly spaced from 0 to 1), interpolated in OKLab."""
    if len(points) < 2:
        raise ValueError("a ramp needs at least two points")
    lab = to_oklab(points)
    last = len(points) - 1
    out = []
    for t in stops:
        where = min(max(float(t), 0.0), 1.0) * last
        k = min(int(where), last - 1)
        f = where - k
        out.append(lab[k] * (1 - f) + lab[k + 1] * f)
    return from_oklab(np.array(out))


def _steps(n: int) -> list[float]:
    if n < 2:
        raise ValueError(f"a scale has at least 2 colours, got {n}")
    return [k / (n - 1) for k in range(n)]


def sequential(n: int) -> tuple[RGB, ...]:
    """``n`` colours from low to high on a cividis-like ramp (dark blue, grey, khaki)."""
    low, high = _SEQUENTIAL_SPAN
    return tuple(ramp(CIVIDIS_POINTS, [low + (high - low) * t for t in _steps(n)]))


def diverging(n: int) -> tuple[RGB, ...]:
    """``n`` colours for player 0's value from 0 (player 1's colour) through a grey draw to 1
    (player 0's colour); ``n`` odd puts the grey in the middle."""
    return tuple(ramp((PLAYER_COLORS[1], DRAW_GREY, PLAYER_COLORS[0]), _steps(n)))


def lightness(color: RGB) -> float:
    """OKLab lightness of ``color``, from 0 (black) to 1 (white)."""
    return float(to_oklab([color])[0, 0])
