"""The ``railroad`` domain: Railroad Ink boards filled tile by tile (seeds 000 and 001).

The root is the empty 9x9 board with its twelve exits. Under ``rules = "puzzle"`` (the
default, the seeds' model) a move places any oriented tile on an open position, until no tile
fits. Under ``rules = "game"`` the published game is played: seven rounds of dice rolled at
chance nodes, every rolled die drawn where it fits, the special-route limits (see
:mod:`searchvid.domains.railroad.game`). The goal is one network joining all twelve exits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from searchvid.domains.base import Domain
from searchvid.domains.railroad import words
from searchvid.domains.railroad.game import FACE_NAMES, ROUNDS, GameState
from searchvid.domains.railroad.grid import EXIT_CELLS, OFFSETS
from searchvid.domains.railroad.network import cluster_sizes, exit_roots, game_score, networks
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.tiles import EXITS
from searchvid.domains.railroad.values import (
    estimated_tiles,
    network_value,
    outlook_value,
    partial_value,
    score_value,
)
from searchvid.domains.railroad.view import RailroadView
from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.render.view import View
from searchvid.search.status import Field
from searchvid.search.values import Heuristic, ValueFunction

__all__ = ["Board", "GameState", "RailroadDomain", "RailroadOptions"]

_IMPOSSIBLE = 100.0  # heuristic of a board whose exits can no longer all be joined
_EXIT_NEIGHBOURS: tuple[int, ...] = tuple(
    cell + OFFSETS[kind.side] for (_, _, kind), cell in zip(EXITS, EXIT_CELLS, strict=True)
)
"""The board cell each exit leads into, in exit order."""
_EXIT_NEIGHBOUR_CELLS: frozenset[int] = frozenset(_EXIT_NEIGHBOURS)
"""The cells some exit leads into, each once (:meth:`RailroadDomain.goal_moves_bound`)."""


@dataclass(frozen=True, kw_only=True)
class RailroadOptions:
    """Options of the ``railroad`` domain."""

    tiles: Literal["basic", "all"] = option(
        "basic",
        doc=(
            "Tile set: 'basic' = the route dice and the station die (straight, curve and T "
            "roads and rails, stations, the overpass); 'all' adds the six special routes. "
            "Puzzle rules only: in the game the dice decide."
        ),
    )
    rules: Literal["puzzle", "game"] = option(
        "puzzle",
        doc=(
            "'puzzle': any tile on any open position until none fits (the seeds' model); "
            "'game': the published game, seven rounds of four dice (chance nodes), forced "
            "play, at most three special routes."
        ),
    )

    def __post_init__(self) -> None:
        if self.rules == "game" and self.tiles != "basic":
            raise OptionError(
                "tiles",
                "applies to rules = 'puzzle' only; in the game the dice and the special-route "
                "limits decide the tiles",
            )


def remaining_tiles(node: Any) -> float:
    """Heuristic: estimated tiles still needed to join all twelve exits (not admissible).

    The minimum-spanning-tree estimate of :func:`values.estimated_tiles`; 100 when some
    network holding an exit can no longer grow, so the goal is out of reach.
    """
    nets = networks(node.cells, node.rules.choices)
    if len(nets) > 1 and not all(net.alive for net in nets):
        return _IMPOSSIBLE
    return float(estimated_tiles(nets))


class RailroadDomain(Domain):
    """Railroad Ink: place route tiles until one network joins all twelve exits."""

    name = "railroad"
    aliases = ("railroad-ink",)
    summary = "Railroad Ink: place road and rail tiles to join the twelve exits."
    options_type = RailroadOptions
    has_goal = True
    default_value = "network"
    default_heuristic = "tiles"

    options: RailroadOptions

    def root(self) -> Board | GameState:
        """The empty board with its twelve exits (under the game's rules, before the roll)."""
        if self.options.rules == "game":
            return GameState.start()
        return Board.start(self.options.tiles)

    def view(self) -> View:
        """Draws boards with the tiles in ``tile_assets/railroad`` (and the game's dice)."""
        return RailroadView(self.options.rules)

    def label(self, node: Any) -> str:
        """For example ``"12 tiles, exits joined 5 + 2"`` (two networks, of 5 and 2 exits);
        in the game the round and dice lead:
        ``"round 3, dice road-curve rail-t overpass, 9 tiles, no exits joined"``."""
        sizes = cluster_sizes(node.cells)
        joined = f"exits joined {' + '.join(map(str, sizes))}" if sizes else "no exits joined"
        count = node.tile_count
        tiles = f"{count} tile{'s' if count != 1 else ''}, {joined}"
        if not isinstance(node, GameState):
            return tiles
        if node.is_terminal():
            return f"game over, {game_score(node.cells).total} points, {tiles}"
        if node.dice is None:
            return f"round {node.round}, rolling, {tiles}"
        dice = " ".join(FACE_NAMES[f] for f in node.dice) or "all drawn"
        return f"round {node.round}, dice {dice}, {tiles}"

    def values(self) -> Mapping[str, ValueFunction]:
        """``partial`` (seed 001), ``network`` (joins all exits) and ``score`` (the game's);
        under the game's rules also ``outlook`` (the score, open ends at half a point)."""
        values: dict[str, ValueFunction] = {
            "partial": partial_value,
            "network": network_value,
            "score": score_value,
        }
        if self.options.rules == "game":
            values["outlook"] = outlook_value
        return values

    def heuristics(self) -> Mapping[str, Heuristic]:
        """``tiles``: estimated tiles still needed to join all twelve exits."""
        return {"tiles": remaining_tiles}

    terms = words.TERMS

    def goal_moves_bound(self, node: Any) -> int | None:
        """A lower bound on the moves any goal still needs from ``node``: the number of
        distinct empty cells that an exit leads into (12 on the empty board, 0 at a goal).

        Proof. At a goal one network joins every exit, and an exit joins a network only
        through the tile on the interior cell it leads into, so at a goal each of those cells
        holds a tile. Tiles are never taken off or moved, and a move places at most one tile
        (the puzzle's moves place one; the game's draw one die or a special route as one
        tile, or end a round or roll the dice, placing none). So every such cell empty on
        ``node`` needs a move of its own: at least as many moves as there are such cells.
        They are counted once each, for two exits that led into one cell would need only one
        tile there (none do on the 7x7 board, but the count does not rely on it). The bound
        holds under both rules; it is not the distance, which is far larger (the routes
        between the exits need tiles too).
        """
        cells = node.cells
        return sum(1 for cell in _EXIT_NEIGHBOUR_CELLS if not cells[cell])

    def is_goal(self, node: Any) -> bool:
        """Whether one network joins all twelve exits."""
        cells = node.cells
        # an exit whose neighbour on the board is still empty joins nothing yet: a cheap
        # answer for most boards (the test runs on every state a video shows)
        if not all(cells[c] for c in _EXIT_NEIGHBOURS):
            return False
        return len(set(exit_roots(cells))) == 1

    def report(self, node: Any) -> Mapping[str, Any]:
        """The game's score of the board, part by part, and the rounds played.

        ``{"score": {"total", "exits", "road", "rail", "centre", "errors"}, "rounds": n}``;
        ``rounds`` counts the rounds whose dice were rolled under the game's rules, and is
        None under the puzzle rules, which have no rounds.
        """
        score = game_score(node.cells)
        return {
            "score": {
                "total": score.total,
                "exits": score.exits,
                "road": score.longest_road,
                "rail": score.longest_rail,
                "centre": score.centre,
                "errors": score.errors,
            },
            "rounds": node.rounds_played if isinstance(node, GameState) else None,
        }

    def status(self, node: Any) -> Sequence[Field]:
        """``exits joined 7/12`` (exits in the largest network) and ``score 34`` (the game's
        score); under the game's rules ``round 3/7`` first, ``game over`` at the end.

        Both figures are cached per board (see :func:`words.board_figures`)."""
        return words.status(node)

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """``"rail curve at C4"`` (columns A-G, rows 1-7 from the bottom, as drawn); under the
        game's rules ``"die 2: rail curve at C4"``, ``"special: road crossing at D5"``,
        ``"end round 3"`` and ``"roll: road curve, rail straight, rail T, overpass"`` (see
        :func:`words.describe_move`)."""
        return words.describe_move(parent, child)

    def describe_problem(self, node: Any) -> str | None:
        """``"a 7x7 board, 12 exits: join them all in one network of road and rail"``; in the
        game, the rounds and what scores."""
        exits = len(EXIT_CELLS)
        if isinstance(node, GameState):
            return (
                f"the dice game, {ROUNDS} rounds of 4 dice: score exits, long routes and the "
                "centre; open ends cost"
            )
        return f"a 7x7 board, {exits} exits: join them all in one network of road and rail"

    def describe_end(self, node: Any) -> str | None:
        """``"game over: 52 points"``; under the puzzle rules ``"all 12 exits joined with 23
        tiles"`` or ``"stuck with 9/12 exits joined"`` (see
        :func:`words.describe_end`)."""
        return words.describe_end(node)

    def describe_value_function(self, name: str) -> tuple[str, str] | None:
        """What the strip calls value function ``name`` and what it measures, in words a
        reader can check on the board (see :func:`words.value_function_words`):
        ``("closeness to goal", ...)`` for ``network``, ``("share of exits joined", ...)``
        for ``partial``; under the puzzle's rules also what the strip's ``points`` field
        counts (the dice game's score); None for the others."""
        return words.value_function_words(name, game=self.options.rules == "game")

    def describe_value(self, value: float) -> str | None:
        """``"all 12 exits joined"`` for 1.0, else None (the number is shown).

        Values are read as the default value function's, ``network``: 1.0 exactly when one
        network joins all twelve exits, as for ``partial`` and the puzzle's ``reward``
        (``score`` reaches 1.0 only at 120 points, far above what boards in play score:
        at most 80 over thousands of random boards). Its other values blend estimates and
        have no words. The twelfths of
        ``partial`` ("9 of 12 exits joined") are not described: other value functions give
        the same numbers (``score`` maps 0, 40 and 80 points to 1/4, 1/2 and 3/4, the generic
        ``reward`` is 1/2 on every unfinished board), and the strip's ``exits joined`` field
        counts the exits of the board shown anyway.
        """
        return f"all {len(EXIT_CELLS)} exits joined" if value == 1.0 else None
