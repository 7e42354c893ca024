"""Minimax: agreement with a plain reference, event semantics, play mode, deep chains."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from game_trees import ChainNode, GameNode, Graph, NimNode, graph_value, minimax_reference
from game_trees import random_graph as make_random_graph
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.domains import make_domain
from searchvid.errors import CapabilityError
from searchvid.search import Event, EventKind, Recorder, make_algorithm, run
from searchvid.search.algorithms.minimax import Minimax, MinimaxOptions

K = EventKind


def minimax(value: Any = None, **options: Any) -> Minimax:
    if value is None:
        return Minimax(MinimaxOptions(**options), rng=random.Random())
    return Minimax(MinimaxOptions(**options), rng=random.Random(), value=value)


def events_of(algorithm: Any, root: Any) -> list[Event]:
    recorder = Recorder()
    run(algorithm, root, recorder)
    return recorder.events


@st.composite
def game_graphs(draw: st.DrawFn) -> Graph:
    seed = draw(st.integers(0, 2**32 - 1))
    depth = draw(st.integers(1, 6))
    layers = draw(st.lists(st.integers(1, 6), min_size=depth, max_size=depth))
    branching = draw(st.integers(1, 4))
    share = draw(st.booleans())
    return make_random_graph(random.Random(seed), layers, branching, share=share)


OPTION_SETS = [
    {"alpha_beta": True, "transposition": True},
    {"alpha_beta": True, "transposition": False},
    {"alpha_beta": False, "transposition": True},
    {"alpha_beta": False, "transposition": False},
]


@settings(max_examples=300, deadline=None)
@given(game_graphs())
def test_negamax_agrees_with_plain_minimax(graph: Graph) -> None:
    expected = minimax_reference(graph)
    for options in OPTION_SETS:
        assert minimax(**options).solve(graph.root(GameNode)) == expected, options


@settings(max_examples=150, deadline=None)
@given(game_graphs(), st.integers(1, 4))
def test_depth_limited_negamax_agrees_with_plain_minimax(graph: Graph, depth: int) -> None:
    expected = minimax_reference(graph, depth=depth)
    for alpha_beta in (True, False):
        algorithm = minimax(graph_value, depth=depth, alpha_beta=alpha_beta, transposition=False)
        assert algorithm.solve(graph.root(GameNode)) == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(game_graphs())
def test_traverse_improves_to_the_value_and_plays_a_perfect_line(graph: Graph) -> None:
    expected = minimax_reference(graph)
    root = graph.root(GameNode)
    events = events_of(minimax(), root)
    assert [e.step for e in events] == list(range(len(events)))
    improves = [e for e in events if e.kind is K.IMPROVE]
    assert improves[-1].value == expected
    assert all(e.node.id in graph.kids[0] and e.depth == 1 for e in improves)
    mover = 1 if graph.to_move[0] == 0 else -1
    values = [mover * (e.value or 0.0) for e in improves]
    assert values == sorted(set(values))  # strictly better for the player to move
    moves = [e for e in events if e.kind is K.MOVE]
    assert [e.depth for e in moves] == list(range(len(moves)))
    assert moves[0].node == root
    for a, b in itertools.pairwise(moves):
        assert b.node.id in graph.kids[a.node.id]
        assert b.value == a.value  # perfect play keeps the value
    assert not graph.kids[moves[-1].node.id]
    assert graph.rewards[moves[-1].node.id] == expected
    assert all(e.value == expected for e in moves)


def test_event_order_on_a_small_game() -> None:
    # 0 (p0) -> 1 (p1: -> 3 win, 4 loss), 2 (terminal draw)
    graph = Graph(
        ((1, 2), (3, 4), (), (), ()),
        rewards=(0.5, 0.5, 0.5, 1.0, 0.0),
        to_move=(0, 1, 1, 0, 0),
    )
    events = events_of(minimax(alpha_beta=False, transposition=False), graph.root(GameNode))
    assert [(e.kind.value, e.node.id, e.depth, e.value) for e in events] == [
        ("enter", 0, 0, None),
        ("enter", 1, 1, None),
        ("leaf", 3, 2, 1.0),
        ("backtrack", 1, 1, 1.0),
        ("leaf", 4, 2, 0.0),
        ("backtrack", 1, 1, 0.0),
        ("improve", 1, 1, 0.0),
        ("backtrack", 0, 0, 0.0),
        ("leaf", 2, 1, 0.5),
        ("improve", 2, 1, 0.5),
        ("backtrack", 0, 0, 0.5),
        ("move", 0, 0, 0.5),
        ("move", 2, 1, 0.5),
    ]


def test_alpha_beta_cuts_and_the_table_answers_transpositions() -> None:
    # 0 (p0) -> 1 (terminal win): the other moves are never searched
    graph = Graph(((1, 2), (), (3,), ()), rewards=(0, 1.0, 0, 0.0), to_move=(0, 1, 1, 0))
    events = events_of(minimax(play=False), graph.root(GameNode))
    assert [(e.kind.value, e.node.id) for e in events] == [
        ("enter", 0),
        ("leaf", 1),
        ("improve", 1),
        ("backtrack", 0),
        ("prune", 0),
    ]
    assert events[-1].value == 1.0  # one move (to 2) cut off
    # 0 -> 1, 2; both lead to 3 (a transposition) -> 4, 5
    graph = Graph(
        ((1, 2), (3,), (3,), (4, 5), (), ()),
        rewards=(0, 0, 0, 0, 0.5, 0.5),
        to_move=(0, 1, 1, 0, 1, 1),
    )
    algorithm = minimax(play=False)
    events = events_of(algorithm, graph.root(GameNode))
    second = [e for e in events if e.node.id == 3]
    assert [e.kind for e in second] == [K.ENTER, K.BACKTRACK, K.BACKTRACK, K.LEAF]
    assert algorithm.nodes == 7  # 0, 1, 3, 4, 5, then 2, and 3 again (from the table)
    assert minimax(transposition=False).solve(graph.root(GameNode)) == 0.5


def test_event_depth_limits_structural_events() -> None:
    graph = make_random_graph(random.Random(1), [3, 4, 5, 5, 4], 3)  # 5 moves deep
    root = graph.root(GameNode)
    everything = events_of(minimax(play=False, alpha_beta=False), root)
    shallow = events_of(minimax(play=False, alpha_beta=False, event_depth=2), root)
    assert max(e.depth for e in everything) > 2
    assert all(e.depth <= 2 for e in shallow)
    keep = [
        (e.kind, e.node.id, e.depth, e.value)
        for e in everything
        if e.depth <= 2 or e.kind is K.IMPROVE
    ]
    assert [(e.kind, e.node.id, e.depth, e.value) for e in shallow] == keep


def test_nim_values_and_play() -> None:
    for stones in range(1, 13):
        for player in (0, 1):
            value = minimax().solve(NimNode(stones, player))
            mover_wins = stones % 4 != 0
            assert value == (1.0 if mover_wins == (player == 0) else 0.0)
    events = events_of(minimax(), NimNode(10, 0))
    moves = [e.node for e in events if e.kind is K.MOVE]
    assert [n.stones for n in moves[:2]] == [10, 8]  # leaves a multiple of 4
    assert moves[-1].stones == 0
    assert moves[-1].reward() == 1.0


def test_depth_limit_uses_the_value_function() -> None:
    # depth 1 from the root sees only values: moves to 1 (worth .3) and 2 (worth .8)
    graph = Graph(
        ((1, 2), (3,), (4,), (), ()),
        values=(0.5, 0.3, 0.8, 0.0, 0.0),
        rewards=(0, 0, 0, 1.0, 0.0),
        to_move=(0, 1, 1, 0, 0),
    )
    assert minimax(graph_value, depth=1).solve(graph.root(GameNode)) == 0.8
    assert minimax(graph_value, depth=2).solve(graph.root(GameNode)) == 1.0
    assert minimax(depth=1).solve(graph.root(GameNode)) == 0.5  # no value function: 0.5
    events = events_of(minimax(graph_value, depth=1), graph.root(GameNode))
    assert [e.node.id for e in events if e.kind is K.MOVE] == [0, 2, 4]


def test_best_child_and_solve_make_no_events() -> None:
    graph = Graph(((1, 2), (), ()), rewards=(0, 0.0, 0.5), to_move=(1, 0, 0))
    algorithm = minimax()
    assert algorithm.solve(graph.root(GameNode)) == 0.0
    found = algorithm.best_child(graph.root(GameNode))
    assert found is not None
    assert (found[0].id, found[1]) == (1, 0.0)
    assert minimax().best_child(Graph(((),), rewards=(1.0,), to_move=(0,)).root(GameNode)) is None


def test_terminal_root() -> None:
    graph = Graph(((),), rewards=(1.0,), to_move=(1,))
    events = events_of(minimax(), graph.root(GameNode))
    assert [(e.kind.value, e.value) for e in events] == [("leaf", 1.0), ("move", 1.0)]


def test_deep_chain_without_recursion() -> None:
    length = 100_000
    root = ChainNode(0, length)
    assert minimax().solve(root) == 1.0
    count = 0
    deepest = 0
    last = None
    for event in minimax(play=False).traverse(root):
        count += 1
        deepest = max(deepest, event.depth)
        last = event
    assert deepest == length
    assert count == 2 * length + 2  # ENTER, LEAF, BACKTRACK per parent, one IMPROVE
    assert last is not None
    assert (last.kind, last.node, last.value) == (K.BACKTRACK, root, 1.0)


def test_capabilities_are_checked_before_any_event() -> None:
    domain = make_domain("tree", {})
    algorithm = make_algorithm("minimax", {}, rng=random.Random())
    with pytest.raises(CapabilityError, match=r"to_move") as info:
        algorithm.traverse(domain.root())
    assert "minimax" in str(info.value)
    assert "TreeNode" in str(info.value)
    with pytest.raises(CapabilityError, match=r"reward\(\)"):
        minimax().solve(domain.root())
