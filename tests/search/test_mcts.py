"""MCTS: event grammar, bandit arms, two-player perspective, plan mode, cycles, memory."""

from __future__ import annotations

import gc
import itertools
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest
from game_trees import (
    DrawingGameNode,
    DrawingGraphNode,
    GameNode,
    Graph,
    GraphNode,
    NimNode,
    graph_value,
    random_graph,
)

from searchvid.domains import make_domain
from searchvid.errors import CapabilityError
from searchvid.search import Event, EventKind, Recorder, make_algorithm, run
from searchvid.search.algorithms.mcts import Mcts, MctsOptions, _TreeNode
from searchvid.search.node import Capability

K = EventKind


def events_of(algorithm: Any, root: Any) -> list[Event]:
    recorder = Recorder()
    run(algorithm, root, recorder)
    return recorder.events


def mcts(seed: int = 0, value: Any = None, **options: Any) -> Mcts:
    opts = MctsOptions(**options)
    if value is None:
        return Mcts(opts, rng=random.Random(seed))
    return Mcts(opts, rng=random.Random(seed), value=value)


def iterations_of(events: list[Event]) -> list[list[Event]]:
    """The events of each iteration (each starts with SELECT); MOVE events dropped."""
    result: list[list[Event]] = []
    for event in events:
        if event.kind is K.MOVE:
            continue
        if event.kind is K.SELECT:
            result.append([])
        result[-1].append(event)
    return result


def assert_grammar(events: list[Event]) -> None:
    """Each iteration: SELECT, EXPAND?, ROLLOUT*, LEAF, IMPROVE?, BACKUP; steps count from 0."""
    assert [e.step for e in events] == list(range(len(events)))
    for it in iterations_of(events):
        kinds = [e.kind for e in it]
        assert kinds[0] is K.SELECT
        rest = kinds[1:]
        if rest and rest[0] is K.EXPAND:
            assert it[1].depth == it[0].depth + 1
            rest = rest[1:]
        while rest and rest[0] is K.ROLLOUT:
            rest = rest[1:]
        assert rest in ([K.LEAF, K.BACKUP], [K.LEAF, K.IMPROVE, K.BACKUP])
        leaf = next(e for e in it if e.kind is K.LEAF)
        assert leaf.value is not None
        assert 0.0 <= leaf.value <= 1.0
        assert it[-1].value == leaf.value  # BACKUP: the reward, for player 0


# -- one player --------------------------------------------------------------------------------


def bandit(means: Sequence[float], pulls: int = 8) -> Graph:
    """Root -> one arm per mean -> ``pulls`` leaves, a fraction ``mean`` of them worth 1."""
    arms = len(means)
    kids: list[tuple[int, ...]] = [tuple(range(1, arms + 1))]
    values = [0.0] * (arms + 1)
    for arm, mean in enumerate(means):
        first = 1 + arms + arm * pulls
        kids.append(tuple(range(first, first + pulls)))
        wins = round(mean * pulls)
        values.extend(1.0 if i < wins else 0.0 for i in range(pulls))
    kids.extend(() for _ in range(arms * pulls))
    return Graph(tuple(kids), values=tuple(values))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("cls", [GraphNode, DrawingGraphNode])
def test_bandit_picks_the_best_arm(seed: int, cls: type[GraphNode]) -> None:
    graph = bandit([0.25, 0.5, 0.875, 0.625, 0.375])
    algorithm = mcts(seed, graph_value, iterations=300, mode="plan", max_moves=1)
    events = events_of(algorithm, graph.root(cls))
    moves = [e for e in events if e.kind is K.MOVE]
    assert [(e.node.id, e.depth) for e in moves] == [(0, 0), (3, 1)]
    assert moves[1].value == pytest.approx(0.875, abs=0.1)
    assert_grammar(events)
    assert sum(e.kind is K.SELECT for e in events) == 300


