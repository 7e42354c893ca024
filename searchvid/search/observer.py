"""Observers of the event stream, and :func:`run`, the seed's ``TreeSearch.run``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from searchvid.search.events import Event, EventKind


class Observer:
    """Receives the events of a search. Every hook does nothing by default.

    ``begin`` and ``end`` come in a pair around the events of one run; ``end`` is called
    even when the run stops early (an observer raising, ``limit`` reached).
    """

    def begin(self, root: Any) -> None:
        """Called once before the first event."""

    def event(self, event: Event) -> None:
        """Called for every event, in order."""

    def end(self) -> None:
        """Called once after the last event."""


class Traversal(Protocol):
    """Anything with ``traverse(root) -> Iterator[Event]``: every algorithm."""

    def traverse(self, root: Any) -> Iterator[Event]: ...


def run(algorithm: Traversal, root: Any, *observers: Observer, limit: int | None = None) -> int:
    """Run ``algorithm`` from ``root``, feeding every event to every observer.

    Args:
        algorithm: The search to run.
        root: The node to start from.
        *observers: Receive ``begin``, each event, then ``end``.
        limit: Stop after this many events (None: run to the end).

    Returns:
        The number of events emitted.
    """
    return feed(algorithm.traverse(root), root, *observers, limit=limit)


def feed(events: Iterable[Event], root: Any, *observers: Observer, limit: int | None = None) -> int:
    """Feed an existing event stream to observers; see :func:`run`."""
    for observer in observers:
        observer.begin(root)
    count = 0
    try:
        for event in events:
            if limit is not None and count >= limit:
                break
            for observer in observers:
                observer.event(event)
            count += 1
    finally:
        for observer in observers:
            observer.end()
    return count


@dataclass(frozen=True, slots=True)
class Best:
    """The best node found so far."""

    node: Any
    value: float
    depth: int
    step: int


class BestTracker(Observer):
    """Keeps the node of the latest ``IMPROVE`` event, and counts events."""

    def __init__(self) -> None:
        self.best: Best | None = None
        self.events = 0

    def begin(self, root: Any) -> None:
        self.best = None
        self.events = 0

    def event(self, event: Event) -> None:
        self.events += 1
        if event.kind is EventKind.IMPROVE and event.value is not None:
            self.best = Best(event.node, event.value, event.depth, event.step)


class Recorder(Observer):
    """Keeps every event in a list (for tests and short traces)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def event(self, event: Event) -> None:
        self.events.append(event)

    def nodes(self, *kinds: EventKind) -> list[Any]:
        """The nodes of the recorded events, of the given kinds (all when none given)."""
        return [e.node for e in self.events if not kinds or e.kind in kinds]
