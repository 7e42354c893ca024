"""The board's legend: every mark a domain's view draws with a meaning, and its words.

A view declares its marks with a ``marks`` attribute: a sequence of :class:`Mark`, each a
tile of its own tile set (the swatch) and a few words (``Mark("x_last", "last move")``).
:class:`BoardLegend` draws them in lines under the board: each tile shrunk to a swatch, then
its words, anti-aliased like the status strip's and at least
:data:`~searchvid.render.textink.MIN_TEXT` pixels tall. A view
without ``marks`` has no legend. The renderer knows nothing of the domain: the words and the
pictures are the view's. One mark is the renderer's own: :data:`UNDONE_MARK`, the frame a
backtracking step puts on the cells it undid (:mod:`searchvid.render.undo`), listed after the
view's in scenes whose algorithm backtracks. Another is a view's to ask for:
:data:`PLACED_MARK`, listed among its ``marks``, makes the renderer bracket the cells each
forward move changed (:mod:`searchvid.render.placed`) and names that mark "just placed".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.hud import HUD_COLORS
from searchvid.render.linewrap import greedy
from searchvid.render.placed import COLOR as PLACED
from searchvid.render.placed import WORDS as PLACED_WORDS
from searchvid.render.placed import swatch as placed_swatch
from searchvid.render.textink import MIN_TEXT, TextInk, ramp
from searchvid.render.undo import COLOR as UNDONE
from searchvid.render.undo import WORDS as UNDONE_WORDS
from searchvid.render.undo import swatch as undone_swatch

Pixels = npt.NDArray[np.uint8]

BACKGROUND: RGB = HUD_COLORS[0]
"""The strip's background: the legend reads as part of it."""
TEXT: RGB = HUD_COLORS[2]
"""The strip's status colour."""
COLORS: tuple[RGB, ...] = ramp(TEXT, BACKGROUND)
"""The legend's own colours: the background, the text's anti-aliasing blends over it, the
text (the swatches are tile pixels)."""

_MARGIN = 6

MIN_WIDTH = 96
"""Narrowest frame that gets a legend: its margins, a swatch and a word or two. A frame
narrower than this (a board of a few tiny tiles) shows no legend rather than one whose words
cannot be read."""
_GAP = 16
"""Space between two entries of a line."""


@dataclass(frozen=True)
class Mark:
    """A mark a view draws that means something, and what it means.

    Attributes:
        tile: The name of a tile of the view's tile set that shows the mark.
        text: A few words: ``"last move"``, ``"poured from"``.
    """

    tile: str
    text: str


UNDONE_MARK = Mark("<undone>", UNDONE_WORDS)
"""The renderer's own mark (not a tile: drawn by :func:`~searchvid.render.undo.swatch`):
the cells a backtracking step undid. Recognised by identity, so no view's tile is taken
for it."""

PLACED_MARK = Mark("<just placed>", PLACED_WORDS)
"""A mark a view may list among its ``marks`` (not a tile: drawn by
:func:`~searchvid.render.placed.swatch`): the renderer then brackets the cells each forward
move changed, on that move's frame. Recognised by identity, like :data:`UNDONE_MARK`."""

_OWN_MARKS = (UNDONE_MARK, PLACED_MARK)


def marks_of(view: object) -> tuple[Mark, ...]:
    """The marks ``view`` declares (its ``marks`` attribute; none without one).

    Raises:
        ValueError: A mark that is not a :class:`Mark`, or names a tile the view's tile set
            does not have.
    """
    marks = tuple(getattr(view, "marks", ()))
    names = set(getattr(getattr(view, "tileset", None), "names", ()))
    for mark in marks:
        if not isinstance(mark, Mark):
            raise ValueError(f"a view's marks must be Mark objects, got {mark!r}")
        if mark.tile not in names and not any(mark is own for own in _OWN_MARKS):
            raise ValueError(f"mark {mark.text!r} names tile {mark.tile!r}, not in the tile set")
    return marks


