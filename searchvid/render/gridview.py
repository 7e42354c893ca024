"""A generic view for games whose state is a 2-D array of small integers, drawn at run time.

:class:`GridView` needs no tile art: each value gets a flat colour and optionally a centred
label (8-puzzle numbers, a queen's "Q", a Sudoku digit), and each cell a thin border so that
neighbouring cells of one colour stay apart::

    view = GridView(
        (3, 3),
        colors={0: "#20242c", **{n: "#4e79a7" for n in range(1, 9)}},
        labels={n: str(n) for n in range(1, 9)},
        cells=lambda node: node.tiles,
    )

Tiles are drawn at half resolution and doubled with nearest-neighbour scaling, so every
colour edge falls on an even pixel (yuv420p chroma never straddles two colours). Labels are
set in the frame's font (:func:`~searchvid.render.textink.font`), anti-aliased on
:data:`~searchvid.render.textink.LEVELS` steps blended over the cell's colour, so a tile
holds only a few exact colours: its fill, the border, the label's ink and the ``LEVELS - 1``
blends of that ink on that fill (:func:`~searchvid.render.textink.ramp`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from searchvid.errors import UserCodeError
from searchvid.render.atlas import MAX_COLORS, RGB
from searchvid.render.hud import HUD_COLORS
from searchvid.render.textink import blend, font, levels, ramp
from searchvid.render.view import TileGrid, TileSet
from searchvid.usercode import function_location

Color = str | tuple[int, int, int]
"""A colour as ``"#rrggbb"`` or an ``(r, g, b)`` tuple of integers 0-255."""

CellReader = Callable[[Any], npt.ArrayLike]
"""Turns a node into its cell values: a ``(rows, cols)`` array or ``rows * cols`` values."""

INK_DARK: RGB = HUD_COLORS[0]
"""Automatic label colour on light cells (the HUD's background: no extra palette colour)."""
INK_LIGHT: RGB = HUD_COLORS[1]
"""Automatic label colour on dark cells (the HUD's title colour)."""
DEFAULT_BORDER: RGB = INK_DARK
"""Colour of the line around every cell."""

MIN_LABEL_PIXELS = 6
"""Smallest font size, in half-resolution pixels, at which labels are drawn at all."""

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_MAX_TILES = int(np.iinfo(np.int16).max) + 1
_LISTED = 20  # values named in an error message before it says "..."


class CellError(UserCodeError, ValueError):
    """Cells a :class:`GridView` cannot draw: not ``rows x cols`` integers, or a value
    without a colour. Its place is the ``cells`` function that read them (a ``ValueError``
    as well, as :meth:`GridView.grid` documents)."""


def parse_color(color: Color) -> RGB:
    """The ``(r, g, b)`` of a colour given as ``"#rrggbb"`` or as an ``(r, g, b)`` tuple.

    Raises:
        ValueError: Anything else, naming the colour and what is allowed.
    """
    if isinstance(color, str):
        if _HEX.fullmatch(color):
            return (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))
    elif isinstance(color, tuple | list) and len(color) == 3:
        parts = tuple(color)
        if all(_is_int(p) and 0 <= p <= 255 for p in parts):
            return (int(parts[0]), int(parts[1]), int(parts[2]))
    raise ValueError(
        f"bad colour {color!r}: expected '#rrggbb' or an (r, g, b) tuple of integers 0-255"
    )


