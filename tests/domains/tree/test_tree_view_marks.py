"""The tree view marks what the search really visited, in the order of its events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import searchvid
from searchvid.domains.tree.rules import Tree, TreeNode
from searchvid.domains.tree.view import NodeState, TreeView
from searchvid.search.events import Event, EventKind

SEEN = {NodeState.VISITED, NodeState.STACK, NodeState.CURRENT}
"""States of a node the search has visited (the stack and the current node cover the mark)."""
LEVEL_ORDER = [
    "Root",
    "Algorithms",
    "Breadth-First",
    "Depth-First",
    "Other",
    "Backtracking",
    "Beam Search",
    "Monte Carlo Tree Search",
]
"""The seed's tree level by level: the order in which breadth-first visits it."""
BINARY: dict[str, Any] = {a: {a + b: {a + b + c: {} for c in "xy"} for b in "pq"} for a in "LR"}
"""A complete binary tree three levels below the root (15 nodes, 8 leaves)."""


def _scene(algorithm: str, children: dict[str, Any] | None = None, **search: Any) -> Any:
    domain: dict[str, Any] = {"name": "tree"}
    if children is not None:
        domain["children"] = children
    table = {
        "domain": domain,
        "search": {"algorithm": algorithm, **search},
        "video": {"frames": "all", "hold_last": 0},
    }
    return searchvid.scene_from_dict(table, name=f"{algorithm}.toml")


def _labels(view: TreeView, root: TreeNode) -> list[str]:
    """Labels by pre-order index (the view's node numbering)."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node.label)
        stack.extend(reversed(list(node.children())))
    assert len(order) == len(set(order)), "test trees use distinct labels"
    return order


def _states(view: TreeView, labels: list[str], grid: np.ndarray) -> dict[str, NodeState]:
    """Each node's state, read back from the tile names of ``grid``."""
    names = view.tileset.names
    states: dict[str, NodeState] = {}
    for tile in np.unique(grid):
        name = names[int(tile)]
        if name.startswith("node-") and name.endswith("-0"):
            _, index, state, _ = name.split("-")
            states[labels[int(index)]] = NodeState[state.upper()]
    assert set(states) == set(labels), "every node box is drawn"
    return states


def _highlighted(view: TreeView, grid: np.ndarray) -> int:
    """Highlighted vertical half-edges of the connector tiles: two per edge on the stack
    (down from the parent, up to the child). Tile names spell north, east, south, west."""
    names = [view.tileset.names[int(tile)] for tile in grid.reshape(-1)]
    digits = [name.removeprefix("edge-") for name in names if name.startswith("edge-")]
    return sum(int(code[0] == "2") + int(code[2] == "2") for code in digits)


@dataclass(frozen=True)
class Frame:
    """One frame of a search fed through :meth:`TreeView.observe`."""

    event: Event
    states: dict[str, NodeState]
    highlighted: int

    def having(self, *wanted: NodeState) -> set[str]:
        return {label for label, state in self.states.items() if state in wanted}


def _frames(scene: Any) -> Iterator[Frame]:
    """Every event into ``observe``; the grid of each event that shows a state."""
    view = scene.view()
    labels = _labels(view, scene.root())
    for event in scene.events():
        view.observe(event)
        if event.kind.shows_state:
            grid = view.grid(event.node)
            yield Frame(event, _states(view, labels, grid), _highlighted(view, grid))


def _shown_and_above(nodes: list[TreeNode]) -> set[str]:
    return {n.label for node in nodes for n in [*node.ancestors(), node]}


def test_backtracking_ends_on_the_whole_tree_explored() -> None:
    frames = list(_frames(_scene("backtracking")))  # the default tree: seed 000's
    assert len(frames) == 15
    last = frames[-1]
    assert last.event.node.label == "Root"
    assert last.having(NodeState.CURRENT) == {"Root"}
    assert last.having(NodeState.VISITED) == set(LEVEL_ORDER) - {"Root"}
    assert last.highlighted == 0  # the root alone: no edge on the stack


