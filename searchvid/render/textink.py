"""Text set by FreeType in the package's font, cached: the status strip, the tree panel, legends.

Every text of a frame is DejaVu Sans (``fonts/DejaVuSans.ttf``, shipped with the package under
the Bitstream Vera licence, ``fonts/LICENSE-DejaVu.txt``), chosen for small sizes: it was
drawn for screens, with a large x-height, open letter spacing and hinting that keeps stems
sharp at 12 px, where Pillow's bundled Aileron runs words together ("Sort:breadth"). Its
figures are tabular (every digit has one advance, and no pair of digits is kerned), so a
counter's digits keep their places as its value changes.

Whole strings are set at once, so kerning and advances are the font's own. Every text is
anti-aliased: FreeType's coverage rounded to :data:`LEVELS` steps, so that a text colour on
its background needs only ``LEVELS - 1`` blends in a GIF palette (:func:`ramp`) and every
output format shows the same pixels. It comes in two boxes:

- inks (:meth:`TextInk.ink`): the rows of a line's ink, trimmed after the last inked
  column, for drawing laid out by the ink's box (the tree panel and its legend), which is
  measured (:meth:`TextInk.width`) as a monochrome rendering inks it: the anti-aliased
  fringe of the last letter may reach a pixel or two past it, and painters keep room for
  it or clip it at their bounds;
- shades (:meth:`TextInk.shade`): the font's whole line, as wide as the pen's advance
  (the status strip, the board legend).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from searchvid.errors import RunError
from searchvid.render.atlas import RGB

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
"""The font every text of a frame is set in."""

MIN_TEXT = 12
"""Smallest text size panels and legends draw, in pixels: legible in a frame shown 720 px wide."""

LEVELS = 5
"""Steps of anti-aliased ink: level 0 is the background, ``LEVELS`` full ink, and the
``LEVELS - 1`` levels between are blends (enough for smooth edges; few enough for a palette)."""

INK_SAMPLE = "Abdfghjklpqy()[]0123456789+"
"""Letters spanning a line's ink, from the tallest ascender to the lowest descender."""

