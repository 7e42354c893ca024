"""The Railroad Ink view: a board as a 9x9 grid of tile ids, plus a row for the game's dice.

Tile ids follow the cell bytes: id 0 is ``"empty"`` (a border cell without an exit), ids
``1 + tile.id`` are the oriented tiles, then the eight exit kinds; two more ids mark the
empty interior cells, ``"empty-cell"`` and ``"open"`` (an open position: a route leads in).
The tiles of the game's row follow (:data:`STRIP_TILE_NAMES`), then the error marks
(:data:`ERROR_TILE_NAMES`).

Every route end that the game's scoring counts as an error (:func:`network.error_ends`) ends
at a red and white barrier drawn just across the cell edge, in the cell it runs into, so the
route itself stays whole and a reader counts the barriers to find the errors. An end against
a blank side is an error for good and is marked at once; an end into an empty cell is marked
only once no tile can come any more (the game is over, or the puzzle stuck): until then it
may still be continued, and the open marker shows it. The marked cells are tiles of their
own, ``"<tile>+error-<sides>"`` (``"open+error-NW"``), one for each tile and set of its blank
sides and for the open marker and each set of sides, so the renderer's contract (a grid of
tile ids) holds.

Under ``rules = "game"`` a tenth row shows, left to right: the round (``round-N``, or
``game-over``), the four dice of the round (drawn dice greyed, skipped dice crossed out; at
a chance node the last round's dice as they ended, before the first roll blank dice), a gap,
and three slots for the special routes drawn (in the order of :data:`game.SPECIAL_NAMES`).
The game's board also carries its coordinates (:attr:`RailroadView.cell_labels`: the
columns' letters under the board, the rows' numbers left of it, as
:func:`words.cell_name` names cells) and asks the renderer to bracket the tile each move
just placed (:data:`~searchvid.render.boardlegend.PLACED_MARK`).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.domains.railroad.game import (
    FACE_NAMES,
    MAX_SPECIALS,
    ROUNDS,
    SPECIAL_NAMES,
    GameState,
)
from searchvid.domains.railroad.grid import INTERIOR, OFFSETS, SIZE
from searchvid.domains.railroad.network import error_ends
from searchvid.domains.railroad.tiles import TILES, ExitKind
from searchvid.render.boardlegend import PLACED_MARK, Mark
from searchvid.render.celllabels import CellLabel
from searchvid.render.view import TileGrid, TileSet

__all__ = [
    "BOARD_MARKS",
    "COORDINATES",
    "DIE_STATES",
    "EMPTY_CELL_ID",
    "ERROR_MARK",
    "ERROR_SWATCH",
    "ERROR_TILE_NAMES",
    "GAME_MARKS",
    "OPEN_ID",
    "STRIP_TILE_NAMES",
    "TILE_NAMES",
    "RailroadView",
    "error_marks",
    "error_name",
    "strip_names",
]

DIE_STATES: tuple[str, ...] = ("", "-placed", "-skipped")
"""Suffixes of a die tile: to be drawn, drawn (greyed), skipped (crossed out)."""

STRIP_TILE_NAMES: tuple[str, ...] = (
    *(f"round-{n}" for n in range(1, ROUNDS + 1)),
    "game-over",
    "die-unrolled",
    *(f"die-{face}{state}" for face in FACE_NAMES for state in DIE_STATES),
    "special-slot",
    *(f"special-{name}" for name in SPECIAL_NAMES),
)
"""The tiles of the game's row: rounds, dice in their three states, special-route slots."""

_SIDE_LETTERS = "NESW"


def error_name(base: str, sides: int) -> str:
    """The tile showing ``base`` with a barrier on each side in the bit mask ``sides`` (bit
    ``d`` for side ``d``: N, E, S, W): ``error_name("open", 0b1001)`` is ``"open+error-NW"``."""
    letters = "".join(letter for d, letter in enumerate(_SIDE_LETTERS) if sides >> d & 1)
    return f"{base}+error-{letters}"


def _submasks(mask: int) -> tuple[int, ...]:
    """The non-empty subsets of bit mask ``mask``, ascending."""
    return tuple(m for m in range(1, 16) if m & mask == m)


_BLANK_SIDES: tuple[int, ...] = tuple(
    sum(1 << d for d in range(4) if not t.sides[d]) for t in TILES
)
"""Per tile (by id), the bit mask of its sides without a route: where another tile's route
end can meet it (the rules let no road end meet a rail end)."""

