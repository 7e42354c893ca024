"""Conformance checks: what every domain must do for the searches and the renderer to work.

:func:`check_domain` runs every check of :data:`CHECKS` on one domain, built with its options,
and returns what is wrong in plain words. The checks sample the domain cheaply (the root and a
few short seeded random walks), so checking a domain takes well under a second. Code of the
domain that raises becomes a :class:`Failure` naming the call and the node, never a crash::

    failures = check_domain(make_domain("mygame:EightPuzzle", {}))
    text = format_report("eight-puzzle", failures, len(CHECKS))

``searchvid check NAME`` prints that report; ``tests/domains/test_conformance.py`` runs every
check on every registered domain.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
import random
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import numpy as np
from PIL import Image

from searchvid.domains.base import Domain
from searchvid.errors import RunError, UserCodeError
from searchvid.render.atlas import TileAtlas, assets_dir
from searchvid.render.view import TileSet
from searchvid.search.node import (
    Capability,
    capabilities_of,
    children_problem,
    is_chance,
    is_terminal,
)
from searchvid.usercode import culprit, exception_text, is_interrupt, method_location

WALK_SEEDS = (0, 1, 2)
"""Seeds of the random walks whose nodes every check samples."""

WALK_LENGTH = 12
"""Moves per sampling walk."""

GAME_SEEDS = (0, 1, 2, 3, 4)
"""Seeds of the longer walks that look for terminal nodes (rewards)."""

GAME_LENGTH = 300
"""Moves per walk looking for terminal nodes."""

TILE_SIZE = 16
"""Pixels per tile edge at which the tiles are loaded or drawn."""

MAX_CHILDREN = 100_000
"""More children than this from one node is taken for an endless iterator: the checks pull at
most this many plus one from any ``children()``, so a generator that never ends costs a bounded
time and memory and is reported (``gave more than 100,000 children (is it endless?)``)."""

MAX_MESSAGES = 5
"""Failures reported per check at most; the first ones say what to fix."""

CHANCE_DRAWS = 2000
"""Outcomes drawn with ``sample_outcome`` at a chance node to compare their frequencies with
the probabilities of ``outcomes()``."""

CHANCE_NODES_DRAWN = 2
"""Sampled chance nodes whose draw frequencies are checked (the first ones found)."""

PROBABILITY_TOLERANCE = 1e-9
"""How far the probabilities of a chance node's outcomes may sum from 1."""

_LABEL_WIDTH = 60
_SHOW_WIDTH = 40

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class Failure:
    """One thing a domain does wrong.

    Attributes:
        check: Name of the check that found it (see :data:`CHECKS`).
        message: What is wrong, in plain words, naming the node and the function involved.
    """

    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.check}: {self.message}"


@dataclass(frozen=True)
class Check:
    """One named conformance check.

    Attributes:
        name: Short name, as shown in reports (``"values"``).
        description: One line: what the check requires.
        function: Yields the failure messages for a probe of the domain; call :meth:`run`.
    """

    name: str
    description: str
    function: Callable[[_Probe], Iterator[str]]

    def run(self, domain: Domain) -> list[Failure]:
        """Run this check alone on ``domain``; an empty list means it passed."""
        return _run(self, _Probe(domain))


