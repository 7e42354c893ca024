"""At 720 px wide, every text of every shipped scene's tree panel is at least 12 px tall,
measured from the panel's own fonts (legend, header, labels, counts)."""

from __future__ import annotations

import tomllib

import pytest

from searchvid.render.textink import MIN_TEXT
from searchvid.resources import builtin_scenes_dir
from tests.render.painters import painter_at


def tree_scenes() -> list[str]:
    names = []
    for path in sorted(builtin_scenes_dir().glob("*.toml")):
        if tomllib.loads(path.read_text(encoding="utf-8")).get("video", {}).get("tree"):
            names.append(path.stem)
    return names


@pytest.mark.parametrize("name", tree_scenes())
def test_tree_panel_text_at_720_px(name: str) -> None:
    scene, painter = painter_at(name, 720)  # the frames' own panels, laid out from the search
    layout = painter.layout
    assert layout.width == 720
    assert len(painter.panels) == len(scene.searches)
    for column, panel in zip(layout.columns, painter.panels, strict=True):
        assert column.panel is not None
        assert panel is not None
        text_sizes = panel.text_sizes  # type: ignore[attr-defined]
        text_heights = panel.text_heights  # type: ignore[attr-defined]
        assert min(text_sizes) >= MIN_TEXT, (name, column.panel, text_sizes)
        assert min(text_heights) >= MIN_TEXT


def test_the_shipped_tree_scenes_are_found() -> None:
    assert {"railroad-mcts-tree", "tictactoe-minimax-tree"} <= set(tree_scenes())
