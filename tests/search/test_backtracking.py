"""Backtracking: the seed's 15-step order, IMPROVE placement, limits, repeats, deep chains."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from game_trees import ChainNode, Graph, GraphNode, graph_value, tree_graph

from searchvid.domains import make_domain
from searchvid.search import EventKind, Recorder, make_algorithm, run
from searchvid.search.algorithms.backtracking import Backtracking, BacktrackingOptions
from searchvid.search.events import Event

SEED_LABELS = (
    (Path(__file__).resolve().parent.parent / "golden" / "seed_backtracking.txt")
    .read_text()
    .splitlines()
)
"""Seed 000's test: the nodes observed by backtracking over its "Algorithms" tree."""

SEED_TREE = {
    "Algorithms": {
        "Breadth-First": {},
        "Depth-First": {"Backtracking": {}, "Beam Search": {}},
        "Other": {"Monte Carlo Tree Search": {}},
    }
}


def events_of(algorithm: object, root: object) -> list[Event]:
    recorder = Recorder()
    run(algorithm, root, recorder)  # type: ignore[arg-type]
    return recorder.events


def shown(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind.shows_state]


def test_seed_order_on_the_tree_domain() -> None:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("depth-first", {}, rng=random.Random(0))
    events = events_of(algorithm, domain.root())
    assert [domain.label(e.node) for e in shown(events)] == SEED_LABELS


def test_seed_kinds_depths_and_steps() -> None:
    domain = make_domain("tree", {})
    events = events_of(make_algorithm("backtracking", {}, rng=random.Random(0)), domain.root())
    kinds = [e.kind for e in shown(events)]
    e, lf, b = EventKind.ENTER, EventKind.LEAF, EventKind.BACKTRACK
    assert kinds == [e, e, lf, b, e, lf, b, lf, b, b, e, lf, b, b, b]
    assert [e.depth for e in shown(events)] == [0, 1, 2, 1, 2, 3, 2, 3, 2, 1, 2, 3, 2, 1, 0]
    assert [e.step for e in events] == list(range(len(events)))
    # depth-value ranks nothing: only the root improves (from -inf), right after its ENTER
    assert [(e.kind, e.step) for e in events[:2]] == [(EventKind.ENTER, 0), (EventKind.IMPROVE, 1)]
    assert sum(e.kind is EventKind.IMPROVE for e in events) == 1


def test_improve_follows_each_strictly_better_first_visit() -> None:
    values = {"Root": 0.0, "Algorithms": 1.0, "Breadth-First": 1.0, "Depth-First": 3.0}
    values |= {"Backtracking": 2.0, "Beam Search": 5.0, "Other": 5.0}
    graph = tree_graph(SEED_TREE, values=values)
    algorithm = Backtracking(BacktrackingOptions(), rng=random.Random(0), value=graph_value)
    events = events_of(algorithm, graph.root())
    improved = [(graph.labels[e.node.id], e.value) for e in events if e.kind is EventKind.IMPROVE]
    expected = [("Root", 0.0), ("Algorithms", 1.0), ("Depth-First", 3.0), ("Beam Search", 5.0)]
    assert improved == expected
    for i, event in enumerate(events):
        if event.kind is EventKind.IMPROVE:
            before = events[i - 1]
            assert before.kind in (EventKind.ENTER, EventKind.LEAF)
            assert before.node == event.node
            assert (before.depth, before.value) == (event.depth, event.value)
    backtracks = [e for e in events if e.kind is EventKind.BACKTRACK]
    assert all(e.value == values[graph.labels[e.node.id]] for e in backtracks)


def test_max_depth_makes_leaves_at_the_limit() -> None:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("backtracking", {"max_depth": 2}, rng=random.Random(0))
    events = shown(events_of(algorithm, domain.root()))
    assert [(e.kind.value, domain.label(e.node)) for e in events] == [
        ("enter", "Root"),
        ("enter", "Algorithms"),
        ("leaf", "Breadth-First"),
        ("backtrack", "Algorithms"),
        ("leaf", "Depth-First"),
        ("backtrack", "Algorithms"),
        ("leaf", "Other"),
        ("backtrack", "Algorithms"),
        ("backtrack", "Root"),
    ]


def test_a_lone_root_is_a_leaf() -> None:
    graph = Graph(((),))
    events = events_of(make_algorithm("backtracking", {}, rng=random.Random(0)), graph.root())
    assert [e.kind for e in events] == [EventKind.LEAF, EventKind.IMPROVE]


def cyclic_graph() -> Graph:
    # 0 -> 1 -> 2 -> 0 (cycle), 1 -> 3, 0 -> 3 (a second way into 3)
    return Graph(((1, 3), (2, 3), (0,), ()))


def test_repeats_path_cuts_cycles_but_allows_other_revisits() -> None:
    algorithm = make_algorithm("backtracking", {"repeats": "path"}, rng=random.Random(0))
    events = shown(events_of(algorithm, cyclic_graph().root()))
    assert [(e.kind.value, e.node.id) for e in events] == [
        ("enter", 0),
        ("enter", 1),
        ("leaf", 2),  # its only child, 0, is on the path
        ("backtrack", 1),
        ("leaf", 3),
        ("backtrack", 1),
        ("backtrack", 0),
        ("leaf", 3),  # reached again by another path
        ("backtrack", 0),
    ]


def test_repeats_never_visits_each_state_once() -> None:
    algorithm = make_algorithm("backtracking", {"repeats": "never"}, rng=random.Random(0))
    events = shown(events_of(algorithm, cyclic_graph().root()))
    visits = [e.node.id for e in events if e.kind is not EventKind.BACKTRACK]
    assert visits == [0, 1, 2, 3]


def test_stops_at_goal() -> None:
    domain = make_domain("tree", {})

    def goal(node: object) -> bool:
        return domain.label(node) == "Backtracking"

    algorithm = Backtracking(BacktrackingOptions(), rng=random.Random(0), goal=goal)
    events = events_of(algorithm, domain.root())
    assert domain.label(events[-1].node) == "Backtracking"
    assert len(shown(events)) == 6
    unstopped = Backtracking(
        BacktrackingOptions(stop_at_goal=False), rng=random.Random(0), goal=goal
    )
    assert len(shown(events_of(unstopped, domain.root()))) == 15


@pytest.mark.parametrize(("repeats", "length"), [("allow", 100_000), ("path", 10_000)])
def test_deep_chain_without_recursion(repeats: str, length: int) -> None:
    algorithm = make_algorithm("backtracking", {"repeats": repeats}, rng=random.Random(0))
    count = 0
    deepest = 0
    last = None
    for event in algorithm.traverse(ChainNode(0, length)):
        count += 1
        deepest = max(deepest, event.depth)
        last = event
    assert deepest == length
    assert count == 2 * length + 2  # ENTER/LEAF per node, BACKTRACK per parent, one IMPROVE
    assert last is not None
    assert last.kind is EventKind.BACKTRACK
    assert last.node == ChainNode(0, length)


def test_graph_node_identity_is_by_id() -> None:
    graph = cyclic_graph()
    assert GraphNode(graph, 1) == GraphNode(graph, 1)
    assert GraphNode(graph, 1) != GraphNode(graph, 2)
