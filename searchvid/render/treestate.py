"""What the events said so far about the nodes of a search tree, item by item.

:class:`TreeState` is the half of the tree panel that knows nothing of pixels: fed every
event (:meth:`TreeState.observe`), it keeps each node's state (frontier, expanded, leaf,
dropped), visits and rewards, values, pruned counts and whether it was played; which
decision is shown; the current node and the path to it. It marks the layout items whose
look may have changed (``_dirty``, and ``_dirty_bus`` for the edges under an item);
:class:`~searchvid.render.treepanel.TreePanel` redraws them.

Two things it works out for MCTS layouts (``spotlight``, see
:mod:`searchvid.render.treelayout`):

- **Guests.** When the current node is hidden in a ``+k`` aggregate, the hidden part of its
  path (from the aggregate's row down) is lent the spot items of the aggregate's lane, beside
  it: the current node and every node above it are always drawn, each with its own visits,
  and the ``+k`` item, a separate fold, no longer counts them while they are drawn.
- **The principal variation**, as of the last event: from the root, repeatedly the child
  with the most visits so far (ties: a played one, the move the search committed by its own
  tie rule, so the "most visits" mark never sits beside the played mark on a child with as
  many visits; else the leftmost, so a drawn child before a hidden one).
  It runs through drawn nodes and ends at a node with no visited child, or at the aggregate
  holding the next node. Each item knows whether it is on it (``_pv_state``) and which of
  its children it continues to (``_pv_child``).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import numpy as np

from searchvid.render.treelayout import ITEM_AGGREGATE, ITEM_NODE, ITEM_SPOT, TreeLayout
from searchvid.render.treerecord import TreeCensus, TreeRecord
from searchvid.search.events import Event, EventKind

_K = EventKind

UNSEEN, OPEN_FRONTIER, DROPPED_STATE, OPEN, LEAF_STATE = range(5)
"""Node states, in the order they may rise (a node never falls back)."""

CURRENT_KINDS = frozenset(
    {_K.ENTER, _K.BACKTRACK, _K.LEAF, _K.RESTART, _K.EXPAND, _K.SELECT, _K.ROLLOUT, _K.MOVE}
)
"""Kinds that make their node the current one (the states the video shows)."""


class TreeState:
    """Per node and per item of the current decision's layout: what the events said so far.

    Args:
        record: The first pass (one census per decision).
        layouts: One layout per decision.
        mcts: The stream has ``BACKUP`` events (items keep visits and reward sums).
        node_values: Nodes take the values of their ``LEAF`` / ``BACKTRACK`` events.
        wanted: Node ids whose objects are kept (drawn as pictures or named somewhere).
        label: Names a node object (the header names each decision's root); None: no names.

    Attributes:
        record: The first pass.
        layouts: One layout per decision, in order.
        layout: The current decision's layout (a forced decision, with one move to choose
            from, keeps the layout of the decision before it).
        decision: The number of the current decision, from 0.
    """

    def __init__(
        self,
        record: TreeRecord,
        layouts: list[TreeLayout],
        *,
        mcts: bool,
        node_values: bool,
        wanted: set[int],
        label: Callable[[Any], str] | None,
    ) -> None:
        self.record = record
        self.layouts = layouts
        self._mcts = mcts
        self._node_values = node_values
        self._split = record.split
        self._label = label
        self._root: int = -1  # the current decision's root, once the events named it
        self._pending = -1  # the node of a MOVE not followed by search yet
        self._forced = False  # the current decision is forced: the last one's picture stays
        self._pending_node: Any = None
        self._first = True
        n = self._n = record.size
        self._rep: list[int] = [-1] * n
        self._seen = bytearray(n)
        self._state_of = bytearray(n)  # UNSEEN, OPEN_FRONTIER, ...
        self._played = bytearray(n)
        self._gparent: list[int] = record.parents.tolist()
        self._node_visits = [0] * n  # per node id: visits so far, and their reward sums
        self._node_total = [0.0] * n
        self._stop_node = -1  # a backup stops at this node (-1: at the first root)
        self._host: dict[int, int] = {}  # a guest node -> the item drawing it
        self._node_value: dict[int, float] = {}
        self._pruned_count: dict[int, int] = {}
        self._objects: dict[int, Any] = {}  # nodes whose picture or label may be drawn
        self._wanted = wanted
        self._raise: dict[EventKind, int] = {
            _K.ENTER: OPEN,
            _K.BACKTRACK: OPEN,
            _K.SELECT: OPEN,
            _K.RESTART: OPEN,
            _K.MOVE: OPEN,
            _K.LEAF: LEAF_STATE,
            _K.FRONTIER: OPEN_FRONTIER,
            _K.EXPAND: OPEN if mcts else OPEN_FRONTIER,
        }
        self._walks: int = 1
        self._root_name = ""
        self._members: list[int] = []
        self._dirty: set[int] = set()
        self._dirty_bus: set[int] = set()
        self._left = -1  # the item a step back just left: ringed until the next state
        self._marks_left = True  # whether a step back's node is ringed at all

    @property
    def census(self) -> TreeCensus:
        """The current decision's tree, as the first pass saw it."""
        return self.layout.census

    @property
    def decisions(self) -> int:
        """Number of decisions (1 unless a plan-mode search is split)."""
        return len(self.layouts)

    def observe(self, event: Event) -> None:
        """Take note of ``event`` (call it for every event, in stream order)."""
        kind = event.kind
        i = event.id
        if self._split:  # the same rule as the first pass (treerecord._Reader)
            if kind is _K.MOVE:
                if i is not None and i >= 0:
                    self._pending = i
                    self._pending_node = event.node
                    if self.decision == len(self.layouts) - 1 and self._label is not None:
                        # The last move: no decision follows, so the header names the
                        # position it leaves on the board rather than the one before it.
                        last = len(self.layouts)
                        self._root_name = f"after move {last}: {self._label(event.node)}"
            elif self._pending >= 0 and kind is not _K.IMPROVE:
                self._next_decision()
            if self._root < 0 and i is not None and i >= 0 and event.parent is None:
                self._root = i
                if self._label is not None:  # whose it is: the board may show a deeper node
                    self._root_name = f"root, before move 1: {self._label(event.node)}"
        if i is None:
            if kind in CURRENT_KINDS and event.parent is not None:  # a playout state
                p = event.parent
                if 0 <= p < self._n and self._rep[p] >= 0:
                    self._set_current(p)
            return
        if not 0 <= i < self._n:
            return
        v = self._rep[i]
        if v < 0:
            if kind not in (_K.BACKUP, _K.PRUNE, _K.IMPROVE):
                self._unplaced(event, i)
            return
        if kind is _K.BACKUP:
            self._backup(v, event.value)
            self._backup_node(i, event.value)
        elif kind is _K.PRUNE:
            self._prune(i, v, event.value)
        elif kind is not _K.IMPROVE:
            self._shows(event, i, v)

    def _unplaced(self, event: Event, i: int) -> None:
        """Node ``i``, outside the layout shown (a forced decision keeps the tree before
        it, which lacks the nodes its search adds), is named: noted as seen and in its
        state all the same, so that a later decision whose tree holds it draws it (else
        its children, named again there, would be drawn under an edge from nothing)."""
        self._seen[i] = 1
        if i in self._wanted:
            self._objects[i] = event.node
        target = self._raise.get(event.kind, 0)
        if event.kind is _K.DROP and self._state_of[i] <= OPEN_FRONTIER:
            target = DROPPED_STATE
        if target > self._state_of[i]:
            self._state_of[i] = target

    def _shows(self, event: Event, i: int, v: int) -> None:
        """An event that shows node ``i`` (drawn by item ``v``) or changes its state."""
        kind = event.kind
        if not self._seen[i]:
            self._appear(i, v, event.node)
        # a frontier search's EXPAND only queues its node (an MCTS's is where it goes on)
        if kind in CURRENT_KINDS and (self._mcts or kind is not _K.EXPAND):
            left = self._current if kind is _K.BACKTRACK and self._marks_left else -1
            self._set_current(i)
            self._leave(left if left != self._current else -1)
            if kind is _K.RESTART:
                self._walks += 1
        self._change_state(i, v, kind)
        if kind is _K.MOVE:
            if not self._split:
                self._backup_root = v
                self._stop_node = i
            if not self._played[i]:
                self._played[i] = 1
                self._pv_stale = True  # a played child leads a tie for the most visits
                self._dirty.add(v)
                p = self._parent[v]
                if p >= 0:  # the heavy edge down to it
                    self._dirty.add(p)
                    self._dirty_bus.add(p)
        elif self._node_values and (kind is _K.LEAF or kind is _K.BACKTRACK):
            value = event.value
            if value is not None and value != self._value[v]:
                self._value[v] = value
                self._node_value[i] = value
                self._dirty.add(v)

    # -- decisions ------------------------------------------------------------------------

    def _enter(self, k: int) -> None:
        """Make decision ``k``'s layout the current one, its items as the events left them."""
        self.decision = k
        self._forced = False
        self.layout = layout = self.layouts[k]
        self._entered(k)
        rep = self._rep
        for g in self._members:
            rep[g] = -1
        census = layout.census
        members = self._members = census.ids.tolist()
        for g, v in zip(members, layout.rep, strict=True):
            rep[g] = v
        items = layout.items
        self._gid = layout.node
        self._parent = layout.parent
        self._item_kind = layout.kind
        self._shown = [False] * items
        self._kids = [0] * items
        self._count = [0] * items  # aggregates: members seen; markers: children cut off
        self._open = [0] * items  # aggregates: members on the frontier
        self._visits = [0] * items
        self._total = [0.0] * items
        self._value: list[float | None] = [None] * items
        self._current = 0 if k and items else -1
        self._left = -1
        self._path: list[int] = []
        self._on_path = [False] * items
        self._backup_root = -1
        if self._split:
            self._stop_node = census.root
        self._guest = [-1] * items  # spots: the hidden node drawn there
        self._host.clear()
        self._pv: list[int] = []
        self._pv_state = [0] * items  # 0: off the PV; 1: its end; 2: it goes on below
        self._pv_child = [-1] * items
        self._pv_stale = True
        parents = census.parents
        counts = np.bincount(parents[1:], minlength=census.nodes)
        self._kid_start: list[int] = [0, *np.cumsum(counts).tolist()]
        # local numbers of each node's children, grouped by parent (the root's -1 sorts first)
        self._kid_order: list[int] = np.argsort(parents, kind="stable").tolist()[1:]
        self._first = True
        self._dirty.clear()
        self._dirty_bus.clear()
        self._restore(census)

    def _entered(self, k: int) -> None:
        """Called when decision ``k`` becomes the current one, before its items are reset."""

    def _restore(self, census: TreeCensus) -> None:
        """Show what earlier decisions left of this one's tree (nothing for the first)."""
        if not self.decision:
            return
        kind, rep, seen, state = self._item_kind, self.layout.rep, self._seen, self._state_of
        visits, totals = census.prior_visits.tolist(), census.prior_totals.tolist()
        for local, g in enumerate(self._members):
            if not seen[g]:
                continue
            v = rep[local]
            if kind[v] == ITEM_NODE:
                self._visits[v], self._total[v] = visits[local], totals[local]
                self._value[v] = self._node_value.get(g)
                marker = self.layout.marker_of.get(v)
                if marker is not None and g in self._pruned_count:
                    self._count[marker] = self._pruned_count[g]
                    self._show(marker)
            else:
                self._count[v] += 1
                self._open[v] += state[g] == OPEN_FRONTIER
            if not self._shown[v]:
                self._show(v)

    def _next_decision(self) -> None:
        """The first event after a MOVE: a new decision starts if it commits a new root."""
        pending, self._pending = self._pending, -1
        if pending == self._root or self._root < 0:
            return
        self._root = pending
        k = self.decision + 1
        if k < len(self.layouts):  # the first pass counted the same starts
            if self.layouts[k].census.forced:
                # No choice to show: the last decision's tree stays, and the forced search
                # shows in it. Its visits count up to the kept tree's root, not only to the
                # committed node: a child never shows more visits than its parent (the
                # kept root then counts the visits through it over both decisions).
                self.decision = k
                self._forced = True
                searched = self._rep[self._root]
                if searched >= 0:  # outlined as the search's root from now on
                    self._dirty.add(searched)
                self._forced_began()
                # The header still names the kept tree's root: the tree drawn.
            else:
                if self._label is not None:
                    name = self._label(self._pending_node)
                    self._root_name = f"root, before move {k + 1}: {name}"
                self._enter(k)  # its root is the current node

    def _forced_began(self) -> None:
        """Called when a forced decision starts (the last decision's tree stays)."""

    # -- the current node -----------------------------------------------------------------

    def _leave(self, v: int) -> None:
        """Item ``v`` is the one a step back just left (-1: none; the mark of the last
        one goes)."""
        if self._left >= 0:
            self._dirty.add(self._left)
        self._left = v
        if v >= 0:
            self._dirty.add(v)

    def _set_current(self, i: int) -> None:
        """Node ``i`` (in the current decision) is the current one; if it is hidden in an
        aggregate with a lane, its hidden path is lent the lane's spots."""
        v = self._rep[i]
        spots = self.layout.spots.get(v) if self._item_kind[v] == ITEM_AGGREGATE else None
        if spots is None:
            self._place_guests([], [])
            self._current = v
            return
        chain = [i]
        parent, rep = self._gparent, self._rep
        p = parent[i]
        while p >= 0 and rep[p] == v:  # hidden ancestors share the aggregate
            chain.append(p)
            p = parent[p]
        chain.reverse()
        hosts = spots[: len(chain)]
        self._place_guests(hosts, chain[: len(hosts)])
        self._current = hosts[-1]

    def _place_guests(self, hosts: list[int], guests: list[int]) -> None:
        """Item ``hosts[k]`` draws hidden node ``guests[k]``; every other host is freed."""
        wanted = dict(zip(hosts, guests, strict=True))
        guest, kind, fold_of = self._guest, self._item_kind, self.layout.fold_of
        for g, v in list(self._host.items()):
            if wanted.get(v) != g:
                del self._host[g]
                guest[v] = -1
                self._dirty.add(v)
                self._dirty.add(fold_of[v])  # its "+k" counts the node again
                if kind[v] == ITEM_SPOT:
                    self._hide(v)
                self._fold_shown(fold_of[v])
        for v, g in wanted.items():
            if guest[v] != g:
                guest[v] = g
                self._host[g] = v
                self._dirty.add(v)
                self._dirty.add(fold_of[v])  # its "+k" no longer counts the node drawn
                if kind[v] == ITEM_SPOT and not self._shown[v]:
                    self._show(v)
                self._fold_shown(fold_of[v])

    def _fold_shown(self, a: int) -> None:
        """Show aggregate ``a`` while it stands for some node not drawn in its lane: a fold
        whose every member seen so far is a guest there would read "+0" (and its edge
        would lead to nothing), so it is hidden until another member appears or a guest
        leaves."""
        left = self._count[a] - sum(self._guest[s] >= 0 for s in self.layout.spots.get(a, ()))
        if (left > 0) == self._shown[a]:
            return
        if left > 0:
            self._show(a)
        else:
            self._hide(a)
        self._pv_stale = True  # the line of most visits runs into the fold or its lane

    def _backup_node(self, i: int, reward: float | None) -> None:
        """One visit and ``reward`` for node ``i`` and its ancestors up to the backup's
        stop (the decision's root), node by node: hidden nodes have no item to count them."""
        r = 0.0 if reward is None else reward
        stop, parent = self._stop_node, self._gparent
        visits, total, host = self._node_visits, self._node_total, self._host
        g = i
        while g >= 0:
            visits[g] += 1
            total[g] += r
            if g in host:
                self._dirty.add(host[g])
            if g == stop:
                break
            g = parent[g]
        self._pv_stale = True

    # -- the principal variation ----------------------------------------------------------

    def _sync_pv(self) -> None:
        """Recompute the principal variation if visits changed, marking what changed."""
        if not self._pv_stale:
            return
        self._pv_stale = False
        pv = self._principal_variation()
        if pv == self._pv:
            return
        state, child, dirty, dirty_bus = (
            self._pv_state,
            self._pv_child,
            self._dirty,
            self._dirty_bus,
        )
        for v in self._pv:
            state[v], child[v] = 0, -1
        for k, v in enumerate(pv):
            state[v] = 2 if k + 1 < len(pv) else 1
            child[v] = pv[k + 1] if k + 1 < len(pv) else -1
        for v in {*self._pv, *pv}:
            dirty.add(v)
            dirty_bus.add(v)
        self._pv = pv

    def _principal_variation(self) -> list[int]:
        """The items of the principal variation from the root (empty: not two items yet)."""
        layout = self.layout
        if not layout.items or not self._mcts or not self._shown[0]:
            return []
        members, visits, played = self._members, self._node_visits, self._played
        kind, gid, rep = self._item_kind, self._gid, layout.rep
        order, start = self._kid_order, self._kid_start
        pv = [0]
        v = 0
        while kind[v] == ITEM_NODE:
            local = bisect_left(members, gid[v])
            position = {c: k for k, c in enumerate(layout.children[v])}
            best: tuple[int, int, int] | None = None
            for u in order[start[local] : start[local + 1]]:
                n = visits[members[u]]
                item = rep[u]
                if not self._shown[item]:  # a fold hidden: its node is a guest beside it
                    item = self._host.get(members[u], item)
                if n and item in position:
                    key = (-n, -played[members[u]], position[item])
                    if best is None or key < best:
                        best = key
            if best is None:
                break
            v = layout.children[v][best[2]]
            pv.append(v)
        return pv if len(pv) > 1 else []

    # -- observing ------------------------------------------------------------------------

    def _appear(self, i: int, v: int, node: Any) -> None:
        """Node ``i`` (drawn by item ``v``) is named for the first time."""
        self._seen[i] = 1
        if i in self._wanted:  # drawn by itself in some decision, if not in this one
            self._objects[i] = node
        if self._item_kind[v] == ITEM_AGGREGATE:
            self._count[v] += 1
            self._dirty.add(v)
            self._fold_shown(v)
        if not self._shown[v]:
            self._show(v)

    def _change_state(self, i: int, v: int, kind: EventKind) -> None:
        """Raise node ``i``'s state for ``kind``; its item (or aggregate ``v``) follows."""
        state = self._state_of[i]
        target = self._raise.get(kind, state)
        if kind is _K.DROP:
            target = DROPPED_STATE if state <= OPEN_FRONTIER else state
        elif target < state:
            target = state
        if target == state:
            return
        self._state_of[i] = target
        if self._item_kind[v] == ITEM_NODE:
            self._dirty.add(v)
            return
        if state == OPEN_FRONTIER:  # an aggregate counts its members on the frontier
            self._open[v] -= 1
            self._dirty.add(v)
        if target == OPEN_FRONTIER:
            self._open[v] += 1
            self._dirty.add(v)

    def _show(self, v: int) -> None:
        self._shown[v] = True
        self._dirty.add(v)
        p = self._parent[v]
        if p >= 0:
            self._kids[p] += 1
            self._dirty.add(p)
            self._dirty_bus.add(p)

    def _hide(self, v: int) -> None:
        self._shown[v] = False
        self._dirty.add(v)
        p = self._parent[v]
        if p >= 0:
            self._kids[p] -= 1
            self._dirty.add(p)
            self._dirty_bus.add(p)

    def _backup(self, v: int, reward: float | None) -> None:
        """One visit and ``reward`` for ``v`` and its ancestors up to the current root."""
        r = 0.0 if reward is None else reward
        stop = self._backup_root
        parent, visits, total, dirty = self._parent, self._visits, self._total, self._dirty
        while v >= 0:
            visits[v] += 1
            total[v] += r
            dirty.add(v)
            if v == stop:
                break
            v = parent[v]

    def _prune(self, i: int, v: int, cut: float | None) -> None:
        n = int(cut) if cut is not None and math.isfinite(cut) else 1
        self._pruned_count[i] = self._pruned_count.get(i, 0) + n
        marker = self.layout.marker_of.get(v)
        if marker is None:
            return
        self._count[marker] += n
        self._dirty.add(marker)
        if not self._shown[marker]:
            self._show(marker)

    # -- the current path -----------------------------------------------------------------

    def _sync_path(self) -> None:
        """Move the highlighted path to the current node, marking what changed."""
        path, on = self._path, self._on_path
        current = self._current
        if path and path[-1] == current:
            return
        parent, row, dirty, dirty_bus = (
            self._parent,
            self.layout.row,
            self._dirty,
            self._dirty_bus,
        )
        chain = []
        w = current
        while w >= 0 and not on[w]:
            chain.append(w)
            w = parent[w]
        keep = row[w] + 1 if w >= 0 else 0
        for u in path[keep:]:
            on[u] = False
            dirty.add(u)
            if parent[u] >= 0:
                dirty_bus.add(parent[u])
        del path[keep:]
        for u in reversed(chain):
            on[u] = True
            dirty.add(u)
            if parent[u] >= 0:
                dirty_bus.add(parent[u])
            path.append(u)
        if w >= 0:
            dirty.add(w)
            dirty_bus.add(w)

    def _bus_highlight(self, p: int) -> int:
        """The child of ``p`` on the current path (-1: none)."""
        if not self._on_path[p] or self._path[-1] == p:
            return -1
        return self._path[self.layout.row[p] + 1]

    def _item_played(self, v: int) -> bool:
        """Whether item ``v`` draws a node that was played (a MOVE named it)."""
        return self._item_kind[v] == ITEM_NODE and bool(self._played[self._gid[v]])

    def _played_child(self, p: int) -> int:
        """The shown child of ``p`` that was played (-1: none)."""
        for c in self.layout.children[p]:
            if self._shown[c] and self._item_played(c):
                return c
        return -1
