"""Value functions and heuristics, kept apart from the traversals that use them.

Seed 000: "the value function seems to be independent of the traversal". A value function
maps a node to a number where **higher is better**; MCTS rewards are value functions whose
values lie in [0, 1]. A heuristic estimates the remaining **cost** to a goal (lower is
better; admissible heuristics never overestimate) and is what best-first and A* order by.
"""

from __future__ import annotations

from typing import Any, Protocol


class ValueFunction(Protocol):
    """Maps a node to a value; higher is better."""

    def __call__(self, node: Any) -> float: ...


class Heuristic(Protocol):
    """Estimates the number of moves (cost) from a node to the nearest goal."""

    def __call__(self, node: Any) -> float: ...


def terminal_reward(node: Any) -> float:
    """The node's own ``reward()`` at terminal nodes, 0.5 elsewhere (unknown).

    For two-player nodes the reward is player 0's; one-player nodes give theirs.
    """
    from searchvid.search.node import is_terminal

    if is_terminal(node) and hasattr(node, "reward"):
        return float(node.reward())
    return 0.5


def zero_heuristic(node: Any) -> float:
    """The trivial admissible heuristic: turns A* into uniform-cost search."""
    return 0.0


def depth_value(node: Any) -> float:
    """Prefers nothing: every node is worth 0 (for domains without a value)."""
    return 0.0
