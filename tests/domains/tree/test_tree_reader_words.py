"""What a reader of the tree scenes is told: the tree's own words (the root, a leaf, no
shallower goal), what a search with no goal is for, the result said once, the undone mark
on the child alone, and the tree kept inside its panel, centred in a padded frame."""

from __future__ import annotations

import tomllib
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import searchvid
from searchvid.domains.tree.view import BACKGROUND as PAPER
from searchvid.domains.tree.view import BOX, NodeState, TreeView
from searchvid.render.domainterms import DEAD_END, SHORTEST, START, says_depth
from searchvid.render.framelayout import FrameLayout
from searchvid.render.hud import HudText
from searchvid.render.palette import UNDONE
from searchvid.render.pipeline import render_frame
from searchvid.render.setting_words import GOAL_KEY, describe_goal, describe_setting
from searchvid.resources import builtin_scenes_dir
from searchvid.search.algorithms.frontier import SHORTEST as BFS_SHORTEST
from searchvid.search.events import EventKind

BACKGROUND = (24, 24, 24)
"""The frame's own dark background (outside the board)."""


def _table(name: str) -> dict[str, Any]:
    with (builtin_scenes_dir() / f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def _texts(scene: searchvid.Scene, column: int = 0) -> list[HudText]:
    out = []
    for shown in scene.strip_texts():
        item = shown[column]
        if item is not None and (not out or item[1] is not out[-1]):
            out.append(item[1])
    return out


def test_the_opening_says_a_search_with_no_goal_visits_every_node_and_names_the_root() -> None:
    first = _texts(searchvid.load_scene("tree-backtracking"))[0]
    assert first.phase == "a tree of 11 nodes, from Search"
    assert [f.text() for f in first.fields] == [
        "search: backtracking",
        "no goal: visits every node",
    ]
    assert first.caption == "the root"


def test_the_tree_calls_a_node_without_children_a_leaf() -> None:
    captions = [t.caption for t in _texts(searchvid.load_scene("tree-backtracking"))]
    leaves = [c for c in captions if c is not None and c.endswith(": leaf")]
    # Breadth-First, Backtracking, A*, Beam Search, Minimax
    assert leaves == [
        "go to Breadth-First: leaf",
        "go to Backtracking: leaf",
        "go to A*: leaf",
        "go to Beam Search: leaf",
        "go to Minimax: leaf",
    ]
    assert not any("dead end" in (c or "") for c in captions)


def test_a_board_domain_keeps_the_generic_words() -> None:
    scene = searchvid.scene_from_dict(
        {
            "domain": {"name": "tictactoe"},
            "search": {"algorithm": "backtracking"},
            "video": {"captions": True, "max_frames": 12},
        },
        name="t",
    )
    captions = [t.caption or "" for t in _texts(scene)]
    assert captions[0] == START == "the start position"
    assert any(c.endswith(f": {DEAD_END}") or f": {DEAD_END} (" in c for c in captions)


def test_the_closing_card_says_its_result_once() -> None:
    last = _texts(searchvid.load_scene("tree-backtracking"))[-1]
    assert last.phase == "search complete: 11 nodes"
    assert last.caption == "backtracking (no goal: visits every node)"
    said = [last.phase, *(f.text() for f in last.fields), last.caption]
    assert sum("11 nodes" in words for words in said) == 1


def test_breadth_first_s_goal_is_said_in_the_tree_s_words_and_its_depth_once() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    *_, last = race.strip_texts()
    first = last[0]
    assert first is not None
    text = first[1]
    assert text.phase == "found Minimax at depth 2"
    words = [f.text() for f in text.fields]
    assert "no shallower goal" in words
    assert BFS_SHORTEST.value == SHORTEST  # the phrase the tree domain puts in its words
    assert not {"depth 2", "level 2"} & set(words)
    # the opening says what expand_events shows, not the option's name
    opening = _texts(race)[0]
    assert [f.text() for f in opening.fields] == [
        "search: breadth-first",
        "children shown as they are queued",
    ]


def test_watersort_keeps_its_words() -> None:
    *_, last = searchvid.load_scene("watersort-bfs").strip_texts()
    item = last[0]
    assert item is not None
    assert "fewest moves possible" in [f.text() for f in item[1].fields]


@pytest.mark.parametrize(
    ("algorithm", "options", "words"),
    [
        ("backtracking", {}, "no goal: visits every node"),
        ("backtracking", {"repeats": "never"}, "no goal: visits every node once"),
        ("breadth-first", {}, "no goal: visits every node once"),
        ("astar", {"max_depth": 3}, "no goal: visits every node within 3 moves of the start once"),
        ("backtracking", {"stop_at_goal": False}, None),  # its own phrase says it
        ("mcts", {}, None),
        ("beam", {}, None),
        ("random-walk", {}, None),
        ("minimax", {}, None),
    ],
)
def test_a_search_without_a_goal_says_what_it_does(
    algorithm: str, options: dict[str, Any], words: str | None
) -> None:
    assert describe_goal(algorithm, {**options, GOAL_KEY: False}) == words
    assert describe_goal(algorithm, {**options, GOAL_KEY: True}) is None


def test_expand_events_reads_as_what_the_video_shows() -> None:
    phrase = describe_setting("breadth-first", "expand_events", True, {})
    assert phrase == "children shown as they are queued"
    assert describe_setting("breadth-first", "expand_events", False, {}) == ""


def _undone_box(frame: npt.NDArray[np.uint8]) -> tuple[int, int, int, int]:
    """The bounding box (top, left, bottom, right) of the frame's "undone" pixels."""
    rows, cols = np.nonzero((frame == np.array(UNDONE, dtype=np.uint8)).all(axis=-1))
    assert rows.size
    return int(rows.min()), int(cols.min()), int(rows.max()) + 1, int(cols.max()) + 1


def test_a_step_back_outlines_the_undone_child_alone() -> None:
    scene = searchvid.load_scene("tree-backtracking")
    frames = [e for e in scene.events(framed=False) if e.kind.shows_state]
    assert frames[9].kind is EventKind.BACKTRACK
    assert scene.label(frames[9].node) == "Single-agent"  # back from Uninformed
    frame = render_frame(scene.sources(), scene.render_jobs(), 9)
    tile = scene.video.tile_size
    rows = scene.view().shape[0]
    top, left, bottom, right = _undone_box(frame[: rows * tile])  # the board: no legend
    # one box (BOX tiles wide, a tile high), not the two boxes and the edge between them
    assert bottom - top <= tile
    assert right - left <= BOX * tile


def test_the_current_node_s_outer_border_keeps_clear_of_its_tile_s_edge() -> None:
    # the leftmost and rightmost boxes' tiles meet the panel's edge: the double outline of
    # the current node must not touch it
    view = searchvid.load_scene("tree-bfs-vs-dfs").view()
    assert isinstance(view, TreeView)
    paper = np.array(PAPER, dtype=np.uint8)
    for size in (36, 48, 64):
        box = np.asarray(view._box(0, NodeState.CURRENT, size))  # the root, current
        border = max(2, size // 32 // 2 * 2)
        sides = np.concatenate([box[:, :border], box[:, -border:]], axis=1)
        assert (sides == paper).all(), size
        # the outline is there, just inside
        inner = box[:, border : 2 * border + size // 8]
        assert not (inner == paper).all(axis=-1).all(), size


@pytest.mark.parametrize("name", ["tree-backtracking", "tree-bfs-vs-dfs"])
def test_at_720_px_the_tree_is_centred_in_its_frame(name: str) -> None:
    table = _table(name)
    table["video"] = {**table["video"], "width": 720}
    scene = searchvid.scene_from_dict(table, name=name)
    frame = render_frame(scene.sources(), scene.render_jobs(), 0)
    assert frame.shape[1] == 720
    layout = FrameLayout(
        [scene.view().shape] * len(scene.searches), scene.video, [False] * len(scene.searches)
    )
    column = layout.columns[0]
    board = column.board[0]
    assert column.inset == (720 - board) // 2 & ~1
    dark = np.array(BACKGROUND, dtype=np.uint8)
    paper = np.array(PAPER, dtype=np.uint8)
    # a row through the board: the first whose centre is the tree's paper
    at = int(np.argmax((frame[:, 360] == paper).all(axis=-1)))
    assert (frame[at, 360] == paper).all()
    row = frame[at]
    assert (row[: column.inset] == dark).all()
    assert (row[column.inset + board :] == dark).all()
    assert not (row[column.inset : column.inset + board] == dark).all(axis=-1).any()
    assert abs((720 - column.inset - board) - column.inset) <= 2


def test_a_frame_of_its_natural_width_is_not_inset() -> None:
    scene = searchvid.load_scene("tree-backtracking")
    layout = FrameLayout([scene.view().shape], scene.video, [False])
    assert layout.width == layout.columns[0].board[0]
    assert layout.columns[0].inset == 0


@pytest.mark.parametrize(
    ("phase", "depth", "said"),
    [
        ("found Minimax at depth 2", 2, True),
        ("found Minimax at depth 2, no shallower", 2, True),
        ("found Minimax at depth 12", 1, False),
        ("found X at depth 1,204", 1, False),
        ("found X at depth 1,204", 1204, True),
        ("solved in 29 pours", 29, False),
    ],
)
def test_a_depth_the_phase_states_is_its_whole_number(phase: str, depth: int, said: bool) -> None:
    assert says_depth(phase, depth) is said


def test_breadth_first_s_strip_stays_on_the_node_it_expands_while_it_queues_children() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    rows, steps = [], set()
    for shown in race.strip_texts():
        item = shown[0]
        if item is not None and item[0].kind is EventKind.EXPAND and item[0].step not in steps:
            steps.add(item[0].step)  # a frame held while the other search works, once
            rows.append([f.text() for f in item[1].fields if f.name != "work"])
    assert len(rows) == 9  # every node but the root is queued once
    # the frames of Uninformed's children: its depth and name, the level it expands, and
    # the child it queues (no "depth 3" beside "level 2")
    assert rows[5:7] == [
        ["depth 2", "frontier 3", "level 2", "at Uninformed", "queues Breadth-First"],
        ["depth 2", "frontier 4", "level 2", "at Uninformed", "queues Depth-First"],
    ]
    assert rows[0] == ["depth 0", "frontier 1", "level 0", "at Search", "queues Single-agent"]


def test_an_expand_caption_names_the_node_expanded_and_the_child_queued() -> None:
    table = {
        "domain": {"name": "tree", "root": "Search", "children": {"A": {"A1": {}}, "B": {}}},
        "search": {"algorithm": "breadth-first", "expand_events": True},
        "video": {"frames": "all", "hold_last": 0, "captions": True},
    }
    scene = searchvid.scene_from_dict(table, name="t.toml")
    captions = [text.caption for text in _texts(scene)]
    assert captions[1:3] == ["expanding Search: queues A", "expanding Search: queues B"]
    assert captions[4] == "expanding A: queues A1"
