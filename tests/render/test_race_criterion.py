"""A race says what it is won by: its strips count work, not steps; its finish stamps, its
closing card and its title name the criterion ("by work")."""

from __future__ import annotations

import searchvid
from searchvid.render.cards import crowned_title, race_result
from searchvid.render.hud import HudText


def columns(name: str) -> list[list[HudText]]:
    """Each video frame's strips of the shipped race ``name``, column by column."""
    frames = []
    for shown in searchvid.load_scene(name).strip_texts():
        frames.append([item[1] for item in shown if item is not None])
    return frames


def test_tree_race_stamps_each_finish_with_place_criterion_and_cost() -> None:
    frames = columns("tree-bfs-vs-dfs")
    # no step counter anywhere in a race (it counts events: both searches show 15 at the
    # goal, which read as a tie), the opening card aside (it has no counters at all)
    assert all(f.name != "step" for strips in frames for t in strips for f in t.fields)
    texts = [[f.text() for f in t.fields] for t in (strips[0] for strips in frames)]
    ended = next(k for k, words in enumerate(texts) if any("finished" in w for w in words))
    # from the frame breadth-first reaches the goal until the closing card
    for words in texts[ended:-1]:
        # first (the phase, "found Minimax at depth 2", says the depth: no field repeats it)
        assert words[:2] == ["finished 1st by work", "work 6 expansions"]
    depth_first = [[f.text() for f in strips[1].fields] for strips in frames[ended:-1]]
    assert all(not any("finished" in w for w in words) for words in depth_first[:-1])
    last = frames[-1]
    assert [t.fields[0].text() for t in last] == [
        "race: 1st of 2 by work",
        "race: 2nd of 2 by work",
    ]
    assert [next(f.text() for f in t.fields if f.name == "work") for t in last] == [
        "work 6 expansions",
        "work 11 expansions",
    ]


def test_the_title_crowns_the_winner_by_work() -> None:
    # the column number is noise where the name alone says who won
    assert race_result(["2 · A*"]) == "winner by work: A*"
    assert race_result(["1 · a", "2 · b"]) == "tie by work: a and b"
    # two searches of one name: the numbers tell them apart
    assert race_result(["1 · A*", "3 · A*"]) == "tie by work: 1 · A* and 3 · A*"
    assert crowned_title("Race", "winner by work: A*") == "Race · winner by work: A*"


def test_watersort_race_ranks_by_work_and_says_so() -> None:
    frames = columns("watersort-race")
    last = frames[-1]
    phases = [t.phase for t in last]
    assert phases == ["solved in 39 pours", "solved in 39 pours", "solved in 45 pours"]
    places = [t.fields[0].text() for t in last]
    # A* first with the least work among the two counting expansions; MCTS counts
    # iterations (each a playout), which do not compare with expansions: it takes no place
    assert places == [
        "race: 2nd of 2 by work",
        "race: 1st of 2 by work",
        "race: unranked (iterations)",
    ]
    assert [next(f.text() for f in t.fields if f.name == "work") for t in last] == [
        "work 27,081 expansions",
        "work 103 expansions",
        "work 4,500 iterations",
    ]
    # its finish stamp, from the frame it ends on, says so too
    mcts = [[f.text() for f in strips[2].fields] for strips in frames[:-1]]
    stamped = [words for words in mcts if "finished unranked" in words]
    assert stamped
    assert all("work 4,500 iterations" in words for words in stamped)
    assert not any("finished 2nd by work" in w for words in mcts for w in words)
