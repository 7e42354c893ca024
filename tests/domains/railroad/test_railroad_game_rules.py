"""Railroad Ink game rules: placement, forced play, special routes, rounds, scoring, domain."""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import numpy as np
import pytest
from conftest import BoardMaker
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.domains.railroad.game import (
    FACE_NAMES,
    MAX_SPECIALS,
    PIECE_NAMES,
    ROUNDS,
    SPECIAL_NAMES,
    GameState,
    game_rules,
)
from searchvid.domains.railroad.grid import FREE, INTERIOR, constraint_key, fits, fits_game
from searchvid.domains.railroad.network import Score, game_score, open_ends
from searchvid.domains.railroad.rules import Board, tile_rules
from searchvid.domains.railroad.tiles import TILES, Side, code_groups, code_name
from searchvid.domains.railroad.values import SCORE_RANGE, score_value
from searchvid.domains.railroad.view import (
    ERROR_TILE_NAMES,
    STRIP_TILE_NAMES,
    TILE_NAMES,
    strip_names,
)
from searchvid.errors import OptionError
from searchvid.search.node import Capability, capabilities_of

CODE = {t.name: t.id + 1 for t in TILES}
FACE = {name: i for i, name in enumerate(FACE_NAMES)}
ISSUE_EXAMPLE = {(1, 2): "road-curve-r0", (1, 3): "road-straight-r90"}  # cells 11 and 12
# Stations in front of the six rail exits turn every rail into a road: no rail route fits.
RAIL_CLOSED = {
    (1, 4): "station-straight-r180",
    (2, 1): "station-straight-r90",
    (2, 7): "station-straight-r270",
    (6, 1): "station-straight-r90",
    (6, 7): "station-straight-r270",
    (7, 4): "station-straight-r0",
}
ALL_BUT_THREE = 0b000111  # specials 0-2 used: no more may be drawn


def _game() -> RailroadDomain:
    domain = make_domain("railroad", {"rules": "game"})
    assert isinstance(domain, RailroadDomain)
    return domain


def _state(make_board: BoardMaker, placed: dict[tuple[int, int], str], **kw: Any) -> GameState:
    return GameState(make_board(placed).cells, **kw)


def _placed(parent: GameState, child: GameState) -> list[str]:
    return [code_name(child.cells[c]) for c in INTERIOR if parent.cells[c] != child.cells[c]]


def _playout(seed: int) -> list[GameState]:
    rng = random.Random(seed)
    line = [GameState.start()]
    while not line[-1].is_terminal():
        child = line[-1].random_child(rng)
        assert child is not None
        line.append(child)
    return line


# --- options, domain, puzzle unchanged -------------------------------------------------------


def test_rules_default_to_the_puzzle_and_game_starts_before_the_first_roll() -> None:
    puzzle = make_domain("railroad", {})
    assert puzzle.options == RailroadOptions(tiles="basic", rules="puzzle")
    assert puzzle.root() == Board.start("basic")
    assert sorted(puzzle.values()) == ["network", "partial", "score"]
    assert puzzle.view().shape == (9, 9)
    game = _game()
    assert game.root() == GameState.start()
    assert game.root().is_chance()
    assert sorted(game.values()) == ["network", "outlook", "partial", "score"]
    assert game.view().shape == (10, 9)
    with pytest.raises(OptionError, match="tiles"):
        make_domain("railroad", {"rules": "game", "tiles": "all"})
    with pytest.raises(OptionError, match="rules"):
        make_domain("railroad", {"rules": "dice"})


def test_the_puzzle_view_keeps_its_tile_ids_and_grid() -> None:
    assert TILE_NAMES[: 1 + 58 + 8 + 2][-2:] == ("empty-cell", "open")
    assert TILE_NAMES[1 + 58 + 8 + 2 :] == STRIP_TILE_NAMES + ERROR_TILE_NAMES
    grid = make_domain("railroad", {}).view().grid(Board.start())
    assert grid.shape == (9, 9)
    assert int(grid.max()) < 1 + 58 + 8 + 2


def test_game_states_declare_chance_and_the_usual_capabilities() -> None:
    assert capabilities_of(GameState.start()) == {
        Capability.TERMINAL,
        Capability.REWARD,
        Capability.KEY,
        Capability.RANDOM_CHILD,
        Capability.CHANCE,
    }


def test_the_game_passes_every_conformance_check() -> None:
    assert check_domain(_game()) == []


# --- placement: the blank-side rule ----------------------------------------------------------


