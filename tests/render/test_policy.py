from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from searchvid.render.policy import assign_frames, selects
from searchvid.render.settings import FrameSelection, VideoOptions
from searchvid.search.events import Event, EventKind

EN, BT, LF, RS, EX, SE, RO, MV, IM = (
    EventKind.ENTER,
    EventKind.BACKTRACK,
    EventKind.LEAF,
    EventKind.RESTART,
    EventKind.EXPAND,
    EventKind.SELECT,
    EventKind.ROLLOUT,
    EventKind.MOVE,
    EventKind.IMPROVE,
)
KINDS = [EN, EN, LF, IM, BT, LF, IM, MV, RS, EN, EX, SE, RO, LF, MV, IM, BT, MV]


def stream(kinds: list[EventKind]) -> list[Event]:
    return [Event(kind, f"n{i}", 0, i) for i, kind in enumerate(kinds)]


def frames_of(kinds: list[EventKind], **options: object) -> list[int | None]:
    video = VideoOptions(**options)  # type: ignore[arg-type]
    return [frame for _, frame in assign_frames(stream(kinds), video)]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("all", [0, 1, 2, None, 3, 4, None, 5, 6, 7, 8, 9, 10, 11, 12, None, 13, 14]),
        ("leaves", [None, None, 0, None, None, 1] + [None] * 7 + [2] + [None] * 4),
        ("improvements", [None] * 3 + [0] + [None] * 2 + [1] + [None] * 8 + [2, None, None]),
        ("moves", [None] * 7 + [0] + [None] * 6 + [1] + [None] * 2 + [2]),
    ],
)
def test_each_frames_mode_selects_its_kinds(
    mode: FrameSelection, expected: list[int | None]
) -> None:
    assert frames_of(KINDS, frames=mode) == expected


def test_every_keeps_the_first_and_then_every_kth_candidate() -> None:
    assert frames_of(KINDS, every=3) == [
        0, None, None, None, 1, None, None, 2, None,
        3, None, None, 4, None, 5, None, None, 6,
    ]  # fmt: skip
    assert frames_of(KINDS, frames="leaves", every=2) == (
        [None, None, 0] + [None] * 10 + [1] + [None] * 4
    )


def test_the_last_candidate_closes_the_video_even_when_every_skips_it() -> None:
    kinds = [EN, IM, EN, BT, IM, LF, IM, EX]  # candidates: steps 0, 2, 3, 5, 7
    assert frames_of(kinds, every=3) == [0, None, None, None, None, 1, None, 2]
    # A skipped last candidate followed only by annotations still becomes the final frame,
    # and the events keep their order.
    kinds = [EN, EN, EN, IM, IM]
    out = list(assign_frames(stream(kinds), VideoOptions(every=2)))
    assert [(e.step, f) for e, f in out] == [(0, 0), (1, None), (2, 1), (3, None), (4, None)]
    kinds = [EN, EN, IM, IM]
    out = list(assign_frames(stream(kinds), VideoOptions(every=2)))
    assert [(e.step, f) for e, f in out] == [(0, 0), (1, 1), (2, None), (3, None)]


def test_every_thins_the_search_but_never_the_moves_under_all() -> None:
    kinds = [EN, EN, EN, EN, MV, MV, MV, IM]
    assert frames_of(kinds, every=3) == [0, None, None, 1, 2, 3, 4, None]
    # Under "moves" the moves themselves are what `every` thins.
    assert frames_of([MV, MV, MV, MV, MV], frames="moves", every=2) == [0, None, 1, None, 2]


def test_the_final_frame_lookahead_is_bounded() -> None:
    from searchvid.render.policy import FINAL_FRAME_LOOKAHEAD

    kinds = [EN, EN] + [IM] * (FINAL_FRAME_LOOKAHEAD + 5)
    frames = frames_of(kinds, every=2)
    assert frames[:2] == [0, None]  # too far from the end to be known as the last one
    assert all(f is None for f in frames[2:])
    assert len(frames) == len(kinds)


def test_max_frames_stops_right_after_the_last_frame() -> None:
    assert frames_of(KINDS, max_frames=4) == [0, 1, 2, None, 3]
    assert frames_of(KINDS, every=2, max_frames=3) == [0, None, 1, None, None, 2]
    assert frames_of(KINDS, frames="moves", max_frames=1) == [None] * 7 + [0]


