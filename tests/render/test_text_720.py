"""Every shipped scene renders 720 px wide, and every text of its frames is then at least
12 px tall: the status strip and title bar, the board legend, the tree panel (legend,
header, labels, counts) and text the view writes in its tiles. Measured from the drawing
code's own metrics (:attr:`~searchvid.render.frame.FramePainter.text_heights`), without
encoding a video."""

from __future__ import annotations

import pytest

from searchvid.render.boardlegend import marks_of
from searchvid.render.textink import MIN_TEXT
from searchvid.resources import builtin_scenes_dir
from tests.render.painters import painter_at

SCENES = sorted(path.stem for path in builtin_scenes_dir().glob("*.toml"))


@pytest.mark.parametrize("name", SCENES)
def test_every_text_is_at_least_12_px_tall_at_720_px(name: str) -> None:
    scene, painter = painter_at(name, 720)
    assert painter.width == 720
    heights = painter.text_heights
    # every part that writes text is measured
    view = scene.view()
    assert "strip" in heights
    assert ("title" in heights) == (len(scene.searches) > 1)
    assert ("legend" in heights) == bool(marks_of(view))
    assert ("panel" in heights) == scene.video.tree
    assert ("board" in heights) == hasattr(view, "label_size")
    assert ("coordinates" in heights) == bool(getattr(view, "cell_labels", ()))
    assert {part: h for part, h in heights.items() if h < MIN_TEXT} == {}


def test_the_shipped_scenes_are_all_found() -> None:
    assert len(SCENES) >= 18
    assert {"tictactoe-minimax-tree", "railroad-mcts-tree", "watersort-race"} <= set(SCENES)
    assert "tree-bfs-vs-dfs" in SCENES