def test_search_mode_runs_the_iterations_and_improves() -> None:
    graph = bandit([0.25, 0.5, 1.0])
    events = events_of(mcts(1, graph_value, iterations=50), graph.root())
    assert_grammar(events)
    assert sum(e.kind is K.SELECT for e in events) == 50
    improves = [e for e in events if e.kind is K.IMPROVE]
    assert improves
    assert improves[-1].value == 1.0
    values = [e.value for e in improves]
    assert values == sorted(set(values))  # strictly increasing
    for i, event in enumerate(events):
        if event.kind is K.IMPROVE:
            assert events[i - 1].kind is K.LEAF
            assert events[i - 1].node == event.node


def test_first_iterations_expand_the_root() -> None:
    graph = bandit([0.5, 0.5, 0.5, 0.5])
    events = events_of(mcts(2, graph_value, iterations=4), graph.root())
    its = iterations_of(events)
    assert [it[0].node.id for it in its] == [0, 0, 0, 0]  # SELECT the root until expanded
    assert sorted(it[1].node.id for it in its) == [1, 2, 3, 4]  # each arm expanded once
    for it in its:
        leaf = next(e for e in it if e.kind is K.LEAF)
        assert leaf.depth == 2
        assert leaf.node.id in graph.kids[it[1].node.id]


def test_same_seed_same_events() -> None:
    graph = bandit([0.3, 0.6, 0.9])

    def trace(seed: int) -> list[tuple[str, int, int, float | None]]:
        algorithm = mcts(seed, graph_value, iterations=120, rollout_events=True)
        return [
            (e.kind.value, e.node.id, e.depth, e.value) for e in events_of(algorithm, graph.root())
        ]

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)


def line_graph(length: int, branching: int) -> Graph:
    """A complete tree ``length`` deep; leaf values rise with the id."""
    kids: list[tuple[int, ...]] = []
    size, next_id = 1, 1
    for _ in range(length):
        for _ in range(size):
            kids.append(tuple(range(next_id, next_id + branching)))
            next_id += branching
        size *= branching
    kids.extend(() for _ in range(size))
    values = tuple(i / len(kids) for i in range(len(kids)))
    return Graph(tuple(kids), values=values)


def test_rollout_events_and_limit() -> None:
    graph = line_graph(6, 2)
    events = events_of(mcts(3, graph_value, iterations=20, rollout_events=True), graph.root())
    assert_grammar(events)
    first = iterations_of(events)[0]
    assert [e.kind for e in first[:2]] == [K.SELECT, K.EXPAND]
    depths = [e.depth for e in first if e.kind in (K.EXPAND, K.ROLLOUT, K.LEAF)]
    assert depths == [1, 2, 3, 4, 5, 6]
    for a, b in itertools.pairwise(e for e in first if e.kind is not K.IMPROVE):
        if b.kind in (K.ROLLOUT, K.LEAF) and a.kind is not K.SELECT:
            assert b.node.id in graph.kids[a.node.id]
    limited = events_of(mcts(3, graph_value, iterations=20, rollout_limit=2), graph.root())
    assert_grammar(limited)
    for it in iterations_of(limited):
        start = it[1].depth if it[1].kind is K.EXPAND else it[0].depth
        leaf = next(e for e in it if e.kind is K.LEAF)
        assert leaf.depth <= start + 2
    assert any(graph.kids[e.node.id] for e in limited if e.kind is K.LEAF)  # cut off


def test_plan_mode_plays_a_line_to_the_end() -> None:
    graph = line_graph(5, 3)
    events = events_of(mcts(4, graph_value, iterations=60, mode="plan"), graph.root())
    moves = [e for e in events if e.kind is K.MOVE]
    assert [e.depth for e in moves] == list(range(6))
    for a, b in itertools.pairwise(moves):
        assert b.node.id in graph.kids[a.node.id]
    assert not graph.kids[moves[-1].node.id]
    assert events[-1].kind is K.MOVE
    assert moves[0].value is None
    assert moves[-1].value == graph.values[moves[-1].node.id]
    # between two MOVEs: exactly `iterations` iterations, below the new root
    blocks: list[list[Event]] = [[]]
    for e in events[1:]:
        if e.kind is K.MOVE:
            blocks.append([])
        else:
            blocks[-1].append(e)
    for depth, block in enumerate(blocks[:-1]):
        selects = [e for e in block if e.kind is K.SELECT]
        assert len(selects) == 60
        assert min(e.depth for e in selects) >= depth  # the kept subtree may go deeper


