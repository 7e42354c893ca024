"""One search for several silent passes: pacing reads the same seeded search up to five times.

Pacing a video (``[video] duration``) counts its frames in a silent pass
(:func:`~searchvid.render.policy.pace`), then measures its held jumps and dead stretches in up
to four more (:func:`~searchvid.render.jumppace.paced_for_jumps`), each over the whole seeded
search. A :class:`SharedRun` runs the search once: every pass reads the events the first one
read from memory, and the first to read further pulls them from the one live search.

The passes count frames and holds; none reads the algorithm's status fields, so the streams a
:class:`SharedRun` hands out answer no ``status`` or ``status_of`` (anything else, such as
``budget_spent`` or ``work_kinds``, is the live stream's).

**Memory.** The events are kept until the :class:`SharedRun` is dropped (pacing drops it when
it is done, before the render starts). Past ``limit`` events
(:data:`~searchvid.render.treereplay.RECORD_LIMIT` by default) nothing more is kept: the
pass that went past it reads on from the live search, and later passes run the search
afresh, as without sharing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from searchvid.render import treereplay
from searchvid.search.events import Event

__all__ = ["SharedRun"]

_NOT_SHARED = frozenset({"status", "status_of"})


class SharedRun:
    """A replayable event source that starts its search once and keeps what was read.

    Args:
        source: Starts the seeded search (each call the same events).
        limit: Most events kept (None: :data:`~searchvid.render.treereplay.RECORD_LIMIT`).

    Attributes:
        searches: How many times ``source`` was called.
    """

    def __init__(self, source: Callable[[], Iterable[Event]], *, limit: int | None = None) -> None:
        self._source = source
        self._limit = treereplay.RECORD_LIMIT if limit is None else limit
        self.events: list[Event] = []
        """The events kept, from the first."""
        self._live: Iterator[Event] | None = None
        self._ended = False
        self._dropped = False
        self.searches = 0
        self.position = 0
        """Events read from the live search so far."""

    def __call__(self) -> Iterator[Event]:
        """A stream of the search's events from the first: kept ones first, then live."""
        if self._dropped:  # too long to keep: each pass searches afresh
            self.searches += 1
            return iter(self._source())
        return _Reader(self)

    def live(self) -> Iterator[Event]:
        """The one live search (started on first use)."""
        if self._live is None:
            self.searches += 1
            self._live = iter(self._source())
        return self._live

    def pull(self) -> Event | None:
        """The next event of the live search, kept (None: the search has ended, or it ran
        past the limit: then nothing is kept any more and :attr:`dropped` is set)."""
        if self._ended or self._dropped:
            return None
        if len(self.events) >= self._limit:
            self.events.clear()
            self._dropped = True
            return None
        try:
            event = next(self.live())
        except StopIteration:
            self._ended = True
            return None
        self.events.append(event)
        self.position += 1
        return event

    def read_on(self, start: int) -> Iterator[Event]:
        """The search's events from number ``start`` on, once nothing is kept: the live
        search where it stands there, else a fresh one read silently up to it."""
        if start == self.position:
            return self.live()
        self.searches += 1
        return islice(iter(self._source()), start, None)

    @property
    def dropped(self) -> bool:
        """Whether the kept events were dropped for running past the limit."""
        return self._dropped


class _Reader(Iterator[Event]):
    """One pass over a :class:`SharedRun`: the kept events, then the live search's."""

    def __init__(self, run: SharedRun) -> None:
        self._run = run
        self._next = 0
        self._tail: Iterator[Event] | None = None  # the live search, once past the limit

    def __next__(self) -> Event:
        if self._tail is not None:
            return next(self._tail)
        run = self._run
        if not run.dropped:
            if self._next < len(run.events):
                event = run.events[self._next]
                self._next += 1
                return event
            pulled = run.pull()
            if pulled is not None:
                self._next += 1
                return pulled
            if not run.dropped:
                raise StopIteration
        self._tail = run.read_on(self._next)
        return next(self._tail)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in _NOT_SHARED:
            raise AttributeError(name)
        return getattr(self._run.live(), name)
