"""PNG outputs: a folder of lossless frames, and one PNG written atomically."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from pathlib import Path

from PIL import Image

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.output import AtomicOutput, check_name_length, reserve_partial, writing
from searchvid.signals import checkpoint, defer_signals

FRAME_NAME = "frame_{:06d}.png"
"""The name of frame ``k`` of a PNG folder."""


class PngFolderEncoder(AtomicOutput):
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
        path = self._tmp / FRAME_NAME.format(self._count)
        with writing(self.path):
            Image.fromarray(frame).save(path, format="PNG", compress_level=self._level)
        self._count += 1

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        assert self._tmp is not None
        with defer_signals():
            checkpoint()  # after a signal, nothing is committed (whatever swallowed it)
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


class _PngFile(AtomicOutput):
    """One PNG, written under a temporary name and renamed (see :func:`write_png`)."""

    def __init__(self, path: Path, image: Pixels) -> None:
        super().__init__(path)
        self._image = image

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)

    def _finish(self) -> None:
        assert self._tmp is not None
        with writing(self.path):
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
        name = FRAME_NAME.format(index)
        os.replace(new / name, folder / name)
    for path in folder.iterdir():
        if _is_frame_name(path.name) and int(path.name[6:-4]) >= count:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
    new.rmdir()
