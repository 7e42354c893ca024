"""Jumps (``[video] max_jumps``): a frame whose board replaces more than 15 % of its tiles is
held to 1/max_jumps seconds, alike in the timeline (captions, storyboard) and the encoder,
and ``duration`` still holds with such holds."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from PIL import Image
from render_fakes import FakeView

from searchvid.render.job import RenderJob
from searchvid.render.jumppace import paced_for_jumps
from searchvid.render.jumps import jump_hold
from searchvid.render.pipeline import render
from searchvid.render.policy import pace
from searchvid.render.settings import VideoOptions
from searchvid.render.timeline import timeline
from searchvid.search.events import Event, EventKind

SHAPE = (4, 5)  # 20 tiles: a change of 4 or more (over 15 %) is a jump, 3 is not


def _changed(node: tuple[int, ...], cells: range) -> tuple[int, ...]:
    return tuple((tile + 1) % 6 if i in cells else tile for i, tile in enumerate(node))


def _nodes() -> list[tuple[int, ...]]:
    """Boards changing 1, 3 (no jump), 4 (a jump), 20 (a jump) and 1 tiles."""
    nodes = [(0,) * 20]
    for cells in (range(1), range(3), range(4), range(20), range(1)):
        nodes.append(_changed(nodes[-1], cells))
    return nodes


def _events(nodes: list[tuple[int, ...]]) -> Iterator[Event]:
    for step, node in enumerate(nodes):
        yield Event(EventKind.ENTER, node, step, step)


def _job(**video: object) -> RenderJob:
    options = VideoOptions(fps=12, tile_size=8, hud=False, hold_last=0.0, **video)  # type: ignore[arg-type]
    return RenderJob(view=FakeView(SHAPE), video=options, title="jumps")


@pytest.mark.parametrize(
    ("fps", "jumps", "hold"),
    [(12, 3.0, 3), (6, 3.0, 1), (5, 3.0, 1), (24, 2.0, 11), (12, 12.0, 0), (12, 0.0, 0)],
)
def test_a_jump_stays_one_over_max_jumps_seconds_in_whole_frames(
    fps: int, jumps: float, hold: int
) -> None:
    assert jump_hold(VideoOptions(fps=fps, max_jumps=jumps)) == hold


def test_frames_that_replace_over_15_percent_of_the_tiles_are_held() -> None:
    nodes = _nodes()
    frames = timeline(lambda: _events(nodes), _job()).frames
    assert [f.duration * 12 for f in frames] == [1, 1, 1, 4, 4, 1]
    plain = timeline(lambda: _events(nodes), _job(max_jumps=0)).frames
    assert [f.duration * 12 for f in plain] == [1] * 6


def test_the_gif_holds_the_jumps_as_the_timeline_times_them(tmp_path: Path) -> None:
    nodes = _nodes()
    job = _job()
    render(lambda: _events(nodes), job, tmp_path / "v.gif")
    times = timeline(lambda: _events(nodes), job).frames
    with Image.open(tmp_path / "v.gif") as gif:
        starts, total = [], 0
        for index in range(gif.n_frames):
            gif.seek(index)
            starts.append(total)
            total += int(gif.info["duration"])
    assert len(starts) == len(times)
    for start, frame in zip(starts, times, strict=True):
        assert abs(Fraction(start, 1000) - frame.start) <= Fraction(5, 1000)


def test_pacing_thins_more_so_that_held_jumps_keep_the_duration() -> None:
    # 200 frames, each replacing every tile: each one a jump held 4 frame durations
    nodes = [tuple([k % 6] * 20) for k in range(200)]
    job = _job(duration=10.0)
    paced = pace([_events(nodes)], job.video)
    over = timeline(lambda: _events(nodes), RenderJob(job.view, paced, "j")).duration
    assert over > 10  # pacing alone counts frames, not their jumps
    fitted = paced_for_jumps([lambda: _events(nodes)], lambda: FakeView(SHAPE), paced)
    assert fitted.every > paced.every
    kept = timeline(lambda: _events(nodes), RenderJob(FakeView(SHAPE), fitted, "j")).duration
    assert 8 <= kept <= 10
    unheld = VideoOptions(fps=12, hud=False, duration=10.0, max_jumps=0)
    assert paced_for_jumps([lambda: _events(nodes)], lambda: FakeView(SHAPE), unheld) is unheld
