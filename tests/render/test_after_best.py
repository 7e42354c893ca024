"""``[video] after_best``: the frame that first shows the best a search ends with stays
``after_best`` seconds, and the stretches after it, which find nothing better, play fast
whatever they change on the board, their strip saying so (``fast \N{MULTIPLICATION SIGN}4:
no better found``)."""

from __future__ import annotations

import numpy as np
import pytest

from searchvid.errors import OptionError
from searchvid.options import build_options
from searchvid.render.deadtime import (
    FAST_REASON,
    SETTLED_REASON,
    DeadFinder,
    PacedVideo,
    fast_field,
    final_best_hold,
    planned,
)
from searchvid.render.settings import VideoOptions
from searchvid.scene import load_scene

FPS = 10


def _video(**options: object) -> VideoOptions:
    settings: dict[str, object] = {"fps": FPS, "compress_dead": 1.0, "after_best": 2.0}
    return VideoOptions(**(settings | options))  # type: ignore[arg-type]


def _busy(k: int) -> np.ndarray:
    """A board unlike the one before it in many cells (never quiet for long)."""
    grid = np.zeros((10, 10), dtype=np.int16)
    grid.flat[(7 * k) % 100 : (7 * k) % 100 + 30] = 1 + k % 5
    return grid


def _see_all(finder: DeadFinder, improving_at: set[int], held_at: set[int], frames: int) -> None:
    for frame in range(frames):
        lively = frame in improving_at or frame in held_at or frame == frames - 1
        finder.see(_busy(frame), lively, frame in improving_at)


def test_busy_frames_after_the_final_best_are_a_settled_run() -> None:
    # bests at 2 and 5; a held frame (a jump) at 20 splits what follows; the last is 39
    finder = DeadFinder(_video(), settle=True)
    _see_all(finder, {2, 5}, {20}, 40)
    assert finder.finish() == [(6, 20), (21, 39)]
    assert finder.final_best == 5


def test_without_settle_busy_frames_are_never_dead() -> None:
    finder = DeadFinder(_video())
    _see_all(finder, {2, 5}, {20}, 40)
    assert finder.finish() == []
    assert finder.final_best is None


def test_a_run_before_the_final_best_is_not_settled() -> None:
    # busy frames 3..29 lie before the last best (30): only the short run after it remains,
    # too short to compress (compress_dead 1 s = 10 frames)
    finder = DeadFinder(_video(), settle=True)
    _see_all(finder, {2, 30}, set(), 40)
    assert finder.finish() == []
    assert finder.final_best == 30


def test_planned_marks_settled_stretches_and_places_the_final_best() -> None:
    video = _video()
    paced = planned(video, [(6, 20), (21, 39)], final_best=5)
    # 14 frames in about 0.5 s at 10 fps: 1 in 5 kept (6, 9, 14, 19), 10 dropped
    assert [(s.first, s.end, s.factor, s.shown, s.reason) for s in paced.dead] == [
        (6, 20, 5, 6, SETTLED_REASON),
        (21, 39, 6, 11, SETTLED_REASON),
    ]
    assert paced.final_best == 5
    # a stretch before the best keeps its own reason and shifts the best's video index
    mixed = planned(video, [(1, 14), (21, 39)], final_best=15)
    assert [s.reason for s in mixed.dead] == [FAST_REASON, SETTLED_REASON]
    assert mixed.final_best == 15 - mixed.dead[0].dropped


def test_final_best_hold_only_on_its_frame() -> None:
    paced = planned(_video(), [], final_best=7)
    assert isinstance(paced, PacedVideo)
    assert [final_best_hold(paced, i) for i in (6, 7, 8)] == [0, 19, 0]  # 2 s at 10 fps
    assert final_best_hold(_video(), 7) == 0  # not paced: no hold


def test_settled_strip_says_why() -> None:
    paced = planned(_video(), [(6, 20)], final_best=5)
    field = fast_field(paced, 6)
    assert field is not None
    assert field.text() == "fast \N{MULTIPLICATION SIGN}5: no better found"


def test_after_best_is_a_checked_scene_key() -> None:
    assert build_options(VideoOptions, {"after_best": 1.5}).after_best == 1.5
    assert build_options(VideoOptions, {}).after_best == 0.0  # off unless a scene asks
    with pytest.raises(OptionError, match="after_best"):
        build_options(VideoOptions, {"after_best": -1})


def test_railroad_random_holds_walk_three_and_plays_the_rest_fast() -> None:
    """The shipped scene: walk 3 joins all 12 exits on frame 137, held 1.5 s; each of the
    nine walks after it plays fast, saying so; the video still ends complete."""
    scene = load_scene("railroad-random")
    video = scene.paced_video
    assert isinstance(video, PacedVideo)
    assert video.every == 1  # every tile of the walks up to the best
    assert video.final_best == 137
    assert final_best_hold(video, 137) == 44  # 1.5 s at 30 fps, one frame of it its own
    assert len(video.dead) == 9
    assert {s.reason for s in video.dead} == {SETTLED_REASON}
    assert all(s.first > 137 for s in video.dead)
    texts = list(scene.strip_texts())
    assert len(texts) == 259
    best = texts[137][0]
    assert best is not None
    assert [f.text() for f in best[1].fields][-2:] == [
        "this position: all 12 exits joined",
        "best: all 12 exits joined",
    ]
    fast = texts[172][0]
    assert fast is not None
    assert [f.text() for f in fast[1].fields][:4] == [
        "step 273",
        "depth 17",
        "fast \N{MULTIPLICATION SIGN}4: no better found",
        "walk 6/12",
    ]
    assert scene.run()["ended"] == "complete"
