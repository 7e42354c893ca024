"""Property tests over random walks: children are legal, complete, and well keyed."""

from __future__ import annotations

import functools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.domains.railroad.tiles import Side, Transport, code_groups

SIZE = 9
STEP = {Side.N: (-1, 0), Side.E: (0, 1), Side.S: (1, 0), Side.W: (0, -1)}


@functools.cache
def _transport(code: int, side: Side) -> Transport | None:
    for group in code_groups(code):
        for s, t in group:
            if s is side:
                return t
    return None


def legal(cells: bytes, row: int, col: int, code: int) -> bool:
    """The seed's placement rule, checked from the connection groups alone."""
    if not (1 <= row <= 7 and 1 <= col <= 7) or cells[row * SIZE + col]:
        return False
    matched = False
    for side, (dr, dc) in STEP.items():
        other = cells[(row + dr) * SIZE + col + dc]
        if other == 0:
            continue  # an empty neighbour is neutral
        mine, theirs = _transport(code, side), _transport(other, side.opposite)
        if mine != theirs:
            return False  # different transports, or a route against a blank side
        matched |= mine is not None
    return matched


def legal_moves(board: Board) -> list[tuple[int, int]]:
    """Every legal (cell, code), row-major then by code: the spec of ``children()``."""
    return [
        (row * SIZE + col, code)
        for row in range(1, 8)
        for col in range(1, 8)
        for code in board.rules.codes
        if legal(board.cells, row, col, code)
    ]


def _move(parent: Board, child: Board) -> tuple[int, int]:
    diff = [i for i in range(SIZE * SIZE) if parent.cells[i] != child.cells[i]]
    assert len(diff) == 1
    return diff[0], child.cells[diff[0]]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tiles=st.sampled_from(["basic", "all"]))
def test_random_walks_visit_only_legal_complete_well_keyed_children(
    seed: int, tiles: TileSetName
) -> None:
    rng = random.Random(seed)
    board = Board.start(tiles)
    while True:
        kids = list(board.children())
        assert [_move(board, k) for k in kids] == legal_moves(board)
        assert board.is_terminal() == (not kids)
        for kid in kids[:: max(1, len(kids) // 5)]:
            twin = Board(bytes(kid.cells), kid.rules)
            assert twin == kid
            assert hash(twin) == hash(kid)
            assert twin.key() == kid.key()
        assert len({k.key() for k in kids}) == len(kids)
        drawn = board.random_child(rng)
        if drawn is None:
            assert not kids
            break
        assert drawn in kids
        board = drawn
    assert 0.0 <= board.reward() <= 1.0
