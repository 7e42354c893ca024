"""Railroad Ink's ``goal_moves_bound``: the empty cells the exits lead into, a proved lower
bound on the tiles (and so the moves) any goal still needs (issue 20 item 6, fifth round)."""

from __future__ import annotations

from conftest import BoardMaker

from searchvid.domains import make_domain
from searchvid.domains.railroad import GameState, RailroadDomain, RailroadOptions
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.values import network_value

# the interior cells (row, col) the twelve exits lead into, read off the drawn board: three
# exits a side, at the 2nd, 4th and 6th cells of each edge
_ENTRIES = {
    *((1, c) for c in (2, 4, 6)),
    *((7, c) for c in (2, 4, 6)),
    *((r, 1) for r in (2, 4, 6)),
    *((r, 7) for r in (2, 4, 6)),
}


def _domain(rules: str = "puzzle") -> RailroadDomain:
    return RailroadDomain(RailroadOptions(rules=rules))  # type: ignore[arg-type]


def test_the_empty_board_needs_a_tile_beside_each_of_its_twelve_exits() -> None:
    assert _domain().goal_moves_bound(Board.start()) == 12
    assert _domain("game").goal_moves_bound(GameState.start()) == 12  # each move: <= 1 tile


def test_the_cells_counted_are_the_ones_the_exits_lead_into(make_board: BoardMaker) -> None:
    domain = _domain()
    for row in range(1, 8):
        for col in range(1, 8):
            board = make_board({(row, col): "road-straight-r0"})
            # a tile beside an exit takes one cell off the count; anywhere else, none
            expected = 11 if (row, col) in _ENTRIES else 12
            assert domain.goal_moves_bound(board) == expected, (row, col)


def test_a_filled_entry_counts_as_done_even_when_its_tile_turns_away(
    make_board: BoardMaker,
) -> None:
    # a road across the top exit's cell, not into it: the cell is taken, so the bound (a
    # count of cells still needing a tile) drops; it stays a lower bound, not a distance
    across = make_board({(1, 2): "road-straight-r90"})
    assert _domain().goal_moves_bound(across) == 11


def test_a_row_of_rails_fills_two_entries(make_board: BoardMaker) -> None:
    row = make_board({(2, c): "rail-straight-r90" for c in range(1, 8)})
    assert _domain().goal_moves_bound(row) == 10


def test_the_bound_is_zero_at_a_goal_and_never_above_the_tiles_still_placed() -> None:
    domain = make_domain("railroad", {})
    assert isinstance(domain, RailroadDomain)
    board = domain.root()
    path = [board]
    while not domain.is_goal(board):  # greedy on the network value: a goal in 23 tiles
        board = max(board.children(), key=network_value)
        path.append(board)
    assert len(path) - 1 == 23
    assert domain.goal_moves_bound(board) == 0
    for placed, on_the_way in enumerate(path):
        bound = domain.goal_moves_bound(on_the_way)
        assert bound is not None
        assert bound <= len(path) - 1 - placed  # a lower bound on the moves left
