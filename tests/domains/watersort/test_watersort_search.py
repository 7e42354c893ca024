"""Searches on Water Sort: optimal solutions, MCTS in plan mode, unsolvable puzzles."""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

import pytest

from searchvid.domains import make_domain
from searchvid.domains.watersort import WaterSortDomain
from searchvid.domains.watersort.rules import WaterState
from searchvid.search.algorithm import make_algorithm
from searchvid.search.events import Event, EventKind

UNSOLVABLE = {"tubes": [[3, 2, 1, 2], [3, 3, 2, 1], [3, 1, 2, 1], []]}
"""49 states reachable, none solved (found by exhausting random 3-colour puzzles)."""


def domain(table: dict[str, Any] | None = None) -> WaterSortDomain:
    built = make_domain("watersort", table or {})
    assert isinstance(built, WaterSortDomain)
    return built


def search(name: str, table: dict[str, Any], puzzle: WaterSortDomain, seed: int = 0) -> list[Event]:
    algorithm = make_algorithm(
        name,
        table,
        rng=random.Random(seed),
        values=puzzle.values(),
        heuristics=puzzle.heuristics(),
        default_value=puzzle.default_value,
        default_heuristic=puzzle.default_heuristic,
        goal=puzzle.is_goal,
    )
    return list(algorithm.traverse(puzzle.root()))


def replayed_pours(events: list[Event], root: WaterState) -> list[tuple[int, int]]:
    """The pours of the MOVE events, each checked legal from the state before it."""
    moves = [e for e in events if e.kind is EventKind.MOVE]
    assert moves, "no solution was played out"
    assert moves[0].node == root
    assert moves[0].depth == 0
    pours = []
    state = root
    for depth, event in enumerate(moves[1:], start=1):
        node = event.node
        assert event.depth == depth
        assert node.pour is not None
        assert state.is_legal(node.pour)
        state = state.after(node.pour)
        assert state == node
        pours.append(node.pour)
    assert state.is_solved()
    return pours


@pytest.mark.parametrize("algorithm", ["astar", "breadth-first"])
def test_optimal_searches_find_the_seed_puzzle_in_39_pours(algorithm: str) -> None:
    puzzle = domain()
    events = search(algorithm, {}, puzzle)
    assert events[-1].kind is EventKind.MOVE
    pours = replayed_pours(events, puzzle.root())
    assert len(pours) == 39
    assert puzzle.label(events[-1].node) == "39 pours, 12/12 tubes sorted"


def test_astar_with_the_weaker_heuristic_is_optimal_too() -> None:
    puzzle = domain()
    events = search("astar", {"heuristic": "spread"}, puzzle)
    assert len(replayed_pours(events, puzzle.root())) == 39


def test_searches_are_deterministic() -> None:
    puzzle = domain()
    first = [(e.kind, e.node.tubes, e.depth) for e in search("astar", {}, puzzle)]
    again = [(e.kind, e.node.tubes, e.depth) for e in search("astar", {}, domain())]
    assert first == again


@pytest.mark.parametrize("algorithm", ["astar", "breadth-first"])
def test_unsolvable_puzzle_exhausts_the_search(algorithm: str) -> None:
    puzzle = domain(UNSOLVABLE)
    events = search(algorithm, {}, puzzle)
    visited = [e for e in events if e.kind in (EventKind.ENTER, EventKind.LEAF)]
    assert len({e.node.key() for e in visited}) == 49
    assert not any(puzzle.is_goal(e.node) for e in events)
    assert not any(e.kind is EventKind.MOVE for e in events)


ISSUE_11 = {
    "tubes": [
        [3, 3, 6, 4],
        [2, 6, 6, 1],
        [1, 5, 5, 5],
        [2, 1, 2, 6],
        [4, 4, 3, 4],
        [1, 5],
        [3],
        [2],
    ]
}
"""Issue 11: a dead end whose one legal pour swaps two tubes ([1,5,5,5] and [1,5])."""
ONE_POUR_FROM_A_SWAP = {"tubes": [[1, 2, 2, 2], [1, 2], [3, 3, 3, 1], [3, 1]]}
"""One real pour ([3,3,3,1] onto [3,1]) leads to a dead end like issue 11's."""


