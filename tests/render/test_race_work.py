"""Races aligned on work: each video frame advances the searches to the same amount of work
(nodes expanded, MCTS iterations), a finish stamp shows each search's cost from the frame it
ends on, the closing card ranks them by work, and a paced race keeps its duration."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest

import searchvid
from searchvid.render.cards import race_fields, race_places
from searchvid.render.job import RenderJob
from searchvid.render.policy import assign_frames
from searchvid.render.stepping import Run, race_frames, strip_texts
from searchvid.render.timeline import timeline
from searchvid.render.voice import Ending
from searchvid.search.algorithms.mcts import Mcts
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

KINDS = {
    "E": EventKind.ENTER,
    "L": EventKind.LEAF,
    "B": EventKind.BACKTRACK,
    "M": EventKind.MOVE,
    "S": EventKind.SELECT,
    "X": EventKind.EXPAND,
    "F": EventKind.FRONTIER,
    "I": EventKind.IMPROVE,
}
ITERATIONS = frozenset({EventKind.SELECT})


class Stream(Iterator[Event]):
    """A made-up search: one event per letter of ``kinds`` (see :data:`KINDS`); optionally
    its own work kinds and unit, as a scene's traversals have them."""

    def __init__(
        self,
        kinds: str,
        work_kinds: frozenset[EventKind] | None = None,
        unit: tuple[str, str] | None = None,
    ) -> None:
        nodes = [f"n{i}" for i in range(len(kinds))]
        events = []
        for i, letter in enumerate(kinds):
            # an IMPROVE names the node of the event before it
            node = nodes[i - 1] if letter == "I" and i else nodes[i]
            events.append(Event(KINDS[letter], node, 0, i, 1.0 if letter == "I" else None))
        self._events = iter(events)
        if work_kinds is not None:
            self.work_kinds = work_kinds
        if unit is not None:
            self.work_unit = unit

    def __next__(self) -> Event:
        return next(self._events)


class NoView:
    """A view that draws nothing and observes nothing (the strips' words only)."""


def tree_jobs(count: int, **video: Any) -> list[RenderJob]:
    """``count`` render jobs on the tree domain, with ``video`` set (frames "all")."""
    scene = searchvid.scene_from_dict(
        {
            "domain": {"name": "tree"},
            "search": [{"algorithm": "backtracking"}] * count,
            "video": {"fps": 10, "tile_size": 8},
        },
        name="race",
    )
    return [
        # numbers only, no board: the made-up nodes have no words and no tiles
        dataclasses.replace(
            job,
            view=NoView(),
            video=dataclasses.replace(job.video, **video),
            narrator=None,
            score=None,
            values=False,
        )
        for job in scene.render_jobs()
    ]


def sources(*streams: Callable[[], Stream]) -> list[Callable[[], Stream]]:
    return list(streams)


DFS = "ELBLBB"  # enter, leaf, back, leaf, back, back: 3 nodes expanded
MCTS = "MSXLSXLM"  # a move, two iterations (select, expand, leaf), a move: 2 iterations


def dfs() -> Stream:
    return Stream(DFS)


def mcts() -> Stream:
    return Stream(MCTS, ITERATIONS, ("iteration", "iterations"))


def test_columns_advance_by_work_not_by_frames() -> None:
    jobs = tree_jobs(2)
    run = Run(sources(dfs, mcts), jobs, None, None)
    own: list[list[int]] = [[], []]  # each column's own frame on each video frame
    work: list[list[int | None]] = []
    count = [-1, -1]
    for _ in run.frames():
        for i, new in enumerate(run.fresh):
            count[i] += new
            own[i].append(count[i])
        work.append(list(run.work))
    # frame 0: both start. Then MCTS's first iteration (3 frames) while depth-first waits
    # at 1 node expanded; both at 2 (depth-first's leaf and backtrack, MCTS's second
    # iteration); MCTS's last frame (a move, no work) ends it at 2 iterations; depth-first
    # goes on alone to 3 nodes expanded
    assert own == [[0, 0, 0, 0, 1, 2, 2, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7]]
    assert work == [
        [1, 0],
        [1, 1],
        [1, 1],
        [1, 1],
        [2, 2],
        [2, 2],
        [2, 2],
        [2, 2],
        [3, 2],
        [3, 2],
        [3, 2],
    ]
    assert run.costs == [3, 2]
    assert race_frames(sources(dfs, mcts), jobs) == [[0, 4, 5, 8, 9, 10], list(range(8))]