ERROR_SWATCH = "route-end-error"
"""The legend's picture of an error: a road ending at the barrier."""

ERROR_TILE_NAMES: tuple[str, ...] = (
    ERROR_SWATCH,
    *(error_name("open", m) for m in range(1, 16)),
    *(error_name(t.name, m) for t in TILES for m in _submasks(_BLANK_SIDES[t.id])),
)
"""The legend's swatch, then each tile that can receive a route end counted as an error,
with the barriers on the sides the ends come in: the open marker (ends into an empty cell,
at the end), every tile with a set of its blank sides."""

TILE_NAMES: tuple[str, ...] = (
    "empty",
    *(t.name for t in TILES),
    *(k.value for k in ExitKind),
    "empty-cell",
    "open",
    *STRIP_TILE_NAMES,
    *ERROR_TILE_NAMES,
)
"""Every tile the view uses, in id order; the first 67 ids equal the cell bytes."""

EMPTY_CELL_ID = TILE_NAMES.index("empty-cell")
OPEN_ID = TILE_NAMES.index("open")
_ID = {name: i for i, name in enumerate(TILE_NAMES)}


_BARRED: tuple[int, ...] = (
    0,
    *_BLANK_SIDES,
    *(0 for _ in ExitKind),
    0,
    0b1111,
)
"""Per cell tile id up to the open marker, the sides that can carry a barrier."""


def _error_table() -> npt.NDArray[np.int16]:
    """``table[id, sides]``: the id of tile ``id`` with barriers on ``sides`` (``id`` itself
    for no sides), or -1 where it has none (``sides`` not within :data:`_BARRED`)."""
    table = np.full((OPEN_ID + 1, 16), -1, dtype=np.int16)
    table[:, 0] = np.arange(OPEN_ID + 1)
    for name in ERROR_TILE_NAMES[1:]:
        base, letters = name.split("+error-")
        sides = sum(1 << _SIDE_LETTERS.index(letter) for letter in letters)
        table[_ID[base], sides] = _ID[name]
    return table


_ERROR_IDS = _error_table()

ERROR_MARK = Mark(ERROR_SWATCH, "error: route leads nowhere, -1 point")
"""The barrier at a route end the scoring counts as an error."""

BOARD_MARKS = (
    Mark("exit-road-up", "exit"),
    Mark("station-straight-r0", "station"),
    # the score counts a tile's end into an empty cell as an error before any barrier marks
    # it ("points -1" on a board with no barrier): the mark says what it costs (an exit's
    # end costs nothing, so the start's twelve rings are 0 points)
    Mark("open", "open: a route leads in; -1 point per tile's end into it"),
    ERROR_MARK,
)
"""What the board's marks mean (the frame's legend)."""
GAME_MARKS = (
    Mark("round-1", "round"),
    Mark("die-road-straight", "die to draw"),
    Mark("die-road-straight-placed", "die drawn"),
    Mark("die-road-straight-skipped", "die skipped"),
    Mark(f"special-{SPECIAL_NAMES[0]}", "special route used"),
    Mark("special-slot", "special route unused"),
    PLACED_MARK,
)
"""What the dice row's marks mean under the game's rules (the round's badge, the dice in
their three states, the special routes' cards and free slots), and the renderer's bracket
on the tile just placed."""

_COLUMN_LETTERS = "ABCDEFG"

COORDINATES: tuple[CellLabel, ...] = (
    *(CellLabel(SIZE - 1, col, _COLUMN_LETTERS[col - 1], "n") for col in range(1, SIZE - 1)),
    *(CellLabel(row, 0, str(SIZE - 1 - row), "e") for row in range(1, SIZE - 1)),
)
"""The board's coordinates as the words name cells (``"C4"``): the letters ``A`` to ``G``
in the border cells under the interior's columns, centred under each column at the cell's
top, the numbers ``7`` down to ``1`` in those left of its rows, centred on each row at the
cell's right edge: beside the interior, each plainly under or beside its own column or row
(a tag in a corner sat as near the next column as its own)."""

_INTERIOR_MASK = np.zeros(SIZE * SIZE, dtype=bool)
_INTERIOR_MASK[list(INTERIOR)] = True


