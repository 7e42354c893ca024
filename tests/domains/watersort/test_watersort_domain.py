"""The watersort domain: options and their errors, labels, goal, the view's grids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from searchvid.domains import domain_class, make_domain
from searchvid.domains.watersort import SEED_TUBES, WaterSortDomain, WaterSortOptions
from searchvid.domains.watersort.art import tile_names
from searchvid.errors import OptionError
from searchvid.options import build_options


def test_registered_under_its_name_and_alias() -> None:
    assert domain_class("watersort") is WaterSortDomain
    assert domain_class("water-sort") is WaterSortDomain


def test_defaults_are_the_seed_puzzle() -> None:
    domain = make_domain("watersort", {})
    assert isinstance(domain, WaterSortDomain)
    root = domain.root()
    assert root.as_lists() == [list(t) for t in SEED_TUBES]
    assert root.capacity == 4
    assert domain.has_goal
    assert not domain.is_goal(root)
    assert domain.label(root) == "0 pours, 0/12 tubes sorted"
    assert domain.default_heuristic in domain.heuristics()
    assert domain.default_value in domain.values()


def test_a_puzzle_from_a_scene_table() -> None:
    table = {"name": "water-sort", "tubes": [[1, 2, 1], [2, 1, 2], []], "capacity": 3}
    domain = make_domain("water-sort", table)
    root = domain.root()
    assert root.as_lists() == [[1, 2, 1], [2, 1, 2], []]
    child = next(iter(root.children()))
    assert domain.label(child) == "1 pour, 0/2 tubes sorted"


def test_labels_count_pours_and_sorted_tubes() -> None:
    domain = make_domain("watersort", {"tubes": [[1, 1, 1], [2, 2, 2, 2], [1]]})
    node = domain.root().after((2, 0))
    assert domain.label(node) == "1 pour, 2/2 tubes sorted"
    assert domain.is_goal(node)


@pytest.mark.parametrize(
    ("table", "key", "message"),
    [
        (
            {"tubes": [[1, 1, 1], [2, 2, 2, 2, 1]]},
            "tubes[1]",
            "tube 1 holds 5 cells, more than the capacity 4",
        ),
        (
            {"tubes": [[1, 1, 1], [2, 2, 2, 2], [1, 2]]},
            "tubes",
            "colour 2 appears 5 times; every colour must appear exactly capacity = 4 times",
        ),
        (
            {"tubes": [[1, 1], [2, 2]], "capacity": 3},
            "tubes",
            "colour 1 appears 2 times; every colour must appear exactly capacity = 3 times",
        ),
        ({"tubes": [[17, 17], []], "capacity": 2}, "tubes[0]", "colour 17 in tube 0 is out"),
        ({"tubes": [[0, 0], []], "capacity": 2}, "tubes[0]", "colour 0 in tube 0 is out"),
        ({"tubes": []}, "tubes", "needs at least one tube"),
        ({"tubes": [[1, "a"]]}, "tubes[0][1]", "must be an integer"),
        ({"capacity": 0}, "capacity", "must be from 1 to 16, got 0"),
        ({"colours": 3}, "colours", "unknown key"),
    ],
)
def test_bad_puzzles_name_the_problem(table: dict[str, Any], key: str, message: str) -> None:
    with pytest.raises(OptionError) as caught:
        build_options(WaterSortOptions, table)
    assert caught.value.key == key
    assert message in caught.value.message
    assert "\n" not in str(caught.value)


def tile(name: str) -> int:
    return tile_names().index(name)


def test_view_of_the_root() -> None:
    domain = make_domain("watersort", {})
    view = domain.view()
    assert view.shape == (6, 14)
    assert view.tileset.names == tile_names()
    assert view.tileset.folder == "watersort"
    grid = view.grid(domain.root())
    assert grid.dtype == np.int16
    assert grid.shape == (6, 14)
    assert list(grid[0]) == [tile("rim")] * 14
    assert list(grid[5]) == [tile("base")] * 14
    # tube 2 is [4, 3, 2, 1] bottom up: drawn top down
    assert list(grid[1:5, 2]) == [tile("c01"), tile("c02"), tile("c03"), tile("c04")]
    assert list(grid[1:5, 0]) == [tile("empty")] * 4


def test_view_highlights_the_last_pour_and_marks_sorted_tubes() -> None:
    domain = make_domain("watersort", {"tubes": [[1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 1], [3]]})
    node = domain.root().after((2, 0))
    grid = domain.view().grid(node)
    expected = np.array(
        [
            [tile("rim-target"), tile("rim"), tile("rim-source"), tile("rim")],
            [tile("c01-lit"), tile("c02"), tile("empty-lit"), tile("empty")],
            [tile("c01-lit"), tile("c02"), tile("c03-lit"), tile("empty")],
            [tile("c01-lit"), tile("c02"), tile("c03-lit"), tile("empty")],
            [tile("c01-lit"), tile("c02"), tile("c03-lit"), tile("c03")],
            [tile("base-done-lit"), tile("base-done"), tile("base-lit"), tile("base")],
        ],
        dtype=np.int16,
    )
    np.testing.assert_array_equal(grid, expected)
