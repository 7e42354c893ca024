"""Text as boolean masks: whole strings set by FreeType, cached (the tree panel, legends)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

MIN_TEXT = 12
"""Smallest text size panels and legends draw, in pixels: legible in a frame shown 720 px wide."""

_CACHE = 4096


class TextInk:
    """Text as boolean masks in Pillow's default font at ``size`` pixels, without anti-aliasing.

    Whole strings are drawn at once, so kerning and advances are the font's own.

    Attributes:
        size: The font size in pixels (the em height).
        height: Height of a line's ink, from the top of the tallest letters to the bottom of
            descenders: the height of every mask.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._font = ImageFont.load_default(size=size)
        box = self._font.getbbox("Abdfghjklpqy()[]0123456789+")
        self._top = int(box[1])
        self.height = int(box[3]) - self._top
        self._cache: dict[str, npt.NDArray[np.bool_]] = {}
        self._cuts: dict[tuple[str, int], npt.NDArray[np.bool_]] = {}

    def width(self, text: str) -> int:
        """Width of ``text``'s ink box in pixels."""
        return int(self.ink(text).shape[1])

    def fit(self, text: str, width: int) -> npt.NDArray[np.bool_]:
        """``text`` as a mask at most ``width`` px wide: cut and ended with "…" if longer
        (an empty mask when not even "…" fits)."""
        mask = self.ink(text)
        if mask.shape[1] <= width:
            return mask
        key = (text, width)
        cut = self._cuts.get(key)
        if cut is None:
            cut = self.ink("")
            lo, hi = 0, len(text)  # the longest prefix that fits with its "…"
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self.ink(text[:mid].rstrip() + "…").shape[1] <= width:
                    lo = mid
                else:
                    hi = mid - 1
            if self.ink("…").shape[1] <= width:
                cut = self.ink(text[:lo].rstrip() + "…")
            if len(self._cuts) >= _CACHE:
                self._cuts.clear()
            self._cuts[key] = cut
        return cut

    def ink(self, text: str) -> npt.NDArray[np.bool_]:
        """``text`` as a ``(height, width)`` mask."""
        mask = self._cache.get(text)
        if mask is None:
            # monochrome glyphs may reach past the measured length: room, then trim
            width = math.ceil(self._font.getlength(text)) + 2 * self.height
            image = Image.new("L", (width, self.height), 0)
            draw = ImageDraw.Draw(image)
            draw.fontmode = "1"
            draw.text((0, -self._top), text, fill=255, font=self._font)
            full = np.asarray(image) > 127
            columns = np.flatnonzero(full.any(axis=0))
            mask = full[:, : int(columns[-1]) + 1] if columns.size else full[:, :0]
            if len(self._cache) >= _CACHE:
                self._cache.clear()
            self._cache[text] = mask
        return mask
