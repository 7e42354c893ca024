"""The ffmpeg searchvid runs (imageio-ffmpeg's bundled one, or ``$IMAGEIO_FFMPEG_EXE``) and
what it can encode. Nothing here imports the rest of the render package, so the output checks
(:mod:`searchvid.render.output`) and the encoders (:mod:`searchvid.render.encode`,
:mod:`searchvid.render.webm`) all build on it without an import circle."""

from __future__ import annotations

import functools
import subprocess

import imageio_ffmpeg

from searchvid.errors import RunError, UsageError

WEBM_ENCODER = "libvpx-vp9"
"""The ffmpeg encoder a WebM needs."""


def ffmpeg_exe() -> str:
    """Path of imageio-ffmpeg's bundled ffmpeg (or ``$IMAGEIO_FFMPEG_EXE``)."""
    try:
        exe: str = imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as exc:
        raise RunError(f"ffmpeg not found: {exc}") from None
    return exe


@functools.cache
def encoders(exe: str) -> frozenset[str]:
    """The encoders the ffmpeg at ``exe`` lists (``ffmpeg -encoders``), read once."""
    try:
        listed = subprocess.run(
            [exe, "-hide_banner", "-encoders"],
            capture_output=True,
            timeout=30,
            check=False,
            start_new_session=True,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RunError(f"cannot run ffmpeg ({exe}) to list its encoders: {error}") from None
    names = set()
    for line in listed.stdout.decode(errors="replace").splitlines():
        parts = line.split()
        # " V....D libvpx-vp9  libvpx VP9 (codec vp9)": flags, then the name
        if len(parts) >= 2 and len(parts[0]) == 6 and parts[0][0] in "VAS":
            names.add(parts[1])
    return frozenset(names)


def check_webm() -> None:
    """Refuse a WebM where the ffmpeg in use has no VP9 encoder.

    Raises:
        UsageError: Naming the ffmpeg, the missing encoder and what to do instead.
        RunError: ffmpeg cannot be found or run.
    """
    exe = ffmpeg_exe()
    if WEBM_ENCODER not in encoders(exe):
        raise UsageError(
            f".webm needs ffmpeg's {WEBM_ENCODER} encoder (VP9), and {exe} has none (an "
            "ffmpeg built without libvpx); set IMAGEIO_FFMPEG_EXE to an ffmpeg that lists it "
            "in ffmpeg -encoders, or render .mp4"
        )
