"""The interactive player: one self-contained HTML file with every frame embedded.

:class:`HtmlEncoder` follows the encoder protocol of :mod:`searchvid.render.encode`. It takes
palette-index frames (:attr:`PixelFormat.PAL8`) and stores them frame-accurately as small
PNGs in base64: a full frame (a *keyframe*) every ``keyframe_interval`` frames, and between
keyframes only the rectangles that changed since the previous frame. The page reconstructs
any frame by drawing the nearest keyframe at or before it and the changes after it, so seeking
and stepping back are exact. Each PNG carries a palette of only the colours it uses, so a
changed tile costs a few hundred bytes and 1,000 frames of a 900x962 board stay a few MB.

The page has play/pause, one frame back and forward, first and last frame, a scrubber, a
speed choice (0.25x to 4x), a loop switch, a frame counter (``frame 12 / 1000``, counting
from 1) and a panel with each frame's details (step, kind, depth, label, value, caption and
any other key given); keyboard: space plays and pauses, left and right step one frame, Home
and End go to the first and last frame, ``+`` and ``-`` change the speed. The frame fits the
window; the ``1:1`` button (``Z``, or a double-click on a point) shows it at its actual size,
panned by dragging or scrolling. On a narrow screen (a phone) the frame takes the page's
width, the details go under it and the controls grow to finger size. It needs no network
and no other file: CSS, script and frames are inline (:mod:`searchvid.render.player`).

The embedded data is the JSON text of ``<script type="application/json"
id="searchvid-data">``::

    {"format": "searchvid-player", "version": 1, "title": "...",
     "width": 900, "height": 962, "fps": 12, "keyframe_interval": 50,
     "frames": [{"key": true, "patches": [[x, y, w, h, "<base64 PNG>"], ...],
                 "hold": 3, "meta": {"step": 7, "kind": "enter", ...}}, ...],
     "hold_last": 2.0, "count": 1000}

A frame with ``"key": true`` is whole: one patch at ``(0, 0)`` of the frame's size. Any
other frame is the previous frame with its patches drawn over it in order (none: unchanged).
``hold`` (absent: 0) keeps the frame for that many extra frame durations; ``hold_last`` adds
seconds to the last frame when the player loops; ``meta`` (absent: none) is what
:meth:`HtmlEncoder.annotate` gave for the frame. Every ``<`` inside the JSON text is written
as ``\\u003c`` so that no string can end the script element.
"""

from __future__ import annotations

import base64
import contextlib
import html
import io
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.errors import RunError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.output import (
    AtomicOutput,
    OutputKind,
    check_frame_size,
    reserve_partial,
    writing,
)
from searchvid.render.player import PAGE, SCRIPT

__all__ = ["DATA_ELEMENT_ID", "KEYFRAME_INTERVAL", "Annotates", "HtmlEncoder"]

KEYFRAME_INTERVAL = 50
"""Frames from one keyframe to the next: the page draws at most this many to show any frame."""

DATA_ELEMENT_ID = "searchvid-data"
"""The ``id`` of the script element that holds the frames as JSON."""

_BAND_GAP = 16
"""Unchanged pixel rows that split a changed area into two patches (a tile and the strip)."""

_LOCAL_PALETTE_AREA = 1 << 16
"""Patches up to this many pixels get a palette of only their own colours (fewer bits a
pixel, a short palette chunk); larger ones the frame palette up to their highest index, which
saves counting colours where it would not pay."""

# zlib level of the patches. Measured on a 1400x662 Water Sort keyframe: 3 makes 17 kB in
# 6 ms, 6 makes 10 kB in 15 ms, 9 makes 7 kB in 30 ms.
_PNG_LEVEL = 6


@runtime_checkable
class Annotates(Protocol):
    """An encoder that keeps details of each frame (the HTML player shows them)."""

    def annotate(self, meta: Mapping[str, Any]) -> None:
        """Details of the next frame :meth:`write` receives."""
        ...


