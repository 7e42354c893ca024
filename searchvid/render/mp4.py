"""MP4 output: H.264 (libx264) through the bundled ffmpeg, fed raw frames on a pipe, written
under a temporary name and renamed when complete (:mod:`searchvid.render.output`). The WebM
encoder (:mod:`searchvid.render.webm`) builds on it; :func:`searchvid.render.encode.open_encoder`
picks between them and the other formats."""

from __future__ import annotations

import contextlib
import errno
import queue
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import IO

import numpy as np

from searchvid.errors import RunError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.ffmpeg import ffmpeg_exe
from searchvid.render.output import (
    DISK_ERRORS,
    AtomicOutput,
    OutputKind,
    check_frame_size,
    reserve_partial,
)
from searchvid.render.settings import Quality

MP4_SETTINGS: dict[Quality, tuple[str, int]] = {
    "draft": ("ultrafast", 28),
    "default": ("veryfast", 21),
    "final": ("slow", 16),
}
"""libx264 ``(preset, crf)`` for each ``quality``."""

_STDERR_LINES = 6  # how much of a dying ffmpeg's log a RunError quotes
_PIPE_BYTES = 1 << 20
"""The pipe's buffer asked for (Linux's default is 64 KiB, and an unprivileged process may
ask up to ``/proc/sys/fs/pipe-max-size``, 1 MiB by default): a frame then crosses in one or two
wake-ups of ffmpeg instead of twenty."""


class _PipeFeeder:
    """Writes queued frames into ffmpeg's stdin from a thread of its own.

    The render draws the next frame while this thread waits for ffmpeg to take the last one:
    a pipe write blocks until ffmpeg reads, and releases the GIL while it waits. Frames are
    written in the order queued, so ffmpeg gets the very bytes a direct write gives. When a
    write fails (ffmpeg stopped reading), the thread notes it and drops the rest of the queue
    until :meth:`close`, so that :meth:`put` never waits for a thread that stopped writing.

    Each frame is copied into a ring of ``depth + 2`` buffers, allocated once (a fresh copy
    per frame costs a page fault per 4 KiB): the queue holds at most ``depth`` of them and the
    thread writes one more, so the buffer filled next is never one still in use.

    Args:
        pipe: ffmpeg's stdin.
        depth: Frames that may wait in the queue.
        frame_bytes: Bytes of a frame.
    """

    def __init__(self, pipe: IO[bytes], depth: int, frame_bytes: int) -> None:
        self._pipe = pipe
        self._queue: queue.Queue[tuple[memoryview, int] | None] = queue.Queue(depth)
        self._ring = [np.empty(frame_bytes, np.uint8) for _ in range(depth + 2)]
        self._next = 0
        self.failed = False
        self._thread = threading.Thread(target=self._run, name="searchvid-ffmpeg-pipe")
        self._thread.daemon = True  # a stuck ffmpeg never keeps the interpreter alive
        self._thread.start()

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            if self.failed:
                continue
            data, times = item
            try:
                for _ in range(times):
                    self._pipe.write(data)
            except (OSError, ValueError):  # ffmpeg is gone, or the pipe was closed: say so
                self.failed = True

    def put(self, frame: Pixels, times: int) -> bool:
        """Queue a copy of ``frame`` (C-contiguous) to be written ``times`` times (waits
        while the queue is full); False when an earlier write failed."""
        if self.failed:
            return False
        buffer = self._ring[self._next]
        self._next = (self._next + 1) % len(self._ring)
        np.copyto(buffer, frame.reshape(-1))
        self._queue.put((buffer.data, times))
        return True

    def close(self) -> bool:
        """Wait until every queued frame is written or dropped; True when all were written."""
        self._queue.put(None)
        self._thread.join()
        return not self.failed


