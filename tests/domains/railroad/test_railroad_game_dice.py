"""Railroad Ink game rules: the dice, their faces, and the chance nodes that roll them."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations_with_replacement

from searchvid.domains.railroad.game import (
    FACE_NAMES,
    ROLL_WAYS,
    ROLLS,
    ROUTE_DIE,
    STATION_DIE,
    GameState,
)
from searchvid.domains.railroad.grid import INTERIOR
from searchvid.domains.railroad.tiles import BASE_TILES
from searchvid.search.node import Capability, capabilities_of, is_chance, outcomes


def test_the_route_dice_show_each_road_and_rail_route_once() -> None:
    faces = [FACE_NAMES[f] for f in ROUTE_DIE]
    assert faces == [
        "road-straight",
        "road-curve",
        "road-t",
        "rail-straight",
        "rail-curve",
        "rail-t",
    ]


def test_the_station_die_shows_each_station_face_twice() -> None:
    assert len(STATION_DIE) == 6
    assert Counter(FACE_NAMES[f] for f in STATION_DIE) == {
        "overpass": 2,
        "station-straight": 2,
        "station-curve": 2,
    }


def test_every_face_is_a_basic_tile_and_the_station_t_junctions_are_on_no_die() -> None:
    basic = {b.name for b in BASE_TILES if not b.special}
    assert set(FACE_NAMES) <= basic
    assert basic - set(FACE_NAMES) == {"station-t-rail", "station-t-road"}


def test_rolls_are_the_56_route_multisets_times_3_station_faces() -> None:
    assert len(ROLLS) == 56 * 3 == 168
    assert ROLL_WAYS == 6**4
    assert sum(ways for _, ways in ROLLS) == ROLL_WAYS
    expected = {}
    for route in combinations_with_replacement(ROUTE_DIE, 3):
        perms = math.factorial(3)
        for count in Counter(route).values():
            perms //= math.factorial(count)
        for station in (6, 7, 8):
            expected[(*route, station)] = perms * 2  # each station face is printed twice
    assert dict(ROLLS) == expected
    assert [roll for roll, _ in ROLLS] == sorted(expected)
    assert dict(ROLLS)[(0, 0, 0, 6)] == 2  # three straight roads and an overpass: 1/648
    assert dict(ROLLS)[(0, 1, 2, 8)] == 12  # three different roads and a curved station


def test_the_root_is_a_chance_node_whose_outcomes_are_the_rolls() -> None:
    root = GameState.start()
    assert Capability.CHANCE in capabilities_of(root)
    assert is_chance(root)
    assert root.is_chance()
    assert not root.is_terminal()
    pairs = outcomes(root)
    # On the empty board every die fits at an exit: no roll merges with another.
    assert len(pairs) == 168
    assert math.isclose(math.fsum(p for p, _ in pairs), 1.0, abs_tol=1e-12)
    for (p, node), (roll, ways) in zip(pairs, ROLLS, strict=True):
        assert p == ways / ROLL_WAYS
        assert node.dice == roll
        assert node.round == 1
        assert not node.is_chance()
    assert list(root.children()) == [node for _, node in pairs]


def test_sample_outcome_throws_four_dice_with_the_rng() -> None:
    root = GameState.start()
    assert root.sample_outcome(random.Random(7)) == root.sample_outcome(random.Random(7))
    rng = random.Random(3)
    faces = Counter[int]()
    rolls = Counter[tuple[int, ...]]()
    draws = 20_000
    for _ in range(draws):
        node = root.sample_outcome(rng)
        assert node.dice is not None
        rolls[node.dice] += 1
        faces.update(node.dice)
    # Each route face: 3 dice x 1/6; each station face: 1/3.
    for face in ROUTE_DIE:
        assert abs(faces[face] / draws - 0.5) < 0.03, FACE_NAMES[face]
    for face in (6, 7, 8):
        assert abs(faces[face] / draws - 1 / 3) < 0.02, FACE_NAMES[face]
    # Chi-square over the 168 rolls: 167 degrees of freedom, far below the 0.1% tail (~225).
    statistic = sum(
        (rolls[roll] - draws * ways / ROLL_WAYS) ** 2 / (draws * ways / ROLL_WAYS)
        for roll, ways in ROLLS
    )
    assert statistic < 225


def test_random_child_of_a_chance_node_is_sample_outcome() -> None:
    root = GameState.start()
    one, other = random.Random(4), random.Random(4)
    assert [root.random_child(one) for _ in range(10)] == [
        root.sample_outcome(other) for _ in range(10)
    ]


def test_rolls_after_which_nothing_fits_merge_into_the_next_round() -> None:
    # A full board takes no die and no special route: every roll of round 3 leads on to the
    # chance node of round 4 (one outcome, probability 1), and after round 7 to the end.
    full = bytearray(GameState.start().cells)
    for cell in INTERIOR:
        full[cell] = 1  # road-straight-r0
    pairs = GameState(bytes(full), round=3).outcomes()
    assert len(pairs) == 1
    probability, after = pairs[0]
    assert probability == 1.0
    assert after.is_chance()
    assert after.round == 4
    assert GameState(bytes(full), round=3).sample_outcome(random.Random(0)) == after
    last = GameState(bytes(full), round=7)
    assert [(p, n.is_terminal()) for p, n in last.outcomes()] == [(1.0, True)]
