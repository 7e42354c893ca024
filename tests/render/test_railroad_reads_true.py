"""The Railroad Ink scenes read true (issue 20 item 6, second readers): a replayed solution
is no search step, the closing card states the result once, the board's score is in points."""

from __future__ import annotations

from searchvid.search.events import EventKind
from tests.render.strips import strips
from tests.render.strips import texts as words


def test_the_beams_replay_keeps_the_step_where_the_search_ended() -> None:
    shown = strips("railroad-beam")
    replay = [k for k, (e, _) in enumerate(shown) if e.kind is EventKind.MOVE]
    assert len(replay) == 24  # the root and the 23 tiles of the solution
    assert replay == list(range(replay[0], len(shown)))  # the video's last frames
    searched = shown[replay[0] - 1][0]
    assert searched.kind is not EventKind.MOVE
    first = shown[replay[0]][0].step
    # the search's last event (its goal, not a frame of its own) came after that frame
    assert searched.step < 13_508 < first
    for k in replay:
        event, text = shown[k]
        assert event.step >= first  # the events go on counting...
        assert words(text)[:2] == ["step 13,508", f"depth {event.depth}"]  # the strip does not


def test_the_beams_closing_card_states_the_result_once() -> None:
    _, text = strips("railroad-beam")[-1]
    assert text.phase == "all 12 exits joined with 23 tiles"
    assert words(text) == [
        "step 13,508",
        "depth 23",
        "level 23",
        "kept 6/6",
        "exits joined 12/12",
        "points 53",
    ]


def test_the_board_shows_its_score_in_points() -> None:
    for name in ("railroad-beam", "railroad-mcts", "railroad-game-mcts"):
        for _, text in strips(name)[1:]:
            names = [f.name for f in text.fields]
            assert "score" not in names
            assert "points" in names
