"""The fourth readers' round on minimax, expectimax, A* and the race: one wording for one
count, no dead counters, no number said twice on a closing card, no nested brackets, a
searched board named as one, and status texts that wrap or lose their asides before they
are cut."""

from __future__ import annotations

import numpy as np

from searchvid.render.hud import Hud, HudText, StripContent
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from tests.render.strips import strips, texts


def frames(name: str, column: int = 0) -> list[tuple[Event, HudText]]:
    """Each video frame's event and strip of column ``column`` of the shipped ``name``
    (frames where the column has ended left out)."""
    return strips(name, column, gaps=True)


# -- tictactoe4-solve --------------------------------------------------------------------


def test_a_move_answered_by_the_table_and_its_undoing_say_so() -> None:
    shown = frames("tictactoe4-solve")
    by_step = {event.step: (event, text) for event, text in shown}
    # step 308: X's first move d3, a position met before (the table knows its value)
    leaf, text = by_step[308]
    assert leaf.kind is EventKind.LEAF
    assert leaf.depth == 1
    assert "position seen before: value reused" in texts(text)
    # step 309: back on the empty board with that move undone: the strip says why
    back, text = by_step[309]
    assert back.kind is EventKind.BACKTRACK
    assert back.depth == 0
    assert "undone: a move to a position seen before" in texts(text)
    # a node the search looked into below says neither
    first = by_step[3][1]
    assert not any("seen before" in t for t in texts(first))
    # a node answered by the table is a leaf of the search: only leaves say so
    said = [e for e, t in shown if any(w.startswith("position seen before") for w in texts(t))]
    assert said
    assert all(e.kind is EventKind.LEAF for e in said)


def test_the_top_plies_count_has_one_wording_on_search_and_played_frames() -> None:
    shown = [text for _, text in frames("tictactoe4-solve")]
    names = {f.name for t in shown for f in t.fields if "plies" in f.name}
    assert names == {"of them in the top 3 plies:"}
    searching = [t for t in shown if t.phase == "minimax searching"]
    playing = [t for t in shown if t.phase == "minimax playing"]
    assert searching
    assert playing
    # played moves count all searches' nodes: the same words, in brackets after that count
    assert any(
        t.startswith("in all searches: nodes searched ") and "(of them in the top 3 plies: 84)" in t
        for t in texts(playing[0])
    )


# -- railroad-game-expectimax and railroad-game-random -----------------------------------


def test_expectimax_shows_no_dead_cut_off_counter_and_no_events_as_work() -> None:
    shown = frames("railroad-game-expectimax")
    # a one-player game of chance: alpha-beta cuts nothing here, so no "cut-offs 0"
    assert not any("cut-offs" in words for _, t in shown for words in texts(t))
    last = shown[-1][1]
    assert last.phase == "game over: 29 points"
    # its events are 4 of the 179,702 nodes searched: "work 4 expansions" would be false
    # (said as all its searches' count: one search per move played)
    assert "in all searches: nodes searched 179,702, transpositions 60,480" in texts(last)
    assert not any(f.name == "work" for f in last.fields)
    # "game over" once: the phase says it
    assert sum("game over" in t for t in (last.phase, *texts(last))) == 1


def test_a_two_player_minimax_keeps_its_cut_off_counter() -> None:
    shown = frames("tictactoe-minimax")
    # (the opening card, frame 0, has no counters)
    assert all(any(f.name == "cut-offs" for f in t.fields) for _, t in shown[1:5])


def test_random_play_says_game_over_once_on_its_last_frame() -> None:
    last = frames("railroad-game-random")[-1][1]
    said = [last.phase, *texts(last), last.caption or ""]
    assert sum(text.count("game over") for text in said) == 1


# -- watersort-astar ---------------------------------------------------------------------


def test_the_astar_closing_card_has_no_nested_brackets_and_one_count_of_work() -> None:
    last = frames("watersort-astar")[-1][1]
    assert last.caption == "A*, heuristic: pours still needed (at least)"
    assert "work 103 expansions" in texts(last)
    assert not any(f.name == "step" for f in last.fields)
    # an earlier frame counts the same work, so far (one counter, no step beside it)
    earlier = frames("watersort-astar")[5][1]
    assert earlier.fields[0].name == "work"
    assert not any(f.name == "step" for f in earlier.fields)


# -- watersort-race ----------------------------------------------------------------------


def test_a_board_ahead_of_the_game_is_called_a_searched_position() -> None:
    shown = frames("watersort-race", column=2)
    by_phase = {t.phase for _, t in shown}
    assert "MCTS searched position (not played)" in by_phase
    moved = False
    for event, text in shown:
        if text.phase == "MCTS searched position (not played)":
            # only once moves are played, and only on frames of the search
            assert moved
            assert event.kind not in (EventKind.MOVE, EventKind.ROLLOUT)
        moved = moved or event.kind is EventKind.MOVE


def test_a_wide_text_loses_its_asides_before_it_is_cut() -> None:
    long = "closeness to goal: 1 - pours still needed (at least) / 48 (12 colours x 4)"
    hud = Hud(300, contents=[StripContent("t", ("a" * 30,) * 2)])
    assert hud.status_lines == 2
    laid = hud._fitted(("phase", long))
    # two lines: folded whole it needs more, so the asides go (the last first) until
    # what is left fits: nothing is cut
    assert laid == ("phase", "closeness to goal: 1 - pours still needed / 48")
    assert all(hud._measure(part) <= hud._usable for part in laid)
    # with room to spare nothing is dropped: the text goes on over the lines
    roomy = Hud(300, contents=[StripContent("t", ("a" * 30,) * 5)])
    assert " ".join(roomy._fitted(("phase", long))) == f"phase {long}"


def test_a_strip_drawn_frame_after_frame_equals_the_same_frame_drawn_alone() -> None:
    # two frames whose fields take the same roomy slots (room for four-digit values) but
    # differ in width: the second must not be laid out as the first was (it overfilled a
    # line and cut "pours 10" to "pour…" in watersort-race's storyboard)
    sizing = [StripContent("t", ("a" * 30,) * 3)]
    first = HudText("t", "breadth-first searching", _race_fields(1_111, 99))
    second = HudText("t", "breadth-first searching", _race_fields(637, 10))
    alone = Hud(240, contents=sizing)
    alone.update(second)
    after = Hud(240, contents=sizing)
    after.update(first)
    after.update(second)
    assert np.array_equal(alone.strip, after.strip)


def _race_fields(frontier: int, level: int) -> tuple[Field, ...]:
    return (
        Field("depth", level),
        Field("work", 2_849, unit="expansions"),
        Field("frontier", frontier),
        Field("level", level),
        Field("pours", level),
        Field("tubes done", 0, of=12),
        Field("closeness to goal", 0.375),
    )
