"""A tree panel's redraw at a new decision copies only what changed into the frame."""

from __future__ import annotations

import numpy as np
import pytest

import searchvid
from searchvid.render.canvas import Rect
from searchvid.render.panelchanges import changed_rects
from searchvid.render.treepanel import TreePanel
from searchvid.search.events import EventKind


def _pasted(before: np.ndarray, after: np.ndarray, rects: list[Rect]) -> np.ndarray:
    screen = before.copy()
    for r in rects:
        screen[r.top : r.bottom, r.left : r.right] = after[r.top : r.bottom, r.left : r.right]
    return screen


def test_changed_rects_cover_each_band_s_changed_columns_with_even_edges() -> None:
    before = np.zeros((40, 20, 3), dtype=np.uint8)
    after = before.copy()
    after[3, 5, 1] = 9  # one channel of one pixel, band 0
    after[20:22, 10:13] = 200  # band 1 (rows 16..31 with bands of 16)
    rects = changed_rects(before, after, band=16)
    assert rects == [Rect(0, 4, 16, 6), Rect(16, 10, 32, 14)]
    assert np.array_equal(_pasted(before, after, rects), after)
    assert changed_rects(after, after) == []


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
