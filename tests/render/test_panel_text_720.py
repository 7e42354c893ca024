"""At 720 px wide, every text of every shipped scene's tree panel is at least 12 px tall,
measured from the panel's own fonts (legend, header, labels, counts)."""

from __future__ import annotations

import tomllib
from functools import partial

import pytest

import searchvid
from searchvid.render.frame import FrameLayout, layout_events
from searchvid.render.textink import MIN_TEXT
from searchvid.resources import builtin_scenes_dir


def tree_scenes() -> list[str]:
    names = []
    for path in sorted(builtin_scenes_dir().glob("*.toml")):
        if tomllib.loads(path.read_text(encoding="utf-8")).get("video", {}).get("tree"):
            names.append(path.stem)
    return names


@pytest.mark.parametrize("name", tree_scenes())
def test_tree_panel_text_at_720_px(name: str) -> None:
    scene = searchvid.load_scene(name).with_overrides(width=720)
    video = scene.paced_video
    shapes = [scene.view().shape] * len(scene.searches)
    layout = FrameLayout(shapes, video, [video.tree] * len(shapes))
    assert layout.width == 720
    for index, (column, job) in enumerate(zip(layout.columns, scene.render_jobs(), strict=True)):
        assert column.panel is not None
        assert job.panel is not None
        events = layout_events(partial(scene.events, index), video)
        panel = job.panel(*column.panel, events)
        assert min(panel.text_sizes) >= MIN_TEXT, (name, column.panel, panel.text_sizes)
        assert min(panel.text_heights) >= MIN_TEXT


def test_the_shipped_tree_scenes_are_found() -> None:
    assert {"railroad-mcts-tree", "tictactoe-minimax-tree"} <= set(tree_scenes())
