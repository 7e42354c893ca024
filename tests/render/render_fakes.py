"""Synthetic views, tiles and event streams for the render tests (no real domain needed)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from searchvid.render.view import TileGrid, TileSet
from searchvid.search.events import Event, EventKind

COLORS = (
    (200, 30, 30),
    (30, 160, 60),
    (40, 60, 200),
    (230, 200, 40),
    (240, 240, 240),
    (20, 20, 20),
    (250, 120, 0),
)


def draw_tile(name: str, size: int) -> Image.Image:
    """A flat colour with a bar and a dot on even pixels: board-art character, all distinct."""
    index = int(name.removeprefix("t"))
    image = Image.new("RGB", (size, size), COLORS[index % len(COLORS)])
    draw = ImageDraw.Draw(image)
    half = size // 2 & ~1
    bar = COLORS[(index + 2) % len(COLORS)]
    draw.rectangle((half - 2, 0, half - 1, size - 1), fill=bar)
    dot = COLORS[(index + 4) % len(COLORS)]
    corner = 2 * (index % max(1, size // 4))
    draw.rectangle((corner, corner, corner + 1, corner + 1), fill=dot)
    return image


def noise_tile(name: str, size: int) -> Image.Image:
    """Per-pixel pseudo-random colours (a tile whose every pixel matters)."""
    rng = np.random.default_rng(int(name.removeprefix("t")))
    pixels = rng.integers(0, 4, (size, size, 3), dtype=np.uint8) * np.uint8(80)
    return Image.fromarray(pixels)


def tileset(count: int = 6, *, noise: bool = False) -> TileSet:
    """A run-time drawn tile set ``t0``, ``t1``, ..."""
    return TileSet(
        names=tuple(f"t{i}" for i in range(count)), draw=noise_tile if noise else draw_tile
    )


class FakeView:
    """Nodes are tuples of tile ids in row-major order."""

    def __init__(self, shape: tuple[int, int], tiles: TileSet | None = None) -> None:
        self._shape = shape
        self._tileset = tiles or tileset()

    @property
    def tileset(self) -> TileSet:
        return self._tileset

    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    def grid(self, node: tuple[int, ...]) -> TileGrid:
        return np.array(node, dtype=np.int16).reshape(self._shape)


def walk(count: int, shape: tuple[int, int], *, seed: int = 1, tiles: int = 6) -> Iterator[Event]:
    """A random stream: mostly one-cell changes, some restarts (all cells), improvements.

    Every 5th event is an IMPROVE of the current node with a value that mostly rises.
    """
    rng = random.Random(seed)
    cells = shape[0] * shape[1]
    grid = [0] * cells
    depth = 0
    for step in range(count):
        if step % 5 == 4:
            value = round(step / 10 - (3 if step % 15 == 14 else 0), 2)
            yield Event(EventKind.IMPROVE, tuple(grid), depth, step, value)
            continue
        if rng.random() < 0.1:
            grid = [rng.randrange(tiles) for _ in range(cells)]
            depth = 0
            kind = EventKind.RESTART
        else:
            grid = list(grid)
            grid[rng.randrange(cells)] = rng.randrange(tiles)
            depth += 1
            kind = EventKind.LEAF if rng.random() < 0.3 else EventKind.ENTER
        yield Event(kind, tuple(grid), depth, step)


def write_assets(root: Path, folder: str, names: tuple[str, ...], size: int = 100) -> Path:
    """Write ``root/folder/<name>.png`` for every name (art drawn like :func:`draw_tile`)."""
    target = root / folder
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        draw_tile(name, size).save(target / f"{name}.png")
    return root
