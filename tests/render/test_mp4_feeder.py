"""The MP4 encoder's feeding thread (issue 22): the same bytes as a direct write, failures
named from the thread, and no thread left behind."""

from __future__ import annotations

import fcntl
import hashlib
import stat
import sys
import threading
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest

from searchvid.errors import RunError
from searchvid.render.mp4 import Mp4Encoder
from searchvid.render.yuv import rgb_to_yuv420

FEEDER = "searchvid-ffmpeg-pipe"


def frames(count: int, width: int = 64, height: int = 48) -> list[np.ndarray]:
    """yuv420p frames of a moving square on noise (every frame differs)."""
    rng = np.random.default_rng(3)
    base = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    out = []
    for k in range(count):
        rgb = base.copy()
        rgb[k % (height - 8) : k % (height - 8) + 8, (3 * k) % (width - 8) :][:, :8] = 255
        out.append(np.concatenate([p.ravel() for p in rgb_to_yuv420(rgb)]))
    return out


def feeders() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == FEEDER]


def encode(target: Path, ahead: int, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setattr(Mp4Encoder, "AHEAD", ahead)
    encoder = Mp4Encoder(target, width=64, height=48, fps=10, hold_last=0.3, threads=1)
    with encoder:
        for k, frame in enumerate(frames(24)):
            encoder.write(frame, hold=2 if k == 5 else 0)
        assert len(feeders()) == (1 if ahead else 0)
    assert encoder.encoded_frames == 24 + 2 + 3
    return target.read_bytes()


def test_the_feeding_thread_writes_the_bytes_a_direct_write_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threaded = encode(tmp_path / "threaded.mp4", 2, monkeypatch)
    direct = encode(tmp_path / "direct.mp4", 0, monkeypatch)
    assert hashlib.sha256(threaded).hexdigest() == hashlib.sha256(direct).hexdigest()
    assert feeders() == []


def test_a_frame_is_copied_before_the_caller_redraws_its_buffer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One buffer redrawn in place between writes, as the render does: the thread must pipe
    # what the buffer held at write(), not what it holds when the thread gets to it.
    reference = encode(tmp_path / "reference.mp4", 0, monkeypatch)
    monkeypatch.setattr(Mp4Encoder, "AHEAD", 2)
    target = tmp_path / "one-buffer.mp4"
    encoder = Mp4Encoder(target, width=64, height=48, fps=10, hold_last=0.3, threads=1)
    buffer = np.empty_like(frames(1)[0])
    with encoder:
        for k, frame in enumerate(frames(24)):
            buffer[...] = frame
            encoder.write(buffer, hold=2 if k == 5 else 0)
            buffer[...] = 0
        buffer[...] = frames(24)[-1]  # the last frame stays as written (the held copies)
    assert target.read_bytes() == reference


def write_all(
    encoder: Mp4Encoder, frame: np.ndarray, count: int, error: BaseException | None = None
) -> None:
    """Write ``frame`` ``count`` times inside the encoder's context, then raise ``error``."""
    with encoder:
        for _ in range(count):
            encoder.write(frame)
        if error is not None:
            raise error


def fake_ffmpeg(tmp_path: Path, script: str) -> Path:
    exe = tmp_path / "fake-ffmpeg"
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return exe


def test_an_ffmpeg_that_stops_reading_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It reads a little, complains and exits: the thread's write fails, the caller says why.
    exe = fake_ffmpeg(tmp_path, "head -c 1000 >/dev/null\necho 'Invalid data found' >&2\nexit 1\n")
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: str(exe))
    out = tmp_path / "out"
    encoder = Mp4Encoder(out / "v.mp4", width=640, height=480, fps=10)
    frame = np.zeros(640 * 480 * 3 // 2, np.uint8)
    with pytest.raises(RunError) as caught:
        write_all(encoder, frame, 40)  # 18 MB: more than the pipe and the queue hold
    message = str(caught.value)
    assert message == f"ffmpeg failed (exit 1) writing {out / 'v.mp4'}: Invalid data found"
    assert "\n" not in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-ffmpeg"]
    assert feeders() == []


def test_an_error_in_the_caller_stops_the_thread_and_ffmpeg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ffmpeg that never reads: the thread blocks on a full pipe until ffmpeg is killed.
    exe = fake_ffmpeg(tmp_path, "exec sleep 60\n")
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: str(exe))
    encoder = Mp4Encoder(tmp_path / "v.mp4", width=640, height=480, fps=10)
    frame = np.zeros(640 * 480 * 3 // 2, np.uint8)
    with pytest.raises(KeyboardInterrupt):  # the pipe (1 MiB) and the queue (2) hold 3
        write_all(encoder, frame, 3, KeyboardInterrupt())
    assert feeders() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-ffmpeg"]


@pytest.mark.skipif(
    not hasattr(fcntl, "F_GETPIPE_SZ")
    or not Path("/proc/sys/fs/pipe-max-size").is_file()
    or int(Path("/proc/sys/fs/pipe-max-size").read_text()) < 1 << 20,
    reason="pipe sizes are Linux's, and this system allows less than 1 MiB",
)
def test_ffmpeg_reads_from_a_pipe_of_one_mebibyte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stand-in ffmpeg that reports the size of the pipe on its stdin, then fails.
    exe = tmp_path / "fake-ffmpeg"
    exe.write_text(
        f"#!{sys.executable}\nimport fcntl, sys\n"
        "print('pipe', fcntl.fcntl(0, fcntl.F_GETPIPE_SZ), file=sys.stderr)\nsys.exit(1)\n"
    )
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: str(exe))
    encoder = Mp4Encoder(tmp_path / "v.mp4", width=16, height=16, fps=10)
    with pytest.raises(RunError) as caught:
        write_all(encoder, np.zeros(16 * 16 * 3 // 2, np.uint8), 1)
    assert str(caught.value).endswith(": pipe 1048576")  # not Linux's default 65536
