"""Search-tree identity in the event stream: ``Event.id`` and ``Event.parent`` (issue 12).

Exact id/parent sequences for every algorithm on small trees, the annotation kinds
(FRONTIER, DROP, PRUNE, BACKUP), and a conformance run over every algorithm and several
domains: ids are dense in order of first appearance, a new id's parent appeared before it,
a tree node's parent, depth and key never change.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from itertools import islice, pairwise
from typing import Any, Literal

import pytest
from game_trees import (
    DrawingGameNode,
    DrawingGraphNode,
    GameNode,
    Graph,
    GraphNode,
    NimNode,
    complete_tree,
    graph_value,
    random_graph,
    tree_graph,
)

from searchvid.domains import domain_names, make_domain
from searchvid.errors import CapabilityError
from searchvid.search import Event, EventKind, make_algorithm
from searchvid.search.algorithm import Algorithm
from searchvid.search.algorithms.frontier import (
    AStar,
    BeamOptions,
    BeamSearch,
    BreadthFirst,
    BreadthFirstOptions,
    HeuristicOptions,
)
from searchvid.search.algorithms.mcts import Mcts, MctsOptions, _TreeNode
from searchvid.search.algorithms.minimax import Minimax, MinimaxOptions
from searchvid.search.algorithms.random_walk import RandomWalk, RandomWalkOptions
from searchvid.search.node import key_of
from searchvid.search.values import terminal_reward, zero_heuristic

K = EventKind
ANNOTATIONS = {K.IMPROVE, K.FRONTIER, K.DROP, K.PRUNE, K.BACKUP}

SEED_TREE: dict[str, Any] = {
    "Algorithms": {
        "Breadth-First": {},
        "Depth-First": {"Backtracking": {}, "Beam Search": {}},
        "Other": {"Monte Carlo Tree Search": {}},
    }
}


def rows(events: Iterable[Event], graph: Graph | None = None) -> list[tuple[Any, ...]]:
    """``(kind, node label or id, id, parent)`` of each event."""

    def name(node: Any) -> Any:
        return graph.labels[node.id] if graph is not None and graph.labels else node.id

    return [(e.kind.value, name(e.node), e.id, e.parent) for e in events]


def check_tree(events: Iterable[Event]) -> dict[int, int | None]:
    """Assert the tree-identity invariants of a stream; returns each id's parent.

    Every id's first event carries a parent that appeared earlier (None only for id 0);
    ids are 0, 1, 2, ... in order of first appearance; a node's parent, depth and key
    never change, and its depth is its parent's plus one. Events without an id are
    MCTS rollout states, whose parent is a tree node already seen.
    """
    parents: dict[int, int | None] = {}
    depths: dict[int, int] = {}
    keys: dict[int, Any] = {}
    for e in events:
        assert e.kind.shows_state == (e.kind not in ANNOTATIONS)
        if e.id is None:
            assert e.kind in (K.ROLLOUT, K.LEAF, K.IMPROVE), e
            assert e.parent in parents, e
            continue
        if e.id not in parents:
            assert e.id == len(parents), f"id {e.id} first seen after {len(parents)} ids: {e}"
            if e.id == 0:
                assert e.parent is None, e
            else:
                assert e.parent in parents, e
                assert e.depth == depths[e.parent] + 1, e
            parents[e.id] = e.parent
            depths[e.id] = e.depth
            keys[e.id] = key_of(e.node)
        else:
            assert e.parent == parents[e.id], f"parent of {e.id} changed: {e}"
            assert e.depth == depths[e.id], e
            assert key_of(e.node) == keys[e.id], e
    return parents


def events_of(algorithm: Algorithm[Any], root: Any, limit: int | None = None) -> list[Event]:
    return list(islice(algorithm.traverse(root), limit))


# -- backtracking ------------------------------------------------------------------------------


def test_backtracking_numbers_the_seed_tree_in_pre_order() -> None:
    graph = tree_graph(SEED_TREE)
    algorithm = make_algorithm("backtracking", {}, rng=random.Random())
    events = events_of(algorithm, graph.root())
    assert rows(events, graph) == [
        ("enter", "Root", 0, None),
        ("improve", "Root", 0, None),
        ("enter", "Algorithms", 1, 0),
        ("leaf", "Breadth-First", 2, 1),
        ("backtrack", "Algorithms", 1, 0),
        ("enter", "Depth-First", 3, 1),
        ("leaf", "Backtracking", 4, 3),
        ("backtrack", "Depth-First", 3, 1),
        ("leaf", "Beam Search", 5, 3),
        ("backtrack", "Depth-First", 3, 1),
        ("backtrack", "Algorithms", 1, 0),
        ("enter", "Other", 6, 1),
        ("leaf", "Monte Carlo Tree Search", 7, 6),
        ("backtrack", "Other", 6, 1),
        ("backtrack", "Algorithms", 1, 0),
        ("backtrack", "Root", 0, None),
    ]
    check_tree(events)


def test_backtracking_revisits_are_new_tree_nodes_and_improve_names_its_node() -> None:
    # 0 -> 1, 2; both lead to 3 (a transposition): two tree nodes for state 3
    graph = Graph(((1, 2), (3,), (3,), ()), values=(0.0, 0.1, 0.2, 0.3))
    algorithm = make_algorithm(
        "backtracking", {}, rng=random.Random(), values={"v": graph_value}, default_value="v"
    )
    events = events_of(algorithm, graph.root())
    assert rows(events) == [
        ("enter", 0, 0, None),
        ("improve", 0, 0, None),
        ("enter", 1, 1, 0),
        ("improve", 1, 1, 0),
        ("leaf", 3, 2, 1),
        ("improve", 3, 2, 1),
        ("backtrack", 1, 1, 0),
        ("backtrack", 0, 0, None),
        ("enter", 2, 3, 0),
        ("leaf", 3, 4, 3),
        ("backtrack", 2, 3, 0),
        ("backtrack", 0, 0, None),
    ]


# -- random walk -------------------------------------------------------------------------------


def test_random_walks_form_a_trie() -> None:
    chain = Graph(((1,), (2,), ()))
    algorithm = RandomWalk(RandomWalkOptions(restarts=3), rng=random.Random())
    assert rows(events_of(algorithm, chain.root())) == [
        ("enter", 0, 0, None),
        ("improve", 0, 0, None),
        ("enter", 1, 1, 0),
        ("leaf", 2, 2, 1),
        ("restart", 0, 0, None),
        ("enter", 1, 1, 0),
        ("leaf", 2, 2, 1),
        ("restart", 0, 0, None),
        ("enter", 1, 1, 0),
        ("leaf", 2, 2, 1),
    ]


@pytest.mark.parametrize("cls", [GraphNode, DrawingGraphNode])
def test_random_walk_reuses_the_id_of_a_step_taken_before(cls: type[GraphNode]) -> None:
    # a graph with transpositions: one state is reached on several paths (several tree nodes)
    graph = random_graph(random.Random(2), [3, 3, 3], 3)
    algorithm = RandomWalk(RandomWalkOptions(restarts=60), rng=random.Random(5))
    events = events_of(algorithm, graph.root(cls))
    parents = check_tree(events)
    steps: dict[tuple[int | None, int], int] = {}  # (parent id, state) -> tree id
    paths: dict[int, tuple[int, ...]] = {0: (0,)}
    for e in events:
        if e.kind in (K.ENTER, K.LEAF) and e.id:
            assert steps.setdefault((e.parent, e.node.id), e.id) == e.id
            paths[e.id] = (*paths[e.parent], e.node.id)  # type: ignore[index]
    assert len(set(paths.values())) == len(paths) == len(parents)  # one id per path
    assert len(parents) < sum(e.kind in (K.ENTER, K.LEAF) for e in events)  # reused


def test_random_walk_with_cycles_avoided() -> None:
    cycle = Graph(((1, 2), (2, 0), (0, 1)))
    algorithm = RandomWalk(RandomWalkOptions(restarts=10, avoid_cycles=True), rng=random.Random(3))
    events = events_of(algorithm, cycle.root(DrawingGraphNode))
    parents = check_tree(events)
    assert len(parents) == 5  # 0, then 1 or 2, then the other: two paths of two steps


# -- frontier searches -------------------------------------------------------------------------


def test_breadth_first_frontier_events_name_the_expanding_node() -> None:
    graph = tree_graph(SEED_TREE)
    events = events_of(BreadthFirst(BreadthFirstOptions(), rng=random.Random()), graph.root())
    assert rows(events, graph) == [
        ("enter", "Root", 0, None),
        ("improve", "Root", 0, None),
        ("frontier", "Algorithms", 1, 0),
        ("enter", "Algorithms", 1, 0),
        ("frontier", "Breadth-First", 2, 1),
        ("frontier", "Depth-First", 3, 1),
        ("frontier", "Other", 4, 1),
        ("leaf", "Breadth-First", 2, 1),
        ("enter", "Depth-First", 3, 1),
        ("frontier", "Backtracking", 5, 3),
        ("frontier", "Beam Search", 6, 3),
        ("enter", "Other", 4, 1),
        ("frontier", "Monte Carlo Tree Search", 7, 4),
        ("leaf", "Backtracking", 5, 3),
        ("leaf", "Beam Search", 6, 3),
        ("leaf", "Monte Carlo Tree Search", 7, 4),
    ]
    frontier = [e for e in events if e.kind is K.FRONTIER]
    assert all(e.value is None and not e.kind.shows_state for e in frontier)
    assert [e.depth for e in frontier] == [1, 2, 2, 2, 3, 3, 3]


def test_expand_events_carry_what_frontier_events_would() -> None:
    graph = tree_graph(SEED_TREE)
    quiet = events_of(BreadthFirst(BreadthFirstOptions(), rng=random.Random()), graph.root())
    loud = events_of(
        BreadthFirst(BreadthFirstOptions(expand_events=True), rng=random.Random()), graph.root()
    )
    assert not any(e.kind is K.FRONTIER for e in loud)
    assert [(K.EXPAND if e.kind is K.FRONTIER else e.kind, *e[1:]) for e in quiet] == [
        tuple(e) for e in loud
    ]


def test_breadth_first_duplicates_get_no_event_and_the_replay_names_the_path() -> None:
    # 0 -> 1, 2; 1 -> 2 (a duplicate), 3; 3 -> 4 (the goal)
    graph = Graph(((1, 2), (2, 3), (), (4,), ()))

    def goal(node: GraphNode) -> bool:
        return node.id == 4

    algorithm = BreadthFirst(BreadthFirstOptions(), rng=random.Random(), goal=goal)
    events = events_of(algorithm, graph.root())
    assert rows(events) == [
        ("enter", 0, 0, None),
        ("improve", 0, 0, None),
        ("frontier", 1, 1, 0),
        ("frontier", 2, 2, 0),
        ("enter", 1, 1, 0),
        ("frontier", 3, 3, 1),
        ("leaf", 2, 2, 0),
        ("enter", 3, 3, 1),
        ("frontier", 4, 4, 3),
        ("leaf", 4, 4, 3),
        ("move", 0, 0, None),
        ("move", 1, 1, 0),
        ("move", 3, 3, 1),
        ("move", 4, 4, 3),
    ]
    assert [e.step for e in events] == list(range(len(events)))


def test_beam_drops_the_children_it_does_not_keep() -> None:
    # root -> 1, 2; 1 -> 3, 4; 2 -> 4, 5: 4 is generated twice; all level-2 values tie
    graph = Graph(((1, 2), (3, 4), (4, 5), (), (), ()), values=(0, 1, 2, 7, 7, 7))
    algorithm = BeamSearch(BeamOptions(width=2), rng=random.Random(), value=graph_value)
    events = events_of(algorithm, graph.root())
    assert rows(events) == [
        ("enter", 0, 0, None),
        ("improve", 0, 0, None),
        ("frontier", 1, 1, 0),  # level 1, in generation order: both kept
        ("frontier", 2, 2, 0),
        ("enter", 2, 2, 0),  # rank order
        ("improve", 2, 2, 0),
        ("enter", 1, 1, 0),
        ("frontier", 4, 3, 2),  # level 2: 4 and 5 (from 2), 3 (from 1); 4 from 1 is a dup
        ("frontier", 5, 4, 2),
        ("drop", 3, 5, 1),
        ("leaf", 4, 3, 2),
        ("improve", 4, 3, 2),
        ("leaf", 5, 4, 2),
    ]
    drop = next(e for e in events if e.kind is K.DROP)
    assert (drop.depth, drop.value) == (2, 7)
    check_tree(events)


def test_beam_with_expand_events_drops_by_the_expanded_ids() -> None:
    graph = Graph(((1, 2), (3, 4), (4, 5), (), (), ()), values=(0, 1, 2, 7, 7, 7))
    options = BeamOptions(width=2, expand_events=True)
    events = events_of(BeamSearch(options, rng=random.Random(), value=graph_value), graph.root())
    assert rows(events) == [
        ("enter", 0, 0, None),
        ("improve", 0, 0, None),
        ("expand", 1, 1, 0),
        ("expand", 2, 2, 0),
        ("enter", 2, 2, 0),
        ("improve", 2, 2, 0),
        ("expand", 4, 3, 2),
        ("expand", 5, 4, 2),
        ("enter", 1, 1, 0),
        ("expand", 3, 5, 1),
        ("expand", 4, 6, 1),  # a duplicate within the level: a tree node of its own ...
        ("drop", 3, 5, 1),
        ("drop", 4, 6, 1),  # ... dropped, as the first one generated is kept
        ("leaf", 4, 3, 2),
        ("improve", 4, 3, 2),
        ("leaf", 5, 4, 2),
    ]
    check_tree(events)


def test_astar_gives_a_key_reached_by_a_shorter_path_a_new_tree_node() -> None:
    # as in test_frontier: A* pops 3 by the longer path 0-1-2-3, then 4 reopens it (g = 2)
    graph = Graph(((1, 4), (2,), (3,), (6,), (3,), (), (5,)))
    h = {4: 3.0}

    def heuristic(node: GraphNode) -> float:
        return h.get(node.id, 0.0)

    def goal(node: GraphNode) -> bool:
        return node.id == 5

    algorithm = AStar(HeuristicOptions(), rng=random.Random(), heuristic=heuristic, goal=goal)
    events = events_of(algorithm, graph.root())
    shown = [e for e in events if e.kind is not K.IMPROVE]
    assert rows(shown) == [
        ("enter", 0, 0, None),
        ("frontier", 1, 1, 0),
        ("frontier", 4, 2, 0),
        ("enter", 1, 1, 0),
        ("frontier", 2, 3, 1),
        ("enter", 2, 3, 1),
        ("frontier", 3, 4, 3),
        ("enter", 3, 4, 3),
        ("frontier", 6, 5, 4),
        ("enter", 6, 5, 4),
        ("frontier", 5, 6, 5),  # never popped: 5 is reached by a shorter path first
        ("enter", 4, 2, 0),
        ("frontier", 3, 7, 2),  # 3 again, shorter: a new tree node below 4
        ("enter", 3, 7, 2),
        ("frontier", 6, 8, 7),
        ("enter", 6, 8, 7),
        ("frontier", 5, 9, 8),
        ("leaf", 5, 9, 8),
        ("move", 0, 0, None),
        ("move", 4, 2, 0),
        ("move", 3, 7, 2),
        ("move", 6, 8, 7),
        ("move", 5, 9, 8),
    ]
    check_tree(events)


# -- minimax -----------------------------------------------------------------------------------


def textbook_game() -> Graph:
    """AIMA's figure 5.2 with leaf utilities 3, 12, 8 / 2, 4, 6 / 14, 5, 2 (scaled by 1/20).

    The root (max) has moves A, B, C (min nodes 1, 2, 3); alpha-beta cuts B's last two
    leaves (4 and 6) once its first (2) is below A's value (3).
    """
    kids = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)) + ((),) * 9
    utilities = (0, 0, 0, 0, 3, 12, 8, 2, 4, 6, 14, 5, 2)
    return Graph(
        kids,
        rewards=tuple(u / 20 for u in utilities),
        to_move=(0, 1, 1, 1) + (0,) * 9,
    )


def test_minimax_prunes_at_the_textbook_cut_off() -> None:
    graph = textbook_game()
    algorithm = Minimax(MinimaxOptions(transposition=False), rng=random.Random())
    events = events_of(algorithm, graph.root(GameNode))
    assert rows(events) == [
        ("enter", 0, 0, None),
        ("enter", 1, 1, 0),
        ("leaf", 4, 2, 1),
        ("backtrack", 1, 1, 0),
        ("leaf", 5, 3, 1),
        ("backtrack", 1, 1, 0),
        ("leaf", 6, 4, 1),
        ("backtrack", 1, 1, 0),
        ("improve", 1, 1, 0),
        ("backtrack", 0, 0, None),
        ("enter", 2, 5, 0),
        ("leaf", 7, 6, 5),
        ("backtrack", 2, 5, 0),
        ("prune", 2, 5, 0),
        ("backtrack", 0, 0, None),
        ("enter", 3, 7, 0),
        ("leaf", 10, 8, 7),
        ("backtrack", 3, 7, 0),
        ("leaf", 11, 9, 7),
        ("backtrack", 3, 7, 0),
        ("leaf", 12, 10, 7),
        ("backtrack", 3, 7, 0),
        ("backtrack", 0, 0, None),
        ("move", 0, 0, None),
        ("move", 1, 1, 0),  # the line's nodes are the tree nodes searched
        ("move", 4, 2, 1),
    ]
    prune = next(e for e in events if e.kind is K.PRUNE)
    assert (prune.depth, prune.value) == (1, 2.0)
    assert not prune.kind.shows_state
    plain = Minimax(MinimaxOptions(alpha_beta=False), rng=random.Random())
    assert not any(e.kind is K.PRUNE for e in plain.traverse(graph.root(GameNode)))


def test_minimax_prune_counts_deeper_in_the_tree() -> None:
    # 0 (max) -> 1, 2 (min); 1 -> 3, 4 (max); 2 -> 5 (max), 6, 7;
    # 3 -> leaves 8 (.5), 9 (.6); 4 -> leaves 10 (.7), 11, 12;
    # 5 -> leaves 13 (.2), 14; 6, 7 leaves.
    kids = ((1, 2), (3, 4), (5, 6, 7), (8, 9), (10, 11, 12), (13, 14)) + ((),) * 9
    rewards = (0, 0, 0, 0, 0, 0, 0.9, 0.9, 0.5, 0.6, 0.7, 0.1, 0.1, 0.2, 0.3)
    to_move = (0, 1, 1, 0, 0, 0) + (1,) * 9
    graph = Graph(kids, rewards=rewards, to_move=to_move)
    events = events_of(
        Minimax(MinimaxOptions(transposition=False, play=False), rng=random.Random()),
        graph.root(GameNode),
    )
    pruned = [(e.node.id, e.depth, e.value, e.id, e.parent) for e in events if e.kind is K.PRUNE]
    # 4 (max, beta .6 from 3): its first leaf .7 >= .6 cuts 11 and 12;
    # 5 (max, alpha .6 from 1): .2 and .3 both below, no cut; then 2 (min): .3 <= .6
    # cuts its moves 6 and 7
    node_ids = {e.node.id: e.id for e in events if e.kind in (K.ENTER, K.LEAF)}
    assert pruned == [
        (4, 2, 2.0, node_ids[4], node_ids[1]),
        (2, 1, 2.0, node_ids[2], 0),
    ]
    assert 11 not in node_ids
    assert 6 not in node_ids
    check_tree(events)


def test_minimax_table_answers_are_tree_nodes_of_their_own() -> None:
    # 0 -> 1, 2; both lead to 3 (a transposition) -> 4, 5
    graph = Graph(
        ((1, 2), (3,), (3,), (4, 5), (), ()),
        rewards=(0, 0, 0, 0, 0.5, 0.5),
        to_move=(0, 1, 1, 0, 1, 1),
    )
    events = events_of(
        Minimax(MinimaxOptions(play=False), rng=random.Random()), graph.root(GameNode)
    )
    threes = [(e.kind.value, e.id, e.parent) for e in events if e.node.id == 3]
    # ids: 0 root, 1 (1), 2 (3), 3 (4), 4 (5), 5 (2), then 3 again below 2, from the table
    assert threes == [("enter", 2, 1), ("backtrack", 2, 1), ("backtrack", 2, 1), ("leaf", 6, 5)]
    check_tree(events)


def test_minimax_moves_beyond_event_depth_get_new_ids() -> None:
    graph = textbook_game()
    algorithm = Minimax(MinimaxOptions(transposition=False, event_depth=1), rng=random.Random())
    events = events_of(algorithm, graph.root(GameNode))
    assert max(e.id or 0 for e in events if e.kind is not K.MOVE) == 3  # root and A, B, C
    moves = [(e.node.id, e.id, e.parent) for e in events if e.kind is K.MOVE]
    assert moves == [(0, 0, None), (1, 1, 0), (4, 4, 1)]  # 4 was never reported: new id
    check_tree(events)


@pytest.mark.parametrize("seed", range(20))
def test_minimax_prune_counts_are_the_moves_never_searched(seed: int) -> None:
    graph = random_graph(random.Random(seed), [3, 4, 5, 4], 3, share=False)  # a tree
    algorithm = Minimax(MinimaxOptions(transposition=False, play=False), rng=random.Random())
    events = events_of(algorithm, graph.root(GameNode))
    check_tree(events)
    reported = {e.node.id for e in events if e.kind in (K.ENTER, K.LEAF)}
    pruned = {e.node.id: e.value for e in events if e.kind is K.PRUNE}
    for node in reported:
        never = sum(1 for c in graph.kids[node] if c not in reported)
        assert pruned.get(node, 0.0) == never


# -- MCTS --------------------------------------------------------------------------------------


def test_mcts_ids_on_a_small_tree() -> None:
    graph = Graph(((1,), ()), values=(0.0, 1.0))
    algorithm = Mcts(MctsOptions(iterations=2, mode="plan"), rng=random.Random(), value=graph_value)
    events = events_of(algorithm, graph.root())
    assert [(e.kind.value, e.node.id, e.id, e.parent, e.value) for e in events] == [
        ("move", 0, 0, None, None),
        ("select", 0, 0, None, None),
        ("expand", 1, 1, 0, None),
        ("leaf", 1, None, 1, 1.0),  # a playout's end: no tree node, started at 1
        ("improve", 1, 1, 0, 1.0),  # the playout made no move: its end is tree node 1
        ("backup", 1, 1, 0, 1.0),
        ("select", 1, 1, 0, None),  # terminal: selected, not expanded
        ("leaf", 1, None, 1, 1.0),
        ("backup", 1, 1, 0, 1.0),
        ("move", 1, 1, 0, 1.0),
    ]


def test_mcts_rollout_states_are_not_tree_nodes() -> None:
    graph = complete_tree(2, 4)
    algorithm = Mcts(
        MctsOptions(iterations=10, rollout_events=True), rng=random.Random(2), value=graph_value
    )
    graph = Graph(graph.kids, values=tuple(i / len(graph) for i in range(len(graph))))
    events = events_of(algorithm, graph.root())
    check_tree(events)
    starts: list[int] = []
    for e in events:
        if e.kind in (K.SELECT, K.EXPAND):
            starts.append(e.id)  # type: ignore[arg-type]
        elif e.kind in (K.ROLLOUT, K.LEAF):
            assert (e.id, e.parent) == (None, starts[-1])
        elif e.kind is K.BACKUP:
            assert e.id == starts[-1]
            assert e.depth == next(x.depth for x in events if x.id == e.id)
    assert any(e.kind is K.ROLLOUT for e in events)


def replay_backups(events: list[Event]) -> tuple[dict[int, int], dict[int, list[float]]]:
    """What a panel computes from the events: visits and player 0's rewards per tree node.

    Each BACKUP adds to its node and every ancestor up to the current root (the latest
    MOVE's node; the stream's root in search mode).
    """
    parents: dict[int, int | None] = {}
    visits: dict[int, int] = {}
    rewards: dict[int, list[float]] = {}
    top = 0
    for e in events:
        if e.id is not None:
            parents.setdefault(e.id, e.parent)
        if e.kind is K.MOVE:
            assert e.id is not None
            top = e.id
        elif e.kind is K.BACKUP:
            assert e.id is not None
            assert e.value is not None
            assert 0.0 <= e.value <= 1.0
            node: int | None = e.id
            while True:
                assert node is not None, "the current root is an ancestor of every BACKUP"
                visits[node] = visits.get(node, 0) + 1
                rewards.setdefault(node, []).append(e.value)
                if node == top:
                    break
                node = parents[node]
    return visits, rewards


def tree_nodes(root: _TreeNode) -> Iterator[_TreeNode]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.kids or ())


def assert_backups_reproduce_the_tree(algorithm: Mcts, events: list[Event]) -> int:
    """Every node of the algorithm's tree has the visits and reward sum the BACKUPs give."""
    visits, rewards = replay_backups(events)
    checked = 0
    for node in tree_nodes(algorithm._tree):
        assert visits.get(node.id, 0) == node.visits, node.id
        total = 0.0
        for r in rewards.get(node.id, []):
            total += (1.0 - r) if node.mover else r  # the tree keeps the mover's view
        assert total == node.total, node.id
        checked += 1
    return checked


