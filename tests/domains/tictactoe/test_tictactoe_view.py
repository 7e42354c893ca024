"""The tic-tac-toe view and its tile art."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from searchvid.domains.tictactoe import TicTacToeDomain
from searchvid.domains.tictactoe.art import PALETTE, TILE_NAMES, draw_tile
from searchvid.domains.tictactoe.rules import Board, geometry
from searchvid.domains.tictactoe.view import TicTacToeView

ROOT = Path(__file__).resolve().parents[3]
ASSETS = ROOT / "tile_assets" / "tictactoe"


def tile_grid(view: TicTacToeView, node: Board) -> list[list[str]]:
    names = view.tileset.names
    return [[names[t] for t in row] for row in view.grid(node).tolist()]


def test_view_shows_marks_and_the_last_move() -> None:
    view = TicTacToeView(3)
    node = Board.parse("X.O/.X./...", geometry(3, 3)).play(8)
    assert view.shape == (3, 3)
    assert view.tileset.folder == "tictactoe"
    assert tile_grid(view, node) == [
        ["x", "empty", "o"],
        ["empty", "x", "empty"],
        ["empty", "empty", "o_last"],
    ]


def test_view_highlights_every_winning_line() -> None:
    view = TicTacToeView(3)
    node = Board.parse("XX./OXO/XOO", geometry(3, 3)).play(2)
    assert tile_grid(view, node) == [
        ["x_win", "x_win", "x_win"],
        ["o", "x_win", "o"],
        ["x_win", "o", "o"],
    ]


def test_view_of_a_larger_board() -> None:
    domain = TicTacToeDomain(TicTacToeDomain.options_type(size=5, k=4))
    node = domain.root().play(12)
    grid = domain.view().grid(node)
    assert grid.shape == (5, 5)
    assert grid.dtype == np.int16
    expected = np.zeros((5, 5), dtype=np.int16)
    expected[2, 2] = TILE_NAMES.index("x_last")
    assert np.array_equal(grid, expected)


def test_tiles_use_the_small_palette() -> None:
    palette = {r << 16 | g << 8 | b for r, g, b in PALETTE.values()}
    assert len(palette) <= 24
    for name in TILE_NAMES:
        img = np.asarray(draw_tile(name))
        packed = img.astype(np.int32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.int32)
        assert set(np.unique(packed).tolist()) <= palette, name


def luma(rgb: tuple[int, int, int]) -> float:
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("ground", ["paper", "last", "win"])
@pytest.mark.parametrize("mark", ["cross", "nought"])
def test_marks_stand_out_in_luma(ground: str, mark: str) -> None:
    assert abs(luma(PALETTE[ground]) - luma(PALETTE[mark])) >= 90


def test_unknown_tile_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown tile"):
        draw_tile("z")
