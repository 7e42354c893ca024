"""The strip's and opening card's words say plainly what each thing is (issue 20 item 6):
settings as a reader's phrases, a finished position's result named as that position's,
no unnamed field repeating a named one, minimax's best as a value, a draw's weight said,
an uncommitted solving playout said, Water Sort's value functions in words."""

from __future__ import annotations

import pytest

import searchvid
from searchvid.render.fieldwords import SEARCHED
from searchvid.render.setting_words import describe_setting
from searchvid.search.events import EventKind
from tests.render.strips import strips as frames
from tests.render.strips import texts


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "watersort-mcts",
            [
                "search: MCTS",
                "plays the most visited move, not the best playout",
                "100 playouts per move",
                "never revisits a position",
                "reward: closeness to goal",
                "closeness to goal: 1 - pours still needed (at least) / 48 "
                "(its most: 12 colours x 4)",
            ],
        ),
        (
            "tictactoe-minimax",
            [
                "search: minimax",
                "alpha-beta: skips moves that cannot change the result",
                "remembers positions already solved, also turned or mirrored",
                "then plays the best line",
                "tries winning moves first, then blocks, then cells on the most lines",
            ],
        ),
        (
            "tictactoe4-solve",
            [
                "search: minimax",
                "alpha-beta: skips moves that cannot change the result",
                "remembers positions already solved, also turned or mirrored",
                "showing the top 3 plies of the search",
                "then plays the best line",
                "tries winning moves first, then blocks, then cells on the most lines",
            ],
        ),
        (
            "tictactoe-mcts-tree",
            [
                "search: MCTS",
                "plays the most visited move",
                "100 playouts per move",
                "the opponent searches the same way",
            ],
        ),
    ],
)
def test_the_opening_card_says_what_each_setting_does(name: str, expected: list[str]) -> None:
    assert texts(frames(name)[0][1]) == expected


def test_setting_phrases_follow_the_values_and_the_other_options() -> None:
    assert describe_setting("minimax", "event_depth", 1, {}) == "showing the top ply of the search"
    assert describe_setting("minimax", "transposition", False, {}) == (
        "solves each position anew, even if seen"
    )
    assert describe_setting("mcts", "iterations", 300, {}) == "300 playouts in all"
    assert describe_setting("mcts", "iterations", 1, {"mode": "plan"}) == "1 playout per move"
    assert describe_setting("mcts", "commit_solution", True, {}) == (
        "plays the first solving playout"
    )
    # plan mode without it: the mode's phrase says why the best playout is not played
    unplayed = {"mode": "plan", "commit_solution": False}
    assert describe_setting("mcts", "mode", "plan", unplayed) == (
        "plays the most visited move, not the best playout"
    )
    assert describe_setting("mcts", "commit_solution", False, unplayed) == ""
    assert describe_setting("mcts", "mode", "plan", {"mode": "plan"}) == (
        "plays the most visited move"
    )
    assert describe_setting("mcts", "commit_solution", False, {}) == (
        "a solving playout is not played"
    )
    assert describe_setting("backtracking", "repeats", "path", {}) == (
        "never repeats a position on its path"
    )
    assert describe_setting("random-walk", "restarts", 12, {}) == "12 random walks from the start"
    assert describe_setting("beam", "width", 6, {}) == "keeps the best 6 of each level"
    # no phrase: the card keeps "name value" (a value function is the domain's to word)
    assert describe_setting("mcts", "reward", "progress", {}) is None
    assert describe_setting("mcts", "child_cache", 10, {}) is None
    assert describe_setting("my-search", "iterations", 10, {}) is None


