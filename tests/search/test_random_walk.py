"""Random walk: walk structure, restarts, reproducibility, cycles and deep chains."""

from __future__ import annotations

import itertools
import random
from typing import Any

from game_trees import (
    ChainNode,
    DrawingGraphNode,
    Graph,
    GraphNode,
    complete_tree,
    graph_value,
    random_graph,
)

from searchvid.domains import make_domain
from searchvid.search import Event, EventKind, Recorder, make_algorithm, run
from searchvid.search.algorithms.random_walk import RandomWalk, RandomWalkOptions


def events_of(algorithm: Any, root: Any) -> list[Event]:
    recorder = Recorder()
    run(algorithm, root, recorder)
    return recorder.events


def walks(events: list[Event]) -> list[list[Event]]:
    """The shown events split at each RESTART (the RESTART starts its walk)."""
    result: list[list[Event]] = []
    for event in events:
        if event.kind is EventKind.IMPROVE:
            continue
        if event.kind is EventKind.RESTART or not result:
            result.append([])
        result[-1].append(event)
    return result


def test_each_walk_goes_from_the_root_to_a_dead_end() -> None:
    graph = random_graph(random.Random(5), [3, 4, 4, 3], 3, share=False)
    algorithm = make_algorithm("random-walk", {"restarts": 6}, rng=random.Random(11))
    events = events_of(algorithm, graph.root())
    assert [e.step for e in events] == list(range(len(events)))
    found = walks(events)
    assert len(found) == 6
    for number, walk in enumerate(found):
        first = walk[0]
        assert first.kind is (EventKind.ENTER if number == 0 else EventKind.RESTART)
        assert (first.node.id, first.depth) == (0, 0)
        assert [e.kind for e in walk[1:-1]] == [EventKind.ENTER] * (len(walk) - 2)
        assert walk[-1].kind is EventKind.LEAF
        assert not graph.kids[walk[-1].node.id]
        for parent, child in itertools.pairwise(walk):
            assert child.node.id in graph.kids[parent.node.id]
            assert child.depth == parent.depth + 1


def test_same_seed_same_events_and_other_seeds_differ() -> None:
    graph = complete_tree(4, 4)

    def trace(seed: int, cls: type[GraphNode] = GraphNode) -> list[tuple[str, int, int]]:
        algorithm = make_algorithm("random-walk", {"restarts": 20}, rng=random.Random(seed))
        return [(e.kind.value, e.node.id, e.depth) for e in events_of(algorithm, graph.root(cls))]

    assert trace(1) == trace(1)
    assert trace(1) != trace(2)
    assert trace(3, DrawingGraphNode) == trace(3, DrawingGraphNode)


def test_random_walk_uses_the_domains_random_child() -> None:
    graph = Graph(((1, 2, 3), (), (), ()))
    calls = 0

    class Counting(DrawingGraphNode):
        def random_child(self, rng: random.Random) -> DrawingGraphNode | None:
            nonlocal calls
            calls += 1
            return super().random_child(rng)

    algorithm = make_algorithm("random-walk", {"restarts": 30}, rng=random.Random(4))
    events = events_of(algorithm, graph.root(Counting))
    ends = {e.node.id for e in events if e.kind is EventKind.LEAF}
    assert ends == {1, 2, 3}
    assert calls == 60  # per walk: one draw at the root, one (None) at the leaf


def test_lone_root_and_improvements() -> None:
    algorithm = make_algorithm("random-walk", {"restarts": 3}, rng=random.Random())
    events = events_of(algorithm, Graph(((),)).root())
    assert [e.kind for e in events] == [
        EventKind.LEAF,
        EventKind.IMPROVE,
        EventKind.RESTART,
        EventKind.RESTART,
    ]
    graph = Graph(((1,), (2,), ()), values=(0.5, 0.2, 0.9))
    algorithm = RandomWalk(RandomWalkOptions(), rng=random.Random(), value=graph_value)
    events = events_of(algorithm, graph.root())
    assert [(e.kind.value, e.node.id, e.value) for e in events] == [
        ("enter", 0, 0.5),
        ("improve", 0, 0.5),
        ("enter", 1, 0.2),
        ("leaf", 2, 0.9),
        ("improve", 2, 0.9),
    ]


def test_max_depth_ends_walks() -> None:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("random-walk", {"restarts": 5, "max_depth": 1}, rng=random.Random())
    events = [e for e in events_of(algorithm, domain.root()) if e.kind is EventKind.LEAF]
    assert [(domain.label(e.node), e.depth) for e in events] == [("Algorithms", 1)] * 5


def test_avoid_cycles_ends_a_walk_in_a_cycle() -> None:
    cycle = Graph(((1,), (2,), (0, 1)))  # every state leads back into the cycle
    algorithm = make_algorithm(
        "random-walk", {"restarts": 4, "avoid_cycles": True}, rng=random.Random(9)
    )
    events = events_of(algorithm, cycle.root(DrawingGraphNode))
    for walk in walks(events):
        assert [e.node.id for e in walk] == [0, 1, 2]
        assert walk[-1].kind is EventKind.LEAF


def test_deep_chain() -> None:
    length = 100_000
    algorithm = make_algorithm("random-walk", {"restarts": 2}, rng=random.Random())
    count = 0
    last = None
    for event in algorithm.traverse(ChainNode(0, length)):
        count += 1
        last = event
    assert last is not None
    assert (last.kind, last.depth) == (EventKind.LEAF, length)
    assert count == 2 * (length + 1) + 1
