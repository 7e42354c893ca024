"""Output paths and files: the format a path asks for, the frame sizes each format holds,
and the writing of a file under a temporary name that is renamed on success.

Every encoder builds on :class:`AtomicOutput`: it writes to a temporary name beside the
target, unique to the render (``.name.1a2b3c4d.partial.mp4``), and renames it on success; on
an exception, Ctrl-C, SIGTERM or SIGHUP the temporary file or folder (and any folder the
encoder created on the way to the target) is removed and the target is left untouched.
:func:`check_frame_size` refuses frames that a format cannot hold before any work is done.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Self

from searchvid.errors import RunError, UsageError
from searchvid.render.ffmpeg import check_webm
from searchvid.signals import checkpoint, defer_signals, run_to_completion


class OutputKind(enum.Enum):
    """The output formats, chosen by the output path."""

    MP4 = "mp4"
    WEBM = "webm"
    """VP9 in WebM, where the bundled ffmpeg has libvpx-vp9 (:mod:`searchvid.render.webm`)."""
    GIF = "gif"
    FOLDER = "folder"
    HTML = "html"
    VTT = "vtt"
    """Captions (WebVTT) and their chapters: no pixels (:mod:`searchvid.render.vtt`)."""


def output_kind(path: Path) -> OutputKind:
    """The format a render to ``path`` writes.

    ``.mp4``, ``.webm``, ``.gif``, ``.html`` and ``.vtt`` (any case) pick those; an existing
    directory or a path without a suffix is a PNG folder.

    Raises:
        UsageError: Any other suffix.
    """
    if path.is_dir():
        return OutputKind.FOLDER
    suffix = path.suffix.lower()
    if suffix == ".mp4":
        return OutputKind.MP4
    if suffix == ".webm":
        return OutputKind.WEBM
    if suffix == ".gif":
        return OutputKind.GIF
    if suffix == ".html":
        return OutputKind.HTML
    if suffix == ".vtt":
        return OutputKind.VTT
    if not suffix:
        return OutputKind.FOLDER
    raise UsageError(
        f"{path}: unsupported output '{path.suffix}'; allowed: .mp4, .webm, .gif, .html, .vtt "
        "(captions) or a folder"
    )


def check_target(path: Path) -> OutputKind:
    """The format a render to ``path`` writes, once ``path`` is known to be usable.

    Checked before any work, so that nothing is rendered only to fail at the final rename:
    the suffix (see :func:`output_kind`), the name's length against its folder's limit
    (255 bytes on most file systems), for a WebM that ffmpeg has its encoder
    (:func:`~searchvid.render.ffmpeg.check_webm`) and, for a folder of frames, that it is not
    the current folder or one that holds it (a folder in use cannot be replaced).

    Raises:
        UsageError: Naming the path and what is wrong with it.
    """
    check_name_length(path)
    kind = output_kind(path)
    if kind is OutputKind.WEBM:
        check_webm()
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

GIF_MAX_FPS = 50
"""Frames a second a GIF plays at in browsers, at most: a delay is a whole number of
centiseconds, and Chromium, Firefox and Safari play a delay of 0 or 1 as 10."""

MP4_MAX_SIDE = 16384
"""The widest and tallest picture libx264 takes (measured with the bundled ffmpeg)."""

_MP4_MAX_PADDED_AREA = (2**31 - 1) // 8
"""ffmpeg's picture-size check: ``(width + 128) * (height + 128)`` is at most this
(``av_image_check_size``: 8 bytes a pixel and 128 pixels of padding stay under ``INT_MAX``)."""

WEBM_MAX_SIDE = 65536
"""The widest and tallest picture VP9 stores (16-bit sizes less one); the bundled ffmpeg's
libvpx-vp9 takes 65,536 px and refuses 65,538 (measured)."""

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
    not); a WebM at most 65,536 px each way (VP9) and ffmpeg's picture-size check as for an
    MP4; a PNG at most 2^31 - 1 px each way; the HTML player at most 16,384 px each way (a
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
    if kind is OutputKind.WEBM:
        if max(width, height) > WEBM_MAX_SIDE:
            raise UsageError(
                f"a WebM (VP9) frame is at most {WEBM_MAX_SIDE:,} px wide and high (the VP9 "
                f"format's limit); this one is {size}"
            )
        if (width + 128) * (height + 128) > _MP4_MAX_PADDED_AREA:
            raise UsageError(
                f"a WebM frame of {size} is larger than ffmpeg takes: (width + 128) x "
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


DISK_ERRORS = {
    errno.ENOSPC: "disk full writing {}",
    errno.EDQUOT: "disk quota exceeded writing {}",
    errno.EFBIG: "file-size limit reached writing {} (ulimit -f, or the file system's largest)",
}
"""The one-line messages of the write errors that are no bug: a full disk or a size limit."""


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn a full disk or a file-size limit met inside the block into a one-line RunError."""
    try:
        yield
    except OSError as exc:
        message = DISK_ERRORS.get(exc.errno or 0)
        if message is None:
            raise
        raise RunError(message.format(path)) from exc


class AtomicOutput:
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
            checkpoint()  # after a signal, nothing is committed (whatever swallowed it)
            os.replace(self._tmp, self.path)
            self._tmp = None
            self._created = []

    def _remove_tmp(self) -> None:
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                self._tmp.unlink(missing_ok=True)
            self._tmp = None