def test_a_finished_position_shows_its_result_as_its_own_not_the_games() -> None:
    scene = searchvid.load_scene("tictactoe-mcts-tree")
    domain = scene.domain
    results = {"X wins", "O wins", "draw"}
    named: set[str] = set()
    game = 0  # the game's moves so far: its position is the one at this depth
    for event, text in frames("tictactoe-mcts-tree")[1:]:
        shown = texts(text)
        assert not results & set(shown)  # no unnamed "X wins" beside a named one
        if event.kind is EventKind.MOVE:
            game = event.depth
        end = domain.describe_end(event.node)
        # "outcome: undecided" is the game's own position only: a searched board says so
        assert [t for t in shown if t.startswith("outcome: ")] == (
            ["outcome: undecided"] if event.depth == game and end is None else []
        )
        if event.depth == game:
            continue  # the game's position: its end is the phase ("game over: draw")
        whose = "this playout" if event.kind is EventKind.LEAF and event.id is None else SEARCHED
        own = [t for t in shown if t.startswith(("this playout: ", f"{SEARCHED}: "))]
        assert len(own) == 1
        assert own[0].split(": ")[0] == whose
        if end is None:
            assert own[0] == f"{SEARCHED}: undecided"
        named.add(own[0])
    assert {
        "searched position: X wins",
        "this playout: X wins",
        "searched position: draw",
        "searched position: undecided",
    } <= named


def test_a_searched_win_in_a_drawn_game_is_called_a_searched_position() -> None:
    # the reader's frame 56: a board four moves on with X winning, in a game drawn at the end
    shown = frames("tictactoe-mcts-tree")
    event, text = shown[56]
    assert event.kind is not EventKind.MOVE
    assert event.node.status != 0  # a finished board
    assert text.phase == "MCTS searching"
    assert "searched position: X wins" in texts(text)
    assert shown[-1][1].phase == "game over: draw"


def test_the_game_over_card_says_the_result_once_and_how_a_draw_counts() -> None:
    _, text = frames("tictactoe-mcts-tree")[-1]
    assert text.phase == "game over: draw"
    shown = texts(text)
    assert "X's win rate 50% (draw = half)" in shown
    assert [t for t in shown if "draw" in t] == ["X's win rate 50% (draw = half)"]


@pytest.mark.parametrize(
    "name", ["tictactoe-minimax-tree", "tictactoe-minimax", "tictactoe4-solve"]
)
def test_minimax_names_its_best_a_value_and_no_result_goes_unnamed(name: str) -> None:
    shown = [texts(text) for _, text in frames(name)[1:]]
    assert any("best value so far: draw" in t for t in shown)
    assert not any(t.startswith("best move") for line in shown for t in line)
    assert not any({"draw", "X wins", "O wins"} & set(line) for line in shown)


def test_an_uncommitted_solving_playout_says_it_is_not_played() -> None:
    shown = [texts(text) for _, text in frames("watersort-mcts")[1:]]
    best = [t for line in shown for t in line if t.startswith("best playout")]
    # every best playout, scored or solving, is said to be not played; it ends solved
    assert best
    assert all(t.startswith("best playout (not played)") for t in best)
    assert best[-1] == "best playout (not played): solved"


def test_water_sort_names_its_value_functions_in_words() -> None:
    domain = searchvid.load_scene("watersort-astar").domain
    describe = domain.describe_value_function  # type: ignore[attr-defined]
    # "/ 48" says what 48 is: the estimate's most, every cell its own run
    assert describe("progress") == (
        "closeness to goal",
        "1 - pours still needed (at least) / 48 (its most: 12 colours x 4)",
    )
    assert describe("sorted") == ("share of tubes sorted", "tubes of one colour / 12")
    # the heuristics are named by what they estimate, not "heuristic runs"
    assert describe("runs") == (
        "pours still needed (at least)",
        "one per colour run past the first, one per colour on no tube's bottom",
    )
    assert describe("spread")[0] == "pours still needed (a lower guess)"
    assert describe("h") is None
    opening = frames("watersort-astar")[0][1]
    assert [f.text() for f in opening.fields][:3] == [
        "search: A*",
        "heuristic: pours still needed (at least)",
        "closeness to goal: 1 - pours still needed (at least) / 48 (its most: 12 colours x 4)",
    ]
    checked = 0
    for _, text in frames("watersort-astar")[1:]:
        fields = {f.name: f for f in text.fields}
        h, close = fields.get("h"), fields.get("closeness to goal")
        if h is None or close is None or not isinstance(h.value, float):
            continue
        assert close.value == 1 - h.value / 48  # what the card says it measures
        checked += 1
    assert checked == 140  # all but the two of the solved board, which say "solved"
