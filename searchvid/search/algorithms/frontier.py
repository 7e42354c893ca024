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
- Without ``expand_events``: ``FRONTIER`` (an annotation) instead of each ``EXPAND`` --
  except in beam search, which reports its children when it ranks a level (see
  :class:`BeamSearch`).
- When the node is a goal (the domain's goal test): the search stops and, with ``replay``,
  emits ``MOVE`` for each node of the path from the root (depth 0) to the goal.

Status fields (:meth:`status_of`): a ``frontier`` count that, with ``expand_events``,
leaves out the children no ``EXPAND`` has shown yet (it then equals the frontier a picture
drawn from the events shows); ``move 1/2`` on a replayed solution's nodes between its start
and its goal; and on the search's last frame the distinct states it met
(``27,140 distinct states seen``) and, for breadth-first at a goal, ``fewest moves
possible``.
- Otherwise the stream ends when the frontier is empty (e.g. an unsolvable puzzle).
- Work budget (:attr:`~searchvid.search.algorithm.Algorithm.work_limit`): a unit per child
  generated (taken from ``children()``, duplicates included), so a ``children()`` that never
  ends or a frontier that grows for ever without an event still stops; when it is spent the
  stream ends at once, without the events of the node being expanded.

Tree nodes (``id`` and ``parent`` of the events): a key is one tree node, created when it is
generated (the root, id 0, first appears in its ``ENTER``/``LEAF``). ``FRONTIER``/``EXPAND``
create ids, their parent being the node expanded; a node's ``ENTER``/``LEAF`` (when it is
taken from the frontier: closed) and ``IMPROVE`` carry its id, ``MOVE`` the ids of the
path's tree nodes. Children skipped as duplicates get no event and no id. One exception:
when A* reaches a key again by a shorter path, that key gets a new tree node (a new id
below the node that found the shorter path), since a tree node's parent never changes.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Generator, Hashable, Iterator, Sequence, Sized
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

from searchvid.options import option
from searchvid.search.algorithm import Algorithm
from searchvid.search.algorithms._access import key_function
from searchvid.search.algorithms._replay import replay_events
from searchvid.search.events import Event, EventKind, new_event
from searchvid.search.frontierview import MAX_BOARDS, FrontierView, Glimpse, Role, StatusFields
from searchvid.search.node import Capability, capabilities_of, children_of
from searchvid.search.status import Field

_ENTER = EventKind.ENTER
_LEAF = EventKind.LEAF
_EXPAND = EventKind.EXPAND
_IMPROVE = EventKind.IMPROVE
_FRONTIER = EventKind.FRONTIER
_DROP = EventKind.DROP
_MOVE = EventKind.MOVE
_EXPANDED_KINDS = frozenset({_ENTER, _LEAF, _IMPROVE})
"""Events about the node being expanded (the others name a child or a replayed state)."""

DROPPED_SHOWN = 4
"""The best candidates a beam's level dropped that its frontier view shows."""


@lru_cache(maxsize=256)
def _depth(depth: int) -> tuple[Field]:
    """A board's ``depth`` field (shared: a breadth-first frontier repeats a few depths)."""
    return (Field("depth", depth),)


