"""The algorithm registry, make_algorithm's errors, and a conformance run of every algorithm."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from game_trees import GameNode, Graph, graph_value, random_graph

from searchvid.errors import CapabilityError, OptionError
from searchvid.options import build_options
from searchvid.search import Event, EventKind, algorithm_class, algorithm_names, make_algorithm
from searchvid.search.algorithm import Algorithm

ALL = [
    "astar",
    "backtracking",
    "beam",
    "best-first",
    "breadth-first",
    "mcts",
    "minimax",
    "random-walk",
]


def test_names_and_aliases() -> None:
    assert algorithm_names() == ALL
    assert algorithm_class("depth-first") is algorithm_class("backtracking")
    assert algorithm_class("a-star") is algorithm_class("astar")
    for name in ALL:
        cls = algorithm_class(name)
        assert cls.name == name
        assert cls.summary
        assert cls.__doc__
        assert dataclasses.is_dataclass(cls.options_type)
        build_options(cls.options_type, {})  # every option has a default
        for alias in cls.aliases:
            assert algorithm_class(alias) is cls
        for field in dataclasses.fields(cls.options_type):
            assert field.metadata["doc"], (name, field.name)
        if cls.value_option is not None:
            assert cls.value_option in {f.name for f in dataclasses.fields(cls.options_type)}
        if cls.heuristic_option is not None:
            assert cls.heuristic_option in {f.name for f in dataclasses.fields(cls.options_type)}


def test_unknown_algorithm_lists_the_known_ones() -> None:
    with pytest.raises(OptionError) as info:
        make_algorithm("hill-climbing", {}, rng=random.Random())
    assert info.value.key == "algorithm"
    for name in ALL:
        assert name in info.value.message


def test_unknown_value_function_lists_the_offered_ones() -> None:
    values = {"exits": graph_value, "tiles": graph_value}
    with pytest.raises(OptionError) as info:
        make_algorithm("beam", {"value": "score"}, rng=random.Random(), values=values)
    assert info.value.key == "value"
    assert "'score'" in info.value.message
    assert "exits, tiles" in info.value.message
    with pytest.raises(OptionError) as info:
        make_algorithm("mcts", {"reward": "score"}, rng=random.Random(), values=values)
    assert info.value.key == "reward"
    with pytest.raises(OptionError) as info:
        make_algorithm("astar", {"heuristic": "far"}, rng=random.Random(), heuristics={})
    assert info.value.key == "heuristic"
    assert "none" in info.value.message


def test_bad_options_name_the_key() -> None:
    with pytest.raises(OptionError) as info:
        make_algorithm("beam", {"width": 0}, rng=random.Random())
    assert info.value.key == "width"
    with pytest.raises(OptionError) as info:
        make_algorithm("mcts", {"mode": "think"}, rng=random.Random())
    assert info.value.key == "mode"
    with pytest.raises(OptionError) as info:
        make_algorithm("random-walk", {"restart": 3}, rng=random.Random())
    assert info.value.key == "restart"
    assert "restarts" in info.value.message


def test_default_value_is_used_when_none_is_named() -> None:
    def double(node: Any) -> float:
        return 2.0

    algorithm = make_algorithm(
        "backtracking", {}, rng=random.Random(), values={"double": double}, default_value="double"
    )
    assert algorithm.value is double


def conformance_graph() -> Graph:
    return random_graph(random.Random(4), [3, 4, 4], 3)


@pytest.mark.parametrize("name", ALL)
def test_every_algorithm_streams_well_formed_deterministic_events(name: str) -> None:
    graph = conformance_graph()

    def stream(seed: int) -> list[Event]:
        algorithm: Algorithm[Any] = make_algorithm(
            name,
            {"iterations": 50} if name == "mcts" else {},
            rng=random.Random(seed),
            values={"v": graph_value},
            default_value="v",
        )
        return list(algorithm.traverse(graph.root(GameNode)))

    events = stream(3)
    assert events
    assert [e.step for e in events] == list(range(len(events)))
    assert all(e.depth >= 0 for e in events)
    assert all(isinstance(e.kind, EventKind) for e in events)
    assert any(e.kind is EventKind.IMPROVE for e in events)
    again = stream(3)
    assert [(e.kind, e.node, e.depth, e.value) for e in again] == [
        (e.kind, e.node, e.depth, e.value) for e in events
    ]


@pytest.mark.parametrize("name", ["minimax"])
def test_missing_capability_fails_before_any_event(name: str) -> None:
    algorithm = make_algorithm(name, {}, rng=random.Random())
    with pytest.raises(CapabilityError, match="to_move"):
        algorithm.traverse(Graph(((),)).root())
