"""A reader's count of joined exits, checked against the rules (issue 20, item 6).

The last frame of ``scenes/railroad-game-expectimax.toml`` said "exits joined 5/12, exit
points 24" (before nature's rolls came from a stream of their own, which changed its game).
A reader counted six exits on one network (top B, top D, left 4, left 2, right 4, bottom B).
The sixth, top D, reaches the big network only through the road T at D5, whose
south end meets the *blank* north side of the station at D4 (road west, rail east): under
the published game's rules a route end may face a blank side, and then nothing is joined and
the end is an error. These tests pin that reading on that final board.
"""

from __future__ import annotations

from conftest import BoardMaker

from searchvid.domains.railroad.game import game_rules
from searchvid.domains.railroad.grid import EXIT_CELLS, SIZE
from searchvid.domains.railroad.network import EXIT_POINTS, Score, game_score, networks

# The expectimax scene's final board then (seed 5), rows 1-7 = the board's rows 7-1.
FINAL_BOARD = {
    (1, 1): "road-cross-r0",
    (1, 2): "road-curve-r270",
    (1, 4): "station-straight-r180",
    (1, 6): "road-curve-r0",
    (1, 7): "station-curve-mirror-r270",
    (2, 1): "road-straight-r0",
    (2, 2): "road-t-r0",
    (2, 4): "road-straight-r0",
    (2, 7): "rail-curve-r0",
    (3, 1): "road-straight-r0",
    (3, 2): "road-curve-r0",
    (3, 3): "road-t-r0",
    (3, 4): "road-t-r90",
    (4, 1): "station-cross-road-r0",
    (4, 2): "road-straight-r90",
    (4, 3): "road-straight-r90",
    (4, 4): "station-straight-r270",
    (4, 5): "rail-straight-r90",
    (4, 6): "rail-straight-r90",
    (4, 7): "station-straight-r90",
    (5, 1): "rail-t-r90",
    (6, 1): "rail-cross-r0",
    (6, 2): "rail-straight-r90",
    (6, 3): "station-curve-r180",
    (6, 6): "rail-t-r0",
    (6, 7): "rail-t-r0",
    (7, 1): "overpass-r90",
    (7, 2): "road-t-r0",
    (7, 3): "road-curve-r270",
    (7, 6): "station-straight-r180",
    (7, 7): "rail-straight-r0",
}

_COLUMNS = "ABCDEFG"


def _exit_name(index: int) -> str:
    """``"top D"``, ``"left 4"``: how the frame's labels name an exit."""
    row, col = divmod(EXIT_CELLS[index], SIZE)
    if row == 0:
        return f"top {_COLUMNS[col - 1]}"
    if row == SIZE - 1:
        return f"bottom {_COLUMNS[col - 1]}"
    return f"{'left' if col == 0 else 'right'} {SIZE - 1 - row}"


def test_the_disputed_network_joins_five_exits_not_six(make_board: BoardMaker) -> None:
    board = make_board(FINAL_BOARD)
    joined = [
        [_exit_name(i) for i in net.exits]
        for net in networks(board.cells, game_rules().choices)
        if len(net.exits) >= 2
    ]
    assert joined == [
        ["top B", "left 4", "right 4", "left 2", "bottom B"],
        ["top F", "right 6"],
        ["right 2", "bottom F"],
    ]
    score = game_score(board.cells)
    assert score == Score(exits=24, longest_road=8, longest_rail=5, centre=5, errors=5)
    assert score.exits == EXIT_POINTS[5] + EXIT_POINTS[2] + EXIT_POINTS[2]
    assert score.total == 37  # the frame's "game over: 37 points" then


def test_a_station_with_a_road_to_the_north_would_join_top_d(make_board: BoardMaker) -> None:
    # The same board with a station at D4 whose road leaves west and north and whose rail
    # leaves east (and south): D5's road end now meets a road, so top D joins the network.
    board = make_board({**FINAL_BOARD, (4, 4): "station-cross-corner-r270"})
    biggest = max(networks(board.cells, game_rules().choices), key=lambda net: len(net.exits))
    assert [_exit_name(i) for i in biggest.exits] == [
        "top B",
        "top D",
        "left 4",
        "right 4",
        "left 2",
        "bottom B",
    ]
    assert game_score(board.cells).exits == EXIT_POINTS[6] + EXIT_POINTS[2] + EXIT_POINTS[2]
