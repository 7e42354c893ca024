"""Shared helpers of the Railroad Ink tests: boards written down tile by tile."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.domains.railroad.tiles import TILES

BoardMaker = Callable[..., Board]

_BY_NAME = {t.name: t.id + 1 for t in TILES}


def board_with(placed: Mapping[tuple[int, int], str], tiles: TileSetName = "all") -> Board:
    """The empty board with tiles placed by name at ``(row, col)``, no legality check."""
    board = Board.start(tiles)
    for (row, col), name in placed.items():
        board = board.place(row * 9 + col, _BY_NAME[name])
    return board


@pytest.fixture
def make_board() -> BoardMaker:
    """``make_board({(row, col): tile name, ...}, tiles="all")``."""
    return board_with
