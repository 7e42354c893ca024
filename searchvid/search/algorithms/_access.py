"""Cheap access to nodes: keys, and random children drawn without revisiting states."""

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
