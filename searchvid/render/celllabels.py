"""Coordinates on the board: a view's labels drawn in the corners of chosen cells.

A domain whose words name squares ("road curve at C4", "X at b2") needs those names on the
board, or the words and the picture disagree. A view declares them with a ``cell_labels``
attribute: a sequence of :class:`CellLabel` (a cell, a short text, a corner). The renderer
draws each label as a small dark tag, the status strip's light text on its dark ground
(anti-aliased on the strip's shades, so a GIF palette gains no colour), tucked into that
corner of its cell, as chess boards print files and ranks inside their edge squares. Railroad
Ink puts column letters in the border cells under the board and row numbers in those to its
left, in the corner nearest the interior, clear of the exits' arrows.

Labels stay put: they are painted after every other mark of the frame, and again only on the
cells the board draws anew (a changed tile, or a cell a mark covered on the frame before).
Text is at least :data:`~searchvid.render.textink.MIN_TEXT` pixels (legible at 720 px wide)
and grows with the tile; every edge lies on even pixels (yuv420p's 2x2 chroma).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import TileBoard
from searchvid.render.hud import HUD_COLORS
from searchvid.render.textink import MIN_TEXT, TextInk, ramp

Corner = Literal["nw", "ne", "sw", "se", "n", "s", "e", "w"]
"""Where in its cell a label sits: a corner, north-west (top left) ... south-east, or the
middle of an edge, ``"n"`` (top, centred: a column's letter under its column) ... ``"w"``."""

GROUND: RGB = HUD_COLORS[0]
"""The tag's ground: the status strip's background."""
INK: RGB = HUD_COLORS[2]
"""The tag's text: the status strip's status colour."""
COLORS: tuple[RGB, ...] = ramp(INK, GROUND)
"""Every colour a tag holds: its ground, the text's anti-aliasing blends, the text."""

_PAD = 2  # pixels between the tag's edge and its text's ink
_INSET = 2  # pixels between the cell's edge and the tag


@dataclass(frozen=True)
class CellLabel:
    """A label a view writes on one cell of its board.

    Attributes:
        row: The cell's row in the view's grid.
        col: The cell's column.
        text: A few characters: ``"C"``, ``"4"``.
        corner: The corner of the cell it sits in.
    """

    row: int
    col: int
    text: str
    corner: Corner = "ne"


def label_font(tile_size: int) -> int:
    """The labels' font size on tiles of ``tile_size`` px: a sixth of the tile, and never
    under :data:`MIN_TEXT`."""
    return max(MIN_TEXT, tile_size // 6)


def labels_of(view: object, shape: tuple[int, int]) -> tuple[CellLabel, ...]:
    """The labels ``view`` declares (its ``cell_labels``; none without one).

    Raises:
        ValueError: A label that is not a :class:`CellLabel`, lies outside the view's
            ``shape``, has no text or names an unknown corner.
    """
    labels = tuple(getattr(view, "cell_labels", None) or ())
    rows, cols = shape
    for label in labels:
        if not isinstance(label, CellLabel):
            raise ValueError(f"a view's cell_labels must be CellLabel objects, got {label!r}")
        if not (0 <= label.row < rows and 0 <= label.col < cols):
            raise ValueError(
                f"label {label.text!r} is on cell ({label.row}, {label.col}), "
                f"outside the {rows}x{cols} board"
            )
        if not label.text:
            raise ValueError(f"the label on cell ({label.row}, {label.col}) has no text")
        if label.corner not in get_args(Corner):
            raise ValueError(
                f"label {label.text!r}: corner {label.corner!r} is not one of "
                f"{', '.join(map(repr, get_args(Corner)))}"
            )
    return labels


def tag(text: str, ink: TextInk) -> npt.NDArray[np.uint8]:
    """``text`` as a tag: ``(height, width, 3)`` RGB, both even, the text's ink centred on
    the ground with :data:`_PAD` pixels around it."""
    levels = ink.ink(text)
    height = levels.shape[0] + 2 * _PAD + 1 & ~1
    width = max(height, levels.shape[1] + 2 * _PAD) + 1 & ~1
    shades = np.array(COLORS, dtype=np.uint8)
    picture = np.empty((height, width, 3), dtype=np.uint8)
    picture[:] = GROUND
    top = (height - levels.shape[0]) // 2
    left = (width - levels.shape[1]) // 2
    picture[top : top + levels.shape[0], left : left + levels.shape[1]] = shades[levels]
    return picture


def _offset(corner: Corner, tile_size: int, h: int, w: int, inset: int) -> tuple[int, int]:
    """Where a tag ``h`` x ``w`` px sits in its cell (top, left): ``inset`` px from the
    edges ``corner`` names, centred along an edge it does not name."""
    dy = (tile_size - h) // 2
    if "n" in corner:
        dy = inset
    elif "s" in corner:
        dy = tile_size - h - inset
    dx = (tile_size - w) // 2
    if "w" in corner:
        dx = inset
    elif "e" in corner:
        dx = tile_size - w - inset
    return dy, dx


class LabelLayer:
    """Paints a view's cell labels over a :class:`TileBoard`.

    Args:
        labels: The labels (see :func:`labels_of`).
        tile_size: The board's tile size in pixels.
        cols: The board's columns (labels are keyed by flat cell index).

    Attributes:
        text_height: The height of the labels' text ink in pixels (0 without labels).
    """

    def __init__(self, labels: Sequence[CellLabel], tile_size: int, cols: int) -> None:
        ink = TextInk(label_font(tile_size))
        self.text_height = ink.height if labels else 0
        self._cols = cols
        self._tags: dict[int, list[tuple[int, int, npt.NDArray[np.uint8]]]] = {}
        for label in labels:
            picture = tag(label.text, ink)
            h, w = picture.shape[:2]
            h, w = min(h, tile_size), min(w, tile_size)  # a tag never spills out of its cell
            picture = picture[:h, :w]
            inset = min(_INSET, (tile_size - h) // 2 & ~1, (tile_size - w) // 2 & ~1)
            dy, dx = _offset(label.corner, tile_size, h, w, inset)
            cell = label.row * cols + label.col
            self._tags.setdefault(cell, []).append((dy & ~1, dx & ~1, picture))
        self._covered: set[int] = set()  # cells a mark covers on this frame
        self._was_covered: set[int] = set()  # ... on the frame before: drawn anew now

    @property
    def colors(self) -> tuple[RGB, ...]:
        """The colours the tags hold (none without labels)."""
        return COLORS if self._tags else ()

    def covered(self, cells: Iterable[int]) -> None:
        """Take it that a mark was drawn over ``cells`` this frame (the board draws them
        anew on the next update, so their labels are painted again then)."""
        self._covered.update(int(k) for k in cells)

    def paint(
        self, board: TileBoard, before: npt.NDArray[np.integer] | None, *, everything: bool
    ) -> None:
        """Paint the labels the board's last update drew over: all of them on its first
        update or with ``everything`` (the board was recomposed, or a layer such as the heat
        map may have painted any cell), else those on cells whose tile changed since
        ``before`` or that a mark covered on the frame before. Call it after the frame's
        other marks."""
        grid = board.grid
        if grid is None or not self._tags:
            return
        # a mark of this frame is under the label (painted last); one of the frame before
        # was taken off by this update, which repainted its cells without their labels
        covered = self._covered | self._was_covered
        self._was_covered, self._covered = self._covered, set()
        flat = grid.ravel()
        same_shape = before is not None and before.shape == grid.shape
        old = before.ravel() if before is not None and same_shape and not everything else None
        size = board.atlas.size
        for cell, tags in self._tags.items():
            if old is not None and cell not in covered and flat[cell] == old[cell]:
                continue
            r, c = divmod(cell, self._cols)
            for dy, dx, picture in tags:
                board.buffer.paint_rgb(
                    board.top + r * size + dy, board.left + c * size + dx, picture
                )
