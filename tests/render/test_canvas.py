from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from render_fakes import tileset

from searchvid.errors import RunError
from searchvid.render.atlas import TileAtlas
from searchvid.render.canvas import PixelFormat, Rect
from searchvid.render.indexstrip import Canvas
from searchvid.render.yuv import rgb_to_yuv420

TILES = 5
FOOTER_COLORS = ((24, 24, 24), (255, 255, 255), (190, 190, 190))
COLORED_FOOTER = ((250, 0, 0), (0, 0, 250), (24, 24, 24))  # not greys: chroma varies
ATLAS = TileAtlas(tileset(TILES, noise=True), 6, extra_colors=FOOTER_COLORS + COLORED_FOOTER)
FORMATS = list(PixelFormat)


@st.composite
def grid_sequences(draw: st.DrawFn) -> tuple[tuple[int, int], list[np.ndarray]]:
    """A shape and grids that change one cell, many cells, all cells, or go back."""
    shape = (draw(st.integers(1, 4)), draw(st.integers(1, 5)))
    cells = shape[0] * shape[1]
    ids = st.integers(0, TILES - 1)
    grid = np.array(draw(st.lists(ids, min_size=cells, max_size=cells)), dtype=np.int16)
    grids = [grid.reshape(shape)]
    for _ in range(draw(st.integers(1, 12))):
        op = draw(st.sampled_from(["one", "many", "all", "back", "same"]))
        current = grids[-1].ravel().copy()
        if op == "one":
            current[draw(st.integers(0, cells - 1))] = draw(ids)
        elif op == "many":
            for k in draw(st.lists(st.integers(0, cells - 1), max_size=cells)):
                current[k] = draw(ids)
        elif op == "all":
            current = np.array(draw(st.lists(ids, min_size=cells, max_size=cells)), np.int16)
        elif op == "back":
            current = grids[draw(st.integers(0, len(grids) - 1))].ravel().copy()
        grids.append(current.reshape(shape))
    return shape, grids


def fresh(shape: tuple[int, int], grid: np.ndarray, fmt: PixelFormat) -> np.ndarray:
    canvas = Canvas(ATLAS, shape, fmt)
    canvas.update(grid)
    return canvas.frame


@settings(max_examples=150, deadline=None)
@given(grid_sequences())
def test_dirty_redraw_equals_a_fresh_full_recompose(
    case: tuple[tuple[int, int], list[np.ndarray]],
) -> None:
    shape, grids = case
    canvases = {fmt: Canvas(ATLAS, shape, fmt) for fmt in FORMATS}
    for grid in grids:
        for fmt, canvas in canvases.items():
            canvas.update(grid)
            assert np.array_equal(canvas.frame, fresh(shape, grid, fmt)), fmt
    rgb = canvases[PixelFormat.RGB24].frame
    assert np.array_equal(ATLAS.palette[canvases[PixelFormat.PAL8].frame], rgb)
    h, w = rgb.shape[:2]
    y, u, v = rgb_to_yuv420(rgb)
    assert np.array_equal(
        canvases[PixelFormat.YUV420P].frame, np.concatenate([y.ravel(), u.ravel(), v.ravel()])
    )
    assert canvases[PixelFormat.YUV420P].frame.size == h * w * 3 // 2


def test_frame_is_the_tiles_laid_out_row_by_row() -> None:
    canvas = Canvas(ATLAS, (2, 3))
    grid = np.array([[0, 1, 2], [3, 4, 0]], dtype=np.int16)
    canvas.update(grid)
    for r in range(2):
        for c in range(3):
            cell = canvas.frame[r * 6 : r * 6 + 6, c * 6 : c * 6 + 6]
            assert np.array_equal(cell, ATLAS.tiles[grid[r, c]])


def test_update_redraws_only_changed_cells_until_most_change() -> None:
    canvas = Canvas(ATLAS, (3, 3))
    grid = np.zeros((3, 3), np.int16)
    assert canvas.update(grid) == 9
    assert canvas.update(grid.copy()) == 0
    grid[1, 2] = 3
    assert canvas.update(grid.copy()) == 1
    grid[0, :] = 4
    assert canvas.update(grid.copy()) == 3
    grid[:, :] = 2
    assert canvas.update(grid.copy()) == 9  # most cells changed: full recompose


def test_take_dirty_bounds_the_changed_cells() -> None:
    canvas = Canvas(ATLAS, (3, 4))
    grid = np.zeros((3, 4), np.int16)
    canvas.update(grid)
    assert canvas.take_dirty() == Rect(0, 0, 18, 24)
    assert canvas.take_dirty() == Rect(0, 0, 0, 0)
    grid[1, 1] = 2
    grid[2, 2] = 3
    canvas.update(grid.copy())
    assert canvas.take_dirty() == Rect(6, 6, 18, 18)
    canvas.update(grid.copy())
    assert canvas.take_dirty() == Rect(0, 0, 0, 0)


