"""The spots kept incrementally (issue 22) against the full rescans they replace.

Boards and game states keep their open positions from their parent's instead of rescanning
all 49 cells. Each test here writes down the definition that was in use before, as a full
scan, and checks the kept version against it on many random boards: the spots, the
placements, the terminal test, the draw of ``random_child`` (the same child for the same
random stream), the game's moves and forced steps, and the longest route.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.domains import make_domain
from searchvid.domains.railroad.game import GameState, game_rules
from searchvid.domains.railroad.grid import (
    EXIT_CELLS,
    FACING,
    INTERIOR,
    NEIGHBOURS,
    OFFSETS,
    START_CELLS,
)
from searchvid.domains.railroad.network import GROUP, SIDES, exit_roots, longest_route
from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.domains.railroad.tiles import TILES, Transport
from searchvid.domains.railroad.values import partial_value

F0, F1, F2, F3 = FACING
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _key(cells: bytes, c: int, n: int, e: int, s: int, w: int) -> int:
    return F0[cells[n]] | F1[cells[e]] | F2[cells[s]] | F3[cells[w]]


def rescan_placements(board: Board) -> list[tuple[int, tuple[int, ...]]]:
    """The definition before issue 22: every interior cell looked at, row-major."""
    cells = board.cells
    result = []
    for c, n, e, s, w in NEIGHBOURS:
        if cells[c]:
            continue
        fitting = board.rules.choices[_key(cells, c, n, e, s, w)]
        if fitting:
            result.append((c, fitting))
    return result


def rescan_random_child(board: Board, rng: random.Random) -> Board | None:
    """The draw before issue 22: one ``randrange`` over the rescanned placements."""
    options = rescan_placements(board)
    total = sum(len(fitting) for _, fitting in options)
    if total == 0:
        return None
    index = rng.randrange(total)
    for c, fitting in options:
        if index < len(fitting):
            cells = board.cells
            return Board(cells[:c] + bytes((fitting[index],)) + cells[c + 1 :], board.rules)
        index -= len(fitting)
    raise AssertionError("index beyond the placements")


def check_board(board: Board) -> None:
    """A board's kept spots, placements, counts and terminal test against a rescan."""
    expected = rescan_placements(board)
    assert board.placements() == expected
    assert board.spots() == tuple(
        (c, _key(board.cells, c, n, e, s, w))
        for c, n, e, s, w in NEIGHBOURS
        if c in {cell for cell, _ in expected}
    )
    assert board.move_count() == sum(len(f) for _, f in expected)
    assert board.is_terminal() == (not expected)
    assert [child.cells for child in board.children()] == [
        board.cells[:c] + bytes((code,)) + board.cells[c + 1 :]
        for c, fitting in expected
        for code in fitting
    ]


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, tiles=st.sampled_from(["basic", "all"]))
def test_playout_spots_equal_a_rescan_at_every_move(seed: int, tiles: TileSetName) -> None:
    """A whole random playout: the kept spots after every move equal a full rescan, and
    every draw is the child the rescanning draw picks from the same random stream."""
    mine, theirs = random.Random(seed), random.Random(seed)
    board: Board | None = Board.start(tiles)
    moves = 0
    while board is not None:
        check_board(board)
        expected = rescan_random_child(board, theirs)
        child = board.random_child(mine)
        assert (child is None) == (expected is None)
        if child is not None and expected is not None:
            assert child.cells == expected.cells
            moves += 1
        board = child
    assert moves > 0
    assert mine.random() == theirs.random()  # both streams drew the same numbers


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, steps=st.integers(min_value=0, max_value=40))
def test_spots_through_place_and_listed_children_equal_a_rescan(seed: int, steps: int) -> None:
    """Boards reached by ``place`` (also off the open positions, over a tile, or emptying a
    cell) and by picking from ``children()`` keep spots equal to a rescan."""
    rng = random.Random(seed)
    board = Board.start("all")
    board.spots()  # kept from here on
    codes = board.rules.codes
    for _ in range(steps):
        how = rng.randrange(4)
        if how == 0:
            kids = list(board.children())
            if not kids:
                break
            board = kids[rng.randrange(len(kids))]
        elif how == 1:
            board = board.place(rng.choice(INTERIOR), rng.choice(codes))
        elif how == 2:
            board = board.place(rng.choice(INTERIOR), 0)
        else:
            drawn = board.random_child(rng)
            if drawn is None:
                break
            board = drawn
        check_board(board)
        fresh = Board(board.cells, board.rules)  # scans when first asked
        assert fresh.spots() == board.spots()
        assert fresh.move_count() == board.move_count()


