"""The frame policy: which events of a search become video frames.

It runs ahead of drawing, so a skipped event costs no pixels, and it cuts the search once the
video is full. Every command (render, preview, trace, run) uses this one policy, so frame ``N``
means the same event everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from itertools import islice
from typing import Literal

from searchvid.render.cards import held_last, opening_hold
from searchvid.render.deadtime import DeadWalk, stretches
from searchvid.render.settings import FrameSelection, VideoOptions
from searchvid.search.algorithm import Algorithm, Quiet
from searchvid.search.events import Event, EventKind

Ended = Literal["complete", "max_frames", "max_events"]
"""Why a search's video ended: the search ran to its natural end (``complete``), the video
was full (``max_frames``), or the event budget was spent (``max_events``: that many events,
or that many units of work between them)."""


def selects(selection: FrameSelection, kind: EventKind) -> bool:
    """Whether an event of ``kind`` is a candidate frame under ``frames = selection``.

    ``all``: every kind that shows a state (ROLL included); ``leaves``: LEAF;
    ``improvements``: IMPROVE; ``moves``: the played line, MOVE and ROLL (a game of chance
    shows each roll of the dice between its moves).
    """
    if selection == "all":
        return kind.shows_state
    if selection == "leaves":
        return kind is EventKind.LEAF
    if selection == "improvements":
        return kind is EventKind.IMPROVE
    if selection == "moves":
        return kind is EventKind.MOVE or kind is EventKind.ROLL
    raise ValueError(f"unknown frame selection {selection!r}")


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
"""The played line: committed moves and the dice nature rolled, never thinned away."""

_NEW_NODE = frozenset({EventKind.ENTER, EventKind.LEAF, EventKind.EXPAND})
"""Kinds that step onto a node the search has not shown before: under ``[video]
keep_depth`` those at most that deep are always frames."""


def shallow(video: VideoOptions, event: Event) -> bool:
    """Whether ``event`` is a step onto a new node no deeper than ``video.keep_depth``: a
    candidate frame that is never thinned (``keep_depth`` 0: none is)."""
    return event.depth <= video.keep_depth and event.kind in _NEW_NODE and video.keep_depth > 0


FINAL_FRAME_LOOKAHEAD = 4096
"""Events buffered after a skipped candidate, waiting to see whether it was the last one."""


def assign_frames(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None]]:
    """Pair every event with the index of the frame it becomes, or None.

    The candidates chosen by ``video.frames`` are counted from 0; candidates ``0, every,
    2 * every, ...`` become frames ``0, 1, 2, ...``. Under ``frames = "all"`` a MOVE or ROLL
    event (a committed move, a solution being played out, a roll of the dice) is always a
    frame and is not counted, so
    ``every`` thins the search but never the answer; so is, under ``keep_depth``, a step onto
    a new node at most that deep (:func:`shallow`), so that the deeper steps are sampled
    evenly between the search's shallow choices; with ``duration`` (pacing) a candidate
    whose node the next events report as a new best (IMPROVE) is kept too. The last candidate
    of the stream always becomes the final frame even when ``every`` would skip it, so a video
    ends on the search's final state (a solved puzzle, the end of a game); to know that a
    skipped candidate was the last, the events after it are held back, at most
    :data:`FINAL_FRAME_LOOKAHEAD` of them.
    The iterator stops right after the event that made frame ``max_frames - 1`` (the video is
    full; the search is not run further), or after ``max_events`` events: a search that runs
    for ever, or long without an event the selection takes, still ends. (Work done between
    events is bounded by the search itself: a scene gives it ``max_events`` as its
    :attr:`~searchvid.search.algorithm.Algorithm.work_limit`.)

    A paced video's dead stretches (:mod:`searchvid.render.deadtime`) drop the frames they
    do not keep: frame numbers then count only the frames kept.

    Args:
        events: The event stream of a search.
        video: The ``[video]`` options (``frames``, ``every``, ``max_frames``,
            ``max_events``).

    Yields:
        ``(event, frame_index_or_None)`` for every event up to the cut, in stream order.
    """
    selection, every, limit = video.frames, video.every, video.max_frames
    keep_best = video.duration > 0  # pacing never thins away a new best
    keep_depth = video.keep_depth
    candidates = 0
    frames = 0
    plain = 0  # frames counted as without dead stretches (how pacing numbered them)
    dead = DeadWalk(video)
    held: list[Event] = []  # a skipped candidate, then the events after it
    for event in islice(events, video.max_events):
        candidate = selects(selection, event.kind)
        if held and (candidate or len(held) > FINAL_FRAME_LOOKAHEAD):
            for waiting in held:
                yield waiting, None
            held.clear()
        if held:
            if keep_best and event.kind is EventKind.IMPROVE and event.node is held[0].node:
                yield held[0], frames  # the skipped state was a new best: keep it after all
                frames += 1
                plain += 1
                for waiting in (*held[1:], event):
                    yield waiting, None
                held.clear()
                if frames >= limit:
                    return
                continue
            held.append(event)
            continue
        if not candidate:
            yield event, None
            continue
        if selection == "all" and event.kind in _PLAYED:
            keep = True
        elif keep_depth and event.depth <= keep_depth and event.kind in _NEW_NODE:
            keep = True  # a shallow choice: shown, not counted (see shallow())
        else:
            keep = candidates % every == 0
            candidates += 1
        if keep:
            if dead.drops(plain):
                keep = False  # dropped from a dead stretch, played fast
            plain += 1
        if not keep:
            held.append(event)
            continue
        yield event, frames
        frames += 1
        if frames >= limit:
            return
    if held:
        yield held[0], frames
        for waiting in held[1:]:
            yield waiting, None


_CANDIDATE, _KEPT, _IMPROVES, _WATCHED, _SHALLOW = 1, 2, 4, 8, 16
"""Roles of an event kind for :class:`FrameTally`, as bits: a candidate frame, a candidate
always kept (MOVE and ROLL under ``all``), IMPROVE, an event its ``see`` is shown, a
candidate always kept when no deeper than ``keep_depth`` (:func:`shallow`; only with it)."""

BATCH = 4096
"""Most events :class:`FrameTally` reads in one batch where each candidate is a frame."""

_CLOSE = 64
"""Frames left before ``max_frames`` below which :class:`FrameTally` reads one event at a
time (a batch never reads more events than there are frames left, so that the search is cut
where :func:`assign_frames` cuts it; batches that small would cost more than they save)."""


@cache
def _candidates(selection: FrameSelection) -> frozenset[EventKind]:
    """The kinds of event that are candidate frames under ``frames = selection``."""
    return frozenset(kind for kind in EventKind if selects(selection, kind))


@cache
def _roles(
    selection: FrameSelection, watch: frozenset[EventKind], by_depth: bool = False
) -> dict[str, int]:
    """Each kind's roles (:data:`_CANDIDATE` ...) keyed by the kind's value. Cached: a run
    of a small search should not pay for building it (the callers never change it)."""
    roles: dict[str, int] = {}
    for kind in EventKind:
        role = _CANDIDATE if selects(selection, kind) else 0
        if role and selection == "all" and kind in _PLAYED:
            role |= _KEPT
        elif role and by_depth and kind in _NEW_NODE:
            role |= _SHALLOW
        if kind is EventKind.IMPROVE:
            role |= _IMPROVES
        if kind in watch:
            role |= _WATCHED
        roles[kind._value_] = role
    return roles


class FrameTally:
    """What :func:`assign_frames` makes of a stream, counted without pairing each event
    with its frame: for a consumer that needs only the totals (``searchvid run``).

    :func:`assign_frames` yields every event it reads, each a frame or not; its per-event
    generator and tuple cost about as much as a simple search's own step. :meth:`read`
    follows the same policy over the same events (held candidates, ``every``, new bests
    kept when paced, dead stretches, ``max_frames``, ``max_events``) and reads the stream
    up to the same cut. Where every candidate is a frame (``every = 1``, no dead stretch)
    it reads the events in batches whose loop tests no limit (see :meth:`_read_batches`);
    otherwise in one loop that keeps only the first held event and how many follow it.

    Attributes:
        events: Events read so far, as :func:`assign_frames` would have yielded them by
            now: after a failure of the stream, without those it still held back (a
            skipped candidate and the events after it), which it never yielded; after a
            failure in ``see``, those before the event it failed on.
        frames: Frames made so far.
        last: The event of the latest frame (None before the first).
    """

    __slots__ = ("events", "frames", "last", "video")

    def __init__(self, video: VideoOptions) -> None:
        self.video = video
        self.events = 0
        self.frames = 0
        self.last: Event | None = None

    def read(
        self,
        events: Iterable[Event],
        see: Callable[[Event], object] | None = None,
        watch: Collection[EventKind] = (),
    ) -> None:
        """Read ``events`` up to :func:`assign_frames`'s cut, counting them and the frames.

        Args:
            events: The event stream of a search, fresh.
            see: Called with each event whose kind is in ``watch``, in stream order
                (:func:`assign_frames` yields the events it reads in that order, unless
                the stream fails while some are held back).
            watch: The kinds of event ``see`` is given.
        """
        video = self.video
        watched = frozenset(watch) if see is not None else frozenset()
        roles = _roles(video.frames, watched, video.keep_depth > 0)
        stream = islice(events, video.max_events)
        if video.every == 1 and not stretches(video) and self._read_batches(stream, roles, see):
            return
        if self.frames < video.max_frames:
            self._read_each(stream, roles, see)

    def quiet(self, watch: Collection[EventKind] = ()) -> Quiet | None:
        """The limits of a quiet pass (:meth:`~searchvid.Algorithm.quiet`) that stops where
        :meth:`read` would stop and counts its frames, where the policy lets a count do:
        every candidate a frame (``every = 1``, no dead stretch, as in
        :meth:`_read_batches`) and nothing read yet; else None.

        Args:
            watch: The kinds of event the pass should yield (a ``see`` of :meth:`read`).
        """
        video = self.video
        if video.every != 1 or stretches(video) or self.events:
            return None
        return Quiet(
            max_events=video.max_events,
            max_marks=video.max_frames,
            marked=_candidates(video.frames),
            watch=frozenset(watch),
        )

    def counted(self, quiet: Quiet, *, budget_spent: bool) -> Ended:
        """Take the totals of a quiet pass from :meth:`quiet` that has ended: ``events`` and
        ``frames`` (``last`` stays None: the last frame's node is ``quiet.last``). Why the
        search ended, as :func:`ending` tells after :meth:`read`.

        Args:
            quiet: The ended pass's counters.
            budget_spent: Whether the search's work budget ended it.
        """
        self.events, self.frames = quiet.events, quiet.marks
        if quiet.more:
            return "max_events" if quiet.events >= self.video.max_events else "max_frames"
        return "max_events" if budget_spent else "complete"

    def _read_batches(
        self,
        stream: Iterator[Event],
        roles: dict[str, int],
        see: Callable[[Event], object] | None,
    ) -> bool:
        """Read while every candidate is a frame and more than :data:`_CLOSE` frames are
        left, in batches no longer than the frames left: a batch of ``n`` events makes at
        most ``n`` frames, so it is never cut inside and its loop tests no limit. Whether
        the stream ended."""
        limit = self.video.max_frames
        frames, last = self.frames, self.last
        done = self.events  # events of the batches read whole
        count = 0  # events read in the current batch
        seeing = False  # inside see(): a failure there is the event's, not the stream's
        try:
            while limit - frames > _CLOSE:
                wanted = min(BATCH, limit - frames)
                count = 0
                for event in islice(stream, wanted):
                    count += 1
                    role = roles[event.kind._value_]
                    if role == _CANDIDATE:  # the common case first: a frame, nothing more
                        frames += 1
                        last = event
                    elif role:
                        if role & _WATCHED:
                            seeing = True
                            see(event)  # type: ignore[misc]  # watched only with a `see`
                            seeing = False
                        if role & _CANDIDATE:
                            frames += 1
                            last = event
                done += count
                ended = count < wanted  # a batch shorter than asked for: the stream ended
                count = 0  # (counted in done)
                if ended:
                    return True
        finally:
            # after a failure in see(), the event it failed on is not counted
            self.events = done + count - seeing
            self.frames, self.last = frames, last
        return False

    def _read_each(
        self,
        stream: Iterator[Event],
        roles: dict[str, int],
        see: Callable[[Event], object] | None,
    ) -> None:
        """Read the rest of ``stream`` one event at a time, as :func:`assign_frames` does."""
        video = self.video
        every, limit = video.every, video.max_frames
        keep_best = video.duration > 0
        keep_depth = video.keep_depth
        dead = DeadWalk(video)
        frames = self.frames
        # the candidates thinned by `every` and the frames before dead stretches: after
        # batches (every = 1, no dead stretch) both are the frames, and neither matters
        candidates = plain = frames
        count = 0
        held = 0  # events held back: a skipped candidate, then the events after it
        first: Event | None = None  # that skipped candidate
        last = self.last
        seeing = False  # inside see(): a failure there is the event's, not the stream's
        try:
            for event in stream:
                count += 1
                role = roles[event.kind._value_]
                if role & _WATCHED:
                    seeing = True
                    see(event)  # type: ignore[misc]  # a role is watched only with a `see`
                    seeing = False
                if held:
                    if role & _CANDIDATE or held > FINAL_FRAME_LOOKAHEAD:
                        held, first = 0, None  # released: none of them a frame
                    elif keep_best and role & _IMPROVES and event.node is first.node:  # type: ignore[union-attr]
                        frames += 1  # the skipped state was a new best: kept after all
                        plain += 1
                        last, held, first = first, 0, None
                        if frames >= limit:
                            return
                        continue
                    else:
                        held += 1
                        continue
                if not role & _CANDIDATE:
                    continue
                if role & _KEPT or (role & _SHALLOW and event.depth <= keep_depth):
                    keep = True
                else:
                    keep = candidates % every == 0
                    candidates += 1
                if keep:
                    if dead.drops(plain):
                        keep = False  # dropped from a dead stretch, played fast
                    plain += 1
                if not keep:
                    held, first = 1, event
                    continue
                frames += 1
                last = event
                if frames >= limit:
                    return
            if held:
                frames += 1
                last, held = first, 0
        finally:
            # after a failure of the stream, the events held back were never yielded; after
            # one in `see`, assign_frames would have yielded those before the failing one
            self.events += count - 1 if seeing else count - held
            self.frames = frames
            self.last = last


def ending(stream: Iterator[Event], read: int, video: VideoOptions) -> Ended:
    """Why :func:`assign_frames` stopped on ``stream``, once it has been read to its cut.

    It reads one more event from ``stream`` (so call it only when done with the stream): if
    there is none, the search ended by itself (``complete``), unless it ended because its
    work budget ran out (the stream's ``budget_spent``, as a scene's traversals report it);
    if there is one, the search was cut: by ``max_events`` when ``read`` reached it, else
    by ``max_frames``. A search whose last event made the video's last frame is complete. A
    search that fails past the cut was cut before its failure (the video never reaches it).

    Args:
        stream: The event stream that was framed, read up to the cut.
        read: How many events were read from it.
        video: The ``[video]`` options it was framed with.
    """
    try:
        more = next(stream, None) is not None
    except Exception:  # a failure past the cut: the search had more to do
        more = True
    if more:
        return "max_events" if read >= video.max_events else "max_frames"
    return "max_events" if getattr(stream, "budget_spent", False) else "complete"


def ended_together(endings: Iterable[Ended | None]) -> Ended:
    """How several searches shown together (a race) ended: ``complete`` when each ran to its
    end, else ``max_frames`` when the video filled up before one of them ended, else
    ``max_events``. None stands for a search that failed and is left out."""
    seen = set(endings)
    if "max_frames" in seen:
        return "max_frames"
    if "max_events" in seen:
        return "max_events"
    return "complete"


def pace(streams: Iterable[Iterable[Event]], video: VideoOptions) -> VideoOptions:
    """``video`` with ``every`` chosen so the searches fit about ``duration`` seconds, whole.

    A silent pass over each search (up to ``max_events``) counts its candidate frames and
    the frames that are always kept: MOVE and ROLL frames under ``all``, shallow steps
    under ``keep_depth`` and new bests, each with its hold. ``every`` then thins the
    candidates evenly into the time left after those, the opening card's hold and the last
    frame's hold (``hold_last``, or the closing card's ``closing`` where longer), measured
    in frame durations as the encoder holds them.
    It also thins enough that the frames fit ``max_frames``, so that a paced video shows
    its search to the end rather than being cut. The longest search decides; ``every`` is
    never made smaller than the scene's own. Without ``duration``, ``video`` unchanged.

    Several searches (a race) are aligned on work (:class:`~searchvid.render.stepping.Run`),
    so their video is as long as the merge of their frames by work: ``every`` is the
    smallest whose merge, counted from each search's candidate frames and the work each has
    done (:class:`_RaceLane`), fits the time left and each search ``max_frames``.
    """
    if not video.duration:
        return video
    fps = video.fps
    opening = opening_hold(video) if video.hud else 0  # the card is drawn in the strip
    budget = round(video.duration * fps) - round(held_last(video).hold_last * fps) - opening
    move_units = max(1, round(video.hold_moves * fps))
    best_units = max(1, round(video.hold_improvements * fps))
    streams = list(streams)
    if len(streams) > 1:
        lanes = [_RaceLane(events, video) for events in streams]
        return replace(video, every=_race_every(lanes, video, budget, move_units, best_units))
    every = video.every
    counts: list[tuple[int, int, int, int]] = []
    for events in streams:
        thinned = thinned_units = kept_frames = kept_units = 0
        for event in islice(events, video.max_events):
            units = move_units if event.kind in _PLAYED else 1
            if selects(video.frames, event.kind):
                if (video.frames == "all" and event.kind in _PLAYED) or shallow(video, event):
                    kept_frames += 1
                    kept_units += units
                else:
                    thinned += 1
                    thinned_units += units
            elif event.kind is EventKind.IMPROVE:
                kept_frames += 1
                kept_units += best_units
        counts.append((thinned, thinned_units, kept_frames, kept_units))
    # Searches side by side share the video's frames, but a held frame of any of them holds
    # them all: every search's holds beyond its frames' own durations come off everyone's time.
    held = sum(kept_units - kept_frames for _, _, kept_frames, kept_units in counts)
    for thinned, thinned_units, kept_frames, _ in counts:
        spare_time = max(1, budget - kept_frames - held)
        spare_frames = max(1, video.max_frames - kept_frames - 1)  # 1: the final frame
        every = max(every, -(-thinned_units // spare_time), -(-thinned // spare_frames))
    return replace(video, every=every)


class _RaceLane:
    """One search of a race as :func:`pace` counts it: its candidate frames, each with the
    work done by then (the steps of :attr:`~searchvid.search.algorithm.Algorithm.work_kinds`
    up to and including it), whether it is always a frame (a MOVE or ROLL under ``all``)
    and whether the search reports its node as a new best next (kept when paced)."""

    def __init__(self, events: Iterable[Event], video: VideoOptions) -> None:
        kinds = getattr(events, "work_kinds", Algorithm.work_kinds)
        played = video.frames == "all"
        self.keys: list[int] = []
        self.kept: list[bool] = []  # always a frame: MOVE or ROLL under "all", or shallow
        self.played: list[bool] = []  # a MOVE or ROLL under "all" (held hold_moves)
        self.best: list[bool] = []  # its node is reported as a new best right after it
        work = 0
        last: object = None  # the node of the latest candidate
        for event in islice(events, video.max_events):
            kind = event.kind
            if kind in kinds:
                work += 1
            if selects(video.frames, kind):
                self.keys.append(work)
                self.played.append(played and kind in _PLAYED)
                self.kept.append(self.played[-1] or shallow(video, event))
                self.best.append(False)
                last = event.node
            elif kind is EventKind.IMPROVE and self.best and event.node is last:
                self.best[-1] = True
        self.cost = work
        self.thinned = self.kept.count(False)

    def frames(self, every: int, move_units: int, best_units: int) -> list[tuple[int, int]]:
        """The frames :func:`assign_frames` makes with ``every`` (about: a skipped new best
        is kept however far the IMPROVE comes after it), as (work, frame durations); the
        last one's work is the whole stream's."""
        out: list[tuple[int, int]] = []
        count = len(self.keys)
        thinned = 0
        rows = zip(self.keys, self.kept, self.played, self.best, strict=True)
        for i, (key, kept, played, best) in enumerate(rows):
            if kept:
                out.append((key, move_units if played else 1))
                continue
            chosen = thinned % every == 0 or best or i == count - 1
            thinned += 1
            if chosen:
                out.append((key, best_units if best else 1))
        if out:
            out[-1] = (self.cost, out[-1][1])
        return out


def _race_units(lanes: Sequence[_RaceLane], every: int, move_units: int, best_units: int) -> int:
    """Frame durations of a race thinned by ``every``: its searches aligned on work as
    :class:`~searchvid.render.stepping.Run` steps them (each video frame advances the
    searches whose next frame has done the least work; the first, all of them), each video
    frame as long as the longest of the frames it advances."""
    frames = [lane.frames(every, move_units, best_units) for lane in lanes]
    total = max((column[0][1] for column in frames if column), default=0)
    at = [1 if column else 0 for column in frames]
    while True:
        keys = [column[i][0] for column, i in zip(frames, at, strict=True) if i < len(column)]
        if not keys:
            return total
        least = min(keys)
        units = 0
        for c, column in enumerate(frames):
            i = at[c]
            if i < len(column) and column[i][0] == least:
                units = max(units, column[i][1])
                at[c] = i + 1
        total += units


def _race_every(
    lanes: Sequence[_RaceLane], video: VideoOptions, budget: int, move_units: int, best_units: int
) -> int:
    """The smallest ``every`` (not below the scene's) whose race fits ``budget`` frame
    durations (:func:`_race_units`) and each search ``max_frames``; the race's length falls
    as ``every`` grows, so a bisection finds it."""
    low = video.every
    for lane in lanes:  # 1: the final frame
        spare_frames = max(1, video.max_frames - (len(lane.keys) - lane.thinned) - 1)
        low = max(low, -(-lane.thinned // spare_frames))
    high = max([low, *(lane.thinned for lane in lanes)])
    if _race_units(lanes, low, move_units, best_units) <= budget:
        return low
    while low < high:  # the race with `high` fits, or nothing does
        middle = (low + high) // 2
        if _race_units(lanes, middle, move_units, best_units) <= budget:
            high = middle
        else:
            low = middle + 1
    return high
