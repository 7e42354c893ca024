"""Frame painters of shipped scenes, built once per test session: a painter with a tree
panel runs its search once silently to lay the tree out (railroad-mcts-tree: about 15 s),
and several tests measure the same frame."""

from __future__ import annotations

import functools

import searchvid
from searchvid.render.frame import FramePainter
from searchvid.render.pipeline import frame_painter


@functools.cache
def painter_at(name: str, width: int) -> tuple[searchvid.Scene, FramePainter]:
    """Shipped scene ``name`` fitted to ``width`` px, and the painter of its frames."""
    scene = searchvid.load_scene(name).with_overrides(width=width)
    return scene, frame_painter(scene.sources(), scene.render_jobs(), scene.title)
