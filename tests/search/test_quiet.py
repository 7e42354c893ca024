"""Backtracking's quiet pass (``Algorithm.quiet``): the totals ``searchvid run`` reports,
counted without yielding every event, are those of the full event stream read through the
frame policy (``FrameTally.read`` and ``ending``): same events, frames, last frame, ending,
work and events shown, on many random trees and graphs, at every limit, and after a failure
of the domain's code; and ``Scene.run()`` gives the same record either way."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from game_trees import GameNode, Graph, GraphNode, graph_value, random_graph

import searchvid
from searchvid.render.policy import Ended, FrameTally, ending
from searchvid.render.settings import VideoOptions
from searchvid.scene import _count_quietly
from searchvid.search import EventKind, make_algorithm
from searchvid.search.algorithm import Algorithm, Quiet
from searchvid.search.algorithms.backtracking import Backtracking
from searchvid.search.events import Event

ALL_KINDS = frozenset(EventKind)
IMPROVE_ONLY = frozenset({EventKind.IMPROVE})


class Boom(Exception):  # noqa: N818 -- a marker, as pytest.fail's own
    """What a failing node's ``children()`` raises."""


class FailingNode(GameNode):
    """A game node whose ``children()`` raises :class:`Boom` at node ``FAIL`` (the class
    attribute, set per test through a subclass)."""

    FAIL: ClassVar[int] = -1

    def children(self) -> list[Any]:
        if self.id == self.FAIL:
            raise Boom(self.id)
        return super().children()


@dataclass
class Totals:
    """What a reader of a search made of it."""

    events: int
    frames: int
    last: Any  # the node of the last frame (None: no frame)
    ended: Ended | str  # "raised": the search's error came before the cut
    shown: list[Event]  # the events of the watched kinds, in order
    work_done: int | None  # None: cut, the search's generator left open (no total yet)
    budget_spent: bool
    status: list[Any] | None  # None: cut, as work_done


class _Stream(Iterator[Event]):
    """A search's stream that tells ``ending`` whether its budget ended it (as a scene's
    traversal does)."""

    def __init__(self, search: Algorithm[Any], root: Any) -> None:
        self._search = search
        self._events = search.traverse(root)

    def __next__(self) -> Event:
        return next(self._events)

    @property
    def budget_spent(self) -> bool:
        return self._search.budget_spent


def _totals(
    tally: FrameTally, last: Any, ended: Ended | str, shown: list[Event], search: Algorithm[Any]
) -> Totals:
    finished = ended in ("complete", "raised")
    return Totals(
        tally.events,
        tally.frames,
        last,
        ended,
        shown,
        search.work_done if finished else None,
        search.budget_spent,
        list(search.status()) if finished else None,
    )


def _full(
    make: Callable[[], Algorithm[Any]], root: Any, video: VideoOptions, watch: frozenset[EventKind]
) -> Totals:
    """The full stream through FrameTally.read and ending (the path before the quiet pass)."""
    search = make()
    stream = _Stream(search, root)
    shown: list[Event] = []
    tally = FrameTally(video)
    ended: Ended | str
    try:
        tally.read(stream, shown.append, watch)
        ended = ending(stream, tally.events, video)
    except Boom:
        ended = "raised"
    last = tally.last.node if tally.last is not None else None
    return _totals(tally, last, ended, shown, search)


def _quiet(
    make: Callable[[], Algorithm[Any]], root: Any, video: VideoOptions, watch: frozenset[EventKind]
) -> Totals:
    """The quiet pass, as Scene.run() reads it."""
    search = make()
    shown: list[Event] = []
    tally = FrameTally(video)
    quiet = tally.quiet(watch)
    assert quiet is not None  # the policies these tests choose can be counted
    ended: Ended | str
    try:
        ended = _count_quietly(search, root, tally, quiet, shown.append)
    except Boom:
        ended = "raised"
    last = quiet.last if quiet.marks else None
    return _totals(tally, last, ended, shown, search)


