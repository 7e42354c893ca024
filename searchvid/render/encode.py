"""Encoders: MP4 (libx264), WebM (VP9), GIF, a PNG folder and the HTML player, behind one
interface.

:func:`open_encoder` picks the encoder for an output path. Every encoder is a context manager
that writes to a temporary name beside the target and renames it on success, leaving the
target untouched on any failure (see :mod:`searchvid.render.output`, which also holds the
checks of paths and frame sizes made before any work). Each format has a module of its own
(:mod:`~searchvid.render.mp4`, :mod:`~searchvid.render.webm`, which builds on the MP4
encoder, :mod:`~searchvid.render.gif`, :mod:`~searchvid.render.png`,
:mod:`~searchvid.render.html`), whose public names are importable from here too.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Protocol

import numpy as np
import numpy.typing as npt

from searchvid.errors import UsageError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.ffmpeg import ffmpeg_exe
from searchvid.render.gif import GifEncoder
from searchvid.render.html import HtmlEncoder
from searchvid.render.mp4 import MP4_SETTINGS, Mp4Encoder
from searchvid.render.output import (
    GIF_MAX_FPS,
    GIF_MAX_SIDE,
    HTML_MAX_SIDE,
    MP4_MAX_SIDE,
    PNG_MAX_SIDE,
    OutputKind,
    check_frame_size,
    check_name_length,
    check_target,
    output_kind,
    reserve_partial,
)
from searchvid.render.png import PngFolderEncoder, write_png
from searchvid.render.settings import VideoOptions
from searchvid.render.webm import WebmEncoder

__all__ = [
    "GIF_MAX_FPS",
    "GIF_MAX_SIDE",
    "HTML_MAX_SIDE",
    "MP4_MAX_SIDE",
    "MP4_SETTINGS",
    "PNG_MAX_SIDE",
    "Encoder",
    "GifEncoder",
    "HtmlEncoder",
    "Mp4Encoder",
    "OutputKind",
    "PngFolderEncoder",
    "check_frame_size",
    "check_name_length",
    "check_target",
    "ffmpeg_exe",
    "open_encoder",
    "output_kind",
    "reserve_partial",
    "write_png",
]


class Encoder(Protocol):
    """Takes frames one by one; a context manager that commits the output on a clean exit."""

    @property
    def pixel_format(self) -> PixelFormat:
        """Layout of the frames :meth:`write` expects."""
        ...

    @property
    def encoded_frames(self) -> int:
        """Frames in the output so far, held copies of the last frame included."""
        ...

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        """Append ``frame`` (C-contiguous, in :attr:`pixel_format` layout).

        ``dirty`` bounds the pixels that changed since the previous frame (None: unknown).
        ``hold`` keeps the frame on screen for that many extra frame durations (MP4 repeats
        it, GIF lengthens its delay, a PNG folder ignores it). The encoder may keep a
        reference to the last frame until the context exits.
        """
        ...

    def __enter__(self) -> Encoder: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


def open_encoder(
    path: Path,
    *,
    width: int,
    height: int,
    video: VideoOptions,
    palette: npt.NDArray[np.uint8],
    title: str = "",
) -> Encoder:
    """The encoder for ``path``'s format (see :func:`output_kind`), not yet entered.

    ``title`` names the video where the format has room for it: the HTML player's page
    title and heading (the other formats ignore it).

    Raises:
        UsageError: An unsupported suffix, or a frame size the format cannot hold (see
            :func:`check_frame_size`).
    """
    kind = output_kind(path)
    if kind is OutputKind.VTT:  # words and times, not pixels: a scene's render writes them
        raise UsageError(f"{path}: captions (.vtt) come from a scene's render, not from frames")
    check_frame_size(kind, width, height)
    if kind is OutputKind.MP4:
        return Mp4Encoder(
            path,
            width=width,
            height=height,
            fps=video.fps,
            quality=video.quality,
            hold_last=video.hold_last,
        )
    if kind is OutputKind.WEBM:
        return WebmEncoder(
            path,
            width=width,
            height=height,
            fps=video.fps,
            quality=video.quality,
            hold_last=video.hold_last,
        )
    if kind is OutputKind.GIF:
        return GifEncoder(
            path, width=width, height=height, palette=palette, fps=video.fps, hold=video.hold_last
        )
    if kind is OutputKind.HTML:
        return HtmlEncoder(
            path,
            width=width,
            height=height,
            palette=palette,
            fps=video.fps,
            hold_last=video.hold_last,
            title=title,
        )
    return PngFolderEncoder(path)