def test_the_canvas_keeps_its_own_copy_of_the_grid() -> None:
    canvas = Canvas(ATLAS, (2, 2))
    grid = np.zeros((2, 2), np.int16)
    canvas.update(grid)
    grid[0, 0] = 1  # mutating the caller's array must not fool the diff
    assert canvas.update(grid) == 1
    assert np.array_equal(canvas.frame, fresh((2, 2), grid, PixelFormat.RGB24))


def test_a_grid_of_another_shape_is_an_error() -> None:
    canvas = Canvas(ATLAS, (2, 3))
    canvas.update(np.zeros((2, 3), np.int16))
    with pytest.raises(RunError, match=r"shape \(3, 2\), expected \(2, 3\)"):
        canvas.update(np.zeros((3, 2), np.int16))


@pytest.mark.parametrize("bad", [-1, TILES])
def test_unknown_tile_ids_are_errors_on_both_paths(bad: int) -> None:
    canvas = Canvas(ATLAS, (2, 2))
    with pytest.raises(RunError, match=f"tile id {bad}"):
        canvas.update(np.full((2, 2), bad, np.int16))
    canvas = Canvas(ATLAS, (2, 2))
    canvas.update(np.zeros((2, 2), np.int16))
    grid = np.zeros((2, 2), np.int16)
    grid[1, 0] = bad
    with pytest.raises(RunError, match=f"tile id {bad}"):
        canvas.update(grid)


@pytest.mark.parametrize(
    ("bad", "dtype"), [(32_769, np.uint16), (65_536 + 1, np.int32), (2**40, np.int64)]
)
def test_ids_that_a_cast_would_wrap_are_refused_as_themselves(bad: int, dtype: type) -> None:
    canvas = Canvas(ATLAS, (2, 2))
    canvas.update(np.zeros((2, 2), np.int16))
    grid = np.zeros((2, 2), dtype)
    grid[0, 1] = bad  # as int16 it would be another id, perhaps a valid one
    with pytest.raises(RunError, match=f"tile id {bad};"):
        canvas.update(grid)
    assert np.array_equal(canvas.grid, np.zeros((2, 2), np.int16))  # nothing was drawn


def test_a_grid_of_floats_is_refused() -> None:
    canvas = Canvas(ATLAS, (2, 2))
    with pytest.raises(RunError, match="dtype float64; tile ids must be integers"):
        canvas.update(np.zeros((2, 2), np.float64))


PATCHES = st.lists(
    st.tuples(
        st.integers(0, 7),
        st.integers(0, 17),
        st.integers(1, 8),
        st.integers(1, 18),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=80, deadline=None)
@given(PATCHES, st.sampled_from([FOOTER_COLORS, COLORED_FOOTER]))
def test_footer_updates_equal_a_fresh_footer(
    patches: list[tuple[int, int, int, int, int]], colors: tuple[tuple[int, int, int], ...]
) -> None:
    canvases = {
        fmt: Canvas(ATLAS, (1, 3), fmt, footer_height=8, footer_colors=colors) for fmt in FORMATS
    }
    grid = np.array([[0, 1, 2]], np.int16)
    strip = np.zeros((8, 18), np.uint8)
    for top, left, height, width, color in patches:
        strip[top : top + height, left : left + width] = color
        for fmt, canvas in canvases.items():
            canvas.update(grid)
            canvas.set_footer(strip)
            other = Canvas(ATLAS, (1, 3), fmt, footer_height=8, footer_colors=colors)
            other.update(grid)
            other.set_footer(strip)
            assert np.array_equal(canvas.frame, other.frame), fmt
    rgb = canvases[PixelFormat.RGB24].frame
    assert np.array_equal(rgb[6:], np.array(colors, np.uint8)[strip])
    assert np.array_equal(ATLAS.palette[canvases[PixelFormat.PAL8].frame], rgb)
    y, u, v = rgb_to_yuv420(rgb)
    expected = np.concatenate([y.ravel(), u.ravel(), v.ravel()])
    assert np.array_equal(canvases[PixelFormat.YUV420P].frame, expected)


def test_footer_changes_are_reported_as_dirty() -> None:
    canvas = Canvas(ATLAS, (1, 3), footer_height=4, footer_colors=FOOTER_COLORS)
    canvas.update(np.zeros((1, 3), np.int16))
    strip = np.zeros((4, 18), np.uint8)
    canvas.set_footer(strip)
    canvas.take_dirty()
    strip[2, 5:9] = 1
    canvas.set_footer(strip)
    assert canvas.take_dirty() == Rect(6 + 2, 5, 6 + 3, 9)
    canvas.set_footer(strip)
    assert canvas.take_dirty() == Rect(0, 0, 0, 0)


def test_rgb_readback() -> None:
    grid = np.array([[1, 2], [3, 4]], np.int16)
    pal = Canvas(ATLAS, (2, 2), PixelFormat.PAL8)
    pal.update(grid)
    assert np.array_equal(pal.rgb(), fresh((2, 2), grid, PixelFormat.RGB24))
    with pytest.raises(ValueError, match="yuv420p"):
        Canvas(ATLAS, (2, 2), PixelFormat.YUV420P).rgb()