def test_the_search_is_not_run_past_the_cut() -> None:
    pulled: list[int] = []

    def search() -> Iterator[Event]:
        for event in stream(KINDS):
            pulled.append(event.step)
            yield event

    out = list(assign_frames(search(), VideoOptions(max_frames=2)))
    assert [e.step for e, _ in out] == [0, 1]
    assert pulled == [0, 1]


def test_every_event_is_passed_through_in_order() -> None:
    events = stream(KINDS)
    out = list(assign_frames(events, VideoOptions(frames="improvements")))
    assert [e for e, _ in out] == events


def test_selects() -> None:
    annotations = {"improve", "frontier", "drop", "prune", "backup"}
    assert [k for k in EventKind if selects("all", k)] == [
        k for k in EventKind if k.value not in annotations
    ]
    assert [k for k in EventKind if selects("leaves", k)] == [LF]
    assert [k for k in EventKind if selects("moves", k)] == [MV, EventKind.ROLL]
    assert [k for k in EventKind if selects("improvements", k)] == [IM]
    assert selects("all", EventKind.ROLL)
    assert not selects("leaves", EventKind.ROLL)


def test_dice_rolls_are_frames_of_the_played_line() -> None:
    # a game of chance: MOVE, ROLL, the search for the next move, MOVE, ROLL, ...
    rl = EventKind.ROLL
    kinds = [MV, rl, SE, EX, LF, IM, MV, rl, SE, LF, MV]
    assert frames_of(kinds, frames="moves") == [0, 1, None, None, None, None, 2, 3, None, None, 4]
    assert frames_of(kinds, frames="all") == [0, 1, 2, 3, 4, None, 5, 6, 7, 8, 9]
    assert frames_of(kinds, frames="leaves") == [None] * 4 + [0] + [None] * 4 + [1, None]


def test_max_events_ends_a_search_that_never_fills_the_video() -> None:
    def endless() -> Iterator[Event]:
        step = 0
        while True:
            yield Event(EN, "n", 0, step)
            step += 1

    video = VideoOptions(frames="moves", max_events=250)
    pairs = list(assign_frames(endless(), video))
    assert len(pairs) == 250
    assert all(frame is None for _, frame in pairs)


def test_max_events_cuts_before_max_frames() -> None:
    assert frames_of(KINDS, max_events=5) == [0, 1, 2, None, 3]


def test_pacing_keeps_a_skipped_state_that_turns_out_a_new_best() -> None:
    kinds = [EN, EN, EN, IM, EN, EN, EN]
    events = stream(kinds)
    events[3] = Event(IM, events[2].node, 0, 3, 1.0)  # the third state is a new best
    video = VideoOptions(every=3, duration=10.0)
    frames = [frame for _, frame in assign_frames(events, video)]
    assert frames == [0, None, 1, None, 2, None, 3]
    plain = [frame for _, frame in assign_frames(events, VideoOptions(every=3))]
    assert plain == [0, None, None, None, 1, None, 2]


def test_pace_chooses_every_to_fit_the_duration() -> None:
    def long_search() -> Iterator[Event]:
        for step in range(10_000):
            yield Event(EN, "n", 0, step)
        for step in range(10_000, 10_010):
            yield Event(MV, "m", 0, step)

    from searchvid.render.policy import pace

    video = VideoOptions(fps=10, duration=30.0, hold_last=2.0, max_frames=100_000, hud=False)
    paced = pace([long_search()], video)
    # 300 frame durations, 20 of them for the last frame's hold, 10 for the moves: 270 left
    assert paced.every == -(-10_000 // 270)
    frames = sum(f is not None for _, f in assign_frames(long_search(), paced))
    assert abs((frames + 20) / 10 - 30.0) <= 1.0  # about the duration asked for
    assert pace([long_search()], VideoOptions()) == VideoOptions()
    # With the status strip, the cards' holds come off too: the closing card stays 3 s
    # (longer than hold_last), the opening card 2 s (19 durations more than its frame).
    carded = replace(video, hud=True, opening=2.0, closing=3.0)
    assert pace([long_search()], carded).every == -(-10_000 // (300 - 30 - 19 - 10))


def test_rolls_of_the_dice_are_never_thinned_away() -> None:
    rolled = EventKind.ROLL
    kinds = [EN, EN, rolled, EN, EN, EN, rolled, EN]
    frames = frames_of(kinds, every=3)
    assert frames[2] is not None  # a roll is a frame whatever every says
    assert frames[6] is not None
    assert frames[0] == 0