def _widen(pipe: IO[bytes]) -> None:
    """Ask for a larger pipe buffer (:data:`_PIPE_BYTES`) where the system allows it."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: the default buffer
        return
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if setsize is not None:
        with contextlib.suppress(OSError):  # refused (a lower limit): the default buffer
            fcntl.fcntl(pipe.fileno(), setsize, _PIPE_BYTES)


class Mp4Encoder(AtomicOutput):
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
        threads: libx264's threads, pinned (None: ffmpeg picks by the machine's cores). A
            split render (:mod:`searchvid.render.segments`) pins them: x264's output depends
            on its thread count, and a segment's bytes must not depend on the worker that
            encodes it.

    Raises:
        UsageError: A frame larger than libx264 or ffmpeg take (:func:`check_frame_size`).
    """

    KIND = OutputKind.MP4
    """The format written: a subclass with another :meth:`command` names its own, whose
    frame-size limits :func:`check_frame_size` applies."""

    AHEAD = 2
    """Frames queued for the thread that feeds ffmpeg, so that drawing the next frame overlaps
    piping this one (0: :meth:`write` pipes the frame itself, as before issue 22, which the
    pipeline benchmark measures side by side)."""

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
        threads: int | None = None,
    ) -> None:
        if width % 2 or height % 2:
            raise ValueError(f"an MP4 needs even sizes, got {width}x{height}")
        if pixel_format is PixelFormat.PAL8:
            raise ValueError("the MP4 encoder takes rgb24 or yuv420p frames")
        check_frame_size(self.KIND, width, height)
        super().__init__(path)
        self._size = (width, height)
        self._fps = fps
        self._preset, self._crf = MP4_SETTINGS[quality]
        self._hold = round(hold_last * fps)
        self._format = pixel_format
        self._threads = threads
        channels = 3 if pixel_format is PixelFormat.RGB24 else 1.5
        self._frame_bytes = int(width * height * channels)
        self._proc: subprocess.Popen[bytes] | None = None
        self._stdin: IO[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._feeder: _PipeFeeder | None = None
        self._last: Pixels | None = None

    @property
    def pixel_format(self) -> PixelFormat:
        return self._format

    def command(self) -> list[str]:
        """The ffmpeg command line: output to the temporary file (to the target before the
        encoder is entered)."""
        width, height = self._size
        output = self._tmp if self._tmp is not None else self.path
        return [
            ffmpeg_exe(),
            *("-hide_banner", "-nostats", "-loglevel", "error"),
            *("-f", "rawvideo", "-pix_fmt", self._format.value, "-s", f"{width}x{height}"),
            *("-framerate", str(self._fps), "-i", "pipe:0", "-an"),
            *self.codec_args(),
            *("-pix_fmt", "yuv420p", "-colorspace", "smpte170m", "-color_primaries", "smpte170m"),
            *("-color_trc", "smpte170m", "-color_range", "tv"),
            *self.container_args(),
            # "file:" keeps a name with a colon from being read as a protocol ("a:b.mp4").
            *("-y", f"file:{output}"),
        ]

    def codec_args(self) -> list[str]:
        """The encoder and its settings in :meth:`command` (a subclass names its own)."""
        threads = ["-threads", str(self._threads)] if self._threads is not None else []
        return ["-c:v", "libx264", "-preset", self._preset, "-crf", str(self._crf), *threads]

    def container_args(self) -> list[str]:
        """The output's muxer and its flags in :meth:`command`: an MP4 whose index comes
        first, so a browser plays it while it loads."""
        return ["-movflags", "+faststart", "-f", "mp4"]

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)
        command = self.command()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _close_log
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
            raise RunError(f"cannot start ffmpeg ({command[0]}): {exc}") from None
        self._stdin = self._proc.stdin
        assert self._stdin is not None
        _widen(self._stdin)
        if self.AHEAD > 0:
            self._feeder = _PipeFeeder(self._stdin, self.AHEAD, self._frame_bytes)

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        if frame.nbytes != self._frame_bytes:
            raise ValueError(f"frame of {frame.nbytes} bytes, expected {self._frame_bytes}")
        assert self._stdin is not None, "write() outside the with block"
        if self._feeder is not None:
            # copied: the caller redraws its buffer while the thread pipes this one
            if not self._feeder.put(frame, 1 + hold):
                raise self._failure()
        else:
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
        if self._feeder is not None:
            written = self._feeder.close()
            self._feeder = None
            if not written:
                raise self._failure()
        try:
            self._stdin.close()
        except OSError:
            raise self._failure() from None
        if self._proc.wait() != 0:
            raise self._failure()
        self._close_log()
        self._commit()

    def _failure(self) -> RunError:
        """A RunError saying why ffmpeg stopped, or quoting its log (waits for it to exit)."""
        assert self._proc is not None
        try:
            code = self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            code = self._proc.wait()
        lines: list[str] = []
        if self._log is not None:
            self._log.seek(0)
            lines = self._log.read().decode(errors="replace").strip().splitlines()
        log = " ".join(lines)
        xfsz = getattr(signal, "SIGXFSZ", None)  # killed for passing the file-size limit
        if (xfsz is not None and code == -xfsz) or "File too large" in log:
            return RunError(DISK_ERRORS[errno.EFBIG].format(self.path))
        if "No space left on device" in log:
            return RunError(DISK_ERRORS[errno.ENOSPC].format(self.path))
        if "Disk quota exceeded" in log:
            return RunError(DISK_ERRORS[errno.EDQUOT].format(self.path))
        tail = " | ".join(line.strip() for line in lines[-_STDERR_LINES:] if line.strip())
        return RunError(f"ffmpeg failed (exit {code}) writing {self.path}: {tail or 'no output'}")

    def _abort(self) -> None:
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    proc.kill()
            if self._feeder is not None:  # its write fails now that ffmpeg is gone
                self._feeder.close()
                self._feeder = None
            if self._stdin is not None:
                with contextlib.suppress(OSError):  # a broken pipe: ffmpeg is gone already
                    self._stdin.close()
            proc.wait()
        self._close_log()
        self._remove_tmp()

    def _close_log(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None
