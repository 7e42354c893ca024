"""Issue 20 item 6, third round, the Railroad Ink scenes: what the fair readers found false
or unexplained, pinned in the strip's exact words.

- railroad-backtracking: the closing card says the rest of the search found nothing better
  than the best found early; the opening card says what ``points`` counts.
- railroad-game-expectimax: the opening card promises no picture of the search the video
  does not show (``event_depth`` with ``frames = "moves"``); a closing caption too long for
  its line loses its parenthesised settings, not its result.
- railroad-game-random: a single random walk is narrated as random play: no ``walk
  1/1``, no ``best``, no search work on its closing card.
"""

from __future__ import annotations

import numpy as np
import pytest

from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.render.hud import Hud, HudText
from searchvid.render.setting_words import FRAMES_KEY, describe_setting
from searchvid.search.algorithms.random_walk import RandomWalk
from searchvid.search.status import Field
from tests.render.strips import strips as frames
from tests.render.strips import texts

# -- railroad-backtracking ---------------------------------------------------------------


def test_backtracking_cards_say_what_points_are_and_that_nothing_beat_the_best() -> None:
    strips = frames("railroad-backtracking")
    opening, closing = strips[0][1], strips[-1][1]
    assert texts(opening) == [
        "search: backtracking",
        "goes at most 2 moves deep",
        "never revisits a position",
        # the domain's proved bound (12 tiles) exceeds max_depth: said before the search
        "joining all 12 exits needs at least 12 tiles: out of reach in 2 moves",
        "the search keeps the best by closeness to goal",
        "points: the dice game's score if it ended now",
        "closeness to goal: 1 when one network joins all 12 exits, lower the more tiles it "
        "still needs",
    ]
    # the best board, found at step 1,348; the search's last step is 29,177
    assert closing.phase == (
        "search complete; best found: closeness to goal 0.539, none better in the 27,829 "
        "steps after it"
    )
    assert texts(closing)[:5] == [
        "joining all 12 exits needs at least 12 tiles: impossible within 2 moves",
        "found at step 1,348",
        "depth 2",
        "visited 14,587",
        "exits joined 0/12",
    ]
    assert strips[-1][0].step == 1_348


def test_points_are_explained_only_where_no_dice_game_is_played() -> None:
    puzzle = RailroadDomain(RailroadOptions())
    game = RailroadDomain(RailroadOptions(rules="game"))
    assert puzzle.describe_value_function("points") == (
        "points",
        "the dice game's score if it ended now",  # an unfinished board's open ends count
    )
    assert game.describe_value_function("points") is None  # the problem line says how
    assert game.describe_value_function("score") == puzzle.describe_value_function("score")


# -- railroad-game-expectimax ------------------------------------------------------------


@pytest.mark.parametrize(
    ("frames_key", "depth", "phrase"),
    [
        ("all", 1, "showing the top ply of the search"),
        ("all", 3, "showing the top 3 plies of the search"),
        ("all", 0, "showing every position searched"),
        ("leaves", 1, "showing the dead ends in the top ply of the search"),
        ("leaves", 0, "showing the dead ends searched"),
        ("moves", 1, ""),  # no searched position is a frame: nothing to promise
        ("improvements", 2, ""),
    ],
)
def test_event_depth_promises_only_what_the_frames_show(
    frames_key: str, depth: int, phrase: str
) -> None:
    options = {"event_depth": depth, FRAMES_KEY: frames_key}
    assert describe_setting("minimax", "event_depth", depth, options) == phrase
    assert describe_setting("minimax", "event_depth", 1, {}) == "showing the top ply of the search"


def test_expectimax_opening_promises_no_ply_it_does_not_show() -> None:
    strips = frames("railroad-game-expectimax")
    # its table of solved positions is on by default and said; alpha-beta, on by default
    # too, is not: in a one-player game of chance it cuts nothing as a rule
    assert texts(strips[0][1]) == [
        "search: expectimax",
        "remembers positions already solved",
        "looks 2 moves ahead",
        "value: scaled score",
        "averages 3 sampled outcomes per roll",
        "scaled score: points mapped onto 0 to 1: -40 = 0, 0 = 0.25, 120 = 1",
    ]
    assert strips[-1][1].caption == (
        "expectimax (remembers positions already solved, looks 2 moves ahead, value: scaled "
        "score, averages 3 sampled outcomes per roll)"
    )  # the result is the phase's, said once


def _strip(caption: str, width: int = 720) -> np.ndarray:
    hud = Hud(width, captions=True)
    hud.update(HudText("a title", "a phase", (Field("step", 1),), caption))
    return hud.strip.copy()


def test_a_caption_too_long_loses_its_asides_before_it_is_cut() -> None:
    long = (
        "expectimax (looks 2 moves ahead, value: scaled score, averages 3 sampled outcomes "
        "per roll): game over: 37 points"
    )
    assert np.array_equal(_strip(long), _strip("expectimax: game over: 37 points"))
    # the asides go last first, a nested one whole, until the caption fits
    two = f"one (first aside) two {'(second (nested) aside) ' * 6}end"
    assert np.array_equal(_strip(two, 240), _strip("one (first aside) two end", 240))
    # a caption that fits keeps its asides
    assert not np.array_equal(_strip("a (short aside)"), _strip("a"))


# -- railroad-game-random ----------------------------------------------------------------


def test_a_single_walk_is_random_play() -> None:
    strips = frames("railroad-game-random")
    assert texts(strips[0][1])[:2] == [
        "search: random play",
        "one line of random moves from the start",
    ]
    mid = strips[10][1]
    assert mid.phase == "random play in progress"
    assert texts(mid) == [
        "step 11",
        "depth 10",
        "round 2/7",
        "exits joined 0/12",
        "points -7",
        "scaled score 0.206",
    ]
    last = strips[-1][1]
    assert last.phase == "game over: -2 points"
    assert texts(last) == [  # "game over" once: the phase says it
        "step 39",
        "depth 38",
        "exits joined 2/12",
        "points -2",
        "exit points 4",
        "road 5",
        "rail 4",
        "centre 3",
        "errors -18",
    ]
    assert last.caption == (
        "random play (one line of random moves from the start, value: scaled score)"
    )  # the result is the phase's, said once


def test_several_walks_stay_a_search() -> None:
    assert RandomWalk.narrated_as({"restarts": 12}) is None
    assert RandomWalk.best_name_for({"restarts": 12}) == "best"
    assert RandomWalk.narrated_as({}) == ("random play", "in progress")
    assert RandomWalk.best_name_for({"restarts": 1}) == ""
    assert describe_setting("random-walk", "restarts", 1, {}) == (
        "one line of random moves from the start"
    )
    strips = frames("railroad-random")
    assert strips[1][1].phase == "random walk searching"
    assert texts(strips[1][1])[2] == "walk 1/12"
