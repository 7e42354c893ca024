"""The frame's layout at any width: tree panels shrink with the frame, columns stack where
side by side would shrink the boards' text under 12 px, and the board legend sits between
the boards and the strips, painted in every frame."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

import searchvid
from searchvid.domains.tictactoe import TicTacToeDomain
from searchvid.errors import UserCodeError
from searchvid.render.boardlegend import UNDONE_MARK, BoardLegend, marks_of
from searchvid.render.fitting import MIN_FITTED_PANEL, MIN_FITTED_TILE, fit_width
from searchvid.render.pipeline import frame_painter
from searchvid.render.textink import MIN_TEXT
from searchvid.render.tracks import Boards
from searchvid.resources import builtin_scenes_dir
from searchvid.scene import MAX_FRAME_PIXELS

SCENES = sorted(path.stem for path in builtin_scenes_dir().glob("*.toml"))

TICTACTOE_TREE: dict[str, Any] = {
    "title": "tiny",
    "domain": {"name": "tictactoe"},
    "search": {"algorithm": "minimax"},
    "video": {"tile_size": 40, "tree": True, "max_frames": 6, "hold_last": 0},
}


def boards_of(scene: searchvid.Scene) -> Boards:
    return Boards.of(scene.view(), len(scene.searches))


@pytest.mark.parametrize("width", [480, 720, 1000])
@pytest.mark.parametrize("name", SCENES)
def test_every_shipped_scene_fits_any_width_from_480(name: str, width: int) -> None:
    scene = searchvid.load_scene(name).with_overrides(width=width)
    layout = boards_of(scene).layout(scene.video)
    assert layout.width == width
    for column in layout.columns:
        assert column.left + column.width <= width
        if column.panel is not None:
            assert min(column.panel) >= MIN_FITTED_PANEL


def test_a_tree_panel_shrinks_in_proportion_to_the_frame() -> None:
    scene = searchvid.load_scene("tictactoe-minimax-tree")
    written = scene.written_video or scene.video
    natural = 3 * written.tile_size + written.tree_width  # board and panel side by side
    assert scene.video.width == 0
    assert boards_of(scene).layout(scene.video).width == natural
    narrow = scene.with_overrides(width=720).video
    assert narrow.tree_width == written.tree_width * 720 // natural // 2 * 2
    assert narrow.tree_height == written.tree_height * 720 // natural // 2 * 2
    assert narrow.tile_size == (720 - narrow.tree_width) // 3 // 2 * 2
    wide = scene.with_overrides(width=1600).video  # wider than natural: the panel keeps its size
    assert (wide.tree_width, wide.tree_height) == (written.tree_width, written.tree_height)


def test_a_race_with_trees_fits_720_px_side_by_side_and_480_px_stacked() -> None:
    race = searchvid.scene_from_dict(
        {
            "domain": {"name": "tictactoe"},
            "search": [{"algorithm": "minimax"}, {"algorithm": "mcts", "iterations": 20}],
            "video": {"tree": True},
        }
    )
    natural = boards_of(race).layout(race.video)
    assert natural.width > 904  # what 720 px was refused for
    for width, stacked in ((720, False), (480, True)):
        video = race.with_overrides(width=width).video
        layout = boards_of(race).layout(video)
        assert layout.size[0] == width
        assert layout.stacked is stacked
        assert all(c.panel is not None and min(c.panel) >= MIN_FITTED_PANEL for c in layout.columns)
    assert race.with_overrides(width=720).video.arrange == "auto"  # side by side fits


def test_a_shrunk_panel_keeps_at_least_240_px_a_side() -> None:
    table = {**TICTACTOE_TREE, "video": {**TICTACTOE_TREE["video"], "tree_width": 2000}}
    table["video"]["tree_height"] = 300
    scene = searchvid.scene_from_dict(table, name="tall").with_overrides(width=480)
    assert scene.video.tree_height == MIN_FITTED_PANEL  # 300 * 480 / 2120 would be 66
    assert scene.video.tree_width == 2000 * 480 // (3 * 40 + 2000) // 2 * 2


def _auto_race() -> Any:
    """tree-bfs-vs-dfs with ``arrange = "auto"`` (the shipped scene asks for stacked
    columns, so that its closing card's words fit)."""
    table = tomllib.loads((builtin_scenes_dir() / "tree-bfs-vs-dfs.toml").read_text())
    assert table["video"].pop("arrange") == "stacked"
    return searchvid.scene_from_dict(table, name="race.toml")


def test_columns_stack_where_side_by_side_would_write_text_under_12_px() -> None:
    scene = _auto_race()
    boards = boards_of(scene)
    assert boards.label_size is not None
    assert boards.label_size(scene.video.tile_size) >= MIN_TEXT
    assert not boards.layout(scene.video).stacked  # at its own size, side by side
    fitted = scene.with_overrides(width=720).video
    assert fitted.arrange == "stacked"
    assert boards.label_size(fitted.tile_size) >= MIN_TEXT
    side = fit_width(
        dataclasses.replace(fitted, arrange="side-by-side"), boards, max_pixels=MAX_FRAME_PIXELS
    )
    assert side.tile_size < fitted.tile_size
    assert boards.label_size(side.tile_size) < MIN_TEXT  # why they stack


def test_stacked_columns_stand_one_above_the_other() -> None:
    scene = searchvid.load_scene("tree-bfs-vs-dfs").with_overrides(width=720)
    layout = boards_of(scene).layout(scene.video)
    first, second = layout.columns
    assert layout.stacked
    assert first.left == second.left == 0
    assert layout.legend_height > 0
    (legend,) = layout.legends  # one key for every board, under the title
    assert (legend.top, legend.left, legend.width) == (layout.title_height, 0, layout.width)
    assert first.top == layout.title_height + layout.legend_height
    assert first.strip_top == first.legend_top == first.top + first.height
    assert second.top == first.strip_top + layout.strip_height + layout.gap
    assert layout.height == second.strip_top + layout.strip_height


def test_auto_stacks_columns_whose_tiles_would_be_too_small_to_read() -> None:
    scene = searchvid.load_scene("watersort-race").with_overrides(width=720)
    boards = boards_of(scene)
    assert boards.label_size is None  # no text on the boards: the tiles' size decides
    fitted = fit_width(scene.video, boards, max_pixels=MAX_FRAME_PIXELS)
    assert fitted.arrange == "stacked"
    assert fitted.tile_size >= MIN_FITTED_TILE
    side = fit_width(
        dataclasses.replace(scene.video, arrange="side-by-side"),
        boards,
        max_pixels=MAX_FRAME_PIXELS,
    )
    assert side.tile_size < MIN_FITTED_TILE
    wide = searchvid.load_scene("watersort-race").with_overrides(width=2400)
    assert fit_width(wide.video, boards_of(wide), max_pixels=MAX_FRAME_PIXELS).arrange == "auto"


def test_columns_side_by_side_share_one_legend_across_the_frame() -> None:
    scene = searchvid.load_scene("watersort-race")
    layout = boards_of(scene).layout(scene.video)
    assert len(layout.columns) == 3
    assert not layout.stacked
    (legend,) = layout.legends
    assert (legend.top, legend.left, legend.width) == (
        layout.title_height + layout.block_height,
        0,
        layout.width,
    )
    assert {c.strip_top for c in layout.columns} == {legend.top + layout.legend_height}


def test_the_legend_is_painted_between_board_and_strip_in_every_frame(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict({**TICTACTOE_TREE, "video": {"max_frames": 5}}, name="t")
    painter = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    (box,) = painter.layout.legends
    (legend,) = painter.legends
    # minimax steps back: the renderer's own "undone" mark follows the view's
    words = [w for line in legend.lines for w in line]
    assert words == [*(m.text for m in marks_of(scene.view())), "undone"]
    assert box.top == scene.view().shape[0] * scene.video.tile_size
    folder = scene.render(tmp_path / "frames").path
    frames = sorted(folder.glob("frame_*.png"))
    assert len(frames) == 5
    expected = BoardLegend(
        [*marks_of(scene.view()), UNDONE_MARK],
        lambda name: painter.atlas.tiles[scene.view().tileset.id(name)],
        box.width,
        font_size=painter.layout.legend_font,
    ).pixels
    for path in frames:
        frame = np.asarray(Image.open(path).convert("RGB"))
        assert np.array_equal(frame[box.top : box.top + legend.height], expected)
    last = np.asarray(Image.open(frames[-1]).convert("RGB"))
    assert np.array_equal(np.asarray(scene.preview(-1)), last)


@pytest.mark.parametrize(("key", "value"), [("legend", False), ("hud", False)])
def test_legend_false_or_no_strip_leaves_the_legend_out(key: str, value: bool) -> None:
    table = {**TICTACTOE_TREE, "video": {"max_frames": 5}}
    with_legend = searchvid.scene_from_dict(table, name="t")
    table["video"] = {"max_frames": 5, key: value}
    without = searchvid.scene_from_dict(table, name="t")
    on = boards_of(with_legend).layout(with_legend.video)
    off = boards_of(without).layout(without.video)
    assert on.legend_height > 0
    assert off.legend_height == 0
    assert off.legends == ()
    lost = on.legend_height + (on.strip_height if key == "hud" else 0)
    assert on.height - off.height == lost
    painter = frame_painter(without.sources(), without.render_jobs(), without.title)
    assert painter.legends == []
    assert "legend" not in painter.text_heights


def test_a_two_player_tree_panel_names_its_value_scale_by_the_players() -> None:
    scene = searchvid.load_scene("tictactoe-minimax-tree")
    panel = frame_painter(scene.sources(), scene.render_jobs(), scene.title).panels[0]
    assert panel is not None
    assert getattr(panel, "scale_ends", None) == ("O wins", "X wins")
    one = searchvid.scene_from_dict(
        {
            "domain": {"name": "tree", "root": "R", "children": {"A": {}, "B": {}}},
            "search": {"algorithm": "backtracking"},
            "video": {"tree": True},
        }
    )
    panel = frame_painter(one.sources(), one.render_jobs(), one.title).panels[0]
    assert getattr(panel, "scale_ends", None) == ("0", "1")


class SilentWords(TicTacToeDomain):
    """Tic-tac-toe without words for values: the panel names the players."""

    def describe_value(self, value: float) -> str | None:
        return None


class NumberWords(TicTacToeDomain):
    """A domain whose words for a value are a number."""

    def describe_value(self, value: float) -> Any:
        return 3


def test_two_players_without_words_are_player_1_and_player_0() -> None:
    scene = searchvid.scene_from_dict({**TICTACTOE_TREE, "domain": {"name": SilentWords}})
    panel = frame_painter(scene.sources(), scene.render_jobs(), scene.title).panels[0]
    assert getattr(panel, "scale_ends", None) == ("player 1 wins", "player 0 wins")


def test_words_that_are_not_text_name_the_domains_describe_value() -> None:
    scene = searchvid.scene_from_dict({**TICTACTOE_TREE, "domain": {"name": NumberWords}})
    with pytest.raises(UserCodeError) as info:
        scene.render_jobs()
    where = f"{NumberWords.describe_value.__code__.co_firstlineno} in NumberWords.describe_value()"
    assert re.fullmatch(
        rf"\S*test_frame_layout\.py:{re.escape(where)}: returned 3 \(an int\) for 0\.0; it "
        "must return a str or None",
        str(info.value),
    )
