"""Solution paths kept as parent links between tree nodes, replayed by regenerating the states.

Frontier searches number their tree nodes and store, per id, the parent's id (None for the
root) and the node's key, never whole paths or states; when a goal is found its path of ids
is read back from the goal and the states are rebuilt from the root by picking, at each
step, the child with the next key.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from searchvid.errors import RunError
from searchvid.search.events import Event, EventKind
from searchvid.search.node import children_of, key_of


def id_path(ups: Sequence[int | None], goal: int) -> list[int]:
    """The tree-node ids from the root to ``goal``, following ``ups`` (parent id by id)."""
    ids = [goal]
    parent = ups[goal]
    while parent is not None:
        ids.append(parent)
        parent = ups[parent]
    ids.reverse()
    return ids


def replay_nodes(root: Any, keys: list[Hashable]) -> Iterator[Any]:
    """The nodes along ``keys`` (which start with the root's key), rebuilt from ``root``.

    Raises:
        RunError: A key has no matching child (the domain's keys are inconsistent).
    """
    node = root
    yield node
    for key in keys[1:]:
        for child in children_of(node):
            if key_of(child) == key:
                node = child
                break
        else:
            raise RunError(f"replaying a solution: no child of {node!r} has key {key!r}")
        yield node


def replay_events(
    root: Any,
    keys: Sequence[Hashable],
    ups: Sequence[int | None],
    goal: int,
    value: Any,
    step: int,
) -> Iterator[Event]:
    """``MOVE`` events from the root (depth 0) to tree node ``goal``, numbered from ``step``.

    Args:
        root: The root state.
        keys: The key of each tree node, by id.
        ups: The parent id of each tree node, by id (None for the root).
        goal: The id of the goal's tree node.
        value: The value function reported with each MOVE.
        step: The step of the first MOVE.
    """
    ids = id_path(ups, goal)
    nodes = replay_nodes(root, [keys[i] for i in ids])
    for depth, (node, nid) in enumerate(zip(nodes, ids, strict=True)):
        yield Event(EventKind.MOVE, node, depth, step + depth, value(node), nid, ups[nid])
