"""Dead stretches (``[video] compress_dead``): a long run of frames whose changes stay in
one small patch of the board plays fast, in about a second, its strip saying so; the other
frames keep their holds, every command numbers and times the frames alike, and the time
saved goes to the rest of a paced video."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from render_fakes import FakeView

from searchvid.errors import OptionError
from searchvid.options import build_options
from searchvid.render.deadtime import DeadFinder, DeadStretch, PacedVideo, stretches
from searchvid.render.job import RenderJob
from searchvid.render.jumppace import paced_for_jumps
from searchvid.render.pipeline import render, render_frame, timed_strips
from searchvid.render.policy import assign_frames, pace
from searchvid.render.settings import VideoOptions
from searchvid.render.timeline import timeline
from searchvid.search.events import Event, EventKind

SHAPE = (10, 10)  # 100 cells: a quiet run's patch is at most 5 of them
FPS = 12


def _change(node: tuple[int, ...], cells: list[int]) -> tuple[int, ...]:
    return tuple((tile + 1) % 6 if i in cells else tile for i, tile in enumerate(node))


def _busy(node: tuple[int, ...], k: int, count: int = 5) -> tuple[int, ...]:
    """``count`` cells changed, spread over the board (never a quiet patch for long)."""
    return _change(node, [(7 * k + 13 * j) % 100 for j in range(count)])


def _nodes(before: int, toggles: int, after: int, *, jump_at: int = -1) -> list[tuple[int, ...]]:
    """``before`` busy boards (the one at ``jump_at`` replaces 20 cells: a jump), then
    ``toggles`` boards toggling one corner cell, then ``after`` busy boards."""
    nodes = [(0,) * 100]
    for k in range(1, before + 1):
        nodes.append(_busy(nodes[-1], k, 20 if k == jump_at else 5))
    for _ in range(toggles):
        nodes.append(_change(nodes[-1], [99]))
    for k in range(after):
        nodes.append(_busy(nodes[-1], before + 1 + k))
    return nodes


def _events(nodes: list[tuple[int, ...]]) -> Iterator[Event]:
    for step, node in enumerate(nodes):
        yield Event(EventKind.ENTER, node, step % 7, step)


def _video(**options: object) -> VideoOptions:
    settings: dict[str, object] = {
        "fps": FPS,
        "tile_size": 8,
        "hold_last": 0.0,
        "opening": 0.0,
        "closing": 0.0,
        "legend": False,
    }
    return VideoOptions(**(settings | options))  # type: ignore[arg-type]


def _paced(nodes: list[tuple[int, ...]], video: VideoOptions) -> VideoOptions:
    """``video`` as a scene paces it: :func:`pace`, then the silent pass."""
    paced = pace([_events(nodes)], video)
    return paced_for_jumps(
        [lambda: _events(nodes)], lambda: FakeView(SHAPE), paced, least_every=video.every
    )


def _job(video: VideoOptions) -> RenderJob:
    return RenderJob(view=FakeView(SHAPE), video=video, title="dead")


# 10 busy frames (frame 5 a jump), 120 one-cell toggles, 10 busy frames: 141 frames. The
# quiet run starts on frame 10 (its own change comes before it) and ends on frame 130.
STREAM = _nodes(10, 120, 10, jump_at=5)
LONG = 600.0  # a duration every frame fits in: pacing keeps every = 1


def test_a_long_run_of_one_cell_toggles_plays_in_about_a_second() -> None:
    video = _paced(STREAM, _video(duration=LONG))
    assert video.every == 1
    # 121 frames at 12 fps: one in 12 kept, the first and the last among them: 11 frames
    assert stretches(video) == (DeadStretch(first=10, end=131, factor=12, shown=10),)
    frames = timeline(lambda: _events(STREAM), _job(video)).frames
    assert len(frames) == 141 - 110
    stretch = frames[10:21]
    assert sum(f.duration for f in stretch) == Fraction(11, FPS)  # at most 1 s
    # which events the video shows: the stretch's first, then every 12th back from its last
    shown = [e.step for e, f in assign_frames(_events(STREAM), video) if f is not None]
    assert shown == [*range(11), *range(22, 131, 12), *range(131, 141)]


def test_the_strip_says_fast_on_every_frame_of_the_stretch_and_only_there() -> None:
    video = _paced(STREAM, _video(duration=LONG))
    fast = [
        [f.text() for f in texts[0].fields if f.name == "fast"]
        for _, texts, _, _ in timed_strips(lambda: _events(STREAM), _job(video))
        if texts[0] is not None
    ]
    # the reader is told what is sped up and why, in words for any domain
    said = "fast \N{MULTIPLICATION SIGN}12: board barely changes"
    assert fast == [[]] * 10 + [[said]] * 11 + [[]] * 10


def test_the_other_frames_keep_their_holds() -> None:
    fast = _paced(STREAM, _video(duration=LONG))
    plain = _paced(STREAM, _video(duration=LONG, compress_dead=0))
    ticks = [int(f.duration * FPS) for f in timeline(lambda: _events(STREAM), _job(fast)).frames]
    before = [int(f.duration * FPS) for f in timeline(lambda: _events(STREAM), _job(plain)).frames]
    assert before[5] == 4  # the jump: held to 1/3 s
    assert before.count(4) == 1
    assert ticks == before[:10] + [1] * 11 + before[131:]


def test_switched_off_nothing_is_compressed() -> None:
    video = _paced(STREAM, _video(duration=LONG, compress_dead=0))
    assert stretches(video) == ()
    assert not isinstance(video, PacedVideo)
    assert len(timeline(lambda: _events(STREAM), _job(video)).frames) == 141
    # a run shorter than compress_dead seconds is not dead either: 121 frames are ~10 s
    assert stretches(_paced(STREAM, _video(duration=LONG, compress_dead=11))) == ()
    assert len(stretches(_paced(STREAM, _video(duration=LONG, compress_dead=10)))) == 1


def test_without_duration_there_is_no_silent_pass_and_nothing_is_compressed() -> None:
    video = _video()
    assert paced_for_jumps([lambda: _events(STREAM)], lambda: FakeView(SHAPE), video) is video


def test_changes_all_over_the_board_are_not_dead_however_small() -> None:
    nodes = [(0,) * 100]
    for k in range(100):  # one cell a frame, a different one each time
        nodes.append(_change(nodes[-1], [k]))
    video = _paced(nodes, _video(duration=LONG))
    assert stretches(video) == ()


def test_a_quiet_patch_is_at_most_five_percent_of_the_cells() -> None:
    finder = DeadFinder(_video(compress_dead=1))  # dead: more than 12 frames
    for frame in range(40):
        grid = np.zeros(SHAPE, dtype=np.int16)
        grid.flat[frame % 5 if frame < 20 else frame % 6] = 1  # one cell of 5, then of 6
        finder.see(grid, lively=frame == 30)  # frame 30: a new best, say
    # frames 0-22 change cells 0-4 only; frame 23 changes a sixth cell: the run ends there;
    # the runs after it (23-27, 28-29, 31-38: the last frame is never in one) are short
    assert finder.finish() == [(0, 23)]


def test_the_time_saved_goes_to_the_rest_of_the_video() -> None:
    nodes = _nodes(300, 240, 60)  # 601 frames: 50 s at every = 1; the toggles are 20 s
    duration = 33.0
    video = _video(duration=duration)
    assert pace([_events(nodes)], video).every == 2  # without the stretch it would not fit
    paced = _paced(nodes, video)
    assert paced.every == 1
    (stretch,) = stretches(paced)
    assert stretch.factor == 24
    length = timeline(lambda: _events(nodes), _job(paced)).duration
    assert abs(length - Fraction(duration)) <= Fraction(duration) / 10
    plain = _paced(nodes, _video(duration=duration, compress_dead=0))
    assert plain.every == 2


def test_preview_and_the_png_folder_agree_on_every_frame(tmp_path: Path) -> None:
    video = _paced(STREAM, _video(duration=LONG))
    render(lambda: _events(STREAM), _job(video), tmp_path / "frames")
    files = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert len(files) == 31
    for index in (9, 10, 15, 20, 21, -1):
        with Image.open(files[index]) as png:
            expected = np.asarray(png.convert("RGB"))
        frame = render_frame(lambda: _events(STREAM), _job(video), index)
        assert np.array_equal(frame, expected)


def _cue_starts(text: str) -> list[tuple[Fraction, Fraction]]:
    def seconds(stamp: str) -> Fraction:
        h, m, s = stamp.split(":")
        return int(h) * 3600 + int(m) * 60 + Fraction(s)

    pattern = r"(\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)"
    return [(seconds(a), seconds(b)) for a, b in re.findall(pattern, text)]


def test_the_captions_and_the_gif_time_the_frames_alike(tmp_path: Path) -> None:
    video = replace(_paced(STREAM, _video(duration=LONG)), captions=True)
    render(lambda: _events(STREAM), _job(video), tmp_path / "v.gif")
    render(lambda: _events(STREAM), _job(video), tmp_path / "v.vtt")
    with Image.open(tmp_path / "v.gif") as gif:
        starts, total = [], 0
        for index in range(gif.n_frames):
            gif.seek(index)
            starts.append(Fraction(total, 1000))
            total += int(gif.info["duration"])
    assert len(starts) == 31
    cues = _cue_starts((tmp_path / "v.vtt").read_text(encoding="utf-8"))
    assert cues[0][0] == 0
    for start, _ in cues:  # every cue starts on a frame of the GIF
        assert min(abs(start - s) for s in starts) <= Fraction(5, 1000)
    assert len(cues) > 10
    # the GIF rounds its delays to centiseconds: it ends within 5 ms of the last cue
    assert abs(cues[-1][1] - Fraction(total, 1000)) <= Fraction(5, 1000)
    # 31 frames and the jump's 3 extra frame durations, written to the millisecond
    assert abs(cues[-1][1] - Fraction(34, FPS)) < Fraction(1, 1000)


def test_compress_dead_is_validated_like_the_other_keys() -> None:
    assert build_options(VideoOptions, {"compress_dead": 3}).compress_dead == 3.0
    with pytest.raises(OptionError, match="compress_dead"):
        build_options(VideoOptions, {"compress_dead": -1})
    with pytest.raises(OptionError, match="unknown key"):
        build_options(VideoOptions, {"dead": []})