@pytest.mark.parametrize("seed", range(3))
def test_mcts_backups_reproduce_visits_and_values_one_player(seed: int) -> None:
    graph = random_graph(random.Random(seed), [4, 6, 8, 8], 4, share=False)
    graph = Graph(graph.kids, values=graph.values)
    algorithm = Mcts(MctsOptions(iterations=200), rng=random.Random(seed), value=graph_value)
    events = events_of(algorithm, graph.root(DrawingGraphNode))
    parents = check_tree(events)
    assert assert_backups_reproduce_the_tree(algorithm, events) == len(parents)
    assert sum(e.kind is K.BACKUP for e in events) == 200


@pytest.mark.parametrize("seed", range(3))
def test_mcts_backups_reproduce_visits_and_values_two_players(seed: int) -> None:
    graph = random_graph(random.Random(seed), [3, 5, 6, 6], 3)
    algorithm = Mcts(MctsOptions(iterations=150), rng=random.Random(seed))
    events = events_of(algorithm, graph.root(DrawingGameNode))
    parents = check_tree(events)
    assert assert_backups_reproduce_the_tree(algorithm, events) == len(parents)


@pytest.mark.parametrize("opponent", ["mcts", "random"])
def test_mcts_plan_mode_keeps_ids_across_moves(opponent: Literal["mcts", "random"]) -> None:
    algorithm = Mcts(
        MctsOptions(iterations=60, mode="plan", opponent=opponent), rng=random.Random(1)
    )
    events: list[Event] = []
    checked = 0
    for event in algorithm.traverse(NimNode(9, 0)):
        events.append(event)
        if event.kind is K.MOVE and event.id:
            # the tree was just re-rooted on the move: its kept subtree matches the BACKUPs
            checked += assert_backups_reproduce_the_tree(algorithm, events)
    parents = check_tree(events)
    moves = [e for e in events if e.kind is K.MOVE]
    assert moves[0].id == 0
    for a, b in pairwise(moves):
        assert b.parent == a.id  # each committed move is a child of the previous one
    assert checked > len(moves)
    assert len(parents) > len(moves)