def test_plan_mode_max_moves_and_goal() -> None:
    graph = line_graph(5, 2)
    events = events_of(mcts(4, graph_value, iterations=10, mode="plan", max_moves=2), graph.root())
    assert [e.depth for e in events if e.kind is K.MOVE] == [0, 1, 2]

    def goal(node: GraphNode) -> bool:
        return node.id in graph.kids[0]

    algorithm = Mcts(
        MctsOptions(iterations=10, mode="plan"),
        rng=random.Random(),
        value=graph_value,
        goal=goal,
    )
    events = events_of(algorithm, graph.root())
    assert [e.depth for e in events if e.kind is K.MOVE] == [0, 1]


# -- cycles, filtering, memory -----------------------------------------------------------------


def test_avoid_cycles_rollouts_never_revisit() -> None:
    # a cyclic puzzle: 0 <-> 1 <-> 2 <-> 3 -> 4 (the only dead end, worth 1)
    graph = Graph(((1,), (0, 2), (1, 3), (2, 4), ()), values=(0.0, 0.1, 0.2, 0.3, 1.0))
    for cls in (GraphNode, DrawingGraphNode):
        algorithm = mcts(7, graph_value, iterations=30, avoid_cycles=True, rollout_events=True)
        events = events_of(algorithm, graph.root(cls))
        assert_grammar(events)
        for it in iterations_of(events):
            # the playout's states by depth (an empty playout ends where it starts)
            states = {e.depth: e.node.id for e in it if e.kind in (K.EXPAND, K.ROLLOUT, K.LEAF)}
            assert len(states) == len(set(states.values()))
        assert max(e.value or 0.0 for e in events if e.kind is K.LEAF) == 1.0


def test_avoid_cycles_stuck_rollout_is_scored() -> None:
    cycle = Graph(((1,), (2,), (0,)), values=(0.1, 0.2, 0.3))
    algorithm = mcts(0, graph_value, iterations=5, avoid_cycles=True, rollout_events=True)
    events = events_of(algorithm, cycle.root(DrawingGraphNode))
    first = iterations_of(events)[0]
    assert [(e.kind, e.node.id) for e in first[:4]] == [
        (K.SELECT, 0),
        (K.EXPAND, 1),
        (K.LEAF, 2),
        (K.IMPROVE, 2),
    ]
    assert first[2].value == 0.3


PATH = Graph(((1,), (0, 2), (1, 3), (2,)), values=(0.0, 0.1, 0.2, 0.3))
"""0 <-> 1 <-> 2 <-> 3: no dead end, so every line runs into states it has been through."""


@pytest.mark.parametrize("cls", [GraphNode, DrawingGraphNode])
def test_avoid_cycles_plan_mode_ends_when_every_move_goes_back(cls: type[GraphNode]) -> None:
    algorithm = mcts(0, graph_value, iterations=10, mode="plan", avoid_cycles=True)
    events = list(itertools.islice(algorithm.traverse(PATH.root(cls)), 10_000))
    assert len(events) < 10_000, "plan mode kept moving back to committed states"
    moves = [(e.node.id, e.depth) for e in events if e.kind is K.MOVE]
    assert moves == [(0, 0), (1, 1), (2, 2), (3, 3)]
    assert events[-1].kind is K.MOVE  # stuck at 3 (its only move goes back): no more blocks
    assert sum(e.kind is K.SELECT for e in events) == 30
    assert_grammar(events)


def ring(size: int) -> Graph:
    """Nodes 0..size-1 on a ring, each with a move to either neighbour (a two-player game
    where the node's parity is the player to move, when size is even)."""
    kids = tuple(((i + 1) % size, (i - 1) % size) for i in range(size))
    return Graph(
        kids,
        values=tuple(i / size for i in range(size)),
        rewards=(0.5,) * size,
        to_move=tuple(i % 2 for i in range(size)),
    )