class HtmlEncoder(AtomicOutput):
    """An interactive player page holding every frame: see the module's description.

    Frames are palette indices (:attr:`PixelFormat.PAL8`) into ``palette``, so colours are
    exact. The page is written as frames arrive (only the previous frame is held in memory)
    under a temporary name beside the target, renamed when the context exits cleanly.

    Call :meth:`annotate` before :meth:`write` to give a frame its details: the pipeline
    passes ``step``, ``kind``, ``depth``, ``label``, ``value`` and, where there is one,
    ``caption``; any other JSON-friendly key is shown too.

    Args:
        path: Target file (``.html``).
        width: Frame width in pixels.
        height: Frame height in pixels.
        palette: ``(n, 3)`` uint8, 1 to 256 colours.
        fps: Frames per second at speed 1x.
        hold_last: Extra seconds on the last frame before the player starts over (when it
            loops).
        title: The page's title and heading (the scene's title).
        keyframe_interval: At most this many frames from one keyframe to the next; a frame
            whose changes cover half of it or more is stored whole as a keyframe anyway.

    Raises:
        UsageError: A frame larger than a browser's canvas holds (:func:`check_frame_size`).
        ValueError: A bad palette or keyframe interval.
    """

    def __init__(
        self,
        path: Path,
        *,
        width: int,
        height: int,
        palette: npt.NDArray[np.uint8],
        fps: int,
        hold_last: float = 0.0,
        title: str = "",
        keyframe_interval: int = KEYFRAME_INTERVAL,
    ) -> None:
        if not 1 <= len(palette) <= 256:
            raise ValueError(f"a palette has 1 to 256 colours, got {len(palette)}")
        if keyframe_interval < 1:
            raise ValueError(f"keyframe_interval must be >= 1, got {keyframe_interval}")
        check_frame_size(OutputKind.HTML, width, height)
        super().__init__(path)
        self._size = (width, height)
        self._palette = np.asarray(palette, dtype=np.uint8).reshape(-1, 3)
        self._fps = fps
        self._hold_last = float(hold_last)
        self._title = title
        self._interval = keyframe_interval
        self._file: IO[str] | None = None
        self._previous: Pixels | None = None
        self._since_key = 0
        self._meta: dict[str, Any] | None = None

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.PAL8

    def annotate(self, meta: Mapping[str, Any]) -> None:
        """Keep ``meta`` as the details of the next frame written (the last call wins).

        Values that JSON cannot hold are shown as text (``inf``, ``nan``, other objects).
        """
        self._meta = {str(key): _json_value(value) for key, value in meta.items()}

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)
        self._file = open(self._tmp, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed by _finish or _abort
        with writing(self.path):
            self._file.write(self._head())

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        """Append ``frame`` (``(height, width)`` palette indices); see the encoder protocol."""
        width, height = self._size
        if frame.shape != (height, width):
            raise ValueError(f"frame of shape {frame.shape}, expected {(height, width)}")
        assert self._file is not None, "write() outside the with block"
        meta, self._meta = self._meta, None
        previous = self._previous
        whole = Rect(0, 0, height, width)
        key = previous is None or self._since_key + 1 >= self._interval
        rects = [whole] if previous is None or key else _changed(previous, frame, dirty)
        if not key and 2 * sum(_area(r) for r in rects) >= width * height:
            key, rects = True, [whole]
        record: dict[str, Any] = {"key": key, "patches": [self._patch(frame, r) for r in rects]}
        if hold:
            record["hold"] = hold
        if meta:
            record["meta"] = meta
        with writing(self.path):
            self._file.write(("," if self._count else "") + "\n" + _json(record))
        if previous is None:
            self._previous = frame.copy()
        else:
            for top, left, bottom, right in rects:
                previous[top:bottom, left:right] = frame[top:bottom, left:right]
        self._since_key = 0 if key else self._since_key + 1
        self._count += 1

    def _patch(self, frame: Pixels, rect: Rect) -> list[int | str]:
        """``[x, y, w, h, base64 PNG]`` of ``rect``, with a palette of the colours it uses."""
        part = np.ascontiguousarray(frame[rect.top : rect.bottom, rect.left : rect.right])
        if part.size <= _LOCAL_PALETTE_AREA:
            used = np.flatnonzero(np.bincount(part.ravel(), minlength=len(self._palette)))
            lookup = np.zeros(256, dtype=np.uint8)
            lookup[used] = np.arange(len(used), dtype=np.uint8)
            part = lookup[part]
        else:
            used = np.arange(int(part.max()) + 1)
        if used[-1] >= len(self._palette):
            raise ValueError(
                f"palette index {used[-1]} in a frame of a {len(self._palette)}-colour palette"
            )
        image = Image.fromarray(part)
        image.putpalette(self._palette[used].tobytes())
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=_PNG_LEVEL)
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        return [rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top, data]

    def _head(self) -> str:
        """The page up to the start of the frame list."""
        width, height = self._size
        title = html.escape(self._title or "searchvid")
        header = {
            "format": "searchvid-player",
            "version": 1,
            "title": self._title,
            "width": width,
            "height": height,
            "fps": self._fps,
            "keyframe_interval": self._interval,
        }
        page = PAGE.format(title=title, width=width, height=height, data_id=DATA_ELEMENT_ID)
        return page + _json(header)[:-1] + ',"frames":['

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        assert self._file is not None
        tail = {"hold_last": self._hold_last, "count": self._count}
        with writing(self.path):
            self._file.write("\n]," + _json(tail)[1:] + "</script>\n")
            self._file.write(f"<script>\n{SCRIPT}</script>\n</body>\n</html>\n")
            self._file.close()
        self._file = None
        self._commit()

    def _abort(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):  # a full disk fails the flush; closed anyway
                self._file.close()
            self._file = None
        self._remove_tmp()


def _area(rect: Rect) -> int:
    return (rect.bottom - rect.top) * (rect.right - rect.left)


def _changed(previous: Pixels, frame: Pixels, dirty: Rect | None) -> list[Rect]:
    """The rectangles, top to bottom, that hold every pixel of ``frame`` that differs from
    ``previous`` inside ``dirty`` (None: the whole frame).

    Changed rows more than :data:`_BAND_GAP` rows apart go to separate rectangles, so a tile
    and the status strip far below it are two small patches rather than one tall one.
    """
    height, width = frame.shape[:2]
    top, left, bottom, right = dirty if dirty is not None else (0, 0, height, width)
    top, left = max(top, 0), max(left, 0)
    bottom, right = min(bottom, height), min(right, width)
    if bottom <= top or right <= left:
        return []
    diff = previous[top:bottom, left:right] != frame[top:bottom, left:right]
    rows = np.flatnonzero(diff.any(axis=1))
    if rows.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(rows) > _BAND_GAP)
    starts = [int(rows[0]), *(int(rows[b + 1]) for b in breaks)]
    ends = [*(int(rows[b]) + 1 for b in breaks), int(rows[-1]) + 1]
    rects = []
    for start, end in zip(starts, ends, strict=True):
        cols = np.flatnonzero(diff[start:end].any(axis=0))
        rects.append(Rect(top + start, left + int(cols[0]), top + end, left + int(cols[-1]) + 1))
    return rects


def _json_value(value: Any) -> Any:
    """``value`` as JSON can hold it: numbers, text, true/false/null, lists and tables;
    non-finite floats and other objects become text."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, np.generic):
        return _json_value(value.item())
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return str(value)


def _json(value: Any) -> str:
    """Compact JSON that is safe inside a script element (``<`` escaped)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c")
