"""The HTML player's file: self-contained, frame-exact data, atomic, small."""

from __future__ import annotations

import base64
import io
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from render_fakes import FakeView, tileset, walk

from searchvid.errors import RunError, UsageError
from searchvid.render.atlas import TileAtlas
from searchvid.render.canvas import Rect
from searchvid.render.encode import (
    HTML_MAX_SIDE,
    OutputKind,
    check_frame_size,
    open_encoder,
    output_kind,
)
from searchvid.render.html import DATA_ELEMENT_ID, Annotates, HtmlEncoder
from searchvid.render.pipeline import RenderJob, render
from searchvid.render.settings import VideoOptions
from searchvid.render.writer import VideoWriter

PALETTE = np.array([(0, 0, 0), (255, 0, 0), (0, 200, 0), (20, 40, 250), (250, 250, 250)], np.uint8)
H, W = 40, 48
STRIP = 32  # rows from here down are the "status strip"


def player_data(path: Path) -> dict[str, Any]:
    """The JSON the page embeds, parsed back."""
    text = path.read_text("utf-8")
    found = re.findall(
        rf'<script type="application/json" id="{DATA_ELEMENT_ID}">(.*?)</script>', text, re.S
    )
    assert len(found) == 1
    data: dict[str, Any] = json.loads(found[0])
    return data


def apply(canvas: np.ndarray, record: dict[str, Any]) -> None:
    """Draw a frame record's patches over ``canvas`` (RGB), as the page does."""
    for x, y, w, h, png in record["patches"]:
        with Image.open(io.BytesIO(base64.b64decode(png))) as image:
            assert image.format == "PNG"
            assert image.size == (w, h)
            canvas[y : y + h, x : x + w] = np.asarray(image.convert("RGB"))


def seek(data: dict[str, Any], k: int) -> np.ndarray:
    """Frame ``k`` rebuilt like the player's seek: from the nearest keyframe at or before it,
    over a canvas of garbage (so a keyframe that is not whole would show)."""
    frames = data["frames"]
    start = max(i for i in range(k + 1) if frames[i]["key"])
    canvas = np.full((data["height"], data["width"], 3), 123, np.uint8)
    for record in frames[start : k + 1]:
        apply(canvas, record)
    return canvas


def played(data: dict[str, Any]) -> Iterator[np.ndarray]:
    """Every frame in order, each drawn over the one before (the player's playback)."""
    canvas = np.full((data["height"], data["width"], 3), 7, np.uint8)
    for record in data["frames"]:
        apply(canvas, record)
        yield canvas.copy()