class _CheckFailedError(Exception):
    """Ends a check early with ``message`` as its failure (the domain's code raised)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_UNSET: Any = object()


class _Probe:
    """The domain under check, with its sampled nodes drawn once and shared by the checks."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self._root: Any = _UNSET
        self._walks: list[list[Any]] | None = None

    @property
    def root(self) -> Any:
        """The domain's root (``root()`` is called once)."""
        if self._root is _UNSET:
            self._root = _call("root()", self.domain.root)
        return self._root

    def fresh_root(self) -> Any:
        """A new ``root()``, to compare with the first."""
        return _call("a second root() call", self.domain.root)

    @property
    def walks(self) -> list[list[Any]]:
        """Short seeded random walks from the root (each stops early where the domain raises)."""
        if self._walks is None:
            root = self.root
            self._walks = [self.walk(root, seed, WALK_LENGTH)[0] for seed in WALK_SEEDS]
        return self._walks

    @property
    def nodes(self) -> list[Any]:
        """The sample: the root, then the nodes of :attr:`walks`."""
        return [self.root] + [node for walk in self.walks for node in walk[1:]]

    def walk(self, start: Any, seed: int, length: int) -> tuple[list[Any], str | None]:
        """A seeded random walk from ``start``: its nodes, and what stopped it if it raised."""
        rng = random.Random(seed)
        nodes = [start]
        for _ in range(length):
            try:
                child = self._random_child(nodes[-1], rng)
            except _CheckFailedError as problem:
                return nodes, problem.message
            except Exception as exc:
                where = f"a random child of {self.name(nodes[-1])} (walk with seed {seed})"
                return nodes, f"drawing {where} raised {_error(exc)}"
            if child is None:
                break
            nodes.append(child)
        return nodes, None

    def _random_child(self, node: Any, rng: random.Random) -> Any:
        """:func:`searchvid.search.node.random_child`, listing at most :data:`MAX_CHILDREN`
        children (the same draw, for a domain that is not endless)."""
        declared = capabilities_of(node)
        if Capability.CHANCE in declared and node.is_chance():
            return node.sample_outcome(rng)
        if Capability.RANDOM_CHILD in declared:
            return node.random_child(rng)
        kids = self.children(node)
        return rng.choice(kids) if kids else None

    def children(self, node: Any) -> list[Any]:
        """``children()`` of ``node`` as a list.

        Raises:
            _CheckFailedError: It raised, or it seems endless.
        """
        what = f"children() of {self.name(node)}"
        found = _call(what, node.children)
        problem = children_problem(found)
        if problem is not None:
            raise _CheckFailedError(f"{what} {problem} (at {method_location(node, 'children')})")
        kids = _call(what, _take, found, MAX_CHILDREN + 1)
        if len(kids) > MAX_CHILDREN:
            raise _CheckFailedError(
                f"{what} gave more than {MAX_CHILDREN:,} children (is it endless?)"
            )
        return kids

    def name(self, node: Any) -> str:
        """``the root`` or ``node '<label>'``, for messages; never raises."""
        if self._root is not _UNSET and node is self._root:
            return "the root"
        return f"node '{self.label_of(node)}'"

    def label_of(self, node: Any) -> str:
        """The node's label, else its ``repr``, shortened to one line; never raises."""
        try:
            label = self.domain.label(node)
        except Exception:
            label = None
        if not isinstance(label, str) or not label.strip():
            try:
                label = repr(node)
            except Exception:
                label = f"<{type(node).__name__}>"
        return _shorten(label, _LABEL_WIDTH)

    def equal(self, a: Any, b: Any) -> bool:
        """``a == b`` as a bool.

        Raises:
            _CheckFailedError: The comparison raised.
        """
        try:
            return bool(a == b)
        except Exception as exc:
            what = f"comparing {self.name(a)} with {self.name(b)} (==)"
            raise _CheckFailedError(f"{what} raised {_error(exc)}") from exc

    def among(self, node: Any, nodes: list[Any]) -> bool:
        """Whether ``node`` equals one of ``nodes``.

        Raises:
            _CheckFailedError: A comparison raised.
        """
        try:
            return node in nodes
        except Exception as exc:
            what = f"looking for {self.name(node)} among other nodes (==)"
            raise _CheckFailedError(f"{what} raised {_error(exc)}") from exc

    def hash(self, node: Any) -> int:
        """``hash(node)``.

        Raises:
            _CheckFailedError: The node is not hashable, or its ``__hash__`` raised.
        """
        try:
            return hash(node)
        except TypeError as exc:
            if "unhashable" in str(exc):
                raise _CheckFailedError(f"{self.name(node)} is not hashable: {exc}") from exc
            raise _CheckFailedError(f"hash() of {self.name(node)} raised {_error(exc)}") from exc
        except Exception as exc:
            raise _CheckFailedError(f"hash() of {self.name(node)} raised {_error(exc)}") from exc

    def declared(self, node: Any) -> frozenset[Capability]:
        """The capabilities ``node``'s class declares.

        Raises:
            _CheckFailedError: ``CAPABILITIES`` is not a set of :class:`Capability`.
        """
        kind = type(node).__name__
        found = _call(f"reading CAPABILITIES of {kind}", capabilities_of, node)
        for item in found:
            if not isinstance(item, Capability):
                raise _CheckFailedError(
                    f"CAPABILITIES of {kind} holds {_show(item)}, which is not a "
                    "searchvid Capability (write Capability.KEY and so on)"
                )
        return found


def _take(children: Iterable[Any], limit: int) -> list[Any]:
    """The first ``limit`` of ``children``: an endless generator is cut, not drained."""
    return list(itertools.islice(children, limit))


def _listed(method: Callable[[], Any]) -> list[Any]:
    return list(method())


def _call(what: str, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Call the domain's ``function``; what it raises stops the check with a message on ``what``
    (``sys.exit()`` too: only Ctrl-C and signals pass)."""
    try:
        return function(*args, **kwargs)
    except BaseException as exc:
        if is_interrupt(exc):
            raise
        raise _CheckFailedError(f"{what} raised {_error(exc)}") from exc


def _error(exc: BaseException) -> str:
    """``TypeError: message (at game.py:12 in Board.children())``: the exception and the
    line of the domain's code that raised it (see :func:`searchvid.usercode.culprit`)."""
    if isinstance(exc, UserCodeError):  # searchvid refused what the domain's code returned
        return str(exc)
    head = exception_text(exc)
    where = culprit(exc)
    if where is not None:
        return f"{head} (at {where})"
    here = Path(__file__).resolve()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) != here]
    if not frames:
        return head
    return f"{head} (at {Path(frames[-1].filename).name}:{frames[-1].lineno})"


