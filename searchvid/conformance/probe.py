"""The probe every check shares: the domain, its sampled nodes drawn once, and the guarded
calls that turn what the domain's code raises into a failure message."""

from __future__ import annotations

import itertools
import random
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from searchvid.domains.base import Domain
from searchvid.errors import UserCodeError
from searchvid.search.node import (
    Capability,
    capabilities_of,
    children_problem,
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
    function: Callable[[Probe], Iterator[str]]

    def run(self, domain: Domain) -> list[Failure]:
        """Run this check alone on ``domain``; an empty list means it passed."""
        return run_check_on(self, Probe(domain))


class CheckFailedError(Exception):
    """Ends a check early with ``message`` as its failure (the domain's code raised)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


UNSET: Any = object()


class Probe:
    """The domain under check, with its sampled nodes drawn once and shared by the checks."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self._root: Any = UNSET
        self._walks: list[list[Any]] | None = None
        self._games: tuple[list[list[Any]], str | None] | None = None

    @property
    def root(self) -> Any:
        """The domain's root (``root()`` is called once)."""
        if self._root is UNSET:
            self._root = call("root()", self.domain.root)
        return self._root

    def fresh_root(self) -> Any:
        """A new ``root()``, to compare with the first."""
        return call("a second root() call", self.domain.root)

    @property
    def walks(self) -> list[list[Any]]:
        """Short seeded random walks from the root (each stops early where the domain raises)."""
        if self._walks is None:
            root = self.root
            self._walks = [self.walk(root, seed, WALK_LENGTH)[0] for seed in WALK_SEEDS]
        return self._walks

    @property
    def games(self) -> tuple[list[list[Any]], str | None]:
        """Long seeded random walks from the root, looking for terminal nodes: the walks (one
        per seed of :data:`GAME_SEEDS`, up to the first that raised) and what stopped that
        one (None: none raised)."""
        if self._games is None:
            walks: list[list[Any]] = []
            stopped = None
            for seed in GAME_SEEDS:
                walk, stopped = self.walk(self.root, seed, GAME_LENGTH)
                if stopped is not None:
                    break
                walks.append(walk)
            self._games = walks, stopped
        return self._games

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
            except CheckFailedError as problem:
                return nodes, problem.message
            except Exception as exc:
                where = f"a random child of {self.name(nodes[-1])} (walk with seed {seed})"
                return nodes, f"drawing {where} raised {error(exc)}"
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
            CheckFailedError: It raised, or it seems endless.
        """
        what = f"children() of {self.name(node)}"
        found = call(what, node.children)
        problem = children_problem(found)
        if problem is not None:
            raise CheckFailedError(f"{what} {problem} (at {method_location(node, 'children')})")
        kids = call(what, take, found, MAX_CHILDREN + 1)
        if len(kids) > MAX_CHILDREN:
            raise CheckFailedError(
                f"{what} gave more than {MAX_CHILDREN:,} children (is it endless?)"
            )
        return kids

    def name(self, node: Any) -> str:
        """``the root`` or ``node '<label>'``, for messages; never raises."""
        if self._root is not UNSET and node is self._root:
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
        return shorten(label, _LABEL_WIDTH)

    def equal(self, a: Any, b: Any) -> bool:
        """``a == b`` as a bool.

        Raises:
            CheckFailedError: The comparison raised.
        """
        try:
            return bool(a == b)
        except Exception as exc:
            what = f"comparing {self.name(a)} with {self.name(b)} (==)"
            raise CheckFailedError(f"{what} raised {error(exc)}") from exc

    def among(self, node: Any, nodes: list[Any]) -> bool:
        """Whether ``node`` equals one of ``nodes``.

        Raises:
            CheckFailedError: A comparison raised.
        """
        try:
            return node in nodes
        except Exception as exc:
            what = f"looking for {self.name(node)} among other nodes (==)"
            raise CheckFailedError(f"{what} raised {error(exc)}") from exc

    def hash(self, node: Any) -> int:
        """``hash(node)``.

        Raises:
            CheckFailedError: The node is not hashable, or its ``__hash__`` raised.
        """
        try:
            return hash(node)
        except TypeError as exc:
            if "unhashable" in str(exc):
                raise CheckFailedError(f"{self.name(node)} is not hashable: {exc}") from exc
            raise CheckFailedError(f"hash() of {self.name(node)} raised {error(exc)}") from exc
        except Exception as exc:
            raise CheckFailedError(f"hash() of {self.name(node)} raised {error(exc)}") from exc

    def declared(self, node: Any) -> frozenset[Capability]:
        """The capabilities ``node``'s class declares.

        Raises:
            CheckFailedError: ``CAPABILITIES`` is not a set of :class:`Capability`.
        """
        kind = type(node).__name__
        found = call(f"reading CAPABILITIES of {kind}", capabilities_of, node)
        for item in found:
            if not isinstance(item, Capability):
                raise CheckFailedError(
                    f"CAPABILITIES of {kind} holds {show(item)}, which is not a "
                    "searchvid Capability (write Capability.KEY and so on)"
                )
        return found


def take(children: Iterable[Any], limit: int) -> list[Any]:
    """The first ``limit`` of ``children``: an endless generator is cut, not drained."""
    return list(itertools.islice(children, limit))


def listed(method: Callable[[], Any]) -> list[Any]:
    return list(method())


def call(what: str, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Call the domain's ``function``; what it raises stops the check with a message on ``what``
    (``sys.exit()`` too: only Ctrl-C and signals pass)."""
    try:
        return function(*args, **kwargs)
    except BaseException as exc:
        if is_interrupt(exc):
            raise
        raise CheckFailedError(f"{what} raised {error(exc)}") from exc


def error(exc: BaseException) -> str:
    """``TypeError: message (at game.py:12 in Board.children())``: the exception and the
    line of the domain's code that raised it (see :func:`searchvid.usercode.culprit`)."""
    if isinstance(exc, UserCodeError):  # searchvid refused what the domain's code returned
        return str(exc)
    head = exception_text(exc)
    where = culprit(exc)
    if where is not None:
        return f"{head} (at {where})"
    here = Path(__file__).resolve().parent  # the checks' own frames are not the culprit
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).parent != here]
    if not frames:
        return head
    return f"{head} (at {Path(frames[-1].filename).name}:{frames[-1].lineno})"


def shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def show(value: Any) -> str:
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
    return f"{shorten(text, _SHOW_WIDTH)} ({article} {kind})"


def first_difference(probe: Probe, first: list[Any], second: list[Any], noun: str) -> str | None:
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


def run_check_on(check: Check, probe: Probe) -> list[Failure]:
    messages: list[str] = []
    try:
        for message in check.function(probe):
            if message not in messages:
                messages.append(message)
            if len(messages) >= MAX_MESSAGES:
                break
    except CheckFailedError as problem:
        messages.append(problem.message)
    except BaseException as exc:  # the domain raised (or exited) where no call was guarded
        if is_interrupt(exc):
            raise
        messages.append(f"the check stopped: {error(exc)}")
    unique = dict.fromkeys(messages)  # in order, each once
    return [Failure(check.name, message) for message in unique]
