"""Encoders: MP4 (libx264), GIF and a PNG folder, behind one small interface.

Every encoder is a context manager that writes to a temporary name beside the target, unique
to the render (``.name.1a2b3c4d.partial.mp4``), and renames it on success; on an exception,
Ctrl-C, SIGTERM or SIGHUP the temporary file or folder (and any folder the encoder created on
the way to the target) is removed and the target is left untouched. :func:`check_frame_size`
refuses frames that a format cannot hold before any work is done.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Protocol, Self

import imageio_ffmpeg
import numpy as np
import numpy.typing as npt
from PIL import GifImagePlugin, Image

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.settings import Quality, VideoOptions
from searchvid.signals import defer_signals, run_to_completion

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
    HTML = "html"


def output_kind(path: Path) -> OutputKind:
    """The format a render to ``path`` writes.

    ``.mp4``, ``.gif`` and ``.html`` (any case) pick those; an existing directory or a path
    without a suffix is a PNG folder.

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
    if suffix == ".html":
        return OutputKind.HTML
    if not suffix:
        return OutputKind.FOLDER
    raise UsageError(
        f"{path}: unsupported output '{path.suffix}'; allowed: .mp4, .gif, .html or a folder"
    )


def check_target(path: Path) -> OutputKind:
    """The format a render to ``path`` writes, once ``path`` is known to be usable.

    Checked before any work, so that nothing is rendered only to fail at the final rename:
    the suffix (see :func:`output_kind`), the name's length against its folder's limit
    (255 bytes on most file systems) and, for a folder of frames, that it is not the current
    folder or one that holds it (a folder in use cannot be replaced).

    Raises:
        UsageError: Naming the path and what is wrong with it.
    """
    check_name_length(path)
    kind = output_kind(path)
    if kind is OutputKind.FOLDER:
        here = Path.cwd().resolve()
        whole = path.resolve()
        if whole == here or whole in here.parents:
            raise UsageError(
                f"{path}: a folder of frames cannot be the current folder or one that holds "
                "it; name a new folder, e.g. -o frames"
            )
    return kind


def check_name_length(path: Path) -> None:
    """Refuse a file name longer than its folder (or the nearest existing parent) takes.

    Raises:
        UsageError: Naming the path, its length and the limit.
    """
    name = os.fsencode(path.name)
    folder = _existing_ancestor(path.parent)
    if len(name) > _name_max(folder):
        raise UsageError(
            f"{path}: the file name is {len(name)} bytes long; {folder} takes names of at "
            f"most {_name_max(folder)} bytes"
        )


def _existing_ancestor(folder: Path) -> Path:
    """``folder``, or the nearest of its parents that exists (where the name limit is read)."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


GIF_MAX_SIDE = 0xFFFF
"""A GIF's width and height are 16-bit numbers: at most 65,535 px."""

MP4_MAX_SIDE = 16384
"""The widest and tallest picture libx264 takes (measured with the bundled ffmpeg)."""

_MP4_MAX_PADDED_AREA = (2**31 - 1) // 8
"""ffmpeg's picture-size check: ``(width + 128) * (height + 128)`` is at most this
(``av_image_check_size``: 8 bytes a pixel and 128 pixels of padding stay under ``INT_MAX``)."""

PNG_MAX_SIDE = 2**31 - 1
"""A PNG's width and height are 31-bit numbers."""

HTML_MAX_SIDE = 16384
"""The widest and tallest frame the HTML player takes: a ``<canvas>`` side every current
browser draws (Chromium's and Firefox's limit is 32,767 px a side, Chromium's area limit
16,384 x 16,384; Safari's area limit is lower, so huge frames may still fail there)."""