_CACHE = 4096
_LEVEL_OF = ((np.arange(256, dtype=np.uint16) * LEVELS + 127) // 255).astype(np.uint8)
"""The level of each 8-bit coverage value (rounded to the nearest step)."""


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The frame's font at ``size`` pixels (the em height).

    Raises:
        RunError: The font file is missing or Pillow has no FreeType (a broken install).
    """
    try:
        return ImageFont.truetype(str(FONT_FILE), size)
    except (OSError, ImportError) as error:
        raise RunError(f"cannot load the font {FONT_FILE}: {error}") from None


def ink_height(size: int) -> int:
    """The ink height of a line at ``size`` pixels: tallest ascender to lowest descender."""
    box = font(size).getbbox(INK_SAMPLE)
    return int(box[3]) - int(box[1])


def ramp(ink: RGB, background: RGB) -> tuple[RGB, ...]:
    """The colour of each ink level of ``ink`` text on ``background``: ``LEVELS + 1``
    colours, the background first and ``ink`` last (blended in sRGB, as FreeType's coverage
    is usually shown)."""
    return tuple(
        (
            round(background[0] + (ink[0] - background[0]) * k / LEVELS),
            round(background[1] + (ink[1] - background[1]) * k / LEVELS),
            round(background[2] + (ink[2] - background[2]) * k / LEVELS),
        )
        for k in range(LEVELS + 1)
    )


def ellipsized(text: str, width: int, measure: Callable[[str], int]) -> str:
    """``text`` if ``measure(text) <= width``, else its longest prefix ended with "…" that
    fits (found by bisection: ``measure`` grows with the prefix), "" when not even "…"
    fits."""
    if measure(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if measure(text[:middle].rstrip() + "…") <= width:
            low = middle
        else:
            high = middle - 1
    cut = text[:low].rstrip() + "…"
    return cut if measure(cut) <= width else ""


def levels(coverage: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """FreeType's 8-bit coverage as ink levels from 0 to :data:`LEVELS`."""
    out: npt.NDArray[np.uint8] = _LEVEL_OF[coverage]
    return out


def blend(pixels: npt.NDArray[np.uint8], level: npt.NDArray[np.uint8], ink: RGB) -> None:
    """Blend ``ink`` text over ``pixels`` in place: a pixel of ink level ``k > 0`` (``level``
    has ``pixels``' rows and columns) becomes ``ramp(ink, c)[k]``, ``c`` its colour before;
    pixels of level 0 keep theirs. On a background of one colour, text adds only that
    ramp's ``LEVELS - 1`` blends (``ink`` itself at full level)."""
    inked = level > 0
    if not inked.any():
        return
    beneath, where = np.unique(pixels[inked], axis=0, return_inverse=True)
    ramps = np.array([ramp(ink, (int(r), int(g), int(b))) for r, g, b in beneath], np.uint8)
    pixels[inked] = ramps[where.reshape(-1), level[inked]]


class TextInk:
    """Text in the frame's font at ``size`` pixels, anti-aliased: as inks or as shades.

    Attributes:
        size: The font size in pixels (the em height).
        height: Height of a line's ink, from the top of the tallest letters to the bottom of
            descenders: the height of every ink.
        top: Rows from the font's ascender line (where a line of text starts) down to the
            first row of every ink.
        line: Height of the font's line, from its ascender line to its descender line: the
            height of every shade (accents and underscores included).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._font = font(size)
        box = self._font.getbbox(INK_SAMPLE)
        self.top = int(box[1])
        self.height = int(box[3]) - self.top
        ascent, descent = self._font.getmetrics()
        self.line = max(ascent + descent, int(box[3]))
        self._inks: dict[str, npt.NDArray[np.uint8]] = {}
        self._shades: dict[str, npt.NDArray[np.uint8]] = {}
        self._advances: dict[str, int] = {}
        self._widths: dict[str, int] = {}
        self._cuts: dict[tuple[str, int], str] = {}

    def width(self, text: str) -> int:
        """Width of ``text``'s ink box in pixels: from the pen's start to the last column a
        monochrome rendering inks.

        Layouts (columns, legends, which notes fit) are measured by it, as they were when
        text was monochrome, so anti-aliasing moves nothing. The :meth:`ink` of ``text``
        may be a pixel or two wider: the faint right edge of its last letter.
        """
        width = self._widths.get(text)
        if width is None:
            columns = np.flatnonzero((self._render(text, "1") > 127).any(axis=0))
            width = int(columns[-1]) + 1 if columns.size else 0
            if len(self._widths) >= _CACHE:
                self._widths.clear()
            self._widths[text] = width
        return width

    def advance(self, text: str) -> int:
        """Pixels the pen moves setting ``text`` as a whole (kerning included), rounded up."""
        advance = self._advances.get(text)
        if advance is None:
            advance = math.ceil(self._font.getlength(text))
            if len(self._advances) >= _CACHE:
                self._advances.clear()
            self._advances[text] = advance
        return advance

    def fit(self, text: str, width: int) -> str:
        """``text`` as set in at most ``width`` px of ink (as :meth:`width` measures): whole
        if it fits, else its longest prefix that fits ended with "…" ("" when not even "…"
        fits)."""
        if self.width(text) <= width:
            return text
        key = (text, width)
        cut = self._cuts.get(key)
        if cut is None:
            cut = ellipsized(text, width, self.width)
            if len(self._cuts) >= _CACHE:
                self._cuts.clear()
            self._cuts[key] = cut
        return cut

    def fit_advance(self, text: str, width: int) -> str:
        """``text`` as set in at most ``width`` px of pen advance (as :meth:`advance`
        measures, where text is laid out by its advance): whole if it fits, else its
        longest prefix that fits ended with "…" ("" when not even "…" fits)."""
        return ellipsized(text, width, self.advance)

    def ink(self, text: str) -> npt.NDArray[np.uint8]:
        """``text`` anti-aliased: a ``(height, width)`` array of ink levels from 0 to
        :data:`LEVELS`, the rows of a line's ink (from :attr:`top`), from the pen's start
        to the last column any level reaches (which may lie a pixel or two past
        :meth:`width`)."""
        ink = self._inks.get(text)
        if ink is None:
            full = levels(self._render(text, "L"))
            columns = np.flatnonzero(full.any(axis=0))
            ink = full[:, : int(columns[-1]) + 1] if columns.size else full[:, :0]
            if len(self._inks) >= _CACHE:
                self._inks.clear()
            self._inks[text] = ink
        return ink

    def shade(self, text: str, *, keep: bool = True) -> npt.NDArray[np.uint8]:
        """``text`` anti-aliased: a ``(line, width)`` array of ink levels from 0 to
        :data:`LEVELS`, the font's whole line from its ascender line down, as wide as the
        text's :meth:`advance` (the pen's end, not its ink's).

        Args:
            text: The text.
            keep: Whether to cache the result (callers that cache what they make of it
                need not).
        """
        shade = self._shades.get(text)
        if shade is None:
            advance = self.advance(text)
            shade = levels(self._render(text, "L", advance, whole_line=True)[:, :advance])
            if keep:
                if len(self._shades) >= _CACHE:
                    self._shades.clear()
                self._shades[text] = shade
        return shade

    def _render(
        self, text: str, mode: str, advance: int | None = None, *, whole_line: bool = False
    ) -> npt.NDArray[np.uint8]:
        """``text`` drawn at the left edge of a line in font mode ``mode`` ("L": 8-bit
        coverage, "1": monochrome), with room for ink that reaches past its advance
        (trimmed by the caller): the ink's rows, or the font's whole line."""
        width = (self.advance(text) if advance is None else advance) + 2 * self.height
        rows, top = (self.line, 0) if whole_line else (self.height, self.top)
        image = Image.new("L", (width, rows), 0)
        draw = ImageDraw.Draw(image)
        draw.fontmode = mode
        draw.text((0, -top), text, fill=255, font=self._font)
        return np.asarray(image)
