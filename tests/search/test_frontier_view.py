"""The frontier views that breadth-first, best-first, A* and beam search attach to the status
of the nodes they expand: the next nodes in the order the search takes them, bounded."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from game_trees import Graph, GraphNode, graph_value, random_graph

from searchvid.search import Algorithm, Event, EventKind
from searchvid.search.algorithms.frontier import (
    DROPPED_SHOWN,
    AStar,
    BeamOptions,
    BeamSearch,
    BestFirst,
    BreadthFirst,
    BreadthFirstOptions,
    HeuristicOptions,
)
from searchvid.search.frontierview import (
    MAX_BOARDS,
    FrontierView,
    Role,
    StatusFields,
    frontier_of,
)

K = EventKind
VISITS = (K.ENTER, K.LEAF)


def watched(algorithm: Algorithm[Any], root: Any) -> Iterator[tuple[Event, FrontierView | None]]:
    """Each event with the frontier view of its status, taken as a frame takes it."""
    for event in algorithm.traverse(root):
        yield event, frontier_of(algorithm.status_of(event))


def boards(view: FrontierView) -> list[tuple[int, str, str]]:
    return [(b.id, b.role.name, " ".join(f.text() for f in b.fields)) for b in view.boards]


# -- A* --------------------------------------------------------------------------------------


def test_astar_lists_the_frontier_by_f_then_depth_without_stale_entries() -> None:
    # 0 -> 1 -> 2 -> 3 and 0 -> 4 -> 3: 3 is first pushed at g = 3 (f = 8), then 4 finds it
    # at g = 2 (f = 7) while the first entry is still in the heap (stale from then on)
    graph = Graph(((1, 4), (2,), (3,), (), (3,)))
    h = {3: 5.0, 4: 1.5}

    def heuristic(node: GraphNode) -> float:
        return h.get(node.id, 0.0)

    algorithm = AStar(HeuristicOptions(), rng=random.Random(), heuristic=heuristic)
    views = [(e.kind, e.id, v) for e, v in watched(algorithm, graph.root()) if e.kind in VISITS]
    assert [(kind, nid) for kind, nid, _ in views] == [
        (K.ENTER, 0),
        (K.ENTER, 1),
        (K.ENTER, 3),
        (K.ENTER, 2),
        (K.LEAF, 5),
    ]
    shown = [boards(v) for _, _, v in views if v is not None]
    now, wait = "CURRENT", "WAITING"
    assert shown == [
        [(0, now, "g 0 h 0 f 0"), (1, wait, "g 1 h 0 f 1"), (2, wait, "g 1 h 1.5 f 2.5")],
        [(1, now, "g 1 h 0 f 1"), (3, wait, "g 2 h 0 f 2"), (2, wait, "g 1 h 1.5 f 2.5")],
        [(3, now, "g 2 h 0 f 2"), (2, wait, "g 1 h 1.5 f 2.5"), (4, wait, "g 3 h 5 f 8")],
        [(2, now, "g 1 h 1.5 f 2.5"), (5, wait, "g 2 h 5 f 7")],  # id 4 is stale
        [(5, now, "g 2 h 5 f 7")],
    ]
    totals = [v.total(Role.WAITING) for _, _, v in views if v is not None]
    assert totals == [2, 2, 2, 1, 0]


def test_astar_ties_on_f_list_the_deeper_node_first_then_the_first_generated() -> None:
    # after the root: 1, 2, 3 all at f = 2 and g = 1, so in generation order; after 1: its
    # child 4 (g = 2, h = 0, f = 2) ties with 2 and 3 and goes first (deeper)
    graph = Graph(((1, 2, 3), (4,), (), (), ()))
    h = {0: 2.0, 1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0}

    def heuristic(node: GraphNode) -> float:
        return h[node.id]

    algorithm = AStar(HeuristicOptions(), rng=random.Random(), heuristic=heuristic)
    views = [v for e, v in watched(algorithm, graph.root()) if e.kind is K.ENTER]
    assert [b.id for b in views[0].boards] == [0, 1, 2, 3]
    assert [b.id for b in views[1].boards] == [1, 4, 2, 3]
    assert [(b.depth, b.role) for b in views[1].boards] == [
        (1, Role.CURRENT),
        (2, Role.WAITING),
        (1, Role.WAITING),
        (1, Role.WAITING),
    ]


@pytest.mark.parametrize("seed", range(6))
def test_astar_and_best_first_views_predict_the_next_expansion(seed: int) -> None:
    rng = random.Random(seed)
    graph = random_graph(rng, [4, 6, 8, 8], 3)
    h = [rng.choice((0.0, 1.0, 2.0)) for _ in range(len(graph))]

    def heuristic(node: GraphNode) -> float:
        return h[node.id]

    for cls in (AStar, BestFirst):
        algorithm = cls(HeuristicOptions(), rng=random.Random(), heuristic=heuristic)
        seen = [(e, v) for e, v in watched(algorithm, graph.root()) if e.kind in VISITS]
        for (event, view), (after, _) in zip(seen, [*seen[1:], (None, None)], strict=True):
            assert view is not None
            assert view.boards[0].id == event.id
            assert view.boards[0].role is Role.CURRENT
            assert view.boards[0].node is event.node
            waiting = view.boards[1:]
            assert len(waiting) == min(MAX_BOARDS, view.total(Role.WAITING))
            assert all(b.role is Role.WAITING for b in waiting)
            # the search's order: (f, -g) for A*, h for best-first; ties in id order
            if cls is AStar:
                order = [(b.depth + h[b.node.id], -b.depth, b.id) for b in waiting]
            else:
                order = [(h[b.node.id], 0, b.id) for b in waiting]
            assert order == sorted(order)
            # nothing is pushed between two pops, so the first waiting node is the next one
            if after is not None and waiting:
                assert after.id == waiting[0].id


# -- breadth-first ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_breadth_first_view_is_the_queue_in_order(seed: int) -> None:
    rng = random.Random(seed)
    graph = random_graph(rng, [3, 6, 10, 12, 12], 3)
    algorithm = BreadthFirst(BreadthFirstOptions(), rng=random.Random())
    seen = [(e, v) for e, v in watched(algorithm, graph.root()) if e.kind in VISITS]
    order = [e.id for e, _ in seen]
    for index, (event, view) in enumerate(seen):
        assert view is not None
        assert boards(view)[0] == (event.id, "CURRENT", f"depth {event.depth}")
        waiting = view.boards[1:]
        # first in, first out: the queue's head is expanded next, in order
        queued = view.total(Role.WAITING)
        assert len(waiting) == min(MAX_BOARDS, queued)
        assert [b.id for b in waiting] == order[index + 1 : index + 1 + len(waiting)]
        assert all(b.fields[0].text() == f"depth {b.depth}" for b in waiting)
        assert len(order) - index - 1 >= queued
    last = seen[-1][1]
    assert last is not None
    assert last.total(Role.WAITING) == 0


def test_breadth_first_view_is_bounded_and_absent_from_other_events() -> None:
    graph = Graph(((*range(1, 31),), *(() for _ in range(30))))  # a root with 30 children
    algorithm = BreadthFirst(BreadthFirstOptions(), rng=random.Random())
    events = list(watched(algorithm, graph.root()))
    root_view = events[0][1]
    assert root_view is not None
    assert [b.id for b in root_view.boards] == list(range(MAX_BOARDS + 1))
    assert root_view.total(Role.WAITING) == 30
    assert all(v is None for e, v in events if e.kind is K.FRONTIER)
    status = algorithm.status_of(events[0][0])
    assert isinstance(status, StatusFields)
    assert [f.text() for f in status] == ["frontier 0", "level 1"]  # the search has ended


def test_replayed_solutions_carry_no_view() -> None:
    graph = Graph(((1, 2), (3,), (), ()))
    goal = 3
    for cls in (AStar, BreadthFirst):
        options = HeuristicOptions() if cls is AStar else BreadthFirstOptions()
        algorithm = cls(options, rng=random.Random(), goal=lambda n: n.id == goal)  # type: ignore[arg-type]
        moves = [v for e, v in watched(algorithm, graph.root()) if e.kind is K.MOVE]
        assert moves == [None, None, None]  # 0, 1, 3


# -- beam ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_beam_view_is_the_level_in_rank_order_then_the_best_dropped(seed: int) -> None:
    rng = random.Random(seed)
    graph = random_graph(rng, [5, 9, 12, 12], 4, share=False)
    width = 3
    algorithm = BeamSearch(
        BeamOptions(width=width, value="score"), rng=random.Random(), value=graph_value
    )
    events = list(watched(algorithm, graph.root()))
    candidates: dict[int, list[tuple[float, int, int, bool]]] = {}  # depth -> ranked
    for event, _ in events:
        if event.kind in (K.FRONTIER, K.DROP) and event.value is not None:
            rank = (-event.value, len(candidates.get(event.depth, [])))
            candidates.setdefault(event.depth, []).append(
                (*rank, event.id, event.kind is K.FRONTIER)  # type: ignore[arg-type]
            )
    levels: dict[int, list[Event]] = {}
    for event, _ in events:
        if event.kind in VISITS:
            levels.setdefault(event.depth, []).append(event)
    for event, view in events:
        if event.kind not in VISITS:
            continue
        assert view is not None
        level = levels[event.depth]
        at = level.index(event)
        ranked = sorted(candidates.get(event.depth, []))
        kept = [nid for _, _, nid, keep in ranked if keep]
        dropped = [nid for _, _, nid, keep in ranked if not keep]
        # the beam's level is ENTERed in rank order: its kept candidates
        assert [e.id for e in level] == (kept or [0])
        roles = ["DONE"] * at + ["CURRENT"] + ["WAITING"] * (len(level) - at - 1)
        assert [(nid, role) for nid, role, _ in boards(view)] == [
            *zip([e.id for e in level], roles, strict=True),
            *((nid, "DROPPED") for nid in dropped[:DROPPED_SHOWN]),
        ]
        values = [graph.values[b.node.id] for b in view.boards]
        assert [b.fields[0].value for b in view.boards] == values
        assert view.total(Role.DROPPED) == len(dropped)
        assert f"level {event.depth} ranked by score" in view.order
