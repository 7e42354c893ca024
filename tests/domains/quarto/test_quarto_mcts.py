"""Quarto played by the engine's MCTS: immediate wins, and games against a random player.

The full figure (1,000 playouts per move, 50 games) is measured by
``benchmarks/bench_games.py``; here a few fast games check the same behaviour.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from searchvid.domains import make_domain
from searchvid.domains.quarto.rules import P0_WON, P1_WON, QuartoState, shortcuts
from searchvid.search.algorithm import Algorithm, make_algorithm
from searchvid.search.events import EventKind


def mcts(seed: int = 0, **options: Any) -> Algorithm[Any]:
    domain = make_domain("quarto", {})
    return make_algorithm(
        "mcts",
        {"mode": "plan", **options},
        rng=random.Random(seed),
        values=domain.values(),
        default_value=domain.default_value,
    )


def moves(algo: Algorithm[Any], root: QuartoState) -> list[QuartoState]:
    return [e.node for e in algo.traverse(root) if e.kind is EventKind.MOVE]


def positions_with_a_win(count: int) -> list[QuartoState]:
    """Positions from seeded random games where the piece in hand wins somewhere."""
    rng = random.Random(11)
    found: list[QuartoState] = []
    while len(found) < count:
        node = QuartoState.start()
        while not node.is_terminal():
            if any(c.status in (P0_WON, P1_WON) for c in node.children()):
                found.append(node)
                break
            child = node.random_child(rng)
            assert child is not None
            node = child
    return found


@pytest.mark.parametrize("position", range(8))
def test_mcts_with_the_shortcuts_takes_an_immediate_win(position: int) -> None:
    state = positions_with_a_win(8)[position]
    played = moves(mcts(position, iterations=10, filter_moves=True, max_moves=1), state)
    assert len(played) == 2
    winner = P0_WON if state.to_move == 0 else P1_WON
    assert played[1].status == winner


@pytest.mark.parametrize("position", range(4))
def test_mcts_without_shortcuts_still_finds_the_win(position: int) -> None:
    state = positions_with_a_win(4)[position]
    plain = state._replace(shortcuts=shortcuts(False, False))
    played = moves(mcts(position, iterations=600, max_moves=1), plain)
    winner = P0_WON if state.to_move == 0 else P1_WON
    assert played[1].status == winner


def test_mcts_beats_a_random_player() -> None:
    wins = 0
    games = 10
    for seed in range(games):
        # odd seeds: player 0 (MCTS) places first; even seeds: it opens by choosing
        table = {"first_piece": seed} if seed % 2 else {}
        root = make_domain("quarto", table).root()
        played = moves(mcts(seed, iterations=100, filter_moves=True, opponent="random"), root)
        assert played[-1].is_terminal()
        wins += played[-1].reward() == 1.0
    assert wins >= 9


def test_self_play_is_deterministic() -> None:
    root = make_domain("quarto", {}).root()
    first = moves(mcts(4, iterations=40, filter_moves=True), root)
    second = moves(mcts(4, iterations=40, filter_moves=True), root)
    assert first == second
    assert first[-1].is_terminal()
    assert [m.to_move for m in first[1:]] == [1 - m.to_move for m in first[:-1]]
