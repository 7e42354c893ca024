"""The GIF encoder: one image per frame, of what changed, with exact palette colours."""

from __future__ import annotations

import contextlib
import os
import struct
from pathlib import Path
from typing import IO

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.output import (
    GIF_MAX_FPS,
    AtomicOutput,
    OutputKind,
    check_frame_size,
    reserve_partial,
    writing,
)


class GifEncoder(AtomicOutput):
    """An animated GIF written frame by frame: one image per frame, of what changed.

    Frames are palette indices (:attr:`PixelFormat.PAL8`) into ``palette``, so colours are
    exact: a browser shows every frame pixel for pixel as written (the PNG folder's frame,
    status strip included). Besides the current frame the encoder holds one copy of the
    previous frame. Each frame after the first is one image cropped to the box of the pixels
    that differ from the previous frame (looked for within ``dirty``); the pixels in that box
    that did not change are written as a transparent index over the previous frame, which
    stays on screen (disposal 1); but a run of at most :attr:`OPAQUE_GAP` of them between two
    changed pixels of a row is written as its colours, which are on screen already: the
    changed stretch goes on unbroken, and LZW spends fewer codes on it (see
    :func:`short_gaps`). The transparent index is the slot after the palette's colours;
    with a full 256-colour palette it is chosen frame by frame among the indices the frame's
    changed pixels do not use (a frame whose changes use all 256 is written as it is, box
    cropped). The LZW minimum code size is the colour table's width, not 8 bits: with 9
    to 15 colours (and the transparent slot) an index has 4 bits and the codes start at 5.

    Every frame is one image, never split into a board image and a strip image: browsers show
    each image for its own delay, at least 2 centiseconds, so a split frame would show a board
    under the previous frame's strip. The price is that the box spans both changes: the
    transparent band between a changed tile and the strip costs about ``sqrt(2 * area)`` LZW
    codes, the least any LZW stream can spend on that many pixels.

    Delays are whole centiseconds, rounded from the running time so that they do not drift
    (12 fps: 8, 9, 8, 8, 9, 8, ...); browsers play a delay of 0 or 1 as 10, so more than
    :data:`GIF_MAX_FPS` frames a second are refused. The GIF loops forever; the last frame's
    delay is lengthened by ``hold`` seconds.

    Args:
        path: Target file.
        width: Frame width.
        height: Frame height.
        palette: ``(n, 3)`` uint8, at most 256 colours.
        fps: Frames per second, 1 to :data:`GIF_MAX_FPS`.
        hold: Extra seconds the last frame stays on screen.

    Raises:
        UsageError: A frame wider or taller than a GIF holds (:func:`check_frame_size`), or
            more frames a second than browsers play (:data:`GIF_MAX_FPS`).
    """

    OPAQUE_GAP = 16
    """The longest run of unchanged pixels between two changed pixels of one row that is
    written as its colour rather than as the transparent index (0: none is; the writer
    before issue 22, which the GIF benchmark measures side by side)."""

    def __init__(
        self,
        path: Path,
        *,
        width: int,
        height: int,
        palette: npt.NDArray[np.uint8],
        fps: int,
        hold: float = 0.0,
    ) -> None:
        if not 1 <= len(palette) <= 256:
            raise ValueError(f"a GIF palette has 1 to 256 colours, got {len(palette)}")
        check_frame_size(OutputKind.GIF, width, height)
        if fps > GIF_MAX_FPS:
            raise UsageError(
                f"a GIF plays at most {GIF_MAX_FPS} frames a second in a browser (a delay under "
                f"2 centiseconds is played as 10); this one asks for {fps}: choose --fps "
                f"{GIF_MAX_FPS} or less, or an MP4"
            )
        if fps < 1:
            raise ValueError(f"fps must be at least 1, got {fps}")
        super().__init__(path)
        self._size = (width, height)
        self._palette = np.asarray(palette, dtype=np.uint8)
        # The transparent index: the first slot after the colours, when there is one.
        self._spare: int | None = len(palette) if len(palette) < 256 else None
        # Bits of an index: the colour table's size and the LZW codes' starting width.
        slots = len(palette) + (self._spare is not None)
        self._bits = max(2, (slots - 1).bit_length())
        self._previous: Pixels | None = None  # the frame on screen, C-contiguous
        self._fps = fps
        self._hold = round(hold * 100)
        self._file: IO[bytes] | None = None
        self._delay_at = 0
        self._delay = 0
        self._ticks = 0  # frame durations written so far, holds included

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.PAL8

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)
        self._file = open(self._tmp, "wb")  # noqa: SIM115 - closed by _finish or _abort
        with writing(self.path):
            self._file.write(self._header())

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        width, height = self._size
        if frame.shape != (height, width):
            raise ValueError(f"frame of shape {frame.shape}, expected {(height, width)}")
        assert self._file is not None, "write() outside the with block"
        if self._previous is None:
            self._previous = np.array(frame, dtype=np.uint8, order="C")
            box, part, transparent = Rect(0, 0, height, width), self._previous, None
        else:
            box, part, transparent = self._changes(frame, self._previous, dirty)
        # Delays are whole centiseconds; rounding the running time keeps the total exact.
        ticks = self._ticks
        self._ticks += 1 + hold
        self._delay = round(100 * self._ticks / self._fps) - round(100 * ticks / self._fps)
        # Graphic control: disposal 1 (keep the frame under the next one), the transparency
        # flag and index; the delay is patched on close.
        flags = 0x04 if transparent is None else 0x05
        control = bytes([0x21, 0xF9, 4, flags]) + self._delay.to_bytes(2, "little")
        control += bytes([transparent or 0, 0])
        block = control + self._image(part, box)
        with writing(self.path):
            self._delay_at = self._file.tell() + 4
            self._file.write(block)
        self._count += 1

    def _image(self, part: Pixels, box: Rect) -> bytes:
        """The image block of ``part`` at ``box``: descriptor, code size, LZW sub-blocks."""
        rows, cols = part.shape
        image = Image.frombuffer("L", (cols, rows), part, "raw", "L", 0, 1)
        # No local colour table, not interlaced; Pillow's encoder writes the sub-blocks.
        descriptor = b"," + struct.pack("<4HB", box.left, box.top, cols, rows, 0)
        data = image.tobytes("gif", "L", self._bits, 0)
        return descriptor + bytes([self._bits]) + data + b"\0"

    def _changes(
        self, frame: Pixels, previous: Pixels, dirty: Rect | None
    ) -> tuple[Rect, Pixels, int | None]:
        """What to write of ``frame`` over ``previous`` (the frame on screen), which is then
        brought up to date: the box of the pixels that differ, those pixels and the short
        gaps between them (:attr:`OPAQUE_GAP`) as they are and the others as the transparent
        index (returned; None: no index is free).

        Only ``dirty`` (None: the whole frame) is compared; a frame equal to the previous one
        is still a frame, of one pixel (as in the PNG folder).
        """
        height, width = previous.shape
        rect = Rect(0, 0, height, width) if dirty is None else dirty
        top, left = max(rect.top, 0), max(rect.left, 0)
        new = frame[top : min(rect.bottom, height), left : min(rect.right, width)]
        old = previous[top : top + new.shape[0], left : left + new.shape[1]]
        changed = new != old
        rows = np.flatnonzero(changed.any(axis=1))
        if rows.size == 0:
            return Rect(0, 0, 1, 1), np.ascontiguousarray(previous[:1, :1]), None
        first, last = int(rows[0]), int(rows[-1]) + 1
        cols = np.flatnonzero(changed[first:last].any(axis=0))
        box = (slice(first, last), slice(int(cols[0]), int(cols[-1]) + 1))
        part, changed = new[box], changed[box]
        transparent = self._transparent_index(part, changed)
        if transparent is not None and self.OPAQUE_GAP > 0:
            # With a full palette a gap's pixel may hold the transparent index: it then shows
            # the pixel under it, which has that same colour.
            changed[short_gaps(changed, self.OPAQUE_GAP, rows - first)] = True
        out = np.empty(part.shape, dtype=np.uint8)
        if transparent is None:
            out[...] = part
        else:  # t ^ ((p ^ t) * changed): p where changed, else t (faster than np.where)
            key = np.uint8(transparent)
            np.bitwise_xor(part, key, out=out)
            np.multiply(out, changed.view(np.uint8), out=out)
            np.bitwise_xor(out, key, out=out)
        old[box] = part  # outside the box nothing changed
        box_rect = Rect(top + first, left + box[1].start, top + last, left + box[1].stop)
        return box_rect, out, transparent

    def _transparent_index(self, part: Pixels, changed: npt.NDArray[np.bool_]) -> int | None:
        """The palette's spare slot, or else an index no changed pixel of ``part`` uses."""
        if self._spare is not None:
            return self._spare
        unused = np.flatnonzero(np.bincount(part[changed], minlength=256) == 0)
        return int(unused[0]) if unused.size else None

    def _header(self) -> bytes:
        width, height = self._size
        bits = self._bits  # colours + transparent index
        table = np.zeros((1 << bits, 3), dtype=np.uint8)
        table[: len(self._palette)] = self._palette
        screen = width.to_bytes(2, "little") + height.to_bytes(2, "little")
        flags = 0x80 | 0x70 | (bits - 1)  # global table, 8-bit colour resolution, table size
        loop = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop forever
        return b"GIF89a" + screen + bytes([flags, 0, 0]) + table.tobytes() + loop

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        assert self._file is not None
        with writing(self.path):
            self._file.seek(self._delay_at)
            self._file.write(min(self._delay + self._hold, 0xFFFF).to_bytes(2, "little"))
            self._file.seek(0, os.SEEK_END)
            self._file.write(b";")
            self._file.close()
        self._file = None
        self._commit()

    def _abort(self) -> None:
        if self._file is not None:
            # Closing flushes: on a full disk that fails again, but the file is closed anyway.
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
        self._remove_tmp()


