"""Railroad Ink in plain words: tile and cell names, moves, and the status strip's fields.

Cells of the 7x7 interior are named like a chess board as drawn: columns ``A`` to ``G`` left
to right, rows ``1`` to ``7`` from the bottom up, so ``A1`` is the interior's bottom-left
cell and ``G7`` its top-right one. Tiles are named by their base tile, without orientation:
``"rail curve"``, ``"road T"``, ``"curved station"``. Under the game's rules the dice are
numbered 1 to 4 as they stand in the row under the board, left to right.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from searchvid.domains.railroad.game import FACE_NAMES, ROUNDS, GameState
from searchvid.domains.railroad.grid import EXIT_CELLS, INTERIOR, SIZE
from searchvid.domains.railroad.network import cluster_sizes, game_score
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.tiles import TILES
from searchvid.domains.railroad.values import SCORE_RANGE
from searchvid.render.setting_words import GOAL_TERM, MOVES_TERM
from searchvid.search.status import Field

__all__ = [
    "POINTS_WORDS",
    "TERMS",
    "TILE_WORDS",
    "VALUE_FUNCTION_WORDS",
    "board_figures",
    "cell_name",
    "describe_end",
    "describe_move",
    "status",
    "tile_words",
    "value_function_words",
]

TILE_WORDS: dict[str, str] = {
    "road-straight": "road straight",
    "road-curve": "road curve",
    "road-t": "road T",
    "rail-straight": "rail straight",
    "rail-curve": "rail curve",
    "rail-t": "rail T",
    "station-straight": "straight station",
    "station-curve": "curved station",
    "station-t-rail": "rail T station",
    "station-t-road": "road T station",
    "overpass": "overpass",
    "road-cross": "road crossing",
    "rail-cross": "rail crossing",
    "station-cross-road": "road crossing station",
    "station-cross-rail": "rail crossing station",
    "station-cross-corner": "corner crossing station",
    "station-cross-straight": "straight crossing station",
}
"""Readable name of each base tile (and so of each die face), by its name in
:data:`tiles.BASE_TILES`."""

_COLUMNS = "ABCDEFG"
_EXITS = len(EXIT_CELLS)
_INTERIOR = frozenset(INTERIOR)


VALUE_FUNCTION_WORDS: dict[str, tuple[str, str]] = {
    "network": (
        "closeness to goal",
        f"1 when one network joins all {_EXITS} exits, lower the more tiles it still needs",
    ),
    "partial": ("share of exits joined", f"exits in the largest network / {_EXITS}"),
    # the dice game's scenes rank by it: a reader knows points, so say how they map
    "score": (
        "scaled score",
        f"points mapped onto 0 to 1: {SCORE_RANGE[0]} = 0, 0 = "
        f"{-SCORE_RANGE[0] / (SCORE_RANGE[1] - SCORE_RANGE[0]):g}, {SCORE_RANGE[1]} = 1",
    ),
}
"""What the strip calls each value function of the puzzle, and what it measures: a reader
sees ``closeness to goal 0.539``, not the function's name ``network``."""


TERMS: dict[str, str] = {GOAL_TERM: f"joining all {_EXITS} exits", MOVES_TERM: "tiles"}
"""The domain's words for the cards' generic phrases: what a goal is, and what its lower
bound on the moves to one counts (tiles, as a move places at most one): ``joining all 12
exits needs at least 12 tiles`` (see :func:`~searchvid.render.setting_words.describe_reach`)."""


POINTS_WORDS = ("points", "the dice game's score if it ended now")
"""What the strip's ``points`` field counts, said once on the opening card under the puzzle's
rules, where no dice game is played and a reader meets "points -2" unexplained (under the
game's rules the problem line already says how the game scores). "If it ended now": on an
unfinished board each tile's route end into an empty cell already counts as an error, -1
point, though no barrier marks it yet (the legend's open mark says so)."""


def value_function_words(name: str, *, game: bool = False) -> tuple[str, str] | None:
    """``(the strip's name, what it measures)`` of value function ``name``, or None where
    the function has no words (``outlook`` keeps its name); for ``"points"``, the strip's
    field of that name, what it counts (:data:`POINTS_WORDS`; None under the game's rules,
    ``game``)."""
    if name == POINTS_WORDS[0]:
        return None if game else POINTS_WORDS
    return VALUE_FUNCTION_WORDS.get(name)


def tile_words(code: int) -> str:
    """The readable name of the tile with cell byte ``code`` (``"rail curve"``).

    Raises:
        ValueError: ``code`` is not a tile (empty, or an exit).
    """
    if not 1 <= code <= len(TILES):
        raise ValueError(f"cell byte {code} is not a tile")
    return TILE_WORDS[TILES[code - 1].base]


def cell_name(cell: int) -> str:
    """The name of interior ``cell`` (an index into the 81 cells): ``"C4"``.

    Raises:
        ValueError: ``cell`` is not in the 7x7 interior.
    """
    row, col = divmod(cell, SIZE)
    if not (1 <= row <= SIZE - 2 and 1 <= col <= SIZE - 2):
        raise ValueError(f"cell {cell} is not in the board's interior")
    return f"{_COLUMNS[col - 1]}{SIZE - 1 - row}"


@functools.lru_cache(maxsize=4096)
def board_figures(cells: bytes) -> tuple[int, int]:
    """``(exits in the largest network, the game's score)`` of a board, cached by its cells.

    The score's longest-route search costs about 0.3 ms on a typical board (up to ~15 ms on
    long routes), and the strip asks once per frame, often for a board it showed before.
    """
    sizes = cluster_sizes(cells)
    return (sizes[0] if sizes else 0), game_score(cells, sizes=sizes).total


