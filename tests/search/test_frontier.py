"""Breadth-first, beam, best-first and A*: orders, duplicate detection, goals and replays."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from game_trees import (
    ChainNode,
    Graph,
    GraphNode,
    Maze,
    MazeNode,
    graph_value,
    random_graph,
    random_maze,
)

from searchvid.domains import make_domain
from searchvid.search import Event, EventKind, Recorder, make_algorithm, run
from searchvid.search.algorithms.frontier import (
    AStar,
    BeamOptions,
    BeamSearch,
    BestFirst,
    BreadthFirst,
    BreadthFirstOptions,
    HeuristicOptions,
)

VISITS = (EventKind.ENTER, EventKind.LEAF)


def events_of(algorithm: Any, root: Any) -> list[Event]:
    recorder = Recorder()
    run(algorithm, root, recorder)
    return recorder.events


def visited(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind in VISITS]


def moves(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind is EventKind.MOVE]


def assert_valid_path(path: list[Any], root: Any) -> None:
    assert path[0] == root
    for parent, child in itertools.pairwise(path):
        assert child in list(parent.children())


# -- breadth-first -----------------------------------------------------------------------------


def test_breadth_first_level_order_on_the_seed_tree() -> None:
    domain = make_domain("tree", {})
    events = events_of(make_algorithm("breadth-first", {}, rng=random.Random(0)), domain.root())
    assert [(e.kind.value, domain.label(e.node), e.depth) for e in visited(events)] == [
        ("enter", "Root", 0),
        ("enter", "Algorithms", 1),
        ("leaf", "Breadth-First", 2),
        ("enter", "Depth-First", 2),
        ("enter", "Other", 2),
        ("leaf", "Backtracking", 3),
        ("leaf", "Beam Search", 3),
        ("leaf", "Monte Carlo Tree Search", 3),
    ]
    assert [e.step for e in events] == list(range(len(events)))
    assert not moves(events)  # no goal: the queue just empties


def test_breadth_first_visits_each_key_once_in_nondecreasing_depth() -> None:
    rng = random.Random(3)
    graph = random_graph(rng, [3, 4, 5, 4], 3)
    events = visited(events_of(BreadthFirst(BreadthFirstOptions(), rng=rng), graph.root()))
    ids = [e.node.id for e in events]
    assert len(ids) == len(set(ids))
    assert [e.depth for e in events] == sorted(e.depth for e in events)
    # depths are true shortest distances
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for n in frontier:
            for c in graph.kids[n]:
                if c not in dist:
                    dist[c] = dist[n] + 1
                    nxt.append(c)
        frontier = nxt
    assert {e.node.id: e.depth for e in events} == dist


def test_breadth_first_leaf_when_every_child_was_seen() -> None:
    graph = Graph(((1, 2), (2,), ()))  # 1's only child, 2, is already queued
    events = visited(
        events_of(BreadthFirst(BreadthFirstOptions(), rng=random.Random()), graph.root())
    )
    assert [(e.kind.value, e.node.id) for e in events] == [
        ("enter", 0),
        ("leaf", 1),
        ("leaf", 2),
    ]


def maze_case() -> Maze:
    return Maze(
        (
            "S..#....",
            ".#.#.##.",
            ".#...#..",
            ".####.#.",
            "......#G",
        )
    )


def test_breadth_first_stops_at_goal_and_replays_a_shortest_path() -> None:
    maze = maze_case()
    algorithm = BreadthFirst(BreadthFirstOptions(), rng=random.Random(), goal=maze.is_goal)
    events = events_of(algorithm, maze.root())
    path = moves(events)
    assert events[-1].kind is EventKind.MOVE
    assert [e.depth for e in path] == list(range(len(path)))
    assert len(path) - 1 == maze.distances()[maze.find("G")]
    assert_valid_path([e.node for e in path], maze.root())
    assert maze.is_goal(path[-1].node)
    last_visit = visited(events)[-1]
    assert maze.is_goal(last_visit.node)
    assert [e.step for e in events] == list(range(len(events)))


def test_breadth_first_without_replay_and_unsolvable() -> None:
    maze = maze_case()
    algorithm = BreadthFirst(
        BreadthFirstOptions(replay=False), rng=random.Random(), goal=maze.is_goal
    )
    events = events_of(algorithm, maze.root())
    assert not moves(events)
    assert maze.is_goal(events[-1].node) or maze.is_goal(events[-2].node)
    walled = Maze(("S.#", "..#", "##G"))
    events = events_of(
        BreadthFirst(BreadthFirstOptions(), rng=random.Random(), goal=walled.is_goal),
        walled.root(),
    )
    assert not moves(events)
    assert len(visited(events)) == 4  # every reachable cell, then the queue is empty


def test_breadth_first_expand_events() -> None:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("breadth-first", {"expand_events": True}, rng=random.Random())
    events = events_of(algorithm, domain.root())
    assert [(e.kind.value, domain.label(e.node)) for e in events[:5]] == [
        ("enter", "Root"),
        ("improve", "Root"),
        ("expand", "Algorithms"),
        ("enter", "Algorithms"),
        ("expand", "Breadth-First"),
    ]
    expanded = [domain.label(e.node) for e in events if e.kind is EventKind.EXPAND]
    assert len(expanded) == 7


def test_breadth_first_deep_chain() -> None:
    length = 100_000
    algorithm = make_algorithm("breadth-first", {}, rng=random.Random())
    count = 0
    last = None
    for event in algorithm.traverse(ChainNode(0, length)):
        count += 1
        last = event
    assert last is not None
    assert (last.kind, last.depth) == (EventKind.LEAF, length)
    assert count == 2 * length + 2  # ENTER/LEAF and FRONTIER per node (not the root), IMPROVE


def test_breadth_first_max_depth() -> None:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("breadth-first", {"max_depth": 1}, rng=random.Random())
    events = visited(events_of(algorithm, domain.root()))
    assert [(e.kind.value, domain.label(e.node)) for e in events] == [
        ("enter", "Root"),
        ("leaf", "Algorithms"),
    ]


# -- beam --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(25))
def test_beam_keeps_the_best_width_of_each_whole_level(seed: int) -> None:
    rng = random.Random(seed)
    width = rng.randint(1, 4)
    graph = random_graph(rng, [4, 6, 8, 8], 4, share=False)
    algorithm = BeamSearch(BeamOptions(width=width), rng=rng, value=graph_value)
    events = visited(events_of(algorithm, graph.root()))
    levels: dict[int, list[int]] = {}
    for e in events:
        levels.setdefault(e.depth, []).append(e.node.id)
        assert e.value == graph.values[e.node.id]
    assert levels[0] == [0]
    for depth in range(1, max(levels) + 1):
        candidates = [c for p in levels[depth - 1] for c in graph.kids[p]]
        ranked = sorted(candidates, key=lambda c: -graph.values[c])  # stable: generation order
        assert levels[depth] == ranked[:width]
    # the search ends only when a level is empty
    last = max(levels)
    assert not any(graph.kids[p] for p in levels[last])


def test_beam_ties_keep_generation_order_and_duplicates_count_once() -> None:
    # root -> 1, 2; 1 -> 3, 4; 2 -> 4, 5: 4 is generated twice; all level-2 values tie
    graph = Graph(((1, 2), (3, 4), (4, 5), (), (), ()), values=(0, 1, 2, 7, 7, 7))
    algorithm = BeamSearch(BeamOptions(width=2), rng=random.Random(), value=graph_value)
    events = visited(events_of(algorithm, graph.root()))
    assert [(e.node.id, e.depth) for e in events] == [(0, 0), (2, 1), (1, 1), (4, 2), (5, 2)]


def test_beam_goal_replay() -> None:
    maze = maze_case()

    def closeness(node: MazeNode) -> float:
        return -maze.manhattan(node)

    algorithm = BeamSearch(
        BeamOptions(width=3), rng=random.Random(), value=closeness, goal=maze.is_goal
    )
    events = events_of(algorithm, maze.root())
    path = [e.node for e in moves(events)]
    assert path
    assert maze.is_goal(path[-1])
    assert_valid_path(path, maze.root())


# -- best-first and A* -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_astar_pops_in_f_order_and_finds_a_shortest_path(seed: int) -> None:
    rng = random.Random(seed)
    maze = random_maze(rng, rng.randint(3, 9), rng.randint(3, 9), 0.25)
    algorithm = AStar(HeuristicOptions(), rng=rng, heuristic=maze.manhattan, goal=maze.is_goal)
    events = events_of(algorithm, maze.root())
    pops = visited(events)
    f = [e.depth + maze.manhattan(e.node) for e in pops]
    assert f == sorted(f)
    keys = [e.node.key() for e in pops]
    assert len(keys) == len(set(keys))  # consistent heuristic: no state popped twice
    distances = maze.distances()
    for e in pops:
        assert e.depth == distances[e.node.key()]
    path = [e.node for e in moves(events)]
    goal = maze.find("G")
    if goal in distances:
        assert len(path) - 1 == distances[goal]
        assert_valid_path(path, maze.root())
        assert maze.is_goal(path[-1])
    else:
        assert not path
        assert len(pops) == len(distances)


def test_astar_tie_break_is_insertion_order() -> None:
    # all f equal (zero heuristic, same depth): FIFO among equals
    graph = Graph(((1, 2, 3), (), (), ()))
    algorithm = AStar(HeuristicOptions(), rng=random.Random())
    events = visited(events_of(algorithm, graph.root()))
    assert [e.node.id for e in events] == [0, 1, 2, 3]


def test_astar_reopens_a_state_reached_by_a_shorter_path() -> None:
    # 0 -> 1 -> 2 -> 3 and 0 -> 4 -> 3, then 3 -> 6 -> 5 (the goal). h(4) = 3 is exact
    # (admissible) but not consistent, so A* pops 3 first by the longer path, then reopens it.
    graph = Graph(((1, 4), (2,), (3,), (6,), (3,), (), (5,)))
    h = {4: 3.0}

    def heuristic(node: GraphNode) -> float:
        return h.get(node.id, 0.0)

    def goal(node: GraphNode) -> bool:
        return node.id == 5

    algorithm = AStar(HeuristicOptions(), rng=random.Random(), heuristic=heuristic, goal=goal)
    events = events_of(algorithm, graph.root())
    # after 3 (g = 3), 6 (f = 4, g = 4) goes before 4 (f = 4, g = 1): deeper first on ties;
    # then 4 reopens 3 (g = 2), which reopens 6 (g = 3)
    assert [e.node.id for e in visited(events)] == [0, 1, 2, 3, 6, 4, 3, 6, 5]
    assert [e.depth for e in visited(events)] == [0, 1, 2, 3, 4, 1, 2, 3, 4]
    assert [e.node.id for e in moves(events)] == [0, 4, 3, 6, 5]


def test_astar_ties_prefer_the_deeper_node() -> None:
    # 0 -> 1, 2 and 1 -> 3: after 1 is popped, 2 (g = 1, h = 1) and 3 (g = 2, h = 0) tie at
    # f = 2; 3 is deeper, so it goes first although 2 was pushed earlier
    graph = Graph(((1, 2), (3,), (), ()))
    h = {0: 2.0, 1: 1.0, 2: 1.0, 3: 0.0}

    def heuristic(node: GraphNode) -> float:
        return h[node.id]

    algorithm = AStar(HeuristicOptions(), rng=random.Random(), heuristic=heuristic)
    events = visited(events_of(algorithm, graph.root()))
    assert [(e.node.id, e.depth) for e in events] == [(0, 0), (1, 1), (3, 2), (2, 1)]


def test_astar_on_the_water_sort_seed_puzzle_goes_deep_on_ties() -> None:
    domain = make_domain("watersort", {})
    algorithm = make_algorithm(
        "astar",
        {},
        rng=random.Random(),
        heuristics=domain.heuristics(),
        default_heuristic=domain.default_heuristic,
        goal=domain.is_goal,
    )
    events = events_of(algorithm, domain.root())
    assert len(moves(events)) - 1 == 39  # still optimal
    assert domain.is_goal(moves(events)[-1].node)
    assert len(visited(events)) == 103  # breadth-wise ties (insertion order): 1,562


def test_best_first_follows_the_heuristic_greedily() -> None:
    maze = Maze(("S....", ".###.", "....G"))
    algorithm = BestFirst(
        HeuristicOptions(), rng=random.Random(), heuristic=maze.manhattan, goal=maze.is_goal
    )
    events = events_of(algorithm, maze.root())
    pops = visited(events)
    h = [maze.manhattan(e.node) for e in pops]
    assert h == [6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]  # greedy along the top row
    path = [e.node for e in moves(events)]
    assert_valid_path(path, maze.root())
    assert maze.is_goal(path[-1])
    keys = [e.node.key() for e in pops]
    assert len(keys) == len(set(keys))


def test_heuristic_searches_through_make_algorithm() -> None:
    maze = maze_case()
    for name in ("astar", "a-star", "best-first"):
        algorithm = make_algorithm(
            name,
            {"heuristic": "manhattan"},
            rng=random.Random(),
            heuristics={"manhattan": maze.manhattan},
            goal=maze.is_goal,
        )
        path = moves(events_of(algorithm, maze.root()))
        assert maze.is_goal(path[-1].node)