def _shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _show(value: Any) -> str:
    """A value for messages: ``1 (an int)``, ``'x' (a str)``, ``1.5``, ``the class X``."""
    if isinstance(value, type):
        return f"the class {value.__name__}"
    if value is None or type(value) is float:
        return repr(value)
    try:
        text = repr(value)
    except Exception:
        text = "?"
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return f"{_shorten(text, _SHOW_WIDTH)} ({article} {kind})"


def _difference(probe: _Probe, first: list[Any], second: list[Any], noun: str) -> str | None:
    """Where two node lists differ (``"child 2 is node 'a', then node 'b'"``), or None."""
    for index, (a, b) in enumerate(zip(first, second, strict=False)):
        if probe.equal(a, b):
            continue
        if probe.label_of(a) == probe.label_of(b):
            label = probe.label_of(a)
            return f"{noun} {index} is '{label}' both times, but not equal: is == by identity?"
        return f"{noun} {index} is {probe.name(a)}, then {probe.name(b)}"
    if len(first) != len(second):
        plural = "children" if noun == "child" else f"{noun}s"
        return f"{len(first)} {plural}, then {len(second)}"
    return None


def _run(check: Check, probe: _Probe) -> list[Failure]:
    messages: list[str] = []
    try:
        for message in check.function(probe):
            if message not in messages:
                messages.append(message)
            if len(messages) >= MAX_MESSAGES:
                break
    except _CheckFailedError as problem:
        messages.append(problem.message)
    except BaseException as exc:  # the domain raised (or exited) where no call was guarded
        if is_interrupt(exc):
            raise
        messages.append(f"the check stopped: {_error(exc)}")
    unique = dict.fromkeys(messages)  # in order, each once
    return [Failure(check.name, message) for message in unique]


# The checks: each yields what is wrong, or raises _CheckFailedError to stop.


def _check_metadata(probe: _Probe) -> Iterator[str]:
    for attribute in ("name", "summary"):
        value = getattr(probe.domain, attribute, None)
        if not isinstance(value, str) or not value.strip():
            yield f"{attribute} must be a non-empty string, got {_show(value)}"