@pytest.mark.parametrize("mode", ["search", "plan"])
@pytest.mark.parametrize("cls", [GraphNode, DrawingGraphNode])
def test_avoid_cycles_tree_paths_never_repeat_a_state(mode: str, cls: type[GraphNode]) -> None:
    # on a ring, a line that never repeats a state goes one way round: the state at depth d
    # is d or -d (mod 6), and no line is longer than 5 moves
    graph = ring(6)
    algorithm = mcts(
        1, graph_value, iterations=150, mode=mode, avoid_cycles=True, rollout_events=True
    )
    events = list(itertools.islice(algorithm.traverse(graph.root(cls)), 100_000))
    assert len(events) < 100_000
    assert_grammar(events)
    for e in events:
        assert e.depth <= 5
        assert e.node.id in (e.depth % 6, -e.depth % 6)
    if mode == "plan":
        moves = [e.node.id for e in events if e.kind is K.MOVE]
        assert len(moves) == 6  # round the ring, then stuck
        committed: set[int] = set()
        for e in events:
            if e.kind is K.MOVE:
                committed.add(e.node.id)
            elif e.kind in (K.SELECT, K.EXPAND, K.ROLLOUT, K.LEAF):
                assert e.node.id not in committed or e.kind is K.SELECT
    else:
        assert max(e.depth for e in events if e.kind is K.SELECT) == 5  # the tree got deep


@pytest.mark.parametrize("seed", range(4))
def test_avoid_cycles_random_opponent_never_moves_back(seed: int) -> None:
    graph = ring(8)
    algorithm = mcts(seed, iterations=20, mode="plan", opponent="random", avoid_cycles=True)
    events = list(itertools.islice(algorithm.traverse(graph.root(GameNode)), 100_000))
    moves = [e.node.id for e in events if e.kind is K.MOVE]
    assert len(moves) == 8
    assert moves in (list(range(8)), [0, *range(7, 0, -1)])
    assert events[-1].kind is K.MOVE


