"""WebM (VP9) output: the MP4 encoder's pipe, temporary file and cleanup, with libvpx-vp9.

A ``.webm`` is written only where the ffmpeg in use (imageio-ffmpeg's bundled one, or
``$IMAGEIO_FFMPEG_EXE``) lists the ``libvpx-vp9`` encoder; elsewhere :func:`check_webm`
refuses it before any work, naming what is missing.

The bytes depend only on the frames, the fps and the quality, never on the machine: libvpx's
threads are pinned (:data:`WEBM_THREADS`), and ffmpeg's WebM muxer writes in its bit-exact
mode (without it, every file gets fresh random track and segment ids).
"""

from __future__ import annotations

from pathlib import Path

from searchvid.render.canvas import PixelFormat
from searchvid.render.ffmpeg import WEBM_ENCODER, check_webm
from searchvid.render.mp4 import Mp4Encoder
from searchvid.render.output import OutputKind
from searchvid.render.settings import Quality

__all__ = ["WEBM_ENCODER", "WEBM_SETTINGS", "WEBM_THREADS", "WebmEncoder", "check_webm"]

WEBM_SETTINGS: dict[Quality, tuple[str, int, int]] = {
    "draft": ("realtime", 8, 36),
    "default": ("good", 5, 30),
    "final": ("good", 2, 24),
}
"""libvpx-vp9 ``(deadline, cpu-used, crf)`` for each ``quality`` (constant quality: no
bitrate target). At 960x608 on the 2-core machine, draft encodes about 70 frames/s,
default about 28 and final about 16 (x264's default about 80)."""

WEBM_THREADS = 2
"""libvpx's threads, pinned with row multi-threading on, so that the bytes cannot depend
on the machine's cores (this libvpx gave the same bytes for 1, 2 and 4 threads; pinning
keeps that from resting on a detail of one version)."""


class WebmEncoder(Mp4Encoder):
    """VP9 in WebM through the bundled ffmpeg, fed raw frames on a pipe: the MP4 encoder's
    pipe, holds, progress and atomic output with libvpx-vp9 (see :class:`Mp4Encoder`).

    Args:
        path: Target file.
        width: Frame width in pixels (even).
        height: Frame height in pixels (even).
        fps: Frames per second.
        quality: Key of :data:`WEBM_SETTINGS`.
        hold_last: Seconds the last frame is repeated for (``round(hold_last * fps)`` copies).
        pixel_format: ``YUV420P`` or ``RGB24``.

    Raises:
        UsageError: A frame larger than VP9 or ffmpeg take.
    """

    KIND = OutputKind.WEBM

    def __init__(
        self,
        path: Path,
        *,
        width: int,
        height: int,
        fps: int,
        quality: Quality = "default",
        hold_last: float = 0.0,
        pixel_format: PixelFormat = PixelFormat.YUV420P,
    ) -> None:
        super().__init__(
            path,
            width=width,
            height=height,
            fps=fps,
            quality=quality,
            hold_last=hold_last,
            pixel_format=pixel_format,
            threads=WEBM_THREADS,
        )
        self._vp9 = WEBM_SETTINGS[quality]

    def codec_args(self) -> list[str]:
        """libx264's place in the MP4 command: libvpx-vp9 at constant quality, threads pinned
        with row multi-threading, bit-exact."""
        deadline, cpu_used, crf = self._vp9
        return [
            *("-c:v", WEBM_ENCODER, "-deadline", deadline, "-cpu-used", str(cpu_used)),
            *("-crf", str(crf), "-b:v", "0", "-threads", str(WEBM_THREADS), "-row-mt", "1"),
            *("-fflags", "+bitexact", "-flags:v", "+bitexact"),
        ]

    def container_args(self) -> list[str]:
        """The WebM muxer."""
        return ["-f", "webm"]
