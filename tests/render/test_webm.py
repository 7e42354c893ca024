"""``.webm`` (VP9): decodes to the PNG folder's frames, holds and all; the same bytes every
time; refused, naming what is missing, where ffmpeg has no libvpx-vp9; nothing half-written."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner, Result
from PIL import Image

from searchvid.cli import main
from searchvid.errors import UsageError
from searchvid.render.output import OutputKind, check_frame_size
from searchvid.render.timeline import timeline
from searchvid.render.webm import WEBM_ENCODER
from searchvid.scene import load_scene
from tests.test_signals import RAILROAD  # a long scene: the signal tests interrupt it too

SCENE = str(Path(__file__).resolve().parent.parent / "golden" / "seed-tree.toml")
"""The seed's tree searched depth first: 15 frames at 2 fps with held opening and closing
cards."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def webm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("webm") / "scene.webm"
    done = invoke("render", SCENE, "-o", str(out), "-q")
    assert done.exit_code == 0, done.output
    return out


def decoded(path: Path) -> tuple[dict[str, object], list[npt.NDArray[np.uint8]]]:
    reader = imageio_ffmpeg.read_frames(str(path))
    meta: dict[str, object] = next(reader)
    width, height = meta["size"]  # type: ignore[misc]
    frames = [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in reader]
    return meta, frames


def psnr(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]) -> float:
    error = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if error == 0 else float(10 * np.log10(255.0**2 / error))


def test_webm_decodes_to_the_png_frames_with_their_holds(tmp_path: Path, webm: Path) -> None:
    folder = tmp_path / "frames"
    assert invoke("render", SCENE, "-o", str(folder), "-q").exit_code == 0
    pngs = [np.asarray(Image.open(p).convert("RGB")) for p in sorted(folder.glob("*.png"))]
    # each frame repeated for its hold, as the timeline (and the MP4) times it
    scene = load_scene(SCENE)
    line = timeline(scene.sources(), scene.render_jobs())
    expected = [
        png
        for png, frame in zip(pngs, line.frames, strict=True)
        for _ in range(int(frame.duration * 2))
    ]
    meta, frames = decoded(webm)
    assert meta["codec"] == "vp9"
    assert meta["fps"] == 2.0
    assert tuple(meta["size"]) == (pngs[0].shape[1], pngs[0].shape[0])  # type: ignore[call-overload]
    assert len(frames) == len(expected) == 24
    worst = min(psnr(a, b) for a, b in zip(frames, expected, strict=True))
    # lossy: about 39 to 44 dB here; a neighbouring frame in the wrong place scores about 19
    assert worst > 35.0, worst


def test_webm_bytes_are_the_same_every_time(tmp_path: Path, webm: Path) -> None:
    again = tmp_path / "again.webm"
    assert invoke("render", SCENE, "-o", str(again), "-q").exit_code == 0
    assert again.read_bytes() == webm.read_bytes()


def test_webm_clip_is_a_clip_too(tmp_path: Path) -> None:
    out = tmp_path / "clip.webm"
    done = invoke("render", SCENE, "-o", str(out), "-q", "--start", "10")
    assert done.exit_code == 0, done.output
    _meta, frames = decoded(out)
    assert len(frames) == 4 + 7  # four frames of 0.5 s, then the closing card's 3.5 s


def fake_ffmpeg(folder: Path, *, encoders: str, encode_exit: int = 0) -> Path:
    """A stand-in ffmpeg: lists ``encoders``; asked to encode, exits ``encode_exit``."""
    exe = folder / "ffmpeg"
    exe.write_text(
        "#!/bin/sh\n"
        'for arg in "$@"; do [ "$arg" = -encoders ] && { printf \'%s\\n\' '
        f"'Encoders:' ' ------' '{encoders}'; exit 0; }}; done\n"
        "cat > /dev/null\n"
        f"echo 'Conversion failed!' >&2\nexit {encode_exit}\n",
        encoding="utf-8",
    )
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_webm_is_refused_naming_the_missing_encoder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = fake_ffmpeg(tmp_path, encoders=" V....D libx264              libx264 H.264")
    monkeypatch.setenv("IMAGEIO_FFMPEG_EXE", str(exe))
    out = tmp_path / "out" / "scene.webm"
    done = invoke("render", SCENE, "-o", str(out), "-q")
    assert (done.exit_code, done.output.strip()) == (
        2,
        f"Error: .webm needs ffmpeg's {WEBM_ENCODER} encoder (VP9), and {exe} has none (an "
        "ffmpeg built without libvpx); set IMAGEIO_FFMPEG_EXE to an ffmpeg that lists it in "
        "ffmpeg -encoders, or render .mp4",
    )
    assert not (tmp_path / "out").exists()


def test_a_failing_encoder_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = fake_ffmpeg(
        tmp_path, encoders=" V....D libvpx-vp9           libvpx VP9 (codec vp9)", encode_exit=1
    )
    monkeypatch.setenv("IMAGEIO_FFMPEG_EXE", str(exe))
    out = tmp_path / "out" / "scene.webm"
    done = invoke("render", SCENE, "-o", str(out), "-q")
    assert (done.exit_code, done.output.strip()) == (
        1,
        f"Error: ffmpeg failed (exit 1) writing {out}: Conversion failed!",
    )
    assert not (tmp_path / "out").exists()


def test_webm_frame_size_limits() -> None:
    check_frame_size(OutputKind.WEBM, 65536, 64)
    with pytest.raises(UsageError) as caught:
        check_frame_size(OutputKind.WEBM, 65538, 64)
    assert str(caught.value) == (
        "a WebM (VP9) frame is at most 65,536 px wide and high (the VP9 format's limit); this "
        "one is 65,538x64 px"
    )
    with pytest.raises(UsageError, match="larger than ffmpeg takes"):
        check_frame_size(OutputKind.WEBM, 20000, 20000)


def test_webm_is_refused_with_jobs(tmp_path: Path) -> None:
    done = invoke("render", SCENE, "-o", str(tmp_path / "s.webm"), "-q", "--jobs", "2")
    assert done.exit_code == 2
    assert done.output.strip() == (
        "Error: --jobs: a split render writes an MP4 (.mp4) or a folder of PNG frames, not a "
        "WebM; render it whole (without --jobs and --scheduler)"
    )
    assert os.listdir(tmp_path) == []


def ffmpeg_writing(folder: Path) -> list[int]:
    """Live VP9 encoders (ffmpeg) whose command line names ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                line = (entry / "cmdline").read_bytes()
                if str(folder).encode() in line and WEBM_ENCODER.encode() in line:
                    found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_mid_webm_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    scene = tmp_path / "rail.toml"
    scene.write_text(RAILROAD.format(frames=2000), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "CI": "1"}
    env.pop("SEARCHVID_DEBUG", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "searchvid", "render", str(scene), "-o", str(out / "x.webm")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        # until ffmpeg writes the temporary file (a render of 2,000 frames is far from done)
        while not ffmpeg_writing(out):
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.01)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, stdout, stderr) == (143, "", "Error: interrupted (SIGTERM)\n")
    assert list(out.iterdir()) == []
    assert ffmpeg_writing(out) == []
