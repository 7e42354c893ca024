"""Connectivity and the game's score: seed 001's tests and more."""

from __future__ import annotations

from conftest import BoardMaker

from searchvid.domains.railroad.network import (
    EXIT_POINTS,
    Score,
    cluster_sizes,
    exit_roots,
    game_score,
    largest_network,
    longest_route,
    networks,
)
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.tiles import Transport

RAIL_ROW_2 = {(2, c): "rail-straight-r90" for c in range(1, 8)}
ROAD_COL_2 = {(r, 2): "road-straight-r0" for r in range(1, 8)}


def test_empty_board_has_no_clusters() -> None:
    assert cluster_sizes(Board.start().cells) == []


def test_straight_rail_across_row_2_joins_two_exits(make_board: BoardMaker) -> None:
    board = make_board(RAIL_ROW_2)
    assert cluster_sizes(board.cells) == [2]
    roots = exit_roots(board.cells)
    assert roots[3] == roots[4]  # the exits at (2, 0) and (2, 8)
    assert len(set(roots)) == 11


def test_overpass_keeps_road_and_rail_apart(make_board: BoardMaker) -> None:
    board = make_board({**RAIL_ROW_2, **ROAD_COL_2, (2, 2): "overpass-r0"})
    assert cluster_sizes(board.cells) == [2, 2]


def test_station_joins_road_and_rail(make_board: BoardMaker) -> None:
    crossing = make_board({**RAIL_ROW_2, **ROAD_COL_2, (2, 2): "station-cross-straight-r0"})
    assert cluster_sizes(crossing.cells) == [4]
    # A basic T station where the rail row meets a road coming down from (0, 2).
    t_station = make_board(
        {**RAIL_ROW_2, (1, 2): "road-straight-r0", (2, 2): "station-t-rail-r180"}
    )
    assert cluster_sizes(t_station.cells) == [3]


def test_an_unfinished_route_joins_nothing(make_board: BoardMaker) -> None:
    board = make_board({(2, c): "rail-straight-r90" for c in range(1, 7)})
    assert cluster_sizes(board.cells) == []
    assert largest_network(board.cells) == 0


def test_routes_only_join_the_same_transport(make_board: BoardMaker) -> None:
    # A road tile next to the rail exit at (2, 0) does not join it.
    board = make_board({(2, c): "road-straight-r90" for c in range(1, 8)})
    assert cluster_sizes(board.cells) == []


def test_networks_report_exits_open_cells_and_dead_ends(make_board: BoardMaker) -> None:
    board = make_board({(1, 2): "road-curve-r270"}, tiles="basic")  # road from N turns west
    nets = networks(board.cells, board.rules.choices)
    assert len(nets) == 12
    first = nets[0]
    assert first.exits == (0,)
    assert first.open_cells == (10,)  # (1, 1)
    assert first.dead_ends == 0
    assert all(net.alive for net in nets)


def test_a_network_whose_ends_no_tile_fits_is_dead(make_board: BoardMaker) -> None:
    # The road from (0, 2) leads into (2, 2), whose other three neighbours show blank sides:
    # only a dead-end road would fit there, and there is none.
    board = make_board(
        {
            (1, 2): "road-straight-r0",
            (2, 1): "rail-curve-r270",
            (2, 3): "road-straight-r0",
            (3, 2): "road-straight-r90",
        }
    )
    first = networks(board.cells, board.rules.choices)[0]
    assert first.exits == (0,)
    assert first.open_cells == ()
    assert first.dead_ends == 1
    assert not first.alive


def test_a_cell_only_a_special_route_fits_is_dead_with_basic_tiles(
    make_board: BoardMaker,
) -> None:
    # (2, 2) gets road from N and E and rail from S and W: a special station only.
    placed = {
        (1, 2): "road-straight-r0",
        (2, 3): "road-straight-r90",
        (3, 2): "rail-straight-r0",
        (2, 1): "rail-straight-r90",
    }
    for tiles, alive in (("all", True), ("basic", False)):
        board = make_board(placed, tiles=tiles)
        first = networks(board.cells, board.rules.choices)[0]
        assert first.alive is alive
        assert first.open_cells == ((20,) if alive else ())


def test_exit_points_follow_the_game_table() -> None:
    assert EXIT_POINTS[2:] == (4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45)


def test_game_score_of_one_rail_row(make_board: BoardMaker) -> None:
    board = make_board(RAIL_ROW_2)
    assert game_score(board.cells) == Score(
        exits=4, longest_road=0, longest_rail=7, centre=0, errors=0
    )
    assert game_score(board.cells).total == 11


def test_game_score_counts_centre_and_errors(make_board: BoardMaker) -> None:
    # A road from (0, 2) down to (4, 2) then east into the centre, ending at (4, 4).
    board = make_board(
        {
            (1, 2): "road-straight-r0",
            (2, 2): "road-straight-r0",
            (3, 2): "road-straight-r0",
            (4, 2): "road-cross-r0",
            (4, 1): "road-straight-r90",
            (4, 3): "road-straight-r90",
        }
    )
    score = game_score(board.cells)
    # Open ends: (4, 2) south into (5, 2), (4, 3) east into (4, 4).
    assert score.errors == 2
    assert score.centre == 1  # (4, 3)
    assert score.exits == 4
    assert score.longest_road == 5  # (1, 2) down to (4, 2), then (4, 1) or (4, 3)
    assert score.total == 4 + 5 + 1 - 2


def test_route_ends_at_the_border_are_not_errors(make_board: BoardMaker) -> None:
    # A road curve in the corner pointing off the board on two sides.
    board = make_board({(1, 1): "road-curve-r270"})  # N and W: both lead off the board
    assert game_score(board.cells).errors == 0


def test_longest_route_takes_the_longest_branch_without_revisiting(
    make_board: BoardMaker,
) -> None:
    # A rail ring of 8 cells around (2, 2)..(4, 4) plus a tail: the ring is walked once.
    ring = {
        (2, 2): "rail-curve-r90",
        (2, 3): "rail-straight-r90",
        (2, 4): "rail-curve-r180",
        (3, 4): "rail-straight-r0",
        (4, 4): "rail-curve-r270",
        (4, 3): "rail-straight-r90",
        (4, 2): "rail-curve-r0",
        (3, 2): "rail-straight-r0",
    }
    board = make_board(ring)
    assert longest_route(board.cells, Transport.RAIL) == 8
    assert longest_route(board.cells, Transport.ROAD) == 0
    tail = make_board({**ring, (3, 2): "rail-t-r90", (3, 1): "rail-straight-r90"})
    assert longest_route(tail.cells, Transport.RAIL) == 9  # the tail, then once round
