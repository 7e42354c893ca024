"""The algorithm base class and the algorithm registry.

An algorithm is configured by a keyword-only options dataclass (see
:mod:`searchvid.options`), a seeded :class:`random.Random`, a value function and a
heuristic, and turns a root node into a stream of :class:`~searchvid.search.events.Event`::

    algo = make_algorithm("beam", {"width": 3}, rng=random.Random(7), value=my_value)
    for event in algo.traverse(root):
        ...

Every traversal can be given a work budget (:attr:`Algorithm.work_limit`, which a scene sets
to its ``max_events``): a count of units of work, each algorithm's own step -- a node
visited, a child generated, an iteration -- so that work done between events counts against
the same limit as the events. When it is spent the traversal ends cleanly (its generator
returns) and :attr:`Algorithm.budget_spent` says so.

A built-in algorithm is one line in ``_BUILTINS`` below (its module is imported only when
used); installed packages add algorithms through the entry-point group
``searchvid.algorithms``, and a scene may name any subclass by import path ``"module:Class"``.
"""

from __future__ import annotations

import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from searchvid.errors import OptionError
from searchvid.options import build_options, check_bounds
from searchvid.plugins import PluginRegistry
from searchvid.search.events import Event, EventKind
from searchvid.search.node import Capability, require
from searchvid.search.status import Field
from searchvid.search.values import Heuristic, ValueFunction, depth_value, zero_heuristic

OptionsT = TypeVar("OptionsT")

GoalTest = Callable[[Any], bool]
"""Whether a node reaches the domain's goal (a solved puzzle); None where there is no goal."""

UNLIMITED_WORK = sys.maxsize
"""The allowance of a traversal without a work budget: more units than any run can do."""


class BudgetSpent(Exception):  # noqa: N818 -- a signal inside a traversal, not an error
    """Raised inside a traversal when its work budget is spent.

    Algorithms whose inner loops run in nested generators or helpers raise it there and
    catch it in :meth:`Algorithm._traverse`, which then ends its event stream; it never
    leaves a traversal.
    """


_END = object()
"""What ``next`` returns here from an iterator that is exhausted."""


@dataclass(slots=True, kw_only=True)
class Quiet:
    """The limits and the counters of a quiet pass (:meth:`Algorithm.quiet`).

    A quiet pass runs the same search as :meth:`Algorithm.traverse` but counts its events
    instead of yielding them, for a reader that needs only totals (``searchvid run``). It
    makes the same events in the same order; it counts each, and the *marked* ones apart
    (the frames of a video where every candidate is a frame); it yields only the events
    of the ``watch`` kinds. It stops like a reader that takes at most ``max_events``
    events and at most ``max_marks`` marked ones: right after the event that reaches either
    limit (the *cut*). It then runs on to the next event, without counting it, to tell
    whether there is one (``more``), as such a reader would by asking for one more.

    Attributes:
        max_events: Events it counts at most.
        max_marks: Marked events it counts at most.
        marked: The kinds of event it counts as marked.
        watch: The kinds of event it yields (each counted before it is yielded).
        events: Events counted so far.
        marks: Marked events counted so far.
        last: The node of the latest marked event (None before the first).
        cut: Whether a limit was reached.
        more: Whether, past the cut, the search had another event to make.
    """

    max_events: int
    max_marks: int
    marked: frozenset[EventKind]
    watch: frozenset[EventKind]
    events: int = 0
    marks: int = 0
    last: Any = None
    cut: bool = False
    more: bool = False


def list_children(children: Iterable[Any], cap: int) -> list[Any]:
    """``children`` as a list, refusing more than ``cap`` of them.

    For searches that must list a node's children at once (to draw one uniformly, to count
    them): a ``children()`` that never ends, or that alone exceeds the whole budget, spends
    it instead of growing a list without bound.

    Raises:
        BudgetSpent: There are more than ``cap`` children.
    """
    if cap >= UNLIMITED_WORK:
        return list(children)
    it = iter(children)
    kids = list(islice(it, cap))
    if len(kids) == cap and next(it, _END) is not _END:
        raise BudgetSpent
    return kids


