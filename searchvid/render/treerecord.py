"""The first pass over a run's events, as the tree panel's layouts need it.

The tree panel is laid out before the video from a silent first pass over the same events
the video will show (the search is seeded, so the first pass sees the final tree); see
:mod:`searchvid.render.treelayout`. A render replays that pass rather than searching again
(:mod:`searchvid.render.treereplay`); the record below keeps only numbers.

**Record.** :meth:`TreeRecord.of` reads the first pass once: each tree node's parent (events'
``id``/``parent``), its depth, the ``BACKUP`` rewards, the ``PRUNE`` events, and where
*decisions* start. Nodes whose parent the pass never named, and parentless nodes other than
the first root, are ignored, as later are events about nodes the pass did not see.

**Decisions.** A search that commits moves and searches again from each (MCTS in plan mode:
``MOVE``, a block of iterations, ``MOVE``, ...) is split into decisions: a new decision
starts at the first event after a ``MOVE`` that is neither a ``MOVE`` nor an ``IMPROVE``,
when that MOVE's node is not already the decision's root. Decision ``k`` is the subtree of
its root (the node the last MOVE committed) as it stands at the end of the decision: nodes
kept from earlier decisions and nodes created in this one. A decision whose root has a single
child is *forced* (:attr:`TreeCensus.forced`). Each decision gets its own
:class:`TreeCensus` and so its own layout. Streams without ``BACKUP`` (minimax, whose
``MOVE`` line follows the whole search, and the frontier searches' solution replays) are one
decision: there the whole search tree is the point.

**Census.** A :class:`TreeCensus` numbers the nodes of one decision ``0 .. n-1`` in creation
order (the root first; :attr:`TreeCensus.ids` gives their ids) and gives each a *weight*:
its visit count at the end of the decision when the stream has ``BACKUP`` events (MCTS),
else the size of its subtree.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from searchvid.search.events import Event, EventKind

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
_Number = TypeVar("_Number", np.int64, np.float64)

_UNKNOWN = -2
_ROOT = -1


@dataclass(frozen=True, eq=False)
class TreeCensus:
    """One decision's search tree, as the first pass saw it at the decision's end.

    Nodes are numbered ``0 .. n-1`` (*local* numbers) in creation order, the root first.

    Attributes:
        ids: Per local number, the node's id in the event stream (ascending).
        parents: Per local number, its parent's local number; -1 for the root.
        depths: Per local number, its depth below the decision's root.
        weights: Per local number, its weight for aggregation: its visits at the end of the
            decision (``BACKUP`` streams) or the size of its subtree.
        prior_visits: Per local number, its visits when the decision starts (kept from
            earlier decisions; all 0 for the first).
        prior_totals: Per local number, the sum of the rewards of those visits.
        pruned: Per local number, whether a ``PRUNE`` event names it.
        played: Per local number, whether a ``MOVE`` event names it (a committed move, a
            replayed solution: drawn before anything else).
        kinds: Every event kind in the stream.
        leaves: Whether some ``LEAF`` event names a tree node (dead ends, terminals).
        unit_values: Whether the stream has the signature of minimax values: ``LEAF`` or
            ``BACKTRACK`` events with values, all in [0, 1], and no ``ENTER`` with a value.
        index: The decision's number, from 0.
        forced: Whether the decision's root has exactly one child by its end: a move with
            no choice (the last tile, the last empty cell), however long it was searched.
    """

    ids: IntArray
    parents: IntArray
    depths: IntArray
    weights: IntArray
    prior_visits: IntArray
    prior_totals: FloatArray
    pruned: npt.NDArray[np.bool_]
    played: npt.NDArray[np.bool_]
    kinds: frozenset[EventKind]
    leaves: bool
    unit_values: bool
    index: int = 0
    forced: bool = False

    @property
    def nodes(self) -> int:
        """Number of tree nodes."""
        return len(self.ids)

    @property
    def root(self) -> int:
        """The id of the decision's root (-1 for an empty census)."""
        return int(self.ids[0]) if len(self.ids) else -1

    @classmethod
    def of(cls, events: Iterable[Event]) -> TreeCensus:
        """The whole tree of a first pass over ``events`` (consumed once), as one decision."""
        return TreeRecord.of(events, split=False).decisions[0]


