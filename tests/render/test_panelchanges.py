"""A tree panel's redraw at a new decision copies only what changed into the frame."""

from __future__ import annotations

import numpy as np
import pytest

import searchvid
from searchvid.render.canvas import Rect
from searchvid.render.panelchanges import GAP, changed_rects, changed_within
from searchvid.render.treepanel import TreePanel
from searchvid.search.events import EventKind


def _pasted(before: np.ndarray, after: np.ndarray, rects: list[Rect]) -> np.ndarray:
    screen = before.copy()
    for r in rects:
        screen[r.top : r.bottom, r.left : r.right] = after[r.top : r.bottom, r.left : r.right]
    return screen


def test_changed_rects_cover_each_band_s_changed_pixels_with_even_edges() -> None:
    before = np.zeros((40, 20, 3), dtype=np.uint8)
    after = before.copy()
    after[3, 5, 1] = 9  # one channel of one pixel, band 0
    after[20:22, 10:13] = 200  # band 1 (rows 16..31 with bands of 16)
    rects = changed_rects(before, after, band=16)
    assert rects == [Rect(2, 4, 4, 6), Rect(20, 10, 22, 14)]
    assert np.array_equal(_pasted(before, after, rects), after)
    assert changed_rects(after, after) == []


def test_changes_more_than_gap_columns_apart_are_rectangles_of_their_own() -> None:
    before = np.zeros((32, 200, 3), dtype=np.uint8)
    after = before.copy()
    after[5, 10, 0] = 1
    after[7, 11 + GAP, 2] = 1  # GAP unchanged columns after column 10: the same rectangle
    after[20, 13 + 2 * GAP, 1] = 1  # GAP + 1 unchanged columns after the last: a new one
    rects = changed_rects(before, after)
    assert rects == [Rect(4, 10, 8, 12 + GAP), Rect(20, 12 + 2 * GAP, 22, 14 + 2 * GAP)]
    assert np.array_equal(_pasted(before, after, rects), after)
    assert changed_rects(before, after, gap=2 * GAP) == [Rect(4, 10, 22, 14 + 2 * GAP)]


def test_changed_rects_refuses_what_it_cannot_compare() -> None:
    picture = np.zeros((4, 4, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="shapes"):
        changed_rects(picture, picture[:2])
    with pytest.raises(ValueError, match="even"):
        changed_rects(picture, picture, band=3)


def test_a_new_decision_returns_only_what_changed_and_the_screen_follows() -> None:
    scene = searchvid.scene_from_dict(
        {
            "title": "mcts",
            "domain": {"name": "tictactoe", "position": "XOX/.O./.X."},
            "search": {"algorithm": "mcts", "mode": "plan", "iterations": 30},
        },
        name="mcts",
    )
    events = list(scene.events())
    panels = [
        TreePanel(400, 300, events_for_layout=events, changes_only=only) for only in (False, True)
    ]
    assert len(panels[1].layouts) > 2  # decisions to move between
    screens = [np.zeros_like(p.pixels) for p in panels]
    switches = 0
    for k, event in enumerate(events):
        for panel in panels:
            panel.observe(event)
        if event.kind is not EventKind.MOVE and k % 7:
            continue
        whole, changes = (panel.draw() for panel in panels)
        for panel, screen, rects in zip(panels, screens, (whole, changes), strict=True):
            screen[:] = _pasted(screen, panel.pixels, rects)
            assert np.array_equal(screen, panel.pixels), k  # the copy is the picture
        assert np.array_equal(panels[0].pixels, panels[1].pixels)
        if whole == [Rect(0, 0, 300, 400)] and k:
            switches += 1
            assert changes != whole  # a part of the panel, not all of it
    assert switches >= 2


def test_changed_within_compares_only_the_rows_of_the_redrawn_parts() -> None:
    before = np.zeros((64, 120, 3), dtype=np.uint8)
    after = before.copy()
    after[10:12, 3:5] = 7  # a bar grown, in the slot redrawn
    after[50, 100, 2] = 1  # outside the rows redrawn: not looked at
    redrawn = [Rect(9, 1, 13, 9), Rect(20, 60, 31, 90)]  # the second came out the same
    assert changed_within(before, after, redrawn) == [Rect(10, 2, 12, 6)]
    assert changed_within(before, after, []) == []
    whole = [Rect(0, 0, 64, 120)]
    assert changed_within(before, after, whole) == changed_rects(before, after)
