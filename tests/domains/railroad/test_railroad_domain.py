"""The railroad domain: options, labels, values, goal, heuristic and view."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import BoardMaker
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.domains import make_domain
from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.domains.railroad.network import Network, cluster_sizes, networks
from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.domains.railroad.values import SCORE_RANGE, estimated_tiles, network_value
from searchvid.domains.railroad.view import EMPTY_CELL_ID, OPEN_ID, TILE_NAMES
from searchvid.errors import OptionError


def test_registered_with_basic_tiles_by_default() -> None:
    domain = make_domain("railroad", {})
    assert isinstance(domain, RailroadDomain)
    assert domain.options == RailroadOptions(tiles="basic")
    assert domain.root() == Board.start("basic")
    assert make_domain("railroad-ink", {"tiles": "all"}).root() == Board.start("all")
    with pytest.raises(OptionError, match="tiles"):
        make_domain("railroad", {"tiles": "some"})
    with pytest.raises(OptionError, match="size"):
        make_domain("railroad", {"size": 7})
    assert domain.has_goal
    assert domain.default_value == "network"
    assert sorted(domain.values()) == ["network", "partial", "score"]
    assert sorted(domain.heuristics()) == ["tiles"]


def test_labels(make_board: BoardMaker) -> None:
    domain = make_domain("railroad", {})
    assert domain.label(domain.root()) == "0 tiles, no exits joined"
    row = make_board({(2, c): "rail-straight-r90" for c in range(1, 8)})
    assert domain.label(row) == "7 tiles, exits joined 2"
    one = make_board({(1, 2): "road-straight-r0"})
    assert domain.label(one) == "1 tile, no exits joined"


def _greedy(board: Board) -> Board:
    """Follow the best child by the network value until the goal or a dead end."""
    domain = make_domain("railroad", {})
    while not domain.is_goal(board):
        kids = list(board.children())
        if not kids:
            break
        board = max(kids, key=network_value)
    return board


def test_greedy_on_the_network_value_joins_all_twelve_exits() -> None:
    domain = make_domain("railroad", {})
    found = _greedy(domain.root())
    assert domain.is_goal(found)
    assert cluster_sizes(found.cells) == [12]
    assert found.tile_count == 23
    values = domain.values()
    assert values["network"](found) == 1.0
    assert values["partial"](found) == 1.0
    assert domain.heuristics()["tiles"](found) == 0.0
    assert domain.label(found) == "23 tiles, exits joined 12"


def test_values_lie_in_unit_interval_along_random_walks() -> None:
    domain = make_domain("railroad", {"tiles": "all"})
    rng = random.Random(3)
    values = domain.values()
    for _ in range(3):
        board = domain.root()
        while board is not None:
            for value in values.values():
                assert 0.0 <= value(board) <= 1.0
            board = board.random_child(rng)


def test_network_value_ranks_dead_boards_below_live_ones(make_board: BoardMaker) -> None:
    live = make_board({(1, 2): "road-straight-r0"})
    dead = make_board(
        {
            (1, 2): "road-straight-r0",
            (2, 1): "rail-curve-r270",
            (2, 3): "road-straight-r0",
            (3, 2): "road-straight-r90",
        }
    )
    assert network_value(dead) < 0.2 < 0.25 <= network_value(live)
    assert make_domain("railroad", {}).heuristics()["tiles"](dead) == 100.0


def test_estimated_tiles_of_the_empty_board_is_a_ring_of_threes() -> None:
    board = Board.start()
    assert estimated_tiles(networks(board.cells, board.rules.choices)) == 11 * 3


def test_score_value_maps_the_score_range(make_board: BoardMaker) -> None:
    domain = make_domain("railroad", {})
    low, high = SCORE_RANGE
    assert domain.values()["score"](domain.root()) == pytest.approx(-low / (high - low))
    row = make_board({(2, c): "rail-straight-r90" for c in range(1, 8)})  # score 11
    assert domain.values()["score"](row) == pytest.approx((11 - low) / (high - low))


def test_view_grid_shows_tiles_exits_and_open_positions(make_board: BoardMaker) -> None:
    view = make_domain("railroad", {}).view()
    assert view.shape == (9, 9)
    assert view.tileset.folder == "railroad"
    assert view.tileset.names == TILE_NAMES
    grid = view.grid(Board.start())
    assert grid.dtype == np.int16
    assert grid.shape == (9, 9)
    names = [[TILE_NAMES[i] for i in row] for row in grid]
    assert names[0][:5] == ["empty", "empty", "exit-road-down", "empty", "exit-rail-down"]
    assert names[2][0] == "exit-rail-right"
    assert names[1][1] == "empty-cell"
    assert names[1][2] == "open"
    assert int((grid == OPEN_ID).sum()) == 12
    assert int((grid == EMPTY_CELL_ID).sum()) == 49 - 12
    board = make_board({(1, 2): "road-curve-r270"})
    grid = view.grid(board)
    assert TILE_NAMES[grid[1, 2]] == "road-curve-r270"
    assert TILE_NAMES[grid[1, 1]] == "open"  # the curve leads west into (1, 1)
    assert int((grid == OPEN_ID).sum()) == 12


def _kruskal(nets: list[Network]) -> int:
    """Reference: minimum spanning tree over networks by Kruskal on all pairwise weights."""
    alive = [n.open_cells for n in nets if n.open_cells]

    def dist(a: int, b: int) -> int:
        return abs(a // 9 - b // 9) + abs(a % 9 - b % 9)

    edges = sorted(
        (min(dist(a, b) for a in alive[i] for b in alive[j]) + 1, i, j)
        for i in range(len(alive))
        for j in range(i + 1, len(alive))
    )
    parent = list(range(len(alive)))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    total = 0
    for weight, i, j in edges:
        a, b = find(i), find(j)
        if a != b:
            parent[a] = b
            total += weight
    return total


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tiles=st.sampled_from(["basic", "all"]))
def test_estimated_tiles_is_the_minimum_spanning_tree(seed: int, tiles: TileSetName) -> None:
    rng = random.Random(seed)
    board: Board | None = Board.start(tiles)
    while board is not None:
        nets = networks(board.cells, board.rules.choices)
        assert estimated_tiles(nets) == _kruskal(nets)
        board = board.random_child(rng)
