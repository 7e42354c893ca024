"""The MCTS tree panel's header and the room of its texts (issue 20 item 6, fourth round).

- A forced decision draws the tree of the last decision with a choice: the header says so
  ("move 2 of 2 (forced): tree of move 1") and names the drawn node the forced search ran
  from ("searched from the root's played child"), whose bar counts the visits the strip
  gives (its iterations and those kept from earlier moves; fifth readers: "100 (+202)"
  beside a root of 323 read as a disagreement).
- The root's words have a line of their own (at blog width they were cut beside the count).
- A slot reaches over the free room of its row: a root alone in its row writes its visits,
  and at 720 px the root's and its children's counts are always written.
- A label too wide for its column is never a fragment cut inside a word at both ends.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from searchvid.render.treeitems import word_tail
from searchvid.render.treelayout import ITEM_NODE
from searchvid.render.treemarks import BACKGROUND, count
from searchvid.render.treepanel import TreePanel
from searchvid.search.events import EventKind
from tests.render.painters import painter_at
from tests.render.test_treepanel import colours_in, ev, plan_events
from tests.render.test_treepanel_mcts import fan, forced_ending

K = EventKind


def chars(text: str) -> int:
    """One pixel per character: widths are easy to follow."""
    return len(text)


def named(node: object) -> str:
    return f"position {node}"


def test_a_forced_decision_s_header_names_the_tree_drawn_and_where_it_searched() -> None:
    events = forced_ending()
    panel = TreePanel(400, 300, events_for_layout=iter(events), label=named)
    start = events.index(ev(K.MOVE, 1, 0, 1.0)) + 1
    for event in events[:start]:
        panel.observe(event)
    assert panel.header_words == ("move 1 of 2", "root, before move 1: position n0")
    kept = panel._node_visits[1]  # node 1's visits when its forced search begins
    panel.observe(events[start])  # decision 1 starts: forced, decision 0's tree stays
    assert panel.decision == 1
    assert panel.census.root == 0
    words = (
        "move 2 of 2: forced, one move to choose from",
        "tree of move 1, searched from its played child",
    )
    assert panel.header_words == words
    for event in events[start + 1 :]:
        panel.observe(event)
    assert panel.header_words == words  # to the end: the closing card's tree is this one
    # the root's played child (node 1) counts the forced search's 4 iterations and the
    # visits kept from the move before: the strip's "iterations 4/4 (+2 from earlier moves)"
    played = [c for c in panel.layout.children[0] if panel._item_played(c)]
    assert [panel.layout.node[c] for c in played] == [1]
    assert (kept, panel._visits[played[0]]) == (2, 2 + 4)


def test_a_decision_with_a_choice_names_its_own_root() -> None:
    events = list(plan_events(random.Random(2), 3, 12))
    panel = TreePanel(400, 300, events_for_layout=iter(events), label=named)
    seen: list[tuple[str, str]] = []
    for event in events:
        panel.observe(event)
        if not seen or seen[-1] != panel.header_words:
            seen.append(panel.header_words)
    n = panel.decisions
    assert [words for words, _ in seen[:n]] == [f"move {k} of {n}" for k in range(1, n + 1)]
    for k, (_, root) in enumerate(seen[:n], start=1):
        assert root.startswith(f"root, before move {k}: position ")
    assert seen[-1][1].startswith(f"after move {n}: position ")


def test_without_a_label_the_header_is_one_line_and_names_no_root() -> None:
    events = list(plan_events(random.Random(2), 3, 12))
    plain = TreePanel(400, 300, events_for_layout=iter(events))
    labelled = TreePanel(400, 300, events_for_layout=iter(events), label=named)
    one = plain._header_box.bottom - plain._header_box.top
    assert labelled._header_box.bottom - labelled._header_box.top == 2 * one
    for event in events[:5]:
        plain.observe(event)
    assert plain.header_words == ("move 1 of 3", "")


def test_a_root_alone_in_its_row_writes_its_visits_beyond_its_column() -> None:
    # nine children in 40 px columns: "990" does not fit beside a 22 px bar in one column
    events = fan([500, 300, 100, 50, 20, 10, 5, 3, 2])
    panel = TreePanel(296, 120, events_for_layout=iter(events))
    for event in events:
        panel.observe(event)
    panel.draw()
    assert not panel._notes_below
    layout = panel.layout
    x, pitch = layout.x[0], layout.pitch_x
    root = panel._slot[0]
    assert (root.left, root.right) == (4, 292)  # the whole row, to the panel's margins
    beyond = panel.pixels[root.top : root.bottom, x + pitch // 2 : root.right]
    assert colours_in(beyond) - {BACKGROUND}  # the count's ink, right of its column
    # the children's slots still tile their row: none overlaps another
    kids = sorted(layout.children[0], key=lambda v: layout.x[v])
    spans = [(panel._slot[v].left, panel._slot[v].right) for v in kids]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))


def test_neighbours_split_the_gap_between_them_at_its_middle() -> None:
    events = fan([5, 3])
    panel = TreePanel(400, 300, events_for_layout=iter(events))
    a, b = sorted(panel.layout.children[0], key=lambda v: panel.layout.x[v])
    xa, xb = panel.layout.x[a], panel.layout.x[b]
    assert panel._slot[a].right == panel._slot[b].left
    assert abs(panel._slot[a].right - ((xa + xb) // 2 + 1)) <= 1  # the middle, even
    assert panel._slot[a].left <= 4  # to the margin (a column may start before it)
    assert panel._slot[b].right == 396
    # names are centred on their node: the room is the narrower side's, twice
    x = panel.layout.x[a]
    slot = panel._slot[a]
    assert panel._room(a) == 2 * min(x + 1 - slot.left, slot.right - x - 1) - 4


def test_a_label_too_wide_keeps_its_last_whole_words_or_nothing() -> None:
    assert word_tail("XOX/.O./OX. O:a1", 6, chars) == "…O:a1"
    assert word_tail("XOX/.O./OX. O:a1", 5, chars) == "…O:a1"
    assert word_tail("XOX/.O./OX. O:a1", 4, chars) == ""  # "…O…" would name nothing
    assert word_tail("43 tiles, exits joined 12", 16, chars) == "…exits joined 12"
    assert word_tail("XOX/.O./.X.", 8, chars) == ""  # one word: whole or not at all


@pytest.mark.parametrize("name", ["railroad-mcts-tree", "tictactoe-mcts-tree"])
def test_the_header_fits_its_panel_at_720_px_on_every_event(name: str) -> None:
    """Both lines whole at blog width: "root (before it): 43 tiles, exits joi…" was cut."""
    scene, painter = painter_at(name, 720)
    (panel,) = painter.panels
    assert isinstance(panel, TreePanel)
    box = panel._header_box
    room = box.right - box.left
    seen: set[tuple[str, str]] = set()
    forced = 0
    for event in scene.events():
        panel.observe(event)
        words = panel.header_words
        if words not in seen:
            seen.add(words)
            forced += words[0].endswith(": forced, one move to choose from")
            for line in words:
                assert panel._text.width(line) <= room, (line, room)
    assert len(seen) >= panel.decisions  # (a forced last move keeps its words to the end)
    assert forced  # both scenes end on a forced move, named so


@pytest.mark.parametrize("name", ["railroad-mcts-tree", "tictactoe-mcts-tree"])
def test_the_root_and_its_children_write_their_visits_at_720_px(name: str) -> None:
    """The strip's "most visited move 65 visits" is always in the tree: the root's and
    its children's counts fit where they are written (checked at each decision's end,
    where the counts are largest)."""
    scene, painter = painter_at(name, 720)
    (panel,) = painter.panels
    assert isinstance(panel, TreePanel)
    checked = 0

    def check() -> None:
        nonlocal checked
        layout = panel.layout
        assert panel._notes
        for v in range(layout.items):
            visits = panel._visits[v]
            if layout.row[v] > 1 or layout.kind[v] != ITEM_NODE or not visits:
                continue
            note = count(visits)
            slot, x = panel._slot[v], layout.x[v]
            if panel._notes_below:
                room = panel._room(v)
                assert panel._small.width(note) <= room, (note, room)
            else:
                left = x + 1 + max(panel._body_w, panel._bw) // 2 + 2
                assert panel._text.width(note) <= slot.right - left, (note, slot, x)
            checked += 1

    for event in scene.events():
        if event.kind is K.MOVE:
            check()  # the decision's last picture, before the move
        panel.observe(event)
    check()
    assert checked > panel.decisions
