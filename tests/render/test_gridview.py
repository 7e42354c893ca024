from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from searchvid.render.atlas import MAX_COLORS, TileAtlas
from searchvid.render.gridview import INK_DARK, INK_LIGHT, GridView, parse_color
from searchvid.render.hud import HUD_COLORS
from searchvid.render.pipeline import RenderJob, render
from searchvid.render.settings import VideoOptions
from searchvid.render.textink import LEVELS, ramp
from searchvid.search.events import Event, EventKind

BORDER = (10, 10, 10)
COLORS: dict[int, Any] = {-1: "#000000", 0: "#F0F0E8", 3: (200, 40, 40), 7: "#2850c8"}
LABELS = {3: "Q", 7: "7"}
RGB = {value: parse_color(color) for value, color in COLORS.items()}


def view(**changes: Any) -> GridView:
    options: dict[str, Any] = {"colors": COLORS, "labels": LABELS, "border": BORDER}
    return GridView((2, 3), **(options | changes))


def tile(grid_view: GridView, value: int, size: int) -> np.ndarray:
    name = grid_view.tileset.names[grid_view.values.index(value)]
    draw = grid_view.tileset.draw
    assert draw is not None
    image = draw(name, size)
    assert image.mode == "RGB"
    assert image.size == (size, size)
    return np.asarray(image)


def colors_of(pixels: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(c) for c in p) for p in pixels.reshape(-1, 3)}


# --- colours ---------------------------------------------------------------------------


def test_colours_parse_from_hex_and_tuples() -> None:
    assert parse_color("#ff8000") == (255, 128, 0)
    assert parse_color("#A0b0C0") == (160, 176, 192)
    assert parse_color((1, 2, 3)) == (1, 2, 3)
    assert parse_color((np.int64(255), 0, 0)) == (255, 0, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad", ["red", "#fff", "ff0000", "#gg0000", "#ff00000", (256, 0, 0), (1, 2), (1.0, 2, 3)]
)
def test_a_bad_colour_is_a_value_error_naming_it(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"bad colour .*'#rrggbb'") as error:
        GridView((1, 1), colors={0: bad})
    assert repr(bad) in str(error.value)


def test_a_bad_border_or_label_colour_is_named_too() -> None:
    with pytest.raises(ValueError, match="bad colour 'black'"):
        view(border="black")
    with pytest.raises(ValueError, match="bad colour 'white'"):
        view(label_colors={3: "white"})


# --- construction ----------------------------------------------------------------------


