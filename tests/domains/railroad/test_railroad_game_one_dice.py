"""The dice game played by different algorithms with the same seed rolls the same dice.

Nature's rolls on the played line come from their own stream, derived from the seed alone
(:class:`searchvid.search.algorithms._access.Nature`), so the three shipped game videos
(random play, MCTS, expectimax) play the same seven rolls and a post can compare what each
made of them. Railroad Ink's faces do not depend on the board, so the rolls agree whatever
each algorithm placed between them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from searchvid import load_scene
from searchvid.domains import make_domain
from searchvid.domains.railroad.game import FACE_NAMES, ROUNDS
from searchvid.search import EventKind, make_algorithm

GAME_SCENES = ("railroad-game-random", "railroad-game-mcts", "railroad-game-expectimax")


def _named(roll: tuple[int, ...]) -> str:
    return " ".join(FACE_NAMES[face] for face in roll)


def _rolls(events: Any) -> list[str]:
    return [_named(e.node.roll) for e in events if e.kind is EventKind.ROLL]


@pytest.mark.slow
def test_the_three_shipped_game_videos_roll_the_same_dice() -> None:
    scenes = [load_scene(name) for name in GAME_SCENES]
    assert {scene.seed for scene in scenes} == {5}
    played = [_rolls(scene.events()) for scene in scenes]
    assert played[0] == [
        "rail-curve rail-curve rail-curve overpass",
        "road-t rail-curve rail-t station-straight",
        "road-curve rail-t rail-t station-curve",
        "road-straight road-straight road-curve station-straight",
        "road-t rail-t rail-t station-curve",
        "road-t rail-straight rail-t station-straight",
        "road-curve road-curve rail-straight station-straight",
    ]
    assert played[1] == played[0]
    assert played[2] == played[0]


PLAYERS = [
    ("random-walk", {}),
    ("mcts", {"mode": "plan", "iterations": 8, "reward": "score"}),
    ("minimax", {"depth": 1, "samples": 1, "value": "score"}),
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_any_search_of_the_game_rolls_the_seeds_dice(seed: int) -> None:
    domain = make_domain("railroad", {"rules": "game"})
    played = []
    for name, options in PLAYERS:
        search = make_algorithm(
            name,
            options,
            rng=random.Random(seed),
            values=domain.values(),
            default_value=domain.default_value,
        )
        played.append(_rolls(search.traverse(domain.root())))
    assert len(played[0]) == ROUNDS
    assert played[1] == played[0]
    assert played[2] == played[0]
    # and another seed rolls other dice
    if seed:
        assert played[0] != _random_game_rolls(seed - 1)


def _random_game_rolls(seed: int) -> list[str]:
    """The rolls of a random game with ``seed``."""
    domain = make_domain("railroad", {"rules": "game"})
    walk = make_algorithm("random-walk", {}, rng=random.Random(seed))
    return _rolls(walk.traverse(domain.root()))