def test_a_single_search_steps_one_frame_per_video_frame() -> None:
    jobs = tree_jobs(1)
    run = Run(sources(mcts), jobs, None, None)
    assert sum(1 for _ in run.frames()) == len(MCTS)
    assert run.costs == [None]  # no race, no stamp


def expected_frames(keys: Sequence[Sequence[int]]) -> list[list[int]]:
    """The video frame of each column's frames, from their work (``keys``), by a rule of
    its own: frames 0 open the video; after that, a column's frame with work ``w`` that is
    its ``r``-th (from 0) with that work after its frame 0 is on video frame 1 + the number
    of pairs ``(w', r') < (w, r)`` that some column's frames have."""
    pairs: set[tuple[int, int]] = set()
    ranked: list[list[tuple[int, int]]] = []
    for column in keys:
        seen: dict[int, int] = {}
        mine = []
        for key in column[1:]:
            rank = seen.get(key, 0)
            seen[key] = rank + 1
            mine.append((key, rank))
        pairs.update(mine)
        ranked.append(mine)
    order = sorted(pairs)
    return [
        [0] * bool(column) + [1 + order.index(pair) for pair in mine]
        for column, mine in zip(keys, ranked, strict=True)
    ]


def frame_keys(letters: str, video: Any, kinds: frozenset[EventKind]) -> list[int]:
    """The work of each frame the policy makes of ``letters`` (the last: the whole
    stream's)."""
    keys, work = [], 0
    for event, frame in assign_frames(Stream(letters), video):
        work += event.kind in kinds
        if frame is not None:
            keys.append(work)
    events = Stream(letters)
    total = sum(1 for event in events if event.kind in kinds)
    return [*keys[:-1], total] if keys else []


