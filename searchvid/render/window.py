"""The alpha-beta window gauge: what minimax is searching for, under a board without a tree.

A minimax search with alpha-beta reports, in its status fields, the window of the latest
event's node on player 0's scale of values (``alpha`` and ``beta``: 0 player 0 loses, 0.5 a
draw, 1 player 0 wins). On a board alone that window is two words in the strip; the gauge
(``[video] window_gauge``) draws it as a scale from the lowest value to the highest, named
in the domain's words where it has some (``O wins``, ``draw``, ``X wins``: the narrator's
``describe_value``), with:

- the window ``[alpha, beta]`` as a sky-blue band on the scale;
- the frame's node's value, when known, as a yellow notch across the scale (not on a
  ``PRUNE``, whose value counts the moves cut);
- "cut-off" in vermilion when the window is empty (``alpha >= beta``: a vermilion line at
  each bound) or the frame's event is a ``PRUNE``: the moves left at that node cannot
  change the result.

Its first line is its legend: a swatch and a name for the band and the notch. Frames whose
search reports no window (the moves played after the search, or minimax without alpha-beta)
say so in place of the band. Everything here is domain-free: it reads status fields, the
event and the narrator's words for the scale's ends and middle, and it draws the same
pixels for the same frame whoever draws it (it keeps no history but what it last drew).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Pixels, Rect
from searchvid.render.hud import HUD_COLORS
from searchvid.render.palette import SKY_BLUE, VERMILLION, YELLOW
from searchvid.render.textink import TextInk, ramp
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field, format_number

BACKGROUND: RGB = HUD_COLORS[0]
"""The gauge's ground: the frame's."""

TEXT: RGB = HUD_COLORS[2]
"""Its words: the strip's."""

SCALE: RGB = (88, 88, 88)
"""The scale outside the window: a grey darker than the text, lighter than the ground."""

WINDOW: RGB = SKY_BLUE
"""The window ``[alpha, beta]`` on the scale."""

VALUE: RGB = YELLOW
"""The notch of the frame's node's value."""

CUT: RGB = VERMILLION
"""The words "cut-off" (and an empty window's line)."""

MARGIN = 8
"""Pixels between the gauge's edges and what it draws."""

WINDOW_WORDS = "alpha-beta window"
VALUE_WORDS = "node's value"
CUT_WORDS = "cut-off"
NO_WINDOW = "no alpha-beta window on this frame"

_VALUES = (0.0, 0.5, 1.0)  # the scale's low end, middle and high end (player 0's)


class Narrator(Protocol):
    """The domain's words for a proved value (``"X wins"``; None: no words for it)."""

    def describe_value(self, value: float) -> str | None:
        """``value`` in words, or None."""


WINDOWED = "only for minimax with alpha_beta (the search that reports an alpha-beta window)"
"""Why ``[video] window_gauge`` is refused for a search that reports no window."""


def reports_window(algorithm: str, options: Mapping[str, Any]) -> bool:
    """Whether a search of ``algorithm`` with the ``[search]`` table ``options`` reports an
    alpha-beta window (minimax, with ``alpha_beta`` on, its default)."""
    return algorithm == "minimax" and bool(options.get("alpha_beta", True))


def scale_words(narrator: Narrator | None) -> tuple[str, str, str]:
    """The words under the scale's low end, middle and high end: the domain's words for the
    values 0, 0.5 and 1 where it has some (``("O wins", "draw", "X wins")``), else the
    numbers."""
    words: list[str] = []
    for value in _VALUES:
        said = narrator.describe_value(value) if narrator is not None else None
        words.append(said if said else format_number(value))
    return words[0], words[1], words[2]


def window_of(fields: Sequence[Field]) -> tuple[float, float] | None:
    """``(alpha, beta)`` from a search's status ``fields``, when it reports both as
    numbers; None otherwise."""
    found = {f.name: f.value for f in fields if f.name in ("alpha", "beta")}
    alpha, beta = found.get("alpha"), found.get("beta")
    if isinstance(alpha, (int, float)) and isinstance(beta, (int, float)):
        return float(alpha), float(beta)
    return None


def _on_scale(value: float) -> float:
    """``value`` clamped to the scale (a bound may lie past an end: minus infinity...)."""
    return min(1.0, max(0.0, value))


