"""Railroad Ink in words: the status strip's fields, move captions and values.

Captions must name what the picture shows: the described cell is the one whose tile changed
in the view's grid, the described die is the one the row under the board greys out.
"""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest
from conftest import BoardMaker

from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.railroad import RailroadDomain
from searchvid.domains.railroad.game import FACE_NAMES, GameState
from searchvid.domains.railroad.grid import INTERIOR, SIZE
from searchvid.domains.railroad.network import game_score, largest_network
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.tiles import BASE_TILES, TILES, code_name
from searchvid.domains.railroad.view import TILE_NAMES, RailroadView
from searchvid.domains.railroad.words import TILE_WORDS, board_figures, cell_name, tile_words
from searchvid.render.view import TileGrid

CODE = {t.name: t.id + 1 for t in TILES}
FACE = {name: i for i, name in enumerate(FACE_NAMES)}
WORDS_TO_BASE = {words: base for base, words in TILE_WORDS.items()}
ROAD_ACROSS_ROW_4 = {(4, col): "road-straight-r90" for col in range(1, 8)}  # exits (4,0)-(4,8)
CELL = re.compile(r"\b([A-G])([1-7])\b")


def _domain(rules: str = "puzzle") -> RailroadDomain:
    domain = make_domain("railroad", {"rules": rules})
    assert isinstance(domain, RailroadDomain)
    return domain


def _texts(domain: RailroadDomain, node: Board | GameState) -> list[str]:
    return [field.text() for field in domain.status(node)]


def _grid_cell(name: str) -> tuple[int, int]:
    """The view's (row, col) of a cell named like ``C4``."""
    match = CELL.fullmatch(name)
    assert match, name
    return SIZE - 1 - int(match[2]), 1 + "ABCDEFG".index(match[1])


def _walk(root: Board | GameState, seed: int) -> list[Board | GameState]:
    rng = random.Random(seed)
    line = [root]
    while (child := line[-1].random_child(rng)) is not None:
        line.append(child)
    return line


# --- names ---------------------------------------------------------------------------------


def test_cells_are_named_like_a_chess_board_as_drawn() -> None:
    assert cell_name(7 * SIZE + 1) == "A1"  # the interior's bottom-left corner
    assert cell_name(1 * SIZE + 7) == "G7"  # its top-right corner
    assert cell_name(4 * SIZE + 3) == "C4"
    assert cell_name(2 * SIZE + 7) == "G6"  # beside the rail exit on the right border
    assert sorted(cell_name(c) for c in INTERIOR) == sorted(
        f"{col}{row}" for col in "ABCDEFG" for row in range(1, 8)
    )
    for border in (0, 2, 4 * SIZE, 4 * SIZE + 8, 80):
        with pytest.raises(ValueError, match="not in the board's interior"):
            cell_name(border)


def test_every_base_tile_has_a_readable_name() -> None:
    assert set(TILE_WORDS) == {base.name for base in BASE_TILES}
    assert len(set(TILE_WORDS.values())) == len(TILE_WORDS)
    assert tile_words(CODE["rail-curve-r90"]) == "rail curve"
    assert tile_words(CODE["road-t-r270"]) == "road T"
    assert tile_words(CODE["station-curve-mirror-r0"]) == "curved station"
    assert tile_words(CODE["overpass-r0"]) == "overpass"
    with pytest.raises(ValueError, match="not a tile"):
        tile_words(0)
    with pytest.raises(ValueError, match="not a tile"):
        tile_words(len(TILES) + 1)  # the first exit


# --- status --------------------------------------------------------------------------------


def test_status_of_the_empty_board(make_board: BoardMaker) -> None:
    assert _texts(_domain(), Board.start()) == ["exits joined 0/12", "points 0"]


def test_status_counts_the_largest_network_and_the_game_score(make_board: BoardMaker) -> None:
    board = make_board(ROAD_ACROSS_ROW_4, "basic")
    # two exits joined (4 points), a road of 7 cells, 3 centre cells, no open ends
    assert game_score(board.cells).total == 4 + 7 + 3
    assert _texts(_domain(), board) == ["exits joined 2/12", "points 14"]


@pytest.mark.parametrize("seed", range(3))
def test_status_agrees_with_the_network_and_score_functions(seed: int) -> None:
    domain = _domain()
    for node in _walk(Board.start(), seed):
        exits, score = largest_network(node.cells), game_score(node.cells).total
        assert _texts(domain, node) == [f"exits joined {exits}/12", f"points {score}"]