def test_mcts_committed_goal_line_names_tree_nodes_then_new_ones() -> None:
    # a chain 0 -> 1 -> 2 -> 3 (the goal): one iteration expands 1 and plays out to 3
    graph = Graph(((1,), (2,), (3,), ()), values=(0.0, 0.1, 0.2, 1.0))

    def goal(node: GraphNode) -> bool:
        return node.id == 3

    options = MctsOptions(iterations=1, mode="plan")
    algorithm = Mcts(options, rng=random.Random(0), value=graph_value, goal=goal)
    events = events_of(algorithm, graph.root())
    assert [(e.kind.value, e.node.id, e.id, e.parent) for e in events] == [
        ("move", 0, 0, None),
        ("select", 0, 0, None),
        ("expand", 1, 1, 0),
        ("leaf", 3, None, 1),
        ("improve", 3, None, 1),
        ("backup", 1, 1, 0),
        ("move", 1, 1, 0),  # the tree node of the line
        ("move", 2, 2, 1),  # then the playout's states: new tree nodes
        ("move", 3, 3, 2),
    ]
    check_tree(events)


# -- every algorithm, several domains ----------------------------------------------------------

FRONTIER_NAMES = ("breadth-first", "beam", "best-first", "astar")

CASES: list[tuple[str, dict[str, Any]]] = [
    ("backtracking", {}),
    ("backtracking", {"repeats": "never"}),
    ("random-walk", {"restarts": 30}),
    ("random-walk", {"restarts": 30, "avoid_cycles": True}),
    ("breadth-first", {}),
    ("breadth-first", {"expand_events": True}),
    ("beam", {"width": 3}),
    ("beam", {"width": 3, "expand_events": True}),
    ("best-first", {}),
    ("astar", {}),
    ("astar", {"expand_events": True}),
    ("mcts", {"iterations": 60, "rollout_limit": 100}),
    ("mcts", {"iterations": 60, "rollout_events": True, "avoid_cycles": True}),
    ("mcts", {"iterations": 30, "mode": "plan", "max_moves": 6, "rollout_limit": 100}),
    ("mcts", {"iterations": 30, "mode": "plan", "opponent": "random", "rollout_limit": 100}),
    ("minimax", {"depth": 3}),
    ("minimax", {"depth": 3, "alpha_beta": False, "transposition": False}),
    ("minimax", {"depth": 3, "event_depth": 2}),
]

