"""A single search's closing card states what the search cost in its own unit (issue 20
item 6): ``work 5 expansions`` for a breadth-first search, whose own fields (frontier,
level) count no work; nothing more where the algorithm's fields already count it."""

from __future__ import annotations

from typing import Any

import searchvid
from searchvid.render.cards import race_places, ranked_columns, solo_work
from searchvid.render.hud import HudText
from searchvid.render.voice import Ending
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

CHILDREN = {
    "Algorithms": {
        "Breadth-First": {"Best-First": {"A*": {}}},
        "Depth-First": {"Backtracking": {}, "Beam Search": {}},
        "Monte Carlo Tree Search": {},
    }
}
EXPANSIONS = ("expansion", "expansions")
ITERATIONS = ("iteration", "iterations")


def strips(algorithm: str, **domain: Any) -> tuple[searchvid.Scene, list[HudText]]:
    data = {
        "title": "t",
        "seed": 0,
        "domain": {"name": "tree", "root": "Root", "children": CHILDREN, **domain},
        "search": {"algorithm": algorithm},
        "video": {"fps": 2, "tile_size": 40},
    }
    scene = searchvid.scene_from_dict(data, name="t")
    texts = []
    for shown in scene.strip_texts():
        item = shown[0]
        assert item is not None
        texts.append(item[1])
    return scene, texts


def test_a_breadth_first_closing_card_states_its_expansions() -> None:
    scene, texts = strips("breadth-first", goal="Monte Carlo Tree Search")
    last = texts[-1]
    assert last.phase == "found Monte Carlo Tree Search at depth 2"
    # Root, Algorithms, Breadth-First, Depth-First, then the goal: five nodes expanded
    expanded = [
        e.kind for e in scene.events(framed=False) if e.kind in (EventKind.ENTER, EventKind.LEAF)
    ]
    assert len(expanded) == 5
    # (the step counter is the narration's, not this card's point: left out)
    # (the phase says "at depth 2": no depth nor level field says it again)
    assert tuple(f for f in last.fields if f.name != "step") == (
        Field("work", 5, unit="expansions"),
        Field("frontier", 3),
        # the 5 expanded and the 3 left on the frontier, each met once
        Field("distinct states seen", 8, prefix=True),
        Field("", "no shallower goal"),  # found level by level, in the tree's words
        Field("at", "Monte Carlo Tree Search"),
    )
    # the frames before it count the same work as it grows (one counter, no step beside
    # it), up to the card's figure
    counts = [f.value for text in texts[1:-1] for f in text.fields if f.name == "work"]
    assert len(counts) == len(texts) - 2
    assert counts == sorted(counts)
    assert counts[-1] == 5
    assert all(f.name != "step" for text in texts[1:] for f in text.fields)


def test_backtracking_counts_its_own_work_and_gets_no_second_count() -> None:
    _, texts = strips("backtracking")
    last = texts[-1]
    assert last.phase == "search complete: 9 nodes"
    assert Field("visited", 9) in last.fields
    assert [f.name for f in last.fields if f.name == "work"] == []


def test_solo_work_adds_the_cost_unless_the_fields_count_it() -> None:
    assert solo_work(103, EXPANSIONS, (Field("g", 39), Field("frontier", 124))) == (
        Field("work", 103, unit="expansions"),
    )
    assert solo_work(1, EXPANSIONS, ()) == (Field("work", 1, unit="expansion"),)
    assert solo_work(0, EXPANSIONS, ()) == ()  # nothing done: nothing to state
    assert solo_work(9, EXPANSIONS, (Field("visited", 9),)) == ()  # the same count
    assert solo_work(268, EXPANSIONS, (Field("walk", 6, of=6),)) == ()  # its own counter
    assert solo_work(50, ("iteration", "iterations"), (Field("iterations", 49, of=50),)) == ()
    # a flag or a word is no count
    assert solo_work(1, EXPANSIONS, (Field("solved", True), Field("at", "Root"))) == (
        Field("work", 1, unit="expansion"),
    )


def test_a_race_ranks_only_the_searches_whose_work_counts_in_one_unit() -> None:
    e, i = EXPANSIONS, ITERATIONS
    assert ranked_columns([e, e, i]) == {0, 1}
    assert ranked_columns([e, e]) == {0, 1}
    assert ranked_columns([e, i]) == frozenset()  # no two compare
    assert ranked_columns([i, e, e, i]) == {0, 3}  # a tie: the earliest column's unit
    done = (Event(EventKind.LEAF, "n", 0, 0), None, False, Ending.COMPLETE)
    titles = ["1 · breadth-first", "2 · A*", "3 · MCTS"]
    places = race_places([done, done, done], [27081, 103, 4500], titles, [e, e, i])
    assert places == (
        ["2nd of 2 by work", "1st of 2 by work", "unranked (iterations)"],
        ["2 · A*"],
    )
    # two searches in different units: no place, no winner (the title crowns nobody)
    assert race_places([done, done], [3, 2], titles[:2], [e, i]) == (
        ["unranked (expansions)", "unranked (iterations)"],
        [],
    )