class WindowGauge:
    """The gauge under one board: ``width`` px wide, text of ``font_size`` px.

    Args:
        width: Its width in pixels (the board's; even).
        font_size: Its text size in pixels (the board legend's).
        words: The words under the scale's low end, middle and high end
            (:func:`scale_words`).

    Attributes:
        pixels: Its picture, ``(height, width, 3)``.
        height: Its rows (even).
        text_height: Ink height of its text.
    """

    def __init__(self, width: int, font_size: int, words: tuple[str, str, str]) -> None:
        self.width = width
        self.words = words
        self._text = TextInk(font_size)
        line = self._text.line
        self.text_height = self._text.height
        self._swatch = max(12, line // 2 * 2 - 4)
        self._key_top = MARGIN
        self._bar = max(12, line // 2 * 2)
        self._notch = max(2, self._bar // 6) // 2 * 2  # the notch's reach past the bar
        self._bar_top = self._key_top + line + 6 + self._notch
        self._words_top = self._bar_top + self._bar + self._notch + 4
        height = self._words_top + line + MARGIN
        self.height = height + height % 2
        self._left, self._right = MARGIN, width - MARGIN  # the scale's ends, in pixels
        self._ramps = {ink: ramp(ink, BACKGROUND) for ink in (TEXT, CUT)}
        self._inks = {ink: np.array(r, dtype=np.uint8) for ink, r in self._ramps.items()}
        self.pixels: Pixels = np.empty((self.height, width, 3), dtype=np.uint8)
        self._drawn: tuple[object, ...] | None = None

    @classmethod
    def measure(cls, width: int, font_size: int) -> int:
        """The height of a gauge, nothing drawn."""
        return cls(width, font_size, ("0", "0.5", "1")).height

    @property
    def colors(self) -> tuple[RGB, ...]:
        """Every colour it paints."""
        return (BACKGROUND, SCALE, WINDOW, VALUE, *self._ramps[TEXT], *self._ramps[CUT])

    def x_of(self, value: float) -> int:
        """The pixel column of ``value`` (clamped to the scale) on the scale (even)."""
        span = self._right - self._left
        return self._left + round(_on_scale(value) * span) // 2 * 2

    def draw(self, fields: Sequence[Field], event: Event) -> list[Rect]:
        """Show the window the status ``fields`` report for the frame of ``event``, its
        value and whether the search cuts off there; the rectangles that changed."""
        window = window_of(fields)
        prune = event.kind is EventKind.PRUNE  # its value counts moves cut, not a value
        value = event.value if window is not None and not prune else None
        cut = window is not None and (window[0] >= window[1] or prune)
        look = (window, value, cut)
        if look == self._drawn:
            return []
        self._drawn = look
        self._paint(window, value, cut)
        return [Rect(0, 0, self.height, self.width)]

    # -- painting ----------------------------------------------------------------------

    def _paint(self, window: tuple[float, float] | None, value: float | None, cut: bool) -> None:
        pixels = self.pixels
        pixels[:] = BACKGROUND
        top = self._key_top
        if window is None:
            self._write(NO_WINDOW, top, MARGIN, self.width - 2 * MARGIN, TEXT)
        else:
            x = MARGIN
            for color, words in ((WINDOW, WINDOW_WORDS), (VALUE, VALUE_WORDS)):
                s = self._swatch
                down = top + max(0, (self._text.line - s) // 2)
                pixels[down : down + s, x : x + s] = color
                x += s + 6
                x += self._write(words, top, x, self.width - MARGIN - x, TEXT) + 16
            if cut:  # at the right end, where the eye reading the key ends
                width = self._text.advance(CUT_WORDS)
                left = max(x, self.width - MARGIN - width)
                self._write(CUT_WORDS, top, left, self.width - MARGIN - left, CUT)
        bar, bottom = self._bar_top, self._bar_top + self._bar
        pixels[bar:bottom, self._left : self._right] = SCALE
        if window is not None:
            low, high = self.x_of(window[0]), self.x_of(window[1])
            if high > low:
                pixels[bar:bottom, low:high] = WINDOW
            else:  # an empty window: a line at each bound, where they met or crossed
                for x in (low, high):
                    x = min(max(x - 2, self._left), self._right - 4)
                    pixels[bar:bottom, x : x + 4] = CUT
        for v in _VALUES:  # ticks under the words' places
            x = min(self.x_of(v), self._right - 2)
            pixels[bottom : bottom + self._notch, x : x + 2] = SCALE
        if value is not None:
            x = min(max(self.x_of(value) - 3, self._left), self._right - 6)
            pixels[bar - self._notch : bottom + self._notch, x : x + 6] = VALUE
        low_word, middle, high_word = self.words
        top = self._words_top
        room = (self._right - self._left) // 3
        self._write(low_word, top, self._left, room, TEXT)
        mid = self._text.advance(middle)
        self._write(middle, top, max(self._left + room, self.x_of(0.5) - mid // 2), room, TEXT)
        high = min(self._text.advance(high_word), room)
        self._write(high_word, top, self._right - high, room, TEXT)

    def _write(self, text: str, top: int, left: int, width: int, ink: RGB) -> int:
        """Write ``text`` (cut with "…" to ``width`` px) from ``(top, left)``; its advance."""
        text = self._text.fit_advance(text, width)
        if not text or width <= 0:
            return 0
        shade = self._text.shade(text)
        region = self.pixels[top : top + shade.shape[0], left : left + shade.shape[1]]
        shade = shade[: region.shape[0], : region.shape[1]]
        inked = shade > 0
        region[inked] = self._inks[ink][shade[inked]]
        return int(shade.shape[1])
