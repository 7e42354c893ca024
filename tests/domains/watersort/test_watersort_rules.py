"""Water Sort rules: pours, useless-pour pruning, goal, canonical keys, estimates."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.domains.watersort import SEED_TUBES
from searchvid.domains.watersort.rules import (
    ProgressValue,
    RunsHeuristic,
    SpreadHeuristic,
    WaterState,
    runs,
    sorted_fraction,
)
from searchvid.search.node import Capability, capabilities_of, key_of


def state(*tubes: list[int], capacity: int = 4) -> WaterState:
    return WaterState.from_lists(tubes, capacity)


def test_seed_root_can_only_pour_into_the_first_empty_tube() -> None:
    root = WaterState.from_lists(SEED_TUBES)
    assert root.moves() == tuple((i, 0) for i in range(2, 14))
    first = next(iter(root.children()))
    assert first.as_lists()[:3] == [[1], [], [4, 3, 2]]
    assert first.pour == (2, 0)
    assert first.pours == 1


def test_a_pour_moves_the_whole_top_run_when_it_fits() -> None:
    after = state([1, 2, 2], [3, 2], [], [1, 1, 3, 3]).after((0, 1))
    assert after.as_lists() == [[1], [3, 2, 2, 2], [], [1, 1, 3, 3]]


def test_a_pour_moves_only_what_fits() -> None:
    after = state([1, 2, 2, 2], [3, 3, 2], [1, 1, 1, 3]).after((0, 1))
    assert after.as_lists() == [[1, 2, 2], [3, 3, 2, 2], [1, 1, 1, 3]]


def test_useless_pours_are_not_offered() -> None:
    # tube 0 is sorted (never a source); tube 1 is one colour (never into an empty tube);
    # tubes 2 and 5 may go onto a 2 or into the first empty tube (3), never into tube 4.
    node = state([1, 1, 1, 1], [2, 2], [3, 3, 2], [], [], [3, 2])
    assert node.moves() == ((1, 2), (1, 5), (2, 1), (2, 3), (2, 5), (5, 1), (5, 2), (5, 3))


ISSUE_11_TUBES = (
    [3, 3, 6, 4],
    [2, 6, 6, 1],
    [1, 5, 5, 5],
    [2, 1, 2, 6],
    [4, 4, 3, 4],
    [1, 5],
    [3],
    [2],
)
"""Issue 11's dead end: its one legal pour swaps [1,5,5,5] and [1,5]."""


def test_a_pour_that_only_swaps_two_tubes_is_not_offered() -> None:
    # [1,5,5,5] onto [1,5]: [1,5] and [1,5,5,5], the same tubes in the other order
    assert state([1, 5, 5, 5], [1, 5], [2, 2, 1, 1], [2, 2], []).moves() == (
        (0, 4),
        (1, 4),
        (2, 4),
    )
    # [2,1,5,5] onto [2,1,5] (room for one): [2,1,5] and [2,1,5,5]; onto [5] it is a move
    node = state([2, 1, 5, 5], [2, 1, 5], [2, 2, 1, 1], [5], [])
    assert node.is_legal((0, 1))
    assert node.after((0, 1)).key() == node.key()
    assert node.moves() == ((0, 3), (0, 4), (1, 3), (1, 4), (2, 4), (3, 1))
    # [10,7,4,10] onto [10] moves one 10 only: [10,7,4] and [10,10] are new
    node = state([10, 7, 4, 10], [10], [7, 7, 7, 4], [4, 4, 10])
    assert node.moves() == ((0, 1), (0, 3), (1, 3), (3, 1))
    # onto a tube holding something else below the 5, the pour changes the state
    node = state([1, 5, 5, 5], [2, 5], [1, 1, 2, 2], [2, 1], [])
    assert node.moves() == ((0, 1), (0, 4), (1, 4), (2, 4), (3, 4))
    assert node.after((0, 1)).as_lists()[:2] == [[1, 5], [2, 5, 5, 5]]


