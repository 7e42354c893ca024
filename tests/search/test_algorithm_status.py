"""Each algorithm's own fields for the status strip, at known moments of small searches."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable, Iterator
from typing import Any

import pytest
from game_trees import (
    DiceNode,
    GameNode,
    Graph,
    NimNode,
    complete_tree,
    graph_value,
    random_graph,
    tree_graph,
)

from searchvid.search import Algorithm, Event, EventKind, algorithm_class, make_algorithm
from searchvid.search.algorithms.mcts import _commit_rank
from searchvid.search.node import key_of

K = EventKind


def texts(algorithm: Algorithm[Any]) -> list[str]:
    return [field.text() for field in algorithm.status()]


def watch(algorithm: Algorithm[Any], root: Any) -> Iterator[tuple[Event, list[str]]]:
    """Each event with the algorithm's fields right after it (as a frame would show them)."""
    for event in algorithm.traverse(root):
        yield event, texts(algorithm)


@pytest.mark.parametrize(
    ("name", "title", "phase"),
    [
        ("astar", "A*", "solution"),
        ("best-first", "best-first", "solution"),
        ("breadth-first", "breadth-first", "solution"),
        ("beam", "beam search", "solution"),
        ("backtracking", "backtracking", "solution"),
        ("random-walk", "random walk", "solution"),
        ("mcts", "MCTS", "playing"),
        ("minimax", "minimax", "playing"),
    ],
)
def test_titles_and_move_phases(name: str, title: str, phase: str) -> None:
    cls = algorithm_class(name)
    assert cls.display_name() == title
    assert cls.move_phase == phase


@pytest.mark.parametrize(
    ("name", "before"),
    [
        ("astar", ["g -", "h -", "f -", "frontier 0"]),
        ("best-first", ["h -", "frontier 0"]),
        ("breadth-first", ["frontier 0", "level -"]),
        ("beam", ["level -", "kept 0/10"]),
        ("backtracking", ["visited 0"]),
        ("random-walk", []),  # a single walk counts no walks ("walk 1/1" says nothing)
        ("mcts", ["iterations 0/1,000", "visits -", "mean reward -"]),
        ("minimax", ["nodes searched 0", "transpositions 0", "cut-offs 0"]),
    ],
)
def test_fields_before_the_search_starts(name: str, before: list[str]) -> None:
    assert texts(make_algorithm(name, {}, rng=random.Random())) == before


# -- frontier searches -------------------------------------------------------------------------


def test_breadth_first_frontier_and_level() -> None:
    algorithm = make_algorithm("breadth-first", {}, rng=random.Random())
    seen = [
        (e.kind.value, e.node.id, fields)
        for e, fields in watch(algorithm, complete_tree(2, 2).root())
    ]
    expanded = [(node, fields) for kind, node, fields in seen if kind in ("enter", "leaf")]
    assert expanded == [
        (0, ["frontier 2", "level 0"]),  # the root's two children are queued
        (1, ["frontier 3", "level 1"]),
        (2, ["frontier 4", "level 1"]),
        (3, ["frontier 3", "level 2"]),
        (4, ["frontier 2", "level 2"]),
        (5, ["frontier 1", "level 2"]),
        (6, ["frontier 0", "level 2"]),
    ]


def test_beam_level_and_kept() -> None:
    algorithm = make_algorithm(
        "beam", {"width": 2}, rng=random.Random(), values={"v": graph_value}, default_value="v"
    )
    tree = complete_tree(3, 3)
    graph = dataclasses.replace(tree, values=tuple(i / len(tree) for i in range(len(tree))))
    seen = {e.depth: fields for e, fields in watch(algorithm, graph.root()) if e.kind is K.ENTER}
    assert seen == {
        0: ["level 0", "kept 1/2"],
        1: ["level 1", "kept 2/2"],
        2: ["level 2", "kept 2/2"],
    }


