"""Backtracking: the seed's depth-first loop, on an explicit stack."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from types import GeneratorType
from typing import Any, Literal

from searchvid.options import option
from searchvid.search.algorithm import Algorithm, BudgetSpent, Quiet
from searchvid.search.events import Event, EventKind, new_event
from searchvid.search.node import (
    PLAIN_CHILDREN,
    Capability,
    capabilities_of,
    checked_children,
    children_of,
    key_of,
)
from searchvid.search.status import Field

_ENTER = EventKind.ENTER
_LEAF = EventKind.LEAF
_BACKTRACK = EventKind.BACKTRACK
_IMPROVE = EventKind.IMPROVE


def _marks(quiet: Quiet, enters: int, leaves: int, improves: int, backs: int) -> int:
    """The marked events among those counted (by kind) in a quiet pass."""
    marked = quiet.marked
    return (
        (enters if _ENTER in marked else 0)
        + (leaves if _LEAF in marked else 0)
        + (improves if _IMPROVE in marked else 0)
        + (backs if _BACKTRACK in marked else 0)
    )


def _room(quiet: Quiet, enters: int, leaves: int, improves: int, backs: int) -> int:
    """Events a quiet pass may still count before its cut, given those counted by kind."""
    events = enters + leaves + improves + backs
    marks = _marks(quiet, enters, leaves, improves, backs)
    return min(quiet.max_events - events, quiet.max_marks - marks)


@dataclass(frozen=True, kw_only=True)
class BacktrackingOptions:
    """Options of :class:`Backtracking`."""

    max_depth: int = option(0, doc="Do not descend below this depth (0 = unlimited).", minimum=0)
    value: str | None = option(
        None, doc="Value function that ranks nodes for IMPROVE events (default: the domain's)."
    )
    repeats: Literal["allow", "path", "never"] = option(
        "allow",
        doc=(
            "Children skipped by key: 'allow' none, 'path' those already on the current path "
            "(no cycles), 'never' every state visited before (graph search)."
        ),
    )
    stop_at_goal: bool = option(True, doc="End the search when a goal state is reached.")


class Backtracking(Algorithm[BacktrackingOptions]):
    """Depth-first traversal that shows every return to a parent (the seed's loop).

    Events, in order:

    - Visiting a node (the root at depth 0, then each child in ``children()`` order):
      ``ENTER`` if the search will descend below it, else ``LEAF`` (no children, terminal,
      at ``max_depth``, or every child skipped by ``repeats``). ``value`` is the node's value.
    - Right after that event: ``IMPROVE`` (same node and depth) if the node's value strictly
      beats every earlier node's (the first node always does).
    - If ``stop_at_goal`` and the node is a goal: the stream ends here.
    - Each time the search returns to a node after finishing one of its children:
      ``BACKTRACK`` with that (parent) node, its depth and value -- also after its last
      child, just before the search leaves it. The root's last ``BACKTRACK`` ends the stream.

    Tree nodes (:class:`~searchvid.search.events.Event` ``id`` and ``parent``): every
    ENTER/LEAF creates one, so ids number the visited nodes in pre-order (the root 0), and
    its parent is the node below it on the stack. IMPROVE carries the improved node's id,
    BACKTRACK the id of the node returned to; each also carries that node's parent.

    On the seed's "Algorithms" tree the ENTER/LEAF/BACKTRACK nodes are exactly the seed's
    15 observations, Root ... Root.

    Work budget (:attr:`~searchvid.search.algorithm.Algorithm.work_limit`): a unit per node
    visited and per child skipped by ``repeats``; when it is spent the stream ends before
    the next visit.

    Quiet pass (:meth:`~searchvid.search.algorithm.Algorithm.quiet`): the same loop,
    counting these events by kind and yielding only the watched ones, for ``searchvid run``.

    Chance nodes are not special: their children are their outcomes (``children()`` lists
    exactly the outcomes, in ``outcomes()`` order), so backtracking enumerates every roll of
    the dice below every decision -- an exhaustive search, which grows with the number of
    outcomes at each chance node (168 per roll in Railroad Ink) and is only practical on
    small games or with ``max_depth``.
    """

    name = "backtracking"
    title = "backtracking"
    aliases = ("depth-first",)
    summary = "Depth-first search that shows every step down and every step back."
    options_type = BacktrackingOptions
    value_option = "value"
    backtracks = True
    counts_quietly = True

    _visited: int = 0
    """Nodes visited so far (ENTER/LEAF events)."""

    def _quiet(self, root: Any, quiet: Quiet) -> Iterator[Event]:
        # The loop of _traverse below, event for event (tests run both on many trees and
        # compare), where events are counted by kind and only the watched ones are built
        # and yielded: a yield per node costs as much as a cheap domain's children().
        # `room` counts down the events left before a limit may be reached (each event
        # brings either limit at most one nearer); at 0 the exact room is worked out again,
        # and when it is really 0 the next event is past the cut: there was one more.
        work = self._budget()
        spent = False
        opts = self.options
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        value = self.value
        goal = self.goal if opts.stop_at_goal else None
        caps = capabilities_of(root)
        check_terminal = Capability.TERMINAL in caps
        mode = opts.repeats
        allow = mode == "allow"
        keyed = Capability.KEY in caps
        seen: set[Hashable] = set()
        plain = PLAIN_CHILDREN
        generator = GeneratorType
        marked, watch = quiet.marked, quiet.watch
        mark_enter, mark_leaf = _ENTER in marked, _LEAF in marked
        mark_back, mark_improve = _BACKTRACK in marked, _IMPROVE in marked
        show_enter, show_leaf = _ENTER in watch, _LEAF in watch
        show_back, show_improve = _BACKTRACK in watch, _IMPROVE in watch
        enters = leaves = improves = backs = 0  # events counted, by kind
        # (plain locals: a closure over them would slow every count down)

        def unseen(kids: Iterator[Any]) -> Iterator[Any]:
            nonlocal work
            for child in kids:
                if (child.key() if keyed else child) not in seen:
                    yield child
                else:
                    work -= 1
                    if work < 0:
                        raise BudgetSpent

        def open_unseen(node: Any, key: Hashable) -> tuple[Any, Iterator[Any] | None]:
            seen.add(key)
            kids = unseen(iter(children_of(node)))
            first = next(kids, None)
            if first is None:
                if mode == "path":
                    seen.discard(key)
                return None, None
            return first, kids

        frames: list[tuple[Any, Iterator[Any], float, Hashable, int, int | None]] = []
        best = -math.inf
        room = _room(quiet, enters, leaves, improves, backs)
        last: Any = None  # the node of the latest marked event
        node = root
        depth = 0
        nid = 0
        parent: int | None = None
        first: Any = None
        rest: Iterator[Any] | None
        try:
            while True:
                work -= 1
                if work < 0:
                    spent = True
                    return
                v = value(node)
                key = None if allow else key_of(node)
                if depth == max_depth or (check_terminal and node.is_terminal()):
                    rest = None
                    if mode == "never":
                        seen.add(key)
                elif allow:
                    kids = node.children()
                    if type(kids) is not generator:  # a generator is its own iterator
                        if type(kids) not in plain:
                            kids = checked_children(node, kids)
                        kids = iter(kids)
                    rest = kids
                    first = next(rest, None)
                    if first is None:
                        rest = None
                else:
                    first, rest = open_unseen(node, key)
                if not room:
                    room = _room(quiet, enters, leaves, improves, backs)
                    if not room:
                        quiet.more = True
                        return
                room -= 1
                if rest is None:
                    leaves += 1
                    if mark_leaf:
                        last = node
                    if show_leaf:
                        step = enters + leaves + improves + backs - 1
                        yield new_event(Event, (_LEAF, node, depth, step, v, nid, parent))
                else:
                    enters += 1
                    if mark_enter:
                        last = node
                    if show_enter:
                        step = enters + leaves + improves + backs - 1
                        yield new_event(Event, (_ENTER, node, depth, step, v, nid, parent))
                if v > best:
                    best = v
                    if not room:
                        room = _room(quiet, enters, leaves, improves, backs)
                        if not room:
                            quiet.more = True
                            return
                    room -= 1
                    improves += 1
                    if mark_improve:
                        last = node
                    if show_improve:
                        step = enters + leaves + improves + backs - 1
                        yield new_event(Event, (_IMPROVE, node, depth, step, v, nid, parent))
                if goal is not None and goal(node):
                    return
                if rest is not None:
                    frames.append((node, rest, v, key, nid, parent))
                    node = first
                    parent = nid
                    nid += 1
                    depth += 1
                    continue
                nid += 1
                while frames:
                    depth -= 1
                    top = frames[-1]  # read in part: the rest only for a yielded event
                    if not room:
                        room = _room(quiet, enters, leaves, improves, backs)
                        if not room:
                            quiet.more = True
                            return
                    room -= 1
                    backs += 1
                    if mark_back:
                        last = top[0]
                    if show_back:
                        step = enters + leaves + improves + backs - 1
                        above, _, pv, _, pid, pparent = top
                        yield new_event(Event, (_BACKTRACK, above, depth, step, pv, pid, pparent))
                    nxt = next(top[1], None)
                    if nxt is not None:
                        node = nxt
                        parent = top[4]
                        depth += 1
                        break
                    frames.pop()
                    if mode == "path":
                        seen.discard(top[3])
                else:
                    return
        except BudgetSpent:
            spent = True
        finally:
            quiet.events = enters + leaves + improves + backs
            quiet.marks = _marks(quiet, enters, leaves, improves, backs)
            quiet.last = last
            quiet.cut = _room(quiet, enters, leaves, improves, backs) <= 0
            self._visited = enters + leaves
            self._settle(work, spent=spent)

    def status(self) -> Sequence[Field]:
        """``visited 1,204``: the nodes visited so far (the strip shows the stack's depth)."""
        return (Field("visited", self._visited),)

    def _traverse(self, root: Any) -> Iterator[Event]:
        # the work budget: a unit per node visited and per child skipped by `repeats`
        work = self._budget()
        spent = False
        opts = self.options
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        value = self.value
        goal = self.goal if opts.stop_at_goal else None
        caps = capabilities_of(root)
        check_terminal = Capability.TERMINAL in caps
        mode = opts.repeats
        allow = mode == "allow"
        keyed = Capability.KEY in caps
        seen: set[Hashable] = set()
        plain = PLAIN_CHILDREN
        generator = GeneratorType

        def unseen(kids: Iterator[Any]) -> Iterator[Any]:
            """The children whose key was not seen; a skipped child is a unit of work too
            (a children() repeating seen states for ever must still end)."""
            nonlocal work
            for child in kids:
                if (child.key() if keyed else child) not in seen:
                    yield child
                else:
                    work -= 1
                    if work < 0:
                        raise BudgetSpent

        def open_unseen(node: Any, key: Hashable) -> tuple[Any, Iterator[Any] | None]:
            """Under ``repeats`` "path" or "never": the first child not seen to descend into
            and an iterator over the rest."""
            seen.add(key)
            kids = unseen(iter(children_of(node)))
            first = next(kids, None)
            if first is None:
                if mode == "path":
                    seen.discard(key)
                return None, None
            return first, kids

        # frames: (node, remaining children, value, key, tree id, parent id); the top
        # frame is at depth - 1. The loop below runs once per node: it is kept to local
        # names (children() called in place, not through children_of()).
        frames: list[tuple[Any, Iterator[Any], float, Hashable, int, int | None]] = []
        best = -math.inf
        step = 0
        node = root
        depth = 0  # len(frames)
        nid = 0  # the tree id of `node`, its pre-order number
        parent: int | None = None
        first: Any = None
        rest: Iterator[Any] | None
        try:
            while True:
                work -= 1
                if work < 0:
                    spent = True
                    return
                v = value(node)
                key = None if allow else key_of(node)
                if depth == max_depth or (check_terminal and node.is_terminal()):
                    rest = None
                    if mode == "never":
                        seen.add(key)
                elif allow:
                    kids = node.children()
                    if type(kids) is not generator:  # a generator is its own iterator
                        if type(kids) not in plain:
                            kids = checked_children(node, kids)
                        kids = iter(kids)
                    rest = kids
                    first = next(rest, None)
                    if first is None:
                        rest = None
                else:
                    first, rest = open_unseen(node, key)
                self._visited = nid + 1
                yield new_event(
                    Event, (_LEAF if rest is None else _ENTER, node, depth, step, v, nid, parent)
                )
                step += 1
                if v > best:
                    best = v
                    yield new_event(Event, (_IMPROVE, node, depth, step, v, nid, parent))
                    step += 1
                if goal is not None and goal(node):
                    return
                if rest is not None:
                    frames.append((node, rest, v, key, nid, parent))
                    node = first
                    parent = nid
                    nid += 1
                    depth += 1
                    continue
                # a leaf: return up the stack until a node has another child
                nid += 1
                while frames:
                    depth -= 1
                    above, siblings, pv, pkey, pid, pparent = frames[-1]
                    yield new_event(Event, (_BACKTRACK, above, depth, step, pv, pid, pparent))
                    step += 1
                    nxt = next(siblings, None)
                    if nxt is not None:
                        node = nxt
                        parent = pid
                        depth += 1
                        break
                    frames.pop()
                    if mode == "path":
                        seen.discard(pkey)
                else:
                    return
        except BudgetSpent:  # from unseen()
            spent = True
        finally:
            self._settle(work, spent=spent)