def check_frame_size(kind: OutputKind, width: int, height: int) -> None:
    """Refuse a frame size that the output ``kind`` cannot hold, before any work is done.

    The limits: a GIF at most 65,535 px each way (the format stores 16-bit sizes); an MP4 at
    most 16,384 px each way (libx264) and ``(width + 128) * (height + 128)`` at most
    268,435,455 (ffmpeg's picture-size check: 16,384 x 16,128 passes, 16,384 x 16,130 does
    not); a PNG at most 2^31 - 1 px each way; the HTML player at most 16,384 px each way (a
    browser's canvas, :data:`HTML_MAX_SIDE`). The MP4 limits were measured with the bundled
    ffmpeg.

    Raises:
        UsageError: The frame does not fit, naming the limit and the frame's size.
    """
    size = f"{width:,}x{height:,} px"
    if width < 1 or height < 1:
        raise UsageError(f"a frame of {size} is empty")
    if kind is OutputKind.GIF and max(width, height) > GIF_MAX_SIDE:
        raise UsageError(
            f"a GIF frame is at most {GIF_MAX_SIDE:,} px wide and high (the GIF format's "
            f"limit); this one is {size}"
        )
    if kind is OutputKind.MP4:
        if max(width, height) > MP4_MAX_SIDE:
            raise UsageError(
                f"an MP4 frame is at most {MP4_MAX_SIDE:,} px wide and high (libx264's "
                f"limit); this one is {size}"
            )
        if (width + 128) * (height + 128) > _MP4_MAX_PADDED_AREA:
            raise UsageError(
                f"an MP4 frame of {size} is larger than ffmpeg takes: (width + 128) x "
                f"(height + 128) must be at most {_MP4_MAX_PADDED_AREA:,}"
            )
    if kind is OutputKind.HTML and max(width, height) > HTML_MAX_SIDE:
        raise UsageError(
            f"an HTML player's frame is at most {HTML_MAX_SIDE:,} px wide and high (a "
            f"browser canvas's limit); this one is {size}"
        )
    if kind is OutputKind.FOLDER and max(width, height) > PNG_MAX_SIDE:
        raise UsageError(
            f"a PNG frame is at most {PNG_MAX_SIDE:,} px wide and high (the PNG format's "
            f"limit); this one is {size}"
        )


def reserve_partial(target: Path, *, folder: bool = False) -> Path:
    """Create a new, empty temporary file (or folder) beside ``target`` and return its path.

    The name is ``.{stem}.{random}.partial{suffix}`` (matched by the ``.*.partial*`` ignore
    pattern), unique to this call, so renders to one target never share a temporary file;
    the stem is shortened where needed so the name fits the file system's name limit. The
    file gets the usual permissions (``0o666`` less the umask), as ffmpeg or ``open`` would
    give it. ``target``'s folder must exist.

    Raises:
        OSError: The folder is missing or not writable.
    """
    stem, tail = (target.name, ".partial") if folder else (target.stem, f".partial{target.suffix}")
    for _ in range(100):
        path = _temporary_name(target.parent, stem, tail, spare=len(_OLD_TAIL) if folder else 0)
        try:
            if folder:
                path.mkdir()
            else:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))


_OLD_TAIL = "-old99"
"""Appended to a PNG folder's temporary name for the folder it replaces (see _swap_folder)."""


def _temporary_name(folder: Path, stem: str, tail: str, *, spare: int = 0) -> Path:
    """``folder / .{stem}.{8 random hex digits}{tail}``, the stem cut short where the name
    would not fit the folder's name limit with ``spare`` bytes to spare."""
    token = secrets.token_hex(4)
    budget = _name_max(folder) - spare - len(os.fsencode(f"..{token}{tail}"))
    while stem and len(os.fsencode(stem)) > budget:
        stem = stem[:-1]
    return folder / f".{stem}.{token}{tail}"