# Every registered domain with its default options (adding a domain needs no edit here),
# plus option sets that change how the tree grows.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("railroad", {"rules": "game"}),  # chance nodes: 168 rolls, then the dice placed
]
DOMAINS: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in domain_names()] + [
    variant for variant in VARIANTS if variant[0] in domain_names()
]
DOMAIN_IDS = [name + ("-game" if table.get("rules") == "game" else "") for name, table in DOMAINS]


def _runs(domain_name: str, domain_table: dict[str, Any], name: str, table: dict[str, Any]) -> bool:
    """Whether the algorithm takes the domain (it checks the capabilities it needs)."""
    domain = make_domain(domain_name, domain_table)
    try:
        make_algorithm(name, table, rng=random.Random(0), values={"reward": terminal_reward}).check(
            domain.root()
        )
    except CapabilityError:
        return False
    return True


PAIRS = [
    pytest.param(d, dt, n, t, id=f"{did}-{n}{t}")
    for (d, dt), did in zip(DOMAINS, DOMAIN_IDS, strict=True)
    for n, t in CASES
    if _runs(d, dt, n, t)
]

LIMIT = 3000
"""Events taken from each stream (enough to cover several expansions, iterations, walks)."""


def domain_search(
    domain_name: str, domain_table: dict[str, Any], name: str, table: dict[str, Any]
) -> tuple[Any, Algorithm[Any]]:
    domain = make_domain(domain_name, domain_table)
    algorithm = make_algorithm(
        name,
        table,
        rng=random.Random(7),
        values={"reward": terminal_reward, **domain.values()},
        heuristics={"zero": zero_heuristic, **domain.heuristics()},
        default_value=domain.default_value,
        default_heuristic=domain.default_heuristic,
        goal=domain.is_goal if domain.has_goal else None,
    )
    return domain, algorithm


