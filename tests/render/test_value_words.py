"""The strip's words for what a reader could not read before (issue 20, item 6): a value
named by what it measures, visits that outnumber iterations explained, a replayed solution
without the search's stale counters, and a fast stretch that says why it is fast."""

from __future__ import annotations

from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.domains.railroad.rules import Board
from searchvid.domains.railroad.words import value_function_words
from searchvid.render.fieldwords import KEPT_VISITS, kept_visits
from searchvid.render.narration import Narration
from searchvid.render.treelegend import LegendEntry, LegendFacts, legend_entries
from searchvid.render.voice import BestShown, Ending, Voice
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

DOMAIN = RailroadDomain(RailroadOptions())
START = Board.start("basic")


def _voice(value_name: str, **kw: object) -> Voice:
    return Voice(
        title="t",
        algorithm="MCTS",
        narrator=DOMAIN,
        value_name=value_name,
        score=lambda node: 0.5,
        **kw,  # type: ignore[arg-type]
    )


def _texts(fields: tuple[Field, ...]) -> list[str]:
    return [f.text() for f in fields]


def test_railroad_names_its_value_functions_in_words() -> None:
    assert value_function_words("network") == (
        "closeness to goal",
        "1 when one network joins all 12 exits, lower the more tiles it still needs",
    )
    assert value_function_words("partial") == (
        "share of exits joined",
        "exits in the largest network / 12",
    )
    assert value_function_words("no such value") is None  # the strip keeps the name
    assert DOMAIN.describe_value_function("network") == value_function_words("network")


def test_the_strip_shows_the_value_by_what_it_measures() -> None:
    event = Event(EventKind.ENTER, START, 0, 7, 0.5, 0, None)
    text = Narration(_voice("network")).text(event, 0.75, False)
    assert _texts(text.fields)[-2:] == ["closeness to goal 0.5", "best 0.75"]
    assert not any(f.name == "network" for f in text.fields)


def test_the_opening_card_says_what_the_reward_and_the_value_measure() -> None:
    voice = _voice("partial", settings=(Field("reward", "partial"), Field("iterations", 300)))
    text = Narration(voice).opening(Event(EventKind.ENTER, START, 0, 0, None, 0, None))
    assert _texts(text.fields) == [
        "search: MCTS",
        "reward: share of exits joined",
        "iterations 300",
        "points: the dice game's score if it ended now",  # what the puzzle's strip field counts
        "share of exits joined: exits in the largest network / 12",
    ]


def test_visits_kept_from_earlier_moves_are_added_to_the_iterations_in_words() -> None:
    fields = (Field("iterations", 800, of=800), Field("visits", 610), Field("earlier visits", 209))
    assert _texts(tuple(kept_visits(fields))) == [
        "iterations 800/800",
        "(+209 from earlier moves)",  # 800 + 209: every visit on the board accounted for
        "most visited move 610 visits",
    ]
    assert KEPT_VISITS.format(1319) == "(+1,319 from earlier moves)"
    # during an iteration too; and where nothing was kept, no note at all, however many
    # visits the leader has (the search says when it kept some, not a guess from counts)
    under_way = (Field("iteration", 121, of=300), Field("visits", 7), Field("earlier visits", 3))
    assert _texts(tuple(kept_visits(under_way)))[:2] == [
        "iteration 121/300",
        "(+3 from earlier moves)",
    ]
    fresh = (Field("iterations", 300, of=300), Field("visits", 120))
    assert _texts(tuple(kept_visits(fresh))) == [
        "iterations 300/300",
        "most visited move 120 visits",
    ]
    assert kept_visits((Field("visits", 9),)) == (Field("visits", 9),)  # no iterations


def test_a_replayed_solution_drops_the_search_counters_but_the_closing_card_keeps_them() -> None:
    voice = Voice(title="t", algorithm="beam search", narrator=DOMAIN, value_name="network")
    counters = (Field("level", 23), Field("kept", 6, of=6))
    move = Event(EventKind.MOVE, START, 3, 900, 0.5, 5, 4)
    names = [f.name for f in Narration(voice).text(move, 0.5, False, counters).fields]
    assert names[:2] == ["step", "depth"]
    assert "level" not in names
    assert "kept" not in names
    closing = Narration(voice).text(move, 0.5, False, counters, Ending.COMPLETE).fields
    assert [f.name for f in closing][2:4] == ["level", "kept"]  # what the search cost
    search = Event(EventKind.ENTER, START, 3, 800, 0.5, 5, 4)
    names = [f.name for f in Narration(voice).text(search, 0.5, False, counters).fields]
    assert names[2:4] == ["level", "kept"]  # during the search they are true
    playing = Voice(title="t", algorithm="MCTS", narrator=DOMAIN, move_phase="playing")
    iterations = (Field("iterations", 300, of=300),)
    fields = Narration(playing).text(move, 0.5, False, iterations).fields
    assert Field("iterations", 300, of=300) in fields  # a committed move keeps its counters


def test_a_kept_tree_legend_says_visits_include_earlier_moves() -> None:
    def facts(played: bool) -> LegendFacts:
        return LegendFacts(
            frontier=False,
            visited_word="visited",
            leaves=False,
            dropped=False,
            pruned=False,
            played=played,
            values=True,
            value_name="mean reward",
            mcts=True,
        )

    kept = legend_entries(facts(played=True), hidden=False, thumbnails=False)
    assert kept[-1] == LegendEntry("sizes", "height, number: visits done, kept from earlier moves")
    fresh = legend_entries(facts(played=False), hidden=False, thumbnails=False)
    assert fresh[-1] == LegendEntry("sizes", "height, number: visits done")


def test_the_closing_card_names_the_best_value_in_words() -> None:
    voice = Voice(title="t", algorithm="backtracking", narrator=DOMAIN, value_name="network")
    event = Event(EventKind.ENTER, START, 0, 1348, 0.539, 0, None)
    text = Narration(voice).closing(event, 0.539, BestShown((), ()), Ending.COMPLETE)
    assert text.phase == "search complete; best found: closeness to goal 0.539"