def _beam_role(index: int, at: int) -> Role:
    """The role of a beam's board ``index`` while its board ``at`` is being expanded."""
    return Role.DONE if index < at else Role.CURRENT if index == at else Role.WAITING


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
    (and :attr:`done` is set), else an ``EXPAND`` (or ``FRONTIER``) event per new child.
    Keeps the step counter, the best value across nodes, and the search's tree: the key
    (:attr:`keys`) and parent id (:attr:`ups`) of each tree node, by id, which the search
    appends to as it creates tree nodes.

    With ``expand_events`` it also keeps :attr:`unreported`: the children of the node
    being expanded that its frontier holds already (a search queues them before it reports
    the node) but no ``EXPAND`` event has shown yet. A frame's ``frontier`` count leaves
    them out, so that it equals the frontier the events have drawn so far: each ``EXPAND``
    frame shows one more, the node it adds counted from the next frame on (it is drawn as
    the current node on its own).
    """

    __slots__ = (
        "best",
        "done",
        "expand_events",
        "found",
        "frontier_events",
        "goal",
        "goal_id",
        "keys",
        "replay",
        "root",
        "step",
        "unreported",
        "unreported_from",
        "ups",
        "value",
    )

    def __init__(
        self,
        root: Any,
        root_key: Hashable,
        algorithm: Algorithm[Any],
        options: FrontierOptions,
        *,
        frontier_events: bool = True,
    ) -> None:
        self.root = root
        self.keys: list[Hashable] = [root_key]
        self.ups: list[int | None] = [None]
        self.value = algorithm.value
        self.goal = algorithm.goal
        self.replay = options.replay
        self.expand_events = options.expand_events
        self.frontier_events = frontier_events and not options.expand_events
        self.step = 0
        self.best = -math.inf
        self.done = False
        self.found: int | None = None
        """The depth of the goal found (None: none yet): a replay's length in moves."""
        self.goal_id: int | None = None
        """The goal's tree id (None: none found yet)."""
        self.unreported = 0
        self.unreported_from = 0
        """The tree id of the first :attr:`unreported` child (ids run on from it)."""

    def hides(self, nid: int) -> bool:
        """Whether the frontier node with tree id ``nid`` has not been reported yet."""
        return self.unreported > 0 and nid >= self.unreported_from

    def ends(self, event: Event, frontier: int) -> bool:
        """Whether ``event`` is the last the search makes that shows a node: the goal's
        (its replay's last move, or its own without a replay), or, with no goal found, a
        node that adds nothing when the frontier (``frontier`` nodes) is empty."""
        if self.goal_id is not None:
            shown = _MOVE if self.replay else event.kind
            return event.kind is shown and event.id == self.goal_id
        return event.kind is _LEAF and frontier == 0

    def report(
        self, node: Any, nid: int, depth: int, v: float, new: list[Any], first: int
    ) -> Iterator[Event]:
        """Events for ``node`` (tree node ``nid``, value ``v``).

        Its new frontier children are ``new``, tree nodes ``first``, ``first + 1``, ...
        """
        step = self.step
        parent = self.ups[nid]
        if self.expand_events:
            self.unreported, self.unreported_from = len(new), first
        at_goal = self.goal is not None and self.goal(node)
        if at_goal:  # known before its events, whose frames may then say so
            self.found, self.goal_id = depth, nid
        yield new_event(Event, (_ENTER if new else _LEAF, node, depth, step, v, nid, parent))
        step += 1
        if v > self.best:
            self.best = v
            yield new_event(Event, (_IMPROVE, node, depth, step, v, nid, parent))
            step += 1
        if at_goal:
            self.done = True
            if self.replay:
                yield from replay_events(self.root, self.keys, self.ups, nid, self.value, step)
            return
        if self.expand_events or self.frontier_events:
            kind = _EXPAND if self.expand_events else _FRONTIER
            below = depth + 1
            for cid, child in enumerate(new, first):
                if self.expand_events:  # drawn on the frontier from its own frame on
                    self.unreported -= 1
                    self.unreported_from += 1
                yield new_event(Event, (kind, child, below, step, None, cid, nid))
                step += 1
        self.step = step


def _solution_move(event: Event, visits: _Visits | None) -> tuple[Field, ...]:
    """``move 1/2`` on a found solution's replayed node (``MOVE``): which move of the path
    the board shows, of how many (the goal's depth); none on the start (no move made yet)
    nor on other events. Beside the node's ``depth`` it says that the solution is longer
    than the move on screen."""
    if event.kind is not _MOVE or visits is None or visits.found is None:
        return ()
    if not 0 < event.depth < visits.found:  # the goal's own frame says where it was found
        return ()
    return (Field("move", event.depth, of=visits.found),)


def _seen(count: int) -> Field:
    """``27,012 distinct states seen``: the states a search met, each once (duplicates by
    key skipped), the start included."""
    return Field("distinct states seen", count, prefix=True)


SHORTEST = Field("", "fewest moves possible")
"""What breadth-first's goal is: found level by level, so no solution has fewer moves. The
strip puts it in a domain's own words where it has some (its ``terms``: a tree's "no
shallower goal", see :data:`~searchvid.render.domainterms.TERMS`)."""


