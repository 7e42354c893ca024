"""The status strip under a board: the title, the phase and named fields, and a caption.

::

    Water Sort: the optimal 39 pours (A*)
    A* searching   step 1,204   depth 12   g 12   h 7   f 19   frontier 88   tubes done 5/12
    expand: pour tube 3 into tube 7

Every number has a name and one format (:class:`~searchvid.search.status.Field`). Text is
drawn with Pillow's bundled font without anti-aliasing, so the strip uses only the
:data:`HUD_COLORS` and a GIF palette stays exact. Its height follows the frame's width
(text at least 1/50 of it, at most :data:`MAX_FONT` px), so the strip stays legible when a
blog shows the video 720 px wide; narrow columns get more lines for their fields. Glyphs
are rendered once and composed with numpy; a line is redrawn only when its text changes,
and each field has a slot with room for its number to grow, so text does not jitter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from searchvid.render.atlas import RGB
from searchvid.search.status import Field, format_number

HUD_COLORS: tuple[RGB, ...] = ((24, 24, 24), (255, 255, 255), (190, 190, 190))
"""Background, title and status colours (greys, so 4:2:0 chroma stays exact)."""

TEXT_SHARE = 50
"""Text is at least 1/TEXT_SHARE of the frame's width tall."""

_BACKGROUND, _TITLE, _STATUS = 0, 1, 2
_MIN_FONT = 8
_STATUS_LINES = 2  # at least; narrow columns get more, up to _MAX_STATUS_LINES
_MAX_STATUS_LINES = 6
_TYPICAL_FIELDS = 11  # phase, step, depth, the algorithm's and the domain's, value, best
MAX_FONT = 64
"""Text never grows beyond this many pixels, however wide the frame."""
_SLOT_SAMPLE = "000,000"  # room reserved after a field's name for its value
_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont

__all__ = ["HUD_COLORS", "MAX_FONT", "TEXT_SHARE", "Hud", "HudText", "format_number"]


@dataclass(frozen=True, slots=True)
class HudText:
    """What the strip shows for one frame.

    Attributes:
        title: First line: the scene's title.
        phase: What the search is doing, e.g. ``"A* searching"``, ``"solution"``.
        fields: The named quantities, in order (search counters, then the algorithm's and the
            domain's fields, then value and best).
        caption: The caption line (None: no caption line).
    """

    title: str
    phase: str
    fields: tuple[Field, ...]
    caption: str | None = None

    def status_texts(self) -> tuple[str, ...]:
        """The phase and each field as drawn."""
        return (self.phase, *(f.text() for f in self.fields))


