"""Stepping searches into video frames: the frame policy, the best value so far, why a
search's last frame is its last, and several searches side by side (:class:`Run`).

Every command that makes frames (render, preview, trace's frame numbers, captions, the
storyboard) steps the searches through :class:`Run`, so frame ``N`` means the same event,
and is held as long, everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

from searchvid.errors import RunError, UsageError
from searchvid.render.cards import Shown, card_of, opening_hold, race_places, strip_text
from searchvid.render.hud import HudText
from searchvid.render.job import EventSource, RenderJob
from searchvid.render.narration import Card, Ending, Narration
from searchvid.render.policy import FINAL_FRAME_LOOKAHEAD, assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from searchvid.usercode import describe_failure


def frame_holds(video: VideoOptions) -> tuple[int, int]:
    """``(move_hold, best_hold)``: the extra frame durations a committed move and a new best
    stay on screen (``hold_moves`` and ``hold_improvements`` in whole frames)."""
    move_hold = max(0, round(video.hold_moves * video.fps) - 1)
    best_hold = max(0, round(video.hold_improvements * video.fps) - 1)
    return move_hold, best_hold


def frame_hold(
    shown: Sequence[Shown], fresh: Sequence[bool], move_hold: int, best_hold: int
) -> int:
    """Extra frame durations the current frame stays on screen: a committed move or a new
    best that a column shows for the first time (``fresh``) holds it. A column that has
    ended and holds its last frame holds the video no longer: the others go on at their
    own pace."""
    hold = 0
    for item, new in zip(shown, fresh, strict=True):
        if item is not None and new:
            if item[0].kind in _PLAYED:
                hold = max(hold, move_hold)
            if item[2]:
                hold = max(hold, best_hold)
    return hold


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
_IMPROVE = EventKind.IMPROVE

StatusReader = Callable[[Event], Sequence[Field]]
"""The fields of a search's algorithm for the frame of an event."""


class Snapshotter(Protocol):
    """What takes the first search's events to snapshot its new bests."""

    def offer(self, event: Event) -> None: ...


class Painter(Protocol):
    """What :class:`Run` draws with: a :class:`FramePainter`, or :class:`_Strips`."""

    def observe(self, track: int, event: Event) -> None: ...

    def draw(
        self,
        track: int,
        event: Event,
        best: float | None,
        *,
        improving: bool = False,
        fields: Sequence[Field] = (),
        ending: Ending | None = None,
        card: Card | None = None,
        place: str | None = None,
    ) -> None: ...

    def crown(self, winners: Sequence[str]) -> None: ...


def status_reader(stream: Iterable[Event]) -> StatusReader | None:
    """How to ask ``stream`` for its algorithm's fields at an event: ``status_of(event)``
    (the fields as they were when the event was made), else ``status()`` (as they are now),
    else None."""
    status_of: StatusReader | None = getattr(stream, "status_of", None)
    if status_of is not None:
        return status_of
    status: Callable[[], Sequence[Field]] | None = getattr(stream, "status", None)
    if status is None:
        return None
    return lambda _event: status()


_T = TypeVar("_T")


def _naming(stream: Iterator[_T], index: int, count: int) -> Iterator[_T]:
    """``stream``; among several searches, a failure of one names it: ``search[1]: ...``."""
    if count == 1:
        yield from stream
        return
    try:
        yield from stream
    except Exception as error:
        if isinstance(error, UsageError):
            raise UsageError(f"search[{index}]: {error}") from error
        raise RunError(f"search[{index}]: {describe_failure(error)}") from error


