"""Redraw the README's pictures from the shipped scenes (``make pictures``).

Each picture is one frame of a scene at a blog's width, drawn by the library exactly as a
render draws it; the GIF is a whole render.
"""

from __future__ import annotations

import sys
from pathlib import Path

import searchvid

HERE = Path(__file__).resolve().parent

PICTURES: tuple[tuple[str, int, int], ...] = (
    ("railroad-mcts-tree", 1440, 140),
    ("tictactoe-minimax-tree", 1400, 40),
    ("watersort-race", 1200, -1),
    ("railroad-beam", 900, 82),
    ("watersort-astar", 1400, 60),
    ("quarto-mcts", 900, -1),
)
"""(scene, width in pixels, frame) for each PNG picture."""

GIFS: tuple[tuple[str, int], ...] = (("tree-backtracking", 960),)
"""(scene, width in pixels) for each GIF picture."""


def main(folder: Path = HERE) -> None:
    """Write every picture into ``folder``."""
    for name, width, frame in PICTURES:
        scene = searchvid.load_scene(name).with_overrides(width=width)
        scene.preview(frame).save(folder / f"{name}.png", optimize=True)
        print(f"{name}: frame {frame} at {width} px -> {folder / name}.png")
    for name, width in GIFS:
        scene = searchvid.load_scene(name).with_overrides(width=width)
        print(scene.render(folder / f"{name}.gif"))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