class EndlessNode(GraphNode):
    """Declares is_terminal() but never calls a state terminal (dead ends are just stuck)."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY, Capability.TERMINAL})

    def is_terminal(self) -> bool:
        return False


def test_plan_mode_ends_at_a_dead_end_without_iterating() -> None:
    graph = Graph(((1,), ()), values=(0.0, 1.0))
    events = events_of(mcts(0, graph_value, iterations=1, mode="plan"), graph.root(EndlessNode))
    assert [(e.kind, e.node.id) for e in events] == [
        (K.MOVE, 0),
        (K.SELECT, 0),
        (K.EXPAND, 1),
        (K.LEAF, 1),
        (K.IMPROVE, 1),
        (K.BACKUP, 1),
        (K.MOVE, 1),
    ]


# -- committing a solution ---------------------------------------------------------------------


def test_commit_solution_plays_the_shortest_goal_line_out() -> None:
    graph = random_graph(random.Random(0), [3, 5, 8, 10, 10], 3, share=False)  # a tree
    goals = {i for i, kids in enumerate(graph.kids) if not kids and graph.rewards[i] == 1.0}
    parent = {c: p for p, kids in enumerate(graph.kids) for c in kids}

    def goal(node: GraphNode) -> bool:
        return node.id in goals

    def play(seed: int, commit: bool) -> list[Event]:
        options = MctsOptions(iterations=8, mode="plan", commit_solution=commit)
        algorithm = Mcts(options, rng=random.Random(seed), value=graph_value, goal=goal)
        return events_of(algorithm, graph.root())

    choices = 0
    for seed in range(8):
        events = play(seed, True)
        last = max(i for i, e in enumerate(events) if e.kind is not K.MOVE)
        start = max(i for i in range(last) if events[i].kind is K.MOVE) + 1
        block_root = events[start - 1]
        found = [e for e in events[start : last + 1] if e.kind is K.LEAF and goal(e.node)]
        line = events[last + 1 :]
        if not found:  # the plan ended at a dead end that is no goal
            assert len(line) == 1
            assert not graph.kids[line[0].node.id]
            continue
        choices += len({e.depth for e in found}) > 1
        target = min(found, key=lambda e: e.depth).node.id  # the first of the shortest
        path = [target]
        while path[-1] != block_root.node.id:
            path.append(parent[path[-1]])
        path.reverse()
        assert [e.node.id for e in line] == path[1:]
        assert [e.depth for e in line] == list(range(block_root.depth + 1, line[-1].depth + 1))
        assert [e.value for e in line] == [graph.values[i] for i in path[1:]]
        # the same search without commit_solution, up to the end of that block
        assert play(seed, False)[: last + 1] == events[: last + 1]
    assert choices >= 2  # blocks that saw goals at several depths took the nearest


def test_commit_solution_respects_max_moves() -> None:
    graph = Graph(((1,), (2,), (3,), ()), values=(0.0, 0.1, 0.2, 1.0))

    def goal(node: GraphNode) -> bool:
        return node.id == 3

    options = MctsOptions(iterations=1, mode="plan", max_moves=2)
    events = events_of(
        Mcts(options, rng=random.Random(0), value=graph_value, goal=goal), graph.root()
    )
    assert [(e.kind, e.node.id, e.depth) for e in events] == [
        (K.MOVE, 0, 0),
        (K.SELECT, 0, 0),
        (K.EXPAND, 1, 1),
        (K.LEAF, 3, 3),
        (K.IMPROVE, 3, 3),
        (K.BACKUP, 1, 1),
        (K.MOVE, 1, 1),
        (K.MOVE, 2, 2),
    ]


def water_sort_plan(seed: int, **options: Any) -> tuple[Any, list[Event]]:
    domain = make_domain("watersort", {})
    algorithm = make_algorithm(
        "mcts",
        {"mode": "plan", "iterations": 100, "avoid_cycles": True, **options},
        rng=random.Random(seed),
        values=domain.values(),
        default_value=domain.default_value,
        goal=domain.is_goal,
    )
    return domain, events_of(algorithm, domain.root())


def test_commit_solution_solves_water_sort_after_one_block() -> None:
    domain, events = water_sort_plan(0)
    moves = [e.node for e in events if e.kind is K.MOVE]
    assert moves[0] == domain.root()
    for a, b in itertools.pairwise(moves):
        assert b in a.children()
    assert domain.is_goal(moves[-1])
    assert len({m.key() for m in moves}) == len(moves)
    assert len(moves) - 1 == 47
    assert sum(e.kind is K.SELECT for e in events) == 100  # one block found the line
    # without commit_solution: the same block, then one pour and the search goes on
    _, searched = water_sort_plan(0, commit_solution=False, max_moves=1)
    block = len(events) - len(moves) + 1
    assert searched[:block] == events[:block]
    assert [(e.kind, e.depth) for e in searched[block:]] == [(K.MOVE, 1)]


class FilteredNode(GraphNode):
    """Offers only even-numbered children as its filtered moves."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.FILTERED_CHILDREN}
    )

    def filtered_children(self) -> list[GraphNode]:
        kids = self.children()
        return [k for k in kids if k.id % 2 == 0] or kids


def test_filter_moves_expands_only_filtered_children() -> None:
    graph = line_graph(3, 4)
    filtered = mcts(1, graph_value, iterations=80, filter_moves=True)
    expanded = {
        e.node.id for e in events_of(filtered, graph.root(FilteredNode)) if e.kind is K.EXPAND
    }
    assert expanded
    assert all(i % 2 == 0 for i in expanded)
    unfiltered = mcts(1, graph_value, iterations=80)
    expanded = {
        e.node.id for e in events_of(unfiltered, graph.root(FilteredNode)) if e.kind is K.EXPAND
    }
    assert any(i % 2 for i in expanded)


class Counted(DrawingGraphNode):
    """Counts its live instances (to check what the search keeps in memory)."""

    live: ClassVar[int] = 0
    __slots__ = ()

    def __init__(self, graph: Graph, id: int) -> None:
        super().__init__(graph, id)
        Counted.live += 1

    def __del__(self) -> None:
        Counted.live -= 1


class CountedByIndex(Counted):
    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})