@pytest.mark.parametrize(("domain_name", "domain_table", "name", "table"), PAIRS)
def test_every_algorithm_names_tree_nodes_consistently(
    domain_name: str, domain_table: dict[str, Any], name: str, table: dict[str, Any]
) -> None:
    if name == "mcts" and table.get("mode") == "plan" and domain_name == "quarto":
        table = {**table, "iterations": 10}
    domain, algorithm = domain_search(domain_name, domain_table, name, table)
    events = events_of(algorithm, domain.root(), LIMIT)
    assert events
    assert [e.step for e in events] == list(range(len(events)))
    parents = check_tree(events)
    assert 0 in parents
    if name != "mcts":
        assert all(e.id is not None for e in events)
    if name in FRONTIER_NAMES:
        growing = K.EXPAND if table.get("expand_events") else K.FRONTIER
        assert all(e.kind is not growing or e.parent is not None for e in events)
        kinds = {e.kind for e in events}
        assert growing in kinds or len(parents) == 1
        assert (K.FRONTIER in kinds) != bool(table.get("expand_events")) or len(parents) == 1


@pytest.mark.parametrize("name", ["backtracking", "random-walk", "mcts", "minimax"])
def test_tree_ids_on_a_random_game(name: str) -> None:
    graph = random_graph(random.Random(4), [3, 4, 4], 3)
    table: dict[str, Any] = {"iterations": 80} if name == "mcts" else {}
    if name == "random-walk":
        table = {"restarts": 40}
    algorithm = make_algorithm(
        name, table, rng=random.Random(3), values={"v": graph_value}, default_value="v"
    )
    events = events_of(algorithm, graph.root(GameNode))
    check_tree(events)
