"""The 8-puzzle as a searchvid domain written outside the package.

Eight numbered tiles and a blank on a 3 x 3 board; a move slides a tile next to the blank into
it. The goal is ``1 2 3 / 4 5 6 / 7 8 _``. Render the A* scene beside this file with::

    searchvid render examples/eight-puzzle-astar.toml

A* needs nothing from the node but ``children()``: the goal test and the heuristic come from
the domain, and a board is its own transposition key (it is hashable and holds only the
tiles), so the node declares no capabilities. The status strip and the captions speak the
puzzle's words through the domain's ``status``, ``describe_move`` and ``describe_value``:
``tiles in place 6/8``, ``slide 5 left``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar

from searchvid import Capability, Domain, Field, GridView, OptionError, option

SIDE = 3
"""Cells per side of the board."""
CELLS = SIDE * SIDE
BLANK = 0
"""The value of the blank cell."""

GOAL: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, BLANK)
"""The solved board, row by row."""

DEFAULT_START = "6 2 8 / 3 _ 1 / 4 5 7"
"""A scramble 20 moves from the goal (A* with Manhattan distances pops about 240 boards)."""


def _neighbours(cell: int) -> tuple[int, ...]:
    """The cells next to ``cell``, in move order: up, down, left, right."""
    row, col = divmod(cell, SIDE)
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    return tuple(
        (row + dr) * SIDE + col + dc
        for dr, dc in steps
        if 0 <= row + dr < SIDE and 0 <= col + dc < SIDE
    )


def _distances(tile: int) -> tuple[int, ...]:
    """Moves from each cell to ``tile``'s goal cell on an empty board (0 for the blank)."""
    if tile == BLANK:
        return (0,) * CELLS
    goal_row, goal_col = divmod(GOAL.index(tile), SIDE)
    return tuple(
        abs(cell // SIDE - goal_row) + abs(cell % SIDE - goal_col) for cell in range(CELLS)
    )


_NEIGHBOURS = tuple(_neighbours(cell) for cell in range(CELLS))
_DIRECTIONS = {-SIDE: "up", SIDE: "down", -1: "left", 1: "right"}
"""Which way a tile moves, by the change of its cell index."""
_DISTANCE = tuple(_distances(tile) for tile in range(CELLS))  # [tile][cell]


@dataclass(frozen=True, slots=True)
class Board:
    """An 8-puzzle position: the tiles row by row, ``0`` for the blank.

    Equal and hashed by the tiles alone, so positions reached by different move orders are
    the same state to every search.
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset()

    tiles: tuple[int, ...]

    def children(self) -> Iterator[Board]:
        """The boards one slide away, in a fixed order: the blank moves up, down, left, right."""
        tiles = self.tiles
        blank = tiles.index(BLANK)
        for cell in _NEIGHBOURS[blank]:
            moved = list(tiles)
            moved[blank], moved[cell] = moved[cell], BLANK
            yield Board(tuple(moved))

    def is_solved(self) -> bool:
        """Whether the tiles are in goal order."""
        return self.tiles == GOAL

    def __str__(self) -> str:
        return format_tiles(self.tiles)


def format_tiles(tiles: tuple[int, ...]) -> str:
    """``tiles`` written as rows such as ``"1 2 3 / 4 _ 6 / 7 5 8"`` (``_`` is the blank)."""
    marks = ["_" if tile == BLANK else str(tile) for tile in tiles]
    return " / ".join(" ".join(marks[row * SIDE : (row + 1) * SIDE]) for row in range(SIDE))


def parse_tiles(start: str | tuple[int, ...]) -> tuple[int, ...]:
    """The tiles of a start position: rows ``"1 2 3 / 4 _ 6 / 7 5 8"`` or nine numbers.

    In the text form ``_`` or ``0`` is the blank; the slashes between rows are optional.

    Raises:
        OptionError: Key ``start``: not the numbers 0-8 once each, or an unsolvable position.
    """
    if isinstance(start, str):
        words = start.replace("/", " ").split()
        try:
            tiles = tuple(BLANK if word == "_" else int(word) for word in words)
        except ValueError:
            raise OptionError(
                "start", f"{start!r}: write the rows with the numbers 1-8 and _ for the blank"
            ) from None
    else:
        tiles = tuple(start)
    if len(tiles) != CELLS:
        raise OptionError("start", f"needs {CELLS} cells (8 tiles and the blank), got {len(tiles)}")
    if sorted(tiles) != list(range(CELLS)):
        repeated = sorted({tile for tile in tiles if tiles.count(tile) > 1})
        problem = f"{repeated[0]} appears more than once" if repeated else "a number is not 0-8"
        raise OptionError(
            "start", f"{_format_list(tiles)}: {problem}; needs 1-8 and the blank once each"
        )
    if inversions(tiles) % 2 != inversions(GOAL) % 2:
        raise OptionError(
            "start",
            f"{format_tiles(tiles)} cannot be solved: an odd number of tile pairs are out "
            "of order (swap two tiles to fix it)",
        )
    return tiles


def _format_list(tiles: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(tile) for tile in tiles) + "]"


def inversions(tiles: tuple[int, ...]) -> int:
    """Pairs of numbered tiles in the wrong order, reading row by row.

    On a board of odd width a slide never changes its parity, so a position can be solved
    exactly when its parity equals the goal's.
    """
    numbered = [tile for tile in tiles if tile != BLANK]
    return sum(1 for i, tile in enumerate(numbered) for later in numbered[i + 1 :] if later < tile)


def slide_words(before: tuple[int, ...], after: tuple[int, ...]) -> str | None:
    """The slide from ``before`` to ``after`` as seen on screen: ``"slide 5 left"``.

    The tile next to the blank moves into it, so it goes from the blank's cell in ``after``
    to the blank's cell in ``before``. None when ``after`` is not one slide from ``before``.
    """
    blank, source = before.index(BLANK), after.index(BLANK)
    if source not in _NEIGHBOURS[blank]:
        return None
    moved = list(before)
    moved[blank], moved[source] = moved[source], BLANK
    if tuple(moved) != after:
        return None
    return f"slide {after[blank]} {_DIRECTIONS[blank - source]}"


def tiles_in_place(tiles: tuple[int, ...]) -> int:
    """How many of the eight numbered tiles are on their goal cells."""
    return sum(1 for tile, goal in zip(tiles, GOAL, strict=True) if tile == goal != BLANK)


def manhattan(node: Board) -> float:
    """Sum over the tiles of their row and column distances to their goal cells.

    Admissible (each move shifts one tile by one cell) and consistent.
    """
    return float(sum(_DISTANCE[tile][cell] for cell, tile in enumerate(node.tiles)))


def in_place(node: Board) -> float:
    """The fraction of the eight tiles on their goal cells, in [0, 1]."""
    return tiles_in_place(node.tiles) / (CELLS - 1)


@dataclass(frozen=True, kw_only=True)
class EightPuzzleOptions:
    """Options of the ``eight-puzzle`` domain."""

    start: str | tuple[int, ...] = option(
        DEFAULT_START,
        doc="Start position: rows such as '1 2 3 / 4 _ 6 / 7 5 8' (_ is the blank) "
        "or a list of the nine numbers row by row (0 is the blank).",
    )

    def __post_init__(self) -> None:
        parse_tiles(self.start)

    @property
    def tiles(self) -> tuple[int, ...]:
        """The start position as nine numbers, row by row."""
        return parse_tiles(self.start)


TILE_COLORS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
)
"""The colour of tiles 1-8."""
BLANK_COLOR = "#20242c"


class EightPuzzle(Domain):
    """The 8-puzzle: slide the tiles into the order 1-8 with the blank last."""

    name = "eight-puzzle"
    summary = "The 8-puzzle: slide numbered tiles into order on a 3 x 3 board."
    options_type = EightPuzzleOptions
    has_goal = True
    default_value = "in_place"
    default_heuristic = "manhattan"

    def __init__(self, options: EightPuzzleOptions) -> None:
        super().__init__(options)
        self.start = options.tiles

    def root(self) -> Board:
        return Board(self.start)

    def view(self) -> GridView:
        colors = {BLANK: BLANK_COLOR, **dict(enumerate(TILE_COLORS, start=1))}
        labels = {tile: str(tile) for tile in range(1, CELLS)}
        return GridView((SIDE, SIDE), colors=colors, labels=labels, cells=attrgetter("tiles"))

    def label(self, node: Any) -> str:
        return format_tiles(node.tiles)

    def values(self) -> Mapping[str, Callable[[Any], float]]:
        return {"in_place": in_place}

    def heuristics(self) -> Mapping[str, Callable[[Any], float]]:
        return {"manhattan": manhattan}

    def is_goal(self, node: Any) -> bool:
        return bool(node.is_solved())

    def status(self, node: Any) -> Sequence[Field]:
        """What the status strip says about a board: ``tiles in place 6/8``."""
        return (Field("tiles in place", tiles_in_place(node.tiles), of=CELLS - 1),)

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """The slide from ``parent`` to ``child`` for captions: ``"slide 5 left"``."""
        return slide_words(parent.tiles, child.tiles)

    def describe_value(self, value: float) -> str | None:
        """An ``in_place`` value in words: 0.75 is ``"6 of 8 tiles in place"``.

        ``in_place`` is this domain's one value function, so a value in eighths means tiles
        in place; anything else is left as a number.
        """
        count = value * (CELLS - 1)
        if count != round(count) or not 0 <= count <= CELLS - 1:
            return None
        return f"{round(count)} of {CELLS - 1} tiles in place"