class BreadthFirst(Algorithm[BreadthFirstOptions]):
    """Breadth-first search with duplicate detection: nodes in level order.

    Nodes are taken from a FIFO queue; each gets ``ENTER``/``LEAF`` (+ ``IMPROVE``,
    ``EXPAND``...) as described in :mod:`~searchvid.search.algorithms.frontier`, so the
    ENTER/LEAF nodes come in level order, each level in generation order. A child is queued
    only if no node with its key was queued before. Stops at the first goal taken from the
    queue (a shortest path) and replays it as ``MOVE`` events.
    """

    name = "breadth-first"
    title = "breadth-first"
    reports_frontier = True
    counts_work = True
    """Its strip counts the work done (``work 1,204 expansions``, as in a race) in place of
    the steps (its events): its own fields count none, so the closing card states the work
    in that unit, and one counter runs from the first frame to the last."""
    summary = "Level by level, skipping states seen before; stops at the first goal."
    options_type = BreadthFirstOptions
    value_option = "value"

    _queue: deque[tuple[Any, int, int]] | tuple[()] = ()
    """The frontier of the running search: (node, depth, tree id), first out first."""
    _level: int | None = None
    """The depth of the node being expanded (None before the first)."""
    _visits: _Visits | None = None
    """The running search's events (what they have shown of the frontier)."""
    _seen: Sized = ()
    """The keys the running search has met."""

    def _frontier(self) -> int:
        """Nodes on the frontier, but for children an ``EXPAND`` has not shown yet (see
        :class:`_Visits`)."""
        visits = self._visits
        return len(self._queue) - (visits.unreported if visits is not None else 0)

    def status(self) -> Sequence[Field]:
        """``frontier 1,204`` (nodes queued, not expanded yet; with ``expand_events``, only
        those an ``EXPAND`` has shown) and ``level 5`` (the depth being expanded)."""
        return (Field("frontier", self._frontier()), Field("level", self._level))

    def status_of(self, event: Event) -> Sequence[Field]:
        """As :meth:`status`; for the node being expanded, with a
        :class:`~searchvid.search.frontierview.FrontierView`: that node, then the first
        :data:`~searchvid.search.frontierview.MAX_BOARDS` nodes of the queue the events have
        reported, each with its depth. On a replayed solution's node, ``move 1/2``."""
        fields = (*self.status(), *self._closing(event))
        if event.kind not in _EXPANDED_KINDS or event.id is None:
            return (*fields, *_solution_move(event, self._visits))
        boards = [Glimpse(event.node, event.id, event.depth, Role.CURRENT, _depth(event.depth))]
        visits = self._visits
        for node, depth, nid in islice(self._queue, MAX_BOARDS):
            if visits is not None and visits.hides(nid):
                break  # the rest of the queue is this node's children, not reported yet
            boards.append(Glimpse(node, nid, depth, Role.WAITING, _depth(depth)))
        view = FrontierView(
            "the frontier queue: first in, first out (level by level, in the order generated)",
            tuple(boards),
            ((Role.WAITING, self._frontier()),),
        )
        return StatusFields(fields, view)

    def _closing(self, event: Event) -> tuple[Field, ...]:
        """On the search's last frame (:meth:`_Visits.ends`): the distinct states it met,
        and at a goal that it is the shortest possible (the first goal met level by level:
        every shorter path was tried first)."""
        visits = self._visits
        if visits is None or not visits.ends(event, self._frontier()):
            return ()
        shortest = (SHORTEST,) if visits.goal_id is not None else ()
        return (_seen(len(self._seen)), *shortest)

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        value, key = self.value, key_function(root)
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        check_terminal = Capability.TERMINAL in capabilities_of(root)
        root_key = key(root)
        seen: set[Hashable] = {root_key}
        # (node, depth, tree id)
        queue: deque[tuple[Any, int, int]] = deque([(root, 0, 0)])
        self._queue, self._level, self._seen = queue, None, seen
        visits = self._visits = _Visits(root, root_key, self, opts)
        keys, ups = visits.keys, visits.ups
        add_key, add_up, add_seen = keys.append, ups.append, seen.add
        created = 1  # tree nodes so far: the next id
        work = self._budget()
        try:
            while queue:
                node, depth, nid = queue.popleft()
                self._level = depth
                first = created
                new: list[Any] = []
                if depth != max_depth and not (check_terminal and node.is_terminal()):
                    below = depth + 1
                    for child in children_of(node):
                        work -= 1
                        if work < 0:
                            self.budget_spent = True
                            return
                        ck = key(child)
                        if ck not in seen:
                            add_seen(ck)
                            queue.append((child, below, created))
                            created += 1
                            add_key(ck)
                            add_up(nid)
                            new.append(child)
                yield from visits.report(node, nid, depth, value(node), new, first)
                if visits.done:
                    return
        finally:
            self._settle(work, spent=self.budget_spent)