def test_one_tile_per_value_in_ascending_order() -> None:
    grid_view = view()
    assert grid_view.values == (-1, 0, 3, 7)
    assert grid_view.tileset.names == ("v-1", "v0", "v3", "v7")
    assert grid_view.tileset.folder is None
    assert grid_view.tileset.draw is not None
    assert grid_view.shape == (2, 3)
    # the order does not depend on the order of the mapping
    reordered = GridView((2, 3), colors=dict(reversed(COLORS.items())), labels=LABELS)
    assert reordered.values == grid_view.values


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"colors": {}}, "at least one value"),
        ({"colors": {"a": "#000000"}}, "values must be integers, got 'a'"),
        ({"colors": {True: "#000000"}}, "values must be integers, got True"),
        ({"labels": {5: "x"}}, r"labels: value 5 has no colour; known: -1, 0, 3, 7"),
        ({"labels": {3: 4}}, "must be a string"),
        ({"label_colors": {5: "#000000"}}, "label_colors: value 5 has no colour"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        view(**kwargs)


@pytest.mark.parametrize("shape", [(0, 3), (3,), (2, 2, 2), (2.0, 3), "ab"])
def test_a_bad_shape_is_a_value_error(shape: Any) -> None:
    with pytest.raises(ValueError, match=r"shape: expected \(rows, cols\) of positive integers"):
        GridView(shape, colors=COLORS)


def test_the_palette_must_fit_a_gif_with_the_status_strip() -> None:
    # the default border and label inks are the status strip's greys; each label adds the
    # blends of its ink with its cell's colour (two labels on far-apart fills: 8 blends)
    labels = {0: "x", 200: "y"}
    blends = len(LABELLED_BLENDS)
    assert blends == 2 * (LEVELS - 1)
    fits = {i: (i, 100, 50) for i in range(MAX_COLORS - len(HUD_COLORS) - blends)}
    assert len(GridView((1, 1), colors=fits, labels=labels).values) == len(fits)
    with pytest.raises(ValueError, match=f"257 distinct colours.*at most {MAX_COLORS}"):
        GridView((1, 1), colors=fits, labels=labels, border=(1, 2, 3))
    with pytest.raises(ValueError, match="257 distinct colours"):
        GridView((1, 1), colors=fits | {1000: (1, 1, 1)}, labels=labels, border=None)
    with pytest.raises(ValueError, match="260 distinct colours"):  # 4 more blends
        GridView((1, 1), colors=fits, labels=labels | {100: "z"})
    with pytest.raises(ValueError, match="257 distinct colours"):  # an ink, 4 other blends
        GridView((1, 1), colors=fits, labels=labels, label_colors={0: "#ffcc00"})


LABELLED_BLENDS = {
    *ramp(INK_LIGHT, (0, 100, 50))[1:LEVELS],
    *ramp(INK_LIGHT, (200, 100, 50))[1:LEVELS],
}
"""The blends of the two labels of the palette test (both fills take the light ink)."""


def label_colours(value: int) -> set[tuple[int, int, int]]:
    """The colours a label may hold on ``value``'s cell: its ink and the ink's blends."""
    ink = INK_DARK if value == 0 else INK_LIGHT
    return set(ramp(ink, RGB[value])[1:])


# --- grids -----------------------------------------------------------------------------


def test_grid_looks_up_the_tile_id_of_every_cell() -> None:
    grid_view = view()
    node = ((7, 0, -1), (3, 3, 7))
    grid = grid_view.grid(node)
    assert grid.dtype == np.int16
    assert grid.shape == (2, 3)
    assert grid.tolist() == [[3, 1, 0], [2, 2, 3]]
    assert np.array(grid_view.values)[grid].tolist() == [list(row) for row in node]


def test_grid_takes_flat_sequences_arrays_and_a_cells_function() -> None:
    flat = (7, 0, -1, 3, 3, 7)
    expected = [[3, 1, 0], [2, 2, 3]]
    assert view().grid(flat).tolist() == expected
    assert view().grid(np.array(flat, dtype=np.int32).reshape(2, 3)).tolist() == expected
    unsigned = np.array([0, 3, 7, 7, 3, 0], dtype=np.uint8)
    assert view().grid(unsigned).tolist() == [[1, 2, 3], [3, 2, 1]]
    assert view().grid(np.array(flat, dtype=np.int8)).tolist() == expected

    class Node:
        board = flat

    reading = view(cells=lambda node: node.board)
    assert reading.grid(Node()).tolist() == expected


def test_grid_returns_a_new_array_each_time() -> None:
    grid_view = view()
    first = grid_view.grid((0,) * 6)
    first[0, 0] = 3
    assert grid_view.grid((0,) * 6).tolist() == [[1, 1, 1], [1, 1, 1]]


def test_grid_matches_a_per_cell_lookup_on_random_boards() -> None:
    grid_view = view()
    rng = np.random.default_rng(7)
    for _ in range(50):
        cells = rng.choice(np.array(grid_view.values), size=(2, 3))
        expected = [[grid_view.values.index(int(v)) for v in row] for row in cells]
        assert grid_view.grid(cells).tolist() == expected


@pytest.mark.parametrize("value", [5, 8, -2, 1 << 40])
def test_an_unknown_value_names_itself_its_cell_and_the_known_ones(value: int) -> None:
    node = (0, 0, 0, 0, value, 0)
    message = rf"value {value} at cell \(1, 1\) has no colour; known values: -1, 0, 3, 7"
    with pytest.raises(ValueError, match=message):
        view().grid(node)


def test_a_long_list_of_known_values_is_cut() -> None:
    grid_view = GridView((1, 1), colors={i: (i, i, i) for i in range(100)})
    with pytest.raises(ValueError, match=r"known values: 0, 1, .*, 19, \.\.\.$"):
        grid_view.grid([[100]])


@pytest.mark.parametrize(
    ("node", "got"),
    [
        ((0,) * 5, r"\(5,\)"),
        ((0,) * 7, r"\(7,\)"),
        (((0, 0), (0, 0), (0, 0)), r"\(3, 2\)"),
        ((((0,) * 6),), r"\(1, 6\)"),
        (0, r"\(\)"),
    ],
)
def test_a_wrong_cell_count_names_the_expected_shape(node: Any, got: str) -> None:
    with pytest.raises(ValueError, match=rf"expected 2x3 cells \(or 6 values.*got shape {got}"):
        view().grid(node)


def test_ragged_or_non_integer_cells_are_value_errors() -> None:
    with pytest.raises(ValueError, match="expected 2x3 cells"):
        view().grid(((0, 0, 0), (0, 0)))
    with pytest.raises(ValueError, match="expected integers, got dtype float64"):
        view().grid((0.0,) * 6)


# --- tiles -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [8, 16, 100])
@pytest.mark.parametrize("value", [-1, 0, 3, 7])
def test_a_tile_holds_only_its_colour_border_and_label_ink(size: int, value: int) -> None:
    pixels = tile(view(), value, size)
    allowed = {RGB[value], BORDER}
    if value in LABELS:
        allowed |= label_colours(value)
    assert colors_of(pixels) <= allowed
    assert RGB[value] in colors_of(pixels)
    assert tuple(pixels[0, 0]) == BORDER
    assert tuple(pixels[size // 2 - 1, 3]) == RGB[value]


@pytest.mark.parametrize("size", [8, 16, 32, 100, 120, 250])
def test_colour_edges_lie_on_even_pixels(size: int) -> None:
    grid_view = view()
    for value in grid_view.values:
        pixels = tile(grid_view, value, size)
        blocks = pixels.reshape(size // 2, 2, size // 2, 2, 3)
        assert (blocks == blocks[:, :1, :, :1, :]).all(), (value, size)


def test_a_thin_border_separates_neighbouring_cells_of_one_colour() -> None:
    pixels = tile(view(), 0, 100)
    for edge in (pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]):
        assert colors_of(edge) == {BORDER}
    border = int(np.argmax((pixels[50] != BORDER).any(axis=1)))
    assert 2 <= border <= 4  # thin, even
    assert border % 2 == 0
    assert colors_of(pixels[border:-border, border:-border]) == {RGB[0]}


def test_without_a_border_a_tile_is_its_colour_to_the_edge() -> None:
    pixels = tile(view(border=None, labels=None), 3, 16)
    assert colors_of(pixels) == {RGB[3]}


def inked(pixels: np.ndarray, ink: tuple[int, int, int]) -> np.ndarray:
    return np.all(pixels == np.array(ink, dtype=np.uint8), axis=-1)


@pytest.mark.parametrize("size", [32, 100, 120])
def test_a_label_is_drawn_in_the_centre(size: int) -> None:
    pixels = tile(view(), 7, size)  # dark blue: white ink, anti-aliased
    ink = np.zeros(pixels.shape[:2], dtype=bool)
    for colour in label_colours(7):
        ink |= inked(pixels, colour)
    rows, cols = np.nonzero(ink)
    assert ink.sum() > size * size // 50
    centre = size / 2
    assert abs((rows.min() + rows.max() + 1) / 2 - centre) <= size / 10
    assert abs((cols.min() + cols.max() + 1) / 2 - centre) <= size / 10
    assert rows.max() - rows.min() + 1 >= size // 3  # large enough to read
    assert cols.min() > size // 10
    assert cols.max() < size - size // 10


def test_no_label_means_no_ink() -> None:
    for value in (-1, 0):  # no label given
        pixels = tile(view(), value, 100)
        assert colors_of(pixels) == {RGB[value], BORDER}
    pixels = tile(view(labels={3: ""}), 3, 100)
    assert colors_of(pixels) == {RGB[3], BORDER}


def test_labels_are_left_out_on_tiles_too_small_to_read() -> None:
    assert colors_of(tile(view(), 7, 16)) == {RGB[7], BORDER}


def test_label_ink_contrasts_with_the_cell_unless_given() -> None:
    labels = dict.fromkeys(COLORS, "8")
    automatic = view(labels=labels)
    assert INK_LIGHT in colors_of(tile(automatic, -1, 100))  # black cell
    assert INK_DARK in colors_of(tile(automatic, 0, 100))  # near-white cell
    chosen = view(labels=labels, label_colors={-1: "#ffcc00"})
    blends = ramp((255, 204, 0), RGB[-1])[1:]  # anti-aliased: every level shows
    assert colors_of(tile(chosen, -1, 100)) == {RGB[-1], BORDER, *blends}


def test_tiles_are_deterministic() -> None:
    first, second = view(), view()
    for size in (8, 100):
        for value in first.values:
            again = tile(first, value, size)
            assert np.array_equal(tile(first, value, size), again)
            assert np.array_equal(tile(second, value, size), again)


@pytest.mark.parametrize("size", [0, 7, 33])
def test_an_odd_or_tiny_tile_size_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="tile size must be even"):
        tile(view(), 0, size)


def test_the_atlas_palette_is_the_declared_colours() -> None:
    atlas = TileAtlas(view().tileset, 100, extra_colors=HUD_COLORS)
    expected = {*RGB.values(), BORDER, *HUD_COLORS, *label_colours(3), *label_colours(7)}
    assert {tuple(int(c) for c in color) for color in atlas.palette} == expected


# --- end to end ------------------------------------------------------------------------


def boards() -> Iterator[Event]:
    nodes = [(0, 0, 0, 0, 0, 0), (7, 0, -1, 3, 3, 7), (3, 7, 0, -1, 0, 3)]
    for step, node in enumerate(nodes):
        yield Event(EventKind.ENTER, node, step, step)


@pytest.mark.parametrize("hud", [False, True])
def test_rendered_frames_show_each_cell_in_its_colour(tmp_path: Path, hud: bool) -> None:
    size = 32
    grid_view = view()
    video = VideoOptions(tile_size=size, fps=5, max_frames=10, hud=hud, hold_last=0.0)
    render(boards(), RenderJob(view=grid_view, video=video, title="t"), tmp_path / "out")
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == [f"frame_{i:06d}.png" for i in range(3)]
    for event, name in zip(boards(), names, strict=True):
        frame = np.asarray(Image.open(tmp_path / "out" / name).convert("RGB"))
        assert frame.shape[1] == 3 * size
        if hud:
            assert frame.shape[0] > 2 * size
        else:
            assert frame.shape[0] == 2 * size
        for index, value in enumerate(event.node):
            row, col = divmod(index, 3)
            cell = frame[row * size : (row + 1) * size, col * size : (col + 1) * size]
            assert tuple(cell[4, 4]) == RGB[value]
            assert tuple(cell[0, 0]) == BORDER
            assert np.array_equal(cell, tile(grid_view, value, size))


def test_rendered_frames_without_borders_or_labels_are_flat_colour(tmp_path: Path) -> None:
    size = 16
    grid_view = GridView((2, 3), colors=COLORS, border=None)
    video = VideoOptions(tile_size=size, max_frames=10, hud=False)
    render(boards(), RenderJob(view=grid_view, video=video, title="t"), tmp_path / "out")
    last = np.asarray(Image.open(tmp_path / "out" / "frame_000002.png").convert("RGB"))
    expected = np.array([RGB[v] for v in (3, 7, 0, -1, 0, 3)], dtype=np.uint8).reshape(2, 3, 3)
    assert np.array_equal(last, expected.repeat(size, axis=0).repeat(size, axis=1))