def _check_options(probe: _Probe) -> Iterator[str]:
    cls = getattr(type(probe.domain), "options_type", None)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        yield (
            f"options_type must be a dataclass (@dataclass(frozen=True, kw_only=True)), "
            f"got {_show(cls)}"
        )
        return
    params: Any = getattr(cls, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        yield f"options_type {cls.__name__} must be frozen: @dataclass(frozen=True, kw_only=True)"
    fields = [f for f in dataclasses.fields(cls) if f.init]
    positional = [f.name for f in fields if not f.kw_only]
    if positional:
        yield (
            f"options of {cls.__name__} must be keyword-only (kw_only=True): "
            + ", ".join(positional)
        )
    undocumented = [f.name for f in fields if not f.metadata.get("doc")]
    if undocumented:
        yield (
            f"options of {cls.__name__} without a doc (declare them with "
            f"searchvid.option(default, doc=...)): " + ", ".join(undocumented)
        )
    options = getattr(probe.domain, "options", _UNSET)
    if options is _UNSET:
        yield "the domain has no options attribute: call super().__init__(options)"
    elif not isinstance(options, cls):
        yield f"the domain's options are {_show(options)}, not a {cls.__name__}"


def _check_root(probe: _Probe) -> Iterator[str]:
    root = probe.root
    code = probe.hash(root)
    if not probe.equal(root, root):
        yield "the root is not equal to itself (root == root is False)"
    if probe.hash(root) != code:
        yield "hash() of the root changes from one call to the next"
    again = probe.fresh_root()
    if not probe.equal(again, root):
        yield (
            "a second root() call gives a node not equal to the first: nodes must compare by "
            "their state (a frozen dataclass, or __eq__ and __hash__)"
        )
    elif probe.hash(again) != code:
        yield "two root() calls give equal nodes with different hashes"


def _check_has_children(probe: _Probe) -> Iterator[str]:
    if not probe.children(probe.root):
        yield "the root has no children: every search would end at once"


def _check_children(probe: _Probe) -> Iterator[str]:
    for node in probe.nodes:
        first, second = probe.children(node), probe.children(node)
        difference = _difference(probe, first, second, "child")
        if difference is not None:
            yield (
                f"children() of {probe.name(node)} gave different children on a second call "
                f"({difference}); children must come in a deterministic order"
            )
            return
        if [probe.hash(c) for c in first] != [probe.hash(c) for c in second]:
            yield f"the children of {probe.name(node)} have hashes that change between calls"
            return


def _check_equality(probe: _Probe) -> Iterator[str]:
    first = probe.children(probe.root)
    second = probe.children(probe.fresh_root())
    difference = _difference(probe, first, second, "child")
    if difference is not None:
        yield (
            f"the children of two separate root() calls differ ({difference}): equality "
            "must depend on the state, not on object identity"
        )
    elif [probe.hash(c) for c in first] != [probe.hash(c) for c in second]:
        yield "equal children of two separate root() calls have different hashes"
    nodes = probe.nodes
    hashes = [probe.hash(node) for node in nodes]
    for node in nodes:
        if not probe.equal(node, node):
            yield f"{probe.name(node)} is not equal to itself"
            return
    for i, j in itertools.combinations(range(len(nodes)), 2):
        if hashes[i] != hashes[j] and probe.equal(nodes[i], nodes[j]):
            one, other = probe.name(nodes[i]), probe.name(nodes[j])
            yield f"{one} and {other} are equal but have different hashes"
            return


def _check_capabilities(probe: _Probe) -> Iterator[str]:
    root = probe.root
    declared = probe.declared(root)
    missing = [c for c in sorted(declared, key=_order) if not _implements(root, c)]
    for capability in missing:
        yield (
            f"{type(root).__name__} declares Capability.{capability.name} but does not "
            f"implement {capability.description}"
        )
    failed: set[Capability] = set(missing)
    for node in probe.nodes:
        if probe.declared(node) != declared:
            yield (
                f"{probe.name(node)} ({type(node).__name__}) declares "
                f"{_capability_names(probe.declared(node))}, while the root declares "
                f"{_capability_names(declared)}: every node must offer the same capabilities"
            )
            return
        kids = probe.children(node)
        for capability in sorted(declared - failed, key=_order):
            try:
                problem = _CAPABILITY_CHECKS[capability](probe, node, kids)
            except _CheckFailedError as exc:
                problem = exc.message
            if problem is not None:
                failed.add(capability)
                yield problem


def _order(capability: Capability) -> int:
    return list(Capability).index(capability)


def _capability_names(capabilities: frozenset[Capability]) -> str:
    names = [c.name for c in sorted(capabilities, key=_order)]
    return "{" + ", ".join(names) + "}" if names else "no capabilities"


def _implements(node: Any, capability: Capability) -> bool:
    if capability is Capability.CHANCE:
        names = ("is_chance", "outcomes", "sample_outcome")
        return all(callable(getattr(type(node), name, None)) for name in names)
    try:
        attribute = getattr(node, capability.value)
    except Exception:  # a missing attribute, or a property that raises
        return capability is Capability.TO_MOVE and hasattr(type(node), "to_move")
    return capability is Capability.TO_MOVE or callable(attribute)


def _terminal_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    result = _call(f"is_terminal() of {probe.name(node)}", node.is_terminal)
    if not isinstance(result, bool):
        return f"is_terminal() of {probe.name(node)} returned {_show(result)}; it must be a bool"
    return None


def _to_move_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    player = _call(f"to_move of {probe.name(node)}", getattr, node, "to_move")
    if isinstance(player, bool) or not isinstance(player, numbers.Integral) or player not in (0, 1):
        return f"to_move of {probe.name(node)} is {_show(player)}; it must be 0 or 1"
    return None


def _reward_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    return None  # the rewards check calls reward() at terminal nodes


def _key_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    what = f"key() of {probe.name(node)}"
    key = _call(what, node.key)
    try:
        hash(key)
    except Exception as exc:
        return f"{what} returned {_show(key)}, which is not hashable: {exc}"
    if not probe.equal(key, _call(what, node.key)):
        return f"{what} changes from one call to the next"
    return None


def _filtered_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    what = f"filtered_children() of {probe.name(node)}"
    filtered = _call(what, _listed, node.filtered_children)
    for child in filtered:
        if not probe.among(child, kids):
            return f"{what} gives {probe.name(child)}, which children() does not give"
    if bool(filtered) != bool(kids):
        state = "empty although children() is not" if kids else "not empty but children() is"
        return f"{what} is {state}"
    return None


def _random_child_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    what = f"random_child(rng) of {probe.name(node)}"
    child = _call(what, node.random_child, random.Random(4))
    if child is None:
        return f"{what} returned None although it has children" if kids else None
    if not kids:
        return f"{what} returned {probe.name(child)} although children() gives none"
    if not probe.among(child, kids):
        return f"{what} returned {probe.name(child)}, which children() does not give"
    return None


def _chance_problem(probe: _Probe, node: Any, kids: list[Any]) -> str | None:
    result = _call(f"is_chance() of {probe.name(node)}", node.is_chance)
    if not isinstance(result, bool):
        return f"is_chance() of {probe.name(node)} returned {_show(result)}; it must be a bool"
    return None  # the chance check looks at the outcomes


_CAPABILITY_CHECKS: dict[Capability, Callable[[_Probe, Any, list[Any]], str | None]] = {
    Capability.TERMINAL: _terminal_problem,
    Capability.TO_MOVE: _to_move_problem,
    Capability.REWARD: _reward_problem,
    Capability.KEY: _key_problem,
    Capability.FILTERED_CHILDREN: _filtered_problem,
    Capability.RANDOM_CHILD: _random_child_problem,
    Capability.CHANCE: _chance_problem,
}


def _check_turns(probe: _Probe) -> Iterator[str]:
    root = probe.root
    if Capability.TO_MOVE not in probe.declared(root):
        return
    edges = [(root, child) for child in probe.children(root)]
    edges += [pair for walk in probe.walks for pair in itertools.pairwise(walk)]
    for parent, child in edges:
        before = _call(f"to_move of {probe.name(parent)}", getattr, parent, "to_move")
        after = _call(f"to_move of {probe.name(child)}", getattr, child, "to_move")
        if before in (0, 1) and after != 1 - before:
            yield (
                f"to_move is {before!r} at {probe.name(parent)} and {after!r} at its child "
                f"{probe.name(child)}: the two players must take turns"
            )
            return


def _check_rewards(probe: _Probe) -> Iterator[str]:
    root = probe.root
    declared = probe.declared(root)
    if Capability.REWARD not in declared:
        return
    ends = []
    for seed in GAME_SEEDS:
        walk, stopped = probe.walk(root, seed, GAME_LENGTH)
        if stopped is not None:
            yield stopped
            return
        ends.append(walk[-1])
    terminal = [n for n in ends + probe.nodes if _terminal(probe, n)]
    if Capability.TO_MOVE in declared and not any(_terminal(probe, end) for end in ends):
        yield (
            f"none of {len(GAME_SEEDS)} random games from the root ended within "
            f"{GAME_LENGTH} moves: a two-player game must reach terminal nodes"
        )
    for node in terminal:
        reward = _call(f"reward() of {probe.name(node)}", node.reward)
        if not isinstance(reward, float) or not 0.0 <= reward <= 1.0:
            yield (
                f"reward() of {probe.name(node)} returned {_show(reward)} "
                "(must be a float in [0, 1])"
            )
            return


def _terminal(probe: _Probe, node: Any) -> bool:
    return _call(f"is_terminal() of {probe.name(node)}", is_terminal, node)


def _check_chance(probe: _Probe) -> Iterator[str]:
    root = probe.root
    declared = probe.declared(root)
    if Capability.CHANCE not in declared or not _implements(root, Capability.CHANCE):
        return  # the capabilities check names what is missing
    seen: list[Any] = []
    for node in probe.nodes:
        if probe.among(node, seen):
            continue
        if not _call(f"is_chance() of {probe.name(node)}", is_chance, node):
            continue
        seen.append(node)
        draws = CHANCE_DRAWS if len(seen) <= CHANCE_NODES_DRAWN else 0
        problem = _chance_node_problem(probe, node, declared, draws)
        if problem is not None:
            yield problem
            return


def _chance_node_problem(
    probe: _Probe, node: Any, declared: frozenset[Capability], draws: int
) -> str | None:
    """What is wrong with one chance node: its outcomes, its children, its sampling."""
    name = probe.name(node)
    if _terminal(probe, node):
        return f"{name} is a chance node and terminal: a chance node is never terminal"
    pairs = _call(f"outcomes() of {name}", _listed, node.outcomes)
    if not pairs:
        return f"outcomes() of {name} is empty: a chance node needs at least one outcome"
    probabilities: list[float] = []
    nodes: list[Any] = []
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return (
                f"outcomes() of {name} gives {_show(pair)}: each outcome must be a "
                "(probability, node) pair"
            )
        probability, outcome = pair
        good = isinstance(probability, numbers.Real) and not isinstance(probability, bool)
        if not good or not math.isfinite(float(probability)) or probability <= 0:
            return (
                f"outcomes() of {name} gives probability {_show(probability)} to "
                f"{probe.name(outcome)}: probabilities must be numbers > 0"
            )
        probabilities.append(float(probability))
        nodes.append(outcome)
    total = math.fsum(probabilities)
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        return f"the probabilities of the outcomes() of {name} sum to {total!r}, not 1"
    problem = _outcome_nodes_problem(probe, name, nodes, declared)
    if problem is not None:
        return problem
    difference = _difference(probe, probe.children(node), nodes, "child")
    if difference is not None:
        return (
            f"children() of {name} (a chance node) are not its outcomes() in the same "
            f"order ({difference})"
        )
    return _sampling_problem(probe, node, nodes, probabilities, draws)


def _outcome_nodes_problem(
    probe: _Probe, name: str, nodes: list[Any], declared: frozenset[Capability]
) -> str | None:
    index: dict[Any, int] = {}
    for i, outcome in enumerate(nodes):
        probe.hash(outcome)
        kind = type(outcome).__name__
        found = probe.declared(outcome)
        if found != declared:
            return (
                f"outcome {i} of {name} is {probe.name(outcome)} ({kind}), which declares "
                f"{_capability_names(found)} while the root declares "
                f"{_capability_names(declared)}: outcomes must be nodes of the domain"
            )
        earlier = _call(f"looking up outcome {i} of {name}", index.get, outcome)
        if earlier is not None:
            return (
                f"outcomes {earlier} and {i} of {name} are equal ({probe.name(outcome)}): "
                "merge equal outcomes into one, adding their probabilities"
            )
        index[outcome] = i
    return None


def _sampling_problem(
    probe: _Probe, node: Any, nodes: list[Any], probabilities: list[float], draws: int
) -> str | None:
    name = probe.name(node)
    what = f"sample_outcome(rng) of {name}"
    first = _call(what, node.sample_outcome, random.Random(4))
    if not probe.among(first, nodes):
        return f"{what} returned {probe.name(first)}, which is not one of its outcomes()"
    again = _call(what, node.sample_outcome, random.Random(4))
    if not probe.equal(first, again):
        return (
            f"two calls of {what} with equally seeded rngs returned {probe.name(first)}, then "
            f"{probe.name(again)}: draw only from the rng given"
        )
    if draws <= 0 or len(nodes) < 2:
        return None
    index = {outcome: i for i, outcome in enumerate(nodes)}
    counts = [0] * len(nodes)
    rng = random.Random(0)
    for _ in range(draws):
        drawn = _call(what, node.sample_outcome, rng)
        found = index.get(drawn)
        if found is None:
            return f"{what} returned {probe.name(drawn)}, which is not one of its outcomes()"
        counts[found] += 1
    return _frequency_problem(probe, what, nodes, probabilities, counts)


def _frequency_problem(
    probe: _Probe, what: str, nodes: list[Any], probabilities: list[float], counts: list[int]
) -> str | None:
    """A loose chi-square test of the draw counts against the probabilities.

    Outcomes expected fewer than 5 times are pooled into one bin; the statistic must stay
    below ``df + 6 * sqrt(2 * df) + 10`` (far in the tail: a correct sampler never fails it
    for the fixed seed, while a wrong distribution over a few thousand draws does).
    """
    draws = sum(counts)
    bins: list[tuple[float, int]] = []
    rare_expected, rare_count = 0.0, 0
    for p, count in zip(probabilities, counts, strict=True):
        expected = p * draws
        if expected < 5:
            rare_expected += expected
            rare_count += count
        else:
            bins.append((expected, count))
    if rare_expected >= 5:
        bins.append((rare_expected, rare_count))
    if len(bins) < 2:
        return None
    statistic = sum((count - expected) ** 2 / expected for expected, count in bins)
    df = len(bins) - 1
    if statistic <= df + 6 * math.sqrt(2 * df) + 10:
        return None
    worst = max(
        range(len(nodes)),
        key=lambda i: (
            abs(counts[i] - probabilities[i] * draws) / math.sqrt(probabilities[i] * draws)
        ),
    )
    return (
        f"{what} does not draw with the probabilities of outcomes(): over {draws:,} draws "
        f"{probe.name(nodes[worst])} came {counts[worst]:,} times, expected about "
        f"{probabilities[worst] * draws:,.0f} (chi-square {statistic:,.1f} with {df} "
        f"degree{'s' if df != 1 else ''} of freedom)"
    )


def _check_random_walks(probe: _Probe) -> Iterator[str]:
    for seed in WALK_SEEDS:
        first, stopped = probe.walk(probe.root, seed, WALK_LENGTH)
        if stopped is None:
            second, stopped = probe.walk(probe.fresh_root(), seed, WALK_LENGTH)
        if stopped is not None:
            yield stopped
            return
        difference = _difference(probe, first, second, "step")
        if difference is not None:
            yield (
                f"two random walks with seed {seed} differ ({difference}): a seeded walk must "
                "repeat exactly (draw only from the rng given)"
            )
            return
        try:
            labels = [[probe.domain.label(n) for n in walk] for walk in (first, second)]
        except Exception:  # the labels check reports it
            return
        for step, (one, other) in enumerate(zip(*labels, strict=True)):
            if one != other:
                yield f"step {step} of two equal random walks has labels {one!r}, then {other!r}"
                return


def _check_labels(probe: _Probe) -> Iterator[str]:
    for node in probe.nodes:
        label = _call(f"label() of {probe.name(node)}", probe.domain.label, node)
        if not isinstance(label, str) or not label:
            yield (
                f"label() of {probe.name(node)} returned {_show(label)}; labels must be "
                "non-empty strings"
            )
            return


def _check_values(probe: _Probe) -> Iterator[str]:
    values: Any = _call("values()", probe.domain.values)
    yield from _offered("value function", "values()", values, probe.domain.default_value)
    if not isinstance(values, Mapping):
        return
    for name, function in values.items():
        if callable(function):
            yield from _value_problems(probe, str(name), function)


def _offered(kind: str, method: str, functions: Any, default: Any) -> Iterator[str]:
    if not isinstance(functions, Mapping):
        yield f"{method} must return a mapping of names to functions, got {_show(functions)}"
        return
    for name, function in functions.items():
        if not isinstance(name, str) or not callable(function):
            yield f"{method} maps {_show(name)} to {_show(function)}: names must map to functions"
    if default is not None and default not in functions:
        offered = ", ".join(repr(name) for name in functions) or "none"
        yield f"default {kind} {default!r} is not one of those {method} offers ({offered})"


def _value_problems(probe: _Probe, name: str, function: Callable[[Any], Any]) -> Iterator[str]:
    for node in probe.nodes:
        what = f"value function '{name}'"
        result = _call(f"{what} on {probe.name(node)}", function, node)
        if not isinstance(result, float):
            yield (
                f"{what} returned {_show(result)} for {probe.name(node)}: value functions "
                "must return float (in [0, 1])"
            )
            return
        if not 0.0 <= result <= 1.0:
            yield (f"{what} returned {result!r} for {probe.name(node)} (must be a float in [0, 1])")
            return


def _check_heuristics(probe: _Probe) -> Iterator[str]:
    heuristics: Any = _call("heuristics()", probe.domain.heuristics)
    yield from _offered("heuristic", "heuristics()", heuristics, probe.domain.default_heuristic)
    if not isinstance(heuristics, Mapping):
        return
    for name, function in heuristics.items():
        if not callable(function):
            continue
        for node in probe.nodes:
            what = f"heuristic '{name}'"
            result: Any = _call(f"{what} on {probe.name(node)}", function, node)
            good = isinstance(result, numbers.Real) and not isinstance(result, bool)
            if not good or not math.isfinite(float(result)) or result < 0:
                yield (
                    f"{what} returned {_show(result)} for {probe.name(node)} (must be a "
                    "finite number >= 0: an estimate of the moves to a goal)"
                )
                break


def _check_goal(probe: _Probe) -> Iterator[str]:
    has_goal: Any = getattr(probe.domain, "has_goal", False)
    if not isinstance(has_goal, bool):
        yield f"has_goal must be True or False, got {_show(has_goal)}"
    for node in probe.nodes:
        result: Any = _call(f"is_goal() of {probe.name(node)}", probe.domain.is_goal, node)
        if not isinstance(result, bool):
            yield f"is_goal() returned {_show(result)} for {probe.name(node)}; it must be a bool"
            return
        if result and has_goal is False:
            yield f"is_goal() returned True for {probe.name(node)} although has_goal is False"
            return


def _tileset(view: Any) -> TileSet:
    tileset = _call("view().tileset", getattr, view, "tileset")
    if not isinstance(tileset, TileSet):
        raise _CheckFailedError(f"view().tileset must be a searchvid TileSet, got {_show(tileset)}")
    return tileset


def _check_view(probe: _Probe) -> Iterator[str]:
    view = _call("view()", probe.domain.view)
    tiles = len(_tileset(view).names)
    shape = _call("view().shape", getattr, view, "shape")
    if not _is_shape(shape):
        yield f"view().shape must be (rows, cols), two ints > 0, got {_show(shape)}"
        return
    previous = None
    for node in probe.nodes:
        grid = _call(f"view().grid() of {probe.name(node)}", view.grid, node)
        problem = _grid_problem(grid, tuple(shape), tiles)
        if problem is not None:
            yield f"view().grid() of {probe.name(node)} {problem}"
            return
        if previous is not None and np.shares_memory(grid, previous):
            yield (
                "view().grid() returned the same array twice: it must return a new array on "
                "every call (the renderer compares each grid with the one before)"
            )
            return
        previous = grid
    again = _call("view().grid() of the root", view.grid, probe.root)
    if not np.array_equal(again, _call("view().grid() of the root", view.grid, probe.root)):
        yield "view().grid() of the root changes from one call to the next"
    other = _call("a second view()", probe.domain.view)
    if _call("view().shape", getattr, other, "shape") != shape:
        yield "two view() calls have different shapes: the shape must be fixed by the options"


def _is_shape(shape: Any) -> bool:
    if not isinstance(shape, tuple) or len(shape) != 2:
        return False
    return all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape)