def test_status_figures_are_cached_per_board() -> None:
    board = _walk(Board.start(), 0)[-1]
    assert isinstance(board, Board)
    board_figures.cache_clear()
    first = _domain().status(board)
    again = _domain().status(Board(bytes(board.cells), board.rules))  # an equal, new board
    assert first == again
    info = board_figures.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_status_under_the_game_rules_leads_with_the_round(make_board: BoardMaker) -> None:
    domain = _domain("game")
    assert _texts(domain, GameState.start()) == ["round 1/7", "exits joined 0/12", "points 0"]
    mid = GameState(make_board(ROAD_ACROSS_ROW_4).cells, round=3, dice=(1,))
    assert _texts(domain, mid) == ["round 3/7", "exits joined 2/12", "points 14"]
    over = _walk(GameState.start(), 1)[-1]
    assert over.is_terminal()
    texts = _texts(domain, over)
    assert texts[0] == "game over"
    assert texts[2] == f"points {game_score(over.cells).total}"


# --- moves under the puzzle rules -------------------------------------------------------------


def test_a_placement_is_the_tile_and_its_cell(make_board: BoardMaker) -> None:
    domain = _domain()
    parent = Board.start()
    child = parent.place(4 * SIZE + 3, CODE["road-t-r0"])
    assert domain.describe_move(parent, child) == "road T at C4"
    child = parent.place(2 * SIZE + 7, CODE["rail-curve-r180"])
    assert domain.describe_move(parent, child) == "rail curve at G6"
    child = parent.place(7 * SIZE + 1, CODE["station-straight-r0"])
    assert domain.describe_move(parent, child) == "straight station at A1"


def test_what_is_not_one_placement_has_no_words(make_board: BoardMaker) -> None:
    domain = _domain()
    parent = Board.start()
    one = parent.place(4 * SIZE + 3, CODE["road-t-r0"])
    two = one.place(4 * SIZE + 4, CODE["road-t-r0"])
    assert domain.describe_move(parent, parent) is None
    assert domain.describe_move(parent, two) is None  # two tiles at once
    assert domain.describe_move(one, parent) is None  # a tile taken away
    swapped = one.place(4 * SIZE + 3, CODE["rail-t-r0"])
    assert domain.describe_move(one, swapped) is None  # a tile replaced
    assert domain.describe_move(parent, GameState.start()) is None


def _check_placement_matches_the_view(
    text: str, before: TileGrid, after: TileGrid, child: Board | GameState
) -> None:
    """The described tile appears at the described cell of the grid, which was free before."""
    match = re.search(r"(?:^|: )([a-zA-Z ]+) at ([A-G][1-7])\b", text)
    assert match, text
    row, col = _grid_cell(match[2])
    assert TILE_NAMES[before[row, col]] in ("open", "empty-cell"), text
    assert _unbarred(after[row, col]) == code_name(child.cells[row * SIZE + col])
    assert TILES[child.cells[row * SIZE + col] - 1].base == WORDS_TO_BASE[match[1]], text
    changed = {(int(r), int(c)) for r, c in np.argwhere(before[:SIZE] != after[:SIZE])}
    placed = {
        rc
        for rc in changed
        if _unbarred(after[rc]) not in ("open", "empty-cell", _unbarred(before[rc]))
    }
    # nothing else got a tile (open markers may move, error barriers may appear)
    assert placed == {(row, col)}, text


def _unbarred(tile: int) -> str:
    """The name of tile id ``tile`` without its error barriers."""
    return TILE_NAMES[tile].split("+error-")[0]


@pytest.mark.parametrize("seed", range(2))
def test_puzzle_captions_name_the_cell_that_changes_in_the_picture(seed: int) -> None:
    domain = _domain()
    view = domain.view()
    for parent in _walk(Board.start(), seed)[::6]:
        before = view.grid(parent)
        for child in parent.children():
            text = domain.describe_move(parent, child)
            assert text is not None
            _check_placement_matches_the_view(text, before, view.grid(child), child)


# --- moves under the game rules ---------------------------------------------------------------


def _strip(view: RailroadView, node: GameState) -> list[str]:
    return [TILE_NAMES[i] for i in view.grid(node)[SIZE]]


def _die_words(tile: str) -> str:
    """The words of the face a die tile of the row shows (``die-rail-t-placed``)."""
    face = tile.removeprefix("die-").removesuffix("-placed").removesuffix("-skipped")
    return TILE_WORDS[face]


def test_equal_dice_are_numbered_as_the_row_greys_them_out() -> None:
    domain = _domain("game")
    curve, rail_curve, overpass = FACE["road-curve"], FACE["rail-curve"], FACE["overpass"]
    state = GameState(dice=(curve, rail_curve, rail_curve, overpass))
    first = next(k for k in state.children() if k.dice == (curve, rail_curve, overpass))
    text = domain.describe_move(state, first)
    assert text is not None
    assert re.fullmatch(r"die 2: rail curve at [A-G][1-7]", text)
    second = next(k for k in first.children() if k.dice == (curve, overpass))
    text = domain.describe_move(first, second)
    assert text is not None
    assert re.fullmatch(r"die 3: rail curve at [A-G][1-7]", text)
    last = next(k for k in second.children() if k.dice == (curve,))
    assert (domain.describe_move(second, last) or "").startswith("die 4: overpass at ")