@functools.lru_cache(maxsize=4096)
def error_marks(cells: bytes, ended: bool) -> tuple[tuple[int, int], ...]:
    """The barriers on a board, as ``(cell, sides)``: the cell a counted route end runs into
    and the bit mask of the sides it is entered by, in cell order; cached by the board.

    Every end :func:`network.error_ends` lists is one barrier, but for an end into an empty
    cell while ``ended`` is false (the open marker shows it: a tile may still continue it).
    """
    found: dict[int, int] = {}
    for cell, side in error_ends(cells):
        other = cell + OFFSETS[side]
        if cells[other] or ended:
            found[other] = found.get(other, 0) | 1 << (side + 2) % 4
    return tuple(sorted(found.items()))


def strip_names(node: GameState) -> list[str]:
    """The nine tiles of the game's row for ``node``, left to right."""
    done = node.is_terminal()
    names = ["game-over" if done else f"round-{node.round}"]
    roll = node.roll
    if not roll:
        names += ["die-unrolled"] * 4
    else:
        # The dice not left to draw were drawn, but for those skipped at the end of the round
        # (shown at the next chance node); among equal faces the spent ones come first.
        skipped = Counter(node.skipped)
        placed = Counter(roll) - Counter(node.dice or ()) - skipped
        for face in roll:
            name = f"die-{FACE_NAMES[face]}"
            if placed[face]:
                placed[face] -= 1
                name += "-placed"
            elif skipped[face]:
                skipped[face] -= 1
                name += "-skipped"
            names.append(name)
    names.append("empty")
    used = [f"special-{n}" for i, n in enumerate(SPECIAL_NAMES) if node.specials_used >> i & 1]
    names += used + ["special-slot"] * (MAX_SPECIALS - len(used))
    return names


class RailroadView:
    """Draws boards with the art in ``tile_assets/railroad``.

    Args:
        rules: ``"game"`` adds the row of the round, its dice and the special routes, the
            board's coordinates and the bracket on the tile just placed.
    """

    def __init__(self, rules: str = "puzzle") -> None:
        self._tileset = TileSet(names=TILE_NAMES, folder="railroad")
        self._game = rules == "game"

    @property
    def cell_labels(self) -> tuple[CellLabel, ...]:
        """The board's coordinates under the game's rules (:data:`COORDINATES`), whose
        captions name cells; none under the puzzle's."""
        return COORDINATES if self._game else ()

    @property
    def tileset(self) -> TileSet:
        """Every oriented tile, the exits, the empty and open markers, the game's row, the
        error barriers."""
        return self._tileset

    @property
    def marks(self) -> tuple[Mark, ...]:
        """Exits, stations, open positions and errors (and in a game the dice's states, the
        special routes and the tile just placed), for the frame's legend."""
        return BOARD_MARKS + GAME_MARKS if self._game else BOARD_MARKS

    @property
    def shape(self) -> tuple[int, int]:
        """The 9x9 board, border included; one more row under it under the game's rules."""
        return (SIZE + 1, SIZE) if self._game else (SIZE, SIZE)

    def move_cells(self, node: Any, child: Any) -> tuple[tuple[int, int], ...]:
        """The cells where the move from ``node`` to ``child`` draws routes (not the open
        markers it moves, nor the game's row)."""
        before = np.frombuffer(node.cells, dtype=np.uint8)
        after = np.frombuffer(child.cells, dtype=np.uint8)
        return tuple(divmod(int(k), SIZE) for k in np.flatnonzero(before != after))

    def grid(self, node: Any) -> TileGrid:
        """Tile ids of ``node``: its cells, with empty interior cells shown empty or open and
        a barrier at each route end counted as an error (:func:`error_marks`: those into
        empty cells once ``node`` is terminal); under the game's rules the row of the round,
        its dice and the special routes."""
        cells = np.frombuffer(node.cells, dtype=np.uint8).astype(np.int16)
        cells[(cells == 0) & _INTERIOR_MASK] = EMPTY_CELL_ID
        cells[node.open_cells()] = OPEN_ID
        marks = error_marks(node.cells, False)
        ended = error_marks(node.cells, True)
        if ended != marks and node.is_terminal():  # ends into empty cells count now
            marks = ended
        for cell, sides in marks:
            tile = int(cells[cell])
            # a side carrying a route (a road end against a rail end, which no rules allow)
            # has no barrier tile: that end stays unmarked
            cells[cell] = _ERROR_IDS[tile, sides & _BARRED[tile]]
        if not self._game:
            return cells.reshape(SIZE, SIZE)
        strip = np.array([_ID[name] for name in strip_names(node)], dtype=np.int16)
        return np.concatenate([cells, strip]).reshape(SIZE + 1, SIZE)
