"""FrameTally: what assign_frames makes of a stream, counted without pairing each event with
its frame (``searchvid run``). Same events read, same counts, same last frame, same events
shown to ``see`` in the same order, and the same counts after a failure."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields

import pytest

import searchvid
from searchvid.render.deadtime import DeadStretch, PacedVideo
from searchvid.render.policy import BATCH, FINAL_FRAME_LOOKAHEAD, FrameTally, assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event, EventKind

KINDS = list(EventKind)
IMPROVE = EventKind.IMPROVE
WATCH = frozenset({IMPROVE, EventKind.ENTER, EventKind.MOVE})


class Failed(Exception):  # noqa: N818 -- a marker, as pytest.fail's own
    """The failure a test stream or ``see`` raises."""


class Stream(Iterator[Event]):
    """``events``, counting those read, raising :class:`Failed` instead of event ``fail``."""

    def __init__(self, events: list[Event], fail: int | None = None) -> None:
        self.events = events
        self.fail = fail
        self.read = 0

    def __next__(self) -> Event:
        if self.read == self.fail:
            raise Failed
        if self.read >= len(self.events):
            raise StopIteration
        self.read += 1
        return self.events[self.read - 1]


@dataclass
class Totals:
    events: int
    frames: int
    last: Event | None
    read: int  # events taken from the stream: where the search was cut
    seen: list[int]  # steps of the events given to see, in order
    failed: bool


def _stream(rng: random.Random, length: int) -> list[Event]:
    """Random kinds and depths; an IMPROVE is often about the node of the event before it
    (a new best a paced video keeps), and nodes repeat."""
    events: list[Event] = []
    for step in range(length):
        kind = rng.choice(KINDS)
        if kind is IMPROVE and events and rng.random() < 0.7:
            node = events[-1].node
        else:
            node = f"n{rng.randrange(length // 3 + 1)}"
        events.append(Event(kind, node, rng.randrange(4), step))  # depth: for keep_depth
    return events


def _failing_see(seen: list[int], fail_at: int | None) -> Callable[[Event], None]:
    def see(event: Event) -> None:
        if len(seen) == fail_at:
            raise Failed
        seen.append(event.step)

    return see


def _by_assign_frames(
    events: list[Event], video: VideoOptions, fail: int | None, see_fail: int | None
) -> Totals:
    """The totals as Scene.run() counted them from assign_frames before FrameTally."""
    stream = Stream(events, fail)
    seen: list[int] = []
    see = _failing_see(seen, see_fail)
    count = frames = 0
    last = None
    try:
        for event, frame in assign_frames(stream, video):
            if event.kind in WATCH:
                see(event)
            count += 1
            if frame is not None:
                frames += 1
                last = event
    except Failed:
        return Totals(count, frames, last, stream.read, seen, True)
    return Totals(count, frames, last, stream.read, seen, False)


def _by_tally(
    events: list[Event], video: VideoOptions, fail: int | None, see_fail: int | None
) -> Totals:
    stream = Stream(events, fail)
    seen: list[int] = []
    tally = FrameTally(video)
    try:
        tally.read(stream, _failing_see(seen, see_fail), WATCH)
    except Failed:
        return Totals(tally.events, tally.frames, tally.last, stream.read, seen, True)
    return Totals(tally.events, tally.frames, tally.last, stream.read, seen, False)


def _paced(video: VideoOptions, dead: tuple[DeadStretch, ...]) -> VideoOptions:
    """``video`` as pacing leaves it, with these dead stretches."""
    values = {f.name: getattr(video, f.name) for f in fields(video)}
    return PacedVideo(**values, dead=dead)


def _video(rng: random.Random) -> VideoOptions:
    video = VideoOptions(
        frames=rng.choice(["all", "leaves", "improvements", "moves"]),
        every=rng.choice([1, 1, 2, 3, 5]),
        max_frames=rng.choice([1, 2, 7, 40, 65, 66, 300, 10**6]),
        max_events=rng.choice([1, 50, 333, 10**8]),
        duration=rng.choice([0.0, 0.0, 30.0]),  # paced: a skipped new best is kept
        keep_depth=rng.choice([0, 0, 1, 2]),  # shallow steps are never thinned
    )
    if rng.random() < 0.3:  # two dead stretches, played one frame in 3 and in 4
        return _paced(video, (DeadStretch(3, 20, 3, 3), DeadStretch(30, 60, 4, 25)))
    return video


@pytest.mark.parametrize("seed", range(300))
def test_the_tally_counts_what_assign_frames_makes_of_a_random_stream(seed: int) -> None:
    rng = random.Random(seed)
    events = _stream(rng, rng.choice([0, 1, 5, 60, 400, 900]))
    video = _video(rng)
    fail = rng.randrange(len(events) + 1) if events and rng.random() < 0.3 else None
    # a failure in see() is compared where assign_frames holds nothing back (every = 1,
    # no dead stretch): elsewhere the event it fails on may be seen at a later read
    simple = video.every == 1 and not isinstance(video, PacedVideo)
    see_fail = rng.randrange(5) if simple and rng.random() < 0.3 else None
    tally = _by_tally(events, video, fail, see_fail)
    framed = _by_assign_frames(events, video, fail, see_fail)
    if framed.failed and tally.seen != framed.seen:
        # see() is shown events as they are read: after a failure of the stream, also
        # those assign_frames still held back and never yielded (run() then reports no
        # outcome, only the counts)
        assert fail is not None
        assert tally.seen[: len(framed.seen)] == framed.seen
        tally.seen = framed.seen
    assert tally == framed


@pytest.mark.parametrize("max_frames", [1, 64, 65, 66, BATCH, BATCH + 1, 3 * BATCH + 70, 10**6])
def test_long_streams_are_cut_where_assign_frames_cuts_them(max_frames: int) -> None:
    """Batches (every = 1) end where the frames run out, never past them."""
    kinds = [EventKind.ENTER, EventKind.BACKTRACK, EventKind.LEAF, IMPROVE, EventKind.MOVE]
    events = [Event(kinds[i % 5 if i % 7 else 3], f"n{i}", 0, i) for i in range(5 * BATCH)]
    video = VideoOptions(max_frames=max_frames)
    tally = _by_tally(events, video, None, None)
    assert tally == _by_assign_frames(events, video, None, None)
    shown = sum(1 for event in events if event.kind is not IMPROVE)
    assert tally.frames == min(max_frames, shown)
    assert tally.read == tally.events  # read no further than the cut


def test_a_stream_failing_inside_a_batch_counts_the_events_before_it() -> None:
    events = [Event(EventKind.ENTER, f"n{i}", 0, i) for i in range(2 * BATCH)]
    got = _by_tally(events, VideoOptions(max_frames=10**6), BATCH + 9, None)
    assert (got.events, got.frames, got.last, got.failed) == (
        BATCH + 9,
        BATCH + 9,
        events[BATCH + 8],
        True,
    )


@pytest.mark.parametrize(
    ("quiet", "frames"),
    [(FINAL_FRAME_LOOKAHEAD - 1, 2), (FINAL_FRAME_LOOKAHEAD, 2), (FINAL_FRAME_LOOKAHEAD + 1, 1)],
)
def test_a_skipped_candidate_is_the_last_frame_within_the_lookahead(
    quiet: int, frames: int
) -> None:
    """A skipped candidate followed only by annotations to the end is the final frame, as
    long as assign_frames still holds it: up to FINAL_FRAME_LOOKAHEAD events after it."""
    events = [Event(EventKind.ENTER, "a", 0, 0), Event(EventKind.ENTER, "b", 0, 1)]
    events += [Event(EventKind.FRONTIER, "c", 0, 2 + i) for i in range(quiet)]
    video = VideoOptions(every=2)
    got = _by_tally(events, video, None, None)
    assert got == _by_assign_frames(events, video, None, None)
    assert (got.events, got.frames) == (len(events), frames)
    assert got.last is events[frames - 1]


@pytest.mark.parametrize(
    ("every", "duration", "ended"),
    [(1, 0.0, "max_frames"), (3, 0.0, "complete"), (1, 20.0, "complete")],
)
def test_run_counts_the_events_and_frames_that_trace_numbers(
    every: int, duration: float, ended: str
) -> None:
    """Scene.run()'s events and frames are trace's records and their frames: every frame,
    thinned by ``every``, or paced (``every`` chosen, new bests kept, dead stretches)."""
    scene = searchvid.scene_from_dict(
        {
            "domain": {"name": "tictactoe", "size": 3},
            "search": {"algorithm": "backtracking", "max_depth": 3},
            "video": {"every": every, "max_frames": 700, "duration": duration},
        }
    )
    records = list(scene.trace())
    framed = [r for r in records if r["frame"] is not None]
    run = scene.run()
    assert (run["events"], run["frames"], run["ended"]) == (len(records), len(framed), ended)
