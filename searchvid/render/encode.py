"""Encoders: MP4 (libx264), GIF and a PNG folder, behind one small interface.

Every encoder is a context manager that writes to a temporary name beside the target
(``.name.partial.mp4``) and renames it on success; on an exception or Ctrl-C the temporary
file or folder is removed and the target is left untouched.
"""

from __future__ import annotations

import contextlib
import enum
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from typing import IO, Protocol

import imageio_ffmpeg
import numpy as np
import numpy.typing as npt
from PIL import GifImagePlugin, Image

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.settings import Quality, VideoOptions

MP4_SETTINGS: dict[Quality, tuple[str, int]] = {
    "draft": ("ultrafast", 28),
    "default": ("veryfast", 21),
    "final": ("slow", 16),
}
"""libx264 ``(preset, crf)`` for each ``quality``."""

_STDERR_LINES = 6  # how much of a dying ffmpeg's log a RunError quotes
_FRAME_NAME = "frame_{:06d}.png"


class OutputKind(enum.Enum):
    """The output formats, chosen by the output path."""

    MP4 = "mp4"
    GIF = "gif"
    FOLDER = "folder"


def output_kind(path: Path) -> OutputKind:
    """The format a render to ``path`` writes.

    ``.mp4`` and ``.gif`` (any case) pick those; an existing directory or a path without a
    suffix is a PNG folder.

    Raises:
        UsageError: Any other suffix.
    """
    if path.is_dir():
        return OutputKind.FOLDER
    suffix = path.suffix.lower()
    if suffix == ".mp4":
        return OutputKind.MP4
    if suffix == ".gif":
        return OutputKind.GIF
    if not suffix:
        return OutputKind.FOLDER
    raise UsageError(f"unsupported output '{path.suffix}'; allowed: .mp4, .gif or a folder")


def partial_path(target: Path) -> Path:
    """The temporary name beside ``target`` that an encoder writes first."""
    return target.with_name(f".{target.stem}.partial{target.suffix}")


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


def ffmpeg_exe() -> str:
    """Path of imageio-ffmpeg's bundled ffmpeg (or ``$IMAGEIO_FFMPEG_EXE``)."""
    try:
        exe: str = imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as exc:
        raise RunError(f"ffmpeg not found: {exc}") from None
    return exe


