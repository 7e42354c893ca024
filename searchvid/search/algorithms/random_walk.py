"""Random walk: from the root, a uniformly random child at every step, with restarts."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.options import option
from searchvid.search.algorithm import Algorithm, BudgetSpent
from searchvid.search.algorithms._access import Nature, draw_unvisited, drawer, key_function
from searchvid.search.events import Event, EventKind, new_event
from searchvid.search.node import Capability, capabilities_of
from searchvid.search.status import Field

_ENTER = EventKind.ENTER
_ROLL = EventKind.ROLL
_LEAF = EventKind.LEAF
_RESTART = EventKind.RESTART
_IMPROVE = EventKind.IMPROVE


@dataclass(frozen=True, kw_only=True)
class RandomWalkOptions:
    """Options of :class:`RandomWalk`."""

    restarts: int = option(1, doc="Number of walks, each from the root.", minimum=1)
    max_depth: int = option(0, doc="End a walk at this depth (0 = at a dead end).", minimum=0)
    avoid_cycles: bool = option(
        False, doc="Never step to a state already visited in the same walk (by key)."
    )
    value: str | None = option(
        None, doc="Value function for IMPROVE events (default: the domain's)."
    )


class RandomWalk(Algorithm[RandomWalkOptions]):
    """Walks from the root to a dead end, drawing each step uniformly; ``restarts`` walks.

    Events, in order, for each walk:

    - The first walk starts with ``ENTER`` for the root (``LEAF`` if it has no children);
      every later walk starts with ``RESTART`` (node = root, depth 0) instead.
    - Then ``ENTER`` for each randomly drawn child, depth one more each step, and ``LEAF``
      for the node where the walk ends (no children, terminal, at ``max_depth``, or, with
      ``avoid_cycles``, only children already visited in this walk).
    - At a chance node the walk follows nature: the outcome is drawn with its probability
      (``sample_outcome``) and gets ``ROLL`` instead of ``ENTER`` (still ``LEAF`` when the
      walk ends there), so a random game shows each roll of the dice. With ``avoid_cycles``
      an outcome already visited in the walk ends it at the chance node (LEAF). Each walk
      is a game: its rolls come from nature's own stream
      (:class:`~searchvid.search.algorithms._access.Nature`, walk ``w`` its game ``w - 1``),
      so the first walk rolls what any other algorithm's game with the same seed rolls.
    - ``IMPROVE`` right after an ENTER/ROLL/LEAF whose node's value strictly beats every
      earlier node's. ENTER/ROLL/LEAF/RESTART carry the node's value.

    Tree nodes (``id`` and ``parent`` of the events): the walks form a trie. The root is
    tree node 0 (its ENTER/LEAF and every RESTART); a step from tree node P to a state
    whose key equals that of a child already stepped to from P reuses that child's id,
    any other step creates a new id below P. IMPROVE carries its node's id. The trie keeps
    one ``(parent id, key)`` entry per tree node, so memory grows with the steps taken.

    Work budget (:attr:`~searchvid.search.algorithm.Algorithm.work_limit`): a unit per node
    a walk stands on (the root of each walk included); when it is spent the stream ends
    before the next one. A node whose children are listed to draw one (no ``random_child``)
    and number more than the whole budget spends it too.

    Children are drawn with :func:`~searchvid.search.node.random_child` semantics from
    ``self.rng`` (the domain's ``random_child`` where declared), and nature's rolls from a
    stream derived from it, so a seed fixes the stream.
    """

    name = "random-walk"
    title = "random walk"
    summary = "Random moves from the start until stuck, then start over."
    options_type = RandomWalkOptions
    value_option = "value"

    _walk: int = 0
    """The walk under way, counting from 1 (0 before the first)."""

    @classmethod
    def best_name_for(cls, options: Mapping[str, Any]) -> str:
        """What the strip calls the best value so far under the scene's ``[search]`` table
        ``options``: ``best`` over several walks; nothing (``""``: no such field) for a
        single walk, which plays one line at random and has no best of anything to report
        (its "best" would be the highest value any position of its one line had, beside
        the value of the position on screen)."""
        return "" if _single(options) else cls.best_name

    @classmethod
    def narrated_as(cls, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """How the strip names the algorithm and what its frames do under the scene's
        ``[search]`` table ``options``: a single walk is no search but one line of random
        moves, ``("random play", "in progress")`` (``random play in progress``, not
        ``random walk searching``; no "player", a word the strip keeps for two-player
        games); None (the algorithm's own name, ``searching``) for several walks."""
        return ("random play", "in progress") if _single(options) else None

    def status(self) -> Sequence[Field]:
        """``walk 3/10``: the walk under way, of ``restarts``; nothing for a single walk
        (``walk 1/1`` on every frame counts nothing)."""
        if self.options.restarts == 1:
            return ()
        return (Field("walk", self._walk, of=self.options.restarts),)

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        rng, value = self.rng, self.value
        max_depth = opts.max_depth if opts.max_depth > 0 else -1
        caps = capabilities_of(root)
        check_terminal = Capability.TERMINAL in caps
        chance = Capability.CHANCE in caps
        nature = Nature(rng) if chance else None  # before any draw: from the seed alone
        work = cap = self._budget()
        draw = drawer(root, cap)
        key = key_function(root)
        avoid = opts.avoid_cycles
        best = -math.inf
        step = 0
        root_value = value(root)
        # the trie of walks: (parent id, child key) -> child id; one entry per tree node
        trie: dict[tuple[int, Hashable], int] = {}
        created = 1  # tree nodes so far (the root): the next id
        spent = False
        try:
            for walk in range(opts.restarts):
                self._walk = walk + 1
                node, depth, v = root, 0, root_value
                nid, parent = 0, None
                rolled = False  # `node` is an outcome nature drew at a chance node
                fresh = False  # `node` was created by this walk: its steps are all new
                visited: set[Hashable] = {key(root)} if avoid else set()
                if walk:
                    if nature is not None:
                        nature.new_game()
                    yield Event(_RESTART, root, 0, step, v, 0, None)
                    step += 1
                while True:
                    work -= 1
                    if work < 0:
                        spent = True
                        return
                    k = None
                    if depth == max_depth or (check_terminal and node.is_terminal()):
                        nxt = None
                    elif nature is not None and node.is_chance():
                        nxt = nature.roll(node)
                        if avoid:
                            k = key(nxt)
                            if k in visited:
                                nxt = None
                            else:
                                visited.add(k)
                    elif avoid:
                        nxt, k = draw_unvisited(node, rng, visited, key, draw, cap)
                        if nxt is not None:
                            visited.add(k)
                    else:
                        nxt = draw(node, rng)
                    if walk == 0 or depth > 0:
                        kind = _LEAF if nxt is None else _ROLL if rolled else _ENTER
                        yield new_event(Event, (kind, node, depth, step, v, nid, parent))
                        step += 1
                        if v > best:
                            best = v
                            yield new_event(Event, (_IMPROVE, node, depth, step, v, nid, parent))
                            step += 1
                    if nxt is None:
                        break
                    if chance:
                        rolled = node.is_chance()
                    edge = (nid, key(nxt) if k is None else k)
                    parent = nid
                    found = None if fresh else trie.get(edge)
                    if found is None:
                        fresh = True
                        nid = trie[edge] = created
                        created += 1
                    else:
                        nid = found
                    node, depth = nxt, depth + 1
                    v = value(node)
        except BudgetSpent:  # a listing draw met more children than the budget
            spent = True
        finally:
            self._settle(work, spent=spent)


def _single(options: Mapping[str, Any]) -> bool:
    """Whether a ``[search]`` table makes a single walk (``restarts`` 1, the default)."""
    return bool(options.get("restarts", 1) == 1)
