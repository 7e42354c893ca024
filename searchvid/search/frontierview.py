"""A glimpse of a frontier search's frontier, for the filmstrip under the board.

Breadth-first, best-first, A* and beam search hand one to the frame of each node they expand
(:meth:`~searchvid.search.algorithm.Algorithm.status_of` returns a :class:`StatusFields`):
the node being expanded, then the next few nodes of the frontier in the order the search
will take them, each with the numbers it is ranked by (``g``, ``h``, ``f``; ``depth``; a
value), or for beam search the boards of the level being expanded and the best of those it
dropped. It is bounded (:data:`MAX_BOARDS` boards) and cheap to make: a few references into
the search's own frontier, never a copy of it.

It travels with the status fields because those are taken at the moment the search yields
the event (the renderer reads on past a frame before drawing it, while the search moves
on); a consumer that does not know it sees an ordinary tuple of fields.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from searchvid.search.status import Field

MAX_BOARDS = 12
"""Most boards a glimpse holds after the one being expanded (frontier nodes, or a beam's
boards and the best dropped ones)."""


class Role(enum.Enum):
    """What a board of the glimpse is to the search; the value is the word for it."""

    CURRENT = "expanding"
    """The node being expanded (the frame's own node)."""
    WAITING = "on the frontier"
    """Generated, not expanded yet: the next to be taken, in order."""
    DONE = "expanded"
    """Beam search: a board of this level expanded already."""
    DROPPED = "dropped"
    """Beam search: a candidate of this level that did not make the beam."""


class Glimpse(NamedTuple):
    """One board of a :class:`FrontierView`.

    Attributes:
        node: The search node (its board is drawn).
        id: Its search-tree node id (as in the events).
        depth: Moves from the root.
        role: What it is to the search.
        fields: The numbers it is ranked by, named (``g 5``, ``h 34``, ``f 39``).
    """

    node: Any
    id: int
    depth: int
    role: Role
    fields: tuple[Field, ...]


@dataclass(frozen=True, slots=True)
class FrontierView:
    """The frontier as a frame shows it.

    Attributes:
        order: How the boards are ordered, in words ("lowest f first, then the deepest").
        boards: The node being expanded first (where there is one), then the others in the
            order the search takes them (a beam: its level in rank order, then the best
            dropped candidates, best first).
        totals: How many nodes of each role the search holds (``WAITING``: the frontier's
            size; ``DROPPED``: candidates dropped at this level), of which ``boards`` shows
            the first few.
    """

    order: str
    boards: tuple[Glimpse, ...]
    totals: tuple[tuple[Role, int], ...] = ()

    def total(self, role: Role) -> int:
        """How many nodes of ``role`` the search holds (those shown if not given)."""
        for known, count in self.totals:
            if known is role:
                return count
        return sum(1 for board in self.boards if board.role is role)


class StatusFields(tuple[Field, ...]):
    """An algorithm's status fields that also carry a :class:`FrontierView`.

    A tuple of :class:`~searchvid.search.status.Field` like any other status (the strip
    shows the fields), with :attr:`frontier` for the filmstrip.
    """

    frontier: FrontierView

    def __new__(cls, fields: Iterable[Field], frontier: FrontierView) -> StatusFields:
        made = super().__new__(cls, fields)
        made.frontier = frontier
        return made


def frontier_of(fields: Sequence[Field]) -> FrontierView | None:
    """The frontier view carried by an algorithm's status ``fields`` (None: none)."""
    return fields.frontier if isinstance(fields, StatusFields) else None
