"""Railroad Ink (issue 3): children per second, MCTS memory, and joining all twelve exits;
the dice game (issue 14): final scores of random play, MCTS and expectimax.

Targets (DESIGN.md): MCTS with 10,000 iterations on the empty board (seed 001's partial
reward) stays <= 250 MB peak RSS, measured in a fresh interpreter (the seed ran out of 4 GB
after about 500 steps); a search finds a network joining all twelve exits (the seed's best
joined 10) and the row prints how long it took. Children per second, playouts per second and
value evaluations per second are informational.

The dice game (``rules = "game"``): each shipped ``railroad-game-*`` scene is played to the
end with seeds 0 to 49 (``Scene.run``: the scene's own search, no drawing), and the final
scores' mean and standard deviation are printed with the seconds per game. Target (issue
14): MCTS reaches a mean of at least 40 points at no more than 2 s of search per round.
These rows take about 20 minutes, MCTS most of it: run them alone with
``python benchmarks/run.py railroad``.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from common import Row, run_isolated, timed

from searchvid import load_scene
from searchvid.domains import make_domain
from searchvid.domains.railroad import RailroadDomain
from searchvid.domains.railroad.game import ROUNDS
from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.search.algorithm import make_algorithm
from searchvid.search.values import ValueFunction

TOPIC = "railroad"
MID_GAME = 20  # tiles placed in a "mid-game" state
STATES = 200
MCTS_ITERATIONS = 10_000
MCTS_LIMIT_MB = 250.0
BEAM = {"width": 6, "value": "network"}  # the railroad-beam scene's search
BEAM_SEED = 1
GAMES = 50  # seeds 0 .. 49 of each dice-game scene
GAME_SCENES = ("railroad-game-random", "railroad-game-mcts", "railroad-game-expectimax")
GAME_TARGET = 40.0  # MCTS's mean final score, points ...
ROUND_SECONDS = 2.0  # ... at no more than this much search per round
SCENES = Path(__file__).resolve().parent.parent / "scenes"

_MCTS_CODE = """
import json, random, time
from searchvid import load_scene
from searchvid.domains import make_domain
from searchvid.domains.railroad.game import ROUNDS
from searchvid.memory import peak_rss_mb
from searchvid.search.algorithm import make_algorithm
from searchvid.search.values import ValueFunction
domain = make_domain("railroad", {{"tiles": "{tiles}"}})
algo = make_algorithm(
    "mcts", {{"iterations": {iterations}, "reward": "partial"}}, rng=random.Random(1),
    values=domain.values(), default_value=domain.default_value, goal=domain.is_goal,
)
start = time.perf_counter()
best = 0.0
for event in algo.traverse(domain.root()):
    if event.kind.value == "improve" and event.value is not None:
        best = max(best, event.value)
seconds = time.perf_counter() - start
peak = peak_rss_mb()
print(json.dumps({{"seconds": seconds, "peak_mb": peak, "best": best}}))
"""


def mid_game_states(tiles: TileSetName, count: int = STATES, seed: int = 0) -> list[Board]:
    """Boards after ``MID_GAME`` random placements (or fewer when a walk ends sooner)."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        board = Board.start(tiles)
        for _ in range(MID_GAME):
            child = board.random_child(rng)
            if child is None:
                break
            board = child
        states.append(board)
    return states


def _children_rate(tiles: TileSetName) -> Iterator[Row]:
    states = mid_game_states(tiles)

    def run() -> int:
        return sum(sum(1 for _ in s.children()) for s in states)

    seconds, count = timed(run, repeat=3)
    yield Row(
        TOPIC,
        f"children/s from mid-game states ({tiles} tiles)",
        f"{count / seconds / 1000:.0f} k/s ({count // len(states)}/state)",
    )


def _playouts() -> Iterator[Row]:
    rng = random.Random(2)
    root = Board.start("basic")

    def run() -> int:
        moves = 0
        for _ in range(200):
            board: Board | None = root
            while board is not None:
                board = board.random_child(rng)
                moves += 1
        return moves

    seconds, moves = timed(run)
    yield Row(
        TOPIC,
        "random playouts from the empty board (basic)",
        f"{200 / seconds:.0f}/s ({moves / seconds / 1000:.0f} k moves/s)",
    )
    domain = make_domain("railroad", {})
    states = mid_game_states("basic")
    for name, value in domain.values().items():
        seconds = _per_state(value, states)
        yield Row(
            TOPIC,
            f"value '{name}' on mid-game states",
            f"{seconds * 1e6:.0f} us each",
        )