def test_partial_value_is_the_largest_network_over_twelve() -> None:
    """``partial`` on boards of random playouts: exits in the largest network over 12,
    counted here by following the routes from each exit."""
    rng = random.Random(3)
    for _ in range(30):
        board: Board | None = Board.start("basic")
        last = board
        while board is not None:
            last = board
            board = board.random_child(rng)
        assert last is not None
        assert partial_value(last) == _largest_by_walking(last.cells) / 12


def _largest_by_walking(cells: bytes) -> int:
    """Exits per network found by a walk over connection groups (no union-find)."""

    def linked(cell: int, group: int) -> list[tuple[int, int]]:
        out = []
        code = cells[cell]
        for d in range(4):
            if GROUP[code][d] != group:
                continue
            other = cell + OFFSETS[d]
            if not 0 <= other < 81 or not cells[other]:
                continue
            opposite = (d + 2) % 4
            if SIDES[code][d] == SIDES[cells[other]][opposite] != 0 and (
                other in INTERIOR or cell in INTERIOR
            ):
                out.append((other, GROUP[cells[other]][opposite]))
        return out

    best = 0
    seen: set[tuple[int, int]] = set()
    for start in EXIT_CELLS:
        if (start, 0) in seen:
            continue
        todo, found = [(start, 0)], 0
        seen.add((start, 0))
        while todo:
            cell, group = todo.pop()
            found += cell in EXIT_CELLS
            for node in linked(cell, group):
                if node not in seen:
                    seen.add(node)
                    todo.append(node)
        if found >= 2:
            best = max(best, found)
    return best


# --- the dice game ----------------------------------------------------------------------------

_RULES = game_rules()
_SPECIAL = 9


def rescan_moves(state: GameState) -> list[tuple[int, int, tuple[int, ...]]]:
    """The game's moves before issue 22: every cell rescanned for every piece."""
    dice = state.dice
    if not dice and not state.special_open:
        return []
    assert dice is not None
    cells = state.cells
    spots = []
    for c, n, e, s, w in NEIGHBOURS:
        if not cells[c]:
            key = _key(cells, c, n, e, s, w)
            if _RULES.fit_mask[key]:
                spots.append((c, key))
    pieces = sorted(set(dice))
    if state.special_open:
        pieces += [_SPECIAL + i for i in range(6) if not state.specials_used >> i & 1]
    return [
        (piece, c, _RULES.piece_choices[piece][key])
        for piece in pieces
        for c, key in spots
        if _RULES.piece_choices[piece][key]
    ]


def rescan_fits(cells: bytes, pieces: list[int]) -> bool:
    """Whether one of ``pieces`` fits some empty cell, by a rescan."""
    return any(
        _RULES.piece_choices[p][_key(cells, c, n, e, s, w)]
        for p in pieces
        for c, n, e, s, w in NEIGHBOURS
        if not cells[c]
    )