def test_fits_game_forbids_only_road_against_rail_and_needs_a_join() -> None:
    def key(n: int, e: int, s: int, w: int) -> int:
        return n | e << 2 | s << 4 | w << 6

    road_ns = (1, 0, 1, 0)
    assert fits_game(road_ns, key(1, FREE, FREE, FREE))
    assert not fits_game(road_ns, key(FREE, FREE, FREE, FREE))  # joins nothing
    assert not fits_game(road_ns, key(2, FREE, FREE, FREE))  # road against rail
    assert fits_game(road_ns, key(1, FREE, 0, FREE))  # a road end against a blank side
    assert fits_game(road_ns, key(1, 2, FREE, 1))  # blank sides against routes
    assert not fits_game(road_ns, key(0, 1, 0, 1))  # only blank sides meet routes: no join
    assert not fits_game(road_ns, key(1, FREE, 2, FREE))  # joined, but road against rail
    # The puzzle's rule refuses what the game allows.
    assert not fits(road_ns, key(1, FREE, 0, FREE))
    assert not fits(road_ns, key(1, 2, FREE, 1))


def test_the_issue_example_is_legal_in_the_game_and_refused_in_the_puzzle(
    make_board: BoardMaker,
) -> None:
    # Road curve at cell 11, straight road at 12; a straight station at 13 joins the rail
    # exit above it, its blank west side facing the road's end.
    board = make_board(ISSUE_EXAMPLE, tiles="basic")
    station = CODE["station-straight-r180"]
    key = constraint_key(board.cells, 13)
    assert station in game_rules().piece_choices[FACE["station-straight"]][key]
    assert station not in tile_rules("basic").choices[key]
    assert station not in tile_rules("all").choices[key]
    assert not any(child.cells[13] == station for child in board.children())
    state = GameState(board.cells, dice=(FACE["station-straight"],), specials_used=ALL_BUT_THREE)
    assert any(child.cells[13] == station for child in state.children())


def test_road_touching_rail_is_refused_under_both_rules(make_board: BoardMaker) -> None:
    board = make_board(ISSUE_EXAMPLE, tiles="basic")
    rail = CODE["rail-straight-r90"]  # its west rail would touch the road's end
    key = constraint_key(board.cells, 13)
    assert rail not in game_rules().choices[key]
    assert rail not in tile_rules("all").choices[key]
    # A rail straight N-S below the rail exit joins it and shows the road its blank side.
    assert CODE["rail-straight-r0"] in game_rules().choices[key]


def test_a_blank_side_may_face_an_exit(make_board: BoardMaker) -> None:
    # A straight road east-west under the rail exit at (0, 4), joining the road from cell 12.
    board = make_board(ISSUE_EXAMPLE, tiles="basic")
    road = CODE["road-straight-r90"]
    key = constraint_key(board.cells, 13)
    assert road in game_rules().piece_choices[FACE["road-straight"]][key]
    assert road not in tile_rules("basic").choices[key]


def test_a_route_must_join_a_route_or_an_exit() -> None:
    state = GameState(dice=(0, 3, 6), specials_used=ALL_BUT_THREE)
    cells = {next(c for c in INTERIOR if kid.cells[c]) for kid in state.children()}
    assert cells == set(Board.start().open_cells())  # only the cells next to the exits
    assert 40 not in cells  # the centre joins nothing


@functools.cache
def _side(code: int, side: Side) -> int:
    for group in code_groups(code):
        for s, t in group:
            if s is side:
                return int(t)
    return 0


_STEP = {Side.N: -9, Side.E: 1, Side.S: 9, Side.W: -1}


def _legal(cells: bytes, cell: int, code: int) -> bool:
    """The game's placement rule, from the connection groups alone."""
    if cells[cell]:
        return False
    joined = False
    for side, step in _STEP.items():
        other = cells[cell + step]
        if not other:
            continue
        mine, theirs = _side(code, side), _side(other, side.opposite)
        if mine and theirs and mine != theirs:
            return False
        joined |= bool(mine) and mine == theirs
    return joined


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_decision_children_are_exactly_the_legal_placements(seed: int) -> None:
    rules = game_rules()
    for parent in _playout(seed):
        if parent.is_chance() or parent.is_terminal():
            continue
        expected = []
        assert parent.dice is not None
        pieces = sorted(set(parent.dice))
        if parent.special_open:
            pieces += [9 + i for i in range(6) if not parent.specials_used >> i & 1]
        for piece in pieces:
            for cell in INTERIOR:
                for code in rules.piece_codes[piece]:
                    if _legal(parent.cells, cell, code):
                        expected.append((cell, code))
        kids = list(parent.children())
        placed = [(c, k.cells[c]) for k in kids for c in INTERIOR if k.cells[c] != parent.cells[c]]
        assert placed == expected
        assert len(kids) - len(placed) == int(parent.can_end_round())


