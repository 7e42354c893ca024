from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import PixelFormat, Rect
from searchvid.render.encode import (
    Encoder,
    GifEncoder,
    Mp4Encoder,
    OutputKind,
    PngFolderEncoder,
    output_kind,
    partial_path,
    write_png,
)
from searchvid.render.yuv import rgb_to_yuv420

PALETTE = np.array([(0, 0, 0), (255, 0, 0), (0, 200, 0), (20, 40, 250), (250, 250, 250)], np.uint8)


def decode_mp4(path: Path) -> tuple[dict[str, Any], list[np.ndarray]]:
    reader = imageio_ffmpeg.read_frames(str(path))
    meta: dict[str, Any] = next(reader)
    width, height = meta["size"]
    frames = [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in reader]
    return meta, frames


def decode_gif(path: Path) -> tuple[list[np.ndarray], list[int], dict[str, Any]]:
    with Image.open(path) as gif:
        frames, delays = [], []
        for i in range(getattr(gif, "n_frames", 1)):
            gif.seek(i)
            frames.append(np.asarray(gif.convert("RGB")))
            delays.append(int(gif.info["duration"]))
        info: dict[str, Any] = {str(k): v for k, v in gif.info.items()}
        return frames, delays, info


def indexed_frames(count: int, h: int = 24, w: int = 32, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, len(PALETTE), (h, w), dtype=np.uint8)
    frames = [frame.copy()]
    for _ in range(count - 1):
        top, left = int(rng.integers(0, h - 4)), int(rng.integers(0, w - 4))
        frame[top : top + 4, left : left + 4] = rng.integers(0, len(PALETTE))
        frames.append(frame.copy())
    return frames


def write_all(
    encoder: Encoder, frames: list[np.ndarray], error: BaseException | None = None
) -> None:
    """Write ``frames`` inside the encoder's context, raising ``error`` after the fourth."""
    with encoder:
        for i, frame in enumerate(frames):
            encoder.write(frame)
            if error is not None and i == 3:
                raise error


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("a.mp4", OutputKind.MP4),
        ("a.MP4", OutputKind.MP4),
        ("b.gif", OutputKind.GIF),
        ("frames", OutputKind.FOLDER),
    ],
)
def test_output_kind_from_the_suffix(tmp_path: Path, name: str, kind: OutputKind) -> None:
    assert output_kind(tmp_path / name) is kind


def test_an_existing_directory_is_a_png_folder_whatever_its_name(tmp_path: Path) -> None:
    (tmp_path / "shots.v2").mkdir()
    assert output_kind(tmp_path / "shots.v2") is OutputKind.FOLDER


@pytest.mark.parametrize("suffix", [".avi", ".png", ".webm"])
def test_other_suffixes_are_usage_errors(tmp_path: Path, suffix: str) -> None:
    with pytest.raises(UsageError) as info:
        output_kind(tmp_path / f"out{suffix}")
    assert str(info.value) == f"unsupported output '{suffix}'; allowed: .mp4, .gif or a folder"


def test_partial_path_is_hidden_beside_the_target(tmp_path: Path) -> None:
    assert partial_path(tmp_path / "x.mp4") == tmp_path / ".x.partial.mp4"
    assert partial_path(tmp_path / "frames") == tmp_path / ".frames.partial"


@pytest.mark.parametrize("fmt", [PixelFormat.RGB24, PixelFormat.YUV420P])
def test_mp4_has_held_frames_size_and_h264(tmp_path: Path, fmt: PixelFormat) -> None:
    rng = np.random.default_rng(1)
    target = tmp_path / "v.mp4"
    encoder = Mp4Encoder(target, width=32, height=24, fps=10, hold_last=0.5, pixel_format=fmt)
    with encoder:
        for _ in range(7):
            rgb = np.repeat(np.repeat(rng.integers(0, 256, (12, 16, 3), np.uint8), 2, 0), 2, 1)
            if fmt is PixelFormat.RGB24:
                encoder.write(rgb)
            else:
                encoder.write(np.concatenate([p.ravel() for p in rgb_to_yuv420(rgb)]))
    assert encoder.encoded_frames == 7 + 5
    meta, frames = decode_mp4(target)
    assert meta["codec"] == "h264"
    assert meta["size"] == (32, 24)
    assert len(frames) == 12
    assert np.array_equal(frames[-1], frames[6])  # held copies of the last frame
    assert leftovers(tmp_path) == ["v.mp4"]


def test_mp4_frames_look_like_their_input(tmp_path: Path) -> None:
    target = tmp_path / "v.mp4"
    frame = np.zeros((64, 64, 3), np.uint8)
    frame[:, 32:] = (200, 40, 40)
    frame[32:, :] = (40, 40, 220)
    with Mp4Encoder(target, width=64, height=64, fps=5, pixel_format=PixelFormat.RGB24) as enc:
        enc.write(frame)
    _, frames = decode_mp4(target)
    assert len(frames) == 1
    assert np.abs(frames[0].astype(int) - frame).mean() < 3


