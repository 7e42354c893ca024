"""The storyboard: which frames, scaled how, labelled with which times, written atomically."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from searchvid import scene_from_dict
from searchvid.cli import main
from searchvid.render.storyboard import (
    BACKGROUND,
    MAX_WIDTH,
    pick_frames,
    scale_frame,
    storyboard,
)
from searchvid.render.timeline import FrameTime, Phase, Timeline, clock
from searchvid.scene import Scene


def _scene(tile_size: int = 32) -> Scene:
    table: dict[str, Any] = {
        "title": "tiny",
        "seed": 0,
        "domain": {"name": "watersort", "tubes": [[1, 2, 1], [2, 1, 2], []], "capacity": 3},
        "search": {"algorithm": "breadth-first"},
        "video": {"fps": 4, "tile_size": tile_size, "hold_moves": 0.5, "hold_last": 1.0},
    }
    return scene_from_dict(table, name="tiny")


def _gif_starts(path: Path) -> list[int]:
    starts, total = [], 0
    with Image.open(path) as gif:
        for index in range(getattr(gif, "n_frames", 1)):
            gif.seek(index)
            starts.append(total)
            total += int(gif.info["duration"])
    return starts


def _line(lengths: list[int], fps: int = 10) -> Timeline:
    frames, start = [], 0
    for index, length in enumerate(lengths):
        frames.append(FrameTime(index, Fraction(start, fps), Fraction(length, fps), Phase.SEARCH))
        start += length
    return Timeline(fps=fps, frames=tuple(frames))


def test_picks_the_first_the_last_and_the_frames_at_even_times() -> None:
    line = _line([1] * 21)  # frame k starts at k/10 s; the last at 2.0 s
    assert [f.index for f in pick_frames(line, 3)] == [0, 5, 10, 15, 20]
    assert [f.index for f in pick_frames(line, 0)] == [0, 20]
    # a frame held long is on screen at several of the times: it is shown once
    held = _line([1, 30, 1, 1])  # starts 0, 0.1, 3.1, 3.2: times 0.72, 1.34, 1.96, 2.58
    assert [f.index for f in pick_frames(held, 4)] == [0, 1, 3]
    opening = _line([20, 1, 1, 1, 1, 1, 30])  # the first frame's hold is not sampled
    assert [f.index for f in pick_frames(opening, 4)] == [0, 2, 3, 4, 5, 6]
    assert [f.index for f in pick_frames(_line([5]), 10)] == [0]
    assert pick_frames(Timeline(fps=10, frames=()), 10) == []


def test_tiles_are_the_frames_scaled_and_labelled_with_their_times(tmp_path: Path) -> None:
    scene = _scene()
    scene.render(tmp_path / "v.gif")
    sheet = storyboard(
        scene.sources(), scene.render_jobs(), tmp_path / "s.png", count=4, title=scene.title
    )
    starts = _gif_starts(tmp_path / "v.gif")
    frames = len(starts)
    image = np.asarray(Image.open(tmp_path / "s.png").convert("RGB"))
    assert image.shape == (sheet.height, sheet.width, 3)
    assert sheet.frames == frames
    # the frames on screen at 4 times evenly spaced between the end of the first frame and
    # the start of the last, by the GIF's own delays
    times = [Fraction(starts[1]) + Fraction(starts[-1] - starts[1]) * k / 5 for k in (1, 2, 3, 4)]
    on_screen = [max(i for i, start in enumerate(starts) if start <= t) for t in times]
    expected = sorted({0, frames - 1, *on_screen})
    assert [tile.frame.index for tile in sheet.tiles] == expected
    assert len(expected) >= 5
    for tile in sheet.tiles:
        box = tile.box
        truth = np.asarray(scene.preview(tile.frame.index))
        assert box.right - box.left <= truth.shape[1]
        scaled = scale_frame(truth, box.right - box.left, box.bottom - box.top)
        assert np.array_equal(image[box.top : box.bottom, box.left : box.right], scaled)
        # the label: the time the GIF shows the frame at (4 fps: no rounding in doubt)
        start = Fraction(starts[tile.frame.index], 1000)
        assert tile.label.startswith(f"{clock(start)}  frame {tile.frame.index} · ")
        label = image[box.bottom : box.bottom + 30, box.left : box.right]
        assert (label != BACKGROUND).any()  # something is written under the tile


def test_a_wide_video_is_scaled_down_to_the_sheet(tmp_path: Path) -> None:
    scene = _scene(tile_size=512)  # 1,536 px wide frames: three would not fit unscaled
    sheet = storyboard(scene.sources(), scene.render_jobs(), tmp_path / "s.png", count=10)
    assert sheet.width <= MAX_WIDTH
    assert len(sheet.tiles) >= 8
    width = sheet.tiles[0].box.right - sheet.tiles[0].box.left
    assert width < 1536
    with Image.open(tmp_path / "s.png") as png:
        assert png.size == (sheet.width, sheet.height)


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    result = CliRunner().invoke(main, ["storyboard", "tree-backtracking", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.endswith(f"sheet -> {out}\n")
    assert result.output.startswith(" of 21 frames (", 2)
    bad = CliRunner().invoke(main, ["storyboard", "tree-backtracking", "-o", "x.jpg"])
    assert (bad.exit_code, bad.output) == (
        2,
        "Error: x.jpg: the storyboard is a PNG; name it SHEET.png\n",
    )


def test_an_interrupted_storyboard_leaves_nothing(tmp_path: Path) -> None:
    scene = _scene()

    def stop(frames: int) -> None:
        if frames == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        storyboard(scene.sources(), scene.render_jobs(), tmp_path / "new" / "s.png", progress=stop)
    assert list(tmp_path.iterdir()) == []


def test_the_command_is_quiet_with_quiet(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    result = CliRunner().invoke(
        main, ["storyboard", "tree-backtracking", "-o", str(out), "--quiet", "-n", "2"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("\n") == 1  # the summary line, no bar
    assert result.output.endswith(f"sheet -> {out}\n")
    assert out.is_file()


def test_a_view_that_keeps_state_gets_fresh_jobs_for_each_pass(tmp_path: Path) -> None:
    # the tree view marks the nodes it has seen: jobs read by the timing pass would draw
    # nodes not reached yet as visited
    from searchvid import load_scene

    scene = load_scene("tree-backtracking")
    sheet = storyboard(scene.sources(), scene.render_jobs, tmp_path / "s.png", count=6)
    image = np.asarray(Image.open(tmp_path / "s.png").convert("RGB"))
    for tile in sheet.tiles:
        box = tile.box
        truth = np.asarray(scene.preview(tile.frame.index))
        scaled = scale_frame(truth, box.right - box.left, box.bottom - box.top)
        assert np.array_equal(image[box.top : box.bottom, box.left : box.right], scaled)
