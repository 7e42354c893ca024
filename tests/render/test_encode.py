from __future__ import annotations

import fnmatch
import itertools
import os
import signal
import stat
import struct
import subprocess
from pathlib import Path
from typing import IO, Any, NamedTuple

import imageio_ffmpeg
import numpy as np
import pytest
from browser_gif import frames_as_browsers_show, read_gif
from PIL import Image

import searchvid
from searchvid.errors import RunError, UsageError
from searchvid.render import gif
from searchvid.render.canvas import PixelFormat, Rect
from searchvid.render.encode import (
    Encoder,
    GifEncoder,
    Mp4Encoder,
    OutputKind,
    PngFolderEncoder,
    check_frame_size,
    output_kind,
    reserve_partial,
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


@pytest.mark.parametrize("suffix", [".avi", ".png", ".mkv"])
def test_other_suffixes_are_usage_errors(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"out{suffix}"
    with pytest.raises(UsageError) as info:
        output_kind(target)
    assert str(info.value) == (
        f"{target}: unsupported output '{suffix}'; allowed: .mp4, .webm, .gif, .html, .vtt "
        "(captions) or a folder"
    )


def test_reserved_temporary_names_are_hidden_unique_and_git_ignored(tmp_path: Path) -> None:
    names = {reserve_partial(tmp_path / "x.mp4").name for _ in range(20)}
    assert len(names) == 20
    for name in names:
        assert name.startswith(".x.")
        assert name.endswith(".partial.mp4")
        assert fnmatch.fnmatch(name, ".*.partial*")  # the .gitignore pattern
    folder = reserve_partial(tmp_path / "frames", folder=True)
    assert folder.is_dir()
    assert folder.name.startswith(".frames.")
    assert folder.name.endswith(".partial")


def test_a_reserved_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_bytes(b"")
    reserved = reserve_partial(tmp_path / "x.gif")
    assert stat.S_IMODE(reserved.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)


def test_temporary_names_of_long_targets_fit_the_name_limit(tmp_path: Path) -> None:
    for name in ("a" * 251 + ".mp4", "é" * 125 + ".gif", "f" * 255):
        tmp = reserve_partial(tmp_path / name, folder="." not in name)
        assert len(os.fsencode(tmp.name)) <= 255
        assert fnmatch.fnmatch(tmp.name, ".*.partial*")


@pytest.mark.parametrize(
    ("kind", "size", "allowed"),
    [
        (OutputKind.GIF, (65535, 8), True),
        (OutputKind.GIF, (65536, 8), False),
        (OutputKind.GIF, (8, 70000), False),
        (OutputKind.MP4, (16384, 16), True),
        (OutputKind.MP4, (16386, 16), False),
        (OutputKind.MP4, (16, 16386), False),
        (OutputKind.MP4, (16384, 16128), True),  # measured: the bundled ffmpeg takes it
        (OutputKind.MP4, (16384, 16130), False),  # ... and refuses this one
        (OutputKind.FOLDER, (70000, 8), True),
        (OutputKind.GIF, (0, 8), False),
    ],
)
def test_check_frame_size_knows_each_formats_limit(
    kind: OutputKind, size: tuple[int, int], allowed: bool
) -> None:
    if allowed:
        check_frame_size(kind, *size)
    else:
        with pytest.raises(UsageError):
            check_frame_size(kind, *size)


def test_a_too_wide_gif_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as info:
        GifEncoder(tmp_path / "v.gif", width=70000, height=8, palette=PALETTE, fps=10)
    assert str(info.value) == (
        "a GIF frame is at most 65,535 px wide and high (the GIF format's limit); "
        "this one is 70,000x8 px"
    )
    with pytest.raises(UsageError, match="libx264's limit"):
        Mp4Encoder(tmp_path / "v.mp4", width=20000, height=8, fps=10)
    assert leftovers(tmp_path) == []


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


def test_gif_without_dirty_rectangles_compares_whole_frames(tmp_path: Path) -> None:
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


def decode_gif_ffmpeg(path: Path, width: int, height: int) -> list[np.ndarray]:
    """Every frame of a GIF as decoded by the bundled ffmpeg (rgb24 through a pipe)."""
    command = [imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-i", str(path)]
    command += ["-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    raw = subprocess.run(command, capture_output=True, check=True).stdout
    return list(np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3))


class GifImage(NamedTuple):
    """One image of a GIF as its blocks say: the box, transparent index and disposal."""

    box: Rect
    transparent: int | None
    disposal: int


def gif_images(path: Path) -> list[GifImage]:
    """The images of a GIF, read from its blocks (graphic control, image descriptor)."""
    data = path.read_bytes()

    def skip_blocks(pos: int) -> int:
        while data[pos]:
            pos += data[pos] + 1
        return pos + 1

    flags = data[10]
    pos = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    images: list[GifImage] = []
    transparent, disposal = None, 0
    while data[pos] != 0x3B:
        if data[pos] == 0x21:  # an extension; 0xF9 is the graphic control
            if data[pos + 1] == 0xF9:
                packed = data[pos + 3]
                transparent = data[pos + 6] if packed & 1 else None
                disposal = (packed >> 2) & 7
            pos = skip_blocks(pos + 2)
            continue
        assert data[pos] == 0x2C
        left, top, width, height = struct.unpack_from("<4H", data, pos + 1)
        packed = data[pos + 9]
        pos += 10 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
        pos = skip_blocks(pos + 1)  # after the LZW code size, the data
        images.append(GifImage(Rect(top, left, top + height, left + width), transparent, disposal))
        transparent, disposal = None, 0
    return images


def changed_box(frame: np.ndarray, previous: np.ndarray) -> Rect:
    rows, cols = np.nonzero(frame != previous)
    return Rect(int(rows.min()), int(cols.min()), int(rows.max()) + 1, int(cols.max()) + 1)


def far_apart_frames(count: int, palette_size: int, seed: int = 0) -> list[np.ndarray]:
    """Noise, then frames that each change a small block at the top and a 'counter' at the
    bottom: the shape of a tile change plus the status strip's step counter."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, palette_size, (96, 128), dtype=np.uint8)
    frames = [frame.copy()]
    for i in range(1, count):
        left = int(rng.integers(0, 120))
        frame[4:8, left : left + 6] = rng.integers(0, palette_size, (4, 6))
        frame[88:92, 100:106] = i % palette_size
        frames.append(frame.copy())
    return frames


@pytest.mark.parametrize("dirty", ["union", "whole", "none"])
def test_gif_writes_only_the_changed_box_and_unchanged_pixels_as_transparent(
    tmp_path: Path, dirty: str
) -> None:
    frames = far_apart_frames(20, len(PALETTE))
    height, width = frames[0].shape
    target = tmp_path / "v.gif"
    with GifEncoder(target, width=width, height=height, palette=PALETTE, fps=10) as encoder:
        for previous, frame in zip([None, *frames], frames, strict=False):
            rect = {
                "union": None if previous is None else changed_box(frame, previous),
                "whole": Rect(0, 0, height, width),  # larger than the change: cropped
                "none": None,
            }[dirty]
            encoder.write(frame, rect)
    expected = [PALETTE[frame] for frame in frames]
    decoded, _, _ = decode_gif(target)
    assert [np.array_equal(d, e) for d, e in zip(decoded, expected, strict=True)] == [True] * 20
    by_ffmpeg = decode_gif_ffmpeg(target, width, height)
    assert [np.array_equal(d, e) for d, e in zip(by_ffmpeg, expected, strict=True)] == [True] * 20
    images = gif_images(target)
    assert images[0] == GifImage(Rect(0, 0, height, width), None, 1)
    for image, previous, frame in zip(images[1:], frames[:-1], frames[1:], strict=True):
        # The spare slot after the 5 colours is the transparent index.
        assert image == GifImage(changed_box(frame, previous), len(PALETTE), 1)
    # The band of noise between the two changes is written as transparent runs: 7.4 kB in
    # all, where writing each box as it is took 34 kB (87 kB with "whole" rectangles).
    assert target.stat().st_size < 9_000


def test_gif_with_a_full_palette_picks_a_free_transparent_index_per_frame(
    tmp_path: Path,
) -> None:
    ramp = np.arange(256, dtype=np.uint8)
    palette = np.stack([ramp, 255 - ramp, ramp // 2], axis=1)
    frames = far_apart_frames(8, 256, seed=1)
    every = np.arange(256, dtype=np.uint8).reshape(16, 16)
    for block in (every + 1, every):  # the last frame changes 256 pixels to every index
        frames.append(frames[-1].copy())
        frames[-1][20:36, 20:36] = block
    height, width = frames[0].shape
    target = tmp_path / "v.gif"
    with GifEncoder(target, width=width, height=height, palette=palette, fps=10) as encoder:
        for frame in frames:
            encoder.write(frame)
    decoded, _, _ = decode_gif(target)
    expected = [palette[frame] for frame in frames]
    assert [np.array_equal(d, e) for d, e in zip(decoded, expected, strict=True)] == [True] * 10
    by_ffmpeg = decode_gif_ffmpeg(target, width, height)
    assert [np.array_equal(d, e) for d, e in zip(by_ffmpeg, expected, strict=True)] == [True] * 10
    images = gif_images(target)
    for image, previous, frame in zip(images[1:], frames[:-1], frames[1:], strict=True):
        used = set(frame[previous != frame].tolist())
        if image.transparent is None:
            assert len(used) == 256
        else:
            assert image.transparent not in used
    assert None not in [image.transparent for image in images[1:8]]
    assert images[-1].transparent is None  # its changes use all 256 indices


def gif_check_scene(hud: bool) -> searchvid.Scene:
    """A small Railroad Ink random walk: a tile per frame, and with ``hud`` the strip."""
    return searchvid.scene_from_dict(
        {
            "title": "GIF check",
            "seed": 3,
            "domain": {"name": "railroad"},
            "search": {"algorithm": "random-walk", "restarts": 5},
            "video": {
                "fps": 24,
                "tile_size": 20,
                "max_frames": 40,
                "hud": hud,
                "hold_last": 0.5,
                "opening": 0,  # the frames at their own pace (test_cards.py holds the cards)
                "closing": 0,
            },
        },
        name="gif-check",
    )


@pytest.mark.parametrize("hud", [True, False])
def test_a_scenes_gif_decodes_to_its_png_frames(tmp_path: Path, hud: bool) -> None:
    scene = gif_check_scene(hud)
    scene.render(tmp_path / "v.gif")
    scene.render(tmp_path / "frames")
    expected = [np.asarray(Image.open(p)) for p in sorted((tmp_path / "frames").iterdir())]
    assert len(expected) == 40
    height, width = expected[0].shape[:2]
    decoded, _, _ = decode_gif(tmp_path / "v.gif")
    assert [np.array_equal(d, e) for d, e in zip(decoded, expected, strict=True)] == [True] * 40
    by_ffmpeg = decode_gif_ffmpeg(tmp_path / "v.gif", width, height)
    assert [np.array_equal(d, e) for d, e in zip(by_ffmpeg, expected, strict=True)] == [True] * 40


def test_a_gif_at_24_fps_shows_each_frames_own_strip_as_a_browser_plays_it(
    tmp_path: Path,
) -> None:
    """The strip's counters change on every frame, and every frame is one image: a browser
    shows no board under the strip of another frame, even for 2 centiseconds."""
    scene = gif_check_scene(True)
    scene.render(tmp_path / "v.gif")
    scene.render(tmp_path / "frames")
    expected = [np.asarray(Image.open(p)) for p in sorted((tmp_path / "frames").iterdir())]
    board = 9 * 20
    strips = [e[board:] for e in expected]
    # the step counter alone changes the strip on every frame
    assert all(not np.array_equal(a, b) for a, b in itertools.pairwise(strips))
    gif = read_gif(tmp_path / "v.gif")
    assert len(gif.images) == 40
    shown = [
        (np.array_equal(frame.rgb, e) and bool(frame.opaque.all()), frame.delay)
        for frame, e in zip(frames_as_browsers_show(gif), expected, strict=True)
    ]
    # 24 fps in whole centiseconds, each frame ending at its time rounded (4.17 cs a frame:
    # 4 or 5); the last frame held 0.5 s more
    ends = [round(100 * k / 24) for k in range(41)]
    delays = [b - a for a, b in itertools.pairwise(ends)]
    delays[-1] += 50
    assert set(delays[:-1]) == {4, 5}
    assert sum(delays) == 167 + 50
    assert shown == [(True, delay) for delay in delays]


@pytest.mark.parametrize("fps", [51, 60, 120])
def test_a_gif_refuses_more_frames_a_second_than_browsers_play(tmp_path: Path, fps: int) -> None:
    with pytest.raises(UsageError) as error:
        GifEncoder(tmp_path / "v.gif", width=8, height=8, palette=PALETTE, fps=fps)
    assert str(error.value) == (
        "a GIF plays at most 50 frames a second in a browser (a delay under 2 centiseconds is "
        f"played as 10); this one asks for {fps}: choose --fps 50 or less, or an MP4"
    )
    assert leftovers(tmp_path) == []


def test_a_gif_at_50_fps_plays_every_frame_for_2_centiseconds(tmp_path: Path) -> None:
    frames = indexed_frames(10, seed=5)
    target = tmp_path / "v.gif"
    with GifEncoder(target, width=32, height=24, palette=PALETTE, fps=50) as encoder:
        for frame in frames:
            encoder.write(frame)
    shown = [
        (np.array_equal(s.rgb, PALETTE[f]), s.delay)
        for s, f in zip(frames_as_browsers_show(read_gif(target)), frames, strict=True)
    ]
    assert shown == [(True, 2)] * 10


@pytest.mark.parametrize(("colours", "bits"), [(1, 2), (3, 2), (4, 3), (7, 3), (12, 4), (255, 8)])
def test_gif_lzw_codes_start_at_the_colour_tables_width(
    tmp_path: Path, colours: int, bits: int
) -> None:
    """A palette of n colours and the transparent slot after them: a colour table of the
    next power of two, and LZW codes that start one bit wider than an index of it."""
    ramp = np.arange(colours, dtype=np.uint8)
    palette = np.stack([ramp, 255 - ramp, ramp // 3], axis=1)
    rng = np.random.default_rng(colours)
    frames = [rng.integers(0, colours, (24, 32), dtype=np.uint8) for _ in range(4)]
    target = tmp_path / "v.gif"
    with GifEncoder(target, width=32, height=24, palette=palette, fps=10) as encoder:
        for frame in frames:
            encoder.write(frame)
    data = target.read_bytes()
    assert data[10] & 0x87 == 0x80 | (bits - 1)  # a global table of 2 ** bits colours
    gif = read_gif(target)
    assert [image.data[0] for image in gif.images] == [bits] * 4  # the LZW minimum code size
    shown = [
        np.array_equal(s.rgb, palette[f])
        for s, f in zip(frames_as_browsers_show(gif), frames, strict=True)
    ]
    assert shown == [True] * 4
    decoded, _, _ = decode_gif(target)
    assert [np.array_equal(d, palette[f]) for d, f in zip(decoded, frames, strict=True)] == [
        True
    ] * 4


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


def encoder_for(target: Path) -> Encoder:
    kind = output_kind(target)
    if kind is OutputKind.MP4:
        return Mp4Encoder(target, width=16, height=16, fps=10)
    if kind is OutputKind.GIF:
        return GifEncoder(target, width=16, height=16, palette=PALETTE, fps=10)
    return PngFolderEncoder(target)


def frames_for(encoder: Encoder, count: int) -> list[np.ndarray]:
    rgb = [np.full((16, 16, 3), 40 * i % 256, np.uint8) for i in range(count)]
    if encoder.pixel_format is PixelFormat.RGB24:
        return rgb
    if encoder.pixel_format is PixelFormat.PAL8:
        return [np.full((16, 16), i % len(PALETTE), np.uint8) for i in range(count)]
    return [np.concatenate([p.ravel() for p in rgb_to_yuv420(f)]) for f in rgb]


def frame_count(target: Path) -> int:
    if target.is_dir():
        return len(list(target.iterdir()))
    if target.suffix == ".gif":
        return len(decode_gif(target)[0])
    return len(decode_mp4(target)[1])


NAMES = ["v.mp4", "v.gif", "frames"]


@pytest.mark.parametrize("name", NAMES)
def test_missing_folders_are_created_and_removed_again_on_failure(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / "keep").mkdir()
    target = tmp_path / "keep" / "a" / "b" / name
    encoder = encoder_for(target)
    with pytest.raises(RuntimeError):
        write_all(encoder, frames_for(encoder, 5), RuntimeError("boom"))
    assert leftovers(tmp_path) == ["keep"]
    assert leftovers(tmp_path / "keep") == []

    encoder = encoder_for(target)
    write_all(encoder, frames_for(encoder, 2))
    assert frame_count(target) == 2
    assert leftovers(target.parent) == [name]


def test_write_png_creates_missing_folders_and_removes_them_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    image = np.zeros((4, 4, 3), np.uint8)
    write_png(image, tmp_path / "a" / "b" / "x.png")
    assert leftovers(tmp_path / "a" / "b") == ["x.png"]
    monkeypatch.setattr(os, "replace", lambda src, dst: (_ for _ in ()).throw(OSError("no")))
    with pytest.raises(OSError, match="no"):
        write_png(image, tmp_path / "c" / "d" / "x.png")
    assert leftovers(tmp_path) == ["a"]


@pytest.mark.parametrize("name", NAMES)
def test_a_251_character_target_name_works(tmp_path: Path, name: str) -> None:
    stem, dot, suffix = name.partition(".")
    target = tmp_path / (stem * 251)[: 251 - len(dot + suffix)]
    target = target.with_name(target.name + dot + suffix)
    assert len(target.name) == 251
    encoder = encoder_for(target)
    write_all(encoder, frames_for(encoder, 3))
    assert frame_count(target) == 3
    assert leftovers(tmp_path) == [target.name]


def test_an_mp4_name_with_a_colon_is_not_taken_for_a_protocol(tmp_path: Path) -> None:
    target = tmp_path / "a:b.mp4"
    encoder = encoder_for(target)
    write_all(encoder, frames_for(encoder, 2))
    assert frame_count(target) == 2


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("first", [0, 1])
def test_two_renders_to_one_target_never_mix_their_frames(
    tmp_path: Path, name: str, first: int
) -> None:
    target = tmp_path / name
    encoders = [encoder_for(target), encoder_for(target)]
    counts = (3, 5)
    for encoder in encoders:
        encoder.__enter__()
    for encoder, count in zip(encoders, counts, strict=True):
        for frame in frames_for(encoder, count):
            encoder.write(frame)
    encoders[first].__exit__(None, None, None)
    encoders[1 - first].__exit__(None, None, None)
    assert frame_count(target) == counts[1 - first]  # the last to finish wins, alone
    assert leftovers(tmp_path) == [name]


def test_a_symlinked_png_target_stays_a_link_to_its_folder(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    for i in range(5):
        (real / f"frame_{i:06d}.png").write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    frames = [PALETTE[f] for f in indexed_frames(3)]
    with PngFolderEncoder(link) as encoder:
        for frame in frames:
            encoder.write(frame)
    assert link.is_symlink()
    assert link.resolve() == real.resolve()
    assert leftovers(real) == ["frame_000000.png", "frame_000001.png", "frame_000002.png"]
    for i, frame in enumerate(frames):
        assert np.array_equal(np.asarray(Image.open(real / f"frame_{i:06d}.png")), frame)
    assert leftovers(tmp_path) == ["link", "real"]

    with pytest.raises(RuntimeError):
        write_all(PngFolderEncoder(link), [frames[0]] * 5, RuntimeError("boom"))
    assert link.is_symlink()
    assert len(leftovers(real)) == 3


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file the GIF encoder opens for writing is /dev/full: writes fail with ENOSPC."""

    def open_full(path: Path, mode: str) -> IO[bytes]:
        return open("/dev/full", mode)

    monkeypatch.setattr(gif, "open", open_full, raising=False)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("error", [None, RuntimeError("boom")])
def test_a_full_disk_is_a_run_error_and_leaves_no_gif(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException | None
) -> None:
    full_disk(monkeypatch)
    target = tmp_path / "v.gif"
    encoder = GifEncoder(target, width=16, height=16, palette=PALETTE, fps=10)
    # The frames fit the write buffer: the failure comes from the flush when the file closes,
    # which the cleanup meets again (and must not stop at).
    expected: type[BaseException] = RunError if error is None else RuntimeError
    with pytest.raises(expected) as info:
        write_all(encoder, indexed_frames(5, 16, 16), error)
    if error is None:
        assert str(info.value) == f"disk full writing {target}"
    assert leftovers(tmp_path) == []


def test_a_file_size_limit_is_a_run_error_and_leaves_no_gif(tmp_path: Path) -> None:
    resource = pytest.importorskip("resource")
    target = tmp_path / "v.gif"
    encoder = GifEncoder(target, width=200, height=200, palette=PALETTE, fps=10)
    rng = np.random.default_rng(5)  # noise that changes everywhere: about 20 kB a frame
    frames = [rng.integers(0, len(PALETTE), (200, 200), dtype=np.uint8) for _ in range(30)]
    old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, old_limit[1]))
    try:
        with pytest.raises(RunError, match=r"^file-size limit reached writing .*v\.gif \(ulimit"):
            write_all(encoder, frames)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_handler)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("name", NAMES)
def test_ctrl_c_during_the_cleanup_waits_until_it_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    encoder = encoder_for(tmp_path / name)
    cls: Any = type(encoder)
    abort = cls._abort

    def interrupted_abort(self: Any) -> None:
        signal.raise_signal(signal.SIGINT)  # a second Ctrl-C, in the middle of the cleanup
        abort(self)

    monkeypatch.setattr(cls, "_abort", interrupted_abort)
    with pytest.raises(KeyboardInterrupt):
        write_all(encoder, frames_for(encoder, 5), RuntimeError("first"))
    assert leftovers(tmp_path) == []


def test_an_ffmpeg_killed_for_the_file_size_limit_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "ffmpeg-xfsz"
    script.write_text("#!/bin/sh\nkill -XFSZ $$\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: str(script))
    out = tmp_path / "out"
    encoder = Mp4Encoder(out / "v.mp4", width=640, height=480, fps=10)
    with pytest.raises(RunError, match=r"^file-size limit reached writing .*v\.mp4 \(ulimit"):
        write_all(encoder, [np.zeros(640 * 480 * 3 // 2, np.uint8)] * 20)
    assert leftovers(tmp_path) == ["ffmpeg-xfsz"]
