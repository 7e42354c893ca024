"""Rules of n x n tic-tac-toe: lines, move order, wins, draws, keys and random moves."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.domains import make_domain
from searchvid.domains.tictactoe import TicTacToeDomain
from searchvid.domains.tictactoe.rules import (
    DRAW,
    O_WON,
    ONGOING,
    X_WON,
    Board,
    geometry,
    lines_value,
    outcome_value,
)
from searchvid.errors import OptionError

G3 = geometry(3, 3)


def board(text: str, size: int = 3, k: int | None = None) -> Board:
    return Board.parse(text, geometry(size, k or size))


def cells_of(children: Iterable[Board]) -> list[int]:
    return [child.last for child in children]


@pytest.mark.parametrize(
    ("size", "k", "lines"),
    [(3, 3, 8), (4, 4, 10), (4, 3, 24), (5, 4, 28), (6, 6, 14)],
)
def test_number_of_winning_lines(size: int, k: int, lines: int) -> None:
    assert len(geometry(size, k).lines) == lines


def test_static_move_order_puts_the_centre_first() -> None:
    assert G3.order == (4, 0, 2, 6, 8, 1, 3, 5, 7)
    assert geometry(4, 4).order[:4] == (5, 6, 9, 10)
    assert geometry(4, 4).order[4:8] == (0, 3, 12, 15)


def test_the_empty_board() -> None:
    start = Board.start(G3)
    assert start.to_move == 0
    assert not start.is_terminal()
    assert start.reward() == 0.5
    assert cells_of(start.children()) == [4, 0, 2, 6, 8, 1, 3, 5, 7]
    assert all(child.to_move == 1 for child in start.children())


def test_parse_and_text_round_trip() -> None:
    b = board("X.O/.X./...")
    assert b.text() == "X.O/.X./..."
    assert b.to_move == 1
    assert b.x == 0b000010001
    assert b.o == 0b000000100
    assert board("x.o .x. ...") == b


@pytest.mark.parametrize(
    "text", ["X../...", "X.O/.X./..?", "XXX/.../...", "XXX/OOO/...", "OO./.../..."]
)
def test_parse_rejects_impossible_boards(text: str) -> None:
    with pytest.raises(ValueError, match=r"."):
        board(text)


@pytest.mark.parametrize(
    ("text", "size", "k", "reason"),
    [
        ("XXX/OO./O..", 3, 3, "X has a line, so X moved last"),  # the issue: yet X is to move
        ("OOO/XX./XX.", 3, 3, "O has a line, so O moved last"),  # the issue: X moved after
        ("X.O/XO./XO.", 3, 3, "yet X is to move"),
        ("OOO/XX./X.X", 3, 3, "yet O is to move"),
        ("XXX./OO.O/XXX./O.O.", 4, 3, "X's lines share no cell"),  # two disjoint rows of 3
        ("XXX./O.O./OXO./X..O", 4, 3, "yet X is to move"),
        ("O.X./O.X./O..X/X...", 4, 3, "yet O is to move"),
        ("XXXX/OOO./O.../....", 4, 4, "yet X is to move"),
    ],
)
def test_parse_rejects_positions_no_game_reaches(text: str, size: int, k: int, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        board(text, size, k)


@pytest.mark.parametrize(
    ("text", "size", "k", "status"),
    [
        ("XXX/OXO/XOO", 3, 3, X_WON),  # a row and a diagonal, both through the last move c3
        ("XXX/OO./...", 3, 3, X_WON),
        ("OOO/XX./X..", 3, 3, O_WON),
        ("XOX/XOO/OXX", 3, 3, DRAW),
        ("XX./OO./...", 3, 3, ONGOING),
        ("XXXX/OO../OO../X...", 4, 3, X_WON),  # two overlapping lines of 3 in a row of 4
        ("XXX./OX.O/.X../O.O.", 4, 3, X_WON),  # a row and a column meeting at b4
        ("OXX./OX../O.../....", 4, 3, O_WON),
        ("XO../.XO./..../....", 4, 3, ONGOING),
    ],
)
def test_parse_accepts_positions_a_game_reaches(text: str, size: int, k: int, status: int) -> None:
    assert board(text, size, k).status == status


def reachable_by_replay(x: int, o: int, size: int, k: int) -> bool:
    """Whether a legal game reaches the position: take back the last move every way."""
    lines = geometry(size, k).lines

    def has_line(bits: int) -> bool:
        return any(bits & m == m for m in lines)

    @functools.cache
    def reach(x: int, o: int) -> bool:
        lead = x.bit_count() - o.bit_count()
        if lead not in (0, 1):
            return False
        if x == o == 0:
            return True
        mover = x if lead else o  # who made the last move
        for cell in range(size * size):
            bit = 1 << cell
            if mover & bit:
                before = (x & ~bit, o) if lead else (x, o & ~bit)
                if not has_line(before[0]) and not has_line(before[1]) and reach(*before):
                    return True
        return False

    return reach(x, o)


def accepted(marks: str, size: int, k: int) -> bool:
    """Whether ``Board.parse`` accepts the cells ``marks`` (row by row, no separators)."""
    try:
        board(" ".join(marks[r * size : (r + 1) * size] for r in range(size)), size, k)
    except ValueError:
        return False
    return True


def bits_of(marks: str, mark: str) -> int:
    return sum(1 << i for i, m in enumerate(marks) if m == mark)


def test_parse_accepts_exactly_the_reachable_3x3_positions() -> None:
    legal = 0
    for cells in itertools.product(".XO", repeat=9):
        marks = "".join(cells)
        expected = reachable_by_replay(bits_of(marks, "X"), bits_of(marks, "O"), 3, 3)
        assert accepted(marks, 3, 3) == expected, marks
        legal += expected
    assert legal == 5478


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([(4, 3), (5, 3), (5, 4), (6, 4)]), st.data())
def test_parse_agrees_with_replay_when_k_is_below_size(
    shape: tuple[int, int], data: st.DataObject
) -> None:
    size, k = shape
    order = data.draw(st.permutations(range(size * size)))
    count = data.draw(st.integers(0, size * size))
    cells = ["."] * (size * size)
    for i, cell in enumerate(order[:count]):  # counts always right: X first, then O
        cells[cell] = "X" if i < (count + 1) // 2 else "O"
    marks = "".join(cells)
    expected = reachable_by_replay(bits_of(marks, "X"), bits_of(marks, "O"), size, k)
    assert accepted(marks, size, k) == expected, marks


def test_children_order_block_first() -> None:
    # X threatens a3-b2-c1: O's only sensible move is the block on c1 (cell 8)
    assert cells_of(board("X.O/.X./...").children()) == [8, 6, 1, 3, 5, 7]


def test_children_order_win_then_block_then_rest() -> None:
    assert cells_of(board("XX./OO./...").children()) == [2, 5, 6, 8, 7]


@pytest.mark.parametrize(
    ("text", "cell", "status"),
    [
        ("XX./OO./...", 2, X_WON),  # row
        ("X.O/XO./...", 6, X_WON),  # column
        ("XO./OX./...", 8, X_WON),  # diagonal
        ("O.X/OX./...", 6, X_WON),  # anti-diagonal
        ("XX./OO./X..", 5, O_WON),  # O's row
        ("XOX/XOO/O.X", 7, DRAW),  # the board fills without a line
        ("XOX/XO./O..", 5, ONGOING),
    ],
)
def test_a_move_ends_the_game(text: str, cell: int, status: int) -> None:
    after = board(text).play(cell)
    assert after.status == status
    assert after.is_terminal() == (status != ONGOING)
    assert after.reward() == {X_WON: 1.0, O_WON: 0.0, DRAW: 0.5, ONGOING: 0.5}[status]
    assert after.last == cell
    if status != ONGOING:
        assert list(after.children()) == []
        assert after.random_child(random.Random(0)) is None


def test_winning_lines_are_reported() -> None:
    after = board("XX./OO./...").play(2)
    assert after.winning_lines() == (0b000000111,)
    double = board("XX./OXO/XOO").play(2)  # completes the row and the anti-diagonal
    assert double.winning_lines() == (0b000000111, 0b001010100)
    assert board("XX./OO./...").winning_lines() == ()


def test_illegal_moves_are_rejected() -> None:
    b = board("X.O/.X./...")
    with pytest.raises(ValueError, match="taken"):
        b.play(0)
    with pytest.raises(ValueError, match="off the"):
        b.play(9)
    with pytest.raises(ValueError, match="over"):
        board("XX./OO./...").play(2).play(8)


def test_every_reachable_position_once() -> None:
    # 5,478 legal positions are reachable in 3x3 tic-tac-toe, 765 up to symmetry
    seen = {(Board.start(G3).x, Board.start(G3).o): Board.start(G3)}
    frontier = [Board.start(G3)]
    while frontier:
        node = frontier.pop()
        for child in node.children():
            if (child.x, child.o) not in seen:
                seen[child.x, child.o] = child
                frontier.append(child)
    assert len(seen) == 5478
    assert len({b.key() for b in seen.values()}) == 765
    plain = geometry(3, 3, symmetric=False)
    assert len({Board.parse(b.text(), plain).key() for b in seen.values()}) == 5478


def rotate(text: str) -> str:
    rows = text.split("/")
    n = len(rows)
    return "/".join("".join(rows[n - 1 - c][r] for c in range(n)) for r in range(n))


def mirror(text: str) -> str:
    return "/".join(row[::-1] for row in text.split("/"))


@pytest.mark.parametrize(
    "text", ["XO./..X/...", "X.../.O../..X./O...", "XO.../.X.../..O../...../....."]
)
def test_keys_identify_the_eight_symmetries(text: str) -> None:
    images = {text}
    for _ in range(3):
        images |= {rotate(t) for t in images} | {mirror(t) for t in images}
    size = text.count("/") + 1
    assert len(images) == 8
    assert len({board(t, size).key() for t in images}) == 1
    plain = geometry(size, size, symmetric=False)
    assert len({Board.parse(t, plain).key() for t in images}) == 8
    other = text.replace("X", "x", 1).replace(".", "X", 1).replace("x", ".")
    assert board(other, size).key() != board(text, size).key()


def test_symmetric_key_is_kept_up_to_date_move_by_move() -> None:
    rng = random.Random(5)
    node = Board.start(geometry(4, 4))
    while not node.is_terminal():
        child = node.random_child(rng)
        assert child is not None
        node = child
        assert node.key() == Board.parse(node.text(), node.geo).key()


def test_random_child_is_uniform_over_children() -> None:
    node = board("X.O/.X./...")
    rng = random.Random(1)
    counts = Counter(node.random_child(rng) for _ in range(6000))
    assert set(counts) == set(node.children())
    assert all(900 <= n <= 1100 for n in counts.values())


def test_outcome_value() -> None:
    assert outcome_value(board("XX./OO./...").play(2)) == 1.0
    assert outcome_value(board("XX./OO./X..").play(5)) == 0.0
    assert outcome_value(board("XX./OO./...")) == 0.5


def test_lines_value_prefers_the_side_with_more_open_lines() -> None:
    assert lines_value(Board.start(G3)) == 0.5
    centre = Board.start(G3).play(4)
    edge = Board.start(G3).play(1)
    assert 0.5 < lines_value(edge) < lines_value(centre) < 0.9
    assert lines_value(board("XX./OO./...").play(2)) == 1.0
    assert lines_value(board("XX./OO./X..").play(5)) == 0.0
    corner_x, centre_o = board("X../.O./..."), board("O../.X./...")
    assert 0.1 < lines_value(corner_x) < 0.5
    assert lines_value(corner_x) + lines_value(centre_o) == pytest.approx(1.0)


def test_domain_options_and_labels() -> None:
    domain = make_domain("tictactoe", {"size": 4, "k": 3})
    assert isinstance(domain, TicTacToeDomain)
    root = domain.root()
    assert root.geo.size == 4
    assert root.geo.k == 3
    assert domain.label(root) == "..../..../..../...."
    child = root.play(5).play(0)
    assert domain.label(child) == "O.../.X../..../.... O:a4"
    assert domain.label(root.play(5)) == "..../.X../..../.... X:b3"
    assert make_domain("tic-tac-toe", {}).root().geo.k == 3
    start = make_domain("tictactoe", {"position": "XX./OO./..."}).root()
    assert start.text() == "XX./OO./..."
    assert set(domain.values()) == {"outcome", "lines"}


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"size": 3, "k": 4}, "k"),
        ({"size": 2}, "size"),
        ({"size": 9}, "size"),
        ({"k": 2}, "k"),
        ({"position": "XXX/.../..."}, "position"),
        ({"position": "XXX/OO./O.."}, "position"),
        ({"position": "OOO/XX./XX."}, "position"),
        ({"size": 4, "k": 3, "position": "XXX./OO.O/XXX./O.O."}, "position"),
        ({"symmetric": "yes"}, "symmetric"),
    ],
)
def test_bad_options_name_the_key(table: dict[str, object], key: str) -> None:
    with pytest.raises(OptionError) as info:
        make_domain("tictactoe", table)
    assert info.value.key == key