def frontiers(events: list[Event]) -> list[int]:
    """The frontier by the events, once each expanded node's children are reported: keys
    generated (FRONTIER) and not expanded yet (ENTER/LEAF), one count per ENTER/LEAF."""
    open_: set[Hashable] = set()
    counts: list[int] = []
    for event in events:
        if event.kind is K.FRONTIER:
            open_.add(key_of(event.node))
        elif event.kind in (K.ENTER, K.LEAF):
            if counts:
                counts[-1] = len(open_)
            open_.discard(key_of(event.node))
            counts.append(-1)
    counts[-1] = len(open_)
    return counts


def random_digraph(seed: int, size: int = 30) -> Graph:
    """A random directed graph with cycles and paths of many lengths to each node."""
    rng = random.Random(seed)
    kids = tuple(tuple(rng.sample(range(size), rng.randint(0, 3))) for _ in range(size))
    return Graph(kids, values=tuple(rng.random() for _ in range(size)))


def heuristic_search(name: str, graph: Graph) -> Algorithm[Any]:
    def h(node: Any) -> float:
        return float(int(graph.values[node.id] * 4))  # inconsistent: A* reopens states

    return make_algorithm(name, {}, rng=random.Random(), heuristics={"h": h}, default_heuristic="h")


@pytest.mark.parametrize("seed", range(20))
def test_astar_fields_are_those_of_the_node_expanded(seed: int) -> None:
    graph = random_digraph(seed)
    seen = [
        (event, fields)
        for event, fields in watch(heuristic_search("astar", graph), graph.root())
        if event.kind in (K.ENTER, K.LEAF)
    ]
    events = list(heuristic_search("astar", graph).traverse(graph.root()))
    for (event, fields), frontier in zip(seen, frontiers(events), strict=True):
        h = int(graph.values[event.node.id] * 4)
        g = event.depth
        assert fields == [f"g {g}", f"h {h}", f"f {g + h}", f"frontier {frontier}"]


@pytest.mark.parametrize("seed", range(10))
def test_best_first_fields(seed: int) -> None:
    graph = random_digraph(seed)
    seen = [
        (event, fields)
        for event, fields in watch(heuristic_search("best-first", graph), graph.root())
        if event.kind in (K.ENTER, K.LEAF)
    ]
    events = list(heuristic_search("best-first", graph).traverse(graph.root()))
    for (event, fields), frontier in zip(seen, frontiers(events), strict=True):
        assert fields == [f"h {int(graph.values[event.node.id] * 4)}", f"frontier {frontier}"]


def test_astar_reopens_states_and_skips_stale_entries_in_its_count() -> None:
    reopened = 0
    for seed in range(20):
        graph = random_digraph(seed)
        events = list(heuristic_search("astar", graph).traverse(graph.root()))
        closed = [e.node.id for e in events if e.kind in (K.ENTER, K.LEAF)]
        reopened += len(closed) - len(set(closed))
    assert reopened  # the inconsistent heuristic exercised reopening


# -- depth-first searches ----------------------------------------------------------------------


def test_backtracking_counts_the_nodes_visited() -> None:
    graph = tree_graph({"A": {"A1": {}, "A2": {}}, "B": {}})
    algorithm = make_algorithm("backtracking", {}, rng=random.Random())
    seen = [(e.kind.value, e.node.label, fields) for e, fields in watch(algorithm, graph.root())]
    assert [(kind, label, fields) for kind, label, fields in seen if kind != "improve"] == [
        ("enter", "Root", ["visited 1"]),
        ("enter", "A", ["visited 2"]),
        ("leaf", "A1", ["visited 3"]),
        ("backtrack", "A", ["visited 3"]),
        ("leaf", "A2", ["visited 4"]),
        ("backtrack", "A", ["visited 4"]),
        ("backtrack", "Root", ["visited 4"]),
        ("leaf", "B", ["visited 5"]),
        ("backtrack", "Root", ["visited 5"]),
    ]


def test_random_walk_numbers_its_walks() -> None:
    algorithm = make_algorithm("random-walk", {"restarts": 3}, rng=random.Random(1))
    walk = 1
    for event, fields in watch(algorithm, complete_tree(2, 3).root()):
        if event.kind is K.RESTART:
            walk += 1
        assert fields == [f"walk {walk}/3"]
    assert walk == 3


# -- MCTS --------------------------------------------------------------------------------------