class GridView:
    """A view of nodes whose state is a grid of small integer values; no tile art needed.

    Tile ``i`` shows the ``i``-th smallest value of ``colors`` (see :attr:`values`): a
    border, the value's colour and its label, if any, centred and anti-aliased. Labels are
    drawn in one font size per tile size (the largest at which every label fits its cell)
    and left out on tiles too small for a legible font (:data:`MIN_LABEL_PIXELS`).

    Args:
        shape: ``(rows, cols)`` of every grid.
        colors: The colour of each value a cell may hold; a value missing here is an error
            in :meth:`grid`.
        labels: Text drawn on the cells of a value (values not listed, or ``""``: none).
        cells: Turns a node into its values: anything numpy makes a ``(rows, cols)``
            integer array of, or a flat sequence of ``rows * cols`` values in row-major
            order. Default: ``np.asarray(node)``.
        label_colors: Label colour per value; by default near-black or white, whichever
            contrasts more with the value's colour.
        border: Colour of the thin line around every cell; None for none (cells of one
            colour then merge).

    Raises:
        ValueError: A bad shape, a bad colour (named), labels or label colours for values
            without a colour, or more colours than a GIF palette holds (the blends of each
            label's ink on its cell's colour counted).
    """

    def __init__(
        self,
        shape: tuple[int, int],
        *,
        colors: Mapping[int, Color],
        labels: Mapping[int, str] | None = None,
        cells: CellReader | None = None,
        label_colors: Mapping[int, Color] | None = None,
        border: Color | None = DEFAULT_BORDER,
    ) -> None:
        self._shape = _check_shape(shape)
        fills = {_check_value(value, "colors"): parse_color(c) for value, c in colors.items()}
        if not fills:
            raise ValueError("colors: a GridView needs at least one value")
        if len(fills) > _MAX_TILES:
            raise ValueError(f"colors: at most {_MAX_TILES} values, got {len(fills)}")
        self._values = tuple(sorted(fills))
        self._keys = np.array(self._values, dtype=np.int64)
        self._fills = tuple(fills[v] for v in self._values)
        self._labels = _labels(labels or {}, self._values)
        self._inks = _inks(label_colors or {}, self._values, self._fills)
        self._border = parse_color(border) if border is not None else None
        self._check_palette()
        self._cells = cells
        names = tuple(f"v{value}" for value in self._values)
        self._ids = {name: i for i, name in enumerate(names)}
        self._tileset = TileSet(names=names, draw=self._draw)
        self._fonts: dict[int, ImageFont.FreeTypeFont | None] = {}

    @property
    def tileset(self) -> TileSet:
        """One run-time drawn tile per value, in the order of :attr:`values`."""
        return self._tileset

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of every grid."""
        return self._shape

    @property
    def values(self) -> tuple[int, ...]:
        """The values of ``colors``, ascending: tile id ``i`` shows ``values[i]``."""
        return self._values

    def grid(self, node: Any) -> TileGrid:
        """The tile ids of ``node``'s cells: a new int16 array of shape :attr:`shape`.

        Raises:
            CellError: (a ``ValueError``) The cells are not ``rows x cols`` integers (naming
                the expected shape), or one holds a value without a colour (naming it, its
                cell and the values allowed).
        """
        array = self._read(node)
        keys = self._keys
        ids = np.searchsorted(keys, array)
        np.minimum(ids, len(keys) - 1, out=ids)
        unknown = keys[ids] != array
        if unknown.any():
            row, col = (int(i) for i in np.argwhere(unknown)[0])
            self._refuse(f"value {int(array[row, col])} at cell ({row}, {col}) has no colour")
        return ids.astype(np.int16)

    def _read(self, node: Any) -> npt.NDArray[np.int64]:
        """``node``'s cells as a ``(rows, cols)`` int64 array.

        Values are compared with the known ones in their own dtype before the cast, so a
        value that int64 cannot hold is refused rather than wrapped onto a known one.
        """
        rows, cols = self._shape
        expected = f"expected {rows}x{cols} cells (or {rows * cols} values in row-major order)"
        raw = node if self._cells is None else self._cells(node)
        try:
            array = np.asarray(raw)
        except ValueError as error:  # ragged rows
            self._refuse(f"{expected}; got no array: {error}", cells=True)
        if array.shape != self._shape:
            if array.ndim != 1 or array.size != rows * cols:
                self._refuse(f"{expected}, got shape {array.shape}", cells=True)
            array = array.reshape(self._shape)
        if array.dtype.kind not in "biu":
            self._refuse(f"expected integers, got dtype {array.dtype}", cells=True)
        if array.size and array.dtype.kind == "u" and int(array.max()) > self._values[-1]:
            row, col = np.unravel_index(int(array.argmax()), array.shape)
            self._refuse(f"value {int(array.max())} at cell ({row}, {col}) has no colour")
        return array.astype(np.int64, copy=False)

    def _refuse(self, problem: str, *, cells: bool = False) -> NoReturn:
        """Raise :class:`CellError` at the ``cells`` function (or at ``GridView.grid()``)."""
        where = "GridView.grid()" if self._cells is None else str(function_location(self._cells))
        if cells:
            problem = f"cells: {problem}"
        else:
            problem = f"{problem}; known values: {_list_values(self._values)}"
        raise CellError(where, problem)

    def _check_palette(self) -> None:
        used = {*self._fills, *HUD_COLORS}
        for ink, fill, label in zip(self._inks, self._fills, self._labels, strict=True):
            if label:  # the ink and its anti-aliased edges on the cell
                used.update(ramp(ink, fill)[1:])
        if self._border is not None:
            used.add(self._border)
        if len(used) > MAX_COLORS:
            raise ValueError(
                f"colors: {len(used)} distinct colours with labels (and their blends with "
                f"the cells), border and the status strip's {len(HUD_COLORS)}; a palette "
                f"holds at most {MAX_COLORS}"
            )

    # --- drawing -------------------------------------------------------------------------

    def _draw(self, name: str, size: int) -> Image.Image:
        """Draw the tile ``name`` at ``size`` x ``size`` pixels (``size`` even)."""
        if size < 2 or size % 2:
            raise ValueError(f"tile size must be even and at least 2, got {size}")
        tile = self._ids[name]
        half = size // 2
        line = _border_width(half) if self._border is not None else 0
        image = Image.new("RGB", (half, half), self._border or self._fills[tile])
        inner = half - 2 * line
        box = (line, line, line + inner - 1, line + inner - 1)
        ImageDraw.Draw(image).rectangle(box, fill=self._fills[tile])
        label = self._labels[tile]
        face = self._font(half) if label else None
        if face is not None:
            pixels = np.array(image)
            blend(pixels, _label_levels(label, face, half, line), self._inks[tile])
            image = Image.fromarray(pixels)
        return image.resize((size, size), Image.Resampling.NEAREST)

    def _font(self, half: int) -> ImageFont.FreeTypeFont | None:
        """The font of every label on tiles of ``half`` x ``half`` half-resolution pixels."""
        if half not in self._fonts:
            line = _border_width(half) if self._border is not None else 0
            labels = sorted({label for label in self._labels if label})
            self._fonts[half] = _fit_font(labels, half - 2 * line)
        return self._fonts[half]


def _is_int(value: object) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _check_shape(shape: tuple[int, int]) -> tuple[int, int]:
    if (
        not isinstance(shape, Sequence)
        or len(shape) != 2
        or not all(_is_int(n) and n >= 1 for n in shape)
    ):
        raise ValueError(f"shape: expected (rows, cols) of positive integers, got {shape!r}")
    return (int(shape[0]), int(shape[1]))


def _check_value(value: Any, where: str) -> int:
    if not _is_int(value):
        raise ValueError(f"{where}: values must be integers, got {value!r}")
    return int(value)


def _labels(labels: Mapping[int, str], values: tuple[int, ...]) -> tuple[str, ...]:
    """The label of each value, in tile order ("" for none)."""
    chosen: dict[int, str] = {}
    for value, text in labels.items():
        key = _check_value(value, "labels")
        if key not in values:
            raise ValueError(f"labels: value {key} has no colour; known: {_list_values(values)}")
        if not isinstance(text, str):
            raise ValueError(f"labels: the label of {key} must be a string, got {text!r}")
        chosen[key] = text.strip()
    return tuple(chosen.get(v, "") for v in values)


def _inks(
    colors: Mapping[int, Color], values: tuple[int, ...], fills: tuple[RGB, ...]
) -> tuple[RGB, ...]:
    """The label colour of each value, in tile order: as given, else the better contrast."""
    chosen: dict[int, RGB] = {}
    for value, color in colors.items():
        key = _check_value(value, "label_colors")
        if key not in values:
            known = _list_values(values)
            raise ValueError(f"label_colors: value {key} has no colour; known: {known}")
        chosen[key] = parse_color(color)
    return tuple(chosen.get(v, _contrasting_ink(f)) for v, f in zip(values, fills, strict=True))


def _contrasting_ink(fill: RGB) -> RGB:
    """:data:`INK_DARK` or :data:`INK_LIGHT`, whichever has the higher contrast on ``fill``."""
    background = _luminance(fill)
    dark = (background + 0.05) / (_luminance(INK_DARK) + 0.05)
    light = (_luminance(INK_LIGHT) + 0.05) / (background + 0.05)
    return INK_DARK if dark >= light else INK_LIGHT


def _luminance(color: RGB) -> float:
    """WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    linear = []
    for channel in color:
        c = channel / 255
        linear.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _border_width(half: int) -> int:
    """Border width in half-resolution pixels: 0 on tiles too small to spare one."""
    return 0 if half < 4 else max(1, half // 40)


def _label_levels(
    label: str, face: ImageFont.FreeTypeFont, half: int, line: int
) -> npt.NDArray[np.uint8]:
    """Ink levels (0 to ``LEVELS``) of ``label`` centred in the cell inside a border
    ``line`` wide: a ``(half, half)`` array."""
    stroke = _stroke(face)
    inner = half - 2 * line
    left, top, right, bottom = face.getbbox(label, stroke_width=stroke)
    x = line + (inner - int(right - left)) // 2 - int(left)
    y = line + (inner - int(bottom - top)) // 2 - int(top)
    coverage = Image.new("L", (half, half), 0)
    draw = ImageDraw.Draw(coverage)
    draw.fontmode = "L"  # anti-aliased; rounded to LEVELS steps below
    draw.text((x, y), label, fill=255, font=face, stroke_width=stroke, stroke_fill=255)
    return levels(np.asarray(coverage))


def _stroke(face: ImageFont.FreeTypeFont) -> int:
    """Extra stroke width that makes labels bold enough to read from afar."""
    return int(face.size) // 24


def _fits(face: ImageFont.FreeTypeFont, labels: list[str], inner: int) -> bool:
    """Whether every label fits in 80 % of the cell's width and 60 % of its height."""
    for label in labels:
        left, top, right, bottom = face.getbbox(label, stroke_width=_stroke(face))
        if (right - left) * 5 > inner * 4 or (bottom - top) * 5 > inner * 3:
            return False
    return True


def _fit_font(labels: list[str], inner: int) -> ImageFont.FreeTypeFont | None:
    """The largest size of the frame's font in which every label fits a cell of ``inner``
    px, or None (not even :data:`MIN_LABEL_PIXELS`)."""
    if not labels:
        return None
    best: ImageFont.FreeTypeFont | None = None
    low, high = MIN_LABEL_PIXELS, max(MIN_LABEL_PIXELS, inner)
    while low <= high:  # text size grows with the font size
        middle = (low + high) // 2
        face = font(middle)
        if _fits(face, labels, inner):
            best, low = face, middle + 1
        else:
            high = middle - 1
    return best


def _list_values(values: tuple[int, ...]) -> str:
    shown = ", ".join(str(v) for v in values[:_LISTED])
    return shown + (", ..." if len(values) > _LISTED else "")