class BoardLegend:
    """A strip ``width`` pixels wide explaining ``marks``, in as many lines as they need.

    The lines are laid out at once (:attr:`height` is known without drawing); the pixels
    are drawn on first use, so a frame can be measured before its tiles are loaded.

    Args:
        marks: The marks, in the order the view gives them.
        tile: The picture of a tile by name (an ``(s, s, 3)`` RGB array, any even size): the
            swatch is that picture scaled by nearest neighbour, so it keeps the tile's colours.
            Called when :attr:`pixels` is first read.
        width: Width in pixels (even).
        font_size: Text size in pixels (at least :data:`MIN_TEXT`).

    Attributes:
        swatch: Side of a swatch in pixels (even).
        text_size: The text's size in pixels.
        text_height: The height of a line of its text's ink, ascenders to descenders.
    """

    def __init__(
        self,
        marks: Sequence[Mark],
        tile: Callable[[str], Pixels],
        width: int,
        *,
        font_size: int = MIN_TEXT + 2,
    ) -> None:
        if width % 2 or width < 2 * _MARGIN:
            raise ValueError(f"a legend is even-wide and at least {2 * _MARGIN} px, got {width}")
        if font_size < MIN_TEXT:
            raise ValueError(f"font_size must be at least {MIN_TEXT}, got {font_size}")
        self._text = TextInk(font_size)
        self.text_size = font_size
        self.text_height = self._text.height
        self.swatch = max(24, 2 * self._text.height) + 1 & ~1
        self.width = width
        self._tile = tile
        self._marks = tuple(marks)
        self._lines = self._wrap()
        height = len(self._lines) * (self.swatch + 4) + 2 * _MARGIN if self._marks else 0
        self._height = height + height % 2
        self._pixels: Pixels | None = None

    @classmethod
    def measure(cls, marks: Sequence[Mark], width: int, *, font_size: int = MIN_TEXT + 2) -> int:
        """The height of a legend of ``marks`` ``width`` pixels wide, nothing drawn."""
        return cls(marks, _no_tiles, width, font_size=font_size).height

    @property
    def height(self) -> int:
        """Height in pixels (0 without marks)."""
        return self._height

    @property
    def pixels(self) -> Pixels:
        """The drawn legend, ``(height, width, 3)`` uint8 RGB (drawn on first use)."""
        if self._pixels is None:
            pixels: Pixels = np.empty((self._height, self.width, 3), dtype=np.uint8)
            pixels[:] = BACKGROUND
            self._draw(pixels)
            self._pixels = pixels
        return self._pixels

    @property
    def colors(self) -> tuple[RGB, ...]:
        """The legend's colours besides the tiles'."""
        own = [
            color
            for mark, color in ((UNDONE_MARK, UNDONE), (PLACED_MARK, PLACED))
            if any(m is mark for m in self._marks)
        ]
        return (*COLORS, *own)

    @property
    def lines(self) -> tuple[tuple[str, ...], ...]:
        """The marks' words, line by line."""
        return tuple(tuple(m.text for m in line) for line in self._lines)

    def _entry_width(self, mark: Mark) -> int:
        return self.swatch + 6 + self._text.advance(mark.text)

    def _wrap(self) -> list[list[Mark]]:
        widths = [self._entry_width(mark) for mark in self._marks]
        rows = greedy(widths, self.width - 2 * _MARGIN, _GAP)
        return [[self._marks[i] for i in row] for row in rows]

    def _draw(self, pixels: Pixels) -> None:
        s, line = self.swatch, self.swatch + 4
        shades = np.array(COLORS, dtype=np.uint8)
        for n, marks in enumerate(self._lines):
            top = _MARGIN + n * line
            x = _MARGIN
            for mark in marks:
                if mark is UNDONE_MARK:
                    picture = undone_swatch(s, BACKGROUND)
                elif mark is PLACED_MARK:
                    picture = placed_swatch(s, BACKGROUND)
                else:
                    picture = _scaled(np.asarray(self._tile(mark.tile))[..., :3], s)
                width = min(s, self.width - x)
                if width > 0:
                    pixels[top : top + s, x : x + width] = picture[:, :width]
                left = x + s + 6
                shade = self._text.shade(
                    self._text.fit_advance(mark.text, self.width - _MARGIN - left)
                )
                y = top + (s - shade.shape[0]) // 2
                region = pixels[y : y + shade.shape[0], left : left + shade.shape[1]]
                shade = shade[:, : region.shape[1]]
                inked = shade > 0
                region[inked] = shades[shade[inked]]
                x += self._entry_width(mark) + _GAP & ~1


def _scaled(picture: Pixels, side: int) -> Pixels:
    """``picture`` scaled by nearest neighbour to ``side`` x ``side`` (it is square): only
    its own colours."""
    h, w = picture.shape[:2]
    rows = np.arange(side) * h // side
    cols = np.arange(side) * w // side
    return np.ascontiguousarray(picture[rows][:, cols], dtype=np.uint8)


def _no_tiles(name: str) -> Pixels:
    """The tile source of a legend that is only measured: never called."""
    raise AssertionError(f"a measured legend draws no tile ({name})")
