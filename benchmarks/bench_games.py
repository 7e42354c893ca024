"""Two-player games: tic-tac-toe solved by minimax, Quarto played by MCTS (seeds 002, 003).

Targets (DESIGN.md, issue 6): the 4 x 4 four-in-a-row game solved (a draw) by alpha-beta
with a transposition table on the explicit stack in <= 1.5 s (a recursive bound-flag
reference: ~0.7 s); 3,000 Quarto playouts for the first move in <= 1 s (the seed's Rust debug
build: 2-3 s); MCTS with 1,000 playouts per move wins >= 90 % of 50 games against a random
player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from typing import Any

from common import Row

from searchvid.domains import Domain, make_domain
from searchvid.search.algorithm import Algorithm, make_algorithm
from searchvid.search.algorithms.minimax import Minimax
from searchvid.search.events import EventKind

TOPIC = "games"
GAMES = 50
PLAYOUTS_PER_MOVE = 1000
FIRST_MOVE_PLAYOUTS = 3000


def _algorithm(
    domain_table: Mapping[str, Any], name: str, table: Mapping[str, Any], seed: int
) -> tuple[Domain, Algorithm[Any]]:
    domain = make_domain(
        domain_table["name"], {k: v for k, v in domain_table.items() if k != "name"}
    )
    algo = make_algorithm(
        name,
        table,
        rng=random.Random(seed),
        values=domain.values(),
        default_value=domain.default_value,
    )
    return domain, algo


def _solve(size: int, k: int, symmetric: bool) -> tuple[float, float, float, int]:
    """Best wall and CPU seconds of three full solves, the value, and the nodes searched.

    The CPU time shows the cost of the search alone when other processes share the machine.
    """
    domain, algo = _algorithm(
        {"name": "tictactoe", "size": size, "k": k, "symmetric": symmetric}, "minimax", {}, 0
    )
    assert isinstance(algo, Minimax)
    wall = cpu = float("inf")
    value = -1.0
    for _ in range(3):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        value = algo.solve(domain.root())
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return wall, cpu, value, algo.nodes


def _tictactoe() -> Iterator[Row]:
    wall, cpu, value, nodes = _solve(3, 3, True)
    yield Row(
        TOPIC,
        "tic-tac-toe 3x3 solved (value 0.5 = draw)",
        f"{value:g} in {wall * 1000:.1f} ms",
        "0.5",
        value == 0.5,
    )
    yield Row(TOPIC, "  nodes searched", f"{nodes:,}")
    wall, cpu, value, nodes = _solve(4, 4, True)
    ok = value == 0.5 and wall <= 1.5
    figure = f"{wall:.3f} s (CPU {cpu:.3f} s)"
    yield Row(TOPIC, "tic-tac-toe 4x4, 4 in a row, full solve", figure, "<= 1.5 s", ok)
    yield Row(TOPIC, "  value (0.5 = draw)", f"{value:g}", "0.5", value == 0.5)
    yield Row(TOPIC, "  nodes searched (symmetric keys)", f"{nodes:,}")
    wall, cpu, value, nodes = _solve(4, 4, False)
    yield Row(TOPIC, "  without symmetric keys", f"{wall:.3f} s, {nodes:,} nodes")


def _first_move(filter_moves: bool) -> tuple[float, float]:
    """Best wall and CPU seconds of three first-move searches (player 0 holds piece 0)."""
    domain, algo = _algorithm(
        {"name": "quarto", "first_piece": 0},
        "mcts",
        {
            "iterations": FIRST_MOVE_PLAYOUTS,
            "mode": "plan",
            "max_moves": 1,
            "filter_moves": filter_moves,
        },
        1,
    )
    wall = cpu = float("inf")
    for _ in range(3):
        algo.rng.seed(1)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        for _event in algo.traverse(domain.root()):
            pass
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return wall, cpu


def _versus_random(games: int, playouts: int) -> tuple[int, int, float]:
    wins = draws = 0
    start = time.perf_counter()
    for seed in range(games):
        # odd seeds: MCTS (player 0) places first; even seeds: it opens by choosing a piece
        table: dict[str, Any] = {"name": "quarto"}
        if seed % 2:
            table["first_piece"] = seed % 16
        domain, algo = _algorithm(
            table,
            "mcts",
            {"iterations": playouts, "mode": "plan", "opponent": "random", "filter_moves": True},
            seed,
        )
        last = None
        for event in algo.traverse(domain.root()):
            if event.kind is EventKind.MOVE:
                last = event.node
        assert last is not None
        assert last.is_terminal()
        wins += last.reward() == 1.0
        draws += last.reward() == 0.5
    return wins, draws, time.perf_counter() - start


def _quarto() -> Iterator[Row]:
    for filtered in (False, True):
        wall, cpu = _first_move(filtered)
        name = f"Quarto: {FIRST_MOVE_PLAYOUTS:,} playouts, first move"
        name += " (shortcuts)" if filtered else ""
        yield Row(TOPIC, name, f"{wall:.3f} s (CPU {cpu:.3f} s)", "<= 1 s", wall <= 1.0)
    wins, draws, seconds = _versus_random(GAMES, PLAYOUTS_PER_MOVE)
    rate = wins / GAMES
    yield Row(
        TOPIC,
        f"Quarto: MCTS ({PLAYOUTS_PER_MOVE:,}/move) vs random, {GAMES} games",
        f"{rate:.0%} won ({draws} drawn)",
        ">= 90 %",
        rate >= 0.9,
    )
    yield Row(TOPIC, "  time for those games", f"{seconds:.1f} s")


def benchmarks() -> Iterator[Row]:
    """Tic-tac-toe solves and Quarto MCTS figures."""
    yield from _tictactoe()
    yield from _quarto()