def changing_frames(count: int, seed: int = 0) -> Iterator[tuple[np.ndarray, Rect | None]]:
    """PAL8 frames with the changed rectangle: mostly a 4x4 block on the board plus a counter
    in the strip far below it, sometimes nothing, sometimes everything."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, len(PALETTE), (H, W), dtype=np.uint8)
    yield frame.copy(), None
    for i in range(1, count):
        if i % 9 == 4:
            yield frame.copy(), Rect(0, 0, 0, 0)  # unchanged
            continue
        if i % 13 == 6:
            frame[:] = rng.integers(0, len(PALETTE), (H, W), dtype=np.uint8)
            yield frame.copy(), None
            continue
        top, left = int(rng.integers(0, STRIP - 12)), int(rng.integers(0, W - 4))
        frame[top : top + 4, left : left + 4] = rng.integers(0, len(PALETTE))
        frame[STRIP + 2 : STRIP + 6, 4 * (i % 8) : 4 * (i % 8) + 4] = i % len(PALETTE)
        yield frame.copy(), Rect(top, 0, H, W)


def encode(path: Path, frames: list[tuple[np.ndarray, Rect | None]], **kw: Any) -> HtmlEncoder:
    options: dict[str, Any] = {"palette": PALETTE, "fps": 10, "keyframe_interval": 5} | kw
    encoder = HtmlEncoder(path, width=W, height=H, **options)
    with encoder:
        for i, (frame, dirty) in enumerate(frames):
            encoder.annotate({"step": 10 * i, "kind": "enter", "label": f"node {i}"})
            encoder.write(frame, dirty, hold=2 if i == 3 else 0)
    return encoder


def test_html_is_the_output_kind_of_dot_html(tmp_path: Path) -> None:
    assert output_kind(tmp_path / "x.html") is OutputKind.HTML
    assert output_kind(tmp_path / "x.HTML") is OutputKind.HTML
    allowed = r"allowed: \.mp4, \.webm, \.gif, \.html, \.vtt \(captions\) or a folder"
    with pytest.raises(UsageError, match=allowed):
        output_kind(tmp_path / "x.htm")


def test_html_frames_are_at_most_a_canvas_side(tmp_path: Path) -> None:
    check_frame_size(OutputKind.HTML, HTML_MAX_SIDE, HTML_MAX_SIDE)
    for size in ((HTML_MAX_SIDE + 1, 8), (8, HTML_MAX_SIDE + 1)):
        with pytest.raises(UsageError, match="at most 16,384 px"):
            check_frame_size(OutputKind.HTML, *size)
    with pytest.raises(UsageError, match="browser canvas"):
        HtmlEncoder(tmp_path / "x.html", width=20000, height=8, palette=PALETTE, fps=10)
    assert list(tmp_path.iterdir()) == []


def test_open_encoder_gives_the_player_its_title_fps_and_hold(tmp_path: Path) -> None:
    video = VideoOptions(fps=7, hold_last=1.5)
    encoder = open_encoder(
        tmp_path / "x.html", width=W, height=H, video=video, palette=PALETTE, title="A & B"
    )
    assert isinstance(encoder, HtmlEncoder)
    assert isinstance(encoder, Annotates)
    with encoder:
        encoder.write(np.zeros((H, W), np.uint8))
    data = player_data(tmp_path / "x.html")
    assert (data["title"], data["fps"], data["hold_last"]) == ("A & B", 7, 1.5)
    assert "<title>A &amp; B</title>" in (tmp_path / "x.html").read_text("utf-8")


def test_the_page_is_one_self_contained_file(tmp_path: Path) -> None:
    encode(tmp_path / "x.html", list(changing_frames(12)), title="Water Sort")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.html"]
    text = (tmp_path / "x.html").read_text("utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert text.rstrip().endswith("</html>")
    assert re.search(r"\b(?:https?|ftp|wss?|file):", text, re.I) is None  # no address
    outside = r"<link|<iframe|<img|<object|@import|url\(|\s(?:src|href)="
    assert re.search(outside, text, re.I) is None
    assert "<canvas" in text
    for label in ("Play", "Previous frame", "Next frame", "First frame", "Last frame", "Frame"):
        assert f'aria-label="{label}"' in text


def test_every_frame_is_rebuilt_exactly_from_its_keyframe(tmp_path: Path) -> None:
    frames = list(changing_frames(40))
    encoder = encode(tmp_path / "x.html", frames)
    data = player_data(tmp_path / "x.html")
    assert data["format"] == "searchvid-player"
    assert (data["width"], data["height"], data["count"]) == (W, H, 40)
    assert encoder.encoded_frames == len(data["frames"]) == 40
    for k, (frame, _) in enumerate(frames):
        assert np.array_equal(seek(data, k), PALETTE[frame]), k
    for k, got in enumerate(played(data)):
        assert np.array_equal(got, PALETTE[frames[k][0]]), k


def test_keyframes_are_whole_and_deltas_are_only_what_changed(tmp_path: Path) -> None:
    frames = list(changing_frames(40))
    encode(tmp_path / "x.html", frames)
    records = player_data(tmp_path / "x.html")["frames"]
    keys = [i for i, r in enumerate(records) if r["key"]]
    assert keys[0] == 0
    assert all(b - a <= 5 for a, b in zip(keys, [*keys[1:], len(records)], strict=True))
    for i in keys:
        assert [p[:4] for p in records[i]["patches"]] == [[0, 0, W, H]]
    assert records[4]["patches"] == []  # an unchanged frame costs nothing
    assert records[6]["key"]  # all pixels changed: stored whole, the chain starts again
    deltas = [r for r in records if not r["key"] and r["patches"]]
    assert deltas
    for record in deltas:
        assert sum(w * h for _, _, w, h, _ in record["patches"]) < W * H / 2
    # The block on the board and the counter in the strip are two patches, not one tall one.
    assert any(len(r["patches"]) == 2 for r in deltas)


def test_patches_carry_only_their_own_colours(tmp_path: Path) -> None:
    frame = np.zeros((H, W), np.uint8)
    with HtmlEncoder(tmp_path / "x.html", width=W, height=H, palette=PALETTE, fps=5) as enc:
        enc.write(frame)
        frame[4:8, 4:8] = 3
        enc.write(frame)
    patch = player_data(tmp_path / "x.html")["frames"][1]["patches"][0]
    assert patch[:4] == [4, 4, 4, 4]
    with Image.open(io.BytesIO(base64.b64decode(patch[4]))) as image:
        assert image.mode == "P"
        assert image.getpalette() == [20, 40, 250]


def test_holds_and_details_are_kept_per_frame(tmp_path: Path) -> None:
    frames = list(changing_frames(6))
    encode(tmp_path / "x.html", frames, hold_last=2.5)
    data = player_data(tmp_path / "x.html")
    assert data["hold_last"] == 2.5
    assert [r.get("hold", 0) for r in data["frames"]] == [0, 0, 0, 2, 0, 0]
    assert data["frames"][5]["meta"] == {"step": 50, "kind": "enter", "label": "node 5"}


def test_details_that_json_cannot_hold_are_text_and_cannot_end_the_script(
    tmp_path: Path,
) -> None:
    target = tmp_path / "x.html"
    with HtmlEncoder(target, width=W, height=H, palette=PALETTE, fps=5) as enc:
        enc.annotate({"label": "</script><b>x</b>", "value": math.inf, "depth": np.int64(3)})
        enc.write(np.zeros((H, W), np.uint8))
        enc.write(np.zeros((H, W), np.uint8))  # not annotated: no details
        enc.annotate({"value": math.nan, "caption": "pour 3 → 7", "at": Path("a")})
        enc.write(np.zeros((H, W), np.uint8))
    text = target.read_text("utf-8")
    assert text.count("</script>") == 2  # the data's and the player's
    records = player_data(target)["frames"]
    assert records[0]["meta"] == {"label": "</script><b>x</b>", "value": "inf", "depth": 3}
    assert "meta" not in records[1]
    assert records[2]["meta"] == {"value": "nan", "caption": "pour 3 → 7", "at": "a"}


def test_the_file_appears_only_on_success(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "x.html"
    encoder = HtmlEncoder(target, width=W, height=H, palette=PALETTE, fps=5)
    with encoder:
        encoder.write(np.zeros((H, W), np.uint8))
        names = [p.name for p in target.parent.iterdir()]
        assert len(names) == 1
        assert names[0].startswith(".x.")
        assert names[0].endswith(".partial.html")
        assert not target.exists()
    assert [p.name for p in target.parent.iterdir()] == ["x.html"]


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_an_exception_leaves_nothing(tmp_path: Path, error: BaseException) -> None:
    target = tmp_path / "new" / "x.html"

    def interrupted() -> None:
        with HtmlEncoder(target, width=W, height=H, palette=PALETTE, fps=5) as encoder:
            for frame, dirty in changing_frames(10):
                encoder.write(frame, dirty)
            raise error

    with pytest.raises(type(error)):
        interrupted()
    assert list(tmp_path.iterdir()) == []  # nor the folder made for it


def test_no_frames_is_an_error_and_leaves_nothing(tmp_path: Path) -> None:
    with (
        pytest.raises(RunError, match="no frames"),
        HtmlEncoder(tmp_path / "x.html", width=W, height=H, palette=PALETTE, fps=5),
    ):
        pass
    assert list(tmp_path.iterdir()) == []


def test_bad_frames_are_refused(tmp_path: Path) -> None:
    with (
        pytest.raises(ValueError, match="palette index 7"),
        HtmlEncoder(tmp_path / "x.html", width=W, height=H, palette=PALETTE, fps=5) as enc,
    ):
        enc.write(np.full((H, W), 7, np.uint8))
    with (
        pytest.raises(ValueError, match="shape"),
        HtmlEncoder(tmp_path / "x.html", width=W, height=H, palette=PALETTE, fps=5) as enc,
    ):
        enc.write(np.zeros((H, W + 1), np.uint8))
    assert list(tmp_path.iterdir()) == []


def test_a_thousand_frames_of_a_900_by_962_board_stay_a_few_megabytes(tmp_path: Path) -> None:
    atlas = TileAtlas(tileset(7), 100)
    rng = np.random.default_rng(5)
    grid = rng.integers(0, 7, (9, 9))
    frame = np.zeros((962, 900), np.uint8)
    for r in range(9):
        for c in range(9):
            frame[100 * r : 100 * r + 100, 100 * c : 100 * c + 100] = atlas.indexed[grid[r, c]]
    target = tmp_path / "board.html"
    with HtmlEncoder(target, width=900, height=962, palette=atlas.palette, fps=24) as encoder:
        for i in range(1000):
            r, c = (int(v) for v in rng.integers(0, 9, 2))
            frame[100 * r : 100 * r + 100, 100 * c : 100 * c + 100] = atlas.indexed[i % 7]
            digits = f"{i:04d}"  # a step counter in the strip
            for d, digit in enumerate(digits):
                frame[920:940, 700 + 12 * d : 710 + 12 * d] = int(digit) % len(atlas.palette)
            encoder.write(frame, Rect(100 * r, 0, 962, 900))
    size = target.stat().st_size
    assert size < 1_000_000, size  # 0.42 MB measured (Railroad Ink's art: 1.2 MB)
    data = player_data(target)
    assert np.array_equal(seek(data, 999), atlas.palette[frame])


SHAPE = (3, 4)
TILE = 16
NO_CARDS = {"opening": 0, "closing": 0}  # the frames and holds as the search makes them


def job(**video: object) -> RenderJob:
    options = {
        "tile_size": TILE,
        "fps": 10,
        "max_frames": 40,
        "hold_last": 0.5,
        **NO_CARDS,
        **video,
    }
    return RenderJob(FakeView(SHAPE), VideoOptions(**options), "walk · fake")  # type: ignore[arg-type]


def test_a_render_to_html_holds_exactly_the_png_folder_frames(tmp_path: Path) -> None:
    render(walk(200, SHAPE), job(), tmp_path / "frames")
    result = render(walk(200, SHAPE), job(), tmp_path / "v.html")
    assert result.frames == result.encoded_frames == 40
    data = player_data(tmp_path / "v.html")
    assert (data["count"], data["hold_last"]) == (40, 0.5)
    for k, got in enumerate(played(data)):
        with Image.open(tmp_path / "frames" / f"frame_{k:06d}.png") as png:
            assert np.array_equal(got, np.asarray(png)), k
    for k in (0, 17, 39):
        with Image.open(tmp_path / "frames" / f"frame_{k:06d}.png") as png:
            assert np.array_equal(seek(data, k), np.asarray(png)), k


def test_a_video_writer_writes_a_player(tmp_path: Path) -> None:
    with VideoWriter(tmp_path / "w.html", FakeView((1, 2)), tile_size=8, title="t") as video:
        for node in ((0, 1), (1, 1), (1, 2)):
            video.observe(node)
    assert video.result is not None
    assert player_data(tmp_path / "w.html")["count"] == 3