def short_gaps(
    changed: npt.NDArray[np.bool_], most: int, busy: npt.NDArray[np.intp] | None = None
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Where the unchanged pixels are that lie in a run of at most ``most`` of them between two
    changed pixels of the same row.

    Args:
        changed: ``(rows, cols)`` mask of the pixels that differ from the frame on screen.
        most: The longest such run that counts (1 or more).
        busy: The indices of the rows where ``changed`` has a pixel set, in order, if known.

    Returns:
        Their row and column indices, for ``changed[rows, cols] = True``; a run that touches
        the row's edge never counts.
    """
    if busy is None:  # most rows of a box change nothing: only the others are looked at
        busy = np.flatnonzero(changed.any(axis=1))
    width = changed.shape[1]
    rows = changed[busy]
    at = np.flatnonzero(rows)  # row-major: a row's changed pixels come in order
    if at.size == rows.size:  # every pixel changed (a whole tile, say): no gap
        return busy[:0], busy[:0]
    gap = np.diff(at) - 1
    keep = (gap > 0) & (gap <= most)
    # Two changed pixels less than a row apart are in one row when the second's column is
    # the greater (one remainder, not two divisions: this runs once a frame).
    column = at % width
    keep &= column[1:] > column[:-1]
    if most >= width - 1:  # a gap this long could also reach the same column a row down
        keep &= at[1:] - at[:-1] < width
    starts, lengths = at[:-1][keep] + 1, gap[keep]
    # Every index of every kept run: each run's start plus 0, 1, ... its length - 1.
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    flat = np.repeat(starts, lengths) + offsets
    return busy[flat // width], flat % width
