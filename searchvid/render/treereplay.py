"""One search for a render with a tree panel: the layout's first pass is recorded and replayed.

A tree panel is laid out from a silent first pass over the events the video will show (see
:mod:`searchvid.render.treelayout`): every node has its place from the first frame on. The
layout needs the whole run before the first frame (the final visit counts order and choose
the drawn nodes, the number of decisions is in the header, the kinds of event in the legend),
so the first pass cannot be shortened to a look-ahead without changing the pictures.

Instead of running the seeded search a second time for the video, :func:`first_pass` keeps
what it read: the events, in stream order, and for each event that becomes a frame the
algorithm's status fields as the stream reports them for it (``status_of``, which the status
strip shows). :func:`open_source` then hands the render that recording, once, in place of a
fresh search: a :class:`Replay` yields the recorded events, dropping each as it goes, and
reads on from the same live search if the render wants more. The frames are those of a
second run, pixel for pixel (the search is seeded, so both runs make the same events).

**Memory.** A recording holds the events (a tuple each, with the node it names) and one
status per frame. It is bounded: once a first pass has read more than ``limit`` events
(:data:`RECORD_LIMIT` by default) the recording is dropped and the pass goes on without
keeping anything; the render then runs the search afresh, as before. Streams that report
their fields only as they are *now* (``status()`` without ``status_of``) are not recorded
either: a replay could not tell what they would say at the moment a frame is drawn.
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event
from searchvid.search.status import Field

__all__ = ["RECORD_LIMIT", "Recording", "Replay", "first_pass", "open_source", "pending"]

RECORD_LIMIT = 500_000
"""Most events a first pass records; past it the render runs the search again. Railroad
Ink's MCTS scene (51,821 events, boards as nodes) records in about 10 MB, so the bound
keeps a recording near 100 MB for streams of that kind."""

Source = Callable[[], Iterable[Event]]
"""A replayable event source: a function that starts the seeded search afresh."""

_StatusOf = Callable[[Event], Sequence[Field]]


class Recording:
    """What a first pass read: its events in order, the live stream it read them from, and
    the status fields of the events that became frames.

    Attributes:
        events: The events read, oldest first.
        statuses: ``(event, fields)`` for each event that became a frame, in stream order.
        stream: The stream the events were read from, positioned after the last of them.
    """

    def __init__(self, stream: Iterator[Event]) -> None:
        self.events: deque[Event] = deque()
        self.statuses: deque[tuple[Event, Sequence[Field]]] = deque()
        self.stream = stream


class Replay(Iterator[Event]):
    """A recorded stream played back, then read on live: it answers like the stream it
    stands for (attributes such as ``budget_spent`` or ``work_kinds`` are the live
    stream's). Each event is dropped from the recording as it is yielded, so memory falls
    as the render goes on.
    """

    def __init__(self, recording: Recording) -> None:
        self._events = recording.events
        self._stream = recording.stream

    def __next__(self) -> Event:
        if self._events:
            return self._events.popleft()
        return next(self._stream)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # not the stream's: no recursion before __init__ ran
            raise AttributeError(name)
        return getattr(self._stream, name)


class _StatusReplay(Replay):
    """A :class:`Replay` of a stream that tells its fields per event (``status_of``)."""

    def __init__(self, recording: Recording, live: _StatusOf) -> None:
        super().__init__(recording)
        self._statuses = recording.statuses
        self._live = live

    def status_of(self, event: Event) -> Sequence[Field]:
        """The fields recorded for ``event``'s frame; for an event read after the recording
        ended, the live stream's answer. Frames are drawn in order, so the fields recorded
        for earlier frames are dropped on the way."""
        statuses = self._statuses
        if any(entry[0] is event for entry in statuses):
            while statuses[0][0] is not event:
                statuses.popleft()
            return statuses[0][1]
        return self._live(event)


class _Tap(Iterator[Event]):
    """Reads ``stream`` and keeps every event, until more than ``limit`` were read."""

    def __init__(self, recording: Recording, limit: int) -> None:
        self.recording: Recording | None = recording
        self._stream = recording.stream
        self._limit = limit

    def __next__(self) -> Event:
        event = next(self._stream)
        recording = self.recording
        if recording is not None:
            if len(recording.events) < self._limit:
                recording.events.append(event)
            else:  # too long to keep: the render will run the search again
                recording.events.clear()
                recording.statuses.clear()
                self.recording = None
        return event


_PENDING: weakref.WeakKeyDictionary[Source, deque[Recording]] = weakref.WeakKeyDictionary()
"""Recordings waiting for the render of their source (each is claimed once)."""


def first_pass(source: Source, video: VideoOptions, *, limit: int | None = None) -> Iterator[Event]:
    """The events of a silent first pass over ``source``, cut where the video is (as the
    render cuts them), recorded for :func:`open_source` once read to the end.

    Args:
        source: Starts the seeded search.
        video: The video's options: its frame policy and cut.
        limit: Most events recorded (None: :data:`RECORD_LIMIT`); a longer pass is read
            without being kept.
    """
    stream = source()
    status_of: _StatusOf | None = getattr(stream, "status_of", None)
    live_only = status_of is None and getattr(stream, "status", None) is not None
    if live_only or not _weakly_keyed(source):
        yield from (event for event, _ in assign_frames(stream, video))
        return
    recording = Recording(iter(stream))
    tap = _Tap(recording, RECORD_LIMIT if limit is None else limit)
    statuses = recording.statuses
    for event, frame in assign_frames(tap, video):
        if frame is not None and status_of is not None and tap.recording is not None:
            statuses.append((event, status_of(event)))  # as the strip would ask for it
        yield event
    if tap.recording is not None:
        _PENDING.setdefault(source, deque()).append(recording)


def open_source(source: Source | Iterable[Event]) -> Iterable[Event]:
    """``source``'s stream for a render: the recording of its first pass where one waits
    (claimed: the next call starts afresh), else a fresh stream; a stream as it is."""
    if not callable(source):
        return source
    waiting = _PENDING.get(source) if _weakly_keyed(source) else None
    if waiting:
        recording = waiting.popleft()
        if not waiting:
            del _PENDING[source]
        live: _StatusOf | None = getattr(recording.stream, "status_of", None)
        return Replay(recording) if live is None else _StatusReplay(recording, live)
    return source()


def pending(source: Source) -> int:
    """How many recordings of ``source`` wait to be replayed."""
    waiting = _PENDING.get(source) if _weakly_keyed(source) else None
    return len(waiting) if waiting else 0


def _weakly_keyed(source: object) -> bool:
    """Whether ``source`` can key :data:`_PENDING` (functions and partials can)."""
    try:
        weakref.ref(source)
    except TypeError:
        return False
    return True
