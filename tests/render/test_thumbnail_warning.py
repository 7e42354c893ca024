"""``tree_thumbnails`` that cannot be drawn is said once, on stderr, with the panel size the
pictures need; it is not an error (issue 23, item 7)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner

import searchvid.scene as scene_module
from searchvid import scene_from_dict
from searchvid.cli import main
from searchvid.render.treepanel import TreePanel
from searchvid.search.events import Event

CHILDREN: dict[str, Any] = {
    "Algorithms": {
        "Breadth-First": {},
        "Depth-First": {"Backtracking": {}, "Beam Search": {}},
        "Other": {"Monte Carlo Tree Search": {}},
    }
}
"""The seed's tree: 8 nodes, 4 leaves side by side, 4 levels."""


def events(children: dict[str, Any]) -> list[Event]:
    table = {
        "domain": {"name": "tree", "children": children},
        "search": {"algorithm": "backtracking"},
    }
    return list(scene_from_dict(table).events(0))


def picture(node: Any) -> npt.NDArray[np.uint8]:
    return np.zeros((8, 8, 3), dtype=np.uint8)


def panel(width: int, height: int, stream: list[Event]) -> TreePanel:
    return TreePanel(width, height, events_for_layout=stream, thumbnail=picture)


def test_a_panel_too_narrow_says_the_width_at_which_pictures_are_drawn() -> None:
    stream = events(CHILDREN)
    narrow = panel(100, 400, stream)
    assert not narrow.thumbnails
    assert narrow.thumbnail_warning == (
        "tree_thumbnails: board pictures are not drawn in a 100x400 px tree panel; they fit "
        "in a panel 160 px wide (tree_width = 160)"
    )
    at = panel(160, 400, stream)
    assert at.thumbnails
    assert at.thumbnail_warning is None
    assert not panel(158, 400, stream).thumbnails  # the width said is the least that fits


def test_a_panel_too_small_both_ways_names_both_sizes_and_they_suffice() -> None:
    stream = events(CHILDREN)
    small = panel(120, 120, stream)
    assert small.thumbnail_warning is not None
    found = re.search(r"\(tree_width = (\d+), tree_height = (\d+)\)$", small.thumbnail_warning)
    assert found, small.thumbnail_warning
    width, height = int(found.group(1)), int(found.group(2))
    assert (width, height) > (120, 120)
    assert panel(width, height, stream).thumbnails
    assert not panel(width - 2, height, stream).thumbnails


def test_a_tree_too_big_for_pictures_says_so_without_a_size() -> None:
    children: dict[str, Any] = {
        f"n{i}": {f"n{i}.{j}": {} for j in range(8)} for i in range(8)
    }  # 73 nodes
    big = panel(4000, 2000, events(children))
    assert big.thumbnail_warning == (
        "tree_thumbnails: board pictures are not drawn: the search tree has 73 nodes, "
        "pictures are drawn for at most 60"
    )


def test_no_warning_without_thumbnails_or_when_they_fit() -> None:
    stream = events(CHILDREN)
    assert TreePanel(100, 400, events_for_layout=stream).thumbnail_warning is None
    assert panel(400, 400, stream).thumbnail_warning is None


def scene_file(tmp_path: Path, tree_width: int) -> Path:
    path = tmp_path / f"narrow{tree_width}.toml"
    path.write_text(
        'title = "Thumbnails"\n'
        '[domain]\nname = "tree"\n'
        '[domain.children.Algorithms]\n"Breadth-First" = {}\n'
        '"Depth-First" = { "Backtracking" = {}, "Beam Search" = {} }\n'
        '[search]\nalgorithm = "backtracking"\n'
        "[video]\ntile_size = 32\ntree = true\ntree_thumbnails = true\n"
        f"tree_width = {tree_width}\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("command", ["preview", "render"])
def test_the_cli_prints_one_warning_line_and_still_renders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setattr(scene_module, "_WARNED", set())
    out = tmp_path / ("frame.png" if command == "preview" else "frames")
    args = [command, str(scene_file(tmp_path, 100)), "-o", str(out)]
    result = CliRunner().invoke(main, [*args, "--quiet"] if command == "render" else args)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        "Warning: tree_thumbnails: board pictures are not drawn in a 100x400 px tree panel; "
        "they fit in a panel 122 px wide (tree_width = 122)"
    ]
    assert out.exists()


def test_the_cli_is_silent_at_the_width_it_was_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scene_module, "_WARNED", set())
    args = ["preview", str(scene_file(tmp_path, 122)), "-o", str(tmp_path / "frame.png")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.stderr