class BeamSearch(Algorithm[BeamOptions]):
    """Beam search: level by level, keeping the ``width`` best nodes of each whole level.

    Level 0 is the root. For each level, in rank order, each kept node gets
    ``ENTER``/``LEAF`` (+ ``IMPROVE``, ``EXPAND``...; see
    :mod:`~searchvid.search.algorithms.frontier`); its new children are those whose key no
    kept node has. The next level is every new child of the level's nodes, duplicates by key
    removed (first one generated wins), ranked by value, highest first, ties in generation
    order, cut to ``width``. Stops when a level is empty or at a goal (then ``MOVE`` replay).

    Once a level is ranked, its candidates are reported in generation order (depth one more
    than the level's; value: the candidate's value). Without ``expand_events``: each
    candidate becomes a tree node here (a new id below the node that generated it) with
    ``FRONTIER`` if it is kept, ``DROP`` if not; duplicates get no event. With
    ``expand_events`` every new child already got an id from its ``EXPAND`` (a duplicate
    within the level too, as a separate tree node), and each one not kept gets ``DROP``
    with that id (value None for a duplicate).
    """

    name = "beam"
    title = "beam search"
    reports_frontier = True
    summary = "Keeps the best few states of each level, ranked by a value function."
    options_type = BeamOptions
    value_option = "value"

    _level: int | None = None
    """The depth of the level being expanded (None before the first)."""
    _kept: int = 0
    """The nodes kept on that level."""
    _beam: Sequence[tuple[Any, int, float]] = ()
    """That level: (node, tree id, value), in rank order."""
    _dropped: tuple[Sequence[tuple[Any, int, float]], int] = ((), 0)
    """The best candidates that level dropped (as :attr:`_beam`, best first; at most
    :data:`DROPPED_SHOWN`) and how many it dropped."""
    _visits: _Visits | None = None
    """The running search's events (a found goal's depth, for its replay)."""

    def status(self) -> Sequence[Field]:
        """``level 5`` (the depth being expanded) and ``kept 6/6`` (its nodes, of ``width``)."""
        return (Field("level", self._level), Field("kept", self._kept, of=self.options.width))

    def status_of(self, event: Event) -> Sequence[Field]:
        """As :meth:`status`; for a node of the level being expanded, with a
        :class:`~searchvid.search.frontierview.FrontierView` of the level: its boards in
        rank order (those before the event's node expanded, the rest waiting; at most
        :data:`~searchvid.search.frontierview.MAX_BOARDS`, the event's node among them),
        then the best :data:`DROPPED_SHOWN` candidates the level dropped, each with its
        value."""
        fields = self.status()
        if event.kind not in _EXPANDED_KINDS:
            return (*fields, *_solution_move(event, self._visits))
        beam = self._beam
        at = next((i for i, entry in enumerate(beam) if entry[1] == event.id), None)
        if at is None:
            return fields
        start = max(0, min(at - 1, len(beam) - MAX_BOARDS))
        boards = [
            Glimpse(node, nid, event.depth, _beam_role(i, at), (Field("", v),))
            for i, (node, nid, v) in enumerate(beam[start : start + MAX_BOARDS], start)
        ]
        dropped, count = self._dropped
        boards.extend(
            Glimpse(node, nid, event.depth, Role.DROPPED, (Field("", v),))
            for node, nid, v in dropped
        )
        name = self.options.value or "value"
        view = FrontierView(
            f"the beam of level {event.depth} ranked by {name} (ties: the first generated), "
            "then the best dropped",
            tuple(boards),
            ((Role.DROPPED, count),),
        )
        return StatusFields(fields, view)

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        value, key = self.value, key_function(root)
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        check_terminal = Capability.TERMINAL in capabilities_of(root)
        expand_events = opts.expand_events
        root_key = key(root)
        seen: set[Hashable] = {root_key}  # the keys of kept nodes
        visits = self._visits = _Visits(root, root_key, self, opts, frontier_events=False)
        keys, ups = visits.keys, visits.ups
        # (node, tree id, value)
        level: list[tuple[Any, int, float]] = [(root, 0, value(root))]
        self._dropped = ((), 0)
        depth = 0
        work = self._budget()
        try:
            while level:
                self._level, self._kept, self._beam = depth, len(level), level
                # (child, its key, parent id, its id: -1 until it gets one)
                born: list[tuple[Any, Hashable, int, int]] = []
                for node, nid, v in level:
                    first = len(keys)
                    new: list[Any] = []
                    if depth != max_depth and not (check_terminal and node.is_terminal()):
                        for child in children_of(node):
                            work -= 1
                            if work < 0:
                                self.budget_spent = True
                                return
                            ck = key(child)
                            if ck not in seen:
                                new.append(child)
                                cid = -1
                                if expand_events:
                                    cid = len(keys)
                                    keys.append(ck)
                                    ups.append(nid)
                                born.append((child, ck, nid, cid))
                    yield from visits.report(node, nid, depth, v, new, first)
                    if visits.done:
                        return
                depth += 1
                level = yield from self._next_level(born, seen, depth, visits)
        finally:
            self._settle(work, spent=self.budget_spent)

    def _next_level(
        self,
        born: list[tuple[Any, Hashable, int, int]],
        seen: set[Hashable],
        depth: int,
        visits: _Visits,
    ) -> Generator[Event, None, list[tuple[Any, int, float]]]:
        """Rank the de-duplicated children of a level, keep the best ``width``, report them.

        Returns the next level, in rank order.
        """
        value = self.value
        firsts: set[Hashable] = set()
        ranked: list[tuple[float, int, int]] = []  # (-value, rank tie-break, index in born)
        values: list[float | None] = [None] * len(born)
        for i, (child, ck, _, _) in enumerate(born):
            if ck in firsts:
                continue
            firsts.add(ck)
            v = value(child)
            values[i] = v
            ranked.append((-v, len(ranked), i))
        width = self.options.width
        shown = width + DROPPED_SHOWN  # the kept ones, then the best dropped
        best = heapq.nsmallest(shown, ranked) if shown < len(ranked) else sorted(ranked)
        kept = best[:width]
        keep = {i for _, _, i in kept}
        keys, ups = visits.keys, visits.ups
        ids = [cid for _, _, _, cid in born]
        step = visits.step
        for i, (child, ck, pid, cid) in enumerate(born):
            ranked_value = values[i]
            kept_here = i in keep
            if cid < 0:  # reported here for the first time: it becomes a tree node now
                if ranked_value is None:
                    continue  # a duplicate: no event
                cid = ids[i] = len(keys)
                keys.append(ck if kept_here else None)
                ups.append(pid)
                kind = _FRONTIER if kept_here else _DROP
            elif kept_here:
                continue  # its EXPAND reported it
            else:
                keys[cid] = None  # a dropped node is never replayed
                kind = _DROP
            yield new_event(Event, (kind, child, depth, step, ranked_value, cid, pid))
            step += 1
        visits.step = step
        for _, _, i in kept:
            seen.add(born[i][1])
        dropped = [(born[i][0], ids[i], -neg) for neg, _, i in best[width:]]
        self._dropped = (dropped, len(ranked) - len(kept))
        return [(born[i][0], ids[i], -neg) for neg, _, i in kept]


