"""Deliberately broken domains: each fails the right conformance check, in plain words.

``Count`` is a minimal correct domain (count up by one or two, up to 6); every broken domain
below changes one thing about it.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from searchvid import Capability, Domain, TileSet, View, option
from searchvid.conformance import (
    CHECKS,
    MAX_CHILDREN,
    Failure,
    check_domain,
    format_report,
    run_check,
)
from searchvid.search.values import Heuristic, ValueFunction

LIMIT = 6


@dataclass(frozen=True)
class Count:
    """A correct node: a number that grows by one or two up to :data:`LIMIT`."""

    n: int

    def children(self) -> list[Count]:
        return [type(self)(self.n + step) for step in (1, 2) if self.n + step <= LIMIT]


@dataclass(frozen=True, kw_only=True)
class CountOptions:
    """Options of the counting domain."""

    limit: int = option(LIMIT, doc="The largest number.", minimum=1)


def _draw(name: str, size: int) -> Image.Image:
    return Image.new("RGB", (size, size), (0, 0, 0) if name == "even" else (255, 255, 255))


class CountView:
    """One tile: even or odd."""

    tileset = TileSet(names=("even", "odd"), draw=_draw)
    shape = (1, 1)

    def grid(self, node: Any) -> npt.NDArray[np.int16]:
        return np.array([[node.n % 2]], dtype=np.int16)


class CountDomain(Domain):
    """A minimal domain that passes every check."""

    name = "count"
    summary = "Counts up by one or two."
    options_type: ClassVar[type[Any]] = CountOptions
    default_value = "progress"
    node_type: ClassVar[type[Any]] = Count

    def root(self) -> Any:
        return self.node_type(0)

    def view(self) -> View:
        return CountView()

    def label(self, node: Any) -> str:
        return f"n={node.n}"

    def values(self) -> Mapping[str, ValueFunction]:
        return {"progress": lambda node: node.n / LIMIT}


def _build(domain: type[Domain]) -> Domain:
    return domain(domain.options_type())


def _check(domain: type[Domain]) -> list[Failure]:
    return check_domain(_build(domain))


# --- broken nodes ----------------------------------------------------------------------------


class ListNode(list[int]):
    """Unhashable: a list."""

    def children(self) -> list[ListNode]:
        return [ListNode([self[0] + 1])] if self[0] < LIMIT else []


class ShufflingCount(Count):
    """Lists its children in a different order on every call."""

    calls: ClassVar[list[int]] = [0]

    def children(self) -> list[Count]:
        self.calls[0] += 1
        kids = super().children()
        return kids[::-1] if self.calls[0] % 2 else kids


@dataclass(frozen=True)
class KeyedCount(Count):
    """Declares a transposition key but has no key()."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})


class RaisingCount(Count):
    """children() raises."""

    def children(self) -> list[Count]:
        raise TypeError("boom")


class IdentityCount:
    """Compares and hashes by identity (no __eq__): two roots are never equal."""

    def __init__(self, n: int) -> None:
        self.n = n

    def children(self) -> list[IdentityCount]:
        return [IdentityCount(self.n + step) for step in (1, 2) if self.n + step <= LIMIT]


@dataclass(frozen=True)
class OnePlayerTurns(Count):
    """Declares two players, but player 0 always moves."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.TO_MOVE})

    @property
    def to_move(self) -> int:
        return 0


@dataclass(frozen=True)
class RewardedCount(Count):
    """A reward of 2 at the end."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.TERMINAL, Capability.REWARD}
    )

    def is_terminal(self) -> bool:
        return not self.children()

    def reward(self) -> float:
        return 2.0