def _grid_problem(grid: Any, shape: tuple[int, ...], tiles: int) -> str | None:
    if not isinstance(grid, np.ndarray):
        return f"returned {_show(grid)}, not a numpy array"
    if grid.shape != shape:
        return f"has shape {grid.shape}, expected {shape} (view().shape)"
    if grid.dtype != np.int16:
        return f"has dtype {grid.dtype}, expected int16"
    low, high = int(grid.min()), int(grid.max())
    if low < 0 or high >= tiles:
        bad = low if low < 0 else high
        return f"holds tile id {bad}, outside 0..{tiles - 1} (the tile set has {tiles} tiles)"
    return None


def _check_tiles(probe: _Probe) -> Iterator[str]:
    tileset = _tileset(_call("view()", probe.domain.view))
    if not tileset.names:
        yield "the tile set names no tiles"
        return
    if tileset.draw is not None:
        for name in tileset.names:
            problem = _drawn_tile_problem(tileset.draw, name)
            if problem is not None:
                yield problem
                return
    try:
        TileAtlas(tileset, TILE_SIZE)
    except RunError as exc:
        hint = ""
        if tileset.folder is not None:
            hint = (
                f" (tile folders are looked up in {assets_dir()}; set SEARCHVID_TILE_ASSETS "
                "to use another folder)"
            )
        yield f"{exc}{hint}"
    except Exception as exc:
        yield f"loading the tiles at {TILE_SIZE} px raised {_error(exc)}"