@pytest.mark.parametrize("every", [1, 3])
@pytest.mark.parametrize("seed", range(12))
def test_random_races_are_aligned_on_work(seed: int, every: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(2, 4)
    letters = [
        "".join(rng.choice("EEELBBSXMFI") for _ in range(rng.randint(1, 40))) for _ in range(count)
    ]
    mcts_like = [rng.random() < 0.4 for _ in range(count)]
    kinds = [ITERATIONS if m else frozenset({EventKind.ENTER, EventKind.LEAF}) for m in mcts_like]
    jobs = tree_jobs(count, every=every)

    def source(i: int) -> Callable[[], Stream]:
        return lambda: Stream(letters[i], kinds[i])

    keys = [frame_keys(letters[i], jobs[0].video, kinds[i]) for i in range(count)]
    shown_at = race_frames([source(i) for i in range(count)], jobs)
    assert shown_at == expected_frames(keys)
    # and at each video frame after the first, the columns that move on reach one amount
    # of work, the others show their latest frame of no more work than that
    run = Run([source(i) for i in range(count)], jobs, None, None)
    for index, _ in enumerate(run.frames()):
        if index == 0:
            continue
        moved = {run.work[i] for i in range(count) if run.fresh[i]}
        assert len(moved) == 1
        (level,) = moved
        for i in range(count):
            if not run.fresh[i] and run.ahead[i] is not None:
                assert run.ahead[i] > level  # waits: its next frame has done more


def shown(ending: Ending | None) -> tuple[Event, None, bool, Ending | None]:
    return (Event(EventKind.LEAF, "n", 0, 0), None, False, ending)


def test_places_rank_the_finished_by_work_and_share_ties() -> None:
    done, cut = shown(Ending.COMPLETE), shown(Ending.MAX_EVENTS)
    places, winners = race_places([done, done, done, cut], [408, 103, 408, 50], list("ABCD"))
    assert places == [
        "tied 2nd of 4 by work",
        "1st of 4 by work",
        "tied 2nd of 4 by work",
        "did not finish",
    ]
    assert winners == ["B"]
    places, winners = race_places([done, done], [8, 8], ["A", "B"])
    assert places == ["tied 1st of 2 by work", "tied 1st of 2 by work"]
    assert winners == ["A", "B"]


def test_finish_stamps_name_a_place_only_once_it_is_sure() -> None:
    units = [("expansion", "expansions"), ("iteration", "iterations"), ("expansion", "expansions")]
    running = shown(None)
    done = shown(Ending.COMPLETE)
    stamp = (Field("finished", "1st by work"), Field("work", 103, unit="expansions"))
    # the others' next frames have done more work than 103: the place is sure
    work, costs = [103, 104, 103], [103, None, None]
    fields = race_fields([done, running, running], work, costs, units, [None, 105, 104])
    assert fields == [
        stamp,
        (Field("work", 104, unit="iterations"),),
        (Field("work", 103, unit="expansions"),),
    ]
    assert [f.text() for f in fields[0]] == ["finished 1st by work", "work 103 expansions"]
    # one counting the same unit still to come at 103 may tie: no place yet
    fields = race_fields([done, running, running], work, costs, units, [None, 104, 103])
    assert [f.text() for f in fields[0]] == ["finished", "work 103 expansions"]
    # one at 103 iterations cannot tie 103 expansions: they do not compare
    fields = race_fields([done, running, running], work, costs, units, [None, 103, 104])
    assert [f.text() for f in fields[0]] == ["finished 1st by work", "work 103 expansions"]
    # cut short: no place at all; of two searches in different units, neither ranks
    fields = race_fields([shown(Ending.MAX_FRAMES), done], [5, 1], [5, 1], units[:2], [None, None])
    assert [f.text() for f in fields[0]] == ["did not finish", "work 5 expansions"]
    assert [f.text() for f in fields[1]] == ["finished unranked", "work 1 iteration"]


def test_the_strips_stamp_each_search_when_it_ends_and_the_card_ranks_by_work() -> None:
    jobs = tree_jobs(2)
    texts = [
        [item[1] for item in frame if item is not None]
        for frame in strip_texts(sources(dfs, mcts), jobs)
    ]
    assert len(texts) == 11
    # numbers only: depth, then the work (no step counter in a race: it counts events, not
    # work; no fields of an algorithm's, no values)
    assert [f.name for f in texts[6][1].fields] == ["depth", "work"]
    assert texts[6][1].fields[1:] == (Field("work", 2, unit="iterations"),)
    assert texts[6][0].fields[1:] == (Field("work", 2, unit="expansions"),)
    # MCTS ends on frame 7 after 2 iterations, before depth-first's 3 expansions; the two
    # count different units (2 iterations, 3 expansions), so neither is ranked
    for frame in texts[7:10]:
        assert [f.text() for f in frame[1].fields[1:]] == [
            "finished unranked",
            "work 2 iterations",
        ]
    assert [frame[0].fields[1].value for frame in texts[7:10]] == [2, 3, 3]
    last = texts[-1]
    assert last[0].fields[0] == Field("race:", "unranked (expansions)")
    assert last[1].fields[0] == Field("race:", "unranked (iterations)")
    assert last[0].fields[2] == Field("work", 3, unit="expansions")
    assert last[1].fields[2] == Field("work", 2, unit="iterations")


def tie_race() -> searchvid.Scene:
    """tree-bfs-vs-dfs without its goal: both searches expand the seed's whole tree."""
    return searchvid.scene_from_dict(
        {
            "title": "Breadth-first against depth-first on the seed's tree",
            "domain": {"name": "tree"},
            "search": [
                {"algorithm": "breadth-first", "expand_events": True},
                {"algorithm": "backtracking"},
            ],
            "video": {"fps": 2, "tile_size": 48, "frames": "all", "hold_last": 3.0},
        },
        name="tie",
    )


def test_a_tie_in_work_is_a_tie_on_the_card() -> None:
    race = tie_race()
    frames = list(race.strip_texts())
    # both searches expand the tree's 8 nodes: breadth-first ends first (depth-first still
    # has to back up to the root) but its place is not sure until depth-first is done
    ends = [
        next(
            k
            for k, f in enumerate(frames)
            if f[i] is not None and f[i][1].phase.startswith("search complete")
        )
        for i in (0, 1)
    ]
    assert ends[0] < ends[1] == len(frames) - 1
    for frame in frames[ends[0] : -1]:
        item = frame[0]
        assert item is not None
        assert Field("", "finished") in item[1].fields
        assert Field("work", 8, unit="expansions") in item[1].fields
    for item in frames[-1]:
        assert item is not None
        assert item[1].fields[0] == Field("race:", "tied 1st of 2 by work")
        assert Field("work", 8, unit="expansions") in item[1].fields


def test_mcts_counts_iterations_and_scene_streams_say_so() -> None:
    assert Mcts.work_kinds == ITERATIONS
    assert Mcts.work_unit == ("iteration", "iterations")
    race = searchvid.load_scene("watersort-race")
    streams = [race.events(i) for i in range(3)]
    assert [s.work_unit[1] for s in streams] == ["expansions", "expansions", "iterations"]  # type: ignore[attr-defined]
    assert streams[0].work_kinds == frozenset({EventKind.ENTER, EventKind.LEAF})  # type: ignore[attr-defined]


def test_trace_and_run_give_the_race_s_video_frames() -> None:
    race = tie_race()
    records = list(race.trace())
    texts = list(race.strip_texts())
    assert race.run()["frames"] == len(texts) == 21
    for search in (0, 1):
        framed = [r for r in records if r["search"] == search and r["frame"] is not None]
        for record in framed:  # the frame that first shows the event shows it
            item = texts[record["frame"]][search]
            assert item is not None
            assert item[0].step == record["step"]
        assert framed[0]["frame"] == 0


def small_race(duration: float) -> searchvid.Scene:
    tubes = [[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3], [], []]
    return searchvid.scene_from_dict(
        {
            "seed": 1,
            "domain": {"name": "watersort", "tubes": tubes},
            "search": [
                {"algorithm": "breadth-first"},
                {"algorithm": "astar", "heuristic": "runs"},
                {
                    "algorithm": "mcts",
                    "mode": "plan",
                    "iterations": 20,
                    "avoid_cycles": True,
                    "commit_solution": False,
                    "reward": "progress",
                },
            ],
            # max_jumps off: the holds of jumps are paced apart (searchvid.render.jumppace)
            "video": {
                "fps": 12,
                "tile_size": 8,
                "frames": "all",
                "duration": duration,
                "max_jumps": 0,
            },
        },
        name="race",
    )


@pytest.mark.parametrize("duration", [15, 20, 30, 45])
def test_a_paced_race_lasts_its_duration(duration: int) -> None:
    race = small_race(duration)
    length = timeline(race.sources(), race.render_jobs()).duration
    assert abs(length - duration) <= Fraction(duration, 10)
    assert race.paced_video.every > 1  # thinned to fit


class Recorder:
    """A painter that records what it is shown: each track's events observed, and for each
    frame drawn the first time, the last event observed by then."""

    def __init__(self, tracks: int) -> None:
        self.observed: list[list[int]] = [[] for _ in range(tracks)]
        self.drawn: list[set[int]] = [set() for _ in range(tracks)]
        self.first_draws: list[tuple[int, int, int]] = []  # track, frame's step, last seen

    def observe(self, track: int, event: Event) -> None:
        self.observed[track].append(event.step)

    def draw(self, track: int, event: Event, best: float | None, **_: object) -> None:
        if event.step not in self.drawn[track]:
            self.drawn[track].add(event.step)
            self.first_draws.append((track, event.step, self.observed[track][-1]))

    def crown(self, winners: Sequence[str]) -> None:
        """Nothing to crown."""


def test_observers_never_run_ahead_of_the_frame_drawn() -> None:
    # frames: E, L, B / S, X, L then annotations after the last / one E then annotations
    streams = [("EFFLFB", None), ("SFXFLFF", ITERATIONS), ("EFF", None)]
    made = [lambda s=s, k=k: Stream(s, k) for s, k in streams]
    recorder = Recorder(3)
    run = Run(made, tree_jobs(3, hud=False), recorder, None)
    for shown in run.frames():
        run.draw(shown)
    # every event observed once, in order, and each frame first drawn with the events up
    # to its own observed, none after it
    assert recorder.observed == [list(range(len(s))) for s, _ in streams]
    assert all(step == seen for _, step, seen in recorder.first_draws)
    assert sorted(recorder.first_draws) == [
        (0, 0, 0),
        (0, 3, 3),
        (0, 5, 5),
        (1, 0, 0),
        (1, 2, 2),
        (1, 4, 4),
        (2, 0, 0),
    ]
