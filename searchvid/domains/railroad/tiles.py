"""Railroad Ink tiles: connection groups, orientations, exits and byte codes.

A tile is a tuple of *connection groups* (seed 001): each group is a frozenset of
``(side, transport)`` pairs that are connected inside the tile. The overpass has two groups
(its road and its rail cross without meeting); a station is one group mixing road and rail.

Every base tile is turned into all its distinct rotations and mirror images; each oriented
tile gets a stable id (its position in :data:`TILES`) and a name such as
``"rail-curve-r90"`` or ``"station-curve-mirror-r0"``.

Boards store one byte per cell (see :mod:`searchvid.domains.railroad.rules`): ``0`` is an
empty cell, ``1 + id`` an oriented tile, and the exit codes follow the tiles.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = [
    "BASE_TILES",
    "CODE_COUNT",
    "EMPTY",
    "EXITS",
    "EXIT_CODE",
    "TILES",
    "BaseTile",
    "ExitKind",
    "Group",
    "Side",
    "Tile",
    "Transport",
    "code_groups",
    "code_name",
    "code_sides",
    "orientations",
]


class Side(enum.IntEnum):
    """The four sides of a cell, clockwise from the top."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        """The side facing this one across a cell edge."""
        return Side((self + 2) % 4)

    def rotated(self, quarter_turns: int) -> Side:
        """This side after turning the tile ``quarter_turns`` times clockwise."""
        return Side((self + quarter_turns) % 4)

    @property
    def mirrored(self) -> Side:
        """This side after flipping the tile left to right (east and west swap)."""
        return {Side.E: Side.W, Side.W: Side.E}.get(self, self)


class Transport(enum.IntEnum):
    """What a route carries; a side carries at most one."""

    ROAD = 1
    RAIL = 2


Group = frozenset[tuple[Side, Transport]]
"""Sides that are connected inside a tile, each with the transport it carries there."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One oriented tile.

    Attributes:
        id: Stable id, the tile's index in :data:`TILES`.
        name: Readable name, e.g. ``"rail-curve-r90"``.
        base: Name of the base tile it is an orientation of.
        groups: Connection groups in a canonical order.
        special: Whether it is one of the game's special routes.
    """

    id: int
    name: str
    base: str
    groups: tuple[Group, ...]
    special: bool

    def side(self, side: Side) -> Transport | None:
        """The transport leaving through ``side``, or None."""
        for group in self.groups:
            for s, transport in group:
                if s is side:
                    return transport
        return None

    @property
    def sides(self) -> tuple[int, int, int, int]:
        """Transport value per side N, E, S, W: 0 none, 1 road, 2 rail."""
        values = [0, 0, 0, 0]
        for group in self.groups:
            for s, transport in group:
                values[s] = int(transport)
        return (values[0], values[1], values[2], values[3])


@dataclass(frozen=True, slots=True)
class BaseTile:
    """A tile as printed in its first orientation.

    Attributes:
        name: Base name, e.g. ``"rail-curve"``.
        groups: Connection groups of the first orientation.
        special: Whether it is one of the game's special routes (not on the route dice).
    """

    name: str
    groups: tuple[Group, ...]
    special: bool = False


def _group(*pairs: tuple[Side, Transport]) -> Group:
    return frozenset(pairs)


_R, _L = Transport.ROAD, Transport.RAIL
_N, _E, _S, _W = Side.N, Side.E, Side.S, Side.W

BASE_TILES: tuple[BaseTile, ...] = (
    # Route dice: straight, curve and T for road and for rail.
    BaseTile("road-straight", (_group((_N, _R), (_S, _R)),)),
    BaseTile("road-curve", (_group((_N, _R), (_E, _R)),)),
    BaseTile("road-t", (_group((_W, _R), (_E, _R), (_S, _R)),)),
    BaseTile("rail-straight", (_group((_N, _L), (_S, _L)),)),
    BaseTile("rail-curve", (_group((_N, _L), (_E, _L)),)),
    BaseTile("rail-t", (_group((_W, _L), (_E, _L), (_S, _L)),)),
    # Station die: stations joining road and rail, and the overpass.
    BaseTile("station-straight", (_group((_N, _R), (_S, _L)),)),
    BaseTile("station-curve", (_group((_N, _R), (_E, _L)),)),
    BaseTile("station-t-rail", (_group((_W, _L), (_E, _L), (_S, _R)),)),
    BaseTile("station-t-road", (_group((_W, _R), (_E, _R), (_S, _L)),)),
    BaseTile("overpass", (_group((_W, _L), (_E, _L)), _group((_N, _R), (_S, _R)))),
    # The six special routes.
    BaseTile("road-cross", (_group((_N, _R), (_E, _R), (_S, _R), (_W, _R)),), special=True),
    BaseTile("rail-cross", (_group((_N, _L), (_E, _L), (_S, _L), (_W, _L)),), special=True),
    BaseTile("station-cross-road", (_group((_N, _R), (_E, _R), (_W, _R), (_S, _L)),), special=True),
    BaseTile("station-cross-rail", (_group((_N, _L), (_E, _L), (_W, _L), (_S, _R)),), special=True),
    BaseTile(
        "station-cross-corner", (_group((_N, _R), (_E, _R), (_S, _L), (_W, _L)),), special=True
    ),
    BaseTile(
        "station-cross-straight", (_group((_N, _R), (_S, _R), (_E, _L), (_W, _L)),), special=True
    ),
)
"""Base tiles in id order: the route dice, the station die, then the special routes."""


def _canonical(groups: frozenset[Group]) -> tuple[Group, ...]:
    return tuple(sorted(groups, key=lambda g: sorted(g)))


def _transform(groups: tuple[Group, ...], mirror: bool, turns: int) -> frozenset[Group]:
    def move(side: Side) -> Side:
        return (side.mirrored if mirror else side).rotated(turns)

    return frozenset(frozenset((move(s), t) for s, t in g) for g in groups)


def orientations(base: BaseTile) -> list[tuple[str, tuple[Group, ...]]]:
    """The distinct orientations of ``base`` with their names, in a fixed order.

    Rotations r0, r90, r180, r270 (clockwise) first, then the mirror images; an orientation
    equal to an earlier one is dropped.
    """
    seen: set[frozenset[Group]] = set()
    result: list[tuple[str, tuple[Group, ...]]] = []
    for mirror in (False, True):
        for turns in range(4):
            groups = _transform(base.groups, mirror, turns)
            if groups in seen:
                continue
            seen.add(groups)
            suffix = f"-mirror-r{90 * turns}" if mirror else f"-r{90 * turns}"
            result.append((base.name + suffix, _canonical(groups)))
    return result


def _all_tiles() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for base in BASE_TILES:
        for name, groups in orientations(base):
            tiles.append(Tile(len(tiles), name, base.name, groups, base.special))
    return tuple(tiles)


TILES: tuple[Tile, ...] = _all_tiles()
"""Every oriented tile; ``TILES[i].id == i``. Basic tiles come before the special routes."""


class ExitKind(enum.Enum):
    """The eight kinds of exit: a transport and the direction it points into the board.

    The value is the tile name, as the seed names them (``exit_rail_right`` sits on the left
    border and points right).
    """

    ROAD_DOWN = "exit-road-down"
    RAIL_DOWN = "exit-rail-down"
    ROAD_LEFT = "exit-road-left"
    RAIL_LEFT = "exit-rail-left"
    ROAD_UP = "exit-road-up"
    RAIL_UP = "exit-rail-up"
    ROAD_RIGHT = "exit-road-right"
    RAIL_RIGHT = "exit-rail-right"

    @property
    def transport(self) -> Transport:
        """What the exit carries."""
        return Transport.ROAD if "road" in self.value else Transport.RAIL

    @property
    def side(self) -> Side:
        """The side of the border cell that faces the board (where its route leaves)."""
        direction = self.value.rsplit("-", 1)[1]
        return {"down": Side.S, "left": Side.W, "up": Side.N, "right": Side.E}[direction]


EMPTY = 0
"""The byte of an empty cell."""

EXIT_CODE: dict[ExitKind, int] = {kind: len(TILES) + 1 + i for i, kind in enumerate(ExitKind)}
"""The byte of each exit kind (after the tiles)."""

CODE_COUNT = len(TILES) + 1 + len(ExitKind)
"""Number of distinct cell bytes (empty, tiles, exits)."""

EXITS: tuple[tuple[int, int, ExitKind], ...] = (
    (0, 2, ExitKind.ROAD_DOWN),
    (0, 4, ExitKind.RAIL_DOWN),
    (0, 6, ExitKind.ROAD_DOWN),
    (2, 0, ExitKind.RAIL_RIGHT),
    (2, 8, ExitKind.RAIL_LEFT),
    (4, 0, ExitKind.ROAD_RIGHT),
    (4, 8, ExitKind.ROAD_LEFT),
    (6, 0, ExitKind.RAIL_RIGHT),
    (6, 8, ExitKind.RAIL_LEFT),
    (8, 2, ExitKind.ROAD_UP),
    (8, 4, ExitKind.RAIL_UP),
    (8, 6, ExitKind.ROAD_UP),
)
"""The twelve exits ``(row, col, kind)`` in row-major order, as in seed 000's ``Board``."""


def code_name(code: int) -> str:
    """The tile name of a cell byte (``"empty"`` for 0)."""
    if code == EMPTY:
        return "empty"
    if code <= len(TILES):
        return TILES[code - 1].name
    return list(ExitKind)[code - len(TILES) - 1].value


def code_groups(code: int) -> tuple[Group, ...]:
    """The connection groups of a cell byte (an exit is one group with one side)."""
    if code == EMPTY:
        return ()
    if code <= len(TILES):
        return TILES[code - 1].groups
    kind = list(ExitKind)[code - len(TILES) - 1]
    return (frozenset({(kind.side, kind.transport)}),)


def code_sides(code: int) -> tuple[int, int, int, int]:
    """Transport value per side N, E, S, W of a cell byte: 0 none, 1 road, 2 rail."""
    values = [0, 0, 0, 0]
    for group in code_groups(code):
        for side, transport in group:
            values[side] = int(transport)
    return (values[0], values[1], values[2], values[3])
