"""The work budget: every algorithm ends within ``work_limit`` units on trees without end.

The domains here never end: every node has children for ever, or a node's ``children()``
never stops yielding. Each test would run (and grow) for ever without the budget, so the
domain also counts the nodes it creates and raises past a generous guard: a broken budget
fails the test at once instead of hanging it. Nothing is timed; the assertions are on
counts of events, units of work and nodes created (which bound the memory used).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pytest
from game_trees import DiceNode
from PIL import Image

import searchvid
from searchvid.domains.base import Domain
from searchvid.errors import RunError, UserCodeError
from searchvid.render.view import TileSet, View
from searchvid.search import Event, EventKind, make_algorithm
from searchvid.search.algorithm import Algorithm
from searchvid.search.algorithms.minimax import Minimax, MinimaxOptions
from searchvid.search.node import Capability

K = EventKind
LIMIT = 600
"""The work budget of the algorithm-level tests."""
GUARD = 50 * LIMIT
"""Nodes a test domain creates before it decides the search runs away."""


class RunawayError(AssertionError):
    """A search created far more nodes than its budget allows."""


class Endless:
    """A two-player game without end: every node has ``fan`` children, for ever.

    ``fan = 0`` means a ``children()`` that never stops yielding. The class counts the nodes
    created (``made``) and raises :class:`RunawayError` past ``GUARD``.
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.REWARD, Capability.TO_MOVE}
    )
    made: ClassVar[int] = 0
    __slots__ = ("depth", "fan", "index")

    def __init__(self, depth: int = 0, index: int = 0, fan: int = 3) -> None:
        Endless.made += 1
        if Endless.made > GUARD:
            raise RunawayError(f"{Endless.made} nodes created: the budget did not stop the search")
        self.depth = depth
        self.index = index
        self.fan = fan

    def children(self) -> Iterator[Endless]:
        cls, below = type(self), self.depth + 1
        numbers = itertools.count() if self.fan == 0 else range(self.fan)
        for i in numbers:
            yield cls(below, self.index * max(self.fan, 1) + i, self.fan)

    def is_terminal(self) -> bool:
        return False

    def reward(self) -> float:
        return 0.5

    @property
    def to_move(self) -> int:
        return self.depth % 2

    def key(self) -> tuple[int, int]:
        return self.depth, self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Endless) and other.key() == self.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Endless({self.depth}, {self.index})"


class DrawingEndless(Endless):
    """:class:`Endless` that also draws a random child without listing (``random_child``)."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = Endless.CAPABILITIES | {Capability.RANDOM_CHILD}
    __slots__ = ()

    def random_child(self, rng: random.Random) -> DrawingEndless:
        fan = self.fan or 1_000_000
        return DrawingEndless(self.depth + 1, self.index * fan + rng.randrange(fan), self.fan)


class EndlessChance(Endless):
    """A one-player game of chance without end: decisions and rolls of a coin alternate."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.KEY, Capability.TERMINAL, Capability.REWARD, Capability.CHANCE}
    )
    __slots__ = ()

    def is_chance(self) -> bool:
        return self.depth % 2 == 1

    def outcomes(self) -> list[tuple[float, EndlessChance]]:
        return [(0.5, kid) for kid in itertools.islice(self.children(), 2)]

    def sample_outcome(self, rng: random.Random) -> EndlessChance:
        return EndlessChance(self.depth + 1, self.index * self.fan + rng.randrange(2), self.fan)


@pytest.fixture(autouse=True)
def _fresh_counts() -> Iterator[None]:
    Endless.made = 0
    yield
    Endless.made = 0


def search(name: str, table: Mapping[str, Any] | None = None, **kwargs: Any) -> Algorithm[Any]:
    return make_algorithm(name, dict(table or {}), rng=random.Random(7), work_limit=LIMIT, **kwargs)


def kinds(events: list[Event]) -> Counter[str]:
    return Counter(event.kind.value for event in events)


def spent(algorithm: Algorithm[Any], events: list[Event]) -> Counter[str]:
    """Check the budget ended the search with all of it used; the events' kinds, counted."""
    assert algorithm.budget_spent
    assert algorithm.work_done == LIMIT
    return kinds(events)


# -- every algorithm on a tree that goes down for ever -----------------------------------------


def test_backtracking_visits_as_many_nodes_as_its_budget() -> None:
    algorithm = search("backtracking")
    events = list(algorithm.traverse(Endless()))
    counts = spent(algorithm, events)
    assert counts["enter"] == LIMIT  # one unit per node visited, always deeper
    assert events[-1].depth == LIMIT - 1
    assert Endless.made <= LIMIT + 1