def leader_fields(kids: list[Any] | None) -> list[str]:
    """A one-player search's leading move: its visits and mean reward."""
    if not kids or not any(k.visits for k in kids):
        return ["visits -", "mean reward -"]
    best = max(kids, key=_commit_rank)
    mean = best.mean
    from searchvid.search.status import format_number

    return [f"visits {best.visits}", f"mean reward {format_number(mean)}"]


def test_mcts_counts_iterations_and_follows_the_leading_move() -> None:
    algorithm = make_algorithm("mcts", {"iterations": 200}, rng=random.Random(4))
    done = 0
    for event, fields in watch(algorithm, DiceNode(3, 1)):
        assert fields[0] == f"iterations {done}/200"
        if event.kind is K.BACKUP:
            done += 1  # the iteration ends right after its BACKUP
        if event.kind is K.SELECT:
            tree = algorithm._tree  # type: ignore[attr-defined]
            assert fields[1:] == leader_fields(tree.kids)
    assert texts(algorithm) == ["iterations 200/200", *leader_fields(algorithm._tree.kids)]  # type: ignore[attr-defined]


def test_mcts_plan_mode_numbers_the_moves_and_shows_win_rates() -> None:
    algorithm = make_algorithm("mcts", {"iterations": 40, "mode": "plan"}, rng=random.Random(2))
    moves: list[list[str]] = []
    searching: set[str] = set()
    for event, fields in watch(algorithm, NimNode(6)):
        if event.kind is K.MOVE:
            moves.append(fields)
        elif event.kind is K.SELECT:
            searching.add(fields[0])
    assert moves[0][:2] == ["move 0", "iterations 0/40"]
    assert [m[0] for m in moves] == [f"move {i}" for i in range(len(moves))]
    assert all(m[1] == "iterations 40/40" for m in moves[1:])
    assert all(m[2].startswith("win rate ") and m[2].endswith("%") for m in moves[1:])
    assert all(m[3].startswith("visits ") for m in moves[1:])
    assert searching == {f"move {i}" for i in range(1, len(moves))}


def win_rate(algorithm: Algorithm[Any]) -> str:
    (rate,) = [t for t in texts(algorithm) if t.startswith("win rate ")]
    return rate


def test_mcts_win_rate_is_player_0_s_whoever_moves() -> None:
    # every move wins for player 0: 100% whether player 0 or player 1 is to move
    for to_move in (0, 1):
        graph = Graph(((1, 2), (), ()), rewards=(0.0, 1.0, 1.0), to_move=(to_move, 0, 0))
        algorithm = make_algorithm("mcts", {"iterations": 20}, rng=random.Random())
        list(algorithm.traverse(graph.root(GameNode)))
        assert win_rate(algorithm) == "win rate 100%"
    lost = Graph(((1, 2), (), ()), rewards=(0.0, 0.0, 0.0), to_move=(1, 0, 0))
    list(algorithm.traverse(lost.root(GameNode)))
    assert win_rate(algorithm) == "win rate 0%"


def test_mcts_win_rate_is_the_whole_decision_s_not_the_leading_move_s() -> None:
    # player 0 to move: one move wins (reward 1), three lose (0). UCT gives the winning
    # move most visits (its rate 100%), but the rate shown is of every playout from the
    # position, the losing moves' too: player 0's mean over the root, not 100%
    graph = Graph(
        ((1, 2, 3, 4), (), (), (), ()), rewards=(0.0, 1.0, 0.0, 0.0, 0.0), to_move=(0, 1, 1, 1, 1)
    )
    algorithm = make_algorithm("mcts", {"iterations": 40}, rng=random.Random(3))
    list(algorithm.traverse(graph.root(GameNode)))
    tree = algorithm._tree  # type: ignore[attr-defined]
    wins = next(k for k in tree.kids if k.state.id == 1)
    assert max(tree.kids, key=_commit_rank) is wins
    assert texts(algorithm)[-1] == f"visits {wins.visits}"
    assert win_rate(algorithm) == f"win rate {100 * wins.visits / 40:.0f}%"
    assert wins.visits < 40  # the losing moves were tried: not 100%