def test_the_shipped_backtracking_scene_ends_on_its_whole_tree_explored() -> None:
    frames = list(_frames(searchvid.load_scene("tree-backtracking")))
    assert len(frames) == 21  # 11 nodes entered, 10 returns to a parent
    last = frames[-1]
    assert last.having(NodeState.CURRENT) == {"Search"}
    assert last.having(NodeState.VISITED) == set(last.states) - {"Search"}


def test_backtracking_marks_grow_with_each_node_entered() -> None:
    entered: list[str] = []
    for frame in _frames(_scene("backtracking")):
        if frame.event.kind is not EventKind.BACKTRACK:
            entered.append(frame.event.node.label)
        assert frame.having(*SEEN) == set(entered)
        assert frame.having(NodeState.UNVISITED) == set(LEVEL_ORDER) - set(entered)


def test_breadth_first_marks_follow_level_order_not_pre_order() -> None:
    frames = list(_frames(_scene("breadth-first")))
    assert [f.event.node.label for f in frames] == LEVEL_ORDER
    for k, frame in enumerate(frames):
        assert frame.having(*SEEN) == set(LEVEL_ORDER[: k + 1]), frame.event
    other = frames[LEVEL_ORDER.index("Other")]
    # In pre-order Backtracking and Beam Search come before Other; breadth-first has only
    # generated them (its frontier), not visited them yet.
    assert other.states["Backtracking"] is NodeState.FRONTIER
    assert other.states["Beam Search"] is NodeState.FRONTIER
    assert other.states["Breadth-First"] is NodeState.VISITED


def test_random_walk_marks_exactly_the_nodes_walked() -> None:
    scene = _scene("random-walk", BINARY, restarts=3)
    walked: set[str] = set()
    frames = list(_frames(scene))
    for frame in frames:
        walked.add(frame.event.node.label)
        assert frame.having(*SEEN) == walked
    assert len(frames) > 4  # more than one walk
    assert frames[-1].having(NodeState.UNVISITED)  # three walks never cover 8 leaves


def test_current_node_stack_and_its_edges_at_every_frame() -> None:
    for frame in _frames(_scene("backtracking", BINARY)):
        node = frame.event.node
        assert frame.having(NodeState.CURRENT) == {node.label}
        assert frame.having(NodeState.STACK) == {up.label for up in node.ancestors()}
        assert frame.highlighted == 2 * node.depth  # one edge per level, drawn at both ends


def test_expand_marks_the_frontier_until_the_node_is_visited() -> None:
    expanded: set[str] = set()
    visited: set[str] = set()
    frontier_seen = False
    for frame in _frames(_scene("breadth-first", BINARY, expand_events=True)):
        node = frame.event.node
        label = node.label
        if frame.event.kind is EventKind.EXPAND:
            expanded.add(label)
            # generated, not visited: on the frontier from its own frame, while its parent,
            # the node being expanded, stays current (BFS does not go deep on its frame)
            assert frame.states[label] is NodeState.FRONTIER
            parent = node.parent
            assert parent is not None
            assert frame.having(NodeState.CURRENT) == {parent.label}
            assert frame.highlighted == 2 * parent.depth
        else:
            visited.add(label)
            assert frame.having(NodeState.CURRENT) == {label}
        frontier = frame.having(NodeState.FRONTIER)
        assert frontier == expanded - visited
        assert frame.having(*SEEN) == visited
        frontier_seen |= bool(frontier)
    assert frontier_seen
    assert visited == expanded | {"Root"}


def test_mcts_playouts_mark_the_nodes_they_passed_through() -> None:
    scene = _scene("mcts", BINARY, iterations=6)
    leaves: list[TreeNode] = []
    frames = list(_frames(scene))
    for frame in frames:
        if frame.event.kind is not EventKind.EXPAND:
            leaves.append(frame.event.node)
        assert frame.having(*SEEN) == _shown_and_above([*leaves, frame.event.node])
    assert any(f.event.kind is EventKind.EXPAND for f in frames)