class Algorithm(ABC, Generic[OptionsT]):
    """A search algorithm: a generator of events from a root node.

    Subclasses set the class attributes and implement :meth:`_traverse`. They never recurse
    on the Python stack, never print, and draw all randomness from ``self.rng``.
    ``self.value`` ranks nodes (higher is better; IMPROVE events report it), ``self.heuristic``
    estimates moves to a goal, and ``self.goal`` (None for goal-less domains) tells
    algorithms that stop at a goal when they have reached one.

    Attributes:
        name: Registered name, as written in scene files.
        aliases: Other accepted names.
        summary: One line for ``searchvid scenes`` and the README.
        options_type: The keyword-only options dataclass.
        requires: Capabilities the root node must declare.
        value_option: Name of the option field that names a value function (None: unused).
        heuristic_option: Name of the option field that names a heuristic (None: unused).
        title: The name readers know ("A*"; None: ``name``), shown in the status strip.
        move_phase: What its MOVE events are: "solution" (a found path played out) or
            "playing" (moves committed during a game).
        reports_values: Its events carry the values worth showing (minimax: the values it
            has proved), so the strip shows those rather than a value function of the node.
        best_name: What the status strip calls the best value its IMPROVE events report:
            "best" (a node it found); MCTS "best playout" (the best end a random playout
            reached, which in a game says nothing of the game's own result).
        work_kinds: The kinds of event that each stand for one step of its work in a race
            (searches side by side advance by the same number of steps): a node expanded
            (``ENTER``/``LEAF``: taken from the frontier, entered by backtracking) by
            default; one iteration (``SELECT``) for MCTS.
        work_unit: That step's name, singular and plural (``("expansion", "expansions")``),
            as a race's finish stamps state a search's cost.
        backtracks: It emits ``BACKTRACK`` events (depth-first searches): the video then
            marks what each step back undid, and its legend names the mark.
        reports_frontier: It reports nodes generated but not expanded yet (``EXPAND`` or
            ``FRONTIER`` events: breadth-first, beam, best-first, A*, MCTS): only then may
            a view's legend name a mark for such nodes (the view hook ``show_frontier``).
        counts_quietly: It implements :meth:`_quiet`, so :meth:`quiet` can count its
            events without yielding each one (opt-in; the default is the full stream).
        work_limit: Units of work one traversal may do (None: no limit); see
            :meth:`_budget`. A scene sets it to its ``max_events``.
        work_done: Units of work done by the latest traversal, once it has ended by itself
            (at its natural end or its budget's).
        budget_spent: Whether the latest traversal ended because ``work_limit`` was reached.
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    options_type: ClassVar[type[Any]]
    requires: ClassVar[frozenset[Capability]] = frozenset()
    value_option: ClassVar[str | None] = None
    heuristic_option: ClassVar[str | None] = None
    title: ClassVar[str | None] = None
    move_phase: ClassVar[str] = "solution"
    reports_values: ClassVar[bool] = False
    best_name: ClassVar[str] = "best"
    work_kinds: ClassVar[frozenset[EventKind]] = frozenset({EventKind.ENTER, EventKind.LEAF})
    work_unit: ClassVar[tuple[str, str]] = ("expansion", "expansions")
    backtracks: ClassVar[bool] = False
    reports_frontier: ClassVar[bool] = False
    counts_quietly: ClassVar[bool] = False

    # class-level defaults, so that subclasses with their own __init__ still have them
    work_limit: int | None = None
    work_done: int = 0
    budget_spent: bool = False
    _allowance: int = UNLIMITED_WORK

    def __init__(
        self,
        options: OptionsT,
        *,
        rng: random.Random,
        value: ValueFunction = depth_value,
        heuristic: Heuristic = zero_heuristic,
        goal: GoalTest | None = None,
        work_limit: int | None = None,
    ) -> None:
        check_bounds(options)  # options built in Python keep their declared bounds too
        self.options = options
        self.rng = rng
        self.value = value
        self.heuristic = heuristic
        self.goal = goal
        self.work_limit = work_limit

    @classmethod
    def display_name(cls) -> str:
        """The algorithm as readers name it ("A*", "breadth-first"): ``title`` or ``name``."""
        return cls.title or cls.name

    def status(self) -> Sequence[Field]:
        """The algorithm's own numbers at this moment of the search, for the status strip
        (frontier size, iterations, ...); called between events, so cheap. Default: none."""
        return ()

    def status_of(self, event: Event) -> Sequence[Field]:
        """The algorithm's numbers for a frame that shows ``event``, called right after the
        traversal yields it (before the next event), so live counters are those of that
        moment. Override where a field describes the event's node rather than the search
        (A*'s ``g``/``h``/``f`` on a replayed solution, an MCTS roll of the dice).
        Default: :meth:`status`."""
        return self.status()

    @classmethod
    def display_name_for(cls, root: Any) -> str:
        """The algorithm as readers name it for a search from ``root`` (minimax in a game of
        chance is expectimax). Default: :meth:`display_name`."""
        return cls.display_name()

    def check(self, root: Any) -> None:
        """Raise :class:`~searchvid.errors.CapabilityError` if ``root`` lacks a capability."""
        require(root, self.requires, algorithm=self.name)

    def traverse(self, root: Any) -> Iterator[Event]:
        """Check capabilities at once, then return the event stream from ``root``."""
        self.check(root)
        return self._traverse(root)

    @abstractmethod
    def _traverse(self, root: Any) -> Iterator[Event]:
        """The event stream; called after the capability check."""

    def quiet(self, root: Any, quiet: Quiet) -> Iterator[Event]:
        """Check capabilities at once, then run a quiet pass from ``root`` (see
        :class:`Quiet`): the events of the ``quiet.watch`` kinds, with ``quiet`` counting
        all of them. Only where :attr:`counts_quietly`.

        Its counters are set when it ends or raises: an error of the search itself leaves
        the events made before it counted, and ``cut`` says whether it came past the cut
        (where a reader asking for one more event meets it: then there was more).

        Raises:
            NotImplementedError: The algorithm has no quiet pass.
        """
        if not self.counts_quietly:
            raise NotImplementedError(f"{self.name} has no quiet pass")
        self.check(root)
        return self._quiet(root, quiet)

    def _quiet(self, root: Any, quiet: Quiet) -> Iterator[Event]:
        """The quiet pass, where :attr:`counts_quietly`; called after the capability check."""
        raise NotImplementedError(f"{self.name} has no quiet pass")

    def _budget(self) -> int:
        """Open the work budget of a traversal: the units it may do.

        Call it when the traversal starts. It resets :attr:`work_done` and
        :attr:`budget_spent`; without a :attr:`work_limit` the allowance is
        :data:`UNLIMITED_WORK`. The inner loops keep what is left in a local int, take 1 per
        unit and stop below 0 (one decrement and one comparison, no call), then report it
        with :meth:`_settle`.
        """
        limit = self.work_limit
        allowance = UNLIMITED_WORK if limit is None else max(0, min(limit, UNLIMITED_WORK))
        self._allowance = allowance
        self.work_done = 0
        self.budget_spent = False
        return allowance

    def _settle(self, left: int, *, spent: bool = False) -> None:
        """Record the end of a traversal's budget: ``left`` units unspent, or ``spent``: the
        budget ended it (then all of it counts as done, whatever ``left`` says)."""
        if spent:
            self.work_done = self._allowance
            self.budget_spent = True
        else:
            self.work_done = self._allowance - max(left, 0)


# Built-in algorithms; aliases are declared on the classes (``Algorithm.aliases``).
_BUILTINS: dict[str, str] = {
    "backtracking": "searchvid.search.algorithms.backtracking:Backtracking",
    "breadth-first": "searchvid.search.algorithms.frontier:BreadthFirst",
    "beam": "searchvid.search.algorithms.frontier:BeamSearch",
    "best-first": "searchvid.search.algorithms.frontier:BestFirst",
    "astar": "searchvid.search.algorithms.frontier:AStar",
    "random-walk": "searchvid.search.algorithms.random_walk:RandomWalk",
    "mcts": "searchvid.search.algorithms.mcts:Mcts",
    "minimax": "searchvid.search.algorithms.minimax:Minimax",
}

ALGORITHMS: PluginRegistry[Algorithm[Any]] = PluginRegistry(
    what="algorithm",
    key="algorithm",
    base=Algorithm,
    builtins=_BUILTINS,
    group="searchvid.algorithms",
)
"""Every algorithm searchvid can find by name."""


def algorithm_names() -> list[str]:
    """Registered algorithm names (built-in and installed plugins, without aliases), sorted."""
    return ALGORITHMS.names()


def algorithm_class(name: str, *, folder: Path | None = None) -> type[Algorithm[Any]]:
    """The algorithm class named ``name``: a registered name, an alias or ``"module:Class"``.

    Args:
        name: As written in a scene's ``[search] algorithm``.
        folder: Searched first for an import path's module (the scene's folder).

    Raises:
        OptionError: With key ``algorithm``: unknown (listing the known ones) or not loadable.
    """
    return ALGORITHMS.resolve(name, folder=folder)


def make_algorithm(
    name: str | type[Algorithm[Any]],
    table: Mapping[str, Any],
    *,
    rng: random.Random,
    values: Mapping[str, ValueFunction] | None = None,
    heuristics: Mapping[str, Heuristic] | None = None,
    default_value: str | None = None,
    default_heuristic: str | None = None,
    goal: GoalTest | None = None,
    work_limit: int | None = None,
) -> Algorithm[Any]:
    """Build a registered algorithm from its option table.

    Args:
        name: Algorithm name, alias or import path, or an :class:`Algorithm` subclass.
        table: Its options (the scene's ``[search]`` table without ``algorithm``).
        rng: The seeded random source it will own.
        values: Value functions by name (the domain's, plus generic ones).
        heuristics: Heuristics by name.
        default_value: Used when the value option is absent or None.
        default_heuristic: Used when the heuristic option is absent or None.
        goal: The domain's goal test, for algorithms that stop at a goal (None: no goal).
        work_limit: Units of work each traversal may do (None: no limit; see
            :attr:`Algorithm.work_limit`).

    Raises:
        OptionError: Bad options, or a value function / heuristic name that is not offered.
    """
    cls = name if isinstance(name, type) else algorithm_class(name)
    options = _options(cls.options_type, table)
    value = _pick(cls.value_option, options, values or {}, default_value, "value function")
    heuristic = _pick(
        cls.heuristic_option, options, heuristics or {}, default_heuristic, "heuristic"
    )
    algorithm = cls(
        options,
        rng=rng,
        value=value if value is not None else depth_value,
        heuristic=heuristic if heuristic is not None else zero_heuristic,
        goal=goal,
    )
    # set after construction: a plugin's own __init__ need not know about budgets
    algorithm.work_limit = work_limit
    return algorithm


_OPTIONS_KEPT = 64
"""Option tables :func:`_options` remembers (the oldest go first)."""

_BUILT_OPTIONS: dict[tuple[type[Any], frozenset[tuple[str, type, Any]]], Any] = {}

_PLAIN_VALUES = frozenset({str, int, float, bool, type(None)})
"""Types of the option values whose tables :func:`_options` remembers."""


def _options(options_type: type[Any], table: Mapping[str, Any]) -> Any:
    """``build_options(options_type, table)``, remembered for tables of plain values.

    A scene builds a fresh search for every run, render pass and preview, and building the
    options (reading the dataclass's type hints) costs as much as a small search. Only
    frozen options dataclasses are shared between searches (none can change them), and only
    tables of str, int, float, bool and None values are remembered, each value with its
    type (``1``, ``1.0`` and ``True`` are equal keys otherwise).
    """
    key = _options_key(options_type, table)
    if key is None:
        return build_options(options_type, table, ignore=("algorithm",))
    built = _BUILT_OPTIONS.get(key)
    if built is None:
        built = build_options(options_type, table, ignore=("algorithm",))
        if len(_BUILT_OPTIONS) >= _OPTIONS_KEPT:
            del _BUILT_OPTIONS[next(iter(_BUILT_OPTIONS))]
        _BUILT_OPTIONS[key] = built
    return built


def _options_key(
    options_type: type[Any], table: Mapping[str, Any]
) -> tuple[type[Any], frozenset[tuple[str, type, Any]]] | None:
    """What :func:`_options` remembers ``table`` by, or None where it is not remembered."""
    params = getattr(options_type, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return None
    items: list[tuple[str, type, Any]] = []
    for name, value in table.items():
        if type(value) not in _PLAIN_VALUES:
            return None
        # a float by its repr: 0.0 and -0.0 are equal keys, and nan equals nothing
        items.append((name, type(value), repr(value) if type(value) is float else value))
    return options_type, frozenset(items)


def _pick(
    field: str | None,
    options: Any,
    offered: Mapping[str, Any],
    default: str | None,
    what: str,
) -> Any:
    if field is None:
        return None
    chosen = getattr(options, field) or default
    if chosen is None:
        return None
    if chosen not in offered:
        known = ", ".join(sorted(offered)) or "none"
        raise OptionError(field, f"unknown {what} {chosen!r}; this domain offers: {known}")
    return offered[chosen]