_Entry = tuple[float, int, int, int, Hashable, Any]
"""A heap entry of best-first and A*: (priority, tie-break, tree id, g, key, node)."""


class _HeuristicSearch(Algorithm[HeuristicOptions]):
    """Shared loop of best-first (order by h) and A* (order by g + h, deeper first on ties)."""

    options_type = HeuristicOptions
    value_option = "value"
    heuristic_option = "heuristic"
    reports_frontier = True
    counts_work = True
    """Its strip counts the work done (``work 1,204 expansions``, as in a race) in place of
    the steps (its events): its own fields count none, so the closing card states the work
    in that unit, and one counter runs from the first frame to the last."""
    uses_cost: bool = True

    _heap: Sized = ()
    """The frontier of the running search (a heap, stale entries included)."""
    _stale: int = 0
    """Entries of the heap superseded by a shorter path to their state (A*)."""
    _expanded: _Entry | None = None
    """The heap entry of the node being expanded: its priority (``f = g + h`` for A*, ``h``
    for best-first) first, ``g`` fourth (None before the first)."""

    _cost: dict[Hashable, int] | None = None
    """The shortest path length found so far to each key (an entry with a larger ``g`` is
    stale)."""
    order: str = ""
    """The frontier's order in words, for its view."""

    _visits: _Visits | None = None
    """The running search's events (what they have shown of the frontier)."""

    def _frontier(self) -> int:
        """Nodes on the frontier: the heap's entries that are not stale, but for children an
        ``EXPAND`` has not shown yet (see :class:`_Visits`)."""
        visits = self._visits
        hidden = visits.unreported if visits is not None else 0
        return len(self._heap) - self._stale - hidden

    def _board_fields(self, priority: float, g: int) -> tuple[Field, ...]:
        """The numbers a board of the frontier view shows, from its heap entry."""
        raise NotImplementedError

    def _upcoming(self) -> list[_Entry]:
        """The next live entries of the heap (at most :data:`MAX_BOARDS`), in the order the
        search will pop them if it pushes nothing before.

        A best-first walk of the heap's own tree (no entry is smaller than its parent), so
        it reads about ``k log k`` entries however large the heap; it gives up after
        ``8 * MAX_BOARDS`` stale entries (fewer boards, still the next ones in order).
        """
        heap, cost, visits = self._heap, self._cost, self._visits
        if not isinstance(heap, list) or not heap or cost is None:
            return []
        found: list[_Entry] = []
        todo: list[tuple[_Entry, int]] = [(heap[0], 0)]
        size, stale = len(heap), 0
        while todo and len(found) < MAX_BOARDS and stale < 8 * MAX_BOARDS:
            entry, i = heapq.heappop(todo)  # entries never tie: the tree id breaks ties
            if cost[entry[4]] < entry[3]:
                stale += 1
            elif visits is None or not visits.hides(entry[2]):
                found.append(entry)
            for child in (2 * i + 1, 2 * i + 2):
                if child < size:
                    heapq.heappush(todo, (heap[child], child))
        return found

    def _closing(self, event: Event) -> tuple[Field, ...]:
        """On the search's last frame (:meth:`_Visits.ends`): the distinct states it met."""
        visits, cost = self._visits, self._cost
        if visits is None or cost is None or not visits.ends(event, self._frontier()):
            return ()
        return (_seen(len(cost)),)

    def _view_of(self, event: Event) -> FrontierView | None:
        """The frontier view of a frame showing the node being expanded (else None)."""
        expanded = self._expanded
        if event.kind not in _EXPANDED_KINDS or expanded is None or expanded[2] != event.id:
            return None
        f, g = expanded[0], expanded[3]
        boards = [Glimpse(event.node, event.id, g, Role.CURRENT, self._board_fields(f, g))]
        boards.extend(
            Glimpse(node, nid, depth, Role.WAITING, self._board_fields(priority, depth))
            for priority, _, nid, depth, _, node in self._upcoming()
        )
        return FrontierView(self.order, tuple(boards), ((Role.WAITING, self._frontier()),))

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        value, key, h = self.value, key_function(root), self.heuristic
        uses_cost = self.uses_cost
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        check_terminal = Capability.TERMINAL in capabilities_of(root)
        root_key = key(root)
        cost: dict[Hashable, int] = {root_key: 0}  # shortest path length found so far
        # (priority, tie-break, tree id, g, key, node); A*'s tie-break is -g. Tree ids are
        # given in push order, so the id is also the insertion counter that breaks ties.
        heap: list[_Entry] = [(h(root), 0, 0, 0, root_key, root)]
        heappush, heappop = heapq.heappush, heapq.heappop
        visits = self._visits = _Visits(root, root_key, self, opts)
        keys, ups = visits.keys, visits.ups
        add_key, add_up = keys.append, ups.append
        counter = 0
        # keys taken from the heap and not pushed again since (A*): a shorter path to one of
        # them reopens it, a shorter path to any other key leaves a stale entry in the heap
        closed: set[Hashable] = set()
        self._heap, self._stale, self._expanded, self._cost = heap, 0, None, cost
        work = self._budget()
        try:
            while heap:
                entry = heappop(heap)
                _, _, nid, g, k, node = entry
                if cost[k] < g:
                    self._stale -= 1
                    continue  # a shorter path to this state was found after this entry was pushed
                self._expanded = entry
                if uses_cost:
                    closed.add(k)
                first = counter + 1
                new: list[Any] = []
                if g != max_depth and not (check_terminal and node.is_terminal()):
                    g2 = g + 1
                    for child in children_of(node):
                        work -= 1
                        if work < 0:
                            self.budget_spent = True
                            return
                        ck = key(child)
                        known = cost.get(ck)
                        if known is None or (uses_cost and g2 < known):
                            cost[ck] = g2
                            counter += 1
                            add_key(ck)
                            add_up(nid)
                            if not uses_cost:
                                heappush(heap, (h(child), 0, counter, g2, ck, child))
                            else:
                                if known is not None:  # a shorter path to a known state
                                    if ck in closed:
                                        closed.discard(ck)  # reopened
                                    else:
                                        self._stale += 1  # its entry in the heap is stale now
                                heappush(heap, (g2 + h(child), -g2, counter, g2, ck, child))
                            new.append(child)
                yield from visits.report(node, nid, g, value(node), new, first)
                if visits.done:
                    return
        finally:
            self._settle(work, spent=self.budget_spent)


