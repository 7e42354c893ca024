"""Scenes with the tree panel and captions: previews equal renders, renders repeat, and the
caption line narrates in the domain's words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

import searchvid
from searchvid.render.job import RenderJob, track
from searchvid.render.pipeline import FramePainter

MINIMAX: dict[str, Any] = {
    "title": "minimax with its tree",
    "domain": {"name": "tictactoe", "position": "XOX/.O./..."},
    "search": {"algorithm": "minimax", "transposition": False},
    "video": {"tile_size": 40, "tree": True, "tree_thumbnails": True, "hold_last": 0},
}


def frames_of(folder: Path) -> list[np.ndarray]:
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(folder.glob("frame_*.png"))]


def test_panel_previews_equal_the_rendered_frames_and_renders_repeat(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict(MINIMAX, name="panel")
    frames = frames_of(scene.render(tmp_path / "a").path)
    again = frames_of(scene.render(tmp_path / "b").path)
    assert len(frames) > 20
    assert all(np.array_equal(x, y) for x, y in zip(frames, again, strict=True))
    board_width = 3 * 40
    assert frames[0].shape[1] > board_width + 300  # the panel sits beside the board
    for index in (7, -1):
        assert np.array_equal(np.asarray(scene.preview(index)), frames[index])
    # the panel changes as the search goes: the tree grows
    panel = (slice(0, 300), slice(board_width, None))
    assert not np.array_equal(frames[1][panel], frames[-1][panel])


def test_side_by_side_with_panels_previews_equal_renders(tmp_path: Path) -> None:
    table = {
        **MINIMAX,
        "search": [
            {"algorithm": "minimax", "transposition": False},
            {"algorithm": "backtracking"},
        ],
        "video": {**MINIMAX["video"], "tree_thumbnails": False, "max_frames": 40},
    }
    scene = searchvid.scene_from_dict(table, name="two-panels")
    frames = frames_of(scene.render(tmp_path / "f").path)
    for index in (3, -1):
        assert np.array_equal(np.asarray(scene.preview(index)), frames[index])


def _caption(scene: searchvid.Scene, frame: int) -> str:
    """The caption text the strip shows for ``frame`` (the narration, not pixels)."""
    job: RenderJob = scene.render_job()
    painter = FramePainter([track(job, None)], job.video)
    records = list(scene.events())
    shown = [e for e in records if e.kind.shows_state]
    for event in records:
        painter.observe(0, event)
        if event is shown[frame]:
            break
    text = painter.narrations[0].text(shown[frame], None, False)
    assert text.caption is not None
    return text.caption


def test_captions_narrate_moves_and_backtracks_in_the_domains_words() -> None:
    table = {
        "domain": {"name": "tictactoe", "position": "XOX/.O./..."},
        "search": {"algorithm": "minimax", "transposition": False, "alpha_beta": False},
        "video": {"captions": True},
    }
    scene = searchvid.scene_from_dict(table, name="captions")
    captions = [_caption(scene, k) for k in range(8)]
    assert captions[0] == "the start"
    assert captions[1].startswith("X at ")  # the first move, in the domain's words
    assert any(c.startswith("backtrack to depth") for c in captions)


def test_a_captioned_video_has_a_taller_strip(tmp_path: Path) -> None:
    plain = searchvid.scene_from_dict({**MINIMAX, "video": {"tile_size": 40}}, name="p")
    table = {**MINIMAX, "video": {"tile_size": 40, "captions": True}}
    captioned = searchvid.scene_from_dict(table, name="c")
    assert captioned.preview(3).height > plain.preview(3).height
