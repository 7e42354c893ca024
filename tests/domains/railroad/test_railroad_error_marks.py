"""The barriers a Railroad Ink board draws at route ends the scoring counts as errors.

A reader of ``railroad-game-expectimax`` counted a road end running into the blank side of a
station as joined, and could not find the five errors the closing listed. Every counted error
now ends at a barrier drawn in the cell it runs into; these tests pin that the barriers on the
picture (the view's tile ids) are exactly the scoring's errors, where and when they are drawn,
what they look like, and the legend's words.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import numpy.typing as npt
import pytest
from conftest import BoardMaker
from test_railroad_disputed_exits import FINAL_BOARD

from searchvid import load_scene
from searchvid.domains.railroad import words
from searchvid.domains.railroad.art import PALETTE, tile_pixels
from searchvid.domains.railroad.game import ROUNDS, GameState
from searchvid.domains.railroad.grid import OFFSETS, SIZE
from searchvid.domains.railroad.network import SIDES, error_ends, game_score
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.tiles import TILES
from searchvid.domains.railroad.view import (
    BOARD_MARKS,
    ERROR_MARK,
    ERROR_TILE_NAMES,
    OPEN_ID,
    TILE_NAMES,
    RailroadView,
)
from searchvid.render.atlas import TileAtlas
from searchvid.render.view import TileGrid

_BY_NAME = {t.name: t.id + 1 for t in TILES}


def _barriers(grid: TileGrid) -> dict[tuple[int, int], str]:
    """The board cells of ``grid`` that show barriers, and the sides (``"NW"``) they are on."""
    found = {}
    for (row, col), tile in np.ndenumerate(grid[:SIZE]):
        name = TILE_NAMES[tile]
        if "+error-" in name:
            found[(row, col)] = name.split("+error-")[1]
    return found


def _count(grid: TileGrid) -> int:
    return sum(len(sides) for sides in _barriers(grid).values())


def _game(cells: bytes, *, ended: bool) -> GameState:
    """A hand-made state of the game on ``cells``: after the last round, or in round 3 with
    two of its four dice left to draw."""
    if ended:
        return GameState(cells, round=ROUNDS + 1)
    return GameState(cells, round=3, dice=(0, 1), roll=(0, 1, 2, 3))


# --- the reader's board -------------------------------------------------------------------------


def test_the_readers_board_bars_the_road_t_against_the_blank_station_side(
    make_board: BoardMaker,
) -> None:
    cells = make_board(FINAL_BOARD).cells
    state = _game(cells, ended=True)
    grid = RailroadView("game").grid(state)
    barriers = _barriers(grid)
    # D5's road T ends against the blank north side of D4's station: the barrier is in D4,
    # on its north side, right where the road meets it
    assert TILE_NAMES[grid[4, 4]] == "station-straight-r270+error-N"
    assert barriers[(4, 4)] == "N"
    # as many barriers as the closing's errors (words.breakdown, the score sheet)
    errors = next(f for f in words.breakdown(cells) if f.name == "errors")
    assert _count(grid) == -int(errors.value or 0) == game_score(cells).errors


def test_while_the_game_goes_on_only_blank_side_ends_are_barred(make_board: BoardMaker) -> None:
    cells = make_board(FINAL_BOARD).cells
    grid = RailroadView("game").grid(_game(cells, ended=False))
    against_tiles = [(c, s) for c, s in error_ends(cells) if cells[c + (-SIZE, 1, SIZE, -1)[s]]]
    into_empty = game_score(cells).errors - len(against_tiles)
    assert into_empty > 0  # the board has ends into empty cells: open now, barred at the end
    assert _count(grid) == len(against_tiles)
    assert all(not TILE_NAMES[grid[rc]].startswith("open") for rc in _barriers(grid))


# --- hand-made boards ---------------------------------------------------------------------------


def test_an_end_into_an_empty_cell_is_open_in_play_and_barred_at_the_end() -> None:
    # a road straight at D4 (row 4, col 4) with both ends into empty cells D5 and D3
    cells = bytearray(Board.start().cells)
    cells[4 * SIZE + 4] = _BY_NAME["road-straight-r0"]
    in_play = RailroadView("game").grid(_game(bytes(cells), ended=False))
    assert TILE_NAMES[in_play[3, 4]] == TILE_NAMES[in_play[5, 4]] == "open"
    assert _barriers(in_play) == {}
    ended = RailroadView("game").grid(_game(bytes(cells), ended=True))
    assert TILE_NAMES[ended[3, 4]] == "open+error-S"
    assert TILE_NAMES[ended[5, 4]] == "open+error-N"
    assert _count(ended) == game_score(bytes(cells)).errors == 2


def test_two_ends_into_one_blank_tile_bar_two_of_its_sides(make_board: BoardMaker) -> None:
    # a road straight (west-east) at D4 between two road curves whose ends face it from
    # north and south: both meet its blank sides
    board = make_board(
        {(4, 4): "road-straight-r90", (3, 4): "road-curve-r90", (5, 4): "road-curve-r0"}
    )
    grid = RailroadView().grid(board)
    assert TILE_NAMES[grid[4, 4]] == "road-straight-r90+error-NS"
    assert _barriers(grid)[(4, 4)] == "NS"


def test_the_outer_edge_is_never_an_error(make_board: BoardMaker) -> None:
    # a road straight north-south at C7: its north end leaves the board where no exit is,
    # which the game does not count; its south end runs into the empty C6
    board = make_board({(1, 3): "road-straight-r0"})
    assert game_score(board.cells).errors == 1
    ended = RailroadView("game").grid(_game(board.cells, ended=True))
    assert _barriers(ended) == {(2, 3): "N"}


def test_a_road_end_against_a_rail_end_has_no_barrier_tile(make_board: BoardMaker) -> None:
    # no rules allow it (both placement rules refuse it), so no tile draws it: both ends count
    # as errors and stay unmarked
    board = make_board({(4, 4): "road-straight-r90", (4, 5): "rail-straight-r90"})
    assert sum(1 for c, _ in error_ends(board.cells) if c in (40, 41)) == 4
    grid = RailroadView().grid(board)
    assert TILE_NAMES[grid[4, 4]] == "road-straight-r90"
    assert TILE_NAMES[grid[4, 5]] == "rail-straight-r90"


# --- the count on played boards -----------------------------------------------------------------


def _play_game(seed: int) -> list[GameState]:
    rng = random.Random(seed)
    state = GameState.start()
    states = [state]
    while not state.is_terminal():
        child = state.random_child(rng)
        assert child is not None
        state = child
        states.append(state)
    return states


@pytest.mark.parametrize("seed", range(6))
def test_barriers_equal_the_errors_on_random_games(seed: int) -> None:
    view = RailroadView("game")
    states = _play_game(seed)
    for state in states:
        grid = view.grid(state)
        cells = state.cells
        if state.is_terminal():
            assert _count(grid) == game_score(cells).errors
        else:  # ends against tiles only: the rest are open cells a tile may yet fill
            ends = [(c, s) for c, s in error_ends(cells) if cells[c + (-SIZE, 1, SIZE, -1)[s]]]
            assert _count(grid) == len(ends)
    assert states[-1].is_terminal()
    assert game_score(states[-1].cells).errors > 0  # random play leaves ends: the test bites


@pytest.mark.parametrize("seed", range(3))
def test_barriers_equal_the_errors_on_stuck_puzzles(seed: int) -> None:
    rng = random.Random(seed)
    board = Board.start()
    view = RailroadView()
    while not board.is_terminal():
        # the puzzle's rules never let a route meet a blank side: no barrier in play
        assert _barriers(view.grid(board)) == {}
        child = board.random_child(rng)
        assert child is not None
        board = child
    assert _count(view.grid(board)) == game_score(board.cells).errors > 0


def _open_ends(grid: TileGrid, cells: bytes) -> int:
    """The tiles' route ends into the cells ``grid`` shows as open, as the legend counts
    them ("-1 point per tile's end into it"): an exit's route leading in is no tile's."""
    count = 0
    for (row, col), tile in np.ndenumerate(grid[:SIZE]):
        if tile != OPEN_ID:
            continue
        for side, offset in enumerate(OFFSETS):
            code = cells[row * SIZE + col + offset]
            count += 1 <= code <= len(TILES) and SIDES[code][(side + 2) % 4] != 0
    return count


def test_the_start_s_open_cells_cost_nothing_an_exit_is_no_tile() -> None:
    board = Board.start()
    grid = RailroadView().grid(board)
    assert int((grid == OPEN_ID).sum()) == 12
    assert _open_ends(grid, board.cells) == 0 == game_score(board.cells).errors


@pytest.mark.parametrize("seed", range(4))
def test_the_legend_s_count_of_open_ends_and_barriers_is_the_score_s_errors(seed: int) -> None:
    """A reader who counts -1 for each tile's end into an open cell and for each barrier
    gets the errors the strip's points include, on every board in play (puzzle and game),
    where no barrier marks the ends into empty cells yet."""
    rng = random.Random(seed)
    board = Board.start()
    view = RailroadView()
    open_seen = 0
    while not board.is_terminal():
        grid = view.grid(board)
        open_seen += _open_ends(grid, board.cells)
        assert _open_ends(grid, board.cells) + _count(grid) == game_score(board.cells).errors
        child = board.random_child(rng)
        assert child is not None
        board = child
    game = RailroadView("game")
    for state in _play_game(seed):
        if state.is_terminal():
            continue
        grid = game.grid(state)
        open_seen += _open_ends(grid, state.cells)
        assert _open_ends(grid, state.cells) + _count(grid) == game_score(state.cells).errors
    assert open_seen > 0  # the open ends carried points: the test bites


@pytest.mark.slow
def test_the_expectimax_scenes_closing_board_shows_its_errors() -> None:
    scene = load_scene("railroad-game-expectimax")
    last = None
    for event in scene.events():
        if event.node is not None:
            last = event.node
    assert isinstance(last, GameState)
    assert last.is_terminal()
    grid = scene.view().grid(last)
    errors = next(f for f in words.breakdown(last.cells) if f.name == "errors")
    assert _count(grid) == -int(errors.value or 0) == game_score(last.cells).errors > 0


# --- the picture ---------------------------------------------------------------------------------

Pixels = npt.NDArray[np.uint8]


def _near(sides: str) -> npt.NDArray[np.bool_]:
    """Pixels of a 100 px tile within 12 px of the edges ``sides`` and 22 px of their middle."""
    y, x = np.mgrid[0:100, 0:100]
    near = np.zeros((100, 100), dtype=bool)
    for side in sides:
        depth = {"N": y, "S": 99 - y, "W": x, "E": 99 - x}[side]
        across = {"N": x, "S": x, "W": y, "E": y}[side]
        near |= (depth < 12) & (np.abs(across - 49.5) < 22)
    return near


@pytest.mark.parametrize("name", [n for n in ERROR_TILE_NAMES if "+error-" in n])
def test_a_barrier_changes_the_tile_only_next_to_its_sides(name: str) -> None:
    base, sides = name.split("+error-")
    # an open cell's barriers stand on the plain empty cell: its ring's "-1 point per tile's
    # end into it" would count each barred end a second time
    plain, barred = tile_pixels("empty-cell" if base == "open" else base), tile_pixels(name)
    changed = plain != barred
    assert not (changed & ~_near(sides)).any(), name
    for side in sides:  # each barrier is there: a red and white bar in a black frame
        inside = _near(side)
        assert changed[inside].sum() >= 200, (name, side)
    # black frame, red and white stripes: palette entries 5, 7 and 4
    assert set(np.unique(barred[changed]).tolist()) == {4, 5, 7}, name


def test_a_barred_open_cell_loses_its_ring() -> None:
    # on a terminal board an open cell with barriers shows no ring: the ring's legend prices
    # each tile's end into it at -1, which its barriers already say
    ring = tile_pixels("open") != tile_pixels("empty-cell")
    for name in (n for n in ERROR_TILE_NAMES if n.startswith("open+error-")):
        barred = tile_pixels(name)
        assert not (barred[ring] == tile_pixels("open")[ring]).all(), name
        assert (
            barred[~_near(name.split("+error-")[1])]
            == tile_pixels("empty-cell")[~_near(name.split("+error-")[1])]
        ).all(), name


def test_the_barrier_does_not_cover_the_route_it_stops() -> None:
    # the road T at D5 ends on its south edge; the barrier is drawn in the next cell, so the
    # road's own tile is unchanged and its end stays visible up to the edge
    view = RailroadView("game")
    board = Board.start().place(3 * SIZE + 4, _BY_NAME["road-t-r90"])
    board = board.place(4 * SIZE + 4, _BY_NAME["station-straight-r270"])
    grid = view.grid(_game(board.cells, ended=False))
    assert TILE_NAMES[grid[3, 4]] == "road-t-r90"
    assert TILE_NAMES[grid[4, 4]] == "station-straight-r270+error-N"


# --- the legend ---------------------------------------------------------------------------------


def test_the_legend_names_the_barrier() -> None:
    assert ERROR_MARK.text == "error: route leads nowhere, -1 point"
    assert ERROR_MARK.tile == "route-end-error"
    assert BOARD_MARKS[-1] is ERROR_MARK
    assert [m.text for m in RailroadView().marks] == [
        "exit",
        "station",
        "open: a route leads in; -1 point per tile's end into it",
        "error: route leads nowhere, -1 point",
    ]
    assert ERROR_MARK in RailroadView("game").marks


def test_the_legend_swatch_shows_a_road_ending_at_the_barrier() -> None:
    pixels = tile_pixels("route-end-error")
    row = pixels[50]  # across the middle, west to east: road, then the barrier, then paper
    assert row[10] == 3  # road grey
    assert set(row[54:70].tolist()) <= {4, 5, 7}
    assert 7 in row[54:70].tolist()
    assert row[90] == 0  # paper beyond it


def test_the_barrier_survives_the_shrink_to_a_720_px_frame() -> None:
    # at --width 720 a board cell is 80 px; the atlas resamples the art and snaps it back to
    # its colours: the barrier stays a red and white bar next to its side, nothing else moves
    atlas = TileAtlas(RailroadView().tileset, 80)
    plain = atlas.tiles[TILE_NAMES.index("station-straight-r270")]
    barred = atlas.tiles[TILE_NAMES.index("station-straight-r270+error-N")]
    changed = (plain != barred).any(axis=-1)
    rows, cols = np.nonzero(changed)
    assert rows.max() < 10  # within the top 10 px of 80
    assert 20 <= cols.min() < cols.max() < 60  # centred on the edge, where the road meets it
    colours = Counter(tuple(int(v) for v in px) for px in barred[changed])
    # white, black and red each cover a good part of it (resampling blends a pixel wide
    # fringe, snapped to the tile's other colours, as on every tile shrunk)
    assert min(colours[PALETTE[4]], colours[PALETTE[5]], colours[PALETTE[7]]) >= 50
