"""The Quarto view (board, hand slot, reserve) and its tile art."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from searchvid.domains import make_domain
from searchvid.domains.quarto.art import (
    EMPTY_TILES,
    GROUNDS,
    PALETTE,
    TILE_NAMES,
    draw_tile,
)
from searchvid.domains.quarto.rules import LINES, QuartoState
from searchvid.domains.quarto.view import QuartoView

ROOT = Path(__file__).resolve().parents[3]
ASSETS = ROOT / "tile_assets" / "quarto"


def names(state: QuartoState) -> list[list[str]]:
    view = QuartoView()
    return [[view.tileset.names[t] for t in row] for row in view.grid(state).tolist()]


RESERVE_FULL = [
    ["SLQF_reserve", "TLQF_reserve", "SDQF_reserve", "TDQF_reserve"],
    ["SLRF_reserve", "TLRF_reserve", "SDRF_reserve", "TDRF_reserve"],
    ["SLQH_reserve", "TLQH_reserve", "SDQH_reserve", "TDQH_reserve"],
    ["SLRH_reserve", "TLRH_reserve", "SDRH_reserve", "TDRH_reserve"],
]


def test_the_opening_position() -> None:
    grid = names(QuartoState.start())
    assert [row[:4] for row in grid] == [["board"] * 4] * 4
    # nobody holds a piece yet (the first player is to choose one): no player's colour
    assert [row[4] for row in grid] == ["gutter"] * 4
    assert [row[5:] for row in grid] == RESERVE_FULL


def test_placed_pieces_hand_and_reserve() -> None:
    state = QuartoState.start().choose(15).play(5, 0)  # player 1 puts TDRH on b3, gives SLQF
    grid = names(state)
    assert grid[1][1] == "TDRH_last"
    assert grid[1][4] == "SLQF_hand0"
    expected = [row[:] for row in RESERVE_FULL]
    expected[3][3] = "reserve"  # TDRH is on the board
    expected[0][0] = "reserve"  # SLQF is in hand
    assert [row[5:] for row in grid] == expected
    later = state.play(0, 1)
    assert names(later)[1][1] == "TDRH_board"
    assert names(later)[0][0] == "SLQF_last"
    assert names(later)[1][4] == "TLQF_hand1"


def test_the_winning_line_is_highlighted_and_nobody_holds_a_piece_after_it() -> None:
    board = [-1] * 16
    board[0], board[5], board[10] = 1, 3, 5  # three tall pieces on the diagonal
    state = QuartoState.from_board(board, 7, 1)
    won = state.play(15, 0)
    grid = names(won)
    assert [grid[i][i] for i in range(4)] == ["TLQF_win", "TDQF_win", "TLRF_win", "TDRF_win"]
    # the game is over: the hand slot is empty, in no player's colour (orange or blue
    # there read as "first/second player's hand", as the legend names them)
    assert grid[1][4] == "gutter"
    assert grid[0][1] == "board"
    assert set(LINES[8]) == {0, 5, 10, 15}


def test_a_drawn_game_leaves_the_hand_slot_empty() -> None:
    board = [12, 15, 7, 8, 1, 10, 3, 6, 0, 5, 4, 14, 2, 9, 13, -1]
    drawn = QuartoState.from_board(board, 11, 0).play(15, None)
    grid = names(drawn)
    assert grid[1][4] == "gutter"
    assert grid[3][3] == "TDQH_last"
    assert all(tile == "reserve" for row in grid for tile in row[5:])


def test_view_shape_and_dtype() -> None:
    view = QuartoView()
    grid = view.grid(QuartoState.start())
    assert view.shape == (4, 9)
    assert grid.shape == (4, 9)
    assert grid.dtype == np.int16
    assert view.tileset.folder == "quarto"


def test_tile_names() -> None:
    assert len(TILE_NAMES) == len(EMPTY_TILES) + 16 * len(GROUNDS) == 102
    assert len(set(TILE_NAMES)) == len(TILE_NAMES)


def test_tiles_use_the_small_palette() -> None:
    palette = {r << 16 | g << 8 | b for r, g, b in PALETTE.values()}
    assert len(palette) <= 24
    for name in TILE_NAMES:
        img = np.asarray(draw_tile(name))
        packed = img.astype(np.int32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.int32)
        assert set(np.unique(packed).tolist()) <= palette, name


def colour_area(name: str, colour: str) -> int:
    img = np.asarray(draw_tile(name))
    return int(np.all(img == PALETTE[colour], axis=-1).sum())


def test_each_attribute_is_visible() -> None:
    # tall pieces cover more ground; dark and light differ in colour; hollow shows a hole
    assert colour_area("TLQF_board", "board") < colour_area("SLQF_board", "board")
    assert colour_area("SDQF_board", "dark") > 0
    assert colour_area("SDQF_board", "light") == 0
    assert colour_area("SLQF_board", "light") > 0
    assert colour_area("SLQH_board", "board") > colour_area("SLQF_board", "board")
    round_, square = np.asarray(draw_tile("TLRF_board")), np.asarray(draw_tile("TLQF_board"))
    assert not np.array_equal(round_, square)
    corner = (20, 20)  # inside a tall square, outside a tall disc
    assert tuple(square[corner]) == PALETTE["light"]
    assert tuple(round_[corner]) == PALETTE["board"]


def luma(rgb: tuple[int, int, int]) -> float:
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("ground", GROUNDS)
@pytest.mark.parametrize("piece", ["dark", "light"])
def test_pieces_stand_out_in_luma(ground: str, piece: str) -> None:
    assert abs(luma(PALETTE[ground]) - luma(PALETTE[piece])) >= 40


def test_unknown_tile_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown tile"):
        draw_tile("TDRH_nowhere")


def test_the_board_the_hand_and_the_pool_are_named_on_the_gap_beside_each() -> None:
    view = QuartoView()
    labels = [(label.row, label.col, label.text, label.corner) for label in view.cell_labels]
    assert labels == [
        (0, 4, "\u2190 board", "nw"),
        (2, 4, "\u2191 hand", "nw"),
        (3, 4, "pool \u2192", "se"),
    ]
    # on cells no position ever fills: the gap's, never the hand slot (1, 4)
    for state in (QuartoState.start(), QuartoState.start().choose(15).play(5, 0)):
        grid = names(state)
        assert all(grid[r][c] == "gutter" for r, c, _, _ in labels)


def test_the_opening_card_says_a_move_is_a_placement_then_a_pick() -> None:
    domain = make_domain("quarto", {})
    # a move frame marks a board cell and a pool piece: both halves of one move
    assert domain.describe_problem(domain.root()) == (
        "a move: place the piece in hand, then pick the opponent's from the pool;"
        " 4 in a line sharing a trait wins"
    )
