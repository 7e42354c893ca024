"""Issue 22: whole playouts on one mutable board, children counted without listing them,
and the network scoring they end on -- each the same as the slower way it replaces."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import BoardMaker

from searchvid.domains import make_domain
from searchvid.domains.railroad.grid import INTERIOR, START_CELLS
from searchvid.domains.railroad.network import cluster_sizes, largest_network, longest_route
from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.domains.railroad.tiles import TILES, Transport
from searchvid.domains.railroad.values import partial_value
from searchvid.search.algorithm import make_algorithm
from searchvid.search.algorithms.mcts import Mcts


def walk(board: Board, rng: random.Random, limit: int) -> tuple[Board, int]:
    """Up to ``limit`` calls of random_child in a row: the definition of random_playout."""
    moves = 0
    while moves < limit:
        child = board.random_child(rng)
        if child is None:
            break
        board = child
        moves += 1
    return board, moves


def mid_game(tiles: TileSetName, seed: int, placed: int) -> Board:
    board, _ = walk(Board.start(tiles), random.Random(seed), placed)
    return board


@pytest.mark.parametrize("tiles", ["basic", "all"])
def test_random_playout_reaches_the_board_of_random_child_calls(tiles: TileSetName) -> None:
    """Same board, same moves, same spots, and the same numbers drawn (the rng ends in the
    same state), from the empty board and from boards part-way, with and without a limit."""
    for seed in range(40):
        start = mid_game(tiles, seed, seed % 25)
        limit = (0, 1, 7, 1000)[seed % 4]
        ours, theirs = random.Random(seed), random.Random(seed)
        board, moves = start.random_playout(ours, limit)
        expected, expected_moves = walk(start, theirs, limit)
        assert board == expected
        assert moves == expected_moves
        assert board.spots() == Board(board.cells, board.rules).spots()
        assert board.move_count() == expected.move_count()
        assert board.is_terminal() == expected.is_terminal()
        assert ours.getstate() == theirs.getstate()


def test_random_playout_stops_where_no_tile_fits_or_at_its_limit() -> None:
    start = Board.start("basic")
    end, moves = start.random_playout(random.Random(3), 10_000)
    assert end.is_terminal()
    assert moves == end.tile_count  # one tile a move
    assert end.random_playout(random.Random(3), 5) == (end, 0)
    assert start.random_playout(random.Random(3), 0) == (start, 0)
    part, moves = start.random_playout(random.Random(3), 4)
    assert (moves, part.tile_count) == (4, 4)
    assert not part.is_terminal()


def test_a_drawn_child_finds_the_spots_a_scan_finds() -> None:
    """random_child leaves the child's spots to be found from its parent's when asked."""
    rng = random.Random(8)
    for _ in range(30):
        board = mid_game("all", rng.randrange(1000), rng.randrange(30))
        child = board.random_child(rng)
        if child is None:
            continue
        assert child.spots() == Board(child.cells, child.rules).spots()
        assert child.move_count() == sum(1 for _ in child.children())


def test_child_count_is_the_number_of_different_children() -> None:
    for seed in range(20):
        board = mid_game("all", seed, seed * 2)
        keys = [child.key() for child in board.children()]
        assert board.child_count() == len(keys) == len(set(keys))
    assert Board.start("all").child_count() == 12 * 21


class ListedBoard(Board):
    """A board whose class does not opt in to MCTS's shortcuts: it still has both methods
    (inherited), but nodes are opened by listing and playouts go move by move."""

    __slots__ = ()
    SEARCHVID_FAST_ROLLOUTS = False


def events(root: Board, table: dict[str, Any], work_limit: int | None = None) -> list[Any]:
    domain = make_domain("railroad", {"tiles": root.rules.name})
    algo = make_algorithm(
        "mcts",
        table,
        rng=random.Random(5),
        values=domain.values(),
        default_value=domain.default_value,
        goal=domain.is_goal,
    )
    algo.work_limit = work_limit
    stream = [
        (e.kind, e.node.key(), e.depth, e.step, e.value, e.id, e.parent)
        for e in algo.traverse(root)
    ]
    return [*stream, (algo.work_done, algo.budget_spent)]


PLAN = {"mode": "plan", "reward": "partial", "iterations": 40, "commit_solution": False}


@pytest.mark.parametrize(
    ("table", "work_limit"),
    [
        (PLAN, None),
        ({**PLAN, "max_moves": 6}, None),
        ({"iterations": 120, "reward": "partial"}, None),  # search mode
        ({**PLAN, "rollout_limit": 5}, None),  # playouts cut off
        # 40 iterations of 1 + 5 units: the last playout spends the budget at its limit
        ({**PLAN, "rollout_limit": 5}, 40 * (1 + 5)),
        (PLAN, 777),  # the budget ends in the middle of a playout
    ],
)
def test_mcts_shortcuts_leave_every_event_unchanged(
    table: dict[str, Any], work_limit: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search over boards with the shortcuts emits the very events, work and budget of
    the same search over boards without them, and does take the shortcuts."""
    calls = {"random_playout": 0, "child_count": 0}
    for name in calls:
        method = getattr(Board, name)

        def counted(self: Board, *args: Any, _method: Any = method, _name: str = name) -> Any:
            calls[_name] += 1
            return _method(self, *args)

        monkeypatch.setattr(Board, name, counted)
    start = Board.start("basic")
    listed = ListedBoard(start.cells, start.rules)
    by_listing = events(listed, table, work_limit)
    assert calls == {"random_playout": 0, "child_count": 0}  # methods alone are not an opt-in
    assert events(start, table, work_limit) == by_listing
    assert calls["random_playout"] > 0
    assert calls["child_count"] > 0


