"""Solution paths kept as parent links between keys, replayed by regenerating the states.

Frontier searches store one ``key -> parent key`` entry per node they keep (the root's parent
is None), never whole paths; when a goal is found the path of keys is read back from the
goal and the states are rebuilt from the root by picking, at each step, the child with the
next key.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from searchvid.errors import RunError
from searchvid.search.events import Event, EventKind
from searchvid.search.node import key_of


def key_path(parents: Mapping[Hashable, Hashable | None], goal: Hashable) -> list[Hashable]:
    """The keys from the root to ``goal``, following ``parents`` (the root's parent is None)."""
    keys = [goal]
    parent = parents[goal]
    while parent is not None:
        keys.append(parent)
        parent = parents[parent]
    keys.reverse()
    return keys


def replay_nodes(root: Any, keys: list[Hashable]) -> Iterator[Any]:
    """The nodes along ``keys`` (which start with the root's key), rebuilt from ``root``.

    Raises:
        RunError: A key has no matching child (the domain's keys are inconsistent).
    """
    node = root
    yield node
    for key in keys[1:]:
        for child in node.children():
            if key_of(child) == key:
                node = child
                break
        else:
            raise RunError(f"replaying a solution: no child of {node!r} has key {key!r}")
        yield node


def replay_events(
    root: Any,
    parents: Mapping[Hashable, Hashable | None],
    goal: Hashable,
    value: Any,
    step: int,
) -> Iterator[Event]:
    """``MOVE`` events from the root (depth 0) to the goal, numbered from ``step``."""
    for depth, node in enumerate(replay_nodes(root, key_path(parents, goal))):
        yield Event(EventKind.MOVE, node, depth, step + depth, value(node))