def fake_ffmpeg(tmp_path: Path, code: int) -> str:
    script = tmp_path / "fake-ffmpeg"
    script.write_text(
        "#!/bin/sh\necho 'fake: starting' >&2\necho 'fake: disk on fire' >&2\n"
        f"exec 0<&-\nexit {code}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


@pytest.mark.parametrize("size", [(16, 16), (640, 480)])  # small frames fit the pipe buffer
def test_a_dying_ffmpeg_is_a_run_error_with_its_last_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: fake_ffmpeg(tmp_path, 3))
    width, height = size
    encoder = Mp4Encoder(out / "v.mp4", width=width, height=height, fps=10)
    frame = np.zeros(width * height * 3 // 2, np.uint8)
    with pytest.raises(RunError, match=r"exit 3.*fake: starting \| fake: disk on fire"):
        write_all(encoder, [frame] * 20)
    assert leftovers(out) == []


def test_an_ffmpeg_that_cannot_start_is_a_run_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: str(tmp_path / "nope"))
    with (
        pytest.raises(RunError, match="cannot start ffmpeg"),
        Mp4Encoder(tmp_path / "v.mp4", width=16, height=16, fps=10),
    ):
        pass
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
@pytest.mark.parametrize("name", ["v.mp4", "v.gif", "frames"])
def test_an_exception_mid_stream_leaves_nothing(
    tmp_path: Path, name: str, error: BaseException
) -> None:
    target = tmp_path / name
    rgb = np.zeros((16, 16, 3), np.uint8)
    encoders: dict[str, Encoder] = {
        "v.mp4": Mp4Encoder(target, width=16, height=16, fps=10),
        "v.gif": GifEncoder(target, width=16, height=16, palette=PALETTE, fps=10),
        "frames": PngFolderEncoder(target),
    }
    encoder = encoders[name]
    frame = {
        PixelFormat.RGB24: rgb,
        PixelFormat.PAL8: rgb[..., 0],
        PixelFormat.YUV420P: np.zeros(16 * 16 * 3 // 2, np.uint8),
    }[encoder.pixel_format]
    with pytest.raises(type(error)):
        write_all(encoder, [frame] * 5, error)
    assert leftovers(tmp_path) == []


def test_an_empty_video_is_an_error_and_leaves_nothing(tmp_path: Path) -> None:
    with (
        pytest.raises(RunError, match="no frames"),
        GifEncoder(tmp_path / "v.gif", width=8, height=8, palette=PALETTE, fps=10),
    ):
        pass
    assert leftovers(tmp_path) == []


def test_gif_decodes_to_exactly_the_frames_with_delays_and_loop(tmp_path: Path) -> None:
    frames = indexed_frames(25)
    target = tmp_path / "v.gif"
    with GifEncoder(target, width=32, height=24, palette=PALETTE, fps=12, hold=1.5) as encoder:
        previous = None
        for frame in frames:
            if previous is None:
                encoder.write(frame)
            else:
                rows, cols = np.nonzero(frame != previous)
                rect = (
                    Rect(int(rows.min()), int(cols.min()), int(rows.max()) + 1, int(cols.max()) + 1)
                    if rows.size
                    else Rect(0, 0, 0, 0)
                )
                encoder.write(frame, rect)
            previous = frame
    decoded, delays, info = decode_gif(target)
    assert len(decoded) == 25
    for got, frame in zip(decoded, frames, strict=True):
        assert np.array_equal(got, PALETTE[frame])
    # 12 fps in whole centiseconds without drift: 8, 9, 8, 8, 9, 8, ...
    assert delays[:6] == [80, 90, 80, 80, 90, 80]
    assert sum(delays[:24]) == 2000
    assert delays[24] == 80 + 1500
    assert info["loop"] == 0
    assert leftovers(tmp_path) == ["v.gif"]


def test_gif_without_dirty_rectangles_writes_whole_frames(tmp_path: Path) -> None:
    frames = indexed_frames(4, seed=3)
    target = tmp_path / "v.gif"
    with GifEncoder(target, width=32, height=24, palette=PALETTE[:3], fps=5) as encoder:
        for frame in frames:
            encoder.write(frame % 3)
    decoded, delays, _ = decode_gif(target)
    assert [
        np.array_equal(d, PALETTE[:3][f % 3]) for d, f in zip(decoded, frames, strict=True)
    ] == [True] * 4
    assert delays == [200] * 4


def test_png_folder_frames_are_exact_and_numbered(tmp_path: Path) -> None:
    target = tmp_path / "frames"
    frames = [PALETTE[f] for f in indexed_frames(3)]
    with PngFolderEncoder(target) as encoder:
        for frame in frames:
            encoder.write(frame)
    assert leftovers(target) == ["frame_000000.png", "frame_000001.png", "frame_000002.png"]
    for i, frame in enumerate(frames):
        assert np.array_equal(np.asarray(Image.open(target / f"frame_{i:06d}.png")), frame)
    assert leftovers(tmp_path) == ["frames"]


def test_png_folder_replaces_an_old_folder_of_frames(tmp_path: Path) -> None:
    target = tmp_path / "frames"
    target.mkdir()
    for i in range(5):
        (target / f"frame_{i:06d}.png").write_bytes(b"old")
    with PngFolderEncoder(target) as encoder:
        encoder.write(np.zeros((4, 4, 3), np.uint8))
    assert leftovers(target) == ["frame_000000.png"]
    assert leftovers(tmp_path) == ["frames"]


def test_png_folder_refuses_a_folder_with_other_files(tmp_path: Path) -> None:
    target = tmp_path / "stuff"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    with pytest.raises(UsageError, match=r"holds files other than frames \(notes.txt"):
        PngFolderEncoder(target).__enter__()
    assert (target / "notes.txt").read_text() == "keep me"
    assert leftovers(tmp_path) == ["stuff"]


def test_write_png_is_atomic_and_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    image = PALETTE[indexed_frames(1)[0]]
    write_png(image, tmp_path / "a.png")
    assert np.array_equal(np.asarray(Image.open(tmp_path / "a.png")), image)

    def broken_replace(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_png(image, tmp_path / "b.png")
    assert leftovers(tmp_path) == ["a.png"]
