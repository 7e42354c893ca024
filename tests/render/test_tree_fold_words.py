"""The tree panel says what its marks count (issue 20, item 6: railroad-mcts-tree's reader took
a fold's "+k" for k visits, and could not tell the header's numbers, the tree root's, from
the strip's, the board's)."""

from __future__ import annotations

import random
import re

import searchvid
from searchvid.render.treelayout import ITEM_AGGREGATE
from searchvid.render.treelegend import LegendEntry, LegendFacts, legend_entries
from searchvid.render.treemarks import PATH
from searchvid.render.treepanel import TreePanel
from searchvid.search.events import EventKind
from tests.render.test_treepanel import colours_in, panel_of, plan_events
from tests.render.test_treepanel_mcts import fan


def test_a_fold_counts_the_nodes_it_stands_for_not_their_visits() -> None:
    rng = random.Random(2)
    visits = list(range(1, 31))
    rng.shuffle(visits)
    events = fan(visits)
    panel = TreePanel(328, 300, events_for_layout=iter(events))
    for event in events:
        panel.observe(event)
    panel.draw()
    fold = panel.layout.children[0][-1]
    assert panel.layout.kind[fold] == ITEM_AGGREGATE
    folded = sorted(visits)[:24]  # the 24 least visited children, 300 visits in all
    assert sum(folded) == 300
    look = panel._look(fold)
    assert look is not None
    assert look[7] == "+24"  # the note under the fold: 24 nodes
    assert "+k more nodes" in panel.legend


def test_the_mcts_legend_names_the_fold_the_line_of_most_visits_and_what_a_bar_says() -> None:
    facts = LegendFacts(
        frontier=False,
        visited_word="visited",
        leaves=False,
        dropped=False,
        pruned=False,
        played=True,
        values=True,
        value_name="mean reward",
        mcts=True,
    )
    assert legend_entries(facts, hidden=True, thumbnails=False) == [
        LegendEntry("current", "current"),
        LegendEntry("played", "played"),
        LegendEntry("pv", "most visits"),
        LegendEntry("hidden", "+k more nodes"),
        LegendEntry("scale", "mean reward"),
        LegendEntry("sizes", "height, number: visits done, kept from earlier moves"),
    ]


def header_has_marks(panel: TreePanel) -> bool:
    """Whether the header shows the decisions' marks (the current one is yellow)."""
    box = panel._header_box
    return PATH in colours_in(panel.pixels[box.top : box.bottom, box.left : box.right])


def test_the_header_names_the_tree_root_and_keeps_room_for_it() -> None:
    events = list(plan_events(random.Random(2), 12, 12))
    labelled = panel_of(events, 240, 300, label=lambda node: f"position {node}")
    plain = panel_of(events, 240, 300)
    for event in events[:40]:
        labelled.observe(event)
        plain.observe(event)
    labelled.draw()
    plain.draw()
    assert labelled._root_name == "root, before move 1: position n0"
    # the root's words have a line of their own, under the move count: the 12 marks
    # (96 px) fit beside the count with or without them, and nothing cuts the words
    assert header_has_marks(plain)
    assert header_has_marks(labelled)
    line = labelled._header_line
    box = labelled._header_box
    plain_box = plain._header_box
    assert box.bottom - box.top == 2 * line == 2 * (plain_box.bottom - plain_box.top)
    first = labelled.pixels[box.top : box.top + line, box.left : box.right]
    second = labelled.pixels[box.top + line : box.bottom, box.left : box.right]
    assert PATH in colours_in(first)
    assert PATH not in colours_in(second)
    assert len(colours_in(second)) > 2  # anti-aliased words


def test_inside_an_iteration_the_root_counts_the_visits_done_as_its_legend_says() -> None:
    # fifth readers, railroad-mcts-tree frame 116: "iteration 177/300 (+6 from earlier
    # moves)" beside a root of 182: the iteration on screen is under way, and a bar counts
    # the visits done (the legend: "visits done"): 176 + 6
    scene = searchvid.load_scene("railroad-mcts-tree")
    parents: dict[int, int | None] = {}
    visits: dict[int, int] = {}
    root_at: dict[int, int] = {}  # an event's step: its decision root's visits by then
    root = -1
    for e in scene.events():
        if e.id is not None:
            parents.setdefault(e.id, e.parent)
        if e.kind is EventKind.MOVE and e.id is not None:
            root = e.id
        if e.kind is EventKind.BACKUP:
            node = e.id
            while node is not None:
                visits[node] = visits.get(node, 0) + 1
                node = parents.get(node)
        root_at[e.step] = visits.get(root, 0)
    checked = 0
    for shown in scene.strip_texts():
        item = shown[0]
        if item is None:
            continue
        event, text = item
        words = [f.text() for f in text.fields]
        under_way = [w for w in words if w.startswith("iteration ")]
        if not under_way:
            continue
        n = int(under_way[0].split()[1].split("/")[0])
        notes = [w for w in words if w.endswith("from earlier moves)")]
        kept = int(re.sub(r"\D", "", notes[0])) if notes else 0
        assert root_at[event.step] == n - 1 + kept, (event.step, words)
        checked += 1
    assert checked > 50
