"""Two-player game trees and strips a reader can check: a node with no value yet does not
look like a draw, the legend promises pruned counts only where they are written, and the
minimax strip says its values in the game's words and what its step counter leaves out."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import searchvid
from searchvid.render.hud import HudText
from searchvid.render.pipeline import frame_painter
from searchvid.render.textink import TextInk
from searchvid.render.treelegend import LegendFacts, TreeLegend, legend_entries
from searchvid.render.treemarks import (
    DISK,
    DIVERGING,
    NO_VALUE,
    VISITED,
    VISITED_I,
    panel_colors,
)
from searchvid.render.treepanel import TreePanel
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


def test_the_legend_names_a_draw_beside_no_value_yet_in_its_own_grey() -> None:
    facts = dataclasses.replace(FACTS, middle="draw")
    entries = legend_entries(facts, hidden=False, thumbnails=False)
    keys = [(e.key, e.text) for e in entries]
    assert keys[keys.index(("visited", "no value yet")) + 1] == ("middle", "draw")
    # not for MCTS: its 0.5 is a mean reward, no draw
    assert "middle" not in [
        e.key
        for e in legend_entries(
            dataclasses.replace(facts, mcts=True), hidden=False, thumbnails=False
        )
    ]
    assert "middle" not in [e.key for e in legend_entries(FACTS, hidden=False, thumbnails=False)]
    rgb = np.array(panel_colors(True), dtype=np.uint8)
    key = TreeLegend(TextInk(14), 900, ends=("O wins", "X wins"), rgb=rgb)
    pixels = np.zeros((key.height(entries), 900, 3), dtype=np.uint8)
    key.draw(pixels, (0, 0), entries, node_shape=DISK, thumbnails=False)
    centre = key.line_height // 2 + 2
    x, seen = 0, {}
    for entry in key.lines(entries)[0]:
        if entry.key in ("visited", "middle"):  # a disk: its centre is its fill
            seen[entry.key] = tuple(pixels[centre, x + key.swatch // 2])
        x += key.entry_width(entry) & ~1
    assert seen == {"visited": NO_VALUE, "middle": DIVERGING[len(DIVERGING) // 2]}


def panel_legend(name: str) -> tuple[str, ...]:
    scene = searchvid.load_scene(name)
    (panel,) = frame_painter(scene.sources(), scene.render_jobs()).panels
    assert isinstance(panel, TreePanel)
    return panel.legend


def test_a_two_player_minimax_tree_names_the_draw_in_its_legend() -> None:
    # the game's own word for the scale's middle, beside the node with no value yet
    assert panel_legend("tictactoe-minimax-tree")[:4] == (
        "current",
        "undone",
        "no value yet",
        "draw",
    )
    assert "draw" not in panel_legend("tictactoe-mcts-tree")  # mean rewards: no draws


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
        assert [f.name for f in best] == ["best value so far:"]
        assert best[0].value in words | {"none yet"}  # never a cryptic dash
    assert windows > len(searching) // 2
    firsts = [fields_named(t, "best value so far:")["best value so far:"] for t in searching]
    assert firsts[0].text() == "best value so far: none yet"
    # from the first frame that knows a best move on, it is named in words
    known = next(i for i, f in enumerate(firsts) if f.value != "none yet")
    assert all(f.value in words for f in firsts[known:])


def test_a_minimax_that_shows_only_the_top_plies_says_how_many_nodes_beside_the_count() -> None:
    texts = strips(searchvid.load_scene("tictactoe4-solve"))
    searching = [t for t in texts if t.phase == "minimax searching"]
    assert searching
    said = [t for t in searching if "of them in the top 3 plies:" in {f.name for f in t.fields}]
    # said from the first node searched below ply 3 on (until then every node is shown)
    assert said == searching[len(searching) - len(said) :]
    assert len(said) > len(searching) * 9 // 10
    for text in said:
        fields = {f.name: f for f in text.fields}
        shown, searched = fields["of them in the top 3 plies:"], fields["nodes searched"]
        assert shown.text() == f"of them in the top 3 plies: {shown.value:,}"
        assert isinstance(shown.value, int)
        assert isinstance(searched.value, int)
        assert 0 < shown.value < searched.value
        # the node count first, then how many of them the video shows, and where
        names = [f.name for f in text.fields]
        assert names.index("of them in the top 3 plies:") == names.index("nodes searched") + 1
    named = "of them in the top 3 plies:"
    counts = [next(f.value for f in t.fields if f.name == named) for t in said]
    assert counts == sorted(counts)
    assert counts[-1] == 84  # the closing card's count
    # the whole-board game: none of the 3x3 scene's frames say so (it shows every node)
    small = strips(searchvid.load_scene("tictactoe-minimax"))
    assert not any(f.name.startswith("nodes in the") for t in small for f in t.fields)


def test_a_played_moves_frame_counts_the_nodes_the_video_showed_not_shown_ones() -> None:
    # the perfect game after the 4x4 search: its moves are no search plies
    played = [t for t in strips(searchvid.load_scene("tictactoe4-solve")) if "playing" in t.phase]
    assert played
    for text in played:
        fields = {f.name: f for f in text.fields}
        # the words of the search's frames (one name for one count), in brackets after the
        # count of all searches' nodes they are a part of
        together = str(fields["in all searches:"].value)
        assert re.match(r"nodes searched [\d,]+ \(of them in the top 3 plies: 84\), ", together)
        assert "of them in the top 3 plies:" not in fields
    # expectimax's frames are its moves and rolls only (event_depth = 1 nonetheless)
    scene = searchvid.load_scene("railroad-game-expectimax")
    assert scene.search().options.event_depth == 1
    texts = strips(scene)
    for text in texts:
        names = [f.name for f in text.fields]
        assert not any(n.startswith(("nodes in the", "before the")) for n in names)


def test_a_minimax_that_searches_each_move_again_says_how_many_nodes_came_first() -> None:
    # tictactoe-minimax-tree: the tree holds the solving search's 40 nodes; each move
    # played is searched again, unseen, and "nodes searched" counts those too
    texts = strips(searchvid.load_scene("tictactoe-minimax-tree"))
    searching = [t for t in texts if t.phase == "minimax searching"]
    assert not any(f.name == "before the first move" for t in searching for f in t.fields)
    last = texts[-1]
    fields = {f.name: f for f in last.fields}
    # the counts are all searches', not the tree's, and say so (the tree's 40 in brackets)
    assert fields["in all searches:"].text() == (
        "in all searches: nodes searched 91 (40 before the first move), transpositions 0,"
        " cut-offs 32"
    )
    assert not {"nodes searched", "before the first move", "cut-offs"} & set(fields)
    # the search's own frames count its one search: no "in all searches" there
    assert not any(f.name == "in all searches:" for t in searching for f in t.fields)
    # one unit of work: the closing card adds no "work 40 expansions" beside those counts
    assert "work" not in fields


def test_an_empty_window_is_called_a_cut_off_in_the_strip() -> None:
    seen = 0
    for text in strips(searchvid.load_scene("tictactoe-minimax-tree")):
        fields = {f.name: f for f in text.fields}
        alpha, beta = fields.get("alpha:"), fields.get("beta:")
        if alpha is None or beta is None:
            assert "window" not in fields
            continue
        order = {"O wins": 0, "draw": 1, "X wins": 2}
        empty = order[str(alpha.value)] >= order[str(beta.value)]
        assert ("window" in fields) == empty, text.fields
        if empty:
            seen += 1
            assert fields["window"].text() == "window empty: cut-off"
    assert seen  # frame 46's "alpha: X wins  beta: draw" among them


@pytest.mark.parametrize("name", ["tictactoe-minimax", "tictactoe4-solve"])
def test_minimax_scenes_write_their_window_in_words_on_every_frame(name: str) -> None:
    texts = strips(searchvid.load_scene(name))
    names = {f.name for t in texts for f in t.fields}
    assert {"alpha:", "beta:"} <= names
    assert not {"alpha", "beta"} & names