class Run:
    """Steps several searches together, one selected frame each per video frame."""

    def __init__(
        self,
        sources: Sequence[EventSource],
        jobs: Sequence[RenderJob],
        painter: Painter | None,
        snapper: Snapshotter | None,
    ) -> None:
        self._sources = sources
        self._video = jobs[0].video
        self._painter = painter
        self._snapper = snapper
        self._status: list[StatusReader | None] = []
        self._opened: list[Iterable[Event]] = []
        self._titles = [job.title for job in jobs]
        self._ended: list[int | None] = [None] * len(jobs)  # the video frame each ended at
        self._frame = -1
        self.events = 0
        self.fresh: list[bool] = []  # per column: whether this frame shows a new event

    def frames(self) -> Iterator[list[Shown]]:
        """For each video frame, what every column shows (events observed on the way)."""
        opened = self._opened = [s() if callable(s) else s for s in self._sources]
        self._status = [status_reader(stream) for stream in opened]
        streams = [
            _naming(frames_with_best(stream, self._video), i, len(opened))
            for i, stream in enumerate(opened)
        ]
        shown: list[Shown] = [None] * len(streams)
        live = [True] * len(streams)
        painter = self._painter
        self.fresh = [False] * len(streams)
        while True:
            advanced = False
            for i, stream in enumerate(streams):
                self.fresh[i] = False
                if not live[i]:
                    continue
                for event, frame, best, improving, ending in stream:
                    self.events += 1
                    if painter is not None:
                        painter.observe(i, event)
                    if i == 0 and self._snapper is not None:
                        self._snapper.offer(event)
                    if frame is not None:
                        shown[i] = (event, best, improving, ending)
                        advanced = self.fresh[i] = True
                        break
                else:
                    live[i] = False
            if not advanced:
                return
            self._frame += 1
            for i, item in enumerate(shown):
                if item is not None and item[3] is not None and self._ended[i] is None:
                    self._ended[i] = self._frame
            yield shown

    def budget_spent(self) -> bool:
        """Whether a search ended because its work budget (``max_events``) ran out."""
        return any(getattr(stream, "budget_spent", False) for stream in self._opened)

    def count(self) -> int:
        """How many video frames the searches make (nothing observed or drawn)."""
        return sum(1 for _ in self.frames())

    def draw(self, shown: Sequence[Shown], card: Card | None = None) -> None:
        """Paint every column's current frame, or the opening or closing card."""
        painter = self._painter
        assert painter is not None
        places: list[str | None] = [None] * len(shown)
        if card is Card.CLOSING and len(shown) > 1:
            places, winners = race_places(shown, self._ended, self._titles)
            painter.crown(winners)
        for i, item in enumerate(shown):
            if item is not None:
                event, best, improving, ending = item
                status = self._status[i] if i < len(self._status) else None
                fields = status(event) if status is not None else ()
                painter.draw(
                    i,
                    event,
                    best,
                    improving=improving,
                    fields=fields,
                    ending=ending,
                    card=card,
                    place=places[i],
                )


_Framed = tuple[Event, int | None, float | None, bool]
"""An event, its frame (or None), the best value so far, and whether it is a new best."""


def frames_with_best(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None, float | None, bool, Ending | None]]:
    """:func:`assign_frames` plus the HUD's best value so far, whether the event's node is a
    new best, and, for the last frame of the stream, why it is the last (else None).

    To know that a frame is the last, the events after it are held back until the next frame
    or the end of the stream, at most :data:`~searchvid.render.policy.FINAL_FRAME_LOOKAHEAD`
    of them (a frame followed by more events without a frame counts as not the last). They
    are yielded in order, so observers see each event before the frames after it."""
    held: list[_Framed] = []  # a frame, then the events after it
    seen = 0
    for item in _with_best(events, video):
        seen += 1
        if held:
            if item[1] is None and len(held) <= FINAL_FRAME_LOOKAHEAD:
                held.append(item)
                continue
            yield (*held[0], None)
            yield from ((*later, None) for later in held[1:])
            held.clear()
        if item[1] is None:
            yield (*item, None)
        else:
            held.append(item)
    if held:
        yield (*held[0], _ending(events, video, held[0][1], seen))
        yield from ((*later, None) for later in held[1:])


def _ending(events: Iterable[Event], video: VideoOptions, frame: int | None, seen: int) -> Ending:
    """Why the stream's last frame, ``frame``, is the last, once ``seen`` events were read."""
    if frame is not None and frame >= video.max_frames - 1:
        return Ending.MAX_FRAMES
    if seen >= video.max_events:
        return Ending.MAX_EVENTS
    if getattr(events, "budget_spent", False):
        return Ending.BUDGET
    return Ending.COMPLETE


