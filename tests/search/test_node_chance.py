"""The CHANCE capability: the module-level helpers and random_child at chance nodes."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

import pytest

from searchvid.search.node import (
    Capability,
    capabilities_of,
    is_chance,
    outcomes,
    random_child,
    sample_outcome,
)


@dataclass(frozen=True)
class Coin:
    """A loaded coin (heads 3 in 4) tossed at chance nodes; a decision node moves on by one."""

    n: int
    tossing: bool = True

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.CHANCE, Capability.RANDOM_CHILD}
    )

    def is_chance(self) -> bool:
        return self.tossing

    def outcomes(self) -> list[tuple[float, Coin]]:
        return [(0.75, Coin(self.n + 1, False)), (0.25, Coin(self.n + 2, False))]

    def sample_outcome(self, rng: random.Random) -> Coin:
        return Coin(self.n + (1 if rng.random() < 0.75 else 2), False)

    def children(self) -> list[Coin]:
        if self.tossing:
            return [node for _, node in self.outcomes()]
        return [Coin(self.n, True), Coin(self.n + 10, True)]

    def random_child(self, rng: random.Random) -> Coin:
        """Uniform over children(); a chance node must not be drawn this way."""
        return rng.choice(self.children())


@dataclass(frozen=True)
class Plain:
    """A node without capabilities, with an is_chance() it does not declare."""

    n: int

    def is_chance(self) -> bool:
        return True

    def children(self) -> list[Plain]:
        return [Plain(self.n + 1)] if self.n < 3 else []


def test_chance_is_a_capability_with_a_description() -> None:
    assert Capability.CHANCE.value == "is_chance"
    assert "sample_outcome(rng)" in Capability.CHANCE.description
    assert Capability.CHANCE in capabilities_of(Coin(0))


def test_is_chance_needs_the_declared_capability() -> None:
    assert is_chance(Coin(0))
    assert not is_chance(Coin(1, False))
    assert not is_chance(Plain(0))  # has the method, but does not declare CHANCE


def test_outcomes_are_probability_node_pairs_of_chance_nodes_only() -> None:
    assert outcomes(Coin(0)) == [(0.75, Coin(1, False)), (0.25, Coin(2, False))]
    with pytest.raises(ValueError, match="Coin node is not a chance node"):
        outcomes(Coin(0, False))
    with pytest.raises(ValueError, match="Plain node is not a chance node"):
        outcomes(Plain(0))


def test_sample_outcome_is_deterministic_for_a_seed_and_follows_the_probabilities() -> None:
    assert sample_outcome(Coin(0), random.Random(5)) == sample_outcome(Coin(0), random.Random(5))
    rng = random.Random(1)
    counts = Counter(sample_outcome(Coin(0), rng).n for _ in range(4000))
    assert abs(counts[1] / 4000 - 0.75) < 0.03
    with pytest.raises(ValueError, match="not a chance node"):
        sample_outcome(Coin(0, False), random.Random(0))


def test_random_child_samples_chance_outcomes_with_their_probabilities() -> None:
    rng = random.Random(2)
    counts = Counter(random_child(Coin(0), rng).n for _ in range(4000))
    assert set(counts) == {1, 2}
    assert abs(counts[1] / 4000 - 0.75) < 0.03  # not the node's uniform random_child
    # the same stream as sample_outcome with an equally seeded rng
    one, other = random.Random(9), random.Random(9)
    assert [random_child(Coin(0), one) for _ in range(20)] == [
        Coin(0).sample_outcome(other) for _ in range(20)
    ]


def test_random_child_at_decision_nodes_is_unchanged() -> None:
    node = Coin(0, False)
    assert random_child(node, random.Random(3)) == node.random_child(random.Random(3))
    assert random_child(Plain(0), random.Random(3)) == Plain(1)
    assert random_child(Plain(3), random.Random(3)) is None
