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
from searchvid.render.cards import (
    BestFrames,
    Shown,
    card_of,
    opening_hold,
    race_fields,
    race_places,
    solo_work,
    strip_text,
    work_field,
)
from searchvid.render.deadtime import fast_field, final_best_hold
from searchvid.render.hud import HudText
from searchvid.render.job import EventSource, RenderJob
from searchvid.render.jumps import Jumps, frame_hold, frame_holds
from searchvid.render.narration import Narration
from searchvid.render.policy import FINAL_FRAME_LOOKAHEAD, assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.treereplay import open_source
from searchvid.render.voice import BestShown, Card, Ending, in_race
from searchvid.search.algorithm import Algorithm
from searchvid.search.events import Event, EventKind
from searchvid.search.frontierview import StatusFields, frontier_of
from searchvid.search.status import Field
from searchvid.usercode import describe_failure

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


_Item = tuple[Event, int | None, float | None, bool, Ending | None]
"""An event as :func:`frames_with_best` yields it."""

_DEFAULT_WORK_KINDS = Algorithm.work_kinds
_DEFAULT_WORK_UNIT = Algorithm.work_unit


def work_of(stream: object) -> tuple[frozenset[EventKind], tuple[str, str]]:
    """The kinds of event that count a step of ``stream``'s work in a race, and the step's
    name (singular, plural): the stream's own ``work_kinds`` and ``work_unit`` (a scene's
    traversals answer their algorithm's), else a node expanded (``ENTER``/``LEAF``)."""
    kinds: frozenset[EventKind] = getattr(stream, "work_kinds", _DEFAULT_WORK_KINDS)
    unit: tuple[str, str] = getattr(stream, "work_unit", _DEFAULT_WORK_UNIT)
    return kinds, unit


class _Lane:
    """One search of a race, read one frame ahead of the frame it shows, so that the work
    its next frame has done is known before it is shown; what was read ahead is observed
    only when the lane moves on, so observers never run ahead of the drawing.

    Attributes:
        key: The work done by the next frame (the steps counted in the events up to and
            including its event; for the search's last frame, in the whole stream), None
            when there is no next frame.
        cost: The steps of work in the whole stream, once read to its end (None before).
    """

    def __init__(self, stream: Iterator[_Item], kinds: frozenset[EventKind]) -> None:
        self._stream = stream
        self._kinds = kinds
        self._work = 0
        self.ahead: list[_Item] = []  # read, not observed: up to the next frame (included)
        self.after: list[_Item] = []  # read after the last frame, not observed yet
        self.key: int | None = None
        self.cost: int | None = None
        self._read_ahead()

    def _read_ahead(self) -> None:
        kinds, ahead = self._kinds, self.ahead
        last = False
        for item in self._stream:
            if item[0].kind in kinds:
                self._work += 1
            if last:
                self.after.append(item)
                continue
            ahead.append(item)
            if item[1] is not None:
                if item[4] is None:
                    self.key = self._work
                    return
                last = True  # the last frame: its work is the whole stream's
        self.cost = self._work
        self.key = self._work if last else None
        if not last:  # events after the last frame shown (or a stream without frames)
            self.after.extend(ahead)
            ahead.clear()

    def advance(self) -> list[_Item]:
        """The events up to the next frame (its event last), and read on past it."""
        taken = self.ahead
        self.ahead = []
        self.key = None
        if self.cost is None:
            self._read_ahead()
        return taken


