"""Nature's rolls on a played line: the same seed rolls the same dice for every algorithm.

The dice game (:class:`game_trees.DiceNode`): roll a die, keep it or roll again. Its
outcomes do not depend on the state (a fair die each time), so every game played with the
same seed sees the same faces in the same order, however long it lasts and whatever its
searches drew from the algorithm's own rng in between.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_trees import DiceNode

from searchvid.search import EventKind, make_algorithm
from searchvid.search.algorithms._access import Nature

GAME = DiceNode(0, 3)  # up to four rolls a game


def rolls(name: str, options: dict[str, Any], seed: int, root: Any = GAME) -> list[int]:
    """The faces rolled on the line ``name`` plays from ``root`` with ``seed``."""
    algorithm = make_algorithm(name, options, rng=random.Random(seed))
    return [e.node.face for e in algorithm.traverse(root) if e.kind is EventKind.ROLL]


PLAYERS = [
    ("random-walk", {}),
    ("mcts", {"mode": "plan", "iterations": 30}),
    ("mcts", {"mode": "plan", "iterations": 300, "exploration": 0.5}),
    ("minimax", {}),
    ("minimax", {"samples": 2, "depth": 1}),
]


@pytest.mark.parametrize("seed", range(12))
def test_every_algorithm_rolls_the_same_faces_with_the_same_seed(seed: int) -> None:
    lines = [rolls(name, options, seed) for name, options in PLAYERS]
    longest = max(lines, key=len)
    for line in lines:
        assert line, "every game starts with a roll"
        assert line == longest[: len(line)]  # a shorter game stopped earlier, same dice


def test_the_rolls_follow_the_seed_alone() -> None:
    first = [rolls("random-walk", {}, seed)[0] for seed in range(40)]
    # a fair die over 40 seeds: many faces, not one stream reused for every seed
    assert len(set(first)) == 6
    assert [rolls("random-walk", {}, seed)[0] for seed in range(40)] == first


def test_nature_neither_reads_on_nor_advances_the_algorithms_rng() -> None:
    rng = random.Random(11)
    untouched = random.Random(11)
    nature = Nature(rng)
    faces = [nature.roll(DiceNode(0, 1)).face for _ in range(5)]
    assert rng.random() == untouched.random()
    again = Nature(random.Random(11))
    assert [again.roll(DiceNode(0, 1)).face for _ in range(5)] == faces


def test_each_walk_of_a_random_walk_is_a_game_of_its_own() -> None:
    algorithm = make_algorithm("random-walk", {"restarts": 30}, rng=random.Random(5))
    walks: list[list[int]] = []
    for event in algorithm.traverse(GAME):
        if event.kind in (EventKind.ENTER, EventKind.RESTART) and event.depth == 0:
            walks.append([])
        elif event.kind is EventKind.ROLL:
            walks[-1].append(event.node.face)
    assert len(walks) == 30
    # the first walk rolls what the other algorithms' games roll; the later ones differ
    assert walks[0] == rolls("minimax", {}, 5)[: len(walks[0])]
    assert len({walk[0] for walk in walks}) > 1


class _Thirsty:
    """A chance node whose ``sample_outcome`` draws ``draws`` numbers (state-dependent use)."""

    def __init__(self, draws: int) -> None:
        self.draws = draws

    def sample_outcome(self, rng: random.Random) -> float:
        return sum(rng.random() for _ in range(self.draws))


def test_the_kth_roll_at_a_state_ignores_what_the_rolls_before_it_drew() -> None:
    for seed in range(8):
        one, many = Nature(random.Random(seed)), Nature(random.Random(seed))
        # the first rolls are at different states, which draw 1 and 50 numbers ...
        assert one.roll(_Thirsty(1)) != many.roll(_Thirsty(50))
        # ... yet the second roll at the same state is the same outcome
        assert one.roll(GAME) == many.roll(GAME)
        assert one.roll(_Thirsty(3)) == many.roll(_Thirsty(3))
