"""The tree panel's first pass is recorded and replayed: one search per render, the same
frames as a render that searches twice, and a bounded recording that falls back to a re-run."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

import searchvid
from searchvid.render import treereplay
from searchvid.render.settings import VideoOptions
from searchvid.render.treereplay import Replay, first_pass, open_source, pending
from searchvid.scene import Scene
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

MCTS_PANEL: dict[str, Any] = {
    "title": "mcts with its tree",
    "domain": {"name": "tictactoe", "position": "XOX/.O./.X."},
    "search": {"algorithm": "mcts", "mode": "plan", "iterations": 30, "opponent": "mcts"},
    "video": {
        "tile_size": 32,
        "tree": True,
        "tree_width": 400,
        "tree_height": 300,
        "hold_last": 0,
        "hold_moves": 0,
        "every": 3,
        "max_frames": 40,
    },
}


class _Stream(Iterator[Event]):
    """A search's stream of ``n`` ENTER events whose fields name how many events were read
    when they are asked for (the live state ``status_of`` falls back to)."""

    def __init__(self, n: int, *, per_event: bool = True) -> None:
        self._n = n
        self.read = 0
        if not per_event:  # only "as it is now"
            self.status_of = None  # type: ignore[assignment]

    def __next__(self) -> Event:
        if self.read >= self._n:
            raise StopIteration
        self.read += 1
        i = self.read - 1
        return Event(EventKind.ENTER, f"n{i}", 0, i, None, i, i - 1 if i else None)

    def status(self) -> Sequence[Field]:
        return (Field("read", self.read),)

    def status_of(self, event: Event) -> Sequence[Field]:
        return (Field("read", self.read),)


class _Counted:
    """A replayable source of ``_Stream(n)`` that counts the searches it starts."""

    def __init__(self, n: int, *, per_event: bool = True) -> None:
        self.n, self.per_event, self.calls = n, per_event, 0

    def __call__(self) -> _Stream:
        self.calls += 1
        return _Stream(self.n, per_event=self.per_event)


def _video(**changes: Any) -> VideoOptions:
    return dataclasses.replace(VideoOptions(), **changes)


def test_a_first_pass_is_replayed_once_then_read_on_live() -> None:
    source = _Counted(50)
    video = _video(max_frames=10)  # the first pass stops at the 10th frame: event 9
    laid_out = list(first_pass(source, video))
    assert [e.step for e in laid_out] == list(range(10))
    assert pending(source) == 1
    replay = open_source(source)
    assert isinstance(replay, Replay)
    # the recorded events, the very same objects, then the same search read on
    events = list(replay)
    assert events[:10] == laid_out
    assert all(a is b for a, b in zip(events, laid_out, strict=False))
    assert [e.step for e in events] == list(range(50))
    assert source.calls == 1
    assert pending(source) == 0
    fresh = open_source(source)  # claimed: the next caller searches afresh
    assert not isinstance(fresh, Replay)
    assert source.calls == 2


def test_the_fields_of_each_frame_are_those_of_the_first_pass() -> None:
    source = _Counted(30)
    video = _video(every=4)  # frames: events 0, 4, 8, ... and the last, 29
    list(first_pass(source, video))
    replay = open_source(source)
    assert callable(getattr(replay, "status_of", None))
    events = list(replay)
    # asked when the first pass made the frame (one event read), not now (30 read)
    assert [replay.status_of(events[k]) for k in (0, 4, 8)] == [(Field("read", 1),)] + [
        (Field("read", k + 1),) for k in (4, 8)
    ]
    assert replay.status_of(events[29]) == (Field("read", 30),)
    # an event the first pass made no frame of: the live stream's answer
    assert replay.status_of(events[5]) == (Field("read", 30),)
    assert replay.read == 30  # anything else is the live stream's


def test_a_pass_longer_than_the_limit_is_not_kept_and_the_render_searches_again() -> None:
    source = _Counted(40)
    laid_out = list(first_pass(source, _video(), limit=39))
    assert len(laid_out) == 40  # the layout still sees every event
    assert pending(source) == 0
    again = open_source(source)
    assert not isinstance(again, Replay)
    assert [e.step for e in again] == list(range(40))
    assert source.calls == 2


def test_a_pass_within_the_limit_is_kept() -> None:
    source = _Counted(40)
    list(first_pass(source, _video(), limit=40))
    assert pending(source) == 1


def test_streams_that_only_tell_their_fields_now_are_searched_again() -> None:
    source = _Counted(20, per_event=False)
    list(first_pass(source, _video()))
    assert pending(source) == 0
    assert not isinstance(open_source(source), Replay)


def test_plain_event_streams_are_replayed_without_fields() -> None:
    def events() -> Iterator[Event]:
        yield from _Stream(5)

    list(first_pass(events, _video()))
    replay = open_source(events)
    assert isinstance(replay, Replay)
    assert getattr(replay, "status_of", None) is None  # nothing to read fields from
    assert [e.step for e in replay] == [0, 1, 2, 3, 4]


def _frames(folder: Path) -> list[np.ndarray]:
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(folder.glob("frame_*.png"))]


def _render_counting(
    scene: Scene, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[np.ndarray], int]:
    """The scene's frames and how many times its event source was started."""
    calls = 0
    events = Scene.events

    def counted(self: Scene, index: int = 0, *, framed: bool = False) -> Iterator[Event]:
        nonlocal calls
        calls += 1
        return events(self, index, framed=framed)

    with monkeypatch.context() as patch:
        patch.setattr(Scene, "events", counted)
        scene.render(folder)
    return _frames(folder), calls


def test_a_panel_render_searches_once_and_draws_the_frames_of_a_second_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = searchvid.scene_from_dict(MCTS_PANEL, name="mcts-panel")
    recorded, once = _render_counting(scene, tmp_path / "recorded", monkeypatch)
    monkeypatch.setattr(treereplay, "RECORD_LIMIT", 0)  # nothing kept: a second search
    searched, twice = _render_counting(scene, tmp_path / "searched", monkeypatch)
    assert (once, twice) == (1, 2)
    assert len(recorded) == len(searched) > 20
    for k, (a, b) in enumerate(zip(recorded, searched, strict=True)):
        assert np.array_equal(a, b), f"frame {k}"