def test_a_state_whose_only_pour_swaps_two_tubes_is_a_dead_end() -> None:
    node = state(*ISSUE_11_TUBES)
    assert node.is_legal((2, 5))
    assert node.after((2, 5)).key() == node.key()
    assert node.moves() == ()
    assert list(node.children()) == []
    assert node.random_child(random.Random(0)) is None
    assert node.is_terminal()
    assert not node.is_solved()
    assert node.reward() == 0.0


def test_legal_pours_follow_the_game_rules() -> None:
    node = state([1, 2], [2], [1, 1, 2, 2], [])
    assert node.is_legal((0, 1))
    assert node.is_legal((1, 0))
    assert node.is_legal((0, 3))
    assert not node.is_legal((0, 2))  # full
    assert not node.is_legal((3, 0))  # empty source
    assert not node.is_legal((0, 0))
    assert not node.is_legal((0, 4))


def test_solved_terminal_and_reward() -> None:
    solved = state([1, 1, 1, 1], [], [2, 2, 2, 2])
    assert solved.is_solved()
    assert solved.is_terminal()
    assert solved.reward() == 1.0
    assert list(solved.children()) == []
    stuck = state([1, 2, 1, 2], [2, 1, 2, 1])
    assert not stuck.is_solved()
    assert stuck.is_terminal()
    assert stuck.reward() == 0.0
    open_ = state([1, 2, 1, 2], [2, 1, 2, 1], [])
    assert not open_.is_terminal()
    assert not state([1, 1], [1, 1], capacity=4).is_solved()  # half-full tubes are not sorted


def test_capabilities() -> None:
    assert capabilities_of(state([1])) == {
        Capability.TERMINAL,
        Capability.REWARD,
        Capability.KEY,
        Capability.RANDOM_CHILD,
    }


def test_key_ignores_tube_order_but_equality_does_not() -> None:
    a = state([1, 2], [2, 1], [], [1, 2])
    b = state([], [1, 2], [1, 2], [2, 1])
    assert a.key() == b.key()
    assert key_of(a) == key_of(b)
    assert a != b
    assert a.key() != state([2, 1], [2, 1], [], [1, 2]).key()
    # [1] + [2] must not collide with [1, 2] + []
    assert state([1], [2]).key() != state([1, 2], []).key()


def test_last_pour_does_not_affect_identity() -> None:
    a = state([1], [1, 2, 2], [2, 2, 1, 1])
    via_pour = state([1, 1], [1, 2, 2], [2, 2, 1]).after((2, 0))
    assert via_pour.as_lists() == [[1, 1, 1], [1, 2, 2], [2, 2]]
    twin = state([1, 1, 1], [1, 2, 2], [2, 2])
    assert via_pour == twin
    assert hash(via_pour) == hash(twin)
    assert via_pour.key() == twin.key()
    assert via_pour.pour == (2, 0)
    assert twin.pour is None
    assert a != twin


def test_random_child_is_the_child_of_one_randrange() -> None:
    root = WaterState.from_lists(SEED_TUBES)
    moves = root.moves()
    for seed in range(5):
        expected = root.after(moves[random.Random(seed).randrange(len(moves))])
        assert root.random_child(random.Random(seed)) == expected
    assert state([1, 1], [1, 1], capacity=2).random_child(random.Random(0)) is None


def test_runs_of_a_tube() -> None:
    assert runs(b"") == 0
    assert runs(b"\x01\x01") == 1
    assert runs(b"\x01\x02\x01") == 3


def test_heuristics_and_values_on_the_seed_and_on_a_solved_state() -> None:
    root = WaterState.from_lists(SEED_TUBES)
    assert RunsHeuristic()(root) == 39.0  # exact here: the optimum is 39 pours
    assert SpreadHeuristic()(root) == 34.0
    assert ProgressValue()(root) == pytest.approx(1 - 39 / 48)
    assert sorted_fraction(root) == 0.0
    solved = state([1, 1, 1, 1], [], [2, 2, 2, 2])
    assert RunsHeuristic()(solved) == 0.0
    assert SpreadHeuristic()(solved) == 0.0
    assert ProgressValue()(solved) == 1.0
    assert sorted_fraction(solved) == 1.0
    # 4 runs; colour 2 lies on no bottom, so it must be poured into an empty tube once:
    # h = 4 runs - 1 bottom colour = 3, which is also the optimum here
    assert RunsHeuristic()(state([1, 2, 2, 2], [1, 1, 1, 2], [])) == 3.0