def test_annotations_and_unknown_kinds_change_nothing() -> None:
    @dataclass(frozen=True)
    class Note:  # an annotation kind of the future
        shows_state: bool = False

    scene = _scene("backtracking")
    view = scene.view()
    root = scene.root()
    leaf = next(next(root.children()).children())
    before = view.grid(root)
    view.observe(Event(EventKind.IMPROVE, leaf, 2, 0, 1.0))
    view.observe(Event(Note(), leaf, 2, 1))  # type: ignore[arg-type]
    assert np.array_equal(view.grid(root), before)


def test_grid_without_observe_marks_the_nodes_drawn_so_far() -> None:
    scene = _scene("backtracking")
    view = scene.view()
    root = scene.root()
    labels = _labels(view, root)
    nodes = dict(_nodes(root))
    view.grid(nodes["Monte Carlo Tree Search"])
    states = _states(view, labels, view.grid(nodes["Breadth-First"]))
    assert states["Breadth-First"] is NodeState.CURRENT
    assert {k for k, v in states.items() if v is NodeState.STACK} == {"Root", "Algorithms"}
    assert {k for k, v in states.items() if v is NodeState.VISITED} == {
        "Other",
        "Monte Carlo Tree Search",
    }
    assert {k for k, v in states.items() if v is NodeState.UNVISITED} == {
        "Depth-First",
        "Backtracking",
        "Beam Search",
    }


def test_a_loop_of_grids_alone_fills_the_tree_like_the_events() -> None:
    scene = _scene("random-walk", BINARY, restarts=3)  # no frontier: grids alone can match
    fed = scene.view()
    drawn = scene.view()
    for event in scene.events():
        fed.observe(event)
        if event.kind.shows_state:
            assert np.array_equal(fed.grid(event.node), drawn.grid(event.node))


def test_after_observe_drawing_marks_nothing_and_reset_forgets() -> None:
    scene = _scene("backtracking")
    view = scene.view()
    root = scene.root()
    labels = _labels(view, root)
    nodes = dict(_nodes(root))
    view.observe(Event(EventKind.ENTER, root, 0, 0))
    view.grid(nodes["Other"])
    states = _states(view, labels, view.grid(root))
    assert states["Other"] is NodeState.UNVISITED
    view.observe(Event(EventKind.LEAF, nodes["Beam Search"], 3, 1))
    assert _states(view, labels, view.grid(root))["Depth-First"] is NodeState.VISITED
    view.reset()
    states = _states(view, labels, view.grid(nodes["Other"]))
    assert set(states.values()) == {NodeState.UNVISITED, NodeState.STACK, NodeState.CURRENT}
    assert _states(view, labels, view.grid(root))["Other"] is NodeState.VISITED


def test_a_node_of_another_tree_is_refused() -> None:
    view = TreeView(Tree.from_mapping("a", {"b": {}}))
    stranger = TreeNode(Tree("a"))
    with pytest.raises(ValueError, match="not a node of this view's tree"):
        view.observe(Event(EventKind.ENTER, stranger, 0, 0))
    with pytest.raises(ValueError, match="not a node of this view's tree"):
        view.grid(stranger)


def test_big_trees_draw_through_the_cached_marks() -> None:
    """A deep chain and a wide star: the same grids as marking every node by hand."""
    chain: dict[str, Any] = {}
    cursor = chain
    for depth in range(300):
        cursor[f"c{depth}"] = {}
        cursor = cursor[f"c{depth}"]
    star: dict[str, Any] = {f"s{i}": {} for i in range(300)}
    for children in (chain, star):
        tree = Tree.from_mapping("top", children)
        view, root = TreeView(tree), TreeNode(tree)
        nodes = [node for _, node in _nodes(root)]
        grids = []
        for step, node in enumerate(nodes):
            view.observe(Event(EventKind.ENTER, node, node.depth, step))
            grids.append(view.grid(node))
        labels = _labels(view, root)
        last = _states(view, labels, grids[-1])
        assert last[nodes[-1].label] is NodeState.CURRENT
        expected = {NodeState.VISITED, NodeState.STACK, NodeState.CURRENT}
        assert set(last.values()) <= expected
        assert NodeState.UNVISITED not in last.values()


def _nodes(root: TreeNode) -> Iterator[tuple[str, TreeNode]]:
    """``(label, node)`` in pre-order."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node.label, node
        stack.extend(reversed(list(node.children())))
