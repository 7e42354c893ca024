"""One conformance test over every registered domain (default options).

A domain that cannot be imported fails here rather than being skipped.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from searchvid.domains import Domain, domain_names, make_domain
from searchvid.search.node import Capability, capabilities_of, is_terminal, random_child

ROOT = Path(__file__).resolve().parents[2]
WALK_SEEDS = (0, 1, 2)
WALK_LENGTH = 12


@pytest.fixture(params=domain_names())
def domain(request: pytest.FixtureRequest) -> Domain:
    return make_domain(request.param, {})


def walk(root: Any, seed: int, length: int = WALK_LENGTH) -> list[Any]:
    """A seeded random walk from ``root``: the nodes visited, root first."""
    rng = random.Random(seed)
    nodes = [root]
    for _ in range(length):
        child = random_child(nodes[-1], rng)
        if child is None:
            break
        nodes.append(child)
    return nodes


def sample(domain: Domain) -> list[Any]:
    """The root and the nodes of a few short random walks."""
    root = domain.root()
    nodes = [root]
    for seed in WALK_SEEDS:
        nodes.extend(walk(root, seed)[1:])
    return nodes


def test_registered_name_matches(domain: Domain) -> None:
    assert domain.name in domain_names()
    assert domain.summary


def test_root_is_hashable_and_equal_to_itself(domain: Domain) -> None:
    root = domain.root()
    assert isinstance(root, Hashable)
    assert root == root
    assert hash(root) == hash(root)
    again = domain.root()
    assert again == root
    assert hash(again) == hash(root)


def test_children_are_deterministic(domain: Domain) -> None:
    for node in sample(domain):
        first, second = list(node.children()), list(node.children())
        assert first == second
        assert [hash(c) for c in first] == [hash(c) for c in second]


def test_root_has_children(domain: Domain) -> None:
    assert list(domain.root().children())


def test_declared_capabilities_are_implemented(domain: Domain) -> None:
    declared = capabilities_of(domain.root())
    for node in sample(domain):
        assert capabilities_of(node) == declared
        kids = list(node.children())
        if Capability.TERMINAL in declared:
            assert isinstance(node.is_terminal(), bool)
        if Capability.TO_MOVE in declared:
            assert node.to_move in (0, 1)
        if Capability.KEY in declared:
            key = node.key()
            assert isinstance(key, Hashable)
            assert key == node.key()
        if Capability.FILTERED_CHILDREN in declared:
            filtered = list(node.filtered_children())
            assert all(child in kids for child in filtered)
            assert bool(filtered) == bool(kids)
        if Capability.RANDOM_CHILD in declared:
            child = node.random_child(random.Random(4))
            assert (child is None) == (not kids)
            if child is not None:
                assert child in kids
    if Capability.TO_MOVE in declared:
        root = domain.root()
        child = next(iter(root.children()))
        assert child.to_move == 1 - root.to_move


def test_reward_at_terminal_nodes(domain: Domain) -> None:
    root = domain.root()
    if Capability.REWARD not in capabilities_of(root):
        return
    assert callable(root.reward)
    # Games end on every walk; puzzles with cycles (Water Sort) may wander instead.
    ends = [walk(root, seed, length=300)[-1] for seed in range(5)]
    if Capability.TO_MOVE in capabilities_of(root):
        assert all(is_terminal(end) for end in ends)
    for end in ends:
        if is_terminal(end):
            reward = end.reward()
            assert isinstance(reward, float)
            assert 0.0 <= reward <= 1.0


def test_random_walk_is_deterministic(domain: Domain) -> None:
    root = domain.root()
    for seed in WALK_SEEDS:
        first, second = walk(root, seed), walk(domain.root(), seed)
        assert first == second
        assert [domain.label(n) for n in first] == [domain.label(n) for n in second]


def test_labels_are_strings(domain: Domain) -> None:
    for node in sample(domain):
        label = domain.label(node)
        assert isinstance(label, str)
        assert label


def test_value_functions_lie_in_unit_interval(domain: Domain) -> None:
    values = domain.values()
    if domain.default_value is not None:
        assert domain.default_value in values
    for name, value in values.items():
        for node in sample(domain):
            result = value(node)
            assert isinstance(result, float), name
            assert 0.0 <= result <= 1.0, name


def test_heuristics_are_non_negative_numbers(domain: Domain) -> None:
    heuristics = domain.heuristics()
    if domain.default_heuristic is not None:
        assert domain.default_heuristic in heuristics
    for name, heuristic in heuristics.items():
        for node in sample(domain):
            result = heuristic(node)
            assert isinstance(result, int | float), name
            assert math.isfinite(result), name
            assert result >= 0, name


def test_goal_test_gives_booleans(domain: Domain) -> None:
    for node in sample(domain):
        assert isinstance(domain.is_goal(node), bool)
    if not domain.has_goal:
        assert not any(domain.is_goal(node) for node in sample(domain))


def test_view_grids_have_the_views_shape_and_tiles(domain: Domain) -> None:
    view = domain.view()
    rows, cols = view.shape
    assert rows > 0
    assert cols > 0
    tiles = len(view.tileset.names)
    previous = None
    for node in sample(domain):
        grid = view.grid(node)
        assert grid.shape == (rows, cols)
        assert grid.dtype == np.int16
        assert grid.min() >= 0
        assert grid.max() < tiles
        if previous is not None:
            assert grid is not previous  # a new array every time
        previous = grid
    first = view.grid(domain.root())
    first[...] = 0
    assert np.array_equal(view.grid(domain.root()), domain.view().grid(domain.root()))


def test_tiles_exist_or_can_be_drawn(domain: Domain) -> None:
    tileset = domain.view().tileset
    if tileset.folder is not None:
        folder = ROOT / "tile_assets" / tileset.folder
        missing = [n for n in tileset.names if not (folder / f"{n}.png").is_file()]
        assert not missing
    else:
        assert tileset.draw is not None
        for name in (tileset.names[0], tileset.names[-1]):
            image = tileset.draw(name, 16)
            assert image.size == (16, 16)
            assert image.mode == "RGB"
