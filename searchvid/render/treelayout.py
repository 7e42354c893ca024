"""Where the tree panel draws each search-tree node: stable, tidy layouts read from a first pass.

Layouts are computed before the video, from a silent first pass over the same events the
video will show (the search is seeded, so the first pass sees the final tree). Every node
therefore has its place from the first frame on and never moves while its layout is shown.

**Record.** :meth:`TreeRecord.of` reads the first pass once: each tree node's parent (events'
``id``/``parent``), its depth, the ``BACKUP`` rewards, the ``PRUNE`` events, and where
*decisions* start. Nodes whose parent the pass never named, and parentless nodes other than
the first root, are ignored, as later are events about nodes the pass did not see.

**Decisions.** A search that commits moves and searches again from each (MCTS in plan mode:
``MOVE``, a block of iterations, ``MOVE``, ...) is split into decisions: a new decision
starts at the first event after a ``MOVE`` that is neither a ``MOVE`` nor an ``IMPROVE``,
when that MOVE's node is not already the decision's root. Decision ``k`` is the subtree of
its root (the node the last MOVE committed) as it stands at the end of the decision: nodes
kept from earlier decisions and nodes created in this one. Each decision gets its own
:class:`TreeCensus` and so its own layout. Streams without ``BACKUP`` (minimax, whose
``MOVE`` line follows the whole search, and the frontier searches' solution replays) are one
decision: there the whole search tree is the point.

**Census.** A :class:`TreeCensus` numbers the nodes of one decision ``0 .. n-1`` in creation
order (the root first; :attr:`TreeCensus.ids` gives their ids) and gives each a *weight*:
its visit count at the end of the decision when the stream has ``BACKUP`` events (MCTS),
else the size of its subtree.

**Aggregation.** When a tree has more nodes than the panel has room for, only the heaviest
nodes are drawn. Nodes a ``MOVE`` names (a committed move, a replayed solution) and their
ancestors come before all others: the played line is always drawn (down to the depth cut).
The rules, in this order:

1. Depth: when the tree has more levels than the panel has rows (``min_pitch_y`` apart),
   nodes below the last row but one are hidden.
2. Breadth per node: of each node's children only the ``max_children`` heaviest (ties: the
   older; by default a quarter of the columns) can be drawn, so that one wide fan-out does
   not take every column; a node is drawable only if all its ancestors are.
3. Weight: when the tree does not fit whole, nodes lighter than ``min_weight`` (an
   MCTS node visited once is a bare expansion) are not drawn by themselves: fewer, larger
   nodes rather than many slivers.
4. Room: drawable nodes are ranked by weight (made monotone: a node weighs at least as much
   as any descendant), then depth, then id, so a node always ranks after its ancestors and
   every prefix of the ranking is a subtree containing the root. The drawn set is the
   longest prefix whose layout needs at most ``width // min_pitch_x`` columns (bisection).

Each drawn node whose children are not all drawn gets one *aggregate* child after its drawn
children: a ``+k`` item standing for all its hidden descendants (for a depth cut, the
aggregates fill the last row). Nothing is dropped silently: every node is drawn by itself or
by exactly one aggregate. For MCTS this keeps the most visited lines; for other searches the
largest subtrees. A ``PRUNE`` on a drawn node adds one more leaf item under it, after the
rest: the marker of its cut-off children.

**Tidy layout.** Drawn nodes and aggregates are placed in rows by depth. Leaves take
consecutive columns in depth-first order (children in id order, i.e. creation order, the
aggregate last); a parent sits over the middle of its first and last child, so subtrees
never overlap and any two items of a row are at least one column apart. Columns and rows are
then scaled to the panel: even column and row pitches, even coordinates.
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

ITEM_NODE, ITEM_AGGREGATE, ITEM_PRUNED = 0, 1, 2
"""Kinds of layout items: a tree node, an aggregate of hidden nodes, a node's pruned children."""


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
        decisions: One census per decision (at least one), in stream order.
        kinds: Every event kind in the stream.
        leaves: Whether some ``LEAF`` event names a tree node.
        unit_values: See :attr:`TreeCensus.unit_values`.
    """

    size: int
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
        self.kinds: set[EventKind] = set()
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
            kinds.add(kind)
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


def _monotone(weights: IntArray, parents: IntArray, depths: IntArray) -> IntArray:
    """``weights`` raised so that no node weighs less than one of its descendants."""
    out = weights.copy()
    if not len(depths):
        return out
    for depth in range(int(depths.max()), 0, -1):
        level = np.flatnonzero(depths == depth)
        np.maximum.at(out, parents[level], out[level])
    return out


@dataclass(frozen=True)
class _Selection:
    """The drawn nodes: a mask over ids and the depth below which everything is hidden."""

    shown: npt.NDArray[np.bool_]
    slots: int


class TreeLayout:
    """Stable positions, in panel pixels, of the drawn part of one decision's search tree.

    Items are the drawn nodes (in id order) followed by the aggregates, then the pruned
    markers (one under each drawn node a ``PRUNE`` event names, after its other children).
    Item ``v`` is centred on the pixel pair ``x[v], x[v] + 1`` (``x`` is even) in row
    ``row[v]``, whose band starts at pixel row :meth:`row_top`.

    Args:
        census: The tree to lay out (one decision of the first pass).
        left: Left edge of the area to fill (even).
        top: Top edge of the area (even).
        width: Width of the area.
        height: Height of the area.
        min_pitch_x: Smallest column pitch in pixels (even); fewer columns fit, more is hidden.
        min_pitch_y: Smallest row pitch in pixels (even).
        max_pitch_x: Largest column pitch (small trees do not spread wider).
        max_pitch_y: Largest row pitch.
        row_ratio: Largest row pitch as a multiple of the column pitch (rows of a narrow
            tree do not stretch to the whole height).
        max_children: Most children drawn per node (the heaviest; the rest aggregated);
            None: a quarter of the columns that fit, at least 8.
        min_weight: Where the tree does not fit whole, nodes lighter than this (fewer
            visits, a smaller subtree) are drawn only within an aggregate (the root and the
            played line always are drawn).

    Attributes:
        items: Number of items.
        node: Per item, its node's id in the event stream (-1 for aggregates and markers).
        kind: Per item, ``ITEM_NODE``, ``ITEM_AGGREGATE`` or ``ITEM_PRUNED``.
        marker_of: Item of a node -> the item of its pruned-children marker.
        parent: Per item, its parent item (-1 for the root).
        children: Per item, its child items, left to right.
        row: Per item, its row (its depth in the tree).
        x: Per item, the left pixel of its centre pair (even).
        hidden: Per item, how many nodes it stands for beyond itself (aggregates: all of
            them; drawn nodes: 0).
        rep: Per census (local) number, the item that draws the node: itself, or the
            aggregate standing for it.
        pitch_x: Column pitch in pixels (even).
        pitch_y: Row pitch in pixels (even).
        rows: Number of rows.
        columns: Number of columns (leaf slots).
        depth_cap: Deepest drawn node depth when the tree was cut by depth, else None.
    """

    def __init__(
        self,
        census: TreeCensus,
        *,
        left: int,
        top: int,
        width: int,
        height: int,
        min_pitch_x: int = 8,
        min_pitch_y: int = 10,
        max_pitch_x: int = 240,
        max_pitch_y: int = 160,
        row_ratio: float = 5.0,
        max_children: int | None = None,
        min_weight: int = 0,
    ) -> None:
        self.census = census
        parents, depths = census.parents, census.depths
        valid = depths >= 0
        max_depth = int(depths.max()) if valid.any() else 0
        rows_fit = max(2, height // min_pitch_y)
        cap = max_depth if max_depth + 1 <= rows_fit else rows_fit - 2
        self.depth_cap: int | None = cap if cap < max_depth else None
        columns_fit = max(1, width // min_pitch_x)
        if max_children is None:
            max_children = max(8, columns_fit // 4)
        selection = _select(census, cap, columns_fit, max_children, min_weight)
        self._build_items(selection.shown, parents, depths, valid)
        self.columns = self._place_columns()
        self.rows = max(self.row) + 1 if self.items else 1
        pitch_x = min(max_pitch_x, width // max(1, self.columns)) & ~1
        self.pitch_x = max(2, pitch_x)
        tallest = max(min_pitch_y, min(max_pitch_y, int(row_ratio * self.pitch_x)))
        self.pitch_y = max(2, min(tallest, height // self.rows) & ~1)
        x0 = left + ((width - self.columns * self.pitch_x) // 2 & ~1)
        self._top = top
        # _half[v] is twice the column of item v (parents may sit between two columns)
        self.x = [(x0 + (h * self.pitch_x) // 2 + self.pitch_x // 2 - 1) & ~1 for h in self._half]

    def row_top(self, row: int) -> int:
        """The first pixel row of ``row``'s band (even)."""
        return self._top + row * self.pitch_y

    @property
    def aggregates(self) -> int:
        """Number of aggregate items."""
        return self.kind.count(ITEM_AGGREGATE)

    def _build_items(
        self,
        shown: npt.NDArray[np.bool_],
        parents: IntArray,
        depths: IntArray,
        valid: npt.NDArray[np.bool_],
    ) -> None:
        ids = np.flatnonzero(shown)
        item_of = np.full(len(parents), -1, dtype=np.int64)
        item_of[ids] = np.arange(len(ids))
        node: list[int] = self.census.ids[ids].tolist()
        kind = [ITEM_NODE] * len(node)
        parent = [int(item_of[p]) if p >= 0 else -1 for p in parents[ids].tolist()]
        row: list[int] = depths[ids].tolist()
        children: list[list[int]] = [[] for _ in node]
        for v, p in enumerate(parent):
            if p >= 0:
                children[p].append(v)
        hidden = [0] * len(node)

        def add(item_kind: int, above: int) -> int:
            v = len(node)
            node.append(-1)
            kind.append(item_kind)
            parent.append(above)
            row.append(row[above] + 1)
            children.append([])
            hidden.append(0)
            children[above].append(v)
            return v

        rep: list[int] = item_of.tolist()
        aggregate_of: dict[int, int] = {}
        parent_list = parents.tolist()
        shown_list = shown.tolist()
        for i in np.flatnonzero(valid & ~shown).tolist():
            p = parent_list[i]  # ids grow down the tree: a hidden parent is settled first
            if shown_list[p]:
                above = rep[p]
                agg = aggregate_of.get(above)
                if agg is None:
                    agg = aggregate_of[above] = add(ITEM_AGGREGATE, above)
                rep[i] = agg
            else:
                rep[i] = rep[p]
            hidden[rep[i]] += 1
        self.marker_of = {
            int(item_of[i]): add(ITEM_PRUNED, int(item_of[i]))
            for i in np.flatnonzero(shown & self.census.pruned).tolist()
        }
        self.items = len(node)
        self.drawn_nodes = len(ids)
        self.node = node
        self.kind = kind
        self.parent = parent
        self.children = children
        self.row = row
        self.hidden = hidden
        self.rep = rep

    def _place_columns(self) -> int:
        """Tidy columns: leaves in depth-first order, parents over their children's middle.

        Sets ``_half`` (twice each item's column) and returns the number of columns.
        """
        half = [0] * self.items
        if not self.items:
            self._half = half
            return 1
        children = self.children
        next_leaf = 0
        stack: list[tuple[int, int]] = [(0, 0)]  # (item, index of the next child to visit)
        while stack:
            v, k = stack[-1]
            kids = children[v]
            if k < len(kids):
                stack[-1] = (v, k + 1)
                stack.append((kids[k], 0))
                continue
            stack.pop()
            if kids:
                half[v] = (half[kids[0]] + half[kids[-1]]) // 2
            else:
                half[v] = 2 * next_leaf
                next_leaf += 1
        self._half = half
        return max(1, next_leaf)