def _with_best(events: Iterable[Event], video: VideoOptions) -> Iterator[_Framed]:
    """:func:`assign_frames` plus the HUD's best value so far (the latest IMPROVE value) and
    whether the next event reports the event's node as a new best (a moment to hold on);
    such a frame shows that new best as the best.

    Each event is yielded once the one after it is known (one event of lookahead)."""
    best: float | None = None
    previous: tuple[Event, int | None, float | None] | None = None
    for event, frame in assign_frames(events, video):
        if previous is not None:
            if event.kind is _IMPROVE and event.node is previous[0].node:
                new = event.value if event.value is not None else previous[2]
                yield (previous[0], previous[1], new, True)
            else:
                yield (*previous, False)
        if event.kind is _IMPROVE and event.value is not None:
            best = event.value
        previous = (event, frame, best)
    if previous is not None:
        yield (*previous, False)


def normalise(
    events: EventSource | Sequence[EventSource], job: RenderJob | Sequence[RenderJob]
) -> tuple[list[EventSource], list[RenderJob]]:
    """Sources and jobs as equal-length lists (one search or several)."""
    if isinstance(job, RenderJob):
        single: EventSource = events  # type: ignore[assignment]
        return [single], [job]
    jobs = list(job)
    sources: list[EventSource] = list(events)  # type: ignore[arg-type]
    if len(sources) != len(jobs) or not jobs:
        raise ValueError("one event source per job")
    return sources, jobs


class _Strips:
    """Stands in for a :class:`FramePainter` to read the status strips' words: no pixels."""

    def __init__(self, jobs: Sequence[RenderJob]) -> None:
        self.narrations = [Narration(job.voice()) for job in jobs]
        self.texts: list[tuple[Event, HudText] | None] = [None] * len(jobs)
        self.winners: tuple[str, ...] = ()  # a race's winners, named on its closing card

    def observe(self, track: int, event: Event) -> None:
        self.narrations[track].observe(event)

    def draw(
        self,
        track: int,
        event: Event,
        best: float | None,
        *,
        improving: bool = False,
        fields: Sequence[Field] = (),
        ending: Ending | None = None,
        card: Card | None = None,
        place: str | None = None,
    ) -> None:
        narration = self.narrations[track]
        text = strip_text(narration, event, best, improving, fields, ending, card, place)
        self.texts[track] = (event, text)

    def crown(self, winners: Sequence[str]) -> None:
        self.winners = tuple(winners)


def strip_texts(
    events: EventSource | Sequence[EventSource], job: RenderJob | Sequence[RenderJob]
) -> Iterator[list[tuple[Event, HudText] | None]]:
    """For every video frame, each column's event and what its status strip says (None: a
    column with no frame yet), with nothing drawn: the events, frame policy and words of
    :func:`render`, for checking what the strips claim against the search."""
    sources, jobs = normalise(events, job)
    strips = _Strips(jobs)
    run = Run(sources, jobs, strips, None)
    for index, shown in enumerate(run.frames()):
        run.draw(shown, card_of(jobs[0].video, index, shown))
        yield list(strips.texts)


def timed_strips(
    events: EventSource | Sequence[EventSource], job: RenderJob | Sequence[RenderJob]
) -> Generator[tuple[list[Shown], list[HudText | None], int, Card | None], None, int]:
    """For every video frame of :func:`render`, with nothing drawn: what each column shows,
    what its status strip says (None: no frame yet) and the frame's hold (the extra frame
    durations :func:`render` gives the encoder; the last frame's ``hold_last`` aside, see
    :func:`~searchvid.render.cards.held_last`), and the frame's card (None: none). Returns
    the number of events read: the timing of captions (:mod:`searchvid.render.timeline`)."""
    sources, jobs = normalise(events, job)
    strips = _Strips(jobs)
    run = Run(sources, jobs, strips, None)
    video = jobs[0].video
    move_hold, best_hold = frame_holds(video)
    for index, shown in enumerate(run.frames()):
        card = card_of(video, index, shown)
        run.draw(shown, card)
        texts = [item[1] if item is not None else None for item in strips.texts]
        hold = frame_hold(shown, run.fresh, move_hold, best_hold)
        if card is Card.OPENING:
            hold = max(hold, opening_hold(video))
        yield list(shown), texts, hold, card
    return run.events
