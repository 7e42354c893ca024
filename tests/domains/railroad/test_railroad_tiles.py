"""Railroad Ink tiles: connection groups, orientations, exits and byte codes."""

from __future__ import annotations

from collections import Counter

import pytest

from searchvid.domains.railroad.tiles import (
    BASE_TILES,
    CODE_COUNT,
    EXIT_CODE,
    EXITS,
    TILES,
    ExitKind,
    Side,
    Transport,
    code_groups,
    code_name,
    code_sides,
    orientations,
)

R, L = Transport.ROAD, Transport.RAIL


def test_orientation_counts_per_base_tile() -> None:
    counts = Counter(t.base for t in TILES)
    assert dict(counts) == {
        "road-straight": 2,
        "road-curve": 4,
        "road-t": 4,
        "rail-straight": 2,
        "rail-curve": 4,
        "rail-t": 4,
        "station-straight": 4,
        "station-curve": 8,
        "station-t-rail": 4,
        "station-t-road": 4,
        "overpass": 2,
        "road-cross": 1,
        "rail-cross": 1,
        "station-cross-road": 4,
        "station-cross-rail": 4,
        "station-cross-corner": 4,
        "station-cross-straight": 2,
    }
    assert len(TILES) == 58
    assert sum(not t.special for t in TILES) == 42
    # Basic tiles come first, so their ids do not depend on the tile set.
    assert [t.special for t in TILES] == [False] * 42 + [True] * 16


def test_ids_and_names_are_stable_and_distinct() -> None:
    assert [t.id for t in TILES] == list(range(len(TILES)))
    assert len({t.name for t in TILES}) == len(TILES)
    assert len({frozenset(t.groups) for t in TILES}) == len(TILES)
    assert TILES[0].name == "road-straight-r0"
    assert TILES[13].name == "rail-curve-r90"
    assert TILES[28].name == "station-curve-mirror-r0"
    assert TILES[41].name == "overpass-r90"
    assert TILES[57].name == "station-cross-straight-r90"


def test_rotation_turns_sides_clockwise() -> None:
    by_name = {t.name: t for t in TILES}
    assert by_name["rail-curve-r0"].sides == (2, 2, 0, 0)  # N and E
    assert by_name["rail-curve-r90"].sides == (0, 2, 2, 0)  # E and S
    assert by_name["rail-curve-r180"].sides == (0, 0, 2, 2)
    assert by_name["road-t-r0"].sides == (0, 1, 1, 1)
    assert by_name["station-curve-r0"].sides == (1, 2, 0, 0)
    assert by_name["station-curve-mirror-r0"].sides == (1, 0, 0, 2)


@pytest.mark.parametrize("base", BASE_TILES, ids=lambda b: b.name)
def test_orientations_are_closed_under_rotation_and_mirroring(base: object) -> None:
    oriented = {frozenset(groups) for _, groups in orientations(base)}  # type: ignore[arg-type]
    for groups in oriented:
        turned = frozenset(frozenset((s.rotated(1), t) for s, t in g) for g in groups)
        flipped = frozenset(frozenset((s.mirrored, t) for s, t in g) for g in groups)
        assert turned in oriented
        assert flipped in oriented


def test_seed_tiles_have_the_seed_groups() -> None:
    by_name = {t.name: t for t in TILES}
    overpass = by_name["overpass-r0"]
    assert set(overpass.groups) == {
        frozenset({(Side.W, L), (Side.E, L)}),
        frozenset({(Side.N, R), (Side.S, R)}),
    }
    assert by_name["station-t-rail-r0"].groups == (
        frozenset({(Side.W, L), (Side.E, L), (Side.S, R)}),
    )
    assert by_name["rail-straight-r90"].groups == (frozenset({(Side.W, L), (Side.E, L)}),)


def test_each_transport_of_a_tile_lies_in_one_group() -> None:
    for tile in TILES:
        for transport in Transport:
            holding = [g for g in tile.groups if any(t is transport for _, t in g)]
            assert len(holding) <= 1, tile.name
    stations = [t for t in TILES if len({tr for g in t.groups for _, tr in g}) == 2]
    assert all(len(t.groups) == 1 for t in stations if not t.base.startswith("overpass"))


def test_exits_follow_the_seed_board() -> None:
    assert [(r, c, k.value) for r, c, k in EXITS] == [
        (0, 2, "exit-road-down"),
        (0, 4, "exit-rail-down"),
        (0, 6, "exit-road-down"),
        (2, 0, "exit-rail-right"),
        (2, 8, "exit-rail-left"),
        (4, 0, "exit-road-right"),
        (4, 8, "exit-road-left"),
        (6, 0, "exit-rail-right"),
        (6, 8, "exit-rail-left"),
        (8, 2, "exit-road-up"),
        (8, 4, "exit-rail-up"),
        (8, 6, "exit-road-up"),
    ]
    assert ExitKind.RAIL_RIGHT.side is Side.E
    assert ExitKind.ROAD_DOWN.side is Side.S
    assert ExitKind.ROAD_UP.transport is R


def test_codes_cover_empty_tiles_and_exits() -> None:
    assert CODE_COUNT == 1 + 58 + 8
    assert code_name(0) == "empty"
    assert code_groups(0) == ()
    assert code_name(14) == "rail-curve-r90"
    assert code_sides(14) == (0, 2, 2, 0)
    rail_right = EXIT_CODE[ExitKind.RAIL_RIGHT]
    assert code_name(rail_right) == "exit-rail-right"
    assert code_sides(rail_right) == (0, 2, 0, 0)
    assert sorted(EXIT_CODE.values()) == list(range(59, 67))