def test_random_walk_restarts_from_a_dead_end_with_a_swap() -> None:
    puzzle = domain(ISSUE_11)
    walk = make_algorithm("random-walk", {"restarts": 3}, rng=random.Random(0))
    events = list(islice(walk.traverse(puzzle.root()), 100))
    assert len(events) < 100, "the walk never ended"
    assert sum(e.kind is EventKind.RESTART for e in events) == 2  # 3 walks
    assert [e.kind for e in events if e.kind is not EventKind.IMPROVE] == [
        EventKind.LEAF,
        EventKind.RESTART,
        EventKind.RESTART,
    ]


def test_random_walks_end_one_pour_before_a_swap() -> None:
    puzzle = domain(ONE_POUR_FROM_A_SWAP)
    walk = make_algorithm("random-walk", {"restarts": 3}, rng=random.Random(0))
    events = list(islice(walk.traverse(puzzle.root()), 100))
    assert sum(e.kind is EventKind.RESTART for e in events) == 2
    leaves = [e for e in events if e.kind is EventKind.LEAF]
    assert [(e.depth, e.node.as_lists()) for e in leaves] == [
        (1, [[1, 2, 2, 2], [1, 2], [3, 3, 3], [3, 1, 1]])
    ] * 3


@pytest.mark.parametrize("table", [ISSUE_11, ONE_POUR_FROM_A_SWAP], ids=["issue-11", "one-pour"])
@pytest.mark.parametrize("mode", ["search", "plan"])
def test_mcts_rollouts_stop_at_a_dead_end_with_a_swap(table: dict[str, Any], mode: str) -> None:
    puzzle = domain(table)
    algorithm = make_algorithm(
        "mcts",
        {"mode": mode, "iterations": 50, "rollout_events": True},
        rng=random.Random(0),
        values=puzzle.values(),
        default_value=puzzle.default_value,
        goal=puzzle.is_goal,
    )
    limit = 1_000
    events = list(islice(algorithm.traverse(puzzle.root()), limit))
    assert len(events) < limit, "MCTS kept pouring"
    assert max(e.node.pours for e in events) <= 1
    assert not any(puzzle.is_goal(e.node) for e in events)


MCTS_PLAN = {"mode": "plan", "iterations": 60, "avoid_cycles": True}
"""Seed 004's method (it committed a pour after 100 iterations), a little cheaper."""


def test_mcts_plan_mode_solves_the_seed_puzzle() -> None:
    puzzle = domain()
    events = search("mcts", MCTS_PLAN, puzzle, seed=1)
    assert events[-1].kind is EventKind.MOVE
    pours = replayed_pours(events, puzzle.root())
    assert 39 <= len(pours) <= 80
    moves = [e for e in events if e.kind is EventKind.MOVE]
    assert len({m.node.key() for m in moves}) == len(moves)  # never back to an earlier state


def test_mcts_is_deterministic_for_a_seed() -> None:
    first = search("mcts", {**MCTS_PLAN, "iterations": 10, "max_moves": 15}, domain(), seed=3)
    again = search("mcts", {**MCTS_PLAN, "iterations": 10, "max_moves": 15}, domain(), seed=3)
    assert [(e.kind, e.node.tubes, e.value) for e in first] == [
        (e.kind, e.node.tubes, e.value) for e in again
    ]


def test_mcts_plan_mode_stops_on_an_unsolvable_puzzle() -> None:
    puzzle = domain(UNSOLVABLE)
    algorithm = make_algorithm(
        "mcts",
        {**MCTS_PLAN, "iterations": 10},
        rng=random.Random(0),
        values=puzzle.values(),
        default_value=puzzle.default_value,
        goal=puzzle.is_goal,
    )
    limit = 5_000
    events = list(islice(algorithm.traverse(puzzle.root()), limit))
    count = len(events)
    assert count < limit, "plan mode kept going on an unsolvable puzzle"
    moves = [e for e in events if e.kind is EventKind.MOVE]
    assert not puzzle.is_goal(moves[-1].node)
    assert len(moves) <= 49  # never back to an earlier state: at most every state once