def test_backtracking_ends_on_children_that_repeat_seen_states_for_ever() -> None:
    class Repeating(Endless):
        """The root's children are one state, again and again."""

        __slots__ = ()

        def children(self) -> Iterator[Endless]:
            while True:
                yield Repeating(1, 0, self.fan)

    algorithm = search("backtracking", {"repeats": "never"})
    events = list(algorithm.traverse(Repeating()))
    counts = spent(algorithm, events)
    # the root; its one new child is never shown: listing that child's own children (the
    # same state, seen, for ever) spent the budget
    assert counts == {"enter": 1, "improve": 1}
    assert Endless.made <= LIMIT + 2


@pytest.mark.parametrize("name", ["breadth-first", "best-first", "astar"])
def test_frontier_searches_generate_as_many_children_as_their_budget(name: str) -> None:
    algorithm = search(name)
    events = list(algorithm.traverse(Endless()))
    counts = spent(algorithm, events)
    # a unit per child generated: the expansion that would take child LIMIT + 1 is cut
    # before its events, so the expansions reported are the whole ones before it
    assert counts["enter"] == LIMIT // 3
    assert counts["frontier"] == 3 * (LIMIT // 3)
    assert Endless.made <= LIMIT + 2


def test_beam_search_generates_as_many_children_as_its_budget() -> None:
    algorithm = search("beam", {"width": 2})
    events = list(algorithm.traverse(Endless()))
    counts = spent(algorithm, events)
    # two nodes a level, three children each: the cut comes in the second expansion of
    # level 100, so the candidates of levels 0 to 99 were ranked and reported
    assert counts["enter"] == LIMIT // 3
    assert counts["frontier"] + counts["drop"] == 3 + 6 * 99
    assert Endless.made <= LIMIT + 2


@pytest.mark.parametrize("node_type", [Endless, DrawingEndless])
def test_random_walk_takes_as_many_steps_as_its_budget(node_type: type[Endless]) -> None:
    algorithm = search("random-walk", {"restarts": 10**9})
    events = list(algorithm.traverse(node_type()))
    counts = spent(algorithm, events)
    assert counts["enter"] == LIMIT  # one endless walk: a unit per node it stands on
    assert counts["restart"] == 0
    assert Endless.made <= 4 * LIMIT  # a listing draw makes the three children of a step


def test_mcts_counts_iterations_and_rollout_moves() -> None:
    algorithm = search("mcts", {"iterations": 10**9, "rollout_limit": 5})
    events = list(algorithm.traverse(DrawingEndless()))
    counts = spent(algorithm, events)
    # each iteration: one unit, and one per rollout move (cut at 5 by rollout_limit)
    assert counts["select"] == LIMIT // 6
    assert counts["backup"] == LIMIT // 6


def test_mcts_ends_a_rollout_that_never_ends() -> None:
    algorithm = search("mcts", {"iterations": 10**9, "rollout_limit": 0})
    events = list(algorithm.traverse(DrawingEndless()))
    counts = spent(algorithm, events)
    assert counts == {"select": 1, "expand": 1}  # cut inside the first rollout
    assert Endless.made <= LIMIT + 5  # the root, its children listed and drawn, the playout


def test_mcts_plan_mode_ends_however_many_iterations_a_move_has() -> None:
    algorithm = search("mcts", {"iterations": 10**9, "mode": "plan", "rollout_limit": 5})
    events = list(algorithm.traverse(DrawingEndless()))
    counts = spent(algorithm, events)
    assert counts["move"] == 1  # the root; the first move is never committed
    assert counts["select"] == LIMIT // 6


@pytest.mark.parametrize("event_depth", [0, 1])
def test_minimax_ends_at_depth_zero_with_or_without_events(event_depth: int) -> None:
    algorithm = search("minimax", {"event_depth": event_depth})
    events = list(algorithm.traverse(Endless()))
    counts = spent(algorithm, events)
    if event_depth:
        # below event_depth nothing is emitted: the budget alone ends the search
        assert [(e.kind, e.depth) for e in events] == [(K.ENTER, 0), (K.ENTER, 1)]
    else:
        assert counts == {"enter": LIMIT}
    assert Endless.made <= LIMIT + 1


def test_expectimax_ends_in_a_game_of_chance_without_end() -> None:
    algorithm = search("minimax", {"event_depth": 1})
    events = list(algorithm.traverse(EndlessChance()))
    spent(algorithm, events)
    assert [(e.kind, e.depth) for e in events] == [(K.ENTER, 0), (K.ENTER, 1)]


# -- a fan-out without end ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["breadth-first", "beam", "best-first", "astar"])
def test_frontier_searches_end_on_a_children_that_never_ends(name: str) -> None:
    algorithm = search(name)
    events = list(algorithm.traverse(Endless(fan=0)))
    spent(algorithm, events)
    assert events == []  # the root's expansion never finished: nothing to report
    assert Endless.made <= LIMIT + 2


def test_backtracking_ends_on_a_children_that_never_ends() -> None:
    algorithm = search("backtracking", {"max_depth": 1})
    events = list(algorithm.traverse(Endless(fan=0)))
    counts = spent(algorithm, events)
    assert counts["enter"] == 1
    assert counts["leaf"] == LIMIT - 1  # the root's children, one after another
    assert counts["backtrack"] == LIMIT - 1


@pytest.mark.parametrize(
    ("name", "expected"),
    [("random-walk", {}), ("mcts", {"select": 1})],
)
def test_searches_that_list_children_end_on_a_children_that_never_ends(
    name: str, expected: dict[str, int]
) -> None:
    algorithm = search(name)
    events = list(algorithm.traverse(Endless(fan=0)))
    counts = spent(algorithm, events)
    assert counts == expected  # listing the root's children spent the budget
    assert Endless.made <= LIMIT + 2


def test_minimax_ends_counting_pruned_moves_that_never_end() -> None:
    class Won(Endless):
        """The root's every move wins at once for the player to move: a cut-off after the
        first, and moves without end left to count for PRUNE."""

        __slots__ = ()

        def children(self) -> Iterator[Endless]:
            for i in itertools.count():
                yield Won(1, i, 0)

        def is_terminal(self) -> bool:
            return self.depth == 1

        def reward(self) -> float:
            return 1.0

    algorithm = search("minimax", {"play": False})
    events = list(algorithm.traverse(Won()))
    spent(algorithm, events)
    assert [e.kind for e in events] == [K.ENTER, K.LEAF, K.IMPROVE, K.BACKTRACK]


def test_a_fan_out_of_a_million_is_cut_after_the_budget() -> None:
    algorithm = search("breadth-first")
    events = list(algorithm.traverse(Endless(fan=1_000_000)))
    spent(algorithm, events)
    assert events == []
    assert Endless.made <= LIMIT + 2


# -- the budget from Python --------------------------------------------------------------------


def test_without_a_budget_nothing_changes_and_work_is_counted() -> None:
    budgeted = search("backtracking", {"max_depth": 4})
    free = make_algorithm("backtracking", {"max_depth": 4}, rng=random.Random(7))
    assert free.work_limit is None
    root = Endless(fan=2)
    assert list(budgeted.traverse(root)) == list(free.traverse(root))
    assert free.work_done == budgeted.work_done == 31  # 1 + 2 + 4 + 8 + 16 nodes
    assert not free.budget_spent
    assert not budgeted.budget_spent


def test_a_budget_reached_exactly_does_not_cut() -> None:
    table = {"max_depth": 4}
    exact = make_algorithm("backtracking", table, rng=random.Random(7), work_limit=31)
    short = make_algorithm("backtracking", table, rng=random.Random(7), work_limit=30)
    whole = list(exact.traverse(Endless(fan=2)))
    cut = list(short.traverse(Endless(fan=2)))
    assert not exact.budget_spent
    assert short.budget_spent
    assert cut == whole[: len(cut)]
    assert kinds(cut)["enter"] + kinds(cut)["leaf"] == 30


def test_a_budget_cut_is_deterministic() -> None:
    table = {"iterations": 10**9, "rollout_limit": 7}

    def run() -> list[tuple[str, Any, int | None]]:
        algorithm = search("mcts", table)
        return [(e.kind.value, e.node.key(), e.id) for e in algorithm.traverse(DrawingEndless())]

    assert run() == run()


def test_minimax_solve_out_of_budget_is_a_run_error() -> None:
    algorithm = Minimax(MinimaxOptions(), rng=random.Random(0), work_limit=LIMIT)
    with pytest.raises(RunError, match=rf"^minimax: the work budget \(work_limit = {LIMIT}\)"):
        algorithm.solve(Endless())
    assert algorithm.budget_spent
    assert algorithm.work_done == LIMIT


# -- a chance node without outcomes -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NoOutcomes(DiceNode):
    """The dice game, with a die that has no faces: its chance node has no outcome."""

    def outcomes(self) -> list[tuple[float, DiceNode]]:
        return []

    def children(self) -> list[DiceNode]:
        return [] if self.face == 0 else super().children()

    def is_terminal(self) -> bool:
        return False


def test_a_chance_node_without_outcomes_names_the_method() -> None:
    algorithm = Minimax(MinimaxOptions(), rng=random.Random(0))
    with pytest.raises(UserCodeError) as caught:
        list(algorithm.traverse(NoOutcomes()))
    message = str(caught.value)
    line = NoOutcomes.outcomes.__code__.co_firstlineno
    where = f"test_budget.py:{line} in NoOutcomes.outcomes()"
    assert f"{where}: returned no outcomes: a chance node needs at least one" in message
    assert "\n" not in message
    assert isinstance(caught.value, RunError)  # exit code 1


# -- scenes: run, trace, render and preview end within max_events -------------------------------


def _draw(name: str, size: int) -> Image.Image:
    return Image.new("RGB", (size, size), (40, 90, 160))


class EndlessView:
    tileset = TileSet(names=("node",), draw=_draw)
    shape = (1, 1)

    def grid(self, node: Any) -> npt.NDArray[np.int16]:
        return np.zeros((1, 1), dtype=np.int16)


@dataclass(frozen=True, kw_only=True)
class EndlessOptions:
    fan: int = 3


class EndlessDomain(Domain):
    name = "endless"
    summary = "A game tree without end."
    options_type: ClassVar[type[Any]] = EndlessOptions

    def root(self) -> Any:
        return DrawingEndless(fan=self.options.fan)

    def view(self) -> View:
        return EndlessView()


def endless_scene(search: Mapping[str, Any], fan: int = 3, **video: Any) -> searchvid.Scene:
    table = {
        "seed": 3,
        "domain": {"name": EndlessDomain, "fan": fan},
        "search": dict(search),
        "video": {"tile_size": 8, "hold_last": 0, "max_events": LIMIT, **video},
    }
    return searchvid.scene_from_dict(table, name="endless")


def test_a_silent_minimax_scene_ends_every_command(tmp_path: Path) -> None:
    scene = endless_scene({"algorithm": "minimax", "event_depth": 1}, frames="moves")
    stats = scene.run()
    assert (stats["events"], stats["frames"], stats["max_events_reached"]) == (2, 0, True)
    assert [record["kind"] for record in scene.trace()] == ["enter", "enter"]
    with pytest.raises(RunError) as caught:
        scene.render(tmp_path / "out.mp4")
    assert str(caught.value) == (
        f"no frames: the search did max_events = {LIMIT} units of work (nodes visited, "
        "children generated or iterations) in 2 events, and no event was selected by "
        "frames = 'moves'"
    )
    assert list(tmp_path.iterdir()) == []
    # the run, the trace and the render: a budget each; and the root that names the
    # algorithm (the opening card's words and the strip's size use that same root)
    assert Endless.made <= 3 * (LIMIT + 2) + 1


def test_breadth_first_on_an_endless_fan_out_ends_every_command() -> None:
    scene = endless_scene({"algorithm": "breadth-first"}, fan=0)
    stats = scene.run()
    assert (stats["events"], stats["max_events_reached"]) == (0, True)
    assert list(scene.trace()) == []
    assert Endless.made <= 2 * (LIMIT + 5)  # and a few roots made by the scene


def test_an_mcts_plan_scene_with_endless_iterations_renders_and_previews(tmp_path: Path) -> None:
    scene = endless_scene(
        {"algorithm": "mcts", "mode": "plan", "iterations": 10**9, "rollout_limit": 5},
        frames="leaves",
    )
    stats = scene.run()
    assert stats["max_events_reached"] is True
    assert stats["frames"] == LIMIT // 6  # a LEAF per iteration, a budget of 100 iterations
    result = scene.render(tmp_path / "frames")
    assert result.frames == stats["frames"]
    assert len(list((tmp_path / "frames").glob("frame_*.png"))) == stats["frames"]
    last = np.asarray(scene.preview(-1))
    drawn = np.asarray(Image.open(tmp_path / "frames" / f"frame_{stats['frames'] - 1:06d}.png"))
    assert np.array_equal(last, drawn[..., :3])
    records = list(scene.trace())
    assert sum(1 for r in records if r["frame"] is not None) == stats["frames"]


def test_a_search_cut_by_max_events_events_is_reported_too() -> None:
    scene = endless_scene({"algorithm": "backtracking"}, frames="leaves", max_events=50)
    stats = scene.run()
    assert (stats["events"], stats["max_events_reached"]) == (50, True)
    ended = endless_scene(
        {"algorithm": "backtracking", "max_depth": 2}, frames="leaves", max_events=10_000
    ).run()
    assert ended["max_events_reached"] is False