@dataclass(frozen=True)
class UnseededCount(Count):
    """Draws its random child from a source of its own, not from the rng given: like an
    unseeded source, but made to differ for sure (two unseeded walks over this small tree
    coincide now and then): each walk from the root starts with the other child."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.RANDOM_CHILD})
    walks: ClassVar[list[int]] = [0]

    def random_child(self, rng: random.Random) -> Count | None:
        kids = self.children()
        if not kids:
            return None
        if self.n == 0:
            self.walks[0] += 1
            return kids[self.walks[0] % len(kids)]
        return random.Random().choice(kids)


@dataclass(frozen=True)
class BadFilterCount(Count):
    """filtered_children() offers a state that children() does not."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.FILTERED_CHILDREN})

    def filtered_children(self) -> list[Count]:
        return [type(self)(self.n + 10)] if self.n < LIMIT else []


@dataclass(frozen=True)
class MixedCount(Count):
    """Declares a key, but its children are plain ``Count`` nodes without one."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})

    def key(self) -> int:
        return self.n

    def children(self) -> list[Count]:
        return [Count(self.n + 1)]


# --- chance: a die rolled between moves ------------------------------------------------------


@dataclass(frozen=True)
class Dice:
    """A correct chance domain: roll a two-sided die (1 or 2), add it, roll again up to LIMIT.

    Rolling nodes are chance nodes; the node after a roll has one child, the next roll.
    """

    n: int
    rolling: bool = True

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.CHANCE})
    FACES: ClassVar[tuple[tuple[int, float], ...]] = ((1, 0.5), (2, 0.5))

    def is_chance(self) -> bool:
        return self.rolling

    def outcomes(self) -> list[tuple[float, Dice]]:
        if not self.rolling:
            return []
        return [(p, type(self)(self.n + face, False)) for face, p in self.FACES]

    def children(self) -> list[Dice]:
        if self.rolling:
            return [node for _, node in self.outcomes()]
        return [type(self)(self.n, True)] if self.n + 2 <= LIMIT else []

    def sample_outcome(self, rng: random.Random) -> Dice:
        faces = [face for face, _ in self.FACES]
        face = rng.choices(faces, weights=[p for _, p in self.FACES])[0]
        return type(self)(self.n + face, False)


@dataclass(frozen=True)
class UnfairDice(Dice):
    """Correct too: a loaded die, and sampling that follows it."""

    FACES: ClassVar[tuple[tuple[int, float], ...]] = ((1, 0.75), (2, 0.25))


@dataclass(frozen=True)
class NinetyPercentDice(Dice):
    """Probabilities that sum to 0.9."""

    FACES: ClassVar[tuple[tuple[int, float], ...]] = ((1, 0.45), (2, 0.45))


@dataclass(frozen=True)
class StrayDice(Dice):
    """sample_outcome() returns a state that is no outcome."""

    def sample_outcome(self, rng: random.Random) -> Dice:
        return type(self)(self.n + 3, False)


@dataclass(frozen=True)
class BiasedSamplerDice(Dice):
    """A fair die in outcomes(), but sampling that favours the 1."""

    def sample_outcome(self, rng: random.Random) -> Dice:
        face = 1 if rng.random() < 0.8 else 2
        return type(self)(self.n + face, False)


@dataclass(frozen=True)
class ReversedDice(Dice):
    """children() of a chance node in the other order than outcomes()."""

    def children(self) -> list[Dice]:
        kids = super().children()
        return kids[::-1] if self.rolling else kids


@dataclass(frozen=True)
class UnmergedDice(Dice):
    """A die with two faces showing 1, listed as two equal outcomes."""

    FACES: ClassVar[tuple[tuple[int, float], ...]] = ((1, 0.5), (1, 0.5))


@dataclass(frozen=True)
class NoSamplerDice:
    """Declares chance but has no sample_outcome()."""

    n: int
    rolling: bool = True

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.CHANCE})

    def is_chance(self) -> bool:
        return self.rolling

    def outcomes(self) -> list[tuple[float, NoSamplerDice]]:
        return [(1.0, NoSamplerDice(self.n + 1, False))] if self.rolling else []

    def children(self) -> list[NoSamplerDice]:
        if self.rolling:
            return [node for _, node in self.outcomes()]
        return [NoSamplerDice(self.n, True)] if self.n < LIMIT else []


# --- broken domains --------------------------------------------------------------------------


class UnhashableDomain(CountDomain):
    def root(self) -> Any:
        return ListNode([0])

    def label(self, node: Any) -> str:
        return f"n={node[0]}"

    def values(self) -> Mapping[str, ValueFunction]:
        return {"progress": lambda node: node[0] / LIMIT}

    def view(self) -> View:
        return ListView()


class ListView(CountView):
    def grid(self, node: Any) -> npt.NDArray[np.int16]:
        return np.array([[node[0] % 2]], dtype=np.int16)


class ValueTooLargeDomain(CountDomain):
    def values(self) -> Mapping[str, ValueFunction]:
        return {"progress": lambda node: node.n / LIMIT, "score": lambda node: 1.5 * node.n}


class IntValueDomain(CountDomain):
    def values(self) -> Mapping[str, ValueFunction]:
        return {"progress": lambda node: node.n // LIMIT}


class RaisingValueDomain(CountDomain):
    def values(self) -> Mapping[str, ValueFunction]:
        return {"progress": lambda node: 1.0 / (node.n - node.n)}


class MissingDefaultValueDomain(CountDomain):
    default_value = "best"


class ShufflingDomain(CountDomain):
    node_type = ShufflingCount


class KeyNotImplementedDomain(CountDomain):
    node_type = KeyedCount


class MixedCapabilitiesDomain(CountDomain):
    node_type = MixedCount


class RaisingChildrenDomain(CountDomain):
    node_type = RaisingCount


class RaisingRootDomain(CountDomain):
    def root(self) -> Any:
        raise ValueError("no start position")


class IdentityDomain(CountDomain):
    node_type = IdentityCount


class OnePlayerTurnsDomain(CountDomain):
    node_type = OnePlayerTurns


class RewardTooLargeDomain(CountDomain):
    node_type = RewardedCount


class UnseededDomain(CountDomain):
    node_type = UnseededCount


class BadFilterDomain(CountDomain):
    node_type = BadFilterCount


class DiceDomain(CountDomain):
    node_type = Dice


class UnfairDiceDomain(CountDomain):
    node_type = UnfairDice


class NinetyPercentDomain(CountDomain):
    node_type = NinetyPercentDice


class StrayDiceDomain(CountDomain):
    node_type = StrayDice


class BiasedSamplerDomain(CountDomain):
    node_type = BiasedSamplerDice


class ReversedDiceDomain(CountDomain):
    node_type = ReversedDice


class UnmergedDiceDomain(CountDomain):
    node_type = UnmergedDice


class NoSamplerDomain(CountDomain):
    node_type = NoSamplerDice


class EmptyLabelDomain(CountDomain):
    def label(self, node: Any) -> str:
        return ""


class NegativeHeuristicDomain(CountDomain):
    def heuristics(self) -> Mapping[str, Heuristic]:
        return {"left": lambda node: node.n - LIMIT}


class GoalWithoutGoalDomain(CountDomain):
    def is_goal(self, node: Any) -> bool:
        return True


class IntGoalDomain(CountDomain):
    has_goal = True

    def is_goal(self, node: Any) -> Any:
        return int(node.n == LIMIT)


class RaisingLabelDomain(CountDomain):
    def label(self, node: Any) -> str:
        raise KeyError(node.n)


class UnhashableDefaultDomain(CountDomain):
    default_value: ClassVar[Any] = ["progress"]  # unhashable: "in values()" raises


class NamelessDomain(CountDomain):
    summary = ""


class PlainOptions:
    limit = LIMIT


class PlainOptionsDomain(CountDomain):
    options_type = PlainOptions


@dataclass(kw_only=True)
class MutableOptions:
    limit: int = LIMIT


class MutableOptionsDomain(CountDomain):
    options_type = MutableOptions


def _view(
    name: str, grid: Callable[[Any], Any], tileset: TileSet = CountView.tileset
) -> type[Domain]:
    """A domain like ``Count`` whose view draws ``grid`` with ``tileset``."""

    class GridView(CountView):
        def grid(self, node: Any) -> Any:
            return grid(node)

    GridView.tileset = tileset

    class GridDomain(CountDomain):
        def view(self) -> View:
            return GridView()

    GridDomain.__name__ = GridDomain.__qualname__ = name
    return GridDomain


WrongShapeDomain = _view("WrongShapeDomain", lambda node: np.zeros((2, 1), dtype=np.int16))
WrongDtypeDomain = _view("WrongDtypeDomain", lambda node: np.zeros((1, 1), dtype=np.int64))
BadTileIdDomain = _view("BadTileIdDomain", lambda node: np.full((1, 1), 5, dtype=np.int16))
ListGridDomain = _view("ListGridDomain", lambda node: [[0]])
_KEPT = np.zeros((1, 1), dtype=np.int16)
SameArrayDomain = _view("SameArrayDomain", lambda node: _KEPT)
SmallTileDomain = _view(
    "SmallTileDomain",
    CountView().grid,
    TileSet(names=("even", "odd"), draw=lambda name, size: Image.new("RGB", (8, 8))),
)
GreyTileDomain = _view(
    "GreyTileDomain",
    CountView().grid,
    TileSet(names=("even", "odd"), draw=lambda name, size: Image.new("L", (size, size))),
)
MissingFolderDomain = _view(
    "MissingFolderDomain", CountView().grid, TileSet(names=("even", "odd"), folder="no-such-art")
)


# (domain, check, words in its message, whether that check is the only one failing)
CASES: list[tuple[type[Domain], str, tuple[str, ...], bool]] = [
    (UnhashableDomain, "root", ("the root is not hashable: unhashable type: 'ListNode'",), False),
    (
        ValueTooLargeDomain,
        "values",
        ("value function 'score' returned", "for node 'n=", "(must be a float in [0, 1])"),
        True,
    ),
    (IntValueDomain, "values", ("'progress' returned 0 (an int)", "must return float"), True),
    (RaisingValueDomain, "values", ("'progress' on the root raised ZeroDivisionError",), True),
    (MissingDefaultValueDomain, "values", ("'best' is not one of", "'progress'"), True),
    (ShufflingDomain, "children", ("gave different children on a second call",), False),
    (KeyNotImplementedDomain, "capabilities", ("declares Capability.KEY", "key()"), True),
    (
        MixedCapabilitiesDomain,
        "capabilities",
        ("node 'n=1' (Count) declares no capabilities, while the root declares {KEY}",),
        True,
    ),
    (RaisingChildrenDomain, "children", ("children() of the root raised TypeError: boom",), False),
    (RaisingChildrenDomain, "has-children", ("children() of the root raised TypeError",), False),
    (RaisingRootDomain, "root", ("root() raised ValueError: no start position",), False),
    (IdentityDomain, "root", ("a second root() call gives a node not equal",), False),
    (IdentityDomain, "equality", ("not on object identity",), False),
    (OnePlayerTurnsDomain, "turns", ("to_move is 0 at the root and 0", "take turns"), True),
    (RewardTooLargeDomain, "rewards", ("reward() of node 'n=", "returned 2.0"), True),
    (UnseededDomain, "random-walks", ("two random walks with seed", "differ"), True),
    (BadFilterDomain, "capabilities", ("filtered_children() of the root gives node 'n=10'",), True),
    (EmptyLabelDomain, "labels", ("label() of the root returned '' (a str)",), True),
    (NegativeHeuristicDomain, "heuristics", ("heuristic 'left' returned -6 (an int)",), True),
    (GoalWithoutGoalDomain, "goal", ("True for the root although has_goal is False",), True),
    (IntGoalDomain, "goal", ("is_goal() returned 0 (an int)", "must be a bool"), True),
    (RaisingLabelDomain, "labels", ("label() of the root raised KeyError: 0",), True),
    (UnhashableDefaultDomain, "values", ("the check stopped: TypeError: unhashable",), True),
    (NamelessDomain, "metadata", ("summary must be a non-empty string",), True),
    (PlainOptionsDomain, "options", ("options_type must be a dataclass",), True),
    (MutableOptionsDomain, "options", ("options_type MutableOptions must be frozen",), True),
    (MutableOptionsDomain, "options", ("without a doc", "doc=...)): limit"), True),
    (WrongShapeDomain, "view", ("has shape (2, 1), expected (1, 1)",), True),
    (WrongDtypeDomain, "view", ("has dtype int64, expected int16",), True),
    (BadTileIdDomain, "view", ("holds tile id 5, outside 0..1",), True),
    (ListGridDomain, "view", ("returned [[0]] (a list), not a numpy array",), True),
    (SameArrayDomain, "view", ("returned the same array twice",), True),
    (SmallTileDomain, "tiles", ("tile 'even' was drawn at 8x8 px, expected 16x16",), True),
    (GreyTileDomain, "tiles", ("tile 'even' was drawn in mode L, expected RGB",), True),
    (MissingFolderDomain, "tiles", ("missing tile image", "no-such-art", "(tile 'even')"), True),
    (NinetyPercentDomain, "chance", ("of the root sum to 0.9", "not 1"), True),
    (
        StrayDiceDomain,
        "chance",
        ("sample_outcome(rng) of the root returned node 'n=3'", "not one of its outcomes()"),
        False,
    ),
    (
        BiasedSamplerDomain,
        "chance",
        ("does not draw with the probabilities of outcomes(): over 2,000 draws", "1 degree of"),
        True,
    ),
    (
        ReversedDiceDomain,
        "chance",
        ("children() of the root (a chance node) are not its outcomes() in the same order",),
        True,
    ),
    (UnmergedDiceDomain, "chance", ("outcomes 0 and 1 of the root are equal", "merge"), True),
    (
        NoSamplerDomain,
        "capabilities",
        ("declares Capability.CHANCE but does not implement is_chance(), outcomes()",),
        False,
    ),
]


@pytest.mark.parametrize(
    ("domain", "check", "words", "only"), CASES, ids=[f"{c[0].__name__}-{c[1]}" for c in CASES]
)
def test_a_broken_domain_fails_the_right_check(
    domain: type[Domain], check: str, words: tuple[str, ...], only: bool
) -> None:
    failures = _check(domain)
    report = "\n".join(map(str, failures))
    found = [f.message for f in failures if f.check == check]
    assert found, f"no {check!r} failure; got:\n{report}"
    assert any(all(w in message for w in words) for message in found), report
    if only:
        assert {f.check for f in failures} == {check}, report
    alone = run_check(_build(domain), check)
    assert alone
    assert all(f.check == check for f in alone)


def test_the_minimal_domain_passes_every_check() -> None:
    assert _check(CountDomain) == []


@pytest.mark.parametrize("domain", [DiceDomain, UnfairDiceDomain])
def test_fair_and_loaded_dice_pass_every_check(domain: type[Domain]) -> None:
    assert _check(domain) == []


def test_the_chance_check_looks_at_chance_nodes_only_where_declared() -> None:
    assert run_check(_build(CountDomain), "chance") == []
    assert run_check(_build(UnfairDiceDomain), "chance") == []


def test_a_domain_whose_root_raises_fails_without_crashing() -> None:
    failures = _check(RaisingRootDomain)
    passed = {check.name for check in CHECKS} - {f.check for f in failures}
    assert passed == {"metadata", "options", "heuristics", "tiles"}
    line = RaisingRootDomain.root.__code__.co_firstlineno + 1
    where = f"{_shown(__file__)}:{line} in RaisingRootDomain.root()"
    assert {f.message for f in failures} == {
        f"root() raised ValueError: no start position (at {where})"
    }


def _shown(file: str) -> str:
    """``file`` as messages show it: relative to the current folder when below it."""
    path = Path(file).resolve()
    return str(path.relative_to(Path.cwd().resolve())) if path.is_relative_to(Path.cwd()) else file


class NoneChildren(Count):
    """children() forgets its return."""

    def children(self) -> Any:
        if self.n == 1:
            return None
        return super().children()


class NoneChildrenDomain(CountDomain):
    node_type = NoneChildren


@dataclass(frozen=True)
class Forever(Count):
    """children() is a generator that never ends."""

    def children(self) -> Iterator[Count]:  # type: ignore[override]
        return (Forever(self.n + k) for k in itertools.count(1))


class EndlessDomain(CountDomain):
    node_type = Forever


class ExitingRootDomain(CountDomain):
    def root(self) -> Any:
        sys.exit(3)


def test_children_returning_none_is_named_with_its_node_and_method() -> None:
    failures = _check(NoneChildrenDomain)
    line = NoneChildren.children.__code__.co_firstlineno
    message = (
        "children() of node 'n=1' returned None, not an iterable of nodes: return a list or a "
        f"tuple, or yield the children (at {_shown(__file__)}:{line} in NoneChildren.children())"
    )
    assert {f.check for f in failures} == {
        "children",
        "capabilities",
        "random-walks",
        "transpositions",
    }
    assert {f.message for f in failures} == {message}


def test_an_endless_children_generator_is_cut_and_reported() -> None:
    failures = _check(EndlessDomain)  # before the cut, the random walks listed it for ever
    message = f"children() of the root gave more than {MAX_CHILDREN:,} children (is it endless?)"
    assert {f.message for f in failures} == {message}
    assert {f.check for f in failures} == {
        "has-children",
        "children",
        "equality",
        "capabilities",
        "random-walks",
        "transpositions",
    }


def test_a_hook_that_calls_sys_exit_is_a_failure_not_an_exit() -> None:
    failures = _check(ExitingRootDomain)
    line = ExitingRootDomain.root.__code__.co_firstlineno + 1
    where = f"{_shown(__file__)}:{line} in ExitingRootDomain.root()"
    assert {f.message for f in failures} == {f"root() raised SystemExit(3) (at {where})"}


def test_checks_have_unique_names_and_descriptions() -> None:
    names = [check.name for check in CHECKS]
    assert len(set(names)) == len(names)
    assert all(check.description for check in CHECKS)


def test_run_check_rejects_an_unknown_name() -> None:
    with pytest.raises(ValueError, match="unknown check 'speed'; known: metadata, options"):
        run_check(_build(CountDomain), "speed")


def test_format_report_in_plain_words() -> None:
    assert format_report("count", [], 16) == "count: 16 checks passed"
    assert format_report("count", [], 1) == "count: 1 check passed"
    failures = [
        Failure("values", "value function 'score' returned 1.5"),
        Failure("values", "value function 'rank' raised"),
        Failure("view", "first line\nsecond line"),
    ]
    assert format_report("eight-puzzle", failures, 17) == (
        "eight-puzzle: 2 of 17 checks failed:\n"
        "  values: value function 'score' returned 1.5\n"
        "  values: value function 'rank' raised\n"
        "  view: first line\n"
        "    second line"
    )


def test_format_report_shows_a_message_shared_by_several_checks_once() -> None:
    failures = [
        Failure("root", "root() raised ValueError: no start"),
        Failure("labels", "root() raised ValueError: no start"),
        Failure("labels", "label() of node 'x' returned ''"),
    ]
    assert format_report("count", failures, 16) == (
        "count: 2 of 16 checks failed:\n"
        "  root, labels: root() raised ValueError: no start\n"
        "  labels: label() of node 'x' returned ''"
    )
