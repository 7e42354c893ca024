"""The event stream that algorithms emit and observers consume."""

from __future__ import annotations

import enum
from typing import Any, NamedTuple


class EventKind(enum.Enum):
    """What happened at a step of a search.

    Kinds that *show a state* (the node is what the search is looking at now) become video
    frames under ``frames = "all"``; annotation kinds (``IMPROVE``) only carry information.
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
    IMPROVE = "improve"
    """Annotation: ``node`` is the best found so far; ``value`` its value."""

    @property
    def shows_state(self) -> bool:
        """Whether the event shows a state (a frame under ``frames = "all"``)."""
        return self is not EventKind.IMPROVE


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
            reward, a minimax value; None otherwise.
    """

    kind: EventKind
    node: Any
    depth: int
    step: int
    value: float | None = None
