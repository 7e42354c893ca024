"""Quarto in words: whose turn and what for, move captions, outcome values.

A caption must name what the picture shows: the placed piece appears on the described cell
(columns a-d from the left, rows 1-4 from the bottom) and the piece given is the one in the
hand slot, gone from the reserve.
"""

from __future__ import annotations

import random
import re

import pytest

from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.quarto import QuartoDomain, QuartoState
from searchvid.domains.quarto.art import TILE_NAMES
from searchvid.domains.quarto.rules import ATTRIBUTES, piece_name, piece_words
from searchvid.domains.quarto.view import HAND_CELL, RESERVE_COLUMN

PLACES = re.compile(r"(first|second) player places the ([a-z ]+) piece at ([a-d])([1-4])")
GIVES = re.compile(r"gives the ([a-z ]+) piece")
TALL_ROW = [1, 3, 5, -1, *[-1] * 12]  # three tall pieces on a4, b4, c4; d4 empty


def _domain() -> QuartoDomain:
    domain = make_domain("quarto", {})
    assert isinstance(domain, QuartoDomain)
    return domain


def _status(domain: QuartoDomain, state: QuartoState) -> list[str]:
    return [field.text() for field in domain.status(state)]


def _piece(words: str) -> int:
    """The piece named by its four attribute words."""
    return sum(
        pair.index(word) << a
        for a, (pair, word) in enumerate(zip(ATTRIBUTES, words.split(), strict=True))
    )


def test_pieces_in_words() -> None:
    assert piece_words(15) == "tall dark round hollow"
    assert piece_words(0) == "short light square solid"
    assert piece_words(0b0101) == "tall light round solid"
    assert all(_piece(piece_words(p)) == p for p in range(16))


def test_status_through_a_game() -> None:
    domain = _domain()
    root = domain.root()
    assert _status(domain, root) == ["first player to choose", "pieces left 16"]
    given = root.choose(15)
    assert _status(domain, given) == ["second player to place", "pieces left 16"]
    placed = given.play(5, 0)
    assert _status(domain, placed) == ["first player to place", "pieces left 15"]
    threat = QuartoState.from_board(TALL_ROW, hand=7, to_move=1)
    won = threat.play(3, 0)
    assert _status(domain, won) == ["second player wins", "pieces left 12"]


def test_status_of_a_draw() -> None:
    domain = _domain()
    for seed in range(100):
        rng = random.Random(seed)
        node = domain.root()
        while (child := node.random_child(rng)) is not None:
            node = child
        if node.reward() == 0.5:
            assert _status(domain, node) == ["draw", "pieces left 0"]
            return
    pytest.fail("no random game in 100 ended in a draw")


def test_moves_in_words() -> None:
    domain = _domain()
    root = domain.root()
    given = root.choose(15)
    assert (
        domain.describe_move(root, given) == "first player gives the tall dark round hollow piece"
    )
    placed = given.play(5, 0)
    assert domain.describe_move(given, placed) == (
        "second player places the tall dark round hollow piece at b3, "
        "gives the short light square solid piece"
    )
    threat = QuartoState.from_board(TALL_ROW, hand=7, to_move=1)
    assert domain.describe_move(threat, threat.play(3, 0)) == (
        "second player places the tall dark round solid piece at d4"  # it wins: nothing given
    )


def test_what_is_not_one_move_has_no_words() -> None:
    domain = _domain()
    root = domain.root()
    given = root.choose(15)
    placed = given.play(5, 0)
    assert domain.describe_move(root, root) is None
    assert domain.describe_move(root, placed) is None  # two moves
    assert domain.describe_move(given, given) is None
    assert domain.describe_move(placed, given) is None  # taken back
    assert domain.describe_move(given, root.choose(3)) is None  # another opening
    won = QuartoState.from_board(TALL_ROW, hand=7, to_move=1).play(3, 0)
    assert domain.describe_move(won, won) is None  # the game is over


@pytest.mark.parametrize("seed", range(3))
def test_captions_match_the_board_the_hand_and_the_reserve(seed: int) -> None:
    domain = _domain()
    view = domain.view()
    rng = random.Random(seed)
    node = domain.root()
    while not node.is_terminal():
        before = view.grid(node)
        for child in node.children():
            text = domain.describe_move(node, child)
            assert text is not None
            after = view.grid(child)
            placed = PLACES.match(text)
            if placed:
                assert ("first", "second").index(placed[1]) == node.to_move
                row, col = 4 - int(placed[4]), "abcd".index(placed[3])
                assert TILE_NAMES[before[row, col]] == "board"
                name = piece_name(_piece(placed[2]))
                assert TILE_NAMES[after[row, col]] in (f"{name}_last", f"{name}_win")
            else:
                assert text.startswith(f"{('first', 'second')[node.to_move]} player gives")
            given = GIVES.search(text)
            if given:
                piece = _piece(given[1])
                assert TILE_NAMES[after[HAND_CELL]].startswith(f"{piece_name(piece)}_hand")
                slot = (piece // 4, RESERVE_COLUMN + piece % 4)
                assert TILE_NAMES[before[slot]] == f"{piece_name(piece)}_reserve"
                assert TILE_NAMES[after[slot]] == "reserve"
            else:
                assert child.is_terminal()
        picked = node.random_child(rng)
        assert picked is not None
        node = picked


def test_outcome_values_in_words() -> None:
    domain = _domain()
    assert domain.describe_value(1.0) == "first player wins"
    assert domain.describe_value(0.5) == "draw"
    assert domain.describe_value(0.0) == "second player wins"
    assert domain.describe_value(0.6) is None


def test_the_domain_still_passes_the_conformance_checks() -> None:
    assert check_domain(_domain()) == []
