"""Pacing's silent passes share one run of the search (SharedRun): the same events for every
pass, one search, a bounded memory that falls back to searching again."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any

import pytest

import searchvid
from searchvid import scene as scene_module
from searchvid.render import treereplay
from searchvid.render.sharedrun import SharedRun
from searchvid.scene import Scene
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field


class _Stream(Iterator[Event]):
    """``n`` ENTER events; it tells its fields and whether its budget ran out."""

    def __init__(self, n: int) -> None:
        self._n = n
        self.read = 0
        self.budget_spent = False

    def __next__(self) -> Event:
        if self.read >= self._n:
            self.budget_spent = True
            raise StopIteration
        self.read += 1
        return Event(EventKind.ENTER, self.read - 1, 0, self.read - 1)

    def status_of(self, event: Event) -> Sequence[Field]:
        return (Field("read", self.read),)


class _Counted:
    def __init__(self, n: int) -> None:
        self.n, self.calls = n, 0

    def __call__(self) -> _Stream:
        self.calls += 1
        return _Stream(self.n)


def _steps(events: Iterator[Event], count: int | None = None) -> list[int]:
    return [e.step for e in islice(events, count)]


def test_every_pass_reads_the_same_events_of_one_search() -> None:
    source = _Counted(30)
    run = SharedRun(source)
    assert _steps(run(), 10) == list(range(10))  # a pass cut short
    assert _steps(run()) == list(range(30))  # a longer one reads on from the live search
    again = run()
    assert _steps(again) == list(range(30))
    assert (source.calls, run.searches) == (1, 1)
    assert again.budget_spent is True  # the live search's own attributes
    assert getattr(again, "status_of", None) is None  # pacing reads no fields


def test_past_the_limit_the_pass_reads_on_live_and_later_passes_search_again() -> None:
    source = _Counted(30)
    run = SharedRun(source, limit=12)
    assert _steps(run()) == list(range(30))
    assert run.dropped
    assert run.events == []  # nothing kept
    assert source.calls == 1
    assert _steps(run()) == list(range(30))
    assert source.calls == 2


def test_a_pass_left_behind_when_the_limit_is_reached_searches_again_from_its_place() -> None:
    source = _Counted(30)
    run = SharedRun(source, limit=12)
    behind = run()
    assert _steps(behind, 5) == list(range(5))
    assert _steps(run()) == list(range(30))  # drops what was kept
    assert _steps(behind) == list(range(5, 30))
    assert source.calls == 2


def test_the_default_limit_is_the_recordings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treereplay, "RECORD_LIMIT", 3)
    run = SharedRun(_Counted(5))
    assert _steps(run()) == [0, 1, 2, 3, 4]
    assert run.dropped


PACED: dict[str, Any] = {
    "title": "paced mcts",
    "domain": {"name": "tictactoe", "position": "XOX/.O./.X."},
    "search": {"algorithm": "mcts", "mode": "plan", "iterations": 40, "opponent": "mcts"},
    "video": {"tile_size": 32, "duration": 6, "fps": 4, "max_jumps": 2, "compress_dead": 1.0},
}


def _paced(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, int]:
    """The scene's paced video and how many searches pacing started."""
    calls = 0
    events = Scene.events

    def counted(self: Scene, index: int = 0, *, framed: bool = False) -> Iterator[Event]:
        nonlocal calls
        calls += 1
        return events(self, index, framed=framed)

    with monkeypatch.context() as patch:
        patch.setattr(Scene, "events", counted)
        patch.setattr(scene_module, "_PACED", {})  # no video paced earlier in this process
        video = searchvid.scene_from_dict(PACED, name="paced").paced_video
    return video, calls


def test_pacing_searches_once_and_paces_as_searching_every_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shared, once = _paced(monkeypatch)
    monkeypatch.setattr(treereplay, "RECORD_LIMIT", 0)  # nothing kept: a search per pass
    alone, every_time = _paced(monkeypatch)
    assert shared == alone
    assert shared.every > 1  # pacing thinned the frames: the passes did count
    assert once == 1
    assert every_time > 2
