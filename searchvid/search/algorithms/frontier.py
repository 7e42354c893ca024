"""Frontier searches: breadth-first, beam, greedy best-first and A*.

They differ in the frontier they keep (a FIFO queue, one ranked level, a heap) and share
the rest: duplicate detection by :func:`~searchvid.search.node.key_of`, parent links stored
as ``key -> parent key`` (never whole paths), the goal test, and the replay of the
path to a goal as ``MOVE`` events.

Events common to all four (each class docstring adds its order):

- ``ENTER`` when a node is taken from the frontier and expanded, or ``LEAF`` instead when
  it adds no new node to the search (no children, terminal, at ``max_depth``, or every
  child already seen). ``depth`` is its path length from the root, ``value`` its value.
- ``IMPROVE`` right after, when its value strictly beats every earlier node's.
- With ``expand_events``: ``EXPAND`` for each child newly added to the frontier, in order,
  right after that (depth one more).
- When the node is a goal (the domain's goal test): the search stops and, with ``replay``,
  emits ``MOVE`` for each node of the path from the root (depth 0) to the goal.
- Otherwise the stream ends when the frontier is empty (e.g. an unsolvable puzzle).
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from searchvid.options import option
from searchvid.search.algorithm import Algorithm
from searchvid.search.algorithms._access import key_function
from searchvid.search.algorithms._replay import replay_events
from searchvid.search.events import Event, EventKind
from searchvid.search.node import Capability, capabilities_of

_ENTER = EventKind.ENTER
_LEAF = EventKind.LEAF
_EXPAND = EventKind.EXPAND
_IMPROVE = EventKind.IMPROVE


@dataclass(frozen=True, kw_only=True)
class FrontierOptions:
    """Options shared by the frontier searches."""

    value: str | None = option(
        None, doc="Value function for IMPROVE events and ranking (default: the domain's)."
    )
    max_depth: int = option(0, doc="Do not expand nodes at this depth (0 = unlimited).", minimum=0)
    replay: bool = option(True, doc="When a goal is found, replay its path as MOVE events.")
    expand_events: bool = option(False, doc="Emit an EXPAND event for each new frontier node.")


@dataclass(frozen=True, kw_only=True)
class BreadthFirstOptions(FrontierOptions):
    """Options of :class:`BreadthFirst`."""


@dataclass(frozen=True, kw_only=True)
class BeamOptions(FrontierOptions):
    """Options of :class:`BeamSearch`."""

    width: int = option(10, doc="Nodes kept on each level.", minimum=1)


@dataclass(frozen=True, kw_only=True)
class HeuristicOptions(FrontierOptions):
    """Options of :class:`BestFirst` and :class:`AStar`."""

    heuristic: str | None = option(
        None, doc="Heuristic: estimated moves to a goal (default: the domain's)."
    )


class _Visits:
    """The events every frontier search emits for a node it takes from its frontier.

    ``ENTER``/``LEAF``, ``IMPROVE`` on a new best value, then at a goal the ``MOVE`` replay
    (and :attr:`done` is set), else the optional ``EXPAND`` events. Keeps the step counter
    and the best value across nodes.
    """

    __slots__ = (
        "best",
        "done",
        "expand_events",
        "goal",
        "parents",
        "replay",
        "root",
        "step",
        "value",
    )

    def __init__(
        self,
        root: Any,
        parents: dict[Hashable, Hashable | None],
        algorithm: Algorithm[Any],
        options: FrontierOptions,
    ) -> None:
        self.root = root
        self.parents = parents
        self.value = algorithm.value
        self.goal = algorithm.goal
        self.replay = options.replay
        self.expand_events = options.expand_events
        self.step = 0
        self.best = -math.inf
        self.done = False

    def report(
        self, node: Any, k: Hashable, depth: int, v: float, new: list[Any]
    ) -> Iterator[Event]:
        """Events for ``node`` (key ``k``, value ``v``) whose new frontier children are ``new``."""
        step = self.step
        yield Event(_ENTER if new else _LEAF, node, depth, step, v)
        step += 1
        if v > self.best:
            self.best = v
            yield Event(_IMPROVE, node, depth, step, v)
            step += 1
        if self.goal is not None and self.goal(node):
            self.done = True
            if self.replay:
                yield from replay_events(self.root, self.parents, k, self.value, step)
            return
        if self.expand_events:
            for child in new:
                yield Event(_EXPAND, child, depth + 1, step)
                step += 1
        self.step = step


class BreadthFirst(Algorithm[BreadthFirstOptions]):
    """Breadth-first search with duplicate detection: nodes in level order.

    Nodes are taken from a FIFO queue; each gets ``ENTER``/``LEAF`` (+ ``IMPROVE``,
    ``EXPAND``...) as described in :mod:`~searchvid.search.algorithms.frontier`, so the
    ENTER/LEAF nodes come in level order, each level in generation order. A child is queued
    only if no node with its key was queued before. Stops at the first goal taken from the
    queue (a shortest path) and replays it as ``MOVE`` events.
    """

    name = "breadth-first"
    summary = "Level by level, skipping states seen before; stops at the first goal."
    options_type = BreadthFirstOptions
    value_option = "value"

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        value, key = self.value, key_function(root)
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        check_terminal = Capability.TERMINAL in capabilities_of(root)
        root_key = key(root)
        parents: dict[Hashable, Hashable | None] = {root_key: None}
        queue: deque[tuple[Any, Hashable, int]] = deque([(root, root_key, 0)])
        visits = _Visits(root, parents, self, opts)
        while queue:
            node, k, depth = queue.popleft()
            new: list[Any] = []
            if depth != max_depth and not (check_terminal and node.is_terminal()):
                for child in node.children():
                    ck = key(child)
                    if ck not in parents:
                        parents[ck] = k
                        new.append(child)
                        queue.append((child, ck, depth + 1))
            yield from visits.report(node, k, depth, value(node), new)
            if visits.done:
                return


class BeamSearch(Algorithm[BeamOptions]):
    """Beam search: level by level, keeping the ``width`` best nodes of each whole level.

    Level 0 is the root. For each level, in rank order, each kept node gets
    ``ENTER``/``LEAF`` (+ ``IMPROVE``, ``EXPAND``...; see
    :mod:`~searchvid.search.algorithms.frontier`); its new children are those whose key no
    kept node has. The next level is every new child of the level's nodes, duplicates by key
    removed (first one generated wins), ranked by value, highest first, ties in generation
    order, cut to ``width``. Stops when a level is empty or at a goal (then ``MOVE`` replay).
    """

    name = "beam"
    summary = "Keeps the best few states of each level, ranked by a value function."
    options_type = BeamOptions
    value_option = "value"

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        value, key = self.value, key_function(root)
        width = opts.width
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        check_terminal = Capability.TERMINAL in capabilities_of(root)
        root_key = key(root)
        parents: dict[Hashable, Hashable | None] = {root_key: None}
        level: list[tuple[Any, Hashable, float]] = [(root, root_key, value(root))]
        visits = _Visits(root, parents, self, opts)
        depth = 0
        while level:
            born: list[tuple[Any, Hashable, Hashable]] = []  # (child, its key, parent key)
            for node, k, v in level:
                new: list[Any] = []
                if depth != max_depth and not (check_terminal and node.is_terminal()):
                    for child in node.children():
                        ck = key(child)
                        if ck not in parents:
                            new.append(child)
                            born.append((child, ck, k))
                yield from visits.report(node, k, depth, v, new)
                if visits.done:
                    return
            level = self._next_level(born, parents, width)
            depth += 1

    def _next_level(
        self,
        born: list[tuple[Any, Hashable, Hashable]],
        parents: dict[Hashable, Hashable | None],
        width: int,
    ) -> list[tuple[Any, Hashable, float]]:
        """Rank the de-duplicated children of a level and keep the best ``width``."""
        value = self.value
        firsts: dict[Hashable, Hashable] = {}
        ranked: list[tuple[float, int, Any, Hashable]] = []
        for child, ck, pk in born:
            if ck in firsts:
                continue
            firsts[ck] = pk
            ranked.append((-value(child), len(ranked), child, ck))
        kept = heapq.nsmallest(width, ranked) if width < len(ranked) else sorted(ranked)
        for _, _, _, ck in kept:
            parents[ck] = firsts[ck]
        return [(child, ck, -neg) for neg, _, child, ck in kept]


class _HeuristicSearch(Algorithm[HeuristicOptions]):
    """Shared loop of best-first (order by h) and A* (order by g + h, deeper first on ties)."""

    options_type = HeuristicOptions
    value_option = "value"
    heuristic_option = "heuristic"
    uses_cost: bool = True

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        value, key, h = self.value, key_function(root), self.heuristic
        uses_cost = self.uses_cost
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        check_terminal = Capability.TERMINAL in capabilities_of(root)
        root_key = key(root)
        parents: dict[Hashable, Hashable | None] = {root_key: None}
        cost: dict[Hashable, int] = {root_key: 0}  # shortest path length found so far
        # (priority, tie-break, insertion counter, g, key, node); A*'s tie-break is -g
        heap: list[tuple[float, int, int, int, Hashable, Any]] = [
            (h(root), 0, 0, 0, root_key, root)
        ]
        heappush, heappop = heapq.heappush, heapq.heappop
        counter = 0
        visits = _Visits(root, parents, self, opts)
        while heap:
            _, _, _, g, k, node = heappop(heap)
            if cost[k] < g:
                continue  # a shorter path to this state was found after this entry was pushed
            new: list[Any] = []
            if g != max_depth and not (check_terminal and node.is_terminal()):
                g2 = g + 1
                for child in node.children():
                    ck = key(child)
                    known = cost.get(ck)
                    if known is None or (uses_cost and g2 < known):
                        cost[ck] = g2
                        parents[ck] = k
                        counter += 1
                        if uses_cost:
                            heappush(heap, (g2 + h(child), -g2, counter, g2, ck, child))
                        else:
                            heappush(heap, (h(child), 0, counter, g2, ck, child))
                        new.append(child)
            yield from visits.report(node, k, g, value(node), new)
            if visits.done:
                return


class BestFirst(_HeuristicSearch):
    """Greedy best-first search: always expands the frontier node with the lowest heuristic.

    A heap ordered by ``(h(node), insertion counter)``; each key enters the heap once (the
    first time it is generated). Events per popped node as in
    :mod:`~searchvid.search.algorithms.frontier`; ``depth`` is the length of the path by
    which the node was first reached. Stops at the first goal popped (``MOVE`` replay).
    """

    name = "best-first"
    summary = "Greedy: always expands the state that looks closest to the goal."
    uses_cost = False


class AStar(_HeuristicSearch):
    """A*: expands the frontier node with the lowest ``f = g + h`` (unit move costs).

    A heap ordered by ``(f, -g, insertion counter)``: among nodes of equal ``f`` the deepest
    (largest ``g``, so smallest ``h``) comes first -- it is nearer a goal by the estimate,
    which on puzzles with many equal-``f`` states (Water Sort) saves most of the search --
    then the first inserted. A child is pushed when its key is new or reached by a shorter
    path than before (stale heap entries are skipped when popped). With an admissible
    heuristic the first goal popped is reached by a shortest path; with a consistent one
    nodes are popped in nondecreasing ``f``. Events per popped node as in
    :mod:`~searchvid.search.algorithms.frontier`; ``depth`` is ``g``.
    """

    name = "astar"
    aliases = ("a-star",)
    summary = "A*: expands states by moves so far plus estimated moves to the goal."
    uses_cost = True
