"""The MCTS tree panel on forced moves, folds and node names (issue 20 item 6, sixth round).

- Nodes a forced search adds (drawn in no tree while the kept tree is shown) are still noted
  as seen: a later decision's tree draws them, so a child named there never hangs under an
  edge from nothing (watersort-mcts frame 53: "one branch fragment floats disconnected").
- A fold whose every node seen so far is drawn in its lane is not drawn ("+0"), nor its edge.
- The legend promises visit numbers and "+k" only where the layout writes them.
- A domain's words for reading its node labels (``node_names``) close the legend where
  names are written.
"""

from __future__ import annotations

import random

from searchvid.domains.tictactoe import TicTacToeDomain
from searchvid.render.treelayout import ITEM_AGGREGATE, ITEM_SPOT
from searchvid.render.treelegend import LegendEntry, LegendFacts, legend_entries
from searchvid.render.treepanel import TreePanel
from searchvid.render.treerecord import TreeRecord
from searchvid.search.events import Event, EventKind
from tests.render.test_treepanel import ev, mcts_events
from tests.render.test_treepanel_mcts import fan, item_of

K = EventKind


def after_a_forced_move() -> list[Event]:
    """Decision 0 from 0 (children 1 and 2; 1 played, its only child 3 expanded); decision
    1, forced, from 1 (its search adds 4 under 3 and 5 under 4); decision 2 from 3, a
    choice between 4 and 6, whose search names 5 but never 4."""
    events = [ev(K.MOVE, 0, None), ev(K.SELECT, 0, None)]
    events += [ev(K.EXPAND, 1, 0), ev(K.BACKUP, 1, 0, 1.0)]
    events += [ev(K.EXPAND, 2, 0), ev(K.BACKUP, 2, 0, 0.0)]
    events += [ev(K.SELECT, 1, 0), ev(K.EXPAND, 3, 1), ev(K.BACKUP, 3, 1, 1.0)]
    events += [ev(K.MOVE, 1, 0, 1.0)]
    events += [ev(K.SELECT, 3, 1), ev(K.EXPAND, 4, 3), ev(K.BACKUP, 4, 3, 1.0)]
    events += [ev(K.SELECT, 4, 3), ev(K.EXPAND, 5, 4), ev(K.BACKUP, 5, 4, 1.0)]
    events += [ev(K.MOVE, 3, 1, 1.0)]
    events += [ev(K.SELECT, 5, 4), ev(K.BACKUP, 5, 4, 1.0)]
    events += [ev(K.EXPAND, 6, 3), ev(K.BACKUP, 6, 3, 0.0)]
    events += [ev(K.MOVE, 4, 3, 1.0)]
    return events


def test_nodes_a_forced_search_added_are_drawn_above_their_children_later() -> None:
    events = after_a_forced_move()
    record = TreeRecord.of(iter(events))
    assert [census.forced for census in record.decisions] == [False, True, False]
    panel = TreePanel(400, 300, events_for_layout=iter(events))
    for event in events[: events.index(ev(K.SELECT, 5, 4)) + 1]:
        panel.observe(event)
        panel.draw()
    assert panel.decision == 2
    assert panel.census.root == 3
    assert panel.drawn_at(5) is not None
    assert panel.drawn_at(4) is not None  # never named in decision 2: its child was
    layout = panel.layout
    for v in range(layout.items):
        up = layout.parent[v]
        if panel._shown[v] and up >= 0:
            assert panel._shown[up], (v, up)


def test_a_fold_whose_nodes_are_all_in_its_lane_is_not_drawn() -> None:
    # twelve children in a narrow panel: the least visited are one fold with a lane
    events = fan([30, 20, 15, 12, 10, 8, 6, 5, 4, 3, 2, 1])
    panel = TreePanel(200, 160, events_for_layout=iter(events))
    layout = panel.layout
    fold = layout.children[0][-1]
    assert layout.kind[fold] == ITEM_AGGREGATE
    hidden = sorted(c for c in range(1, 13) if item_of(panel, c) == fold)
    assert len(hidden) >= 2
    first = events.index(ev(K.EXPAND, hidden[0], 0))
    for event in events[: first + 1]:  # the fold's first node, current: drawn in its lane
        panel.observe(event)
    panel.draw()
    spot = layout.spots[fold][0]
    assert layout.kind[spot] == ITEM_SPOT
    assert panel._guest[spot] == hidden[0]
    assert not panel._shown[fold]  # it would read "+0"
    assert panel._look(fold) is None
    assert panel._kids[0] == sum(panel._shown[c] for c in layout.children[0])
    assert fold not in [c for c in layout.children[0] if panel._shown[c]]  # no edge to it
    second = events.index(ev(K.EXPAND, hidden[1], 0))
    for event in events[first + 1 : second + 1]:  # the next node of the fold is current
        panel.observe(event)
    panel.draw()
    assert panel._guest[spot] == hidden[1]
    assert panel._shown[fold]  # the first one is back in the fold
    look = panel._look(fold)
    assert look is not None
    assert look[7] == "+1"


def facts(**changes: object) -> LegendFacts:
    base: dict[str, object] = {
        "frontier": False,
        "visited_word": "visited",
        "leaves": False,
        "dropped": False,
        "pruned": False,
        "played": True,
        "values": True,
        "value_name": "mean reward",
        "mcts": True,
    }
    base.update(changes)
    return LegendFacts(**base)  # type: ignore[arg-type]


def test_the_legend_promises_numbers_only_where_they_are_written() -> None:
    written = legend_entries(facts(), hidden=True, thumbnails=False, counts=True)
    bare = legend_entries(facts(), hidden=True, thumbnails=False, counts=False)
    assert LegendEntry("hidden", "+k more nodes") in written
    assert LegendEntry("sizes", "height, number: visits done, kept from earlier moves") in written
    assert LegendEntry("hidden", "more nodes") in bare
    assert LegendEntry("sizes", "height: visits done, kept from earlier moves") in bare


def test_a_large_tree_without_numbers_says_so_in_its_legend() -> None:
    events = list(mcts_events(random.Random(3), 400))
    panel = TreePanel(120, 120, events_for_layout=iter(events))
    assert not panel._notes
    assert "height: visits done" in panel.legend


def test_the_domain_s_words_for_its_names_close_the_legend_where_names_are_drawn() -> None:
    words = TicTacToeDomain.node_names
    assert words == "names: rows top to bottom (. empty), then the last move (X:a2 = X at a2)"
    named = legend_entries(facts(names=words), hidden=False, thumbnails=False, named=True)
    assert named[-1] == LegendEntry("names", words)
    unnamed = legend_entries(facts(names=words), hidden=False, thumbnails=False, named=False)
    assert all(entry.key != "names" for entry in unnamed)
    plain = legend_entries(facts(), hidden=False, thumbnails=False, named=True)
    assert all(entry.key != "names" for entry in plain)


def test_a_panel_writing_names_explains_them_and_one_without_names_does_not() -> None:
    events = fan([3, 2])
    words = "names: how to read them"
    named = TreePanel(400, 300, events_for_layout=iter(events), label=str, names=words)
    assert named._names
    assert named.legend[-1] == words
    unlabelled = TreePanel(400, 300, events_for_layout=iter(events), names=words)
    assert words not in unlabelled.legend
