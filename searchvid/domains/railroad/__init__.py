"""The ``railroad`` domain: Railroad Ink boards filled tile by tile (seeds 000 and 001).

The root is the empty 9x9 board with its twelve exits; a move places one oriented tile on an
open position. The goal is one network joining all twelve exits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from searchvid.domains.base import Domain
from searchvid.domains.railroad.network import cluster_sizes, exit_roots, networks
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.values import (
    estimated_tiles,
    network_value,
    partial_value,
    score_value,
)
from searchvid.domains.railroad.view import RailroadView
from searchvid.options import option
from searchvid.render.view import View
from searchvid.search.values import Heuristic, ValueFunction

__all__ = ["Board", "RailroadDomain", "RailroadOptions"]

_IMPOSSIBLE = 100.0  # heuristic of a board whose exits can no longer all be joined


@dataclass(frozen=True, kw_only=True)
class RailroadOptions:
    """Options of the ``railroad`` domain."""

    tiles: Literal["basic", "all"] = option(
        "basic",
        doc=(
            "Tile set: 'basic' = the route dice and the station die (straight, curve and T "
            "roads and rails, stations, the overpass); 'all' adds the six special routes."
        ),
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

    def root(self) -> Board:
        """The empty board with its twelve exits."""
        return Board.start(self.options.tiles)

    def view(self) -> View:
        """Draws boards with the tiles in ``tile_assets/railroad``."""
        return RailroadView()

    def label(self, node: Any) -> str:
        """For example ``"12 tiles, networks (5, 2)"``."""
        sizes = cluster_sizes(node.cells)
        joined = f"networks ({', '.join(map(str, sizes))})" if sizes else "no network"
        count = node.tile_count
        return f"{count} tile{'s' if count != 1 else ''}, {joined}"

    def values(self) -> Mapping[str, ValueFunction]:
        """``partial`` (seed 001), ``network`` (joins all exits) and ``score`` (the game's)."""
        return {"partial": partial_value, "network": network_value, "score": score_value}

    def heuristics(self) -> Mapping[str, Heuristic]:
        """``tiles``: estimated tiles still needed to join all twelve exits."""
        return {"tiles": remaining_tiles}

    def is_goal(self, node: Any) -> bool:
        """Whether one network joins all twelve exits."""
        return len(set(exit_roots(node.cells))) == 1