def _random_case(
    seed: int,
) -> tuple[Callable[[], Algorithm[Any]], Any, VideoOptions, int]:
    """A random graph or tree, backtracking options and video limits; and the stream's
    length, for the limits."""
    rng = random.Random(seed)
    layers = [rng.randint(1, 6) for _ in range(rng.randint(1, 5))]
    graph: Graph = random_graph(rng, layers, rng.randint(1, 4), share=rng.random() < 0.5)
    node_class: type[GraphNode] = rng.choice([GraphNode, GameNode, FailingNode])
    if node_class is FailingNode:
        node_class = type("Failing", (FailingNode,), {"FAIL": rng.randrange(len(graph))})
    root = graph.root(node_class)
    goals = {i for i in range(len(graph)) if rng.random() < 0.1}
    table: dict[str, Any] = {
        "repeats": rng.choice(["allow", "path", "never"]),
        "max_depth": rng.choice([0, 0, 1, 2, 3]),
        "stop_at_goal": rng.random() < 0.7,
        "value": "graph",
    }
    work_limit = rng.choice([None, None, rng.randint(1, 40)])

    def make() -> Algorithm[Any]:
        return make_algorithm(
            "backtracking",
            table,
            rng=random.Random(0),
            values={"graph": graph_value},
            goal=(lambda node: node.id in goals) if goals else None,
            work_limit=work_limit,
        )

    length = sum(1 for _ in _full_events(make, root))
    video = VideoOptions(
        frames=rng.choice(["all", "all", "leaves", "improvements", "moves"]),
        max_frames=rng.choice([1, 2, 3, rng.randint(1, max(1, length)), 10**6]),
        max_events=rng.choice([1, 2, rng.randint(1, max(1, length + 1)), length, 10**8]),
    )
    return make, root, video, length


def _full_events(make: Callable[[], Algorithm[Any]], root: Any) -> Iterator[Event]:
    """The whole stream, up to its end or its failure."""
    try:
        yield from make().traverse(root)
    except Boom:
        return


@pytest.mark.parametrize("watch", [IMPROVE_ONLY, ALL_KINDS], ids=["improve", "all"])
def test_quiet_pass_counts_as_the_full_stream_on_random_graphs(watch: frozenset[EventKind]) -> None:
    endings: set[Ended | str] = set()
    for seed in range(600):
        make, root, video, _ = _random_case(seed)
        full = _full(make, root, video, watch)
        assert _quiet(make, root, video, watch) == full, (seed, video)
        endings.add(full.ended)
    # the cases reach every way a search can end
    assert endings == {"complete", "max_frames", "max_events", "raised"}


def test_quiet_pass_yields_the_streams_events_up_to_the_cut() -> None:
    """Watching every kind, the quiet pass yields exactly the stream's events up to the
    cut: same kinds, nodes, depths, steps, values and tree ids."""
    for seed in range(200):
        make, root, video, length = _random_case(seed)
        got = _quiet(make, root, video, ALL_KINDS)
        expected = list(_full_events(make, root))[: got.events]
        assert got.shown == expected, seed
        assert len(got.shown) == got.events
        assert got.events <= length


def test_the_cut_stops_right_after_the_limit() -> None:
    """A complete binary tree of 7 nodes, every value 0: ENTER 0, IMPROVE 0 (the first node
    always improves), ENTER 1, LEAF 3, BACKTRACK 1, LEAF 4, BACKTRACK 1, BACKTRACK 0, then
    the same below node 2: 14 events, 13 of them frames under ``frames = "all"``."""
    tree = Graph(((1, 2), (3, 4), (5, 6), (), (), (), ()), values=(0.0,) * 7)
    root = tree.root()

    def make() -> Algorithm[Any]:
        values = {"graph": graph_value}
        return make_algorithm(
            "backtracking", {"value": "graph"}, rng=random.Random(0), values=values
        )

    whole = _quiet(make, root, VideoOptions(max_frames=10**6), IMPROVE_ONLY)
    assert (whole.events, whole.frames, whole.last, whole.ended) == (14, 13, root, "complete")
    cut = _quiet(make, root, VideoOptions(max_frames=3), IMPROVE_ONLY)
    assert (cut.events, cut.frames, cut.last, cut.ended) == (4, 3, GraphNode(tree, 3), "max_frames")
    by_events = _quiet(make, root, VideoOptions(max_events=2), IMPROVE_ONLY)
    assert (by_events.events, by_events.frames, by_events.ended) == (2, 1, "max_events")
    exact = _quiet(make, root, VideoOptions(max_events=14), IMPROVE_ONLY)
    assert (exact.events, exact.ended) == (14, "complete")
    leaves = _quiet(make, root, VideoOptions(frames="leaves", max_frames=2), IMPROVE_ONLY)
    assert (leaves.events, leaves.frames, leaves.last) == (6, 2, GraphNode(tree, 4))


def test_a_policy_that_thins_frames_has_no_quiet_pass() -> None:
    assert FrameTally(VideoOptions(every=2)).quiet(IMPROVE_ONLY) is None
    assert isinstance(FrameTally(VideoOptions()).quiet(IMPROVE_ONLY), Quiet)