@pytest.mark.parametrize(
    ("cls", "options"),
    [(Counted, {}), (CountedByIndex, {"child_cache": 0}), (CountedByIndex, {"child_cache": 500})],
)
def test_tree_nodes_keep_no_child_lists(cls: type[Counted], options: dict[str, Any]) -> None:
    wide = 200
    # root -> 200 children -> 200 children each (ids beyond the first level are leaves)
    kids: list[tuple[int, ...]] = [tuple(range(1, wide + 1))]
    for i in range(wide):
        kids.append(tuple(range(1 + wide + i * wide, 1 + wide + (i + 1) * wide)))
    kids.extend(() for _ in range(wide * wide))
    graph = Graph(tuple(kids), values=tuple(0.5 for _ in kids))
    iterations = 300
    algorithm = mcts(0, graph_value, iterations=iterations, **options)
    selects = 0
    peak = 0
    Counted.live = 0
    for event in algorithm.traverse(graph.root(cls)):
        if event.kind is K.SELECT:
            selects += 1
        if event.kind is K.LEAF and selects % 100 == 0:
            del event
            gc.collect()
            peak = max(peak, Counted.live)
    # the tree has one node per iteration (plus the root); beyond the bounded cache nothing
    # holds lists of 200 children
    assert iterations < peak <= iterations + 60 + options.get("child_cache", 0)
    assert _TreeNode.__slots__
    assert not hasattr(_TreeNode(None, 0, None, None), "__dict__")


# -- two players -------------------------------------------------------------------------------


def trap_game(win_at: int, moves: int, to_move: int) -> Graph:
    """The root's player has ``moves`` moves: move ``win_at`` wins at once; every other move
    gives the opponent ten replies of which nine lose for the opponent and one wins."""
    mover_wins = 1.0 if to_move == 0 else 0.0
    kids: list[tuple[int, ...]] = [tuple(range(1, moves + 1))]
    rewards = [0.5]
    players = [to_move]
    next_id = moves + 1
    for i in range(moves):
        if i == win_at:
            kids.append(())
        else:
            kids.append(tuple(range(next_id, next_id + 10)))
            next_id += 10
        rewards.append(mover_wins)
        players.append(1 - to_move)
    for i in range(next_id - moves - 1):
        kids.append(())
        rewards.append(mover_wins if i % 10 else 1.0 - mover_wins)
        players.append(to_move)
    return Graph(tuple(kids), rewards=tuple(rewards), to_move=tuple(players))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("to_move", [0, 1])
@pytest.mark.parametrize("cls", [GameNode, DrawingGameNode])
def test_two_player_never_misses_a_one_move_win(
    seed: int, to_move: int, cls: type[GameNode]
) -> None:
    win_at = seed % 5
    graph = trap_game(win_at, 5, to_move)
    algorithm = mcts(seed, iterations=150, mode="plan", max_moves=1)
    events = events_of(algorithm, graph.root(cls))
    moves = [e for e in events if e.kind is K.MOVE]
    assert moves[1].node.id == win_at + 1
    assert moves[1].value == (1.0 if to_move == 0 else 0.0)  # player 0's view
    assert_grammar(events)


@pytest.mark.parametrize("stones", [1, 2, 3, 5, 6, 7])
@pytest.mark.parametrize("player", [0, 1])
def test_nim_plan_mode_wins_from_winning_positions(stones: int, player: int) -> None:
    algorithm = mcts(stones, iterations=300, mode="plan")
    events = events_of(algorithm, NimNode(stones, player))
    moves = [e.node for e in events if e.kind is K.MOVE]
    assert moves[-1].stones == 0
    # the player to move at the start took the last stone (stones % 4 != 0 wins)
    assert moves[-1].reward() == (1.0 if player == 0 else 0.0)
    for a, b in itertools.pairwise(moves):
        assert b in a.children()


def test_random_opponent_moves_without_iterations() -> None:
    events = events_of(mcts(3, iterations=40, mode="plan", opponent="random"), NimNode(11, 0))
    previous: Event | None = None
    for event in events:
        if event.kind is K.MOVE:
            if previous is not None and previous.node.to_move == 1:
                assert previous.step == event.step - 1  # nothing searched for player 1
            if previous is not None and previous.node.to_move == 0:
                assert previous.step < event.step - 1
            previous = event
    assert previous is not None
    assert previous.node.stones == 0