def check_settled(state: GameState) -> None:
    """A state the game reached is settled as the rescanning rules define it."""
    if state.dice is None:
        return
    free = [_SPECIAL + i for i in range(6) if not state.specials_used >> i & 1]
    assert rescan_fits(state.cells, sorted(set(state.dice))) or (
        state.special_open and rescan_fits(state.cells, free)
    )


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_game_playout_moves_and_draws_equal_a_rescan(seed: int) -> None:
    """A random game: at every decision node the moves equal a rescan, the round may end
    exactly when no die fits, every state is settled, and every draw is the child that the
    rescanning draw (one ``randrange`` over the listed moves, plus ending the round) picks
    from the same random stream."""
    mine, theirs = random.Random(seed), random.Random(seed)
    state: GameState | None = GameState.start()
    while state is not None:
        check_settled(state)
        if state.is_chance() or state.is_terminal():
            state = state.random_child(mine)
            if state is not None:
                theirs.randrange(6), theirs.randrange(6), theirs.randrange(6), theirs.randrange(6)
            continue
        listed = rescan_moves(state)
        assert state.moves() == listed
        end = all(piece >= _SPECIAL for piece, _, _ in listed)
        assert state.can_end_round() == end
        total = sum(len(f) for _, _, f in listed)
        index = theirs.randrange(total + end)
        child = state.random_child(mine)
        assert child is not None
        expected = [c.cells for c in state.children()][index]
        assert child.cells == expected
        state = child
    assert mine.random() == theirs.random()


def test_game_states_keep_the_spots_of_a_fresh_scan() -> None:
    """States reached through plays, rolls and ends of rounds keep the spots a new state
    with the same cells finds by scanning."""
    rng = random.Random(11)
    for _ in range(10):
        state: GameState | None = GameState.start()
        while state is not None:
            fresh = GameState(state.cells, dice=state.dice, specials_used=state.specials_used)
            assert state.spots() == fresh.spots()
            state = state.random_child(rng)


# --- longest routes ---------------------------------------------------------------------------


def rescan_longest_route(cells: bytes, transport: int, budget: int = 200_000) -> int:
    """The longest route before issue 22: every simple path from every start, no early stop."""
    graph: dict[int, list[int]] = {}
    interior = set(INTERIOR)
    for c in INTERIOR:
        sides = SIDES[cells[c]]
        if transport not in sides:
            continue
        links = graph.setdefault(c, [])
        for d in range(4):
            other = c + OFFSETS[d]
            joined = other in interior and SIDES[cells[other]][(d + 2) % 4] == transport
            if sides[d] == transport and joined:
                links.append(other)
    best = steps = 0
    for start in sorted(graph):
        stack = [(start, 1 << start, 1)]
        while stack:
            cell, seen, length = stack.pop()
            best = max(best, length)
            steps += 1
            if steps >= budget:
                return best
            for other in graph[cell]:
                if not seen >> other & 1:
                    stack.append((other, seen | 1 << other, length + 1))
    return best


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, fill=st.integers(min_value=5, max_value=49), budget=st.integers(1, 400))
def test_longest_route_equals_the_exhaustive_search(seed: int, fill: int, budget: int) -> None:
    """On random boards (tiles anywhere, legal or not), with the default budget and with
    small ones that cut the search short, both transports."""
    rng = random.Random(seed)
    cells = bytearray(START_CELLS)
    for c in rng.sample(INTERIOR, fill):
        cells[c] = rng.randrange(1, len(TILES) + 1)
    board = bytes(cells)
    for transport in Transport:
        assert longest_route(board, transport) == rescan_longest_route(board, int(transport))
        assert longest_route(board, transport, budget=budget) == rescan_longest_route(
            board, int(transport), budget
        )


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, fill=st.integers(min_value=0, max_value=49))
def test_goal_test_equals_one_network_of_all_exits(seed: int, fill: int) -> None:
    """The goal test (which answers no at once while an exit's neighbour is empty) against
    its definition, on random boards, full ones included (a goal board is checked in
    test_railroad_domain.py)."""
    domain = make_domain("railroad", {})
    rng = random.Random(seed)
    cells = bytearray(START_CELLS)
    for c in rng.sample(INTERIOR, fill):
        cells[c] = rng.randrange(1, len(TILES) + 1)
    board = Board(bytes(cells), Board.start("all").rules)
    assert domain.is_goal(board) == (len(set(exit_roots(board.cells))) == 1)
