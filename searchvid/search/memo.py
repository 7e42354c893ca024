"""A value function that remembers the values it gave the latest nodes.

A render asks for the value of each frame's node (the status strip shows it) just after the
search computed it for the same node object; a scene hands both one :class:`NodeMemo` per
value function, so the value is computed once per event. Nodes are immutable and value
functions depend on the node alone (see :mod:`searchvid.search.values`), so a value
remembered for a node object is the value a new call would return.
"""

from __future__ import annotations

from typing import Any

from searchvid.search.values import ValueFunction

__all__ = ["MEMORY", "NodeMemo"]

MEMORY = 256
"""Nodes a :class:`NodeMemo` remembers (the least recently computed go first): more than a
frame's events usually hold, few enough to keep no search's nodes alive for long."""


class NodeMemo:
    """``function``, remembering its values for the last ``size`` node objects it was given.

    Nodes are told apart by identity (``id`` with the node kept alive beside its value, so
    an id is never reused while remembered), never by equality: equal nodes from different
    searches would cost a hash of the node each call, and identity is what a search and its
    strip share.

    Args:
        function: The value function.
        size: Nodes remembered (at least 1).
    """

    __slots__ = ("_size", "_values", "function")

    def __init__(self, function: ValueFunction, size: int = MEMORY) -> None:
        if size < 1:
            raise ValueError(f"a memo remembers at least 1 node, not {size}")
        self.function = function
        self._size = size
        self._values: dict[int, tuple[Any, float]] = {}

    def __call__(self, node: Any) -> float:
        """``function(node)``, computed once while ``node`` is among the latest ones."""
        values = self._values
        key = id(node)
        known = values.get(key)
        if known is not None and known[0] is node:
            return known[1]
        value = self.function(node)
        if len(values) >= self._size and key not in values:
            del values[next(iter(values))]  # the oldest entry
        values[key] = (node, value)
        return value

    def __repr__(self) -> str:
        return f"NodeMemo({self.function!r})"