# --- forced play -----------------------------------------------------------------------------


def test_a_die_that_fits_nowhere_is_skipped(make_board: BoardMaker) -> None:
    rail, road = FACE["rail-straight"], FACE["road-straight"]
    state = _state(make_board, RAIL_CLOSED, dice=(rail, road), specials_used=ALL_BUT_THREE)
    assert {PIECE_NAMES[p] for p, _, _ in state.moves()} == {"road-straight"}
    assert not state.can_end_round()  # the road still fits: it must be drawn
    kids = list(state.children())
    assert len(kids) == 12  # six road exits and six station road ends
    for kid in kids:
        assert _placed(state, kid)[0].startswith("road-straight")
        # the rail fits nowhere even now: the round is over, the rail die skipped
        assert kid.is_chance()
        assert kid.round == 2
        assert kid.skipped == (rail,)


def test_settle_ends_a_round_where_nothing_may_be_drawn(make_board: BoardMaker) -> None:
    rail = FACE["rail-curve"]
    stuck = _state(make_board, RAIL_CLOSED, round=5, dice=(rail,), specials_used=ALL_BUT_THREE)
    assert stuck.moves() == []
    assert stuck.can_end_round()
    after = stuck.settle()
    assert after == GameState(stuck.cells, round=6, specials_used=ALL_BUT_THREE)
    assert after.skipped == (rail,)
    assert list(stuck.children()) == [after]
    assert after.settle() is after
    # with special routes left, the player may still draw one instead
    free = _state(make_board, RAIL_CLOSED, round=5, dice=(rail,))
    assert free.settle() is not free
    assert free.settle() == free
    assert {PIECE_NAMES[p] for p, _, _ in free.moves()} <= set(SPECIAL_NAMES)


def test_states_refuse_impossible_parts() -> None:
    with pytest.raises(ValueError, match="81 cells"):
        GameState(b"\x00" * 80)
    with pytest.raises(ValueError, match="round must be 1 to 8"):
        GameState(round=0)
    with pytest.raises(ValueError, match="face ids 0 to 8"):
        GameState(dice=(9,))


def test_a_die_that_fits_must_be_drawn() -> None:
    rail, road = FACE["rail-straight"], FACE["road-straight"]
    state = GameState(dice=(road, rail), specials_used=ALL_BUT_THREE)
    assert not state.can_end_round()
    for kid in state.children():
        assert not kid.is_chance()  # the other die fits at an exit: still this round
        assert kid.round == 1
        assert kid.dice in ((road,), (rail,))
        assert not kid.can_end_round()


def test_a_die_may_fit_once_another_is_drawn(make_board: BoardMaker) -> None:
    # The rail fits nowhere until the straight station turns a road end into a rail end.
    rail, station = FACE["rail-straight"], FACE["station-straight"]
    state = _state(make_board, RAIL_CLOSED, dice=(rail, station), specials_used=ALL_BUT_THREE)
    assert {PIECE_NAMES[p] for p, _, _ in state.moves()} == {"station-straight"}
    for kid in state.children():
        assert kid.dice == (rail,)
        assert {PIECE_NAMES[p] for p, _, _ in kid.moves()} == {"rail-straight"}


def test_with_the_dice_done_a_special_route_or_the_end_of_the_round() -> None:
    road = FACE["road-straight"]
    state = GameState(dice=(road,))
    kids = list(state.children())
    placed_road = [k for k in kids if _placed(state, k)[0].startswith("road-straight")]
    for kid in placed_road:
        # the dice are done, a special route may still be drawn: the player decides
        assert kid.dice == ()
        assert kid.can_end_round()
        last = list(kid.children())[-1]
        assert last.is_chance()
        assert last.round == 2
        assert last.cells == kid.cells
        assert {PIECE_NAMES[p] for p, _, _ in kid.moves()} <= set(SPECIAL_NAMES)
        specials = list(kid.children())[:-1]
        assert specials
        assert all(s.is_chance() and s.special_this_round is False for s in specials)
        assert all(s.specials_used.bit_count() == 1 for s in specials)


