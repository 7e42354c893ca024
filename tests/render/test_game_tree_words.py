"""Two-player game trees and strips a reader can check: a node with no value yet does not
look like a draw, the legend promises pruned counts only where they are written, and the
minimax strip says its values in the game's words and what its step counter leaves out."""

from __future__ import annotations

import pytest

import searchvid
from searchvid.render.hud import HudText
from searchvid.render.treelegend import LegendFacts, legend_entries
from searchvid.render.treemarks import (
    DIVERGING,
    NO_VALUE,
    VISITED,
    VISITED_I,
    panel_colors,
)
from searchvid.search.status import Field
from tests.render.test_palette import CVD, closest_pair

FACTS = LegendFacts(
    frontier=False,
    visited_word="no value yet",
    leaves=True,
    dropped=False,
    pruned=True,
    played=True,
    values=True,
    value_name="value",
    mcts=False,
)


def test_a_two_player_panel_draws_no_value_yet_far_from_a_draw() -> None:
    assert panel_colors(True)[VISITED_I] == NO_VALUE
    assert panel_colors(False)[VISITED_I] == VISITED  # one-player trees keep their grey
    draw = DIVERGING[len(DIVERGING) // 2]
    for kind in CVD:
        # as far apart as the scale's own ends are from its middle, for every reader
        near = closest_pair({"no value yet": NO_VALUE, "draw": draw}, kind)[0]
        assert near >= 0.25, (kind, near)
    table = panel_colors(True)
    assert len(set(table)) == len(table)


@pytest.mark.parametrize(("counts", "words"), [(True, "pruned (count)"), (False, "pruned")])
def test_the_legend_promises_pruned_counts_only_where_they_are_written(
    counts: bool, words: str
) -> None:
    entries = legend_entries(FACTS, hidden=False, thumbnails=False, counts=counts)
    assert [e.text for e in entries if e.key == "pruned"] == [words]


def strips(scene: searchvid.Scene) -> list[HudText]:
    out = []
    for shown in scene.strip_texts():
        item = shown[0]
        assert item is not None
        out.append(item[1])
    return out


def fields_named(text: HudText, *names: str) -> dict[str, Field]:
    return {f.name: f for f in text.fields if f.name in names}


def test_the_minimax_strip_says_its_window_and_best_move_in_the_games_words() -> None:
    scene = searchvid.load_scene("tictactoe-minimax-tree")
    texts = strips(scene)
    searching = [t for t in texts if t.phase == "minimax searching"]
    assert searching
    words = {"O wins", "draw", "X wins"}
    windows = 0
    for text in searching:
        shown = fields_named(text, "alpha:", "beta:", "alpha", "beta")
        assert set(shown) <= {"alpha:", "beta:"}, text.fields  # never a bare 0.5
        windows += bool(shown)
        assert all(f.value in words for f in shown.values()), text.fields
        best = [f for f in text.fields if f.name.startswith("best")]
        assert [f.name for f in best] in (["best value so far"], ["best value so far:"])
    assert windows > len(searching) // 2
    # the first frame that knows a best move names it in words, beside the node's own value
    known = next(t for t in searching if "best value so far:" in {f.name for f in t.fields})
    assert fields_named(known, "best value so far:")["best value so far:"].value in words


def test_a_minimax_that_shows_only_the_top_plies_says_so_beside_the_node_count() -> None:
    texts = strips(searchvid.load_scene("tictactoe4-solve"))
    searching = [t for t in texts if t.phase == "minimax searching"]
    assert searching
    for text in searching:
        assert Field("shown", "top 3 plies", prefix=True) in text.fields
        assert "top 3 plies shown" in [f.text() for f in text.fields]
    # the whole-board game: none of the 3x3 scene's frames say so (it shows every node)
    small = strips(searchvid.load_scene("tictactoe-minimax"))
    assert not any(f.name == "shown" for t in small for f in t.fields)


def test_a_played_moves_frame_does_not_say_which_plies_are_shown() -> None:
    # the perfect game after the 4x4 search: its moves are no search plies
    played = [t for t in strips(searchvid.load_scene("tictactoe4-solve")) if "playing" in t.phase]
    assert played
    # expectimax's frames are its moves and rolls only (event_depth = 1 nonetheless)
    scene = searchvid.load_scene("railroad-game-expectimax")
    assert scene.search().options.event_depth == 1
    texts = strips(scene)
    for text in [*played, *texts]:
        assert not any(f.name == "shown" for f in text.fields), text.phase


@pytest.mark.parametrize("name", ["tictactoe-minimax", "tictactoe4-solve"])
def test_minimax_scenes_write_their_window_in_words_on_every_frame(name: str) -> None:
    texts = strips(searchvid.load_scene(name))
    names = {f.name for t in texts for f in t.fields}
    assert {"alpha:", "beta:"} <= names
    assert not {"alpha", "beta"} & names