def status(node: Board | GameState) -> tuple[Field, ...]:
    """The strip's fields: ``exits joined 7/12`` and ``points 34`` (the board's score
    under the game's rules, in the word a player counts it in and the last frame's ``game
    over: 52 points`` uses: a bare ``score 34`` beside the search's own values reads as
    one more unexplained number); under the game's rules ``round 3/7`` first, and after
    the seventh round ``game over`` and the score sheet (``exit points``, ``road``,
    ``rail``, ``centre``, ``errors``)."""
    exits, score = board_figures(node.cells)
    fields = (Field("exits joined", exits, of=_EXITS), Field("points", score))
    if not isinstance(node, GameState):
        return fields
    if node.is_terminal():
        return (Field("", "game over"), *fields, *breakdown(node.cells))
    return (Field("round", node.round, of=ROUNDS), *fields)


def breakdown(cells: bytes) -> tuple[Field, ...]:
    """The final score's parts, as the game's score sheet lists them (its points for exits
    are ``exit points``: ``exits joined`` already names the exits of the largest network)."""
    score = game_score(cells)
    return (
        Field("exit points", score.exits),
        Field("road", score.longest_road),
        Field("rail", score.longest_rail),
        Field("centre", score.centre),
        Field("errors", -score.errors),
    )


def describe_end(node: Board | GameState) -> str | None:
    """What a board that ends the puzzle or the game means: ``"game over: 52 points"`` after
    the seventh round; under the puzzle rules ``"all 12 exits joined with 23 tiles"``, or
    ``"stuck with 9/12 exits joined"`` where no tile fits any more; None for a
    board in play."""
    exits, score = board_figures(node.cells)
    if isinstance(node, GameState):
        return f"game over: {score} points" if node.is_terminal() else None
    tiles = node.tile_count
    if exits == _EXITS:
        return f"all {_EXITS} exits joined with {tiles} tile{'s' if tiles != 1 else ''}"
    if node.is_terminal():
        return f"stuck with {exits}/{_EXITS} exits joined"
    return None


def describe_move(parent: Board | GameState, child: Board | GameState) -> str | None:
    """The move from ``parent`` to its child ``child`` in words, or None if it is not one.

    Puzzle rules: ``"rail curve at C4"``. Game rules: ``"die 2: rail curve at C4"``,
    ``"special: road crossing at D5"``, ``"end round 3"``, and at a chance node the dice
    rolled, in the order the row under the board shows them: ``"roll: road curve, rail
    straight, rail T, overpass"``. A move that ends the round (or the game) says so:
    ``"die 4: overpass at D4, round 3 over"``.
    """
    if isinstance(parent, GameState) and isinstance(child, GameState):
        return _game_move(parent, child)
    if isinstance(parent, Board) and isinstance(child, Board):
        cell = _placed_cell(parent.cells, child.cells)
        if cell is None:
            return None
        return f"{tile_words(child.cells[cell])} at {cell_name(cell)}"
    return None


def _placed_cell(before: bytes, after: bytes) -> int | None:
    """The one interior cell empty in ``before`` and holding a tile in ``after``, the other
    cells unchanged; None when the boards differ otherwise."""
    if len(before) != len(after):
        return None
    changed = [c for c, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    if len(changed) != 1:
        return None
    cell = changed[0]
    if cell not in _INTERIOR or before[cell] or not 1 <= after[cell] <= len(TILES):
        return None
    return cell


def _game_move(parent: GameState, child: GameState) -> str | None:
    if parent.is_chance():
        return _roll(parent, child)
    if parent.dice is None:  # the game is over
        return None
    cell = _placed_cell(parent.cells, child.cells)
    if cell is None:
        if child.cells == parent.cells and child.round == parent.round + 1:
            return f"end round {parent.round}"
        return None
    tile = TILES[child.cells[cell] - 1]
    if tile.special:
        head = "special"
    else:
        die = _die_number(parent, tile.base)
        if die is None:
            return None
        head = f"die {die}"
    text = f"{head}: {TILE_WORDS[tile.base]} at {cell_name(cell)}"
    if child.round > parent.round:
        text += ", game over" if child.is_terminal() else f", round {parent.round} over"
    return text


def _roll(parent: GameState, child: GameState) -> str | None:
    """A chance node's outcome: the four dice as the row under the board shows them."""
    if not child.roll or child.cells != parent.cells:
        return None
    dice = ", ".join(TILE_WORDS[FACE_NAMES[face]] for face in child.roll)
    if child.round == parent.round and child.dice is not None:
        return f"roll: {dice}"
    if child.round == parent.round + 1:
        return f"roll: {dice}; nothing fits, round {parent.round} over"
    return None


def _die_number(parent: GameState, base: str) -> int | None:
    """The die (1 to 4, left to right under the board) drawn as a tile of ``base``.

    The row shows the round's dice in the order of :attr:`GameState.roll`, with the dice
    already drawn first among equal faces, so the die drawn now is the first one of its face
    that is still to draw.
    """
    if base not in FACE_NAMES or parent.dice is None:
        return None
    face = FACE_NAMES.index(base)
    roll: Sequence[int] = parent.roll
    if face not in parent.dice or face not in roll:
        return None
    drawn = roll.count(face) - parent.dice.count(face)
    return roll.index(face) + drawn + 1
