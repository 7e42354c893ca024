"""Railroad Ink rules: the board, placement, children order, capabilities, perft counts."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from conftest import BoardMaker

from searchvid.domains.railroad.grid import FREE, INTERIOR, START_CELLS, constraint_key, fits
from searchvid.domains.railroad.network import largest_network
from searchvid.domains.railroad.rules import Board, TileSetName, tile_rules
from searchvid.domains.railroad.tiles import TILES, code_name
from searchvid.search.node import Capability, capabilities_of

GOLDEN = Path(__file__).parent / "perft.txt"
EXIT_NEIGHBOURS = [11, 13, 15, 19, 25, 37, 43, 55, 61, 65, 67, 69]


def _names(board: Board, cell: int) -> list[str]:
    return [code_name(child.cells[cell]) for child in board.children() if child.cells[cell]]


def test_start_board_holds_only_the_exits() -> None:
    board = Board.start()
    assert board.cells == START_CELLS
    assert board.tile_count == 0
    assert board.at(0, 2) == 59  # exit-road-down
    assert board.at(2, 0) == 66  # exit-rail-right
    assert board.at(0, 0) == 0
    assert board.open_cells() == EXIT_NEIGHBOURS
    assert [c for c, _ in board.placements()] == EXIT_NEIGHBOURS


def test_children_are_row_major_then_by_tile_id() -> None:
    board = Board.start("basic")
    kids = list(board.children())
    cells = [next(i for i in INTERIOR if k.cells[i]) for k in kids]
    assert cells == sorted(cells)
    # Below the road exit at (0, 2): every basic tile with a road on its north side.
    assert _names(board, 11) == [
        "road-straight-r0",
        "road-curve-r0",
        "road-curve-r270",
        "road-t-r90",
        "road-t-r180",
        "road-t-r270",
        "station-straight-r0",
        "station-curve-r0",
        "station-curve-mirror-r0",
        "station-t-rail-r180",
        "station-t-road-r90",
        "station-t-road-r270",
        "overpass-r0",
    ]
    assert len(kids) == 12 * 13
    assert board.move_count() == len(kids)
    assert Board.start("all").move_count() == 12 * 21


def test_a_route_may_not_run_into_a_blank_side_or_the_other_transport(
    make_board: BoardMaker,
) -> None:
    # (1, 2) holds a road curve from N to E; (1, 3) sees road on W, the rest empty.
    board = make_board({(1, 2): "road-curve-r0"}, tiles="basic")
    east = _names(board, 12)
    assert "road-straight-r90" in east
    assert "rail-straight-r90" not in east  # rail against road: incompatible
    # (2, 2) lies below the curve's blank south side: nothing leads in, so it is not open.
    assert 20 not in board.open_cells()
    # (1, 1) lies beside the curve's blank west side and the border: not open either.
    assert 10 not in board.open_cells()
    # With a rail curve below the rail exit at (0, 4) leading west, (1, 3) sees road on W and
    # rail on E: only the straight station joins them.
    two = make_board({(1, 2): "road-curve-r0", (1, 4): "rail-curve-r270"}, tiles="basic")
    assert _names(two, 12) == ["station-straight-r270"]


def test_fits_is_the_seed_rule_side_by_side() -> None:
    def key(n: int, e: int, s: int, w: int) -> int:
        return n | e << 2 | s << 4 | w << 6

    road_ns = (1, 0, 1, 0)
    assert fits(road_ns, key(1, FREE, FREE, FREE))  # matches N, the rest neutral
    assert not fits(road_ns, key(FREE, FREE, FREE, FREE))  # nothing matches
    assert not fits(road_ns, key(2, FREE, FREE, FREE))  # road against rail
    assert not fits(road_ns, key(1, FREE, 0, FREE))  # road against a blank side
    assert not fits(road_ns, key(1, 1, FREE, FREE))  # blank side against a road
    assert fits(road_ns, key(1, 0, FREE, 0))  # blank against blank is fine


def test_constraint_key_reads_the_neighbours(make_board: BoardMaker) -> None:
    board = make_board({(1, 2): "road-curve-r0"})
    # (1, 3): N border (empty), E empty, S empty, W = the curve's east road.
    assert constraint_key(board.cells, 12) == FREE | FREE << 2 | FREE << 4 | 1 << 6
    # (1, 1): the curve shows its blank west side to the east of (1, 1).
    assert constraint_key(board.cells, 10) == FREE | 0 << 2 | FREE << 4 | FREE << 6


@pytest.mark.parametrize("tiles", ["basic", "all"])
def test_random_child_draws_what_rng_choice_would(tiles: TileSetName) -> None:
    walk = random.Random(11)
    board = Board.start(tiles)
    while True:
        kids = list(board.children())
        for seed in range(3):
            expected = random.Random(seed).choice(kids) if kids else None
            assert board.random_child(random.Random(seed)) == expected
        if not kids:
            break
        board = walk.choice(kids)
    assert board.is_terminal()


def test_terminal_reward_is_the_partial_reward() -> None:
    rng = random.Random(5)
    board = Board.start("basic")
    while (child := board.random_child(rng)) is not None:
        assert not board.is_terminal()
        board = child
    assert board.is_terminal()
    assert list(board.children()) == []
    assert board.placements() == []
    assert board.reward() == largest_network(board.cells) / 12
    assert 0.0 <= board.reward() <= 1.0


def test_boards_are_immutable_hashable_and_keyed(make_board: BoardMaker) -> None:
    a = make_board({(1, 2): "road-straight-r0"})
    b = make_board({(1, 2): "road-straight-r0"})
    assert a == b
    assert hash(a) == hash(b)
    assert a.key() == b.key() == a.cells
    assert a != Board.start()
    assert make_board({(1, 2): "road-straight-r0"}, tiles="basic") != a  # other tile set
    assert len({a, b, Board.start()}) == 2
    with pytest.raises(AttributeError):
        a.cells = b""  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a.extra = 1
    with pytest.raises(ValueError, match="81 cells"):
        Board(b"\x00" * 80, tile_rules("all"))
    assert capabilities_of(a) == {
        Capability.TERMINAL,
        Capability.REWARD,
        Capability.KEY,
        Capability.RANDOM_CHILD,
    }


def test_tile_rules_are_shared_per_tile_set() -> None:
    assert tile_rules("all") is tile_rules("all")
    assert tile_rules("basic").codes == tuple(range(1, 43))
    assert tile_rules("all").codes == tuple(range(1, 59))
    assert Board.start("basic").rules is tile_rules("basic")
    assert len(TILES) == 58


def perft_lines() -> list[str]:
    """Child counts from the empty board: per open position, depth 1, depth 2."""
    lines = [
        "# Railroad Ink perft: legal placements from the empty board.",
        "# Regenerate on purpose: SEARCHVID_REGEN_GOLDEN=1 pytest tests/domains/railroad",
    ]
    sets: tuple[TileSetName, ...] = ("basic", "all")
    for tiles in sets:
        root = Board.start(tiles)
        for cell, fitting in root.placements():
            lines.append(
                f"tiles={tiles} depth=1 cell=({cell // 9},{cell % 9}) nodes={len(fitting)}"
            )
        kids = list(root.children())
        lines.append(f"tiles={tiles} depth=1 nodes={len(kids)}")
        grandchildren = sum(k.move_count() for k in kids)
        distinct = len({g.key() for k in kids for g in k.children()})
        lines.append(f"tiles={tiles} depth=2 nodes={grandchildren}")
        lines.append(f"tiles={tiles} depth=2 distinct={distinct}")
    return lines


def test_perft_counts_match_the_golden_file() -> None:
    lines = perft_lines()
    if os.environ.get("SEARCHVID_REGEN_GOLDEN") == "1":
        GOLDEN.write_text("\n".join(lines) + "\n")
    assert GOLDEN.read_text().splitlines() == lines
