"""A frontier search's ``frontier`` count agrees with the frontier the tree view draws, and
a replayed solution says which of its moves is on screen."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import searchvid
from searchvid.domains.tree.view import TreeView
from searchvid.search.events import EventKind


def _drawn_frontier(view: TreeView, node: Any) -> int:
    """Node boxes drawn with the frontier's dashed look in the frame of ``node``."""
    names = view.tileset.names
    grid = view.grid(node)
    return sum(
        1
        for tile in np.unique(grid)
        if names[int(tile)].startswith("node-") and names[int(tile)].endswith("-frontier-0")
    )


def _counts(scene: Any, index: int) -> list[tuple[str, str, int, int]]:
    """Per frame of search ``index``: its kind, node, ``frontier`` field and frontier drawn."""
    view = scene.view()
    events = scene.events(index, framed=True)
    rows = []
    for event in events:
        view.observe(event)
        if event.kind.shows_state and event.kind is not EventKind.MOVE:
            fields = {f.name: f.value for f in events.status_of(event)}
            drawn = _drawn_frontier(view, event.node)
            rows.append((event.kind.value, scene.label(event.node), fields["frontier"], drawn))
    return rows


def test_the_race_s_breadth_first_counts_the_frontier_it_draws() -> None:
    rows = _counts(searchvid.load_scene("tree-bfs-vs-dfs"), 0)
    assert [(count, drawn) for _, _, count, drawn in rows] == [(d, d) for *_, d in rows]
    # children are queued before their parent's frame but drawn one EXPAND frame at a time,
    # each on the frontier from its own frame on (the node being expanded stays current)
    assert rows[8:11] == [
        ("enter", "Uninformed", 2, 2),
        ("expand", "Breadth-First", 3, 3),
        ("expand", "Depth-First", 4, 4),
    ]
    assert rows[-1] == ("leaf", "Minimax", 4, 4)


@pytest.mark.parametrize("algorithm", ["breadth-first", "best-first", "astar"])
def test_every_frontier_search_with_expand_events_counts_what_it_draws(algorithm: str) -> None:
    table = {
        "domain": {"name": "tree"},  # the seed's tree: no goal, every node expanded
        "search": {"algorithm": algorithm, "expand_events": True},
        "video": {"frames": "all", "hold_last": 0},
    }
    rows = _counts(searchvid.scene_from_dict(table, name="t.toml"), 0)
    assert len(rows) == 15  # 8 nodes taken from the frontier, 7 added to it
    for kind, label, count, drawn in rows:
        assert count == drawn, (kind, label)


def test_a_replayed_solution_says_which_move_is_on_screen() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    events = race.events(0, framed=True)
    moves = [
        (race.label(e.node), [f.text() for f in events.status_of(e) if f.name == "move"])
        for e in events
        if e.kind is EventKind.MOVE
    ]
    # the start has no move made yet; the goal's frame says where it was found
    assert moves == [("Search", []), ("Adversarial", ["move 1/2"]), ("Minimax", [])]


def test_the_race_s_breadth_first_ends_counting_what_it_met() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    *_, last = race.strip_texts()
    first = last[0]
    assert first is not None
    words = [f.text() for f in first[1].fields]
    # 6 nodes taken from the queue and 4 left on it: every node it met, drawn on the tree;
    # found level by level, in the tree's words (a tree has no moves)
    assert words[-3:] == ["10 distinct states seen", "no shallower goal", "at Minimax"]
    # the phase says the depth: no "depth 2" nor "level 2" says it again
    assert first[1].phase == "found Minimax at depth 2"
    assert not any(w in ("depth 2", "level 2") for w in words)


@pytest.mark.parametrize(
    ("name", "frontier"),
    [("tree-backtracking", False), ("tree-bfs-vs-dfs", True)],
)
def test_the_legend_names_the_frontier_only_where_a_search_has_one(
    name: str, frontier: bool
) -> None:
    words = [mark.text for mark in searchvid.load_scene(name).view().marks]
    assert ("frontier" in words) is frontier
    assert words[:3] == ["current", "on the path to it", "visited"]


def test_a_view_told_nothing_keeps_the_frontier_in_its_legend() -> None:
    table = {"domain": {"name": "tree"}, "search": {"algorithm": "backtracking"}}
    scene = searchvid.scene_from_dict(table, name="t.toml")
    view = scene.domain.view()  # not through the scene: nobody told it the algorithm
    assert "frontier" in [mark.text for mark in view.marks]
    assert "frontier" not in [mark.text for mark in scene.view().marks]


def test_breadth_first_s_closing_card_counts_the_states_it_met() -> None:
    scene = searchvid.load_scene("watersort-bfs")
    *_, last = scene.strip_texts()
    item = last[0]
    assert item is not None
    _, text = item
    assert text.phase == "solved in 39 pours"
    words = [f.text() for f in text.fields]
    # every state met once: the 27,081 expanded and the 59 still queued
    assert "27,140 distinct states seen" in words
    assert words[words.index("27,140 distinct states seen") - 3 :][:3] == [
        "work 27,081 expansions",
        "frontier 59",
        "level 39",
    ]
    assert "fewest moves possible" in words  # found level by level
    # only the closing card says so: no earlier frame counts the states met
    frames = [t for shown in scene.strip_texts() for t in [shown[0]] if t is not None]
    assert (
        sum("distinct states seen" in " ".join(f.text() for f in t.fields) for _, t in frames) == 1
    )
