"""Follow-up fixes to the strip's words (issue 20, item 6, second round): expectimax's value
named and explained as the scene's value function, no "best value so far -" on its frames,
an MCTS block's visits named for the move they count, a kept-tree note left out of a race's
narrow columns, and no heat map where the tree panel shows the visits."""

from __future__ import annotations

import searchvid
from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.domains.railroad.rules import Board
from searchvid.render.fieldwords import KEPT_VISITS, LEADER, kept_visits
from searchvid.render.heatmap import heat_marks
from searchvid.render.narration import Narration
from searchvid.render.voice import Voice, in_race
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

GAME = RailroadDomain(RailroadOptions(rules="game"))
START = Board.start("game")
SCALE = "scaled score: points mapped onto 0 to 1: -40 = 0, 0 = 0.25, 120 = 1"


def _texts(fields: tuple[Field, ...] | list[Field]) -> list[str]:
    return [f.text() for f in fields]


def _expectimax() -> Voice:
    """A voice as the scene gives expectimax: values the search proves (no ``score``),
    named by the value function its leaves are scored with."""
    return Voice(
        title="t",
        algorithm="expectimax",
        narrator=GAME,
        value_name="score",
        move_phase="playing",
        settings=(Field("depth", 2), Field("value", "score")),
        best_name="best value so far",
    )


def test_a_proved_value_is_named_as_expected_on_the_value_functions_scale() -> None:
    move = Event(EventKind.MOVE, START, 3, 450, 0.33125, 8, 7)
    text = Narration(_expectimax()).text(move, None, False)
    names = [f.name for f in text.fields]
    assert _texts(text.fields)[-1] == "expected scaled score 0.331"
    assert "value" not in names
    # the search reported no best move on a played move's frame: nothing to state
    assert not any(name.startswith("best") for name in names)


def test_a_best_move_the_search_reported_is_still_shown() -> None:
    narration = Narration(_expectimax())
    enter = Event(EventKind.ENTER, START, 1, 12, 0.3, 2, 1)  # a frame of the search itself
    # none reported yet: said in words, not as a dash
    assert _texts(narration.text(enter, None, False).fields)[-1] == "best value so far: none yet"
    move = Event(EventKind.MOVE, START, 3, 450, 0.33125, 8, 7)
    assert _texts(narration.text(move, 0.35, False).fields)[-2:] == [
        "expected scaled score 0.331",
        "best value so far 0.35",
    ]


def test_expectimaxs_opening_card_explains_the_scale() -> None:
    text = Narration(_expectimax()).opening(Event(EventKind.MOVE, START, 0, 0, None, 0, None))
    assert _texts(text.fields) == ["search: expectimax", "depth 2", "value: scaled score", SCALE]


def test_the_expectimax_scene_names_its_value_on_every_frame() -> None:
    scene = searchvid.load_scene("railroad-game-expectimax")
    assert scene.render_job().value_name == "score"
    assert searchvid.load_scene("tictactoe-minimax").render_job().value_name == "value"
    strips = [shown[0] for shown in scene.strip_texts() if shown[0] is not None]
    opening, *frames, closing = (text for _, text in strips)
    assert SCALE in _texts(opening.fields)
    assert frames
    for text in frames:
        words = _texts(text.fields)
        assert any(w.startswith("expected scaled score 0.") for w in words), words
        assert not any(w.startswith("best value so far") for w in words), words
        assert "value" not in [f.name for f in text.fields]
    assert closing.phase.startswith("game over")


def test_an_iteration_blocks_visits_are_the_most_visited_moves() -> None:
    assert LEADER == "most visited move"
    one = kept_visits(
        (Field("iteration", 5, of=300), Field("visits", 1), Field("mean reward", 0.5))
    )
    assert _texts(tuple(one)) == ["iteration 5/300", "most visited move 1 visit", "mean reward 0.5"]
    none = kept_visits((Field("iteration", 1, of=300), Field("visits", None)))
    assert _texts(tuple(none)) == ["iteration 1/300", "most visited move -"]
    # a roll of the dice shows the outcome's own visits, with no iteration count: unchanged
    roll = (Field("move", 4), Field("visits", 12))
    assert kept_visits(roll) == roll


def test_a_race_column_leaves_the_kept_tree_note_out() -> None:
    fields = (Field("iterations", 100, of=100), Field("visits", 338), Field("earlier visits", 250))
    assert _texts(tuple(kept_visits(fields))) == [
        "iterations 100/100",
        KEPT_VISITS.format(250),
        "most visited move 338 visits",
    ]
    assert _texts(tuple(kept_visits(fields, notes=False))) == [
        "iterations 100/100",
        "most visited move 338 visits",
    ]
    alone = Voice(title="t", algorithm="MCTS")
    assert in_race(alone, 1) == alone
    raced = in_race(alone, 3)
    assert (raced.steps, raced.notes) == (False, False)


def test_the_narrow_columns_strip_has_no_note_and_the_single_strip_has_it() -> None:
    voice = Voice(title="t", algorithm="MCTS", score=lambda node: 0.5, move_phase="playing")
    event = Event(EventKind.MOVE, START, 3, 900, 0.5, 5, 4)
    fields = (Field("iterations", 100, of=100), Field("visits", 338), Field("earlier visits", 250))
    single = _texts(Narration(voice).text(event, 0.5, False, fields).fields)
    raced = _texts(Narration(in_race(voice, 3)).text(event, 0.5, False, fields).fields)
    assert single[:5] == [
        "step 900",
        "depth 3",
        "iterations 100/100",
        "(+250 from earlier moves)",
        "most visited move 338 visits",
    ]
    assert raced[:3] == ["depth 3", "iterations 100/100", "most visited move 338 visits"]
    assert not any("earlier" in w for w in raced)


def test_the_tree_scene_has_no_heat_map_and_the_mcts_scene_has_one() -> None:
    tree = searchvid.load_scene("railroad-mcts-tree")
    assert tree.video.heatmap == "off"
    assert heat_marks(tree.paced_video, True) == ()
    plain = searchvid.load_scene("railroad-mcts")
    words = [mark.text for mark in heat_marks(plain.paced_video, True)]
    assert words == ["visits of the cell's most visited move", "the move played"]
