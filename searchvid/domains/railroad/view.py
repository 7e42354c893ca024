"""The Railroad Ink view: a board as a 9x9 grid of tile ids, plus a row for the game's dice.

Tile ids follow the cell bytes: id 0 is ``"empty"`` (a border cell without an exit), ids
``1 + tile.id`` are the oriented tiles, then the eight exit kinds; two more ids mark the
empty interior cells, ``"empty-cell"`` and ``"open"`` (an open position: a route leads in).
The tiles of the game's row follow (:data:`STRIP_TILE_NAMES`).

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

from collections import Counter
from typing import Any

import numpy as np

from searchvid.domains.railroad.game import (
    FACE_NAMES,
    MAX_SPECIALS,
    ROUNDS,
    SPECIAL_NAMES,
    GameState,
)
from searchvid.domains.railroad.grid import INTERIOR, SIZE
from searchvid.domains.railroad.tiles import TILES, ExitKind
from searchvid.render.boardlegend import PLACED_MARK, Mark
from searchvid.render.celllabels import CellLabel
from searchvid.render.view import TileGrid, TileSet

__all__ = [
    "BOARD_MARKS",
    "COORDINATES",
    "DIE_STATES",
    "EMPTY_CELL_ID",
    "GAME_MARKS",
    "OPEN_ID",
    "STRIP_TILE_NAMES",
    "TILE_NAMES",
    "RailroadView",
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

TILE_NAMES: tuple[str, ...] = (
    "empty",
    *(t.name for t in TILES),
    *(k.value for k in ExitKind),
    "empty-cell",
    "open",
    *STRIP_TILE_NAMES,
)
"""Every tile the view uses, in id order; the first 67 ids equal the cell bytes."""

EMPTY_CELL_ID = TILE_NAMES.index("empty-cell")
OPEN_ID = TILE_NAMES.index("open")
_ID = {name: i for i, name in enumerate(TILE_NAMES)}

BOARD_MARKS = (
    Mark("exit-road-up", "exit"),
    Mark("station-straight-r0", "station"),
    Mark("open", "open: a route leads in"),
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
        """Every oriented tile, the exits, the empty and open markers, the game's row."""
        return self._tileset

    @property
    def marks(self) -> tuple[Mark, ...]:
        """Exits, stations and open positions (and in a game the dice's states, the special
        routes and the tile just placed), for the frame's legend."""
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
        """Tile ids of ``node``: its cells, with empty interior cells shown empty or open;
        under the game's rules the row of the round, its dice and the special routes."""
        cells = np.frombuffer(node.cells, dtype=np.uint8).astype(np.int16)
        cells[(cells == 0) & _INTERIOR_MASK] = EMPTY_CELL_ID
        cells[node.open_cells()] = OPEN_ID
        if not self._game:
            return cells.reshape(SIZE, SIZE)
        strip = np.array([_ID[name] for name in strip_names(node)], dtype=np.int16)
        return np.concatenate([cells, strip]).reshape(SIZE + 1, SIZE)
