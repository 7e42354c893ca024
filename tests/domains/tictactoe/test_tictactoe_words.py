"""Tic-tac-toe in words: whose turn or the result, move captions and minimax values.

A caption's cell must be the one the picture fills: columns a.. from the left, rows 1.. from
the bottom of the drawn board.
"""

from __future__ import annotations

import random
import re

import pytest

from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.tictactoe import Board, TicTacToeDomain
from searchvid.domains.tictactoe.art import TILE_NAMES

MOVE = re.compile(r"([XO]) at ([a-h])([1-8])")


def _domain(size: int = 3, k: int | None = None) -> TicTacToeDomain:
    domain = make_domain("tictactoe", {"size": size} if k is None else {"size": size, "k": k})
    assert isinstance(domain, TicTacToeDomain)
    return domain


def _board(domain: TicTacToeDomain, text: str) -> Board:
    return Board.parse(text, domain.geometry)


def _status(domain: TicTacToeDomain, board: Board) -> list[str]:
    return [field.text() for field in domain.status(board)]


def test_status_says_whose_turn_or_the_result() -> None:
    domain = _domain()
    assert _status(domain, domain.root()) == ["X to move"]
    assert _status(domain, _board(domain, "X../.O./...")) == ["X to move"]
    assert _status(domain, _board(domain, "X../.O./..X")) == ["O to move"]
    assert _status(domain, _board(domain, "XXX/OO./...")) == ["X wins"]
    assert _status(domain, _board(domain, "XX./OOO/..X")) == ["O wins"]
    assert _status(domain, _board(domain, "XOX/XOO/OXX")) == ["draw"]


def test_a_move_is_the_mark_and_its_cell_like_a_chess_board() -> None:
    domain = _domain()
    root = domain.root()
    assert domain.describe_move(root, root.play(1)) == "X at b3"  # top row, middle
    assert domain.describe_move(root, root.play(6)) == "X at a1"  # bottom-left corner
    assert domain.describe_move(root, root.play(8)) == "X at c1"
    after = root.play(4)
    assert domain.describe_move(after, after.play(2)) == "O at c3"
    big = _domain(4)
    assert big.describe_move(big.root(), big.root().play(15)) == "X at d1"
    assert big.describe_move(big.root(), big.root().play(0)) == "X at a4"


def test_what_is_not_one_move_has_no_words() -> None:
    domain = _domain()
    root = domain.root()
    one = root.play(4)
    assert domain.describe_move(root, root) is None  # no move at all
    assert domain.describe_move(root, one.play(0)) is None  # two moves
    assert domain.describe_move(one, root) is None  # a move taken back
    assert domain.describe_move(root, _board(domain, "X../.../...")) is None  # parsed: no last
    won = _board(domain, "XXX/OO./...")
    assert domain.describe_move(won, won) is None  # the game is over


@pytest.mark.parametrize(("size", "k"), [(3, None), (4, 4), (5, 4)])
def test_captions_name_the_cell_the_picture_fills(size: int, k: int | None) -> None:
    domain = _domain(size, k)
    view = domain.view()
    rng = random.Random(size)
    node = domain.root()
    while not node.is_terminal():
        before = view.grid(node)
        for child in node.children():
            text = domain.describe_move(node, child)
            assert text is not None
            match = MOVE.fullmatch(text)
            assert match, text
            row, col = size - int(match[3]), "abcdefgh".index(match[2])
            after = view.grid(child)
            assert TILE_NAMES[before[row, col]] == "empty"
            assert TILE_NAMES[after[row, col]].startswith(match[1].lower())
            # elsewhere only marks already there may change (last move, winning line)
            changed = {(int(r), int(c)) for r, c in zip(*(before != after).nonzero(), strict=True)}
            assert all(TILE_NAMES[before[rc]] != "empty" for rc in changed - {(row, col)})
        picked = node.random_child(rng)
        assert picked is not None
        node = picked


def test_minimax_values_in_words() -> None:
    domain = _domain()
    assert domain.describe_value(1.0) == "X wins"
    assert domain.describe_value(0.5) == "draw"
    assert domain.describe_value(0.0) == "O wins"
    for value in (0.1, 0.25, 0.7, 0.9):
        assert domain.describe_value(value) is None


def test_the_domain_still_passes_the_conformance_checks() -> None:
    assert check_domain(_domain()) == []
    assert check_domain(_domain(4)) == []