@pytest.mark.parametrize("seed", range(3))
def test_random_child_of_a_decision_node_is_what_rng_choice_would_draw(seed: int) -> None:
    for node in _playout(seed):
        if node.is_chance() or node.is_terminal():
            continue
        kids = list(node.children())
        for draw in range(3):
            assert node.random_child(random.Random(draw)) == random.Random(draw).choice(kids)


# --- special routes --------------------------------------------------------------------------


def test_one_special_route_per_round() -> None:
    state = GameState(dice=(0, 3), special_this_round=True)
    assert not state.special_open
    assert all(p < 9 for p, _, _ in state.moves())
    fresh = GameState(dice=(0, 3))
    assert fresh.special_open
    kids = [k for k in fresh.children() if k.specials_used]
    assert kids
    for kid in kids:
        assert kid.special_this_round
        assert not kid.special_open
        assert all(p < 9 for p, _, _ in kid.moves())


def test_each_special_route_once_and_three_per_game() -> None:
    used = 0b100001  # road-cross and station-cross-straight
    state = GameState(dice=(0,), specials_used=used)
    offered = {PIECE_NAMES[p] for p, _, _ in state.moves() if p >= 9}
    assert "road-cross" not in offered
    assert "station-cross-straight" not in offered
    assert "station-cross-road" in offered
    three = GameState(dice=(0,), specials_used=0b010101)
    assert not three.special_open
    assert all(p < 9 for p, _, _ in three.moves())
    with pytest.raises(ValueError, match="at most 3"):
        GameState(specials_used=0b1111)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_the_special_route_limits(seed: int) -> None:
    line = _playout(seed)
    per_round: dict[int, int] = {}
    for parent, child in itertools.pairwise(line):
        new = child.specials_used & ~parent.specials_used
        assert child.specials_used & parent.specials_used == parent.specials_used
        assert new.bit_count() <= 1
        if new:
            per_round[parent.round] = per_round.get(parent.round, 0) + 1
    assert all(n == 1 for n in per_round.values())
    assert line[-1].specials_used.bit_count() <= MAX_SPECIALS


# --- rounds and the end ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_a_random_game_plays_seven_rounds_then_ends(seed: int) -> None:
    line = _playout(seed)
    chance = [n.round for n in line if n.is_chance()]
    assert chance == list(range(1, ROUNDS + 1))
    end = line[-1]
    assert end.is_terminal()
    assert not end.is_chance()
    assert end.round == ROUNDS + 1
    assert end.rounds_played == ROUNDS
    assert list(end.children()) == []
    assert end.random_child(random.Random(0)) is None
    assert all(not n.is_terminal() for n in line[:-1])
    total = game_score(end.cells).total
    assert -40 < total < 60
    assert end.reward() == score_value(end)
    assert end.reward() == pytest.approx(
        (total - SCORE_RANGE[0]) / (SCORE_RANGE[1] - SCORE_RANGE[0])
    )
    # at most 28 dice and 3 special routes
    assert end.tile_count <= 4 * ROUNDS + MAX_SPECIALS


def test_random_playouts_score_in_a_plausible_range() -> None:
    totals = [game_score(_playout(seed)[-1].cells).total for seed in range(30)]
    mean = sum(totals) / len(totals)
    assert -25 < mean < 20
    assert max(totals) > min(totals)


# --- state, key, labels, report, view --------------------------------------------------------


def test_equality_is_the_game_state_only(make_board: BoardMaker) -> None:
    cells = make_board(ISSUE_EXAMPLE).cells
    a = GameState(cells, round=2, dice=(1, 4), roll=(1, 4, 5, 7))
    b = GameState(cells, round=2, dice=(4, 1), roll=(0, 1, 4, 6))  # another roll shown
    assert a == b
    assert hash(a) == hash(b)
    assert a.key() == b.key()
    assert a != GameState(cells, round=3, dice=(1, 4))
    assert a != GameState(cells, round=2, dice=(1,))
    assert a != GameState(cells, round=2, dice=(1, 4), specials_used=1)
    assert a != GameState(cells, round=2, dice=(1, 4), special_this_round=True)
    assert GameState(cells, round=2) != GameState(cells, round=2, dice=())
    assert GameState(cells, round=2).key() != GameState(cells, round=2, dice=()).key()
    with pytest.raises(AttributeError):
        a.extra = 1


