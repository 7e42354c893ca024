"""Why a framed search ended (``ending``), and pacing that shows a long search whole."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from searchvid.render.policy import Ended, assign_frames, ended_together, ending, pace
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event, EventKind

EN, BT, MV = EventKind.ENTER, EventKind.BACKTRACK, EventKind.MOVE


class Stream(Iterator[Event]):
    """``count`` ENTER events, then the end; counts what is read, and may say that its work
    budget ran out or fail past a given event."""

    def __init__(
        self, count: int, *, budget_spent: bool = False, fail_at: int | None = None
    ) -> None:
        self.count = count
        self.read = 0
        self.budget_spent = budget_spent
        self.fail_at = fail_at

    def __next__(self) -> Event:
        if self.read == self.fail_at:
            raise ValueError("a bug past the cut")
        if self.read >= self.count:
            raise StopIteration
        self.read += 1
        return Event(EN, f"n{self.read}", 0, self.read - 1)


def framed(stream: Stream, video: VideoOptions) -> tuple[list[int | None], Ended]:
    frames = [frame for _, frame in assign_frames(stream, video)]
    return frames, ending(stream, len(frames), video)


def test_a_search_that_runs_out_of_events_is_complete() -> None:
    frames, ended = framed(Stream(6), VideoOptions())
    assert (frames, ended) == ([0, 1, 2, 3, 4, 5], "complete")


def test_a_full_video_with_more_to_come_is_cut_at_max_frames() -> None:
    stream = Stream(6)
    frames, ended = framed(stream, VideoOptions(max_frames=4))
    assert (frames, ended) == ([0, 1, 2, 3], "max_frames")
    assert stream.read == 5  # one event past the cut was read to know there was more


def test_a_search_whose_last_event_fills_the_video_is_complete() -> None:
    frames, ended = framed(Stream(4), VideoOptions(max_frames=4))
    assert (frames, ended) == ([0, 1, 2, 3], "complete")


def test_the_event_budget_spent_is_max_events() -> None:
    frames, ended = framed(Stream(10), VideoOptions(max_events=3))
    assert (frames, ended) == ([0, 1, 2], "max_events")
    # exactly max_events events and then the end: the search ended by itself
    assert framed(Stream(3), VideoOptions(max_events=3)) == ([0, 1, 2], "complete")


def test_a_work_budget_spent_between_events_is_max_events() -> None:
    # the search ended its stream because its work_limit ran out, not because it was done
    frames, ended = framed(Stream(2, budget_spent=True), VideoOptions())
    assert (frames, ended) == ([0, 1], "max_events")


def test_a_failure_past_the_cut_counts_as_more_to_come() -> None:
    frames, ended = framed(Stream(10, fail_at=3), VideoOptions(max_frames=3))
    assert (frames, ended) == ([0, 1, 2], "max_frames")


@pytest.mark.parametrize(
    ("endings", "expected"),
    [
        (["complete", "complete"], "complete"),
        (["complete", None], "complete"),  # a failed search is left out
        (["max_events", "complete"], "max_events"),
        (["max_events", "max_frames", "complete"], "max_frames"),
        ([], "complete"),
    ],
)
def test_a_race_ends_complete_only_when_every_search_does(
    endings: list[Ended | None], expected: Ended
) -> None:
    assert ended_together(endings) == expected


def enters(count: int) -> list[Event]:
    return [Event(EN, "n", 0, step) for step in range(count)]


def test_pace_thins_enough_to_fit_max_frames_too() -> None:
    # an hour asked for, 100 frames allowed: thinned to fit max_frames, not cut there
    video = VideoOptions(fps=10, duration=3600.0, max_frames=100, hud=False)
    paced = pace([enters(10_000)], video)
    assert paced.every == -(-10_000 // 99)  # 99 thinned frames, 1 left for the final one
    frames, ended = framed(Stream(10_000), paced)
    assert sum(f is not None for f in frames) == 100
    assert ended == "complete"
    # the same search without pacing is cut
    assert framed(Stream(10_000), VideoOptions(max_frames=100))[1] == "max_frames"


def test_pace_counts_the_holds_of_the_frames_it_thins() -> None:
    # frames = "moves": the moves are what every thins, and each one kept is held 0.5 s
    moves = [Event(MV, "m", 0, step) for step in range(100)]
    video = VideoOptions(
        fps=10, duration=12.0, hold_last=2.0, hold_moves=0.5, frames="moves", hud=False
    )
    paced = pace([moves], video)
    # 120 frame durations, 20 for the last hold: 100 for 100 moves of 5 durations each
    assert paced.every == 5
    kept = [f for _, f in assign_frames(moves, paced) if f is not None]
    assert len(kept) == 21  # moves 0, 5, ..., 95, and the last one closes the video


def test_pace_never_lowers_the_scenes_own_every() -> None:
    video = VideoOptions(fps=10, duration=60.0, every=7, hud=False)
    assert pace([enters(50)], video).every == 7


def test_pace_lets_the_longest_search_decide() -> None:
    video = VideoOptions(fps=10, duration=12.0, hold_last=2.0, hud=False)
    # 100 frame durations; a race is aligned on work (a node expanded per ENTER), so the
    # shorter search's frames share video frames with the longer's, except its last one
    # (50 expansions): every 10 makes 100 + 1 frames of the longer, every 11 makes 91 + 1,
    # and 1 more
    assert pace([enters(50), enters(1_000)], video).every == 11
