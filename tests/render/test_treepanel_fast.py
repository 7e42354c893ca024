"""The tree panel's shortcuts draw what the plain code draws (issue 22, item 1): fills from
rows of a colour, the legend copied rather than redrawn, and the current node's shortcut."""

from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np
import pytest

from searchvid.render.treemarks import Pixels
from searchvid.render.treepanel import TreePanel
from searchvid.render.treestate import TreeState
from searchvid.search.events import Event, EventKind
from tests.render.test_treepanel import BACKTRACKING, BFS, mcts_events, plan_events


class PlainPanel(TreePanel):
    """The panel as drawn without its shortcuts: numpy's broadcast of one colour, the
    legend drawn at every new decision, the general bookkeeping of the current node."""

    lent = 0
    """Events after which some hidden node was drawn in a lent slot (the general path)."""

    def _fill(self, region: Pixels, color: int) -> None:
        region[...] = self._rgb[color]

    def _draw_legend(self) -> None:
        self._legend_look = None
        super()._draw_legend()

    def _set_current(self, i: int) -> None:
        TreeState._set_current(self, i)
        self.lent += bool(self._host)


def _both(events: list[Event], size: tuple[int, int], every: int) -> PlainPanel:
    """Feed ``events`` to a panel and to a plain one, drawing both after every ``every``th
    event and after each MOVE; every picture and every list of changed rectangles agree."""
    width, height = size
    fast = TreePanel(width, height, events_for_layout=iter(events), changes_only=True)
    plain = PlainPanel(width, height, events_for_layout=iter(events), changes_only=True)
    assert np.array_equal(fast.pixels, plain.pixels)
    for k, event in enumerate(events):
        fast.observe(event)
        plain.observe(event)
        if k % every and event.kind is not EventKind.MOVE:
            continue
        assert fast.draw() == plain.draw(), k
        assert np.array_equal(fast.pixels, plain.pixels), k
    return plain


def _events(stream: Iterable[Event]) -> list[Event]:
    return list(stream)


@pytest.mark.parametrize("every", [1, 7])
def test_an_mcts_plan_with_hidden_nodes_draws_the_same_pictures(every: int) -> None:
    events = _events(plan_events(random.Random(4), 6, 60))
    plain = _both(events, (240, 200), every)
    assert plain.decisions > 3  # new decisions: full redraws, the legend copied
    assert plain.lent  # the current node was hidden, drawn in a lent slot


def test_decisions_whose_legends_differ_draw_the_same_pictures() -> None:
    events = _events(plan_events(random.Random(1), 6, 20))
    plain = _both(events, (600, 400), 5)
    hidden = [bool(layout.aggregates) for layout in plain.layouts]
    assert hidden[:2] == [False, True]  # the legend gains "+k more nodes" ...
    assert hidden[-1] is False  # ... and loses it


def test_a_single_mcts_tree_draws_the_same_pictures() -> None:
    events = _events(mcts_events(random.Random(9), 150))
    plain = _both(events, (320, 240), 3)
    assert plain.lent


@pytest.mark.parametrize("stream", [BACKTRACKING, BFS], ids=["backtracking", "bfs"])
def test_small_trees_draw_the_same_pictures(stream: list[Event]) -> None:
    _both(stream, (200, 160), 1)