def test_labels_show_the_round_and_the_dice_left(make_board: BoardMaker) -> None:
    domain = _game()
    assert domain.label(GameState.start()) == "round 1, rolling, 0 tiles, no exits joined"
    state = _state(make_board, ISSUE_EXAMPLE, round=3, dice=(1, 5, 6))
    assert domain.label(state) == (
        "round 3, dice road-curve rail-t overpass, 2 tiles, no exits joined"
    )
    assert domain.label(_state(make_board, ISSUE_EXAMPLE, round=3, dice=())) == (
        "round 3, dice all drawn, 2 tiles, no exits joined"
    )
    end = _playout(0)[-1]
    assert domain.label(end).startswith(f"game over, {game_score(end.cells).total} points, ")


def test_scores_of_hand_made_boards(make_board: BoardMaker) -> None:
    # The issue's example with the station drawn: the road's end faces the station's blank
    # side (an error), the station's road leads into an empty cell (an error).
    board = make_board({**ISSUE_EXAMPLE, (1, 4): "station-straight-r180"})
    assert game_score(board.cells) == Score(
        exits=0, longest_road=2, longest_rail=1, centre=0, errors=2
    )
    assert open_ends(board.cells, game_rules().choices) == (1, 1)  # live, dead
    # A blank side facing an exit is no error: the exit simply stays unjoined.
    blank = make_board({(1, 4): "road-straight-r90", (1, 3): "road-straight-r90"})
    assert game_score(blank.cells).errors == 2  # the two road ends at (1, 2) and (1, 5)
    row = make_board({(2, c): "rail-straight-r90" for c in range(1, 8)})
    assert game_score(row.cells).total == 11


def test_outlook_counts_live_open_ends_at_half_a_point(make_board: BoardMaker) -> None:
    board = make_board({**ISSUE_EXAMPLE, (1, 4): "station-straight-r180"})
    state = GameState(board.cells, round=2, dice=(1,))
    values = _game().values()
    low, high = SCORE_RANGE
    assert values["score"](state) == pytest.approx((1 - low) / (high - low))
    assert values["outlook"](state) == pytest.approx((1 + 2 - 1 - 0.5 - low) / (high - low))
    row = GameState(make_board({(2, c): "rail-straight-r90" for c in range(1, 8)}).cells)
    assert values["outlook"](row) == values["score"](row)


def test_report_gives_the_score_parts_and_the_rounds(make_board: BoardMaker) -> None:
    board = make_board({**ISSUE_EXAMPLE, (1, 4): "station-straight-r180"})
    expected = {"total": 1, "exits": 0, "road": 2, "rail": 1, "centre": 0, "errors": 2}
    game = _game()
    assert game.report(GameState(board.cells, round=2, dice=(1,))) == {
        "score": expected,
        "rounds": 2,
    }
    assert game.report(GameState.start())["rounds"] == 0
    assert game.report(GameState(board.cells, round=3))["rounds"] == 2  # before the roll
    assert game.report(_playout(1)[-1])["rounds"] == ROUNDS
    assert make_domain("railroad", {}).report(board) == {"score": expected, "rounds": None}
    assert make_domain("tictactoe", {}).report(make_domain("tictactoe", {}).root()) == {}


def test_the_view_adds_a_row_with_the_round_the_dice_and_the_specials() -> None:
    view = _game().view()
    root = GameState.start()
    assert strip_names(root) == ["round-1", *["die-unrolled"] * 4, "empty", *["special-slot"] * 3]
    grid = view.grid(root)
    assert grid.shape == (10, 9)
    assert grid.dtype == np.int16
    assert np.array_equal(grid[:9], make_domain("railroad", {}).view().grid(Board.start()))
    assert [TILE_NAMES[i] for i in grid[9]] == strip_names(root)
    rolled = GameState(round=4, dice=(1, 6), roll=(1, 1, 3, 6), specials_used=0b100010)
    assert strip_names(rolled) == [
        "round-4",
        "die-road-curve-placed",
        "die-road-curve",
        "die-rail-straight-placed",
        "die-overpass",
        "empty",
        "special-rail-cross",
        "special-station-cross-straight",
        "special-slot",
    ]


def test_after_a_round_the_view_shows_its_dice_drawn_and_skipped(make_board: BoardMaker) -> None:
    rail, road = FACE["rail-straight"], FACE["road-straight"]
    state = _state(
        make_board, RAIL_CLOSED, dice=(rail, road), roll=(road, rail, 6, 7), specials_used=7
    )
    after = next(iter(state.children()))
    assert after.is_chance()
    assert strip_names(after)[:5] == [
        "round-2",
        "die-road-straight-placed",
        "die-rail-straight-skipped",
        "die-overpass-placed",
        "die-station-straight-placed",
    ]
    assert strip_names(_playout(2)[-1])[0] == "game-over"
