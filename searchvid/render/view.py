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

from searchvid.errors import UserCodeError
from searchvid.usercode import method_location, safe_label, shown

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


def grid_problem(grid: Any, shape: tuple[int, int], tiles: int) -> str | None:
    """What is wrong with ``grid`` as a view's answer, or None when it is a grid of tile ids.

    A grid must be a numpy array of integers of the view's shape, every id in
    ``0 .. tiles - 1``. Ids are range-checked in the array's own dtype, before any cast, so
    an id of 32,768 or 70,000 is refused rather than wrapped into another tile.

    Args:
        grid: What ``view.grid(node)`` returned.
        shape: The view's ``(rows, cols)``.
        tiles: How many tiles the view's tile set has.
    """
    if not isinstance(grid, np.ndarray):
        return f"returned {shown(grid)}, not a numpy array of tile ids"
    if grid.shape != shape:
        return f"returned a grid of shape {grid.shape}, expected {shape} (the view's shape)"
    if grid.dtype.kind not in "iu":
        return f"returned a grid of dtype {grid.dtype}; tile ids must be integers, dtype int16"
    if not grid.size:
        return None
    low, high = int(grid.min()), int(grid.max())
    if low >= 0 and high < tiles:
        return None
    bad = low if low < 0 else high
    row, col = (int(i) for i in np.argwhere(grid == bad)[0])
    return (
        f"returned tile id {bad} at cell ({row}, {col}); the tile set has {tiles} "
        f"tile{'s' if tiles != 1 else ''} (ids 0 to {tiles - 1})"
    )


class CheckedView:
    """A view of the user's, whose every grid is checked before the renderer draws it.

    The renderer casts grids to int16 and indexes the tile atlas with them; a grid of floats,
    of the wrong shape or with ids outside the tile set would draw wrong tiles or fail deep
    inside numpy. This wrapper refuses such a grid where it enters searchvid, naming the
    view's ``grid()`` and the node (:func:`grid_problem`). Every other attribute (such as
    ``observe``) is the wrapped view's own.

    Args:
        view: What the domain's ``view()`` returned.
        source: The domain whose ``view()`` it is (named when the view is not one).
        label: The domain's label of a node, for messages.

    Raises:
        UserCodeError: ``view`` is not a view: no :class:`TileSet`, or a bad ``shape``.
    """

    def __init__(self, view: Any, *, source: Any, label: Callable[[Any], str]) -> None:
        if not callable(getattr(view, "grid", None)):
            raise UserCodeError(
                str(method_location(source, "view")),
                f"returned {shown(view)}, not a view (an object with tileset, shape and "
                "grid(node))",
            )
        tileset = getattr(view, "tileset", None)
        if not isinstance(tileset, TileSet):
            raise UserCodeError(
                str(method_location(view, "tileset")),
                f"is {shown(tileset)}, not a searchvid TileSet",
            )
        shape: Any = getattr(view, "shape", None)
        if not _is_shape(shape):
            raise UserCodeError(
                str(method_location(view, "shape")),
                f"is {shown(shape)}; it must be (rows, cols), two integers >= 1",
            )
        self._view = view
        self._label = label
        self._tileset = tileset
        self._shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        self._tiles = len(tileset.names)

    @property
    def tileset(self) -> TileSet:
        """The wrapped view's tiles."""
        return self._tileset

    @property
    def shape(self) -> tuple[int, int]:
        """The wrapped view's ``(rows, cols)``."""
        return self._shape

    def grid(self, node: Any) -> TileGrid:
        """The wrapped view's grid of ``node``, checked, as int16.

        Raises:
            UserCodeError: The grid is not ``shape`` integers in the tile set's range
                (naming the view's ``grid()`` and the node).
        """
        try:
            grid = self._view.grid(node)
        except UserCodeError as error:  # raised by searchvid code the view called (GridView)
            raise error.at(safe_label(self._label, node)) from None
        problem = grid_problem(grid, self._shape, self._tiles)
        if problem is not None:
            where = str(method_location(self._view, "grid"))
            raise UserCodeError(where, problem, node=node, position=safe_label(self._label, node))
        own: TileGrid = grid if grid.dtype == np.int16 else grid.astype(np.int16)
        return own

    def __getattr__(self, name: str) -> Any:
        view = self.__dict__.get("_view")
        if view is None:  # not built yet (or a copy being made): nothing to forward to
            raise AttributeError(name)
        return getattr(view, name)


def _is_shape(shape: Any) -> bool:
    if not isinstance(shape, tuple) or len(shape) != 2:
        return False
    return all(
        isinstance(n, int | np.integer) and not isinstance(n, bool) and n >= 1 for n in shape
    )