def _eligible(
    weights: IntArray,
    played: npt.NDArray[np.bool_],
    parents: IntArray,
    depths: IntArray,
    max_children: int,
) -> npt.NDArray[np.bool_]:
    """Nodes among the ``max_children`` heaviest children of their parent (on a played line
    first), as are all their ancestors."""
    n = len(parents)
    valid = depths >= 0
    ids = np.arange(n)
    # siblings together, the played one first, then the heaviest
    by_parent = np.lexsort((ids, -weights, ~played, parents))
    by_parent = by_parent[valid[by_parent]]
    grouped = parents[by_parent]
    positions = np.arange(len(by_parent))
    starts = np.ones(len(by_parent), dtype=bool)
    starts[1:] = grouped[1:] != grouped[:-1]
    first = np.maximum.accumulate(np.where(starts, positions, 0))
    sibling_rank = np.full(n, n, dtype=np.int64)
    sibling_rank[by_parent] = positions - first
    eligible = valid & ((parents < 0) | (sibling_rank < max_children))
    for depth in range(1, int(depths.max()) + 1):
        level = np.flatnonzero(depths == depth)
        eligible[level] &= eligible[parents[level]]
    return eligible


def _select(
    census: TreeCensus, cap: int, columns: int, max_children: int, min_weight: int
) -> _Selection:
    """The drawn nodes: the longest prefix of the ranking whose layout fits ``columns``."""
    parents, depths = census.parents, census.depths
    valid = depths >= 0
    n = len(parents)
    if not valid.any():
        return _Selection(np.zeros(n, dtype=bool), 0)
    weights = _monotone(census.weights, parents, depths)
    played = _monotone(census.played.astype(np.int64), parents, depths) > 0
    ids = np.arange(n)
    # ancestors first: on a played line, heavier (or as heavy and shallower, or older)
    order = np.lexsort((ids, depths, -weights, ~played))
    order = order[valid[order]]
    rank = np.full(n, n, dtype=np.int64)
    rank[order] = np.arange(len(order))
    child_count = np.bincount(parents[valid & (parents >= 0)], minlength=n)
    below = valid & (parents >= 0)
    safe_parents = np.where(below, parents, 0)
    drawable = (depths <= cap) & _eligible(weights, played, parents, depths, max_children)
    pruned = census.pruned

    def slots(count: int, within: npt.NDArray[np.bool_]) -> tuple[int, npt.NDArray[np.bool_]]:
        shown = (rank < count) & within
        cut = below & ~shown & shown[safe_parents]
        has_hidden = np.zeros(n, dtype=bool)
        has_hidden[parents[cut]] = True
        leaves = np.count_nonzero(shown & (child_count == 0))
        markers = np.count_nonzero(shown & pruned)
        return int(leaves + np.count_nonzero(has_hidden) + markers), shown

    everything = slots(len(order), drawable)
    if everything[0] <= columns and np.array_equal(drawable, valid):
        return _Selection(everything[1], everything[0])
    # light nodes only where the tree does not fit whole (prefix-closed, as both parts are)
    within = drawable & ((weights >= min_weight) | (parents < 0) | played)
    lo, hi = 1, len(order)
    best_slots, best = slots(lo, within)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        used, shown = slots(mid, within)
        if used <= columns:
            lo, best_slots, best = mid, used, shown
        else:
            hi = mid - 1
    return _Selection(best, best_slots)
