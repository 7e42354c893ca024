"""The HUD: a status strip under the board (title; step, depth, value, best).

Text is drawn with Pillow's bundled default font without anti-aliasing, so the strip uses only
the three :data:`HUD_COLORS` and the GIF palette stays exact. Glyphs are rendered once and
composed with numpy; a field is redrawn only when its text changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from searchvid.render.atlas import RGB

HUD_COLORS: tuple[RGB, ...] = ((24, 24, 24), (255, 255, 255), (190, 190, 190))
"""Background, title and status colours (greys, so 4:2:0 chroma stays exact)."""

_BACKGROUND, _TITLE, _STATUS = 0, 1, 2
_MIN_FONT = 6
_SAMPLES = ("step 0000000", "depth 0000", "value -0.0000", "best -0.0000")  # widest fields
_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont


@dataclass(frozen=True, slots=True)
class HudText:
    """What the HUD shows for one frame.

    Attributes:
        title: First line, e.g. ``"random-walk · railroad"``.
        step: The event's step.
        depth: The event's depth (None: unknown, shown as ``-``).
        value: The value or score of the frame's node (None: none known).
        best: The value of the best node found so far (None: none yet).
        value_label: Name shown before ``value`` ("value" or "score"); "" hides value and
            best (a search that ranks nothing).
    """

    title: str
    step: int
    depth: int | None
    value: float | None
    best: float | None
    value_label: str = "value"

    def fields(self) -> tuple[str, str, str, str]:
        """The four status fields as drawn."""
        depth = "-" if self.depth is None else str(self.depth)
        if not self.value_label:
            return (f"step {self.step}", f"depth {depth}", "", "")
        return (
            f"step {self.step}",
            f"depth {depth}",
            f"{self.value_label} {format_number(self.value)}",
            f"best {format_number(self.best)}",
        )


def format_number(value: float | None) -> str:
    """A short, stable rendering of a value: integers plainly, others with 4 significant digits."""
    if value is None:
        return "-"
    if math.isfinite(value) and value == int(value) and abs(value) < 1e7:
        return str(int(value))
    return f"{value:.4g}"


class Hud:
    """Draws the status strip for a board ``width`` pixels wide at tile size ``tile_size``.

    The strip is ``(height, width)`` uint8 indices into :data:`HUD_COLORS`; :attr:`height` is
    even and scales with the tile size. The font shrinks until the status fields fit.
    """

    def __init__(self, width: int, tile_size: int) -> None:
        self.width = width
        size = max(_MIN_FONT, round(tile_size * 0.2))
        while True:
            font = ImageFont.load_default(size=size)
            self._font: _Font = font
            ascent, descent = _metrics(font)
            self._line = ascent + descent
            self._pad = max(2, size // 3)
            widths = [math.ceil(self._font.getlength(sample)) for sample in _SAMPLES]
            if max(widths) <= width - 2 * self._pad or size <= _MIN_FONT:
                break
            size -= 1
        self._slots = self._layout(widths, gap=2 * size)
        lines = 1 + (self._slots[-1][0] - self._pad) // self._line
        self.height = 2 * self._pad + lines * self._line
        self.height += self.height % 2
        self.strip: npt.NDArray[np.uint8] = np.zeros((self.height, width), dtype=np.uint8)
        self._glyphs: dict[tuple[str, int], tuple[npt.NDArray[np.uint8], int, float]] = {}
        self._shown: tuple[str, ...] = ("",) * 5

    def update(self, text: HudText) -> bool:
        """Redraw the parts of :attr:`strip` whose text changed; True if anything changed."""
        wanted = (_fit(text.title, 64), *text.fields())
        if wanted == self._shown:
            return False
        if wanted[0] != self._shown[0]:
            self._draw(wanted[0], self._pad, self._pad, self.width - self._pad, _TITLE)
        for i, (top, left, right) in enumerate(self._slots):
            if wanted[i + 1] != self._shown[i + 1]:
                self._draw(wanted[i + 1], top, left, right, _STATUS)
        self._shown = wanted
        return True

    def _layout(self, widths: list[int], gap: int) -> tuple[tuple[int, int, int], ...]:
        """Fixed ``(top, left, right)`` slots for the status fields, wrapping onto new lines.

        Fixed slots keep the text from jittering as numbers change length.
        """
        slots = []
        top, left = self._pad + self._line, self._pad
        for width in widths:
            if left > self._pad and left + width > self.width - self._pad:
                top, left = top + self._line, self._pad
            slots.append((top, left, min(left + width, self.width - self._pad)))
            left += width + gap
        return tuple(slots)

    def _draw(self, text: str, top: int, left: int, right: int, color: int) -> None:
        """Clear ``[left, right)`` of the line at ``top`` and draw ``text`` there."""
        line = self.strip[top : top + self._line]
        line[:, left:right] = _BACKGROUND
        pen = float(left)
        for char in text:
            ink, offset, advance = self._glyph(char, color)
            x = round(pen) + offset
            lo, hi = max(x, left), min(x + ink.shape[1], right)
            if lo < hi:
                region = line[:, lo:hi]
                np.maximum(region, ink[:, lo - x : hi - x], out=region)
            pen += advance
            if pen >= right:
                break

    def _glyph(self, char: str, color: int) -> tuple[npt.NDArray[np.uint8], int, float]:
        """``char`` drawn in ``color``, trimmed to its ink: (pixels, x offset, advance)."""
        cached = self._glyphs.get((char, color))
        if cached is None:
            advance = float(self._font.getlength(char))
            margin = self._line // 2  # room for glyphs that reach past their advance
            image = Image.new("L", (math.ceil(advance) + 2 * margin, self._line), 0)
            draw = ImageDraw.Draw(image)
            draw.fontmode = "1"  # no anti-aliasing: only palette colours
            draw.text((margin, 0), char, fill=255, font=self._font)
            mask = np.asarray(image) > 127
            columns = np.flatnonzero(mask.any(axis=0))
            first, last = (int(columns[0]), int(columns[-1]) + 1) if columns.size else (0, 0)
            ink = (mask[:, first:last] * np.uint8(color)).astype(np.uint8)
            cached = (ink, first - margin, advance)
            self._glyphs[(char, color)] = cached
        return cached


def _metrics(font: _Font) -> tuple[int, int]:
    if isinstance(font, ImageFont.FreeTypeFont):
        ascent, descent = font.getmetrics()
        return ascent, descent
    box = font.getbbox("Ag")
    return int(box[3]), 0


def _fit(title: str, limit: int) -> str:
    return title if len(title) <= limit else title[: limit - 1] + "…"
