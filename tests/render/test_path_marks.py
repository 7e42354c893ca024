"""A paced depth-first video shows its path (issue 20 item 6, railroad-backtracking): each
move of a frame's path bracketed in its depth's colour ("first move", "second move", named
in the legend), the step back before the next shallow choice outlined as undone, and the
closing card over a best board states the start position's value for scale."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import searchvid
from searchvid.render.narration import START_VALUE
from searchvid.render.palette import BLUE, UNDONE, VERMILLION
from searchvid.render.pathmarks import COLORS, Move, PathWatch, deepest, depth_of, path_marks
from searchvid.render.settings import VideoOptions
from searchvid.render.undo import Left, UndoWatch
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

EN, LF, BT = EventKind.ENTER, EventKind.LEAF, EventKind.BACKTRACK


def stream() -> list[Event]:
    """Depth first under a root ``r``: ``a``, its leaves ``a1`` and ``a2``, back, then ``b``
    and its leaf ``b1`` (ids 0..5 in pre-order)."""
    steps = [
        (EN, "r", 0, 0, None),
        (EN, "a", 1, 1, 0),
        (LF, "a1", 2, 2, 1),
        (BT, "a", 1, 1, 0),
        (LF, "a2", 2, 3, 1),
        (BT, "a", 1, 1, 0),
        (BT, "r", 0, 0, None),
        (EN, "b", 1, 4, 0),
        (LF, "b1", 2, 5, 4),
    ]
    return [
        Event(kind, node, depth, step, id=nid, parent=parent)
        for step, (kind, node, depth, nid, parent) in enumerate(steps)
    ]


def test_marks_are_the_moves_the_strip_counts_named_in_its_words() -> None:
    assert path_marks(VideoOptions(keep_depth=1), backtracks=True) == tuple(
        path_marks(VideoOptions(keep_depth=5), backtracks=True)
    )
    words = [m.text for m in path_marks(VideoOptions(keep_depth=1), backtracks=True)]
    assert words == ["first move", "second move"]
    assert path_marks(VideoOptions(keep_depth=0), backtracks=True) == ()
    assert path_marks(VideoOptions(keep_depth=1), backtracks=False) == ()
    assert deepest(VideoOptions(keep_depth=3), True) == len(COLORS) == 2
    assert [depth_of(m.tile) for m in path_marks(VideoOptions(keep_depth=1), True)] == [1, 2]
    assert depth_of("searchvid:path-3") is None
    assert depth_of("road") is None
    assert COLORS == (BLUE, VERMILLION)
    assert UNDONE not in COLORS


def test_a_frame_s_path_is_its_moves_from_the_start() -> None:
    watch = PathWatch(2)
    paths = {}
    for event in stream():
        watch.observe(event)
        paths[event.step] = tuple((m.depth, m.parent, m.node) for m in watch.moves(event))
    assert paths[0] == ()
    assert paths[1] == ((1, "r", "a"),)
    assert paths[2] == ((1, "r", "a"), (2, "a", "a1"))
    assert paths[3] == ((1, "r", "a"),)  # back at a: the second move is gone
    assert paths[6] == ()
    assert paths[8] == ((1, "r", "b"), (2, "b", "b1"))
    # only the latest event has an answer; a frame drawn alone is told its path
    assert watch.moves(stream()[2]) == ()
    watch.remember(stream()[2], (Move(1, "r", "a"),))
    assert watch.moves(stream()[2]) == (Move(1, "r", "a"),)
    shallow = PathWatch(1)
    for event in stream():
        shallow.observe(event)
    assert shallow.moves(stream()[-1]) == (Move(1, "r", "b"),)


def test_the_next_shallow_choice_is_told_the_step_back_before_it() -> None:
    events = stream()
    watch, plain = UndoWatch(1), UndoWatch()
    told = {}
    for event in events:
        watch.observe(event)
        plain.observe(event)
        told[event.step] = watch.back_before(event)
        assert plain.back_before(event) is None  # without keep_depth: as before
    back = told[7]  # b, straight after the step back to r that left a
    assert back is not None
    assert back[0] is events[6]
    assert back[1] == Left("a", 1, None, 0)
    # a2 follows a step back too, but is deeper than keep_depth: its frames are samples
    assert told[4] is None
    assert all(told[s] is None for s in told if s != 7)
    watch.remember_back(events[2], None)
    assert watch.back_before(events[7]) is None


@pytest.fixture(scope="module")
def railroad() -> searchvid.Scene:
    return searchvid.load_scene("railroad-backtracking")


def _placed(view: Any, parent: Any, node: Any) -> set[tuple[int, int]]:
    """The cells the move from ``parent`` to ``node`` takes (the view's own hook)."""
    return {(int(r), int(c)) for r, c in view.move_cells(parent, node)}


def test_railroad_frames_bracket_each_move_and_outline_the_one_taken_back(
    railroad: searchvid.Scene,
) -> None:
    view, root = railroad.view(), railroad.root()
    events = [item[0][0] for item in railroad.strip_texts() if item[0] is not None]
    # a first move, a second move under it, then the next first move elsewhere
    i = next(
        i
        for i in range(1, len(events) - 2)
        if (events[i].kind, events[i + 1].kind, events[i + 2].kind) == (EN, LF, EN)
        and events[i + 1].parent == events[i].id
        and events[i].depth == 1
        and _placed(view, root, events[i].node) != _placed(view, root, events[i + 2].node)
    )
    (first,) = _placed(view, root, events[i].node)
    (second,) = _placed(view, events[i].node, events[i + 1].node)
    (moved,) = _placed(view, root, events[i + 2].node)
    tile = railroad.video.tile_size

    def at(frame: int, cell: tuple[int, int], dy: int, dx: int) -> tuple[int, ...]:
        picture = np.asarray(railroad.preview(frame))
        return tuple(int(v) for v in picture[cell[0] * tile + dy, cell[1] * tile + dx])

    corner, edge = (2, 2), (2, tile // 2)  # a bracket's corner; an edge's middle
    assert at(i, first, *corner) == BLUE
    assert at(i + 1, first, *corner) == BLUE
    assert at(i + 1, second, *corner) == VERMILLION
    assert at(i + 1, second, *edge) != VERMILLION  # brackets, not a whole outline
    assert at(i + 2, moved, *corner) == BLUE
    assert at(i + 2, first, *edge) == UNDONE  # the first move taken back, outlined


def test_railroad_legend_names_the_moves_and_the_closing_card_the_start(
    railroad: searchvid.Scene,
) -> None:
    layout = railroad.render_jobs()[0]
    assert layout.video.keep_depth == 1
    *_, last = railroad.strip_texts()
    assert last[0] is not None
    closing = last[0][1]
    start = next(railroad.trace())
    assert start["depth"] == 0
    assert start["value"] is not None
    assert closing.fields[-1] == Field(START_VALUE, start["value"])
    assert closing.fields[-1].text() == "start position 0.502"
    assert closing.phase.startswith("search complete; best found: closeness to goal 0.539")


def test_a_best_stated_in_words_gets_no_start_value() -> None:
    *_, last = searchvid.load_scene("railroad-random").strip_texts()
    assert last[0] is not None
    closing = last[0][1]
    assert closing.phase.startswith("best of 12 walks: all 12 exits joined")
    assert all(f.name != START_VALUE for f in closing.fields)
