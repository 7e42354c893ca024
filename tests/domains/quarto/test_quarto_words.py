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
from searchvid.domains.quarto.rules import (
    ATTRIBUTES,
    LINES,
    cell_name,
    line_name,
    piece_name,
    piece_words,
)
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
            assert domain.describe_end(node) == "game over: draw"
            return
    pytest.fail("no random game in 100 ended in a draw")


def test_moves_in_words() -> None:
    domain = _domain()
    root = domain.root()
    given = root.choose(15)
    assert (
        domain.describe_move(root, given)
        == "first player gives the tall dark round hollow piece (pick only: nothing to place yet)"
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


def test_lines_are_named_as_the_cells_are() -> None:
    assert [line_name(i) for i in range(10)] == [
        *(f"row {r}" for r in (4, 3, 2, 1)),
        *(f"column {c}" for c in "abcd"),
        "the a4-d1 diagonal",
        "the a1-d4 diagonal",
    ]
    assert [cell_name(c) for c in LINES[8]] == ["a4", "b3", "c2", "d1"]
    assert [cell_name(c) for c in LINES[9]] == ["d4", "c3", "b2", "a1"]


def test_the_end_names_the_winning_line_and_what_its_pieces_share() -> None:
    domain = _domain()
    row = QuartoState.from_board(TALL_ROW, hand=7, to_move=1)
    assert domain.describe_end(row) is None  # not over yet
    # 1, 3, 5 and 7 are all tall and all solid; nothing else is common to them
    assert domain.describe_end(row.play(3, 0)) == "second player wins: 4 tall solid pieces on row 4"
    # 8 SLQH, 9 TLQH, 10 SDQH on a4, b3, c2; 12 SLRH to d1: only "hollow" is shared
    diagonal = [8, -1, -1, -1, -1, 9, -1, -1, -1, -1, 10, *[-1] * 5]
    won = QuartoState.from_board(diagonal, hand=12, to_move=0).play(15, 0)
    assert domain.describe_end(won) == "first player wins: 4 hollow pieces on the a4-d1 diagonal"
    # d4 completes row 4 (tall solid) and column d (2 SDQF, 6 SDRF, 10 SDQH: dark) at once
    both = [1, 3, 5, -1, -1, -1, -1, 2, -1, -1, -1, 6, -1, -1, -1, 10]
    won = QuartoState.from_board(both, hand=7, to_move=1).play(3, 0)
    assert domain.describe_end(won) == (
        "second player wins: 4 tall solid pieces on row 4 and 4 dark pieces on column d"
    )


@pytest.mark.parametrize("seed", range(20))
def test_the_named_traits_are_on_every_piece_of_the_named_line(seed: int) -> None:
    domain = _domain()
    rng = random.Random(seed)
    node = domain.root()
    while (child := node.random_child(rng)) is not None:
        node = child
    words = domain.describe_end(node)
    assert words is not None
    if node.reward() == 0.5:
        assert words == "game over: draw"
        return
    lines = {line_name(i): LINES[i] for i in range(10)}
    said = re.fullmatch(r"(first|second) player wins: (.+)", words)
    assert said is not None
    assert ("first", "second").index(said[1]) == 1 - node.to_move  # the player who placed last
    for part in said[2].split(" and "):
        named = re.fullmatch(r"4 ([a-z ]+) pieces on (.+)", part)
        assert named is not None
        cells = lines[named[2]]
        pieces = [piece_words(node.piece_at(c)).split() for c in cells]
        shared = [w for w in pieces[0] if all(w in p for p in pieces)]
        assert named[1].split() == shared
        assert node.winning_cells() >> node.last & 1


def test_outcome_values_in_words() -> None:
    domain = _domain()
    assert domain.describe_value(1.0) == "first player wins"
    assert domain.describe_value(0.5) == "draw"
    assert domain.describe_value(0.0) == "second player wins"
    assert domain.describe_value(0.6) is None


def test_the_domain_still_passes_the_conformance_checks() -> None:
    assert check_domain(_domain()) == []
