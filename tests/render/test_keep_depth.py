"""``[video] keep_depth``: a depth-first video keeps every shallow choice and samples the
steps below them evenly; its strip counts the choices (``first move 2/3``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import searchvid
from searchvid.cli import main
from searchvid.errors import SceneError
from searchvid.render.choices import Choices, count_children, move_name
from searchvid.render.policy import FrameTally, assign_frames, pace
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event, EventKind

EN, LF, BT = EventKind.ENTER, EventKind.LEAF, EventKind.BACKTRACK


def depth_first(children: int = 3, leaves: int = 4) -> list[Event]:
    """A depth-first search of a root with ``children`` children, each with ``leaves`` leaf
    children: ids in pre-order, nodes named by their path (``r``, ``r1``, ``r1.2``)."""
    events = [Event(EN, "r", 0, 0, id=0)]
    nid = 0
    for c in range(1, children + 1):
        nid += 1
        child = nid
        events.append(Event(EN, f"r{c}", 1, len(events), id=child, parent=0))
        for leaf in range(1, leaves + 1):
            nid += 1
            events.append(Event(LF, f"r{c}.{leaf}", 2, len(events), id=nid, parent=child))
            events.append(Event(BT, f"r{c}", 1, len(events), id=child, parent=0))
        events.append(Event(BT, "r", 0, len(events), id=0))
    return events


def shown(video: VideoOptions, events: list[Event]) -> list[str]:
    """The frames' events, as ``node`` (ENTER and LEAF) or ``back to node``."""
    return [
        f"back to {event.node}" if event.kind is BT else event.node
        for event, frame in assign_frames(events, video)
        if frame is not None
    ]


def test_every_first_move_is_a_frame_and_the_steps_below_are_thinned_evenly() -> None:
    # the root and the first moves are kept, not counted; counted: each subtree's 4 leaves
    # and 4 steps back (0-7, 9-16, 18-25) and the steps back to the root (8, 17, 26); every
    # 4th is kept, and the last
    video = VideoOptions(every=4, keep_depth=1)
    assert shown(video, depth_first()) == [
        "r",
        "r1",
        "r1.1",  # candidate 0
        "r1.3",  # 4
        "back to r",  # 8
        "r2",
        "back to r2",  # 12
        "back to r2",  # 16
        "r3",
        "r3.2",  # 20
        "r3.4",  # 24
        "back to r",  # 26: the last
    ]


def test_without_keep_depth_a_first_move_is_thinned_like_any_step() -> None:
    # every candidate counted: r 0, r1 1, r2 11 and r3 21 fall between every 4th
    assert shown(VideoOptions(every=4), depth_first()) == [
        "r",
        "r1.2",  # 4
        "r1.4",  # 8
        "r2.1",  # 12
        "r2.3",  # 16
        "back to r",  # 20
        "r3.2",  # 24
        "r3.4",  # 28
        "back to r",  # 30: the last
    ]


@pytest.mark.parametrize("keep_depth", [0, 1, 2])
@pytest.mark.parametrize("every", [1, 3, 4, 7])
def test_the_tally_agrees_with_assign_frames(keep_depth: int, every: int) -> None:
    video = VideoOptions(every=every, keep_depth=keep_depth)
    events = depth_first(5, 6)
    tally = FrameTally(video)
    tally.read(iter(events))
    framed = [(event, frame) for event, frame in assign_frames(events, video)]
    kept = [event for event, frame in framed if frame is not None]
    assert (tally.events, tally.frames, tally.last) == (len(framed), len(kept), kept[-1])


def test_pacing_thins_the_deeper_steps_into_the_time_the_first_moves_leave() -> None:
    # 10 frame durations (1 s at 10 fps, no holds): the root and 3 first moves are kept,
    # so the other 27 candidates share 6 of them (every 5); without keep_depth all 31
    # share 10 (every 4)
    video = VideoOptions(fps=10, duration=1, hold_last=0, opening=0, closing=0)
    assert pace([depth_first()], video).every == 4
    paced = pace([depth_first()], VideoOptions(**{**vars(video), "keep_depth": 1}))
    assert paced.every == 5
    assert len(shown(paced, depth_first())) == 4 + 6 + 1  # and the last, always


def test_keep_depth_is_a_whole_number_from_0() -> None:
    assert VideoOptions(keep_depth=2).keep_depth == 2
    with pytest.raises(SceneError, match=r"video\.keep_depth: must be from 0 to 64, got -1"):
        searchvid.scene_from_dict(
            {
                "domain": {"name": "tictactoe"},
                "search": {"algorithm": "backtracking"},
                "video": {"keep_depth": -1},
            }
        )


def test_a_negative_keep_depth_is_one_error_line(tmp_path: Path) -> None:
    scene = tmp_path / "bad.toml"
    scene.write_text(
        '[domain]\nname = "tictactoe"\n[search]\nalgorithm = "backtracking"\n'
        "[video]\nkeep_depth = -1\n"
    )
    result = CliRunner().invoke(main, ["run", str(scene)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("Error: ")
    assert "video.keep_depth: must be from 0 to 64, got -1" in result.output


def test_choices_name_the_path_and_what_a_step_back_has_tried() -> None:
    events = depth_first()
    totals = count_children(events, 2)
    assert totals == {0: 3, 1: 4, 6: 4, 11: 4}
    choices = Choices(totals, 2)
    texts: dict[int, list[str]] = {}
    for event in events:
        choices.observe(event)
        texts[event.step] = [field.text() for field in choices.fields(event)]
    assert texts[0] == []
    assert texts[1] == ["first move 1/3"]
    assert texts[2] == ["first move 1/3", "second move 1/4"]
    assert texts[3] == ["first move 1/3", "second moves tried 1/4"]
    r2 = next(e.step for e in events if e.node == "r2.3")
    assert texts[r2] == ["first move 2/3", "second move 3/4"]
    assert texts[r2 + 1] == ["first move 2/3", "second moves tried 3/4"]
    assert texts[len(events) - 1] == ["first moves tried 3/3"]


def test_moves_are_named_by_depth() -> None:
    assert [move_name(d) for d in (1, 2, 3, 8, 9)] == [
        "first move",
        "second move",
        "third move",
        "eighth move",
        "move 9",
    ]


def test_the_strip_counts_the_first_and_second_moves_of_a_scene() -> None:
    """Tic-tac-toe, two moves deep: 9 first moves, each with 8 replies; every first move is
    a frame and its strip counts it, as the trace numbers them."""
    scene = searchvid.scene_from_dict(
        {
            "domain": {"name": "tictactoe", "size": 3},
            "search": {"algorithm": "backtracking", "max_depth": 2},
            "video": {"every": 5, "keep_depth": 1, "max_frames": 1000},
        }
    )
    firsts = 0
    seconds = 0
    seen_first = 0
    for columns in scene.strip_texts():
        item = columns[0]
        assert item is not None
        event, text = item
        fields = [field.text() for field in text.fields]
        if event.kind is EN and event.depth == 1:
            seen_first += 1
        elif event.kind in (EN, LF) and event.depth == 1 + 1:
            seconds += 1
        if event.depth >= 1 and text.phase.endswith("searching"):
            assert f"first move {seen_first}/9" in fields
        if event.kind is LF and event.depth == 2:
            assert any(f.startswith("second move ") and f.endswith("/8") for f in fields)
        firsts = seen_first
    assert firsts == 9  # every first move shown
    assert 0 < seconds < 72  # the replies sampled
