"""run(), feed(), BestTracker and Recorder."""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_trees import Graph, graph_value

from searchvid.domains import make_domain
from searchvid.search import (
    BestTracker,
    Event,
    EventKind,
    Observer,
    Recorder,
    feed,
    make_algorithm,
    run,
)
from searchvid.search.algorithms.backtracking import Backtracking, BacktrackingOptions


class Log(Observer):
    def __init__(self) -> None:
        self.calls: list[str] = []

    def begin(self, root: Any) -> None:
        self.calls.append(f"begin {root.label}")

    def event(self, event: Event) -> None:
        self.calls.append(event.kind.value)

    def end(self) -> None:
        self.calls.append("end")


def seed_run(*observers: Observer, limit: int | None = None) -> int:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("backtracking", {}, rng=random.Random())
    return run(algorithm, domain.root(), *observers, limit=limit)


def test_run_feeds_every_observer_between_begin_and_end() -> None:
    first, second = Log(), Log()
    count = seed_run(first, second)
    assert count == 16
    assert first.calls == second.calls
    assert first.calls[0] == "begin Root"
    assert first.calls[-1] == "end"
    assert first.calls[1:3] == ["enter", "improve"]
    assert len(first.calls) == 18


def test_run_limit_stops_early_and_still_ends() -> None:
    log = Log()
    assert seed_run(log, limit=3) == 3
    assert log.calls == ["begin Root", "enter", "improve", "enter", "end"]


def test_end_is_called_when_an_observer_raises() -> None:
    class Boom(Observer):
        def event(self, event: Event) -> None:
            if event.step == 2:
                raise RuntimeError("stop")

    log = Log()
    with pytest.raises(RuntimeError, match="stop"):
        seed_run(log, Boom())
    assert log.calls[-1] == "end"
    assert log.calls.count("end") == 1


def test_feed_replays_a_stream() -> None:
    domain = make_domain("tree", {})
    recorder = Recorder()
    seed_run(recorder)
    again = Recorder()
    assert feed(recorder.events, domain.root(), again) == 16
    assert again.events == recorder.events
    assert feed(iter(recorder.events), domain.root(), limit=0) == 0


def test_recorder_nodes_by_kind() -> None:
    domain = make_domain("tree", {})
    recorder = Recorder()
    seed_run(recorder)
    leaves = [domain.label(n) for n in recorder.nodes(EventKind.LEAF)]
    assert leaves == ["Breadth-First", "Backtracking", "Beam Search", "Monte Carlo Tree Search"]
    assert len(recorder.nodes()) == 16
    both = recorder.nodes(EventKind.ENTER, EventKind.IMPROVE)
    assert [domain.label(n) for n in both] == ["Root", "Root", "Algorithms", "Depth-First", "Other"]


def test_best_tracker_keeps_the_latest_improvement() -> None:
    graph = Graph(((1, 2), (), (3,), ()), values=(0.1, 0.7, 0.4, 0.9))
    algorithm = Backtracking(BacktrackingOptions(), rng=random.Random(), value=graph_value)
    tracker = BestTracker()
    assert run(algorithm, graph.root(), tracker) == 10
    assert tracker.events == 10
    assert tracker.best is not None
    assert (tracker.best.node.id, tracker.best.value, tracker.best.depth) == (3, 0.9, 2)
    assert tracker.best.step == 7
    # begin() resets it
    run(algorithm, Graph(((),), values=(0.2,)).root(), tracker)
    assert tracker.best is not None
    assert (tracker.best.node.id, tracker.best.value, tracker.events) == (0, 0.2, 2)
    empty = BestTracker()
    feed([], graph.root(), empty)
    assert empty.best is None