def _drawn_tile_problem(draw: Callable[[str, int], Any], name: str) -> str | None:
    image = _call(f"drawing tile '{name}' at {TILE_SIZE} px", draw, name, TILE_SIZE)
    if not isinstance(image, Image.Image):
        return f"drawing tile '{name}' returned {_show(image)}, not a PIL image"
    if image.size != (TILE_SIZE, TILE_SIZE):
        width, height = image.size
        return f"tile '{name}' was drawn at {width}x{height} px, expected {TILE_SIZE}x{TILE_SIZE}"
    if image.mode != "RGB":
        return f"tile '{name}' was drawn in mode {image.mode}, expected RGB"
    return None


CHECKS: tuple[Check, ...] = (
    Check("metadata", "name and summary are non-empty strings", _check_metadata),
    Check(
        "options", "options_type is a frozen, keyword-only, documented dataclass", _check_options
    ),
    Check("root", "root() is hashable, equal to itself and to a fresh root()", _check_root),
    Check("has-children", "the root has at least one child", _check_has_children),
    Check("children", "children() gives the same children in the same order", _check_children),
    Check(
        "equality", "equal nodes hash alike; equality is by state, not identity", _check_equality
    ),
    Check(
        "capabilities", "declared capabilities are implemented, on every node", _check_capabilities
    ),
    Check("turns", "two-player games alternate to_move between 0 and 1", _check_turns),
    Check("rewards", "reward() at terminal nodes is a float in [0, 1]", _check_rewards),
    Check(
        "chance",
        "chance nodes: outcomes with probabilities > 0 summing to 1, equal to children(), "
        "sampled with those probabilities",
        _check_chance,
    ),
    Check("random-walks", "a seeded random walk repeats exactly", _check_random_walks),
    Check("labels", "label(node) is a non-empty string", _check_labels),
    Check(
        "values", "value functions return floats in [0, 1]; the default is offered", _check_values
    ),
    Check(
        "heuristics",
        "heuristics return finite numbers >= 0; the default is offered",
        _check_heuristics,
    ),
    Check("goal", "is_goal() returns a bool, never True without has_goal", _check_goal),
    Check(
        "view",
        "grids have the view's shape, dtype int16, valid ids, a new array each call",
        _check_view,
    ),
    Check("tiles", f"every tile exists, or is drawn at {TILE_SIZE} px as RGB", _check_tiles),
)
"""Every check, in the order :func:`check_domain` runs them."""


