"""Value functions for Railroad Ink boards (higher is better, all in [0, 1]).

- ``partial``: seed 001's partial reward, exits in the largest network over 12.
- ``network``: guides a search towards one network joining all twelve exits (see
  :func:`network_value`).
- ``score``: the game's score mapped linearly onto [0, 1].
- ``outlook`` (game rules): the score of a board still in play, counting only half a point
  for a route end that may yet be continued (see :func:`outlook_value`).
"""

from __future__ import annotations

import functools
from typing import Any

from searchvid.domains.railroad.grid import EXIT_CELLS, SIZE
from searchvid.domains.railroad.network import (
    Network,
    game_score,
    largest_network,
    networks,
    open_ends,
)

__all__ = [
    "SCORE_RANGE",
    "estimated_tiles",
    "network_value",
    "outlook_value",
    "partial_value",
    "score_value",
]

_EXITS = len(EXIT_CELLS)

SCORE_RANGE: tuple[int, int] = (-40, 120)
"""Scores mapped to 0 and 1 by ``score`` (clamped outside)."""

_DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(SIZE * SIZE))
    for a in range(SIZE * SIZE)
)
"""Manhattan distance between two cells."""

_TILES_NORM = 60.0  # comfortably above the estimate of the empty board


# MCTS's playouts from a board with few empty cells left end on a few boards again and
# again (a fifth of the playouts of the railroad-mcts scene repeat a board): remember them.
_largest_network = functools.lru_cache(maxsize=4096)(largest_network)


def partial_value(node: Any) -> float:
    """Seed 001's partial reward: exits in the largest network over 12 (0 without one)."""
    return _largest_network(node.cells) / _EXITS


def score_value(node: Any) -> float:
    """The game's score mapped linearly from :data:`SCORE_RANGE` onto [0, 1], clamped."""
    return _unit(game_score(node.cells).total)


def _unit(total: float) -> float:
    low, high = SCORE_RANGE
    return min(1.0, max(0.0, (total - low) / (high - low)))


def outlook_value(node: Any) -> float:
    """The game's score of a board still in play, mapped like ``score``, in [0, 1].

    As the score, but a route end that leads into an empty cell some tile still fits (by
    the node's ``rules.choices``) costs half a point instead of one: it may yet be
    continued. Route ends that never can (against a blank side, into a cell nothing fits)
    cost a full point. Equals ``score`` on a board without open ends; cheap (one scoring).
    """
    score = game_score(node.cells)
    live, dead = open_ends(node.cells, node.rules.choices)
    return _unit(score.total + score.errors - dead - 0.5 * live)


def estimated_tiles(nets: list[Network]) -> int:
    """Tiles still needed to join the networks, estimated by a minimum spanning tree.

    Two networks are ``d + 1`` tiles apart when their nearest open cells are ``d`` steps
    apart (Manhattan); the estimate is the weight of the minimum spanning tree over the
    networks (Prim's algorithm, growing the tree one network at a time). It ignores that
    joining a road to a rail takes a station. Networks without open cells are left out.
    """
    groups = [net.open_cells for net in nets if net.open_cells]
    if len(groups) < 2:
        return 0
    points = [cell for group in groups for cell in group]
    owner = [i for i, group in enumerate(groups) for _ in group]
    far = 1 << 30
    to_tree = [far] * len(points)  # distance from each open cell to the tree
    joined = [False] * len(groups)
    newest = 0
    total = 0
    for _ in range(len(groups) - 1):
        joined[newest] = True
        rows = [_DIST[a] for a in groups[newest]]
        pick, pick_dist = -1, far
        for k, cell in enumerate(points):
            if joined[owner[k]]:
                continue
            best = to_tree[k]
            for row in rows:
                if row[cell] < best:
                    best = row[cell]
            to_tree[k] = best
            if best < pick_dist:
                pick, pick_dist = k, best
        newest = owner[pick]
        total += pick_dist + 1
    return total


def network_value(node: Any) -> float:
    """How close a board is to one network joining all twelve exits, in [0, 1].

    Exactly 1 when one network joins all twelve exits. Otherwise, with ``T`` the estimated
    tiles still needed to join the networks holding exits (:func:`estimated_tiles`, capped at
    60) and ``m`` the number of those networks::

        progress = 0.8 * (1 - T / 60) + 0.2 * (12 - m) / 11
        value = 0.25 + 0.7 * progress   (every such network can still grow: in [0.25, 0.95])
        value = 0.2 * progress          (some network can no longer grow: the goal is lost)

    A network can grow while a route of it leads into an empty cell that some tile still
    fits; once none does, it can never reach the other exits, so every such board ranks
    below every board where the goal is still possible.
    """
    nets = networks(node.cells, node.rules.choices)
    if len(nets) == 1:
        return 1.0
    joined = (_EXITS - len(nets)) / (_EXITS - 1)  # 0 with 12 separate exits, 1 when one
    remaining = min(1.0, estimated_tiles(nets) / _TILES_NORM)
    progress = 0.8 * (1.0 - remaining) + 0.2 * joined
    if all(net.alive for net in nets):
        return 0.25 + 0.7 * progress
    return 0.2 * progress
