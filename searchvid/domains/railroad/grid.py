"""Board geometry shared by the rules and the network analysis.

A board is 81 bytes, one per cell of the 9x9 grid, row-major: the border holds the twelve
exits of seed 000's ``Board``, the 7x7 interior takes tiles. Placement looks at a cell's
*constraint key*: for each side N, E, S, W (2 bits each, N lowest), what the neighbour shows
across that side: 0 blank, 1 road, 2 rail, or 3 when the neighbour is an empty cell.
"""

from __future__ import annotations

from searchvid.domains.railroad.tiles import CODE_COUNT, EMPTY, EXIT_CODE, EXITS, code_sides

__all__ = [
    "CENTRE",
    "EXIT_CELLS",
    "FACING",
    "FREE",
    "INTERIOR",
    "NEIGHBOURS",
    "OFFSETS",
    "SIZE",
    "START_CELLS",
    "Spots",
    "constraint_key",
    "fits",
    "fits_game",
    "is_open_key",
    "placed_spots",
    "scan_spots",
]

SIZE = 9
"""Board edge in cells, border included."""

INTERIOR: tuple[int, ...] = tuple(
    r * SIZE + c for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)
)
"""Cell indices of the 7x7 playable interior, row-major."""

CENTRE: tuple[int, ...] = tuple(r * SIZE + c for r in range(3, 6) for c in range(3, 6))
"""Cell indices of the 3x3 centre of the interior (scored by the game)."""

EXIT_CELLS: tuple[int, ...] = tuple(r * SIZE + c for r, c, _ in EXITS)
"""Cell indices of the twelve exits, in the order of :data:`tiles.EXITS` (row-major)."""

OFFSETS: tuple[int, int, int, int] = (-SIZE, 1, SIZE, -1)
"""Index offset to the neighbour across side N, E, S, W."""

NEIGHBOURS: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (c, c - SIZE, c + 1, c + SIZE, c - 1) for c in INTERIOR
)
"""For each interior cell: the cell and its neighbours across N, E, S, W."""

FREE = 3
"""Constraint value of a side whose neighbour is an empty cell."""


def _facing_tables() -> tuple[tuple[int, ...], ...]:
    tables = []
    for d in range(4):
        opposite = (d + 2) % 4
        row = []
        for code in range(CODE_COUNT):
            value = FREE if code == EMPTY else code_sides(code)[opposite]
            row.append(value << (2 * d))
        tables.append(tuple(row))
    return tuple(tables)


FACING: tuple[tuple[int, ...], ...] = _facing_tables()
"""``FACING[d][code]``: what a neighbour holding ``code`` across side ``d`` shows, already
shifted into the key's bits for side ``d``."""


def constraint_key(cells: bytes, cell: int) -> int:
    """The constraint key of interior ``cell`` (2 bits per side N, E, S, W; N lowest)."""
    return (
        FACING[0][cells[cell - SIZE]]
        | FACING[1][cells[cell + 1]]
        | FACING[2][cells[cell + SIZE]]
        | FACING[3][cells[cell - 1]]
    )


def is_open_key(key: int) -> bool:
    """Whether a route leads into a cell with this key (the cell is an open position)."""
    return any(((key >> (2 * d)) & 3) in (1, 2) for d in range(4))


def fits(sides: tuple[int, int, int, int], key: int) -> bool:
    """Whether a tile with transports ``sides`` (N, E, S, W) may go on a cell with ``key``.

    The seed's rule side by side: against an empty neighbour a side is neutral; otherwise it
    matches when both sides carry the same transport and is incompatible when they differ
    (including a route against a blank side). Legal when nothing is incompatible and at
    least one side matches.
    """
    matches = 0
    for d in range(4):
        wanted = (key >> (2 * d)) & 3
        if wanted == FREE:
            continue
        if wanted != sides[d]:
            return False
        matches += wanted != 0
    return matches > 0


def fits_game(sides: tuple[int, int, int, int], key: int) -> bool:
    """Whether a tile may go on a cell with ``key`` under the published game's rules.

    A route drawn must join at least one route or exit already there: some side carries the
    same transport as the neighbour across it. Only a road end touching a rail end directly
    is forbidden; a route end may face a tile's blank side or an empty cell, and a blank side
    may face a route end or an exit (each open end costs a point at scoring, see
    :mod:`searchvid.domains.railroad.network`).
    """
    joined = False
    for d in range(4):
        wanted = (key >> (2 * d)) & 3
        if wanted == FREE or wanted == 0 or sides[d] == 0:
            continue
        if wanted != sides[d]:
            return False
        joined = True
    return joined


def _start_cells() -> bytes:
    cells = bytearray(SIZE * SIZE)
    for (_, _, kind), cell in zip(EXITS, EXIT_CELLS, strict=True):
        cells[cell] = EXIT_CODE[kind]
    return bytes(cells)


START_CELLS: bytes = _start_cells()
"""The cells of the empty board: nothing but the twelve exits."""


Spots = tuple[tuple[int, int], ...]
"""Empty interior cells that take a tile, row-major, each as ``(cell, constraint key)``."""

_AFFECTED: tuple[tuple[tuple[int, int, int, int, int], ...], ...] = tuple(
    tuple(
        nb
        for nb in NEIGHBOURS
        if nb[0] == cell or nb[0] in (cell - SIZE, cell + 1, cell + SIZE, cell - 1)
    )
    for cell in range(SIZE * SIZE)
)
"""``_AFFECTED[cell]``: the interior cells whose constraint key a change of ``cell`` may
change (the cell itself and its four neighbours), each with its neighbours as in
:data:`NEIGHBOURS`."""

_AFFECTED_SET: tuple[frozenset[int], ...] = tuple(
    frozenset(nb[0] for nb in around) for around in _AFFECTED
)


def scan_spots(cells: bytes, weight: tuple[int, ...]) -> tuple[Spots, int]:
    """Every empty interior cell whose key has a non-zero ``weight``, and the weights' sum.

    Args:
        cells: The 81 cell bytes.
        weight: ``weight[key]`` for each of the 256 constraint keys; 0 where no tile fits
            (for example the number of tiles that fit).

    Returns:
        The spots, row-major, and the sum of their weights.
    """
    f0, f1, f2, f3 = FACING
    spots = []
    total = 0
    for c, n, e, s, w in NEIGHBOURS:
        if cells[c]:
            continue
        key = f0[cells[n]] | f1[cells[e]] | f2[cells[s]] | f3[cells[w]]
        value = weight[key]
        if value:
            spots.append((c, key))
            total += value
    return tuple(spots), total


def placed_spots(
    spots: Spots, total: int, cells: bytes, cell: int, weight: tuple[int, ...]
) -> tuple[Spots, int]:
    """:func:`scan_spots` of ``cells``, from the spots of a board that differed only at
    ``cell``: only that cell and its four neighbours are looked at again.

    Args:
        spots: The spots of the board before the change.
        total: Their weights' sum.
        cells: The cell bytes after the change.
        cell: The one cell that changed.
        weight: The weight table the spots were found with.
    """
    affected = _AFFECTED_SET[cell]
    kept = []
    for spot in spots:
        if spot[0] in affected:
            total -= weight[spot[1]]
        else:
            kept.append(spot)
    f0, f1, f2, f3 = FACING
    for c, n, e, s, w in _AFFECTED[cell]:
        if cells[c]:
            continue
        key = f0[cells[n]] | f1[cells[e]] | f2[cells[s]] | f3[cells[w]]
        value = weight[key]
        if value:
            kept.append((c, key))
            total += value
    kept.sort()
    return tuple(kept), total