def test_a_roll_is_the_four_dice_as_the_row_shows_them() -> None:
    domain = _domain("game")
    root = GameState.start()
    roll = (FACE["road-curve"], FACE["rail-straight"], FACE["rail-t"], FACE["overpass"])
    child = next(k for _, k in root.outcomes() if k.dice == roll)
    assert domain.describe_move(root, child) == "roll: road curve, rail straight, rail T, overpass"
    station = (FACE["road-straight"],) * 3 + (FACE["station-curve"],)
    child = next(k for _, k in root.outcomes() if k.dice == station)
    assert domain.describe_move(root, child) == (
        "roll: road straight, road straight, road straight, curved station"
    )
    view = domain.view()
    assert isinstance(view, RailroadView)
    words = [_die_words(name) for name in _strip(view, child)[1:5]]
    assert "roll: " + ", ".join(words) == domain.describe_move(root, child)


def test_a_special_route_and_the_end_of_a_round() -> None:
    domain = _domain("game")
    road = FACE["road-straight"]
    state = GameState(dice=(road,), round=3)
    drawn = next(k for k in state.children() if k.dice == ())
    text = domain.describe_move(state, drawn)
    assert text is not None
    assert re.fullmatch(r"die 1: road straight at [A-G][1-7]", text)
    kids = list(drawn.children())
    assert domain.describe_move(drawn, kids[-1]) == "end round 3"
    special = kids[0]
    assert special.is_chance()  # the special drew the last piece: the round ends with it
    text = domain.describe_move(drawn, special)
    assert text is not None
    assert re.fullmatch(r"special: [a-z ]+ at [A-G][1-7], round 3 over", text)


def test_the_last_move_of_the_game_says_so() -> None:
    line = _walk(GameState.start(), 1)
    domain = _domain("game")
    text = domain.describe_move(line[-2], line[-1])
    assert text is not None
    assert text.endswith(", game over") or text == "end round 7"


def test_a_roll_where_nothing_fits_ends_the_round(make_board: BoardMaker) -> None:
    full = make_board({divmod(cell, SIZE): "overpass-r0" for cell in INTERIOR})
    parent = GameState(full.cells, round=2, specials_used=0b000111)  # no special route left
    (child,) = [k for _, k in parent.outcomes()]  # no empty cell: every roll ends the round
    assert child.is_chance()
    assert child.round == 3
    words = ", ".join(TILE_WORDS[FACE_NAMES[face]] for face in child.roll)
    assert _domain("game").describe_move(parent, child) == (
        f"roll: {words}; nothing fits, round 2 over"
    )


@pytest.mark.parametrize("seed", range(3))
def test_game_captions_match_the_board_and_the_row_of_dice(seed: int) -> None:
    domain = _domain("game")
    view = domain.view()
    assert isinstance(view, RailroadView)
    for parent, child in itertools.pairwise(_walk(GameState.start(), seed)):
        assert isinstance(parent, GameState)
        assert isinstance(child, GameState)
        text = domain.describe_move(parent, child)
        assert text is not None, (parent, child)
        before, after = view.grid(parent), view.grid(child)
        if text.startswith("roll: "):
            shown = [_die_words(name) for name in _strip(view, child)[1:5]]
            assert text.split("; ")[0] == "roll: " + ", ".join(shown)
            continue
        if text.startswith("end round"):
            assert np.array_equal(before[:SIZE], after[:SIZE])
            continue
        _check_placement_matches_the_view(text, before, after, child)
        die = re.match(r"die (\d): ", text)
        if die:
            column = int(die[1])  # the round's tile comes first in the row
            name = _strip(view, parent)[column]
            assert not name.endswith(("-placed", "-skipped")), text
            assert _strip(view, child)[column] == name + "-placed", text
            assert name == f"die-{WORDS_TO_BASE[text.split(': ')[1].split(' at ')[0]]}"
        else:
            assert text.startswith("special: ")
            new = set(_strip(view, child)[6:]) - set(_strip(view, parent)[6:])
            base = WORDS_TO_BASE[text.split(": ")[1].split(" at ")[0]]
            assert new == {f"special-{base}"}, text


# --- values and conformance -------------------------------------------------------------------


def test_only_a_joined_board_has_words_for_its_value() -> None:
    domain = _domain()
    assert domain.describe_value(1.0) == "all 12 exits joined"
    for value in (0.0, 0.25, 0.5, 9 / 12, 0.95):
        assert domain.describe_value(value) is None
    assert _domain("game").describe_value(1.0) == "all 12 exits joined"


@pytest.mark.parametrize("rules", ["puzzle", "game"])
def test_the_domain_still_passes_the_conformance_checks(rules: str) -> None:
    assert check_domain(_domain(rules)) == []