# -- minimax -----------------------------------------------------------------------------------


def test_minimax_counts_nodes_transpositions_and_cut_offs() -> None:
    algorithm = make_algorithm("minimax", {"play": False}, rng=random.Random())
    list(algorithm.traverse(DiceNode(0, 1)))
    # the root, its 6 rolls, 6 keeps, the reroll's chance node and its 6 faces once, then 4
    # answers from the table (the 6 is kept before the reroll is looked at: a cut-off)
    # then the window of the last event's node: the root, a chance node (the full window)
    assert texts(algorithm) == [
        "nodes searched 24",
        "transpositions 4",
        "cut-offs 1",
        "alpha 0",
        "beta 1",
    ]
    assert algorithm.nodes == 24  # type: ignore[attr-defined]
    plain = make_algorithm(
        "minimax", {"play": False, "alpha_beta": False, "transposition": False}, rng=random.Random()
    )
    list(plain.traverse(DiceNode(0, 1)))
    # without alpha-beta nothing is cut off: no dead "cut-offs 0" counter
    assert texts(plain) == ["nodes searched 55", "transpositions 0"]


def test_minimax_shows_the_window_of_each_event_s_node_for_player_0() -> None:
    # player 0 to move; player 1's first reply draws (0.5), the second wins for player 0
    graph = Graph(((1, 2), (), ()), rewards=(0.0, 0.5, 1.0), to_move=(0, 1, 1))
    algorithm = make_algorithm("minimax", {"play": True}, rng=random.Random())
    seen = [(event.kind, fields[3:]) for event, fields in watch(algorithm, graph.root(GameNode))]
    assert seen == [
        (K.ENTER, ["alpha 0", "beta 1"]),  # the root: nothing known yet
        (K.LEAF, ["alpha 0", "beta 1"]),  # its first child, searched in the root's window
        (K.IMPROVE, ["alpha 0", "beta 1"]),  # the draw, before alpha rises to it
        (K.BACKTRACK, ["alpha 0.5", "beta 1"]),  # player 0 can now make sure of a draw
        (K.LEAF, ["alpha 0.5", "beta 1"]),
        (K.IMPROVE, ["alpha 0.5", "beta 1"]),
        # a win: the window is closed, and the strip says what that means
        (K.BACKTRACK, ["alpha 1", "beta 1", "window empty: cut-off"]),
        (K.MOVE, []),  # the moves played are searched in no window
        (K.MOVE, []),
    ]
    plain = make_algorithm("minimax", {"alpha_beta": False}, rng=random.Random())
    assert all(len(fields) == 2 for _, fields in watch(plain, graph.root(GameNode)))


@pytest.mark.parametrize("seed", range(10))
def test_minimax_fields_grow_with_the_search_and_include_the_replays(seed: int) -> None:
    graph = random_graph(random.Random(seed), [3, 5, 5, 4], 3)
    algorithm = make_algorithm("minimax", {"event_depth": 2}, rng=random.Random())
    last = (0, 0, 0)
    prunes = 0
    searched = 0

    def numbers(fields: list[str]) -> tuple[int, ...]:
        named = ("nodes searched ", "transpositions ", "cut-offs ")
        counts = [f for f in fields if f.startswith(named)]
        return tuple(int(f.rsplit(" ", 1)[1].replace(",", "")) for f in counts)

    for event, fields in watch(algorithm, graph.root(GameNode)):
        # the counts; how many are shown, the window (alpha, beta) come and go
        now = numbers(fields)
        shown = [f for f in fields if f.startswith("of them in the top 2 plies: ")]
        for f in shown:  # only where some nodes searched are not shown, and fewer of them
            assert 0 < int(f.rsplit(" ", 1)[1].replace(",", "")) < now[0], fields
        assert all(a >= b for a, b in zip(now, last, strict=True))
        last = now
        prunes += event.kind is K.PRUNE
        if event.kind is K.MOVE and event.depth == 0:
            searched = now[0]
            assert searched == algorithm.nodes  # type: ignore[attr-defined]
    assert prunes <= last[2]
    assert last[0] >= searched  # the moves' silent re-searches count too