def open_encoder(
    path: Path,
    *,
    width: int,
    height: int,
    video: VideoOptions,
    palette: npt.NDArray[np.uint8],
) -> Encoder:
    """The encoder for ``path``'s format (see :func:`output_kind`), not yet entered."""
    kind = output_kind(path)
    if kind is OutputKind.MP4:
        return Mp4Encoder(
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
    return PngFolderEncoder(path)


class _AtomicOutput:
    """Context-manager exit shared by the encoders: finish and rename on success; on an
    exception, Ctrl-C or a failing finish, abort (remove the temporary output) instead."""

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            self._abort()
            return
        try:
            self._finish()
        except BaseException:
            self._abort()
            raise

    def _finish(self) -> None:
        raise NotImplementedError

    def _abort(self) -> None:
        raise NotImplementedError


class Mp4Encoder(_AtomicOutput):
    """H.264 MP4 through the bundled ffmpeg, fed raw frames on a pipe.

    Args:
        path: Target file.
        width: Frame width in pixels (even).
        height: Frame height in pixels (even).
        fps: Frames per second.
        quality: Key of :data:`MP4_SETTINGS`.
        hold_last: Seconds the last frame is repeated for (``round(hold_last * fps)`` copies).
        pixel_format: ``YUV420P`` (planes straight from the canvas, no conversion in ffmpeg)
            or ``RGB24``.
    """

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
        if width % 2 or height % 2:
            raise ValueError(f"an MP4 needs even sizes, got {width}x{height}")
        if pixel_format is PixelFormat.PAL8:
            raise ValueError("the MP4 encoder takes rgb24 or yuv420p frames")
        self.path = path
        self._tmp = partial_path(path)
        self._size = (width, height)
        self._fps = fps
        self._preset, self._crf = MP4_SETTINGS[quality]
        self._hold = round(hold_last * fps)
        self._format = pixel_format
        channels = 3 if pixel_format is PixelFormat.RGB24 else 1.5
        self._frame_bytes = int(width * height * channels)
        self._proc: subprocess.Popen[bytes] | None = None
        self._stdin: IO[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._last: Pixels | None = None
        self._count = 0

    @property
    def pixel_format(self) -> PixelFormat:
        return self._format

    @property
    def encoded_frames(self) -> int:
        return self._count

    def command(self) -> list[str]:
        """The ffmpeg command line (output to the temporary path)."""
        width, height = self._size
        return [
            ffmpeg_exe(),
            *("-hide_banner", "-nostats", "-loglevel", "error"),
            *("-f", "rawvideo", "-pix_fmt", self._format.value, "-s", f"{width}x{height}"),
            *("-framerate", str(self._fps), "-i", "pipe:0", "-an"),
            *("-c:v", "libx264", "-preset", self._preset, "-crf", str(self._crf)),
            *("-pix_fmt", "yuv420p", "-colorspace", "smpte170m", "-color_primaries", "smpte170m"),
            *("-color_trc", "smpte170m", "-color_range", "tv"),
            *("-movflags", "+faststart", "-f", "mp4", "-y", str(self._tmp)),
        ]

    def __enter__(self) -> Mp4Encoder:
        self._tmp.unlink(missing_ok=True)
        command = self.command()
        self._log = tempfile.TemporaryFile()
        try:
            # A new session keeps Ctrl-C away from ffmpeg: Python gets it and cleans up.
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=self._log,
                start_new_session=True,
            )
        except OSError as exc:
            self._log.close()
            raise RunError(f"cannot start ffmpeg ({command[0]}): {exc}") from None
        self._stdin = self._proc.stdin
        return self

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        if frame.nbytes != self._frame_bytes:
            raise ValueError(f"frame of {frame.nbytes} bytes, expected {self._frame_bytes}")
        assert self._stdin is not None, "write() outside the with block"
        data = frame.data.cast("B")
        try:
            for _ in range(1 + hold):
                self._stdin.write(data)
        except OSError:
            raise self._failure() from None
        self._last = frame
        self._count += 1 + hold

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        assert self._last is not None
        assert self._stdin is not None
        assert self._proc is not None
        if self._hold:
            self.write(self._last, hold=self._hold - 1)
        try:
            self._stdin.close()
        except OSError:
            raise self._failure() from None
        if self._proc.wait() != 0:
            raise self._failure()
        self._close_log()
        os.replace(self._tmp, self.path)

    def _failure(self) -> RunError:
        """A RunError quoting the end of ffmpeg's log (waits for it to exit)."""
        assert self._proc is not None
        try:
            code = self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            code = self._proc.wait()
        tail = ""
        if self._log is not None:
            self._log.seek(0)
            lines = self._log.read().decode(errors="replace").strip().splitlines()
            tail = " | ".join(line.strip() for line in lines[-_STDERR_LINES:] if line.strip())
        return RunError(f"ffmpeg failed (exit {code}) writing {self.path}: {tail or 'no output'}")

    def _abort(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            if self._stdin is not None:
                with contextlib.suppress(OSError):  # a broken pipe: ffmpeg is gone already
                    self._stdin.close()
            self._proc.wait()
        self._close_log()
        self._tmp.unlink(missing_ok=True)

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


class GifEncoder(_AtomicOutput):
    """An animated GIF written frame by frame: only the changed rectangle of each frame.

    Frames are palette indices (:attr:`PixelFormat.PAL8`) into ``palette``, so colours are
    exact and nothing but the current frame is held in memory. The GIF loops forever; the
    last frame's delay is lengthened by ``hold`` seconds.

    Args:
        path: Target file.
        width: Frame width.
        height: Frame height.
        palette: ``(n, 3)`` uint8, at most 256 colours.
        fps: Frames per second (delays are whole centiseconds; rounding does not drift).
        hold: Extra seconds the last frame stays on screen.
    """

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
        self.path = path
        self._tmp = partial_path(path)
        self._size = (width, height)
        self._palette = np.asarray(palette, dtype=np.uint8)
        self._fps = fps
        self._hold = round(hold * 100)
        self._file: IO[bytes] | None = None
        self._delay_at = 0
        self._delay = 0
        self._count = 0
        self._ticks = 0  # frame durations written so far, holds included

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.PAL8

    @property
    def encoded_frames(self) -> int:
        return self._count

    def __enter__(self) -> GifEncoder:
        self._file = open(self._tmp, "wb")
        self._file.write(self._header())
        return self

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        width, height = self._size
        if frame.shape != (height, width):
            raise ValueError(f"frame of shape {frame.shape}, expected {(height, width)}")
        assert self._file is not None, "write() outside the with block"
        rect = Rect(0, 0, height, width) if dirty is None or self._count == 0 else dirty
        if rect.bottom <= rect.top or rect.right <= rect.left:
            rect = Rect(0, 0, 1, 1)  # nothing changed: still a frame, as in the PNG folder
        part = np.ascontiguousarray(frame[rect.top : rect.bottom, rect.left : rect.right])
        image = Image.frombuffer("L", (part.shape[1], part.shape[0]), part, "raw", "L", 0, 1)
        # Delays are whole centiseconds; rounding the running time keeps the total exact.
        ticks = self._ticks
        self._ticks += 1 + hold
        self._delay = round(100 * self._ticks / self._fps) - round(100 * ticks / self._fps)
        # Graphic control: disposal 1 (keep), no transparency; the delay is patched on close.
        self._delay_at = self._file.tell() + 4
        self._file.write(b"!\xf9\x04\x04" + self._delay.to_bytes(2, "little") + b"\x00\x00")
        for chunk in GifImagePlugin.getdata(image, offset=(rect.left, rect.top)):
            self._file.write(chunk)
        self._count += 1

    def _header(self) -> bytes:
        width, height = self._size
        bits = max(1, (len(self._palette) - 1).bit_length())
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
        self._file.seek(self._delay_at)
        self._file.write(min(self._delay + self._hold, 0xFFFF).to_bytes(2, "little"))
        self._file.seek(0, os.SEEK_END)
        self._file.write(b";")
        self._file.close()
        os.replace(self._tmp, self.path)

    def _abort(self) -> None:
        if self._file is not None:
            self._file.close()
        self._tmp.unlink(missing_ok=True)


class PngFolderEncoder(_AtomicOutput):
    """A folder of lossless frames ``frame_000000.png``, ``frame_000001.png``, ...

    The folder is written under a temporary name and renamed on success. An existing target
    folder is replaced only if it holds nothing but frame files.
    """

    def __init__(self, path: Path, *, compress_level: int = 1) -> None:
        self.path = path
        self._tmp = partial_path(path)
        self._level = compress_level
        self._count = 0

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.RGB24

    @property
    def encoded_frames(self) -> int:
        return self._count

    def __enter__(self) -> PngFolderEncoder:
        _check_replaceable(self.path)
        shutil.rmtree(self._tmp, ignore_errors=True)
        self._tmp.mkdir(parents=True)
        return self

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        path = self._tmp / _FRAME_NAME.format(self._count)
        Image.fromarray(frame).save(path, format="PNG", compress_level=self._level)
        self._count += 1

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        _replace_folder(self._tmp, self.path)

    def _abort(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)


def write_png(image: Pixels, path: Path) -> None:
    """Write an RGB image as a PNG atomically (temporary name, then rename)."""
    tmp = partial_path(path)
    try:
        Image.fromarray(image).save(tmp, format="PNG")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _check_replaceable(path: Path) -> None:
    """Refuse to replace anything but a folder of frames (or nothing)."""
    if not path.exists():
        return
    if not path.is_dir():
        raise UsageError(f"{path} exists and is not a folder")
    strangers = [p.name for p in path.iterdir() if not _is_frame_name(p.name)]
    if strangers:
        raise UsageError(
            f"{path} holds files other than frames ({sorted(strangers)[0]}, ...); "
            "choose a new or empty folder"
        )


def _is_frame_name(name: str) -> bool:
    stem = name.removeprefix("frame_").removesuffix(".png")
    return name.startswith("frame_") and name.endswith(".png") and stem.isdigit()


def _replace_folder(new: Path, target: Path) -> None:
    if target.exists():
        _check_replaceable(target)
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
        os.replace(new, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(new, target)