def test_algorithms_without_a_quiet_pass_refuse_one() -> None:
    search = make_algorithm("breadth-first", {}, rng=random.Random(0))
    assert not search.counts_quietly
    quiet = Quiet(max_events=1, max_marks=1, marked=ALL_KINDS, watch=ALL_KINDS)
    with pytest.raises(NotImplementedError, match="breadth-first has no quiet pass"):
        search.quiet(GraphNode(Graph(((),)), 0), quiet)


# -- Scene.run(): the same record through either path -----------------------------------------


def _binary(depth: int, name: str = "n") -> dict[str, Any]:
    if depth == 0:
        return {}
    return {f"{name}0": _binary(depth - 1, f"{name}0"), f"{name}1": _binary(depth - 1, f"{name}1")}


def _random_tree(rng: random.Random, depth: int, name: str = "n") -> dict[str, Any]:
    if depth == 0:
        return {}
    return {
        f"{name}{i}": _random_tree(rng, depth - 1, f"{name}{i}")
        for i in range(rng.randint(0, 3 if depth > 1 else 2))
    }


def _record(scene: searchvid.Scene) -> dict[str, Any]:
    record = scene.run()
    del record["seconds"], record["peak_rss_mb"]
    return record


def _both(scene: searchvid.Scene, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], int]:
    """The run's record through the quiet pass and through the full stream (each must
    agree), and how many quiet passes the first made."""
    passes = 0
    original = Backtracking._quiet

    def counting(self: Backtracking, root: Any, quiet: Quiet) -> Iterator[Event]:
        nonlocal passes
        passes += 1
        return original(self, root, quiet)

    with monkeypatch.context() as patch:
        patch.setattr(Backtracking, "_quiet", counting)
        quiet = _record(scene)
    with monkeypatch.context() as patch:
        patch.setattr(Backtracking, "counts_quietly", False)
        full = _record(scene)
    assert quiet == full
    return quiet, passes


def test_scene_run_is_the_same_through_the_quiet_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(22)
    passes = 0
    endings = set()
    for case in range(60):
        video: dict[str, Any] = {
            "frames": rng.choice(["all", "all", "leaves", "improvements"]),
            "max_frames": rng.choice([1, 5, rng.randint(1, 200), 10**6]),
            "max_events": rng.choice([1, 7, rng.randint(1, 300), 10**7]),
        }
        search: dict[str, Any] = {
            "algorithm": "backtracking",
            "repeats": rng.choice(["allow", "path", "never"]),
            "max_depth": rng.choice([0, 0, 2]),
        }
        table = {
            "seed": case,
            "domain": {"name": "tree", "root": "n", "children": _random_tree(rng, 5)},
            "search": search,
            "video": video,
        }
        record, used = _both(searchvid.scene_from_dict(table, name=f"case{case}"), monkeypatch)
        passes += used
        endings.add(record["ended"])
    assert passes == 60  # every case took the quiet path
    assert endings == {"complete", "max_frames", "max_events"}


@pytest.mark.parametrize(
    ("video", "ended"),
    [
        ({"max_frames": 10**7, "max_events": 10**8}, "complete"),
        ({"max_frames": 4_000}, "max_frames"),
        ({"max_frames": 10**7, "max_events": 2_345}, "max_events"),
        ({"frames": "leaves", "max_frames": 777}, "max_frames"),
    ],
)
def test_tictactoe_run_is_the_same_through_the_quiet_pass(
    monkeypatch: pytest.MonkeyPatch, video: dict[str, Any], ended: str
) -> None:
    table = {
        "seed": 0,
        "domain": {"name": "tictactoe", "size": 3},
        "search": {"algorithm": "backtracking"},
        "video": video,
    }
    record, passes = _both(searchvid.scene_from_dict(table, name="ttt"), monkeypatch)
    assert passes == 1
    assert record["ended"] == ended
    if ended == "complete":
        assert record["events"] > 549_946  # every node, its returns and its bests


def test_a_goal_or_a_thinned_video_reads_the_full_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a goal to look for at every state, or frames thinned by ``every``, the run
    reads the whole stream (and still agrees with itself)."""
    tree = {"name": "tree", "root": "n", "children": _binary(4)}
    for domain, video in (
        (tree | {"goal": "n0110"}, {}),
        (tree, {"every": 3}),
    ):
        table = {"seed": 0, "domain": domain, "search": {"algorithm": "backtracking"}}
        scene = searchvid.scene_from_dict(table | {"video": video}, name="t")
        _, passes = _both(scene, monkeypatch)
        assert passes == 0