def check_domain(domain: Domain) -> list[Failure]:
    """Run every check of :data:`CHECKS` on ``domain``.

    Args:
        domain: A domain built with its options (``make_domain(name, table)``).

    Returns:
        The failures, in the order of :data:`CHECKS`; empty when the domain conforms. At most
        :data:`MAX_MESSAGES` per check. Exceptions raised by the domain's code are failures.
    """
    probe = _Probe(domain)
    return [failure for check in CHECKS for failure in _run(check, probe)]


def run_check(domain: Domain, name: str) -> list[Failure]:
    """Run the check called ``name`` alone on ``domain``; an empty list means it passed.

    Raises:
        ValueError: No check has that name (the message lists them).
    """
    for check in CHECKS:
        if check.name == name:
            return check.run(domain)
    known = ", ".join(check.name for check in CHECKS)
    raise ValueError(f"unknown check {name!r}; known: {known}")


def format_report(domain_name: str, failures: Sequence[Failure], checks_run: int) -> str:
    """The result of checking one domain, in plain words for a terminal.

    ``"eight-puzzle: 16 checks passed"``, or a first line ``"eight-puzzle: 2 of 16 checks
    failed:"`` followed by one indented line ``"  check: message"`` per failure. A message
    that several checks share (``root() raised ...``) is shown once, after their names.

    Args:
        domain_name: How the user named the domain.
        failures: What :func:`check_domain` returned.
        checks_run: How many checks ran (``len(CHECKS)`` for :func:`check_domain`).
    """
    counted = f"{checks_run} check" if checks_run == 1 else f"{checks_run} checks"
    if not failures:
        return f"{domain_name}: {counted} passed"
    failed = len({failure.check for failure in failures})
    checks_of: dict[str, list[str]] = {}
    for failure in failures:
        checks_of.setdefault(failure.message, []).append(failure.check)
    lines = [f"{domain_name}: {failed} of {counted} failed:"]
    for message, checks in checks_of.items():
        names = ", ".join(dict.fromkeys(checks))
        lines.append(f"  {names}: " + message.replace("\n", "\n    "))
    return "\n".join(lines)


__all__ = [
    "CHECKS",
    "MAX_MESSAGES",
    "Check",
    "Failure",
    "check_domain",
    "format_report",
    "run_check",
]
