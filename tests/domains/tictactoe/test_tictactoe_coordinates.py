"""Tic-tac-toe's board carries the coordinates its words name ("O:c1", "X at b3"): column
letters in the bottom row, row numbers in the left column (issue 20 item 6, fourth round).

Pixel checks run on tictactoe-minimax-tree: no heat map repaints its board, and its undo
outlines cover cells, so a tag lost under a mark would stay lost.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from searchvid import load_scene
from searchvid.domains.tictactoe.rules import Board, geometry
from searchvid.domains.tictactoe.view import TicTacToeView, coordinates
from searchvid.render.celllabels import CellLabel, label_font, labels_of, tag
from searchvid.render.pipeline import drawn_frames
from searchvid.render.textink import TextInk

Frame = npt.NDArray[np.uint8]


def test_a_3x3_board_has_letters_along_the_bottom_and_numbers_up_the_left() -> None:
    assert coordinates(3) == (
        CellLabel(2, 0, "a", "se"),
        CellLabel(2, 1, "b", "se"),
        CellLabel(2, 2, "c", "se"),
        CellLabel(0, 0, "3", "sw"),
        CellLabel(1, 0, "2", "sw"),
        CellLabel(2, 0, "1", "sw"),
    )
    view = TicTacToeView(3)
    assert labels_of(view, view.shape) == coordinates(3)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_labels_name_each_cell_as_the_moves_do(size: int) -> None:
    board = Board.start(geometry(size, 3 if size == 3 else 4))
    letters = {label.col: label.text for label in coordinates(size) if label.text.isalpha()}
    numbers = {label.row: label.text for label in coordinates(size) if label.text.isdigit()}
    assert sorted(letters) == sorted(numbers) == list(range(size))
    for cell in range(size * size):
        row, col = divmod(cell, size)
        assert board.cell_name(cell) == letters[col] + numbers[row]


@pytest.fixture(scope="module")
def frames() -> list[Frame]:
    scene = load_scene("tictactoe-minimax-tree")
    jobs = scene.render_jobs()
    return [f.copy() for _, f in drawn_frames(scene.sources(), jobs, lambda _i: True)]


def test_every_frame_shows_every_coordinate_in_its_corner(frames: list[Frame]) -> None:
    scene = load_scene("tictactoe-minimax-tree")
    tile = scene.video.tile_size
    ink = TextInk(label_font(tile))
    size = scene.view().shape[0]
    assert len(frames) > 50
    for i, frame in enumerate(frames):
        for label in coordinates(size):
            picture = tag(label.text, ink)
            h, w = picture.shape[:2]
            top = (label.row + 1) * tile - h - 2
            left = label.col * tile + 2 if label.corner == "sw" else (label.col + 1) * tile - w - 2
            assert np.array_equal(frame[top : top + h, left : left + w], picture), (i, label)
