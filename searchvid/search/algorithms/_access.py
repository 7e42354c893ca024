"""Cheap access to nodes: keys, random children drawn without revisiting states, and
nature's rolls on the line a search plays."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from searchvid.search.algorithm import UNLIMITED_WORK, list_children
from searchvid.search.node import Capability, capabilities_of, children_of

Draw = Callable[[Any, random.Random], Any]
"""``draw(node, rng)``: one child drawn uniformly (at a chance node: an outcome drawn with its
probability), or None when there is none."""

KeyFunction = Callable[[Any], Hashable]

_REJECTIONS = 3
"""Random draws tried before listing all children to find an unvisited one."""


def drawer(root: Any, cap: int = UNLIMITED_WORK) -> Draw:
    """The cheapest child draw the root's domain supports: uniform at decision nodes and,
    in domains with chance nodes, an outcome drawn with its probability at chance nodes.

    Where it lists the children to draw one (no ``random_child``), a node with more than
    ``cap`` children (the traversal's work budget) raises
    :class:`~searchvid.search.algorithm.BudgetSpent` instead of listing them all.
    """
    caps = capabilities_of(root)
    native = Capability.RANDOM_CHILD in caps
    if Capability.CHANCE in caps:
        if native:
            return _chance_draw

        def chance_listing_draw(node: Any, rng: random.Random) -> Any:
            if node.is_chance():
                return node.sample_outcome(rng)
            kids = list_children(children_of(node), cap)
            return rng.choice(kids) if kids else None

        return chance_listing_draw
    if native:
        return _native_draw

    def listing_draw(node: Any, rng: random.Random) -> Any:
        kids = list_children(children_of(node), cap)
        return rng.choice(kids) if kids else None

    return listing_draw


def _chance_draw(node: Any, rng: random.Random) -> Any:
    if node.is_chance():
        return node.sample_outcome(rng)
    return node.random_child(rng)


def _native_draw(node: Any, rng: random.Random) -> Any:
    return node.random_child(rng)


class Nature:
    """Nature's rolls on the line a search plays as a game, the same for every algorithm.

    An algorithm that plays a game of chance (MCTS in plan mode, minimax/expectimax with
    ``play``, a random walk) draws the outcome of each chance node its played line reaches
    here, not from its own rng, so that the rolls do not depend on how many numbers its
    search drew before them. The ``k``-th roll (from 0) of game ``g`` (from 0: a random
    walk's walks are games 0, 1, ...; any other search plays game 0) is the node's
    ``sample_outcome`` with a fresh ``random.Random`` seeded with a string made of ``k``,
    ``g`` and 64 bits drawn from a copy of the algorithm's rng as it was when this object
    was made -- at the start of the traversal, where a scene's search holds
    ``random.Random(seed)`` untouched, so those bits depend on the seed alone. (String
    seeds are hashed with SHA-512 by :class:`random.Random`, the same in every Python run.)

    The guarantee: with the same seed, every algorithm's ``k``-th roll of a game, drawn at
    the same chance node (same state), is the same outcome. Where a domain's outcomes do not
    depend on the state (Railroad Ink's dice), the same seed rolls the same dice in the same
    order for every algorithm, whatever each places between the rolls; where they do, the
    draw is still deterministic and independent of the algorithm given the state. The
    algorithm's rng is only copied, never advanced: its search keeps drawing its own
    samples (MCTS playouts, expectimax's sampled rolls) from it as before.
    """

    __slots__ = ("_base", "_game", "_rolls")

    def __init__(self, rng: random.Random) -> None:
        copy = random.Random()
        copy.setstate(rng.getstate())
        self._base = copy.getrandbits(64)
        self._game = 0
        self._rolls = 0

    def roll(self, node: Any) -> Any:
        """The next roll of the game under way: ``node.sample_outcome`` (a chance node)."""
        dice = random.Random(
            f"searchvid nature {self._base:016x} game {self._game} roll {self._rolls}"
        )
        self._rolls += 1
        return node.sample_outcome(dice)

    def new_game(self) -> None:
        """Start the next game (a random walk's next walk): its rolls count from 0 again."""
        self._game += 1
        self._rolls = 0


def key_function(root: Any) -> KeyFunction:
    """``node.key()`` for keyed domains, else the node itself."""
    if Capability.KEY in capabilities_of(root):
        return _call_key
    return _identity


def _call_key(node: Any) -> Hashable:
    return node.key()  # type: ignore[no-any-return]


def _identity(node: Any) -> Hashable:
    return node  # type: ignore[no-any-return]


def draw_unvisited(
    node: Any,
    rng: random.Random,
    visited: set[Hashable],
    key: KeyFunction,
    draw: Draw,
    cap: int = UNLIMITED_WORK,
) -> tuple[Any, Hashable]:
    """A child whose key is not in ``visited``, uniformly among such children.

    Tries a few plain draws first (rejection sampling keeps the result uniform) and lists
    the children only when those all hit visited states. Returns ``(None, None)`` when the
    node has no unvisited child. For decision nodes only: listing would draw a chance node's
    outcomes uniformly, not with their probabilities.

    Raises:
        BudgetSpent: The listing found more than ``cap`` children.
    """
    for _ in range(_REJECTIONS):
        child = draw(node, rng)
        if child is None:
            return None, None
        k = key(child)
        if k not in visited:
            return child, k
    kids = list_children(children_of(node), cap)
    fresh = [(c, k) for c in kids if (k := key(c)) not in visited]
    if not fresh:
        return None, None
    return fresh[rng.randrange(len(fresh))]