class Run:
    """Steps several searches together into video frames.

    One search moves one selected frame per video frame. Several (a race) move by work:
    each video frame advances every search whose next frame has done the least work (in
    :func:`work_of`'s steps) and holds the others, so that from the second frame on each
    column shows its latest frame whose work is at most that of the frame just taken (the
    first video frame shows every search's first frame). A search's last frame counts the
    work of its whole stream; one that has ended holds it.
    """

    def __init__(
        self,
        sources: Sequence[EventSource],
        jobs: Sequence[RenderJob],
        painter: Painter | None,
        snapper: Snapshotter | None,
    ) -> None:
        self._sources = sources
        self._jobs = jobs
        self._video = jobs[0].video
        self._painter = painter
        self._snapper = snapper
        self._status: list[StatusReader | None] = []
        self._opened: list[Iterable[Event]] = []
        self._titles = [job.title for job in jobs]
        self._ended: list[int | None] = [None] * len(jobs)  # the video frame each ended at
        self._bests = BestFrames(len(jobs))  # each search's best, for its closing card
        self._frame = -1
        self.events = 0
        self.fresh: list[bool] = []  # per column: whether this frame shows a new event
        self.costs: list[int | None] = [None] * len(jobs)
        """In a race, each search's work in its whole stream, from the frame it ended
        (None: not yet, or a single search)."""
        self.units: list[tuple[str, str]] = [_DEFAULT_WORK_UNIT] * len(jobs)
        """Each search's step of work, singular and plural (see :func:`work_of`)."""
        self.work: list[int | None] = [None] * len(jobs)
        """In a race, the work done by each column's current frame (None: no frame)."""
        self.ahead: list[int | None] = [None] * len(jobs)
        """In a race, the work done by each column's next frame (None: none to come)."""
        self._kinds: list[frozenset[EventKind]] = []  # per column: what counts as work
        self._done = [0] * len(jobs)  # per column: the work its events observed so far did

    def frames(self) -> Iterator[list[Shown]]:
        """For each video frame, what every column shows (events observed on the way)."""
        # a source whose first pass a tree panel recorded is replayed, not searched again
        opened = self._opened = [open_source(s) for s in self._sources]
        self._status = [status_reader(stream) for stream in opened]
        self._kinds = [work_of(stream)[0] for stream in opened]
        self.units = [work_of(stream)[1] for stream in opened]
        streams = [
            _naming(frames_with_best(stream, self._video), i, len(opened))
            for i, stream in enumerate(opened)
        ]
        steps = self._race(opened, streams) if len(streams) > 1 else self._steps(streams)
        for shown in steps:
            for i, item in enumerate(shown):
                if self.fresh[i]:
                    self._bests.offer(i, item, self._status[i])
            yield shown

    def timed(self, *, draw: bool = True) -> Iterator[tuple[list[Shown], Card | None, int]]:
        """For each video frame: what every column shows, the frame's card, and its hold (the
        extra frame durations the encoder gives it: a committed move's or a new best's, a
        jump's, the opening card's; the last frame's ``hold_last`` aside, see
        :func:`~searchvid.render.cards.held_last`). With ``draw``, each frame is drawn
        (:meth:`draw`) before it is yielded. Every command times its frames here, so a
        render, its captions and its pacing agree."""
        video = self._video
        move_hold, best_hold = frame_holds(video)
        jumps = Jumps(self._jobs, video)
        for index, shown in enumerate(self.frames()):
            card = card_of(video, index, shown)
            if draw:
                self.draw(shown, card)
            hold = max(
                frame_hold(shown, self.fresh, move_hold, best_hold), jumps(shown, self.fresh)
            )
            if card is Card.OPENING:
                hold = max(hold, opening_hold(video))
            hold = max(hold, final_best_hold(video, index))  # [video] after_best
            yield shown, card, hold

    def _observe(self, track: int, event: Event) -> None:
        self.events += 1
        if event.kind in self._kinds[track]:
            self._done[track] += 1
        if event.kind is _IMPROVE:
            self._bests.improve(track, event)
        if self._painter is not None:
            self._painter.observe(track, event)
        if track == 0 and self._snapper is not None:
            self._snapper.offer(event)

    def _race(
        self, opened: Sequence[Iterable[Event]], streams: Sequence[Iterator[_Item]]
    ) -> Iterator[list[Shown]]:
        """:meth:`frames` for several searches, aligned on work."""
        lanes: list[_Lane] = []
        for stream, framed in zip(opened, streams, strict=True):
            kinds, unit = work_of(stream)
            self.units[len(lanes)] = unit
            lanes.append(_Lane(framed, kinds))
        shown: list[Shown] = [None] * len(lanes)
        self.fresh = [False] * len(lanes)
        first = True
        while True:
            for i, lane in enumerate(lanes):  # what was read after a last frame shown
                if lane.key is None:
                    for item in lane.after:
                        self._observe(i, item[0])
                    lane.after.clear()
            keys = [lane.key for lane in lanes if lane.key is not None]
            if not keys:
                return
            least = min(keys)
            self._frame += 1
            for i, lane in enumerate(lanes):
                key = lane.key
                self.fresh[i] = key is not None and (first or key == least)
                if not self.fresh[i]:
                    continue
                for item in lane.advance():
                    self._observe(i, item[0])
                    if item[1] is not None:
                        event, _, best, improving, ending = item
                        shown[i] = (event, best, improving, ending)
                self.work[i] = key
                now = shown[i]
                if now is not None and now[3] is not None:
                    self._ended[i] = self._frame
                    self.costs[i] = lane.cost
            first = False
            self.ahead = [lane.key for lane in lanes]
            if self._frame >= self._video.max_frames - 1:  # the video is full: cut every search
                for i, now in enumerate(shown):
                    if now is not None and now[3] is None:
                        shown[i] = (now[0], now[1], now[2], Ending.MAX_FRAMES)
                yield shown
                return
            yield shown

    def _steps(self, streams: Sequence[Iterator[_Item]]) -> Iterator[list[Shown]]:
        """:meth:`frames` for one search: a selected frame per video frame."""
        shown: list[Shown] = [None] * len(streams)
        live = [True] * len(streams)
        self.fresh = [False] * len(streams)
        while True:
            advanced = False
            for i, stream in enumerate(streams):
                self.fresh[i] = False
                if not live[i]:
                    continue
                for event, frame, best, improving, ending in stream:
                    self._observe(i, event)
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

    def _counts_work(self, track: int) -> bool:
        """Whether search ``track``'s strip counts its work in place of its steps (a
        frontier search's ``counts_work``; a race's strips count work in any case)."""
        return bool(getattr(self._opened[track], "counts_work", False))

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
        stamps: list[tuple[Field, ...]] = [()] * len(shown)
        if len(shown) > 1:
            if card is Card.CLOSING:  # the place comes first on the card; then the cost
                places, winners = race_places(shown, self.costs, self._titles, self.units)
                painter.crown(winners)
                stamps = [
                    (work_field(cost, unit),) if cost is not None else ()
                    for cost, unit in zip(self.costs, self.units, strict=True)
                ]
            else:
                stamps = race_fields(shown, self.work, self.costs, self.units, self.ahead)
        else:  # a dead stretch played fast says so (searchvid.render.deadtime)
            fast = fast_field(self._video, self._frame)
            stamps = [(fast,)] if fast is not None else stamps
        for i, item in enumerate(shown):
            if item is not None:
                event, best, improving, ending = item
                status = self._status[i] if i < len(self._status) else None
                fields = status(event) if status is not None else ()
                if card is Card.CLOSING:  # the search's best, where it ended elsewhere
                    event, best, fields = self._bests.closing(i, item, fields)
                    # what the search cost, in its own unit (random play does not search)
                    if len(shown) == 1 and self._counts_work(i) and self._done[i] > 0:
                        # the count its frames showed, whatever its fields count as well
                        stamps[i] = (*stamps[i], work_field(self._done[i], self.units[i]))
                    elif len(shown) == 1 and self._jobs[i].doing == "searching":
                        stamps[i] = (*stamps[i], *solo_work(self._done[i], self.units[i], fields))
                elif card is None and len(shown) == 1 and self._counts_work(i):
                    # one counter, the closing card's: the work so far, not the steps
                    stamps[i] = (work_field(self._done[i], self.units[i]), *stamps[i])
                if stamps[i]:  # before the algorithm's own fields
                    fields = _stamped(stamps[i], fields)
                fields = _with_replay(painter, i, event, fields)
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