def _per_state(value: ValueFunction, states: list[Board]) -> float:
    """Best mean seconds per call of ``value`` over ``states``."""

    def run() -> None:
        for state in states:
            value(state)

    seconds, _ = timed(run, repeat=3)
    return seconds / len(states)


def _mcts_memory(tiles: TileSetName) -> Iterator[Row]:
    out = run_isolated(_MCTS_CODE.format(tiles=tiles, iterations=MCTS_ITERATIONS))
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    peak = float(result["peak_mb"])
    yield Row(
        TOPIC,
        f"MCTS {MCTS_ITERATIONS:,} iterations ({tiles}, partial): peak RSS",
        f"{peak:.0f} MB ({result['seconds']:.0f} s, best {result['best'] * 12:.0f}/12)",
        f"<= {MCTS_LIMIT_MB:.0f} MB",
        peak <= MCTS_LIMIT_MB,
    )


def beam_search(tiles: TileSetName) -> tuple[bool, float, int, str]:
    """Run the railroad-beam search; returns (goal found, seconds, events, final label)."""
    domain = make_domain("railroad", {"tiles": tiles})
    assert isinstance(domain, RailroadDomain)
    algo = make_algorithm(
        "beam",
        BEAM,
        rng=random.Random(BEAM_SEED),
        values=domain.values(),
        default_value=domain.default_value,
        goal=domain.is_goal,
    )
    start = time.perf_counter()
    events = 0
    found = None
    for event in algo.traverse(domain.root()):
        events += 1
        if domain.is_goal(event.node):
            found = event.node
    seconds = time.perf_counter() - start
    label = domain.label(found) if found is not None else "-"
    return found is not None, seconds, events, label


def _beam(tiles: TileSetName) -> Iterator[Row]:
    found, seconds, _, label = beam_search(tiles)
    yield Row(
        TOPIC,
        f"beam width {BEAM['width']} ({tiles}, {BEAM['value']}) joins 12 exits",
        f"{'found' if found else 'NOT found'} in {seconds:.1f} s, {label.split(',')[0]}",
        "found",
        found,
    )


def play_games(scene_name: str, games: int = GAMES) -> tuple[list[int], list[float]]:
    """The final score and search seconds of the scene's game for seeds 0 .. games - 1."""
    scene = load_scene(SCENES / f"{scene_name}.toml")
    scores: list[int] = []
    seconds: list[float] = []
    for seed in range(games):
        result = scene.with_overrides(seed=seed).run()
        if result["rounds"] != ROUNDS:
            raise RuntimeError(f"{scene_name} seed {seed}: the game stopped early")
        scores.append(int(result["score"]["total"]))
        seconds.append(float(result["seconds"]))
    return scores, seconds


def _game(scene_name: str) -> Iterator[Row]:
    scores, seconds = play_games(scene_name)
    mean, spread = statistics.mean(scores), statistics.pstdev(scores)
    per_game = statistics.mean(seconds)
    figure = f"{mean:.1f} +- {spread:.1f} pts, {per_game:.1f} s/game"
    name = f"{scene_name}: final score, {GAMES} seeds"
    if scene_name != "railroad-game-mcts":
        yield Row(TOPIC, name, figure)
        return
    per_round = per_game / ROUNDS
    yield Row(
        TOPIC,
        name,
        f"{figure} ({per_round:.2f} s/round)",
        f">= {GAME_TARGET:.0f} pts, <= {ROUND_SECONDS:.0f} s/round",
        mean >= GAME_TARGET and per_round <= ROUND_SECONDS,
    )


def benchmarks() -> Iterator[Row]:
    """All Railroad Ink rows."""
    yield from _children_rate("basic")
    yield from _children_rate("all")
    yield from _playouts()
    yield from _beam("basic")
    yield from _beam("all")
    yield from _mcts_memory("basic")
    for scene_name in GAME_SCENES:
        yield from _game(scene_name)
