"""The contract between a domain's view and the renderer.

A view maps a node to a fixed-shape grid of tile ids; the renderer owns everything after
that (atlas, canvas, HUD, encoders) and knows nothing of any particular domain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from PIL import Image

TileGrid = npt.NDArray[np.int16]
"""A 2-D array of tile ids, shape ``(rows, cols)``; id ``i`` is ``TileSet.names[i]``."""

TileDrawer = Callable[[str, int], Image.Image]
"""Draws the named tile as an RGB image of ``size`` x ``size`` pixels at run time."""


@dataclass(frozen=True)
class TileSet:
    """The tiles a view uses, in tile-id order.

    Exactly one of ``folder`` and ``draw`` is set.

    Attributes:
        names: ``names[i]`` is the tile with id ``i``.
        folder: Folder holding ``<name>.png`` for every name: a folder under searchvid's
            ``tile_assets/``, or an absolute path (a game of your own keeps its art beside
            its module: ``str(Path(__file__).parent / "tiles")``). The art is scaled to the
            requested tile size and snapped back to its own palette.
        draw: Draws a tile at run time at the requested size (tree diagrams with labels).
    """

    names: tuple[str, ...]
    folder: str | None = None
    draw: TileDrawer | None = None

    def __post_init__(self) -> None:
        if (self.folder is None) == (self.draw is None):
            raise ValueError("a TileSet needs exactly one of folder and draw")
        if len(set(self.names)) != len(self.names):
            raise ValueError("tile names must be distinct")

    def id(self, name: str) -> int:
        """The tile id of ``name``."""
        return self.names.index(name)


class View(Protocol):
    """Maps nodes of one domain to tile grids of a fixed shape."""

    @property
    def tileset(self) -> TileSet:
        """The tiles the grids refer to."""
        ...

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of every grid this view returns."""
        ...

    def grid(self, node: Any) -> TileGrid:
        """The tile ids showing ``node``; a new array, shape :attr:`shape`, dtype int16."""
        ...