def _name_max(folder: Path) -> int:
    """The longest file name (in bytes) ``folder`` takes; 255 where the system cannot say."""
    try:
        return min(255, os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255


def _make_folders(folder: Path, created: list[Path]) -> None:
    """Create ``folder`` and its missing parents, appending each one made here to ``created``
    (outermost first) as soon as it exists, so a cleanup can remove exactly those."""
    missing: list[Path] = []
    while not folder.is_dir() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        try:
            path.mkdir()
        except FileExistsError:
            if path.is_dir():
                continue  # made by someone else meanwhile: theirs, not ours to remove
            raise
        created.append(path)


def _remove_folders(created: list[Path]) -> None:
    """Remove the folders in ``created`` (innermost first) that are still empty."""
    while created:
        with contextlib.suppress(OSError):  # not empty: someone else's files are in it
            created[-1].rmdir()
        created.pop()


_DISK_ERRORS = {
    errno.ENOSPC: "disk full writing {}",
    errno.EDQUOT: "disk quota exceeded writing {}",
    errno.EFBIG: "file-size limit reached writing {} (ulimit -f, or the file system's largest)",
}
"""The one-line messages of the write errors that are no bug: a full disk or a size limit."""


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """Turn a full disk or a file-size limit met inside the block into a one-line RunError."""
    try:
        yield
    except OSError as exc:
        message = _DISK_ERRORS.get(exc.errno or 0)
        if message is None:
            raise
        raise RunError(message.format(path)) from exc


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
    if kind is OutputKind.GIF:
        return GifEncoder(
            path, width=width, height=height, palette=palette, fps=video.fps, hold=video.hold_last
        )
    if kind is OutputKind.HTML:
        # Imported here: searchvid.render.html builds on this module's _AtomicOutput.
        from searchvid.render.html import HtmlEncoder

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


class _AtomicOutput:
    """What the encoders share: a temporary output beside the target, renamed on success.

    Entering creates the target's missing folders and the temporary output (:meth:`_open`);
    a clean exit finishes it (:meth:`_finish`, which ends with :meth:`_commit`). Any other
    way out -- an exception, Ctrl-C, SIGTERM, a failing finish -- runs :meth:`_abort` and
    removes the folders created on entry; that cleanup runs with signals held back, and is
    idempotent so that it can be run again if a signal slips in at its edge.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._tmp: Path | None = None
        self._created: list[Path] = []
        self._count = 0  # frames in the output so far, as the format counts them

    @property
    def encoded_frames(self) -> int:
        """Frames in the output so far (MP4 counts held copies; GIF and HTML lengthen a frame
        instead)."""
        return self._count

    def __enter__(self) -> Self:
        try:
            with defer_signals():  # a temporary name is never made without being noted
                self._open()
        except BaseException:
            run_to_completion(self._cleanup)
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            run_to_completion(self._cleanup)
            return
        try:
            self._finish()
        except BaseException:
            run_to_completion(self._cleanup)
            raise

    def _open(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    def _abort(self) -> None:
        """Stop and remove the temporary output; idempotent, and never raises OSError."""
        raise NotImplementedError

    def _cleanup(self) -> None:
        self._abort()
        _remove_folders(self._created)

    def _make_parent(self) -> None:
        _make_folders(self.path.parent, self._created)

    def _commit(self) -> None:
        """Rename the temporary file over the target (atomically)."""
        assert self._tmp is not None
        with defer_signals():
            os.replace(self._tmp, self.path)
            self._tmp = None
            self._created = []

    def _remove_tmp(self) -> None:
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                self._tmp.unlink(missing_ok=True)
            self._tmp = None


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

    Raises:
        UsageError: A frame larger than libx264 or ffmpeg take (:func:`check_frame_size`).
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
        check_frame_size(OutputKind.MP4, width, height)
        super().__init__(path)
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
            *("-c:v", "libx264", "-preset", self._preset, "-crf", str(self._crf)),
            *("-pix_fmt", "yuv420p", "-colorspace", "smpte170m", "-color_primaries", "smpte170m"),
            *("-color_trc", "smpte170m", "-color_range", "tv"),
            # "file:" keeps a name with a colon from being read as a protocol ("a:b.mp4").
            *("-movflags", "+faststart", "-f", "mp4", "-y", f"file:{output}"),
        ]

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
            return RunError(_DISK_ERRORS[errno.EFBIG].format(self.path))
        if "No space left on device" in log:
            return RunError(_DISK_ERRORS[errno.ENOSPC].format(self.path))
        if "Disk quota exceeded" in log:
            return RunError(_DISK_ERRORS[errno.EDQUOT].format(self.path))
        tail = " | ".join(line.strip() for line in lines[-_STDERR_LINES:] if line.strip())
        return RunError(f"ffmpeg failed (exit {code}) writing {self.path}: {tail or 'no output'}")

    def _abort(self) -> None:
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    proc.kill()
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


class GifEncoder(_AtomicOutput):
    """An animated GIF written frame by frame: only what changed in each frame.

    Frames are palette indices (:attr:`PixelFormat.PAL8`) into ``palette``, so colours are
    exact; besides the current frame the encoder holds one copy of the previous frame. Each
    frame after the first is cropped to the box of the pixels that differ from the previous
    frame (looked for within ``dirty``), and the pixels in that box that did not change are
    written as a transparent index over the previous frame, which stays on screen (disposal
    1). LZW packs those runs tightly, so two small changes far apart (a tile and the status
    strip's counter) no longer cost the whole band between them. The transparent index is
    the slot after the palette's colours; with a full 256-colour palette it is chosen frame by
    frame among the indices the frame's changed pixels do not use (a frame whose changes use
    all 256 is written as it is, box cropped). The GIF loops forever; the last frame's delay
    is lengthened by ``hold`` seconds.

    Args:
        path: Target file.
        width: Frame width.
        height: Frame height.
        palette: ``(n, 3)`` uint8, at most 256 colours.
        fps: Frames per second (delays are whole centiseconds; rounding does not drift).
        hold: Extra seconds the last frame stays on screen.

    Raises:
        UsageError: A frame wider or taller than a GIF holds (:func:`check_frame_size`).
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
        check_frame_size(OutputKind.GIF, width, height)
        super().__init__(path)
        self._size = (width, height)
        self._palette = np.asarray(palette, dtype=np.uint8)
        # The transparent index: the first slot after the colours, when there is one.
        self._spare: int | None = len(palette) if len(palette) < 256 else None
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
        with _writing(self.path):
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
        image = Image.frombuffer("L", (part.shape[1], part.shape[0]), part, "raw", "L", 0, 1)
        # Delays are whole centiseconds; rounding the running time keeps the total exact.
        ticks = self._ticks
        self._ticks += 1 + hold
        self._delay = round(100 * self._ticks / self._fps) - round(100 * ticks / self._fps)
        # Graphic control: disposal 1 (keep the frame under the next one), the transparency
        # flag and index; the delay is patched on close.
        flags = 0x04 if transparent is None else 0x05
        control = bytes([0x21, 0xF9, 4, flags]) + self._delay.to_bytes(2, "little")
        control += bytes([transparent or 0, 0])
        with _writing(self.path):
            self._delay_at = self._file.tell() + 4
            self._file.write(control)
            for chunk in GifImagePlugin.getdata(image, offset=(box.left, box.top)):
                self._file.write(chunk)
        self._count += 1

    def _changes(
        self, frame: Pixels, previous: Pixels, dirty: Rect | None
    ) -> tuple[Rect, Pixels, int | None]:
        """What to write of ``frame`` over ``previous`` (the frame on screen), which is then
        brought up to date: the box of the pixels that differ, those pixels as they are and
        the others as the transparent index (returned; None: no index is free).

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
        slots = len(self._palette) + (self._spare is not None)  # colours + transparent index
        bits = max(1, (slots - 1).bit_length())
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
        with _writing(self.path):
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


class PngFolderEncoder(_AtomicOutput):
    """A folder of lossless frames ``frame_000000.png``, ``frame_000001.png``, ...

    The frames are written into a temporary folder beside the target, which then takes the
    target's place. An existing target folder is replaced only if it holds nothing but frame
    files. A target that is a symbolic link to a folder stays one: the frames are written
    into a temporary folder inside the folder it points to, then moved over its frame files
    (old frames beyond the new count are removed).
    """

    def __init__(self, path: Path, *, compress_level: int = 1) -> None:
        super().__init__(path)
        self._level = compress_level
        self._linked: Path | None = None  # the folder a symbolic-link target points to

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.RGB24

    def _open(self) -> None:
        if self.path.is_symlink() and self.path.is_dir():
            self._linked = self.path.resolve()
            _check_replaceable(self.path)
            self._tmp = reserve_partial(self._linked / self.path.name, folder=True)
            return
        self._make_parent()
        _check_replaceable(self.path)
        self._tmp = reserve_partial(self.path, folder=True)

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        assert self._tmp is not None, "write() outside the with block"
        path = self._tmp / _FRAME_NAME.format(self._count)
        with _writing(self.path):
            Image.fromarray(frame).save(path, format="PNG", compress_level=self._level)
        self._count += 1

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        assert self._tmp is not None
        with defer_signals():
            if self._linked is not None:
                _fill_folder(self._tmp, self._linked, self._count)
            else:
                _swap_folder(self._tmp, self.path)
            self._tmp = None
            self._created = []

    def _abort(self) -> None:
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


class _PngFile(_AtomicOutput):
    """One PNG, written under a temporary name and renamed (see :func:`write_png`)."""

    def __init__(self, path: Path, image: Pixels) -> None:
        super().__init__(path)
        self._image = image

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)

    def _finish(self) -> None:
        assert self._tmp is not None
        with _writing(self.path):
            Image.fromarray(self._image).save(self._tmp, format="PNG")
        self._commit()

    def _abort(self) -> None:
        self._remove_tmp()


def write_png(image: Pixels, path: Path) -> None:
    """Write an RGB image as a PNG atomically (temporary name, then rename).

    Missing folders on the way to ``path`` are created, and removed again if the write fails.

    Raises:
        UsageError: The file name is longer than its folder takes.
        RunError: The disk is full or a file-size limit was met.
        OSError: Another failure to write.
    """
    check_name_length(path)
    with _PngFile(path, image):
        pass


def _check_replaceable(path: Path) -> None:
    """Refuse to replace anything but a folder of frames (or nothing)."""
    if not path.exists():
        return
    if not path.is_dir():
        raise UsageError(f"{path} exists and is not a folder")
    strangers = [
        p.name for p in path.iterdir() if not _is_frame_name(p.name) and not _is_partial(p.name)
    ]
    if strangers:
        raise UsageError(
            f"{path} holds files other than frames ({sorted(strangers)[0]}, ...); "
            "choose a new or empty folder"
        )


def _is_frame_name(name: str) -> bool:
    stem = name.removeprefix("frame_").removesuffix(".png")
    return name.startswith("frame_") and name.endswith(".png") and stem.isdigit()


def _is_partial(name: str) -> bool:
    """A temporary name of a render in progress (see :func:`reserve_partial`)."""
    return name.startswith(".") and ".partial" in name


def _swap_folder(new: Path, target: Path) -> None:
    """Put the folder ``new`` in ``target``'s place, removing the folder of frames there.

    Another render may be swapping its own folder in at the same moment: whichever rename
    comes last wins, and every folder moved aside is removed.
    """
    moved: list[Path] = []
    try:
        for attempt in range(20):
            if target.exists():
                _check_replaceable(target)
                old = new.with_name(f"{new.name}-old{attempt}")
                with contextlib.suppress(FileNotFoundError):  # another render moved it first
                    os.rename(target, old)
                    moved.append(old)
            try:
                os.rename(new, target)
                return
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
                # Another render's folder arrived in between: move that one aside too.
        raise RunError(f"cannot replace {target}: other renders keep writing to it")
    except BaseException:
        if moved and not target.exists():
            with contextlib.suppress(OSError):  # put the old frames back where they were
                os.rename(moved.pop(), target)
        raise
    finally:
        for old in moved:
            shutil.rmtree(old, ignore_errors=True)


def _fill_folder(new: Path, folder: Path, count: int) -> None:
    """Move the ``count`` frames in ``new`` into ``folder`` over its frame files, remove the
    frames it holds beyond ``count``, then remove ``new``."""
    for index in range(count):
        name = _FRAME_NAME.format(index)
        os.replace(new / name, folder / name)
    for path in folder.iterdir():
        if _is_frame_name(path.name) and int(path.name[6:-4]) >= count:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
    new.rmdir()