@dataclass(frozen=True, eq=False)
class TreeRecord:
    """What a first pass over an event stream saw: its decisions' trees.

    Attributes:
        size: One more than the largest node id the pass saw (0: none).
        parents: Per node id, its parent's id: -1 for the first root, -2 for an id the
            pass ignores (never named, or not below the first root).
        decisions: One census per decision (at least one), in stream order.
        kinds: Every event kind in the stream.
        leaves: Whether some ``LEAF`` event names a tree node.
        unit_values: See :attr:`TreeCensus.unit_values`.
    """

    size: int
    parents: IntArray
    decisions: tuple[TreeCensus, ...]
    kinds: frozenset[EventKind]
    leaves: bool
    unit_values: bool

    @property
    def split(self) -> bool:
        """Whether the stream is split into more than one decision."""
        return len(self.decisions) > 1

    @classmethod
    def of(cls, events: Iterable[Event], *, split: bool | None = None) -> TreeRecord:
        """Read a first pass over ``events`` (consumed once).

        Args:
            events: The stream.
            split: Split the stream into decisions (see the module docstring): None for
                streams with ``BACKUP`` events only, True for any stream whose MOVEs are
                followed by more search, False never.
        """
        reader = _Reader()
        reader.read(events)
        parents, depths = _connect(reader.parents, reader.first_root)
        kinds = frozenset(reader.kinds)
        wanted = EventKind.BACKUP in kinds if split is None else split
        starts = reader.switches if wanted else []
        backup_ids = np.frombuffer(reader.backup_ids, dtype=np.int64)
        rewards = np.frombuffer(reader.rewards, dtype=np.float64)
        pruned = np.zeros(len(parents), dtype=bool)
        pruned[reader.prunes] = True
        played = np.zeros(len(parents), dtype=bool)
        played[reader.moves] = True
        shared = _Shared(
            parents=parents,
            depths=depths,
            pruned=pruned & (depths >= 0),
            played=played & (depths >= 0),
            backups=bool(reader.backup_ids),
            kinds=kinds,
            leaves=reader.leaves,
            unit_values=reader.unit_values,
        )
        n = len(parents)
        roots = [reader.first_root, *(root for root, _, _ in starts)]
        bounds = [bound for _, _, bound in starts] + [n]
        cuts = [0, *(cut for _, cut, _ in starts), len(backup_ids)]
        visits = np.zeros(n, dtype=np.int64)
        totals = np.zeros(n, dtype=np.float64)
        decisions = []
        for k, (root, bound) in enumerate(zip(roots, bounds, strict=True)):
            ids = _members(parents, depths, root, bound) if starts else np.flatnonzero(depths >= 0)
            before = (visits[ids], totals[ids]) if k else None
            chunk = backup_ids[cuts[k] : cuts[k + 1]]
            np.add.at(visits, chunk, 1)
            np.add.at(totals, chunk, rewards[cuts[k] : cuts[k + 1]])
            decisions.append(shared.census(ids, k, visits[ids], before))
        return cls(
            size=n,
            parents=parents,
            decisions=tuple(decisions),
            kinds=kinds,
            leaves=reader.leaves,
            unit_values=reader.unit_values,
        )


class _Reader:
    """The one loop over the first pass: parents, rewards, prunes and decision starts."""

    def __init__(self) -> None:
        self.parents: list[int] = []
        self.backup_ids = array("q")
        self.rewards = array("d")
        self.prunes: list[int] = []
        self.moves: list[int] = []
        self.kinds: list[EventKind] = []
        self.switches: list[tuple[int, int, int]] = []  # (root, backups before, ids before)
        self.first_root = -1
        self.leaves = False
        self.unit_values = False

    def read(self, events: Iterable[Event]) -> None:
        parents, kinds = self.parents, self.kinds
        backup_ids, rewards, prunes, switches = (
            self.backup_ids,
            self.rewards,
            self.prunes,
            self.switches,
        )
        leaves = entered_value = valued = False
        unit = True
        leaf, enter, back, backup, prune, move, improve = (
            EventKind.LEAF,
            EventKind.ENTER,
            EventKind.BACKTRACK,
            EventKind.BACKUP,
            EventKind.PRUNE,
            EventKind.MOVE,
            EventKind.IMPROVE,
        )
        root = pending = -1
        for event in events:
            kind = event.kind
            if kind not in kinds:  # a list of the few kinds: compared by identity, not hashed
                kinds.append(kind)
            i = event.id
            if kind is move:
                if i is not None and i >= 0:
                    pending = i
                    self.moves.append(i)
            elif pending >= 0 and kind is not improve:
                if pending != root and root >= 0:
                    switches.append((pending, len(backup_ids), len(parents)))
                    root = pending
                pending = -1
            if i is None or i < 0:
                continue
            if root < 0 and event.parent is None:
                root = self.first_root = i
            if i >= len(parents):
                parents.extend([_UNKNOWN] * (i + 1 - len(parents)))
            if parents[i] == _UNKNOWN:
                p = event.parent
                parents[i] = _ROOT if p is None else p
            if kind is backup:
                backup_ids.append(i)
                v = event.value
                rewards.append(0.0 if v is None else v)
            elif kind is leaf or kind is back:
                leaves = leaves or kind is leaf
                v = event.value
                if v is not None:
                    valued = True
                    unit = unit and 0.0 <= v <= 1.0
            elif kind is enter and event.value is not None:
                entered_value = True
            elif kind is prune:
                prunes.append(i)
        self.leaves = leaves
        self.unit_values = valued and unit and not entered_value


