"""Chance nodes in the algorithms: expectimax, MCTS, random walk, backtracking and ROLL events.

The dice game (:class:`game_trees.DiceNode`): roll a die, keep it or roll once more. Played
perfectly it is worth an expected face of 4.25 (keep 4, 5 and 6), a reward of 4.25 / 6.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from game_trees import (
    ChanceGraph,
    DiceNode,
    chance_graph_value,
    dice_value,
    expectimax_reference,
    random_chance_graph,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tree_ids import check_tree

from searchvid.domains import make_domain
from searchvid.errors import CapabilityError
from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.search import Event, EventKind, make_algorithm
from searchvid.search.algorithms.mcts import Mcts, MctsOptions, _TreeNode
from searchvid.search.algorithms.minimax import Minimax, MinimaxOptions
from searchvid.search.values import terminal_reward

K = EventKind
LOADED = (0.1, 0.1, 0.1, 0.1, 0.2, 0.4)  # a die loaded towards 5 and 6: 4.4 on average


def minimax(value: Any = None, seed: int = 0, **options: Any) -> Minimax:
    if value is None:
        return Minimax(MinimaxOptions(**options), rng=random.Random(seed))
    return Minimax(MinimaxOptions(**options), rng=random.Random(seed), value=value)


def mcts(seed: int = 0, **options: Any) -> Mcts:
    return Mcts(MctsOptions(**options), rng=random.Random(seed))


def shown(events: list[Event]) -> list[tuple[str, tuple[int, int, bool]]]:
    return [(e.kind.value, e.node.key()) for e in events if e.kind is not K.IMPROVE]


def keeps(face: int, rerolls: int = 1, weights: tuple[float, ...] | None = None) -> bool:
    """Whether perfect play keeps ``face`` with ``rerolls`` rerolls left."""
    return face >= dice_value(rerolls - 1, weights or (1 / 6,) * 6)


# -- expectimax --------------------------------------------------------------------------------


def test_the_dice_game_reference_values() -> None:
    assert dice_value(0) == 3.5
    assert dice_value(1) == pytest.approx(4.25)
    assert dice_value(2) == pytest.approx(14 / 3)
    assert dice_value(1, LOADED) == pytest.approx(0.2 * 5 + 0.4 * 6 + 0.4 * 4.4)


@pytest.mark.parametrize("rerolls", [0, 1, 2, 3])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"alpha_beta": False},
        {"transposition": False},
        {"alpha_beta": False, "transposition": False},
    ],
)
def test_expectimax_solves_the_dice_game_exactly(rerolls: int, options: dict[str, Any]) -> None:
    assert minimax(**options).solve(DiceNode(0, rerolls)) == pytest.approx(dice_value(rerolls) / 6)
    loaded = DiceNode(0, rerolls, weights=LOADED)
    assert minimax(**options).solve(loaded) == pytest.approx(dice_value(rerolls, LOADED) / 6)


@pytest.mark.parametrize("face", range(1, 7))
def test_expectimax_keeps_four_and_up(face: int) -> None:
    found = minimax().best_child(DiceNode(face, 1))
    assert found is not None
    child, value = found
    assert child.kept == keeps(face)
    assert value == pytest.approx(max(face, 3.5) / 6)
    assert minimax().best_child(DiceNode(0, 1)) is None  # a chance node has no best move


@st.composite
def chance_graphs(draw: st.DrawFn) -> ChanceGraph:
    seed = draw(st.integers(0, 2**32 - 1))
    depth = draw(st.integers(1, 5))
    layers = draw(st.lists(st.integers(1, 5), min_size=depth, max_size=depth))
    branching = draw(st.integers(1, 4))
    players = draw(st.sampled_from([1, 2]))
    return random_chance_graph(random.Random(seed), layers, branching, players=players)


OPTION_SETS = [
    {"alpha_beta": True, "transposition": True},
    {"alpha_beta": True, "transposition": False},
    {"alpha_beta": False, "transposition": True},
    {"alpha_beta": False, "transposition": False},
]


@settings(max_examples=200, deadline=None)
@given(chance_graphs())
def test_expectimax_agrees_with_a_plain_reference(graph: ChanceGraph) -> None:
    expected = expectimax_reference(graph)
    for options in OPTION_SETS:
        assert minimax(**options).solve(graph.root()) == pytest.approx(expected), options


@settings(max_examples=100, deadline=None)
@given(chance_graphs(), st.integers(1, 3))
def test_depth_limited_expectimax_agrees_with_a_plain_reference(
    graph: ChanceGraph, depth: int
) -> None:
    expected = expectimax_reference(graph, depth=depth)  # rolls do not count as depth
    for alpha_beta in (True, False):
        algorithm = minimax(
            chance_graph_value, depth=depth, alpha_beta=alpha_beta, transposition=False
        )
        assert algorithm.solve(graph.root()) == pytest.approx(expected)


@settings(max_examples=60, deadline=None)
@given(chance_graphs())
def test_expectimax_events_name_tree_nodes_and_improve_to_the_value(graph: ChanceGraph) -> None:
    root = graph.root()
    events = list(minimax(play=False).traverse(root))
    assert [e.step for e in events] == list(range(len(events)))
    check_tree(events)
    last = [e for e in events if e.kind is K.BACKTRACK][-1]
    assert last.node == root
    assert last.depth == 0
    assert last.value == pytest.approx(expectimax_reference(graph))
    improves = [e for e in events if e.kind is K.IMPROVE]
    if root.is_chance():
        assert not improves  # nature has no best move
    elif improves:
        assert improves[-1].value == pytest.approx(expectimax_reference(graph))


def test_expectimax_searches_every_outcome_with_alpha_beta_only_above_chance_nodes() -> None:
    events = list(minimax(play=False).traverse(DiceNode(0, 1)))
    # the root's six outcomes, each a decision between keeping and a reroll's six outcomes
    assert [e.node.key() for e in events if e.kind is K.ENTER and e.depth == 1] == [
        (f, 1, False) for f in range(1, 7)
    ]
    chance_means = [
        e.value for e in events if e.kind is K.BACKTRACK and e.node.key() == (0, 1, False)
    ]
    assert chance_means[-1] == pytest.approx(4.25 / 6)
    # running means of the outcomes searched so far: (1/6 * 3.5/6) / (1/6), ...
    assert chance_means[0] == pytest.approx(3.5 / 6)
    # the 6 is kept at once: a value of 1 cuts the reroll off (a cut-off at a decision node)
    prunes = [e for e in events if e.kind is K.PRUNE]
    assert [(e.node.key(), e.value) for e in prunes] == [((6, 1, False), 1.0)]
    assert minimax().status()[0].value == 0  # before any search


def test_expectimax_samples_average_over_drawn_outcomes() -> None:
    root = DiceNode(0, 0)  # one roll: the value is the mean face
    sampled = minimax(samples=1).solve(root)
    assert sampled * 6 in range(1, 7)  # one outcome drawn: its face
    # many samples approach the mean, reproducibly for a seed
    values = [minimax(samples=600, seed=s).solve(root) for s in range(3)]
    assert all(v == pytest.approx(3.5 / 6, abs=0.03) for v in values)
    assert minimax(samples=600, seed=1).solve(root) == values[1]
    # each drawn outcome is searched once, weighted by how often it came up
    events = list(minimax(samples=50, play=False).traverse(root))
    leaves = [e.node.face for e in events if e.kind is K.LEAF]
    assert len(leaves) == len(set(leaves)) <= 6


def test_expectimax_samples_keep_a_wide_chance_node_cheap() -> None:
    domain = make_domain("railroad", {"rules": "game"})
    algorithm = make_algorithm(
        "minimax",
        {"depth": 1, "samples": 2, "value": "score", "play": False},
        rng=random.Random(3),
        values=domain.values(),
    )
    events = list(algorithm.traverse(domain.root()))
    rolls = [e for e in events if e.depth == 1 and e.kind in (K.ENTER, K.LEAF)]
    assert 1 <= len(rolls) <= 2  # two draws of 168 outcomes
    assert events[-1].kind is K.BACKTRACK
    assert events[-1].depth == 0


def test_expectimax_plays_the_dice_game_with_moves_and_rolls() -> None:
    for seed in range(8):
        events = list(minimax(seed=seed).traverse(DiceNode(0, 2)))
        line = [e for e in events if e.kind in (K.MOVE, K.ROLL)]
        assert line[0].kind is K.MOVE
        assert line[0].depth == 0
        assert line[0].value == pytest.approx(dice_value(2) / 6)
        assert [e.depth for e in line] == list(range(len(line)))
        assert line[-1].node.is_terminal()
        for before, after in itertools.pairwise(line):
            # nature moves at chance nodes, the player elsewhere
            assert after.kind is (K.ROLL if before.node.is_chance() else K.MOVE)
            assert after.parent == before.id
            if after.kind is K.MOVE and before.node.rerolls:
                assert after.node.kept == keeps(before.node.face, before.node.rerolls)
        check_tree(events)


def test_the_roll_of_a_game_is_drawn_with_the_seed() -> None:
    def rolls(seed: int) -> list[int]:
        events = minimax(seed=seed).traverse(DiceNode(0, 3))
        return [e.node.face for e in events if e.kind is K.ROLL]

    assert rolls(4) == rolls(4)
    assert len({tuple(rolls(s)) for s in range(12)}) > 3


def test_minimax_needs_two_players_or_chance_nodes() -> None:
    minimax().check(DiceNode())  # one player with chance nodes: expectimax
    tree = make_domain("tree", {}).root()
    with pytest.raises(CapabilityError, match=r"to_move.*or chance nodes, for expectimax"):
        minimax().check(tree)


# -- MCTS --------------------------------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
def test_mcts_converges_to_the_right_decision(face: int) -> None:
    algorithm = mcts(seed=face, iterations=600)
    list(algorithm.traverse(DiceNode(face, 1)))
    kids = algorithm._tree.kids
    assert kids is not None
    best = max(kids, key=lambda kid: kid.visits)
    assert best.state.kept == keeps(face)


def outcome_children(node: _TreeNode) -> list[_TreeNode]:
    assert node.outcomes is not None
    assert node.kids is not None
    assert list(node.outcomes.values()) == node.kids
    return node.kids


def test_mcts_chance_nodes_keep_one_child_per_outcome_drawn() -> None:
    algorithm = mcts(seed=2, iterations=300)
    events = list(algorithm.traverse(DiceNode(0, 1)))
    root = algorithm._tree
    kids = outcome_children(root)
    assert sorted(k.state.face for k in kids) == [1, 2, 3, 4, 5, 6]
    assert sum(k.visits for k in kids) == root.visits == 300
    # nature, not UCT, picks the outcome: about a sixth of the iterations each
    assert all(30 <= k.visits <= 70 for k in kids)
    assert root.mean == pytest.approx(sum(k.total for k in kids) / 300)
    # each first draw of an outcome is the iteration's expansion
    expands = [e for e in events if e.kind is K.EXPAND and e.depth == 1]
    assert sorted(e.node.face for e in expands) == [1, 2, 3, 4, 5, 6]
    check_tree(events)


def test_mcts_selection_follows_drawn_outcomes_below_decisions() -> None:
    algorithm = mcts(seed=5, iterations=400)
    list(algorithm.traverse(DiceNode(3, 1)))
    reroll = next(k for k in algorithm._tree.kids or () if not k.state.kept)
    kids = outcome_children(reroll)
    # the iteration that added the chance node played out from it; every other one drew
    assert sum(k.visits for k in kids) == reroll.visits - 1
    assert all(k.state.is_terminal() for k in kids)
    # the chance node's mean is the mean of the faces drawn: close to 3.5
    assert reroll.mean == pytest.approx(3.5 / 6, abs=0.05)


def test_mcts_plan_mode_rolls_the_dice_on_the_committed_line() -> None:
    clear_choices = 0
    for seed in range(6):
        algorithm = mcts(seed=seed, iterations=200, mode="plan")
        events = list(algorithm.traverse(DiceNode(0, 2)))
        line = [e for e in events if e.kind in (K.MOVE, K.ROLL)]
        assert line[0].kind is K.MOVE
        assert line[0].node == DiceNode(0, 2)
        assert line[1].kind is K.ROLL  # the game starts with a roll: no search at a chance node
        assert events[1] is line[1]
        assert [e.depth for e in line] == list(range(len(line)))
        assert line[-1].node.is_terminal()
        for before, after in itertools.pairwise(line):
            assert after.kind is (K.ROLL if before.node.is_chance() else K.MOVE)
            assert after.parent == before.id
            # 200 iterations tell a clear choice (half a point or more), not a 4 kept from
            # a reroll worth 4.25 (two rerolls left)
            if after.kind is K.MOVE and before.node.rerolls:
                face, rerolls = before.node.face, before.node.rerolls
                if abs(face - dice_value(rerolls - 1)) >= 0.5:
                    clear_choices += 1
                    assert after.node.kept == keeps(face, rerolls)
        # a search runs before each decision, never before a roll
        for i, event in enumerate(events):
            if event.kind is K.ROLL:
                assert events[i - 1].kind in (K.MOVE, K.ROLL)
        check_tree(events)
    assert clear_choices >= 4


def test_mcts_plan_mode_keeps_the_subtree_of_the_outcome_rolled() -> None:
    algorithm = mcts(seed=1, iterations=300, mode="plan")
    stream = algorithm.traverse(DiceNode(3, 1))
    events: list[Event] = []
    for event in stream:
        events.append(event)
        if event.kind is K.ROLL:
            break
    roll = events[-1]
    # the reroll was committed and rolled: the outcome's tree node came from the search
    assert any(e.kind is K.EXPAND and e.id == roll.id for e in events)
    assert algorithm._tree.state == roll.node
    assert algorithm._tree.state is roll.node  # the state actually rolled


def test_mcts_max_moves_counts_decisions_not_rolls() -> None:
    events = list(mcts(iterations=50, mode="plan", max_moves=1).traverse(DiceNode(0, 2)))
    line = [e.kind for e in events if e.kind in (K.MOVE, K.ROLL)]
    assert line == [K.MOVE, K.ROLL, K.MOVE]


def test_mcts_rollouts_draw_outcomes_with_their_probabilities() -> None:
    root = DiceNode(0, 0, weights=LOADED)
    algorithm = mcts(seed=9, iterations=2000)
    events = list(algorithm.traverse(root))
    kids = outcome_children(algorithm._tree)
    share = {k.state.face: k.visits / 2000 for k in kids}
    assert share[6] == pytest.approx(0.4, abs=0.04)
    assert share[1] == pytest.approx(0.1, abs=0.03)
    # with avoid_cycles too (nature's outcomes are never refused)
    again = mcts(seed=9, iterations=200, avoid_cycles=True, rollout_events=True)
    assert sum(e.kind is K.LEAF for e in again.traverse(DiceNode(0, 2))) == 200
    assert events


def test_mcts_plays_the_railroad_game_with_rolls() -> None:
    domain = make_domain("railroad", {"rules": "game"})
    algorithm = make_algorithm(
        "mcts",
        {"mode": "plan", "iterations": 8, "reward": "score", "max_moves": 6},
        rng=random.Random(2),
        values=domain.values(),
        goal=domain.is_goal,
    )
    events = list(algorithm.traverse(domain.root()))
    line = [e for e in events if e.kind in (K.MOVE, K.ROLL)]
    assert [e.kind for e in line[:2]] == [K.MOVE, K.ROLL]
    assert line[1].node.dice is not None  # the dice of round 1
    assert sum(e.kind is K.MOVE for e in line) == 7  # the start and six decisions
    assert sum(e.kind is K.ROLL for e in line) >= 2  # round 1 has at most five decisions
    check_tree(events)


# -- random walk and backtracking --------------------------------------------------------------


def test_random_walk_follows_nature_and_shows_each_roll() -> None:
    # (seed 8: walks that end both ways, on a kept face and on the last roll)
    algorithm = make_algorithm("random-walk", {"restarts": 3}, rng=random.Random(8))
    events = list(algorithm.traverse(DiceNode(0, 1)))
    assert shown(events) == [
        ("enter", (0, 1, False)),
        ("roll", (5, 1, False)),  # the walk goes on from an outcome: ROLL, not ENTER
        ("leaf", (5, 1, True)),
        ("restart", (0, 1, False)),
        ("roll", (1, 1, False)),
        ("enter", (0, 0, False)),
        ("leaf", (6, 0, False)),  # an outcome that ends the walk is a LEAF
        ("restart", (0, 1, False)),
        ("roll", (5, 1, False)),
        ("enter", (0, 0, False)),
        ("leaf", (6, 0, False)),
    ]
    check_tree(events)


def test_random_walk_draws_outcomes_with_their_probabilities() -> None:
    algorithm = make_algorithm("random-walk", {"restarts": 3000}, rng=random.Random(4))
    rolled = Counter(
        e.node.face for e in algorithm.traverse(DiceNode(0, 0, weights=LOADED)) if e.kind is K.LEAF
    )
    assert rolled[6] / 3000 == pytest.approx(0.4, abs=0.03)
    assert rolled[1] / 3000 == pytest.approx(0.1, abs=0.02)


def test_random_walk_with_avoid_cycles_follows_nature_too() -> None:
    algorithm = make_algorithm(
        "random-walk", {"restarts": 20, "avoid_cycles": True}, rng=random.Random(1)
    )
    events = list(algorithm.traverse(DiceNode(0, 2)))
    assert sum(e.kind is K.LEAF for e in events) == 20
    assert all(e.node.is_terminal() for e in events if e.kind is K.LEAF)


def test_backtracking_enumerates_every_outcome() -> None:
    algorithm = make_algorithm("backtracking", {}, rng=random.Random())
    events = list(algorithm.traverse(DiceNode(0, 1)))
    assert shown(events)[:8] == [
        ("enter", (0, 1, False)),
        ("enter", (1, 1, False)),  # outcomes are children, in outcomes() order
        ("leaf", (1, 1, True)),
        ("backtrack", (1, 1, False)),
        ("enter", (0, 0, False)),
        ("leaf", (1, 0, False)),
        ("backtrack", (0, 0, False)),
        ("leaf", (2, 0, False)),
    ]
    leaves = [e.node.key() for e in events if e.kind is K.LEAF]
    assert len(leaves) == 6 * (1 + 6)  # exhaustive: every roll below every decision
    assert not any(e.kind is K.ROLL for e in events)  # nothing is drawn: no ROLL
    check_tree(events)


# -- frames ------------------------------------------------------------------------------------


def test_rolls_are_frames_of_a_played_game() -> None:
    events = list(mcts(seed=3, iterations=30, mode="plan").traverse(DiceNode(0, 2)))
    framed = [e for e, f in assign_frames(events, VideoOptions(frames="moves")) if f is not None]
    assert framed == [e for e in events if e.kind in (K.MOVE, K.ROLL)]
    assert K.ROLL in {e.kind for e in framed}
    walk = make_algorithm("random-walk", {"restarts": 2}, rng=random.Random(2))
    walked = list(walk.traverse(DiceNode(0, 1)))
    every = [e for e, f in assign_frames(walked, VideoOptions(frames="all")) if f is not None]
    assert [e.kind for e in every if e.kind is K.ROLL] == [K.ROLL, K.ROLL]


def test_roll_is_a_state_showing_kind() -> None:
    assert K.ROLL.value == "roll"
    assert K.ROLL.shows_state


def test_terminal_reward_at_dice_leaves() -> None:
    assert terminal_reward(DiceNode(5, 0)) == 5 / 6
    assert terminal_reward(DiceNode(0, 0)) == 0.5