@st.composite
def puzzles(draw: st.DrawFn) -> WaterState:
    """A legal puzzle: every colour ``capacity`` times, shuffled into tubes, some empties."""
    capacity = draw(st.integers(2, 5))
    colours = draw(st.integers(1, 5))
    cells = [c for c in range(1, colours + 1) for _ in range(capacity)]
    cells = draw(st.permutations(cells))
    tubes: list[list[int]] = []
    index = 0
    while index < len(cells):
        size = draw(st.integers(1, capacity))
        tubes.append(list(cells[index : index + size]))
        index += size
    tubes.extend([] for _ in range(draw(st.integers(0, 2))))
    order = draw(st.permutations(range(len(tubes))))
    return WaterState.from_lists([tubes[i] for i in order], capacity)


def walk(node: WaterState, choices: list[int]) -> list[WaterState]:
    """The states met by following ``choices`` (indices into each node's children)."""
    path = [node]
    for choice in choices:
        kids = list(path[-1].children())
        if not kids:
            break
        path.append(kids[choice % len(kids)])
    return path


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.lists(st.integers(0, 1000), max_size=12))
def test_children_of_legal_states_are_legal_and_conserve_colours(
    root: WaterState, choices: list[int]
) -> None:
    counts = Counter(b"".join(root.tubes))
    for parent in walk(root, choices):
        for pour, child in zip(parent.moves(), parent.children(), strict=True):
            assert parent.is_legal(pour)
            assert child.pour == pour
            assert child.pours == parent.pours + 1
            assert Counter(b"".join(child.tubes)) == counts
            assert all(len(t) <= child.capacity for t in child.tubes)
            source, target = pour
            moved = len(parent.tubes[source]) - len(child.tubes[source])
            assert moved >= 1
            assert len(child.tubes[target]) - len(parent.tubes[target]) == moved
            assert set(child.tubes[target][-moved:]) == {parent.tubes[source][-1]}
            changed = [i for i, t in enumerate(child.tubes) if t != parent.tubes[i]]
            assert changed == sorted(pour)
            assert child.key() != parent.key()  # a pour that changes nothing is no move
        assert parent.is_terminal() == (not parent.moves())
        assert {c.key() for c in parent.children()} == useful_results(parent)


def useful_results(node: WaterState) -> set[bytes]:
    """The keys reached by legal pours, less those that cannot help: out of a sorted tube,
    or leaving the state as it was up to tube order."""
    n, cap = len(node.tubes), node.capacity
    keys = set()
    for i, j in itertools.product(range(n), repeat=2):
        source = node.tubes[i]
        if node.is_legal((i, j)) and not (len(source) == cap and len(set(source)) == 1):
            keys.add(node.after((i, j)).key())
    keys.discard(node.key())
    return keys


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.lists(st.integers(0, 1000), max_size=12))
def test_runs_heuristic_is_consistent_and_zero_at_goals(
    root: WaterState, choices: list[int]
) -> None:
    h = RunsHeuristic()
    spread = SpreadHeuristic()
    for parent in walk(root, choices):
        assert (h(parent) == 0) == parent.is_solved()
        assert spread(parent) <= h(parent)
        assert 0.0 <= ProgressValue()(parent) <= 1.0
        for child in parent.children():
            assert h(parent) <= 1 + h(child)
            assert spread(parent) <= 1 + spread(child)


@settings(max_examples=100, deadline=None)
@given(puzzles(), st.randoms(use_true_random=False))
def test_key_ignores_any_tube_order(root: WaterState, rng: random.Random) -> None:
    tubes = list(root.tubes)
    rng.shuffle(tubes)
    shuffled = WaterState(tuple(tubes), root.capacity)
    assert shuffled.key() == root.key()
    assert sorted(c.key() for c in shuffled.children()) == sorted(c.key() for c in root.children())