@dataclass(frozen=True, eq=False)
class _Shared:
    """What every decision's census is cut from: the whole stream's tree, by id."""

    parents: IntArray
    depths: IntArray
    pruned: npt.NDArray[np.bool_]
    played: npt.NDArray[np.bool_]
    backups: bool
    kinds: frozenset[EventKind]
    leaves: bool
    unit_values: bool

    def census(
        self,
        ids: IntArray,
        index: int,
        visits: IntArray,
        before: tuple[IntArray, FloatArray] | None,
    ) -> TreeCensus:
        """The census of decision ``index``: the nodes ``ids`` (a subtree, ascending, root
        first), the ``BACKUP`` counts at each by the decision's end, and ``before`` its
        start (counts and reward sums; None: nothing before)."""
        n = len(ids)
        parents = np.searchsorted(ids, self.parents[ids]).astype(np.int64)
        depths = self.depths[ids]
        if n:
            parents[0] = _ROOT
            depths = depths - depths[0]
        own = visits if self.backups else np.ones(n, dtype=np.int64)
        weights = _subtree_sums(own, parents, depths)
        if before is None or not self.backups:
            prior_visits = np.zeros(n, dtype=np.int64)
            prior_totals = np.zeros(n, dtype=np.float64)
        else:
            prior_visits = _subtree_sums(before[0], parents, depths)
            prior_totals = _subtree_sums(before[1], parents, depths)
        return TreeCensus(
            ids=ids.astype(np.int64),
            parents=parents,
            depths=depths.astype(np.int64),
            weights=weights,
            prior_visits=prior_visits,
            prior_totals=prior_totals,
            pruned=self.pruned[ids],
            played=self.played[ids],
            kinds=self.kinds,
            leaves=self.leaves,
            unit_values=self.unit_values,
            index=index,
            forced=n >= 2 and int(np.count_nonzero(parents == 0)) == 1,
        )


def _connect(raw: list[int], root: int) -> tuple[IntArray, IntArray]:
    """Parents and depths by id, with every id not below ``root`` marked ignored."""
    n = len(raw)
    parents = np.full(n, _UNKNOWN, dtype=np.int64)
    depths = np.full(n, -1, dtype=np.int64)
    if not 0 <= root < n:
        return parents, depths
    depth_of = [-1] * n
    depth_of[root] = 0
    parents[root] = _ROOT
    for i in range(root + 1, n):
        p = raw[i]
        if 0 <= p < i and depth_of[p] >= 0:  # ids follow creation: a parent comes first
            depth_of[i] = depth_of[p] + 1
            parents[i] = p
    depths[:] = depth_of
    return parents, depths


def _members(parents: IntArray, depths: IntArray, root: int, bound: int) -> IntArray:
    """The ids of ``root``'s subtree among the ids below ``bound``, ascending."""
    if not 0 <= root < min(bound, len(depths)) or depths[root] < 0:
        return np.zeros(0, dtype=np.int64)
    # a node is created after its parent: the subtree lies in ids root .. bound - 1
    span_parents = parents[root:bound] - root
    span_depths = depths[root:bound]
    inside = np.zeros(bound - root, dtype=bool)
    inside[0] = True
    for depth in range(int(depths[root]) + 1, int(span_depths.max()) + 1):
        level = np.flatnonzero(span_depths == depth)
        ups = span_parents[level]
        below = ups >= 0
        inside[level[below]] = inside[ups[below]]
    return np.flatnonzero(inside).astype(np.int64) + root


def _subtree_sums(
    own: npt.NDArray[_Number], parents: IntArray, depths: IntArray
) -> npt.NDArray[_Number]:
    """Per node, the sum of ``own`` over its subtree (0 where ignored)."""
    total = np.where(depths >= 0, own, 0).astype(own.dtype)
    if not len(depths):
        return total
    for depth in range(int(depths.max()), 0, -1):
        level = np.flatnonzero(depths == depth)
        np.add.at(total, parents[level], total[level])
    return total
