"""The MCTS tree panel: children by visits, the current node never folded away, the
principal variation lit, forced decisions (issue 20, item 3)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from searchvid.render.canvas import Rect
from searchvid.render.treelayout import ITEM_AGGREGATE, ITEM_NODE, ITEM_SPOT, TreeRecord
from searchvid.render.treemarks import PATH, PLAYED, PV, TEXT
from searchvid.render.treepanel import COLORS, TreePanel
from searchvid.search.events import Event, EventKind
from tests.render.test_treepanel import colours_in, ev, mcts_events, plan_events

K = EventKind


def slot_colours(panel: TreePanel, rect: Rect) -> set[tuple[int, int, int]]:
    return colours_in(panel.pixels[rect.top : rect.bottom, max(0, rect.left) : rect.right])


def local(panel: TreePanel, node: int) -> int:
    return int(np.searchsorted(panel.census.ids, node))


def item_of(panel: TreePanel, node: int) -> int:
    """The layout item that stands for ``node`` (its own, or its aggregate)."""
    return panel.layout.rep[local(panel, node)]


# -- order ----------------------------------------------------------------------------------


def fan(visits: Sequence[int]) -> list[Event]:
    """A root whose children 1, 2, ... (created in that order) end with ``visits``."""
    events = [ev(K.SELECT, 0, None)]
    for child, n in enumerate(visits, start=1):
        events.append(ev(K.EXPAND, child, 0))
        events += [ev(K.BACKUP, child, 0, 0.5)] * n
    return events


def test_children_stand_by_their_final_visits_most_visited_leftmost() -> None:
    events = fan([2, 5, 1, 5, 9, 3])
    panel = TreePanel(400, 300, events_for_layout=iter(events))
    layout = panel.layout
    order = [layout.node[v] for v in layout.children[0]]
    assert order == [5, 2, 4, 6, 1, 3]  # 9, 5, 5 (the older first), 3, 2, 1
    xs = [layout.x[v] for v in layout.children[0]]
    assert xs == sorted(xs)


def test_the_least_visited_children_fold_into_the_last_item() -> None:
    # 30 children with visits 1..30 in a scrambled creation order: 8 columns of 40 px, the
    # fold's two (the fold and its lane, where a folded node on the current path is drawn)
    rng = random.Random(2)
    visits = list(range(1, 31))
    rng.shuffle(visits)
    panel = TreePanel(328, 300, events_for_layout=iter(fan(visits)))
    layout = panel.layout
    kids = layout.children[0]
    assert [layout.kind[v] for v in kids] == [ITEM_NODE] * 6 + [ITEM_SPOT, ITEM_AGGREGATE]
    shown = [visits[layout.node[v] - 1] for v in kids[:-2]]
    assert shown == [30, 29, 28, 27, 26, 25]
    assert layout.hidden[kids[-1]] == 24
    assert layout.spots[kids[-1]] == [kids[-2]]


def test_other_searches_keep_their_children_in_creation_order() -> None:
    events = [ev(K.ENTER, 0, None)] + [ev(K.FRONTIER, i, 0) for i in range(1, 6)]
    events += [ev(K.ENTER, 4, 0), ev(K.FRONTIER, 6, 4), ev(K.FRONTIER, 7, 4)]
    layout = TreePanel(400, 300, events_for_layout=iter(events)).layout
    assert [layout.node[v] for v in layout.children[0]] == [1, 2, 3, 4, 5]
    assert not layout.spots


# -- the current node -----------------------------------------------------------------------


def current_of(event: Event, current: int) -> int:
    """The node the panel makes current after ``event`` (a playout state: its parent)."""
    showing = {K.SELECT, K.EXPAND, K.ROLLOUT, K.MOVE, K.ENTER, K.LEAF, K.BACKTRACK}
    if event.kind not in showing:
        return current
    if event.id is None:
        return current if event.parent is None else event.parent
    return event.id


def check_never_folded(events: list[Event], width: int, height: int) -> int:
    """Feed ``events`` one by one; after each, the current node and every node above it
    (to the decision's root) are drawn by themselves, the current one ringed in yellow.
    Returns how often the current node was hidden in an aggregate."""
    panel = TreePanel(width, height, events_for_layout=iter(events))
    assert all(layout.depth_cap is None for layout in panel.layouts)
    parents: dict[int, int | None] = {}
    current = -1
    guests = 0
    panel.draw()
    for k, event in enumerate(events):
        if event.id is not None:
            parents.setdefault(event.id, event.parent)
        panel.observe(event)
        current = current_of(event, current)
        panel.draw()
        if current < 0 or panel.item_rect(current) is None:
            continue  # (a MOVE's node before its decision starts)
        guests += panel.layout.kind[item_of(panel, current)] == ITEM_AGGREGATE
        node: int | None = current
        while node is not None:
            assert panel.drawn_at(node) is not None, (k, current, node)
            if node == panel.census.root:
                break
            node = parents[node]
        rect = panel.drawn_at(current)
        assert rect is not None
        assert PATH in slot_colours(panel, rect), k
        if k % 25 == 0:
            assert colours_in(panel.pixels) <= set(panel.colors)
    assert colours_in(panel.pixels) <= set(COLORS)
    return guests


def test_the_current_node_is_never_folded_in_a_search() -> None:
    events = list(mcts_events(random.Random(3), 250))
    assert check_never_folded(events, 300, 400) > 50  # hidden in a "+k" item most of the time


def test_the_current_node_is_never_folded_in_plan_mode() -> None:
    events = list(plan_events(random.Random(6), blocks=5, iterations=60))
    assert check_never_folded(events, 260, 360) > 50


def test_spots_stand_in_a_lane_beside_their_aggregate_one_per_row() -> None:
    events = list(mcts_events(random.Random(3), 250))
    panel = TreePanel(300, 400, events_for_layout=iter(events))
    layout = panel.layout
    assert layout.spots
    for aggregate, spots in layout.spots.items():
        # the lane: the column just left of the fold, from the fold's own row down
        lane = layout.x[aggregate] - layout.pitch_x
        assert [layout.x[s] for s in spots] == [lane] * len(spots)
        assert [layout.row[s] for s in spots] == list(
            range(layout.row[aggregate], layout.row[aggregate] + len(spots))
        )
        assert all(layout.kind[s] == ITEM_SPOT for s in spots)
        siblings = layout.children[layout.parent[aggregate]]
        assert siblings.index(spots[0]) == siblings.index(aggregate) - 1
    # no slot overlaps another: a spot's column is free below its aggregate
    canvas = np.zeros((panel.height, panel.width), dtype=np.int32)
    slots = [panel._slot[v] for v in range(layout.items)]
    for rect in slots:
        canvas[max(0, rect.top) : rect.bottom, max(0, rect.left) : rect.right] += 1
    assert canvas.max() == 1


def test_a_folded_node_being_searched_stands_beside_its_fold_with_its_own_visits() -> None:
    # Issue 20: the node being selected or expanded is never drawn in a "+k" fold's place
    # nor labelled with the fold's count; the fold stays a separate "+k" beside it.
    rng = random.Random(2)
    visits = list(range(2, 32))
    rng.shuffle(visits)
    events = fan(visits)  # children 1-30, then a new child 31: expanded, one visit
    events += [ev(K.SELECT, 0, None), ev(K.EXPAND, 31, 0), ev(K.BACKUP, 31, 0, 0.5)]
    events += [ev(K.SELECT, 0, None)]
    panel = TreePanel(328, 300, events_for_layout=iter(events))
    layout = panel.layout
    fold = layout.children[0][-1]
    lane = layout.spots[fold][0]
    assert layout.kind[fold] == ITEM_AGGREGATE
    assert layout.rep[local(panel, 31)] == fold  # the least visited: folded
    assert layout.hidden[fold] == 25  # 24 of children 1-30, and 31
    for event in events[:-3]:
        panel.observe(event)
    panel.draw()
    assert panel._look(fold)[7] == "+24"
    assert panel._look(lane) is None  # the lane is empty while no folded node is searched
    panel.observe(events[-3])  # EXPAND 31: the current node, hidden in the fold
    panel.observe(events[-2])  # its visit
    panel.draw()
    assert panel.drawn_at(31) == panel._slot[lane] != panel._slot[fold]
    assert panel._look(lane)[7] == "1"  # its own visits
    assert panel._look(fold)[7] == "+24"  # the others: 31 is drawn, not counted twice
    assert PATH in slot_colours(panel, panel._slot[lane])  # ringed as the current node
    assert PATH not in slot_colours(panel, panel._slot[fold])
    assert layout.x[lane] == layout.x[fold] - layout.pitch_x  # beside it, on its left
    panel.observe(events[-1])  # back at the root: 31 is folded again, and counted there
    panel.draw()
    assert panel.drawn_at(31) is None
    assert panel._look(lane) is None
    assert panel._look(fold)[7] == "+25"


# -- the principal variation ----------------------------------------------------------------


def expected_pv(panel: TreePanel, visits: dict[int, int]) -> tuple[list[int], int]:
    """The principal variation's drawn nodes from the root, by the rule (most visits so far;
    ties: the leftmost, i.e. a drawn child before a hidden one, then most final visits,
    then the older), and the aggregate it ends in (-1: none)."""
    census, layout = panel.census, panel.layout
    ids = census.ids.tolist()
    final = dict(zip(ids, census.weights.tolist(), strict=True))
    kids: dict[int, list[int]] = {}
    for node, up in zip(ids[1:], census.parents.tolist()[1:], strict=True):
        kids.setdefault(ids[up], []).append(node)
    line = [census.root]
    while True:
        seen = [c for c in kids.get(line[-1], []) if visits.get(c, 0)]
        if not seen:
            break

        def key(c: int) -> tuple[int, bool, int, int]:
            hidden = layout.kind[item_of(panel, c)] != ITEM_NODE
            return (-visits[c], hidden, -final[c], c)

        best = min(seen, key=key)
        item = item_of(panel, best)
        if layout.kind[item] != ITEM_NODE:  # the line ends in the fold: it has two items
            return line, item
        line.append(best)
    return (line if len(line) > 1 else []), -1


def test_the_principal_variation_is_lit_as_the_visits_change() -> None:
    for events, size, moves in (
        (list(mcts_events(random.Random(9), 200)), (300, 400), 0),
        (list(plan_events(random.Random(5), blocks=3, iterations=50)), (300, 360), 5),
    ):
        panel = TreePanel(*size, events_for_layout=iter(events))
        parents: dict[int, int | None] = {}
        visits: dict[int, int] = {}
        root = 0
        checked = changes = 0
        last: tuple[int, ...] = ()
        for k, event in enumerate(events):
            if event.id is not None:
                parents.setdefault(event.id, event.parent)
            panel.observe(event)
            panel.draw()
            root = panel.census.root
            if event.kind is K.BACKUP:
                node: int | None = event.id
                while node is not None:
                    visits[node] = visits.get(node, 0) + 1
                    node = None if node == root else parents[node]
            if k % 9 and k != len(events) - 1:
                continue
            panel.draw()
            line, fold = expected_pv(panel, visits)
            assert panel.pv_nodes == tuple(line), k
            changes += panel.pv_nodes != last
            last = panel.pv_nodes
            on = set(line)
            layout = panel.layout
            for v in range(layout.items):
                if layout.kind[v] == ITEM_NODE and panel.drawn_at(layout.node[v]) is not None:
                    lit = PV in slot_colours(panel, panel._slot[v])
                    assert lit == (layout.node[v] in on), (k, layout.node[v])
                    checked += 1
            if fold >= 0 and panel._shown[fold]:
                assert PV in slot_colours(panel, panel._slot[fold])
            elif fold >= 0:  # every node of the fold seen so far is drawn in its lane
                assert PV in slot_colours(panel, panel._slot[layout.spots[fold][0]])
        assert checked > 200
        assert changes > moves  # the line moves as the search changes its mind


def test_the_principal_variation_is_in_the_legend_and_the_palette() -> None:
    panel = TreePanel(400, 300, events_for_layout=iter(fan([3, 1])))
    assert "most visits" in panel.legend
    assert PV in panel.colors
    legend = panel.pixels[panel.height - 40 :]
    assert PV in colours_in(legend)
    # a depth-first search has no principal variation
    plain = TreePanel(400, 300, events_for_layout=iter([ev(K.ENTER, 0, None)]))
    assert "most visits" not in plain.legend
    assert PV not in colours_in(plain.pixels)


# -- forced decisions -----------------------------------------------------------------------


def forced_ending() -> list[Event]:
    """Decision 0: a root with children 1 and 2 (1 played, with its only child 3 already
    expanded); decision 1: from 1, whose only move is 3."""
    events = [ev(K.MOVE, 0, None), ev(K.SELECT, 0, None)]
    events += [ev(K.EXPAND, 1, 0), ev(K.BACKUP, 1, 0, 1.0)]
    events += [ev(K.EXPAND, 2, 0), ev(K.BACKUP, 2, 0, 0.0)]
    events += [ev(K.SELECT, 1, 0), ev(K.EXPAND, 3, 1), ev(K.BACKUP, 3, 1, 1.0)]
    events += [ev(K.MOVE, 1, 0, 1.0)]
    for _ in range(4):
        events += [ev(K.SELECT, 3, 1), ev(K.BACKUP, 3, 1, 1.0)]
    events += [ev(K.MOVE, 3, 1, 1.0)]
    return events


def test_a_forced_decision_keeps_the_last_tree_and_counts_its_visits() -> None:
    events = forced_ending()
    record = TreeRecord.of(iter(events))
    assert [census.forced for census in record.decisions] == [False, True]
    panel = TreePanel(400, 300, events_for_layout=iter(events))
    start = events.index(ev(K.MOVE, 1, 0, 1.0)) + 1
    for event in events[:start]:
        panel.observe(event)
    panel.draw()
    header = panel.pixels[:24].copy()
    assert "this move's search root" not in panel.legend
    layout = panel.layout
    for n, event in enumerate(events[start:]):
        panel.observe(event)
        rects = panel.draw()
        # drawn afresh once, for the legend's new entry; the layout stays
        assert (rects == [Rect(0, 0, panel.height, panel.width)]) == (n == 0)
        assert panel.layout is layout
    assert panel.decision == 1
    assert panel.census.root == 0  # decision 0's tree, with its played line
    assert not np.array_equal(panel.pixels[:24], header)  # "move 2 of 2 (forced)"
    # the forced search's visits count up to the kept tree's root (0): a child never shows
    # more visits than its parent (decision 0 gave 3, 1 and 2 visits to nodes 0, 3 and 1;
    # the forced search's 4 backups pass through all three)
    assert panel._visits[item_of(panel, 3)] == 1 + 4
    assert panel._visits[item_of(panel, 1)] == 2 + 4
    assert panel._visits[item_of(panel, 0)] == 3 + 4
    assert panel.pv_nodes == (0, 1, 3)
    # the node the forced search started from (1) is ringed in the text colour, named so
    assert panel.legend[:4] == ("current", "played", "this move's search root", "most visits")
    v = item_of(panel, 1)
    left = panel.layout.x[v] + 1 - panel._bw // 2
    top = panel._box_top[v]
    ring = panel.pixels[top : top + panel._bh, left : left + panel._bw]
    assert (ring[0, :] == TEXT).all()
    assert (ring[:, 0] == TEXT).all()
    assert (ring[2:-2, 2:-2] == PLAYED).all(axis=2).any()  # its own green outline inside
    other = item_of(panel, 3)  # played too, not the search's root: no ring
    assert not (panel.pixels[panel._box_top[other], panel.layout.x[other] + 1] == TEXT).all()


def test_on_a_tie_for_the_most_visits_the_played_child_is_the_principal_variation() -> None:
    # three children of two visits each; the search commits the last one (its own tie rule)
    events = [ev(K.MOVE, 0, None), *fan([2, 2, 2]), ev(K.MOVE, 3, 0, 0.5)]
    panel = TreePanel(300, 360, events_for_layout=iter(events))
    for event in events[:-1]:
        panel.observe(event)
    panel.draw()
    thinking = panel.pv_nodes
    assert thinking[0] == 0
    assert thinking[1] != 3  # while it thinks, one of the tied children: not the last
    panel.observe(events[-1])
    panel.draw()
    # the "most visits" line follows the played child, not another of as many visits
    assert panel.pv_nodes == (0, 3)
    v = item_of(panel, 3)
    assert PV in slot_colours(panel, panel._slot[v])
    assert PV not in slot_colours(panel, panel._slot[item_of(panel, thinking[1])])
