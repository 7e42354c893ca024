"""Quarto rules: lines on every attribute, diagonals, draws, illegal moves, shortcuts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from searchvid.domains import make_domain
from searchvid.domains.quarto import QuartoDomain
from searchvid.domains.quarto.rules import (
    DRAW,
    LINES,
    P0_WON,
    P1_WON,
    QuartoState,
    code,
    parse_piece,
    piece_name,
    shortcuts,
    threats,
)
from searchvid.errors import OptionError

# A full board without any line that shares an attribute.
NO_LINE = (12, 15, 7, 8, 1, 10, 3, 6, 0, 5, 4, 14, 2, 9, 13, 11)
# The four values of three bits with even parity: no bit is shared by all four.
MIXED = (0b000, 0b011, 0b101, 0b110)


def line_pieces(attribute: int, value: int) -> list[int]:
    """Four pieces sharing only ``value`` of ``attribute``."""
    out = []
    for other in MIXED:
        low = other & ((1 << attribute) - 1)
        high = other >> attribute << (attribute + 1)
        out.append(low | value << attribute | high)
    return out


def three_and_hand(line: tuple[int, ...], pieces: list[int], to_move: int) -> QuartoState:
    """A board with ``pieces[:3]`` on the first three cells of ``line``, ``pieces[3]`` in hand."""
    board = [-1] * 16
    for cell, piece in zip(line[:3], pieces[:3], strict=True):
        board[cell] = piece
    return QuartoState.from_board(board, pieces[3], to_move)


def spare(state: QuartoState) -> int:
    return next(p for p in range(16) if state.pool >> p & 1)


def test_piece_names() -> None:
    assert piece_name(15) == "TDRH"
    assert piece_name(0) == "SLQF"
    assert piece_name(0b0101) == "TLRF"
    assert [parse_piece(piece_name(p)) for p in range(16)] == list(range(16))
    assert parse_piece("hrdt") == 15
    for bad in ("TDR", "TDRX", "TTRH", "TDRHH"):
        with pytest.raises(ValueError, match="piece"):
            parse_piece(bad)


def test_codes_share_a_bit_exactly_when_pieces_share_an_attribute() -> None:
    for a in range(16):
        for b in range(16):
            shared = (a ^ b) != 15
            assert bool(code(a) & code(b)) == shared


@pytest.mark.parametrize("attribute", range(4))
@pytest.mark.parametrize("value", [0, 1])
@pytest.mark.parametrize(("kind", "line"), [("row", LINES[1]), ("column", LINES[6])])
def test_a_line_sharing_one_attribute_wins(
    attribute: int, value: int, kind: str, line: tuple[int, ...]
) -> None:
    pieces = line_pieces(attribute, value)
    assert len(set(pieces)) == 4
    for to_move in (0, 1):
        state = three_and_hand(line, pieces, to_move)
        assert not state.is_terminal()
        after = state.play(line[3], spare(state))
        assert after.is_terminal(), kind
        assert after.status == (P0_WON if to_move == 0 else P1_WON)
        assert after.reward() == (1.0 if to_move == 0 else 0.0)
        assert after.winning_cells() == sum(1 << c for c in line)
        assert after.hand == -1
        assert after.children() == []


@pytest.mark.parametrize("line", [LINES[8], LINES[9]], ids=["diagonal", "anti-diagonal"])
def test_both_diagonals_win(line: tuple[int, ...]) -> None:
    pieces = line_pieces(2, 1)
    state = three_and_hand(line, pieces, 0)
    after = state.play(line[3], spare(state))
    assert after.status == P0_WON
    assert after.winning_cells() == sum(1 << c for c in line)


def test_a_full_line_without_a_shared_attribute_does_not_win() -> None:
    pieces = [0, 15, 3, 12]
    state = three_and_hand(LINES[0], pieces, 1)
    after = state.play(LINES[0][3], spare(state))
    assert not after.is_terminal()
    assert after.winning_cells() == 0
    assert after.to_move == 0


def test_the_full_board_without_a_line_is_a_draw() -> None:
    board = list(NO_LINE)
    board[15] = -1
    state = QuartoState.from_board(board, NO_LINE[15], 1)
    assert state.pool == 0
    assert [c.status for c in state.children()] == [DRAW]
    after = state.play(15, None)
    assert after.status == DRAW
    assert after.is_terminal()
    assert after.reward() == 0.5
    assert after.winning_cells() == 0
    with pytest.raises(ValueError, match="not available"):
        state.play(15, 3)


def test_the_opening_chooses_a_piece() -> None:
    root = QuartoState.start()
    assert root.hand == -1
    assert root.to_move == 0
    assert [c.hand for c in root.children()] == list(range(16))
    first = root.choose(5)
    assert (first.hand, first.to_move, first.last) == (5, 1, -1)
    assert first.pool == 0xFFFF ^ 1 << 5
    assert len(first.children()) == 16 * 15
    placed = first.play(0, 9)
    assert (placed.piece_at(0), placed.hand, placed.to_move, placed.last) == (5, 9, 0, 0)
    given = QuartoState.start(first_piece=7)
    assert (given.hand, given.to_move, len(given.children())) == (7, 0, 240)


def test_illegal_moves_are_rejected() -> None:
    root = QuartoState.start()
    with pytest.raises(ValueError, match="opening"):
        root.play(0, 1)
    with pytest.raises(ValueError, match="not available"):
        root.choose(16)
    state = root.choose(5).play(0, 9)
    with pytest.raises(ValueError, match="opening"):
        state.choose(3)
    with pytest.raises(ValueError, match="taken"):
        state.play(0, 3)
    with pytest.raises(ValueError, match="0-15"):
        state.play(16, 3)
    for piece in (5, 9, 16, -1):  # on the board, in hand, not a piece
        with pytest.raises(ValueError, match="not available"):
            state.play(1, piece)
    with pytest.raises(ValueError, match="must be handed over"):
        state.play(1, None)
    pieces = line_pieces(0, 1)
    won = three_and_hand(LINES[0], pieces, 0)
    won = won.play(3, spare(won))
    with pytest.raises(ValueError, match="over"):
        won.play(4, spare(won))


def test_from_board_rejects_impossible_positions() -> None:
    with pytest.raises(ValueError, match="16 cells"):
        QuartoState.from_board([-1] * 15, 0, 0)
    with pytest.raises(ValueError, match="only once"):
        QuartoState.from_board([1, 1] + [-1] * 14, 0, 0)
    with pytest.raises(ValueError, match="winning line"):
        QuartoState.from_board([*line_pieces(1, 0), *[-1] * 12], 15, 0)


def test_a_winning_placement_is_one_child() -> None:
    pieces = line_pieces(3, 1)
    state = three_and_hand(LINES[2], pieces, 0)
    kids = state.children()
    wins = [c for c in kids if c.is_terminal()]
    assert [c.last for c in wins] == [LINES[2][3]]
    assert len(kids) == 1 + 12 * 12  # 13 empty cells, 12 pieces to hand over


def test_threats_list_the_winning_attributes() -> None:
    pieces = line_pieces(3, 1)
    state = three_and_hand(LINES[2], pieces, 0)
    assert threats(state.cells, state.empty) == [(LINES[2][3], code(pieces[3]) & 0b1000_1000)]


def test_filtered_children_take_a_win_at_once() -> None:
    pieces = line_pieces(1, 1)
    state = three_and_hand(LINES[5], pieces, 1)
    assert [c.last for c in state.filtered_children()] == [LINES[5][3]]
    assert all(c.status == P1_WON for c in state.filtered_children())
    lazy = QuartoState.from_board(
        [-1 if p < 0 else p for p in _board_of(state)], state.hand, 1, shortcuts(False, False)
    )
    assert lazy.filtered_children() == lazy.children()


def _board_of(state: QuartoState) -> list[int]:
    return [state.piece_at(c) for c in range(16)]


def test_filtered_children_never_hand_over_a_winning_piece() -> None:
    # a3 b3 c3 hold three tall pieces; d3 is empty; the hand is short, so no win at once
    board = [-1] * 16
    board[4], board[5], board[6] = 0b0001, 0b0111, 0b1011
    state = QuartoState.from_board(board, 0b0000, 0)
    filtered = state.filtered_children()
    assert filtered
    for child in filtered:
        if child.last == 7:  # the hole is filled: any piece is safe
            continue
        assert child.hand & 1 == 0, "a tall piece would win on d3"
    tall_given = [c for c in state.children() if c.last != 7 and c.hand & 1]
    assert tall_given  # they exist, and the filter removed them
    assert len(filtered) < len(state.children())


def test_filtered_children_fall_back_when_every_move_loses() -> None:
    # found by random play: no winning placement, and every move hands over a winning piece
    board = [1, -1, 14, 8, 12, -1, 2, 10, 6, 0, -1, 4, -1, -1, 5, 13]
    state = QuartoState.from_board(board, 15, 1)
    kids = state.children()
    assert len(kids) == 5 * 4
    assert not any(c.is_terminal() for c in kids)
    for child in kids:
        assert any(code(child.hand) & common for _, common in threats(child.cells, child.empty))
    assert state.filtered_children() == kids


def test_random_child_is_uniform_over_children() -> None:
    board = [4, 6, 13, -1, 9, -1, 11, 5, -1, 15, 3, 0, 1, 10, 14, 8]
    state = QuartoState.from_board(board, 2, 0)
    kids = state.children()
    assert len([c for c in kids if c.is_terminal()]) == 1  # one child for the win
    assert len(kids) == 1 + 2 * 2  # and 2 cells x 2 pieces to hand over
    rng = random.Random(3)
    counts = Counter(state.random_child(rng) for _ in range(5000))
    assert set(counts) == set(kids)
    assert all(850 <= n <= 1150 for n in counts.values())


def test_random_games_end_and_keys_are_unique_along_a_game() -> None:
    rng = random.Random(9)
    results: Counter[int] = Counter()
    for _ in range(50):
        node = QuartoState.start()
        keys = {node.key()}
        while not node.is_terminal():
            child = node.random_child(rng)
            assert child is not None
            assert child in node.children()
            node = child
            assert node.key() not in keys
            keys.add(node.key())
        results[node.status] += 1
    assert results[P0_WON] + results[P1_WON] + results[DRAW] == 50
    assert results[P0_WON] > 0
    assert results[P1_WON] > 0


def test_domain_options_and_labels() -> None:
    domain = make_domain("quarto", {"first_piece": "TDRH"})
    assert isinstance(domain, QuartoDomain)
    root = domain.root()
    assert (root.hand, root.to_move) == (15, 0)
    assert domain.label(root) == "give TDRH"
    assert domain.label(make_domain("quarto", {}).root()) == "start"
    assert make_domain("quarto", {"first_piece": 3}).root().hand == 3
    child = root.play(5, 0)
    assert domain.label(child) == "TDRH@b3 give SLQF"
    pieces = line_pieces(0, 1)
    won = three_and_hand(LINES[0], pieces, 0)
    assert domain.label(won.play(3, spare(won))) == f"{piece_name(pieces[3])}@d4 wins"
    lazy = make_domain("quarto", {"win_at_once": False, "safe_handover": False}).root()
    assert lazy.shortcuts == shortcuts(False, False)
    assert set(domain.values()) == {"outcome"}


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"first_piece": 16}, "first_piece"),
        ({"first_piece": "XYZW"}, "first_piece"),
        ({"first_piece": 1.5}, "first_piece"),
        ({"win_at_once": 1}, "win_at_once"),
        ({"difficulty": 3}, "difficulty"),
    ],
)
def test_bad_options_name_the_key(table: dict[str, object], key: str) -> None:
    with pytest.raises(OptionError) as info:
        make_domain("quarto", table)
    assert info.value.key == key


def opponent_wins_at_once(child: QuartoState) -> bool:
    return any(g.status in (P0_WON, P1_WON) for g in child.children())


@pytest.mark.parametrize("seed", range(6))
def test_filtered_children_match_their_definition_on_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    node = QuartoState.start()
    checked = 0
    while not node.is_terminal():
        if node.hand >= 0:
            kids = node.children()
            wins = [c for c in kids if c.status in (P0_WON, P1_WON)]
            if wins:
                expected = wins
            else:
                expected = [c for c in kids if c.is_terminal() or not opponent_wins_at_once(c)]
                expected = expected or kids
            assert node.filtered_children() == expected
            lazy = node._replace(shortcuts=shortcuts(False, True))
            safe = [c for c in kids if c.is_terminal() or not opponent_wins_at_once(c)]
            assert lazy.filtered_children() == [
                c._replace(shortcuts=lazy.shortcuts) for c in (safe or kids)
            ]
            checked += 1
        child = node.random_child(rng)
        assert child is not None
        node = child
    assert checked >= 7
