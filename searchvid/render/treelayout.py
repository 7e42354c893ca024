"""Where the tree panel draws each search-tree node: stable, tidy layouts read from a first pass.

Layouts are computed before the video, from a silent first pass over the same events the
video will show (the search is seeded, so the first pass sees the final tree). Every node
therefore has its place from the first frame on and never moves while its layout is shown.
The first pass is kept, and the render replays it instead of running the search a second time
(:mod:`searchvid.render.treereplay`).

The first pass is read by :mod:`searchvid.render.treerecord` (:class:`TreeRecord`, one
:class:`TreeCensus` per decision).

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
consecutive columns in depth-first order (children in id order, i.e. creation order, or with
``by_weight`` heaviest first: for MCTS the most visited *at the end of the decision* leftmost,
ties in creation order; the aggregate last); a parent sits over the middle of its first and
last child, so subtrees never overlap and any two items of a row are at least one column
apart. Columns and rows are then scaled to the panel: even column and row pitches, even
coordinates.

**Spotlight.** With ``spotlight``, each aggregate gets a column of *spot* items of its own,
just before it among its parent's children: its *lane*, one spot in the aggregate's row and one
per row under it down to its deepest hidden node (or the last row). While the path to the
current node runs through hidden nodes, the panel draws them there: the first in the lane's
top spot, beside the ``+k`` item, the next ones in the spots under it (see
:mod:`searchvid.render.treestate`). So the current node and its whole path stay on screen,
each with its own visit count, without moving anything else, and the ``+k`` item stays a
separate fold beside it (a node is never drawn in a fold's place under its "+k"); only a path
deeper than the panel's rows (a tree cut by depth) is cut at the last row. A lane takes a
column: with ``spotlight`` an aggregate costs two columns when the drawn set is chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from searchvid.render.treerecord import IntArray, TreeCensus, TreeRecord

__all__ = [
    "ITEM_AGGREGATE",
    "ITEM_NODE",
    "ITEM_PRUNED",
    "ITEM_SPOT",
    "TreeCensus",
    "TreeLayout",
    "TreeRecord",
]

ITEM_NODE, ITEM_AGGREGATE, ITEM_PRUNED, ITEM_SPOT = 0, 1, 2, 3
"""Kinds of layout items: a tree node, an aggregate of hidden nodes, a node's pruned
children, a slot under an aggregate where a hidden node on the current path is drawn."""


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
    markers (one under each drawn node a ``PRUNE`` event names, after its other children),
    then the spot items (``spotlight``: under each aggregate, one per row).
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
        by_weight: Order each node's children by weight, heaviest first (ties: the older),
            instead of by id.
        spotlight: Give each aggregate a column of spot items (see the module docstring).

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
            them; drawn nodes and spots: 0).
        spots: Aggregate item -> its lane's spot items, top down (rows ``row[a]`` on; the
            first is the aggregate's sibling, just before it).
        fold_of: Spot item -> the aggregate whose lane it is in.
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
        by_weight: bool = False,
        spotlight: bool = False,
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
        fold_cost = 2 if spotlight else 1  # a fold and its lane
        selection = _select(census, cap, columns_fit, max_children, min_weight, fold_cost)
        self._build_items(selection.shown, parents, depths, valid)
        if by_weight:
            self._order_by_weight()
        self.spots: dict[int, list[int]] = {}
        self.fold_of: dict[int, int] = {}
        if spotlight:
            self._add_spots(max_depth if self.depth_cap is None else self.depth_cap + 1)
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

    def _order_by_weight(self) -> None:
        """Each node item's node children heaviest first (ties: the older); the aggregate
        and the pruned marker stay last."""
        weights = self.census.weights.tolist()
        local = np.searchsorted(self.census.ids, np.array(self.node[: self.drawn_nodes]))
        weight_of = [weights[u] for u in local.tolist()]
        for v in range(self.drawn_nodes):
            kids = self.children[v]
            nodes = [c for c in kids if self.kind[c] == ITEM_NODE]
            if len(nodes) > 1:  # node items come first, in id order: a stable sort keeps ties
                nodes.sort(key=lambda c: -weight_of[c])
                kids[: len(nodes)] = nodes

    def _add_spots(self, last_row: int) -> None:
        """A lane beside each aggregate: a spot item in its row, just before it among its
        parent's children, and one per row under that spot down to the aggregate's deepest
        hidden node (at most ``last_row``)."""
        deepest: dict[int, int] = {}
        kind, rep = self.kind, self.rep
        for local, depth in enumerate(self.census.depths.tolist()):
            v = rep[local]
            if depth >= 0 and v >= 0 and kind[v] == ITEM_AGGREGATE:
                deepest[v] = max(deepest.get(v, 0), depth)
        for a in sorted(deepest):
            chain: list[int] = []
            above = self.parent[a]
            for row in range(self.row[a], min(deepest[a], last_row) + 1):
                v = self.items
                self.node.append(-1)
                self.kind.append(ITEM_SPOT)
                self.parent.append(above)
                self.row.append(row)
                self.children.append([])
                self.hidden.append(0)
                if chain:
                    self.children[above].append(v)
                else:  # the lane's top: the aggregate's sibling, just before it
                    siblings = self.children[above]
                    siblings.insert(siblings.index(a), v)
                self.items += 1
                self.fold_of[v] = a
                chain.append(v)
                above = v
            self.spots[a] = chain

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
    census: TreeCensus,
    cap: int,
    columns: int,
    max_children: int,
    min_weight: int,
    fold_cost: int = 1,
) -> _Selection:
    """The drawn nodes: the longest prefix of the ranking whose layout fits ``columns``
    (an aggregate takes ``fold_cost`` of them: 2 with its lane)."""
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
        return int(leaves + fold_cost * np.count_nonzero(has_hidden) + markers), shown

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
