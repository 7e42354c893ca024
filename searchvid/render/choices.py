"""Where a depth-first search is among its shallow choices: ``first move 37/156``.

A paced depth-first video (``[video] keep_depth``) shows every choice of the first
``keep_depth`` moves; the strip then counts them, and the choice below them, in the search's
own terms, so that a reader sees how far the search has come: ``first move 37/156 · second
move 12/93``. The totals are the children the search visits below each node (those it skips
as repeats are not counted), known from a silent pass over the search before the video is
drawn (:func:`count_children`). Domain-free: everything is read from the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

_NEW = frozenset({EventKind.ENTER, EventKind.LEAF})
"""The kinds by which a depth-first search steps onto a node it has not visited."""

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
"""The words of the moves counted, by depth from 1 (deeper: ``move 9``)."""


def move_name(depth: int) -> str:
    """What the strip calls the move at ``depth`` (from 1): ``first move``, ..., ``move 9``."""
    return f"{ORDINALS[depth - 1]} move" if depth <= len(ORDINALS) else f"move {depth}"


def count_children(events: Iterable[Event], deepest: int) -> dict[int, int]:
    """How many children a depth-first search visits below each tree node, for the children
    at most ``deepest`` deep, keyed by the parent's id (a node without any: absent).

    Args:
        events: A whole event stream of the search (read to its end).
        deepest: The deepest children counted; the parents are one shallower.
    """
    counts: dict[int, int] = {}
    for event in events:
        if event.kind in _NEW and 0 < event.depth <= deepest and event.parent is not None:
            counts[event.parent] = counts.get(event.parent, 0) + 1
    return counts


class Choices:
    """Follows a depth-first event stream and names, for a frame, the choices on its path.

    Args:
        totals: Children per tree node id (:func:`count_children`).
        deepest: The deepest move counted (``keep_depth + 1``: the choices kept whole and
            the one below them).
    """

    __slots__ = ("_path", "_seen", "deepest", "totals")

    def __init__(self, totals: Mapping[int, int], deepest: int) -> None:
        self.totals = totals
        self.deepest = deepest
        # the path's nodes from depth 1: (its id, its parent's id, which child of the
        # parent it is, counted from 1)
        self._path: list[tuple[int | None, int, int]] = []
        self._seen: dict[int, int] = {}  # children visited so far, by parent id (on the path)

    def observe(self, event: Event) -> None:
        """Follow one event (every event, in stream order)."""
        depth = event.depth
        if event.kind not in _NEW or not 0 < depth <= self.deepest or event.parent is None:
            return
        parent = event.parent
        nth = self._seen[parent] = self._seen.get(parent, 0) + 1
        path = self._path
        for done, _, _ in path[depth - 1 :]:  # their subtrees are finished
            if done is not None:
                self._seen.pop(done, None)
        del path[depth - 1 :]
        if len(path) == depth - 1:  # a depth-first stream: the parent is on the path
            path.append((event.id, parent, nth))

    def fields(self, event: Event) -> Sequence[Field]:
        """The choices of the frame showing ``event``, just observed: ``first move 37/156``
        for each move of its path, and on a step back (BACKTRACK) how many of the children
        below it were tried, ``second moves tried 12/93``."""
        path = self._path
        depth = event.depth
        shown = [
            Field(move_name(d), nth, of=self.totals.get(parent))
            for d, (_, parent, nth) in enumerate(path[:depth], start=1)
        ]
        if event.kind is EventKind.BACKTRACK and depth < len(path):
            _, parent, nth = path[depth]
            shown.append(Field(f"{move_name(depth + 1)}s tried", nth, of=self.totals.get(parent)))
        return shown