def test_two_player_needs_a_reward() -> None:
    class NoReward(GraphNode):
        CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
            {Capability.KEY, Capability.TO_MOVE}
        )

    with pytest.raises(CapabilityError, match="reward"):
        mcts().traverse(Graph(((),)).root(NoReward))


def test_make_algorithm_resolves_the_reward_option() -> None:
    graph = bandit([0.1, 0.9])
    algorithm = make_algorithm(
        "mcts",
        {"iterations": 100, "mode": "plan", "reward": "fraction", "max_moves": 1},
        rng=random.Random(1),
        values={"fraction": graph_value},
    )
    moves = [e for e in events_of(algorithm, graph.root()) if e.kind is K.MOVE]
    assert moves[1].node.id == 2


@pytest.mark.parametrize("seed", range(4))
def test_two_player_sees_the_opponents_refutation(seed: int) -> None:
    # Root (player 0): move 1 looks good to random play (9 of player 1's 10 replies lose for
    # player 1) but player 1 has a winning reply; move 2 leads to two drawn replies.
    kids = [(1, 2), tuple(range(3, 13)), (13, 14)] + [()] * 12
    rewards = [0.5, 0.5, 0.5] + [0.0] + [1.0] * 9 + [0.5, 0.5]
    players = [0, 1, 1] + [0] * 12
    graph = Graph(tuple(kids), rewards=tuple(rewards), to_move=tuple(players))
    algorithm = mcts(seed, iterations=400, mode="plan", max_moves=1)
    moves = [e for e in events_of(algorithm, graph.root(GameNode)) if e.kind is K.MOVE]
    assert moves[1].node.id == 2


@pytest.mark.parametrize("size", [1, 2, 3, 4, 6, 7, 12, 30])
@pytest.mark.parametrize(
    ("cls", "options"),
    [(GraphNode, {}), (GraphNode, {"child_cache": 0}), (DrawingGraphNode, {})],
)
def test_expansion_tries_every_child_once(
    size: int, cls: type[GraphNode], options: dict[str, Any]
) -> None:
    graph = Graph((tuple(range(1, size + 1)),) + ((),) * size, values=(0.0,) * (size + 1))
    algorithm = mcts(size, graph_value, iterations=size + 3, **options)
    events = events_of(algorithm, graph.root(cls))
    expanded = [e.node.id for e in events if e.kind is K.EXPAND]
    assert sorted(expanded) == list(range(1, size + 1))
    assert [e.node.id for e in events if e.kind is K.SELECT][:size] == [0] * size


def test_rollouts_on_a_domain_that_cycles_for_ever_end_by_default() -> None:
    # A ring has no terminal state and no dead end: without avoid_cycles, only the default
    # rollout_limit ends a playout. Each rollout is cut at exactly that many moves.
    graph = ring(6)
    options = MctsOptions()
    assert options.rollout_limit == 10_000
    algorithm = mcts(0, graph_value, iterations=3, rollout_events=True)
    events = list(algorithm.traverse(graph.root()))
    assert sum(e.kind is K.SELECT for e in events) == 3
    rollout_lengths = [
        sum(e.kind is K.ROLLOUT for e in it) for it in iterations_of(events) if len(it) > 2
    ]
    assert rollout_lengths
    assert all(length <= options.rollout_limit for length in rollout_lengths)
    assert max(length for length in rollout_lengths) >= options.rollout_limit - 1


@pytest.mark.parametrize("seed", range(6))
def test_random_opponent_moves_are_the_states_played_even_with_symmetric_keys(seed: int) -> None:
    # Tic-tac-toe keys fold the board's symmetries: a tree child with the drawn move's key may
    # be its mirror image. The line of MOVE states must still be a game, move after move.
    domain = make_domain("tictactoe", {})
    algorithm = make_algorithm(
        "mcts",
        {"mode": "plan", "iterations": 40, "opponent": "random"},
        rng=random.Random(seed),
        values=domain.values(),
        default_value=domain.default_value,
    )
    line = [e.node for e in algorithm.traverse(domain.root()) if e.kind is K.MOVE]
    assert line[0] == domain.root()
    for parent, child in itertools.pairwise(line):
        assert child in list(parent.children())
