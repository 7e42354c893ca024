"""Tic-tac-toe solved by the engine's minimax: values, perfect play, and the 4 x 4 game."""

from __future__ import annotations

import random
import sys
from types import FrameType
from typing import Any

import pytest

from searchvid.domains import make_domain
from searchvid.domains.tictactoe.rules import Board, geometry
from searchvid.search.algorithm import make_algorithm
from searchvid.search.algorithms.minimax import Minimax
from searchvid.search.events import EventKind

G3 = geometry(3, 3)


def minimax(**options: Any) -> Minimax:
    domain = make_domain("tictactoe", {})
    algo = make_algorithm(
        "minimax",
        options,
        rng=random.Random(0),
        values=domain.values(),
        default_value=domain.default_value,
    )
    assert isinstance(algo, Minimax)
    return algo


def test_three_by_three_is_a_draw() -> None:
    assert minimax().solve(Board.start(G3)) == 0.5


def test_solving_without_symmetry_or_table_agrees() -> None:
    plain = Board.start(geometry(3, 3, symmetric=False))
    assert minimax().solve(plain) == 0.5
    assert minimax(transposition=False).solve(plain) == 0.5
    assert minimax(alpha_beta=False).solve(Board.start(G3)) == 0.5


KNOWN = [
    # (position, value for X, what it shows)
    ("XX./OO./...", 1.0, "X to move wins in one"),
    ("XX./OO./X..", 0.0, "O to move wins in one"),
    ("XX./XO./..O", 1.0, "O to move cannot block both of X's threats: a forced loss"),
    ("XO./.../...", 1.0, "O's edge reply next to X's corner lets X fork"),
    (".O./.X./...", 1.0, "O's edge reply to the centre loses as well"),
    ("O../.X./...", 0.5, "O's corner reply to the centre draws"),
    ("X../.O./..X", 0.5, "O must take an edge now, and then holds the draw"),
    ("X../.../...", 0.5, "X's corner opening is a draw"),
    ("X../.../..O", 1.0, "O's far corner reply loses to a fork"),
    ("OX./.X./...", 0.5, "O blocks and draws"),
]


@pytest.mark.parametrize(("text", "value", "why"), KNOWN)
def test_known_positions_have_known_values(text: str, value: float, why: str) -> None:
    assert minimax().solve(Board.parse(text, G3)) == value, why


def test_best_move_takes_the_win_and_blocks() -> None:
    found = minimax().best_child(Board.parse("XX./OO./...", G3))
    assert found is not None
    child, value = found
    assert (child.last, value) == (2, 1.0)
    found = minimax().best_child(Board.parse("X.O/.X./...", G3))
    assert found is not None
    assert found[0].last == 8  # the only move that does not lose


def test_perfect_play_from_the_start_is_a_draw() -> None:
    events = list(minimax().traverse(Board.start(G3)))
    moves = [e for e in events if e.kind is EventKind.MOVE]
    assert [e.depth for e in moves] == list(range(10))
    assert moves[-1].node.is_terminal()
    assert moves[-1].node.reward() == 0.5
    assert all(e.value == 0.5 for e in moves)


def engine_never_loses(engine_player: int) -> tuple[int, int]:
    """Walk every reply of the opponent; the engine picks its own moves. (games, wins)"""
    engine = minimax()
    chosen: dict[tuple[int, int], Board] = {}
    games = wins = 0
    stack = [Board.start(G3)]
    while stack:
        node = stack.pop()
        if node.is_terminal():
            games += 1
            engine_reward = node.reward() if engine_player == 0 else 1.0 - node.reward()
            assert engine_reward >= 0.5, f"the engine lost: {node.text()}"
            wins += engine_reward == 1.0
        elif node.to_move == engine_player:
            if (node.x, node.o) not in chosen:
                found = engine.best_child(node)
                assert found is not None
                chosen[node.x, node.o] = found[0]
            stack.append(chosen[node.x, node.o])
        else:
            stack.extend(node.children())
    return games, wins


def test_minimax_never_loses_as_x_to_any_opponent() -> None:
    games, wins = engine_never_loses(0)
    assert games > 50
    assert wins > 0


def test_minimax_never_loses_as_o_to_any_opponent() -> None:
    games, wins = engine_never_loses(1)
    assert games > 50
    assert wins > 0


def frame_depth() -> int:
    depth = 0
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def test_four_by_four_four_in_a_row_is_a_draw_on_the_explicit_stack() -> None:
    domain = make_domain("tictactoe", {"size": 4, "k": 4})
    algo = make_algorithm(
        "minimax", {}, rng=random.Random(0), values=domain.values(), default_value="outcome"
    )
    assert isinstance(algo, Minimax)
    limit = sys.getrecursionlimit()
    # a search recursing once per move (16 plies) could not run within 16 extra frames
    sys.setrecursionlimit(frame_depth() + 16)
    try:
        value = algo.solve(domain.root())
    finally:
        sys.setrecursionlimit(limit)
    assert value == 0.5
    assert algo.nodes > 1000


@pytest.mark.parametrize(("size", "k", "centre"), [(3, 3, 4), (4, 4, 5), (5, 4, 12)])
def test_depth_limited_search_with_the_lines_value_opens_in_the_centre(
    size: int, k: int, centre: int
) -> None:
    domain = make_domain("tictactoe", {"size": size, "k": k})
    algo = make_algorithm(
        "minimax",
        {"depth": 2, "value": "lines"},
        rng=random.Random(0),
        values=domain.values(),
        default_value=domain.default_value,
    )
    assert isinstance(algo, Minimax)
    found = algo.best_child(domain.root())
    assert found is not None
    child, value = found
    assert child.last == centre
    assert 0.1 < value < 0.9