def test_mcts_plays_move_by_move_where_the_states_on_the_way_are_needed() -> None:
    """With rollout events each playout state is shown, so no shortcut: one ROLLOUT event
    per state between the new tree node and the playout's end."""
    domain = make_domain("railroad", {})
    algo = make_algorithm(
        "mcts",
        {"iterations": 3, "reward": "partial", "rollout_events": True},
        rng=random.Random(2),
        values=domain.values(),
        default_value=domain.default_value,
    )
    assert isinstance(algo, Mcts)
    stream = list(algo.traverse(Board.start("basic")))
    leaves = [e for e in stream if e.kind.value == "leaf"]
    rollouts = [e for e in stream if e.kind.value == "rollout"]
    expands = [e for e in stream if e.kind.value == "expand"]
    assert len(leaves) == len(expands) == 3
    assert len(rollouts) == sum(
        leaf.depth - expand.depth - 1 for leaf, expand in zip(leaves, expands, strict=True)
    )
    assert rollouts


def random_cells(rng: random.Random, fill: int) -> bytes:
    """Tiles anywhere in the interior, legal or not."""
    cells = bytearray(START_CELLS)
    for c in rng.sample(INTERIOR, fill):
        cells[c] = rng.randrange(1, len(TILES) + 1)
    return bytes(cells)


def test_largest_network_and_the_partial_value_agree_with_the_cluster_sizes() -> None:
    rng = random.Random(4)
    for _ in range(300):
        cells = random_cells(rng, rng.randrange(50))
        sizes = cluster_sizes(cells)
        assert largest_network(cells) == (sizes[0] if sizes else 0)
    for seed in range(40):
        board, _ = Board.start("all").random_playout(random.Random(seed), 1000)
        sizes = cluster_sizes(board.cells)
        expected = (sizes[0] if sizes else 0) / 12
        assert partial_value(board) == expected
        assert partial_value(Board(board.cells, board.rules)) == expected  # remembered


RING = {
    (3, 3): "road-curve-r90",  # east and south
    (3, 4): "road-curve-r180",  # south and west
    (4, 4): "road-curve-r270",  # west and north
    (4, 3): "road-curve-r0",  # north and east
}


def test_longest_route_around_a_loop_and_along_a_tree(make_board: BoardMaker) -> None:
    """A loop is searched exhaustively; a tree by its farthest cells. The budget still cuts
    the defining search (from each cell ascending, every path once) where it would."""
    ring = make_board(RING)
    assert longest_route(ring.cells, Transport.ROAD) == 4
    assert longest_route(ring.cells, Transport.RAIL) == 0
    # 4 starts x 7 paths (itself, 2 of 2 cells, 2 of 3, 2 of 4): 28 steps in all
    assert longest_route(ring.cells, Transport.ROAD, budget=28) == 4
    assert longest_route(ring.cells, Transport.ROAD, budget=3) == 3  # 1, 2, 3 cells from (3, 3)
    assert longest_route(ring.cells, Transport.ROAD, budget=1) == 1
    # a T: three arms of 2, 1 and 3 cells around a junction at (2, 3)
    tee = make_board(
        {
            (2, 1): "road-straight-r90",
            (2, 2): "road-straight-r90",
            (2, 3): "road-t-r0",  # west, east and south
            (2, 4): "road-straight-r90",
            (3, 3): "road-straight-r0",
            (4, 3): "road-straight-r0",
            (5, 3): "road-straight-r0",
        }
    )
    assert longest_route(tee.cells, Transport.ROAD) == 6  # (2, 1) .. (2, 3) .. (5, 3)
    # 7 cells of a tree: 49 paths; one step short of them, the defining search decides
    assert longest_route(tee.cells, Transport.ROAD, budget=49) == 6
    assert longest_route(tee.cells, Transport.ROAD, budget=48) == 6
    assert longest_route(tee.cells, Transport.ROAD, budget=2) == 2
