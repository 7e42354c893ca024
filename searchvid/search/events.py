"""The event stream that algorithms emit and observers consume.

Every event about a node of the *search tree* names that tree node: ``id`` counts from 0 (the
root) in the order the algorithm creates tree nodes, and ``parent`` is the id of the tree node
it was created below (None for the root). A tree node is a node of the tree the search builds,
not a state: one state reached along two paths of a tree search is two tree nodes, while a
graph search that detects duplicates by key (the frontier searches) makes one tree node per
key. A node's parent never changes, and the first event that carries an id always carries
its parent, so a consumer can draw the tree from the events alone. Events about states that
are not tree nodes (MCTS rollout states) have ``id`` None.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple


class EventKind(enum.Enum):
    """What happened at a step of a search.

    Kinds that *show a state* (the node is what the search is looking at now) become video
    frames under ``frames = "all"``; annotation kinds (``IMPROVE``, ``FRONTIER``, ``DROP``,
    ``PRUNE``, ``BACKUP``) only carry information. The played line of a game (``MOVE`` and
    ``ROLL``) also makes the frames of ``frames = "moves"``.
    """

    ENTER = "enter"
    """Descended to a new node (it is now on top of the stack / the current state)."""
    BACKTRACK = "backtrack"
    """Returned to ``node`` after finishing one of its children (node is on top again)."""
    LEAF = "leaf"
    """Reached a node with no children (a dead end or a terminal state); replaces ENTER."""
    RESTART = "restart"
    """Started over from the root (random-walk restarts); node is the root."""
    EXPAND = "expand"
    """Generated ``node`` as a new member of the frontier / search tree (BFS, A*, beam, MCTS)."""
    SELECT = "select"
    """MCTS: the tree policy chose ``node`` to expand or evaluate."""
    ROLLOUT = "rollout"
    """MCTS: a state visited by a random playout (only when rollout events are asked for)."""
    MOVE = "move"
    """A move was committed: MCTS/minimax plan mode, or a found solution being played out."""
    ROLL = "roll"
    """Nature drew an outcome at a chance node on the line being played (the dice roll of an
    MCTS or minimax game, a random walk's step from a chance node): ``node`` is the outcome,
    ``id`` and ``parent`` as for ``MOVE``; ``value`` as the algorithm's MOVE (or ENTER)."""
    IMPROVE = "improve"
    """Annotation: ``node`` is the best found so far; ``value`` its value."""
    FRONTIER = "frontier"
    """Annotation (frontier searches without ``expand_events``): the new tree node ``id``,
    a child of ``parent``, joined the frontier (generated, not expanded yet)."""
    DROP = "drop"
    """Annotation (beam search): the generated tree node ``id`` was not kept in the beam."""
    PRUNE = "prune"
    """Annotation (minimax alpha-beta): the remaining children of tree node ``id`` are cut
    off unsearched; ``value`` is how many (a float)."""
    BACKUP = "backup"
    """Annotation (MCTS): an iteration's result is backed up from tree node ``id`` to the
    root of the current tree; ``value`` is its reward for player 0, in [0, 1]."""

    @property
    def shows_state(self) -> bool:
        """Whether the event shows a state (a frame under ``frames = "all"``)."""
        return self._value_ not in _ANNOTATIONS


_ANNOTATIONS = frozenset({"improve", "frontier", "drop", "prune", "backup"})
"""Values of the annotation kinds (strings hash faster than enum members)."""


class Event(NamedTuple):
    """One step of a search (immutable).

    A named tuple rather than a frozen dataclass: every algorithm builds one per step and a
    frozen dataclass costs about twice as much to construct.

    Attributes:
        kind: What happened.
        node: The node it happened to.
        depth: Moves from the root of the search to ``node``.
        step: Index of the event in its stream, counting from 0.
        value: A value where the kind has one: the value of an improved node, a rollout's
            reward, a minimax value, a count of pruned children; None otherwise.
        id: The search-tree node the event is about (see the module docstring), or None
            when ``node`` is not a tree node (an MCTS rollout state) or the algorithm does
            not report tree nodes.
        parent: The id of the tree node's parent (None for the root). For an MCTS rollout
            state (``id`` None), the tree node the rollout started from.
    """

    kind: EventKind
    node: Any
    depth: int
    step: int
    value: float | None = None
    id: int | None = None
    parent: int | None = None


new_event = tuple.__new__
"""``new_event(Event, (kind, node, depth, step, value, id, parent))``: an :class:`Event`.

The same tuple as ``Event(kind, node, ...)`` with all seven fields given, built without the
named tuple's Python-level ``__new__`` (about half the cost); for the algorithms' hot loops.
"""