class Hud:
    """Draws the status strip of a column ``width`` pixels wide.

    Args:
        width: The strip's width (the column's).
        frame_width: The whole frame's width: the text is at least 1/50 of it tall.
        tile_size: The board's tile size (small boards still get readable text).
        captions: Whether the strip has a caption line.
        title_only: A one-line strip holding just a title (the title bar over several
            searches side by side).

    Attributes:
        height: Rows of the strip (even).
        strip: ``(height, width)`` uint8 indices into :data:`HUD_COLORS`.
    """

    def __init__(
        self,
        width: int,
        frame_width: int | None = None,
        tile_size: int = 0,
        *,
        captions: bool = False,
        title_only: bool = False,
    ) -> None:
        self.width = width
        share = math.ceil((frame_width or width) / TEXT_SHARE)
        wanted = max(_MIN_FONT, min(share, MAX_FONT), tile_size // 5)
        self._font: _Font = ImageFont.load_default(size=wanted)
        ascent, descent = _metrics(self._font)
        self._line = ascent + descent
        self._pad = max(2, wanted // 3)
        self._gap = max(4, wanted)
        self.captions = captions
        typical = self._font.getlength(f"exits joined {_SLOT_SAMPLE}") + self._gap
        self._status_lines = (
            0
            if title_only
            else min(
                _MAX_STATUS_LINES,
                max(_STATUS_LINES, math.ceil(_TYPICAL_FIELDS * typical / max(1, width))),
            )
        )
        lines = 1 + self._status_lines + (1 if captions else 0)
        self.height = 2 * self._pad + lines * self._line
        self.height += self.height % 2
        self.strip: npt.NDArray[np.uint8] = np.zeros((self.height, width), dtype=np.uint8)
        self._glyphs: dict[tuple[str, int], tuple[npt.NDArray[np.uint8], int, float]] = {}
        self._advances: dict[str, float] = {}
        self._shown: tuple[str, tuple[str, ...], str | None] = ("", (), None)
        self._drawn_once = False

    def update(self, text: HudText) -> bool:
        """Redraw the lines whose text changed; True if anything changed."""
        title, status, caption = text.title, text.status_texts(), text.caption
        old_title, old_status, old_caption = self._shown
        changed = not self._drawn_once
        if title != old_title or not self._drawn_once:
            self._draw_line(0, [(title, self._pad, self.width - self._pad)], _TITLE)
            changed = True
        if self._status_lines and (status != old_status or not self._drawn_once):
            self._draw_status(status)
            changed = True
        if self.captions and (caption != old_caption or not self._drawn_once):
            line = 1 + self._status_lines
            self._draw_line(line, [(caption or "", self._pad, self.width - self._pad)], _STATUS)
            changed = True
        self._shown = (title, status, caption)
        self._drawn_once = True
        return changed

    def _draw_status(self, texts: tuple[str, ...]) -> None:
        """Lay the status texts out over the strip's status lines.

        Each field gets a slot as wide as its name plus room for a six-digit number (wider
        only if its text is), so values changing length do not shift the fields after them;
        the slots depend on the current texts alone, so a strip drawn from scratch equals one
        drawn frame after frame (previews equal renders).
        """
        usable = self.width - 2 * self._pad
        rows: list[list[tuple[str, int, int]]] = [[] for _ in range(self._status_lines)]
        row, left = 0, self._pad
        for i, text in enumerate(texts):
            slot = self._slot(text, first=i == 0)
            if left > self._pad and left + slot > self._pad + usable:
                row, left = row + 1, self._pad
            if row >= self._status_lines:
                break  # no room left: the last fields are dropped, never squeezed
            rows[row].append((text, left, min(left + slot, self.width - self._pad)))
            left += slot + self._gap
        for r, parts in enumerate(rows):
            self._draw_line(1 + r, parts, _STATUS)

    def _slot(self, text: str, *, first: bool) -> int:
        width = self._width(text)
        if first:
            return width
        name = text.rsplit(" ", 1)[0] if " " in text else ""
        return max(width, self._width(f"{name} {_SLOT_SAMPLE}".strip()))

    def _width(self, text: str) -> int:
        """Pixels ``text`` takes: the sum of its glyphs' advances (cached per character), the
        same pen the text is drawn with."""
        advances = self._advances
        total = 0.0
        for char in text:
            advance = advances.get(char)
            if advance is None:
                advance = advances[char] = float(self._font.getlength(char))
            total += advance
        return math.ceil(total)

    def _draw_line(self, index: int, parts: Sequence[tuple[str, int, int]], color: int) -> None:
        """Clear line ``index`` and draw each ``(text, left, right)`` part on it."""
        top = self._pad + index * self._line
        line = self.strip[top : top + self._line]
        line[:] = _BACKGROUND
        for text, left, right in parts:
            self._draw_text(line, text, left, right, color)

    def _draw_text(
        self, line: npt.NDArray[np.uint8], text: str, left: int, right: int, color: int
    ) -> None:
        if self._width(text) > right - left:
            text = _fit(text, lambda t: self._width(t) <= right - left)
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


def _fit(text: str, fits: object) -> str:
    """The longest prefix of ``text`` plus an ellipsis for which ``fits`` holds."""
    check = fits if callable(fits) else (lambda _: True)
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if check(text[:mid] + "…"):
            low = mid
        else:
            high = mid - 1
    return text[:low] + "…" if low < len(text) else text