class BestFirst(_HeuristicSearch):
    """Greedy best-first search: always expands the frontier node with the lowest heuristic.

    A heap ordered by ``(h(node), insertion counter)``; each key enters the heap once (the
    first time it is generated). Events per popped node as in
    :mod:`~searchvid.search.algorithms.frontier`; ``depth`` is the length of the path by
    which the node was first reached. Stops at the first goal popped (``MOVE`` replay).
    """

    name = "best-first"
    title = "best-first"
    summary = "Greedy: always expands the state that looks closest to the goal."
    uses_cost = False

    def status(self) -> Sequence[Field]:
        """``h 7`` (the heuristic of the node being expanded) and ``frontier 1,204``."""
        expanded = self._expanded
        h = expanded[0] if expanded is not None else None
        return (Field("h", h), Field("frontier", self._frontier()))

    order = "the frontier in best-first's order: lowest h first; ties: the first generated"

    def _board_fields(self, priority: float, g: int) -> tuple[Field, ...]:
        return (Field("h", priority), Field("depth", g))

    def status_of(self, event: Event) -> Sequence[Field]:
        """As :meth:`status`, with ``h`` that of the event's own node (a replayed solution's
        state, a new frontier node), not that of the node expanded last. For the node being
        expanded, with a :class:`~searchvid.search.frontierview.FrontierView`: that node,
        then the next frontier nodes in the order they will be taken, each with its ``h``
        and depth."""
        if event.kind in _EXPANDED_KINDS:
            view = self._view_of(event)
            fields = (*self.status(), *self._closing(event))
            return fields if view is None else StatusFields(fields, view)
        return (
            Field("h", self.heuristic(event.node)),
            Field("frontier", self._frontier()),
            *_solution_move(event, self._visits),
            *self._closing(event),
        )


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
    title = "A*"
    aliases = ("a-star",)
    summary = "A*: expands states by moves so far plus estimated moves to the goal."
    uses_cost = True

    def status(self) -> Sequence[Field]:
        """``g 12``, ``h 7``, ``f 19`` of the node being expanded (moves so far, estimated
        moves left, their sum) and ``frontier 1,204`` (nodes generated, not expanded yet)."""
        expanded = self._expanded
        if expanded is None:
            g, h, f = None, None, None
        else:
            f, g = expanded[0], expanded[3]
            h = f - g
        return (Field("g", g), Field("h", h), Field("f", f), Field("frontier", self._frontier()))

    order = "the frontier in A*'s order: lowest f = g + h first; ties: the deepest (largest g)"

    def _board_fields(self, priority: float, g: int) -> tuple[Field, ...]:
        return (Field("g", g), Field("h", priority - g), Field("f", priority))

    def status_of(self, event: Event) -> Sequence[Field]:
        """As :meth:`status`, with ``g``, ``h`` and ``f`` those of the event's own node: on
        a replayed solution (``MOVE``) or a new frontier node, ``g`` is its depth and ``h``
        its heuristic, not the goal's or the expanded node's. For the node being expanded,
        with a :class:`~searchvid.search.frontierview.FrontierView`: that node, then the
        next frontier nodes in the order A* will take them, each with its ``g``, ``h`` and
        ``f``."""
        if event.kind in _EXPANDED_KINDS:
            view = self._view_of(event)
            fields = (*self.status(), *self._closing(event))
            return fields if view is None else StatusFields(fields, view)
        g, h = event.depth, self.heuristic(event.node)
        return (
            Field("g", g),
            Field("h", h),
            Field("f", g + h),
            Field("frontier", self._frontier()),
            *_solution_move(event, self._visits),
            *self._closing(event),
        )