def _with_replay(
    painter: object, track: int, event: Event, fields: Sequence[Field]
) -> Sequence[Field]:
    """``fields`` with the frontier view the filmstrip shows, in the strip's words: on a
    solution's ``MOVE`` frame without one, the played-out solution so far (read from the
    painter's narration, which observed every event: :meth:`Narration.film_view`)."""
    narrations = getattr(painter, "narrations", None)
    if narrations is None or isinstance(fields, BestShown):
        return fields
    view = narrations[track].film_view(event, frontier_of(fields))
    return fields if view is None else StatusFields(tuple(fields), view)


def _stamped(stamp: Sequence[Field], fields: Sequence[Field]) -> Sequence[Field]:
    """``fields`` after ``stamp``, keeping the frontier view they may carry."""
    if isinstance(fields, BestShown):  # the closing card over the best board says so
        return BestShown((*stamp, *fields), (*stamp, *fields.last))
    view = frontier_of(fields)
    return (*stamp, *fields) if view is None else StatusFields((*stamp, *fields), view)


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
        self.narrations = [
            Narration(in_race(job.voice(), len(jobs), i)) for i, job in enumerate(jobs)
        ]
        # views that observe the events draw from them: fed as a FramePainter feeds them, so
        # their boards (and so the jumps, :class:`Jumps`) are those of the render
        self._observers = [getattr(job.view, "observe", None) for job in jobs]
        self.texts: list[tuple[Event, HudText] | None] = [None] * len(jobs)
        self.winners: tuple[str, ...] = ()  # a race's winners, named on its closing card

    def observe(self, track: int, event: Event) -> None:
        observe = self._observers[track]
        if observe is not None:
            observe(event)
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


def race_frames(sources: Sequence[EventSource], jobs: Sequence[RenderJob]) -> list[list[int]]:
    """For each search of a race, the video frame that shows each of its own frames first
    (its frames numbered from 0 as :func:`~searchvid.render.policy.assign_frames` numbers
    them): a race aligned on work shows a search's frame ``k`` on video frame ``k`` only
    while no search waits for another. Nothing is observed or drawn."""
    run = Run(sources, jobs, None, None)
    where: list[list[int]] = [[] for _ in jobs]
    for index, _ in enumerate(run.frames()):
        for track, new in enumerate(run.fresh):
            if new:
                where[track].append(index)
    return where


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
    for shown, card, hold in run.timed():
        texts = [item[1] if item is not None else None for item in strips.texts]
        yield list(shown), texts, hold, card
    return run.events
