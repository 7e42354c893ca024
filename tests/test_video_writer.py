"""VideoWriter on a par with a scene: every, duration, max_frames, captions, status fields,
the algorithm's name, a tree panel from ids and parents, and a last frame that says "done"."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image

import searchvid
from searchvid.errors import UsageError, UserCodeError
from searchvid.render import pipeline
from searchvid.render import shots as stored
from searchvid.render.hud import HudText
from searchvid.render.stepping import strip_texts
from searchvid.search.events import Event, EventKind

ROOT = Path(__file__).resolve().parent.parent
BITS = 8


def counter_view() -> searchvid.GridView:
    """A row of BITS cells showing an observation's number in binary: 256 distinct boards."""
    return searchvid.GridView(
        (1, BITS),
        colors={0: "#f4efe1", 1: "#1f3b73"},
        cells=lambda n: [[(n >> (BITS - 1 - i)) & 1 for i in range(BITS)]],
    )


def frames_of(folder: Path) -> list[np.ndarray]:
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(folder.glob("frame_*.png"))]


def shown_numbers(folder: Path, tile: int) -> list[int]:
    """The number each PNG frame's board shows, read from its cells' centres."""
    numbers = []
    for frame in frames_of(folder):
        bits = [int(frame[tile // 2, tile * i + tile // 2].sum() < 300) for i in range(BITS)]
        numbers.append(int("".join(map(str, bits)), 2))
    return numbers


def film(out: Path, count: int, **settings: Any) -> searchvid.RenderResult:
    """Observations 0 .. count-1 (each showing its own number) through a writer."""
    settings = {"tile_size": 8, "hud": False, **settings}
    with searchvid.VideoWriter(out, counter_view(), **settings) as video:
        for n in range(count):
            video.observe(n, depth=n % 5)
    assert video.result is not None
    assert video.observed == count
    return video.result


class Captured:
    """The events and job a writer hands the render (the strip's words are read from them
    with :func:`strip_texts`, as a scene's are)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, Any]] = []

    def texts(self) -> list[tuple[Event, HudText]]:
        (source, job), *_ = self.calls
        found = []
        for columns in strip_texts(source, job):
            item = columns[0]
            assert item is not None
            found.append(item)
        return found

    def events(self) -> list[Event]:
        (source, _job), *_ = self.calls
        return list(source())


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> Captured:
    seen = Captured()
    real = pipeline.render

    def render(events: Any, job: Any, output: Path, **kwargs: Any) -> Any:
        seen.calls.append((events, job))
        return real(events, job, output, **kwargs)

    monkeypatch.setattr(pipeline, "render", render)
    return seen


# --- every, max_frames, duration ---------------------------------------------------------------


@pytest.mark.parametrize(("count", "every"), [(10, 3), (11, 3), (7, 1), (9, 4)])
def test_every_keeps_every_kth_observation_and_the_last(
    tmp_path: Path, count: int, every: int
) -> None:
    result = film(tmp_path / "f", count, every=every)
    wanted = sorted({*range(0, count, every), count - 1})
    assert shown_numbers(tmp_path / "f", 8) == wanted
    assert result.frames == len(wanted)


def test_every_thinned_frames_equal_those_frames_unthinned(tmp_path: Path) -> None:
    film(tmp_path / "all", 11, hud=True, title="t")
    film(tmp_path / "thin", 11, hud=True, title="t", every=3)
    everything = frames_of(tmp_path / "all")
    thinned = frames_of(tmp_path / "thin")
    assert [k for k, f in enumerate(everything) if any(np.array_equal(f, t) for t in thinned)] == [
        0,
        3,
        6,
        9,
        10,
    ]


@pytest.mark.parametrize(("count", "limit"), [(100, 10), (101, 10), (1000, 2), (50, 60)])
def test_max_frames_thins_to_fit_never_cuts(tmp_path: Path, count: int, limit: int) -> None:
    result = film(tmp_path / "f", count, max_frames=limit)
    every = next(k for k in range(1, count + 1) if len(kept_by(count, k)) <= limit)
    assert shown_numbers(tmp_path / "f", 8) == [n % 256 for n in kept_by(count, every)]
    assert result.frames == len(kept_by(count, every)) <= limit


def kept_by(count: int, every: int) -> list[int]:
    """The observations ``every`` keeps: every k-th from the first, and the last."""
    return sorted({*range(0, count, every), count - 1})


def test_duration_fits_within_a_tenth_and_keeps_the_last_frame(tmp_path: Path) -> None:
    count, fps, duration = 600, 10, 12.0
    result = film(tmp_path / "f.mp4", count, fps=fps, duration=duration, hold_last=1.0)
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(tmp_path / "f.mp4"))
    assert frames == result.encoded_frames
    assert abs(frames / fps - duration) <= duration / 10
    film(tmp_path / "png", count, fps=fps, duration=duration, hold_last=1.0)
    numbers = shown_numbers(tmp_path / "png", 8)
    assert numbers[-1] == (count - 1) % 256
    assert numbers[0] == 0


def test_new_bests_are_kept_when_paced(tmp_path: Path) -> None:
    view = counter_view()
    with searchvid.VideoWriter(tmp_path / "f", view, tile_size=8, duration=2, fps=5) as video:
        for n in range(200):
            video.observe(n, value=1.0 if n == 77 else 0.0)  # one new best, at 77
    assert 77 in shown_numbers(tmp_path / "f", 8)
    assert video.result is not None
    assert video.result.frames < 20


def test_memory_is_bounded_by_dropping_boards_off_a_doubling_stride(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stored, "GRID_BUDGET", 100 * BITS * 2)  # 100 distinct boards
    with searchvid.VideoWriter(tmp_path / "f", counter_view(), tile_size=8, hud=False) as video:
        for n in range(1000):
            video.observe(n % 256)
            shots = video._shots
            assert shots.kept_bytes <= stored.GRID_BUDGET
    assert shots.stride == 16
    kept = [i for i, data in enumerate(shots.grids) if data is not None]
    assert kept == [*range(0, 1000, 16), 999]
    assert video.result is not None
    numbers = shown_numbers(tmp_path / "f", 8)
    assert numbers == [n % 256 for n in kept]  # every frame shows its own board


def test_a_paced_video_past_the_budget_thins_by_the_stride(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stored, "GRID_BUDGET", 100 * BITS * 2)
    with searchvid.VideoWriter(
        tmp_path / "f", counter_view(), tile_size=8, hud=False, duration=3, fps=10
    ) as video:
        for n in range(1000):
            video.observe(n % 256)
    stride = video._shots.stride
    assert stride == 16
    shown = shown_numbers(tmp_path / "f", 8)
    # thinned by a multiple of the stride (each frame has its own board), the last kept
    thinnings = [
        k for k in range(stride, 1001, stride) if shown == [n % 256 for n in kept_by(1000, k)]
    ]
    assert len(thinnings) == 1
    assert len(shown) < 20  # paced: 3 s at 10 fps, 2 s of them the last frame's hold


# --- the strip: algorithm, caption, status, "done" ---------------------------------------------


def test_caption_status_and_algorithm_reach_the_strip(tmp_path: Path, captured: Captured) -> None:
    with searchvid.VideoWriter(
        tmp_path / "f", counter_view(), tile_size=8, title="mine", algorithm="hill climbing"
    ) as video:
        video.observe(0, caption="the   start", status={"queens": 0})
        video.observe(1, depth=1, value=0.5, status={"queens": 1, "left": "a few"})
        video.observe(2, depth=2, value=0.25, caption="one more")
    texts = [text for _, text in captured.texts()]
    assert [t.title for t in texts] == ["mine"] * 3
    assert [t.phase for t in texts] == ["hill climbing searching"] * 2 + ["done"]
    assert [t.caption for t in texts] == ["the start", "depth 1; new best: 0.5", "one more"]
    assert [f.text() for f in texts[0].fields] == [
        "step 0",
        "depth 0",
        "queens 0",
        "value: none yet",
        "best: none yet",
    ]
    assert [f.text() for f in texts[1].fields][2:4] == ["queens 1", "left a few"]
    assert [f.text() for f in texts[2].fields][-2:] == ["value 0.25", "best 0.5"]


def test_the_last_frame_says_done_not_searching(tmp_path: Path, captured: Captured) -> None:
    film(tmp_path / "f", 9, hud=True, every=4, algorithm="backtracking")
    phases = [text.phase for _, text in captured.texts()]
    assert phases == ["backtracking searching"] * 2 + ["done"]


def test_no_caption_line_without_captions(tmp_path: Path, captured: Captured) -> None:
    film(tmp_path / "f", 3, hud=True)
    assert [text.caption for _, text in captured.texts()] == [None] * 3


def test_the_caption_line_is_drawn(tmp_path: Path) -> None:
    """Frames whose only difference is their caption differ in the strip, not the board."""
    for name, caption in (("a", "left"), ("b", "right")):
        with searchvid.VideoWriter(tmp_path / name, counter_view(), tile_size=40) as video:
            video.observe(5, caption=caption)
    (one,), (other,) = frames_of(tmp_path / "a"), frames_of(tmp_path / "b")
    rows = np.flatnonzero((one != other).any(axis=(1, 2)))
    assert rows.size
    assert rows.min() > 40


# --- the tree panel ------------------------------------------------------------------------------

TREE = {"R": None, "A": "R", "A1": "A", "A2": "A", "B": "R", "B1": "B"}
"""A node and its parent, in the order a depth-first walk first meets them."""

WALK = ["R", "A", "A1", "A", "A2", "A", "R", "B", "B1"]


def test_parents_build_the_tree_panel(tmp_path: Path, captured: Captured) -> None:
    view = counter_view()
    names = sorted(TREE)
    with searchvid.VideoWriter(tmp_path / "f", view, tile_size=40, tree=True) as video:
        for name in WALK:
            video.observe(names.index(name), id=name, parent=TREE[name], depth=len(name) - 1)
    ids = {name: k for k, name in enumerate(TREE)}  # tree ids count in order of appearance
    events = captured.events()
    assert [(e.kind, e.id, e.parent) for e in events] == [
        (
            EventKind.BACKTRACK if WALK.index(name) < k else EventKind.ENTER,
            ids[name],
            None if TREE[name] is None else ids[TREE[name]],
        )
        for k, name in enumerate(WALK)
    ]
    (source, job), *_ = captured.calls
    panel = job.panel(400, 400, list(source()))
    centres = {name: panel.centre(ids[name]) for name in TREE}  # (row, column) px
    assert all(c is not None for c in centres.values())
    for name, parent in TREE.items():
        if parent is not None:
            assert centres[name][0] > centres[parent][0]  # children below their parent
    assert centres["A1"][1] < centres["A2"][1] < centres["B1"][1]  # in the order met
    assert centres["A"][1] < centres["B"][1]
    frame = frames_of(tmp_path / "f")[0]
    assert frame.shape[1] >= BITS * 40 + 400  # the panel beside the board


def test_tree_ids_default_to_the_node(tmp_path: Path, captured: Captured) -> None:
    with searchvid.VideoWriter(tmp_path / "f", counter_view(), tile_size=8, tree=True) as video:
        video.observe(1)
        video.observe(2, parent=1)
        video.observe(1)
    assert [(e.kind, e.id, e.parent) for e in captured.events()] == [
        (EventKind.ENTER, 0, None),
        (EventKind.ENTER, 1, 0),
        (EventKind.BACKTRACK, 0, None),
    ]


def loop(out: Path, body: Callable[[searchvid.VideoWriter], None], **settings: Any) -> None:
    """Runs ``body`` inside ``with VideoWriter(out, ...) as video`` (small boards)."""
    with searchvid.VideoWriter(out, counter_view(), tile_size=8, **settings) as video:
        body(video)


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"every": 0}, "VideoWriter: every: "),
        ({"duration": -1}, "VideoWriter: duration: "),
        ({"max_frames": 1}, r"VideoWriter: max_frames: must be an integer >= 2"),
        ({"tree": "yes"}, "VideoWriter: tree: "),
        ({"algorithm": 3}, "VideoWriter: algorithm: must be a string, got 3"),
    ],
)
def test_bad_settings_name_the_setting(
    tmp_path: Path, settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(UsageError, match=message) as raised:
        searchvid.VideoWriter(tmp_path / "x.gif", counter_view(), **settings)
    assert "\n" not in str(raised.value)


def test_a_view_that_is_not_one_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as raised:
        searchvid.VideoWriter(tmp_path / "x.gif", object())  # type: ignore[arg-type]
    assert str(raised.value) == (
        "VideoWriter: view must be a view (tileset, shape and grid(node)), got object without "
        "tileset, shape, grid"
    )


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"depth": -1}, "observe(): depth must be an integer >= 0 or None, got -1"),
        ({"value": math.inf}, "observe(): value must be a finite number or None, got inf"),
        ({"caption": 3}, "observe(): caption must be a string or None, got 3"),
        ({"status": [1]}, "observe(): status must be a mapping of names to values"),
        ({"status": {"q": [1]}}, "observe(): status['q'] must be a number, a string, None"),
        ({"parent": "nobody"}, "observe(): parent 'nobody' was never observed"),
        ({"id": [1]}, "observe(): the tree names a node by a hashable id; the id is list"),
    ],
)
def test_bad_observations_name_the_keyword(
    tmp_path: Path, keywords: dict[str, Any], message: str
) -> None:
    def body(video: searchvid.VideoWriter) -> None:
        first: dict[str, Any] = {"id": "root"} if "parent" in keywords else {}
        video.observe(0, **first)
        video.observe(1, **keywords)

    with pytest.raises(ValueError, match=re.escape(message)):
        loop(tmp_path / "x.gif", body)
    assert list(tmp_path.iterdir()) == []


def test_a_second_root_in_a_tree_is_refused(tmp_path: Path) -> None:
    message = "observe(): parent: only the first node (the root) has parent None"

    def body(video: searchvid.VideoWriter) -> None:
        video.observe(0)
        video.observe(1)

    with pytest.raises(ValueError, match=re.escape(message)):
        loop(tmp_path / "x.gif", body, tree=True)
    assert list(tmp_path.iterdir()) == []


def test_a_failing_view_names_the_users_line(tmp_path: Path) -> None:
    def cells(n: int) -> list[list[int]]:
        return [[1 // (3 - n) % 2] * BITS]  # fails on 3

    view = searchvid.GridView((1, BITS), colors={0: "#ffffff", 1: "#000000"}, cells=cells)

    def run() -> None:
        with searchvid.VideoWriter(tmp_path / "x.gif", view, tile_size=8) as video:
            for n in range(5):
                video.observe(n)

    with pytest.raises(UserCodeError) as raised:
        run()
    assert "ZeroDivisionError" in str(raised.value)
    assert "test_video_writer.py:" in str(raised.value)
    assert "cells" in str(raised.value)
    assert "\n" not in str(raised.value)
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_loop_leaves_no_file(tmp_path: Path) -> None:
    video = searchvid.VideoWriter(tmp_path / "x.mp4", counter_view(), tile_size=8)

    def interrupted() -> None:
        with video:
            video.observe(0)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert list(tmp_path.iterdir()) == []
    assert video.result is None


# --- the README's own loop -------------------------------------------------------------------

OWN_LOOP_START = "<!-- own-loop: start -->"
OWN_LOOP_END = "<!-- own-loop: end -->"


def test_the_readme_own_loop_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    body = readme[readme.index(OWN_LOOP_START) : readme.index(OWN_LOOP_END)]
    (example,) = re.findall(r"```python\n(.*?)```", body, flags=re.DOTALL)
    assert "every=" in example
    assert "caption=" in example
    monkeypatch.chdir(tmp_path)
    names: dict[str, Any] = {"__name__": "readme"}
    exec(compile(example, "README.md (Your own loop)", "exec"), names)
    video = names["video"]
    observed, every = video.observed, 2
    wanted = -(-observed // every) + ((observed - 1) % every != 0)
    assert video.result.frames == wanted
    with Image.open(tmp_path / "queens.gif") as image:
        assert image.n_frames == wanted
