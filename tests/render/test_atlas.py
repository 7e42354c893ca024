from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from render_fakes import COLORS, draw_tile, noise_tile, tileset, write_assets

from searchvid.errors import RunError
from searchvid.render.atlas import ASSETS_ENV, TileAtlas, assets_dir, fit_tile
from searchvid.render.view import TileSet
from searchvid.render.yuv import rgb_to_yuv420

NAMES = ("t0", "t1", "t2")


def colors_of(pixels: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(c) for c in p) for p in pixels.reshape(-1, 3)}


def test_assets_dir_defaults_beside_the_package_and_follows_the_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ASSETS_ENV, raising=False)
    assert assets_dir() == Path(__file__).resolve().parents[2] / "tile_assets"
    monkeypatch.setenv(ASSETS_ENV, str(tmp_path))
    assert assets_dir() == tmp_path


def test_folder_tiles_at_the_art_size_are_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ASSETS_ENV, str(write_assets(tmp_path, "demo", NAMES)))
    atlas = TileAtlas(TileSet(names=NAMES, folder="demo"), 100)
    assert atlas.tiles.shape == (3, 100, 100, 3)
    assert atlas.tiles.dtype == np.uint8
    for i, name in enumerate(NAMES):
        assert np.array_equal(atlas.tiles[i], np.asarray(draw_tile(name, 100)))


def test_an_absolute_folder_holds_a_users_own_art(tmp_path: Path) -> None:
    folder = write_assets(tmp_path, "mine", NAMES) / "mine"
    atlas = TileAtlas(TileSet(names=NAMES, folder=str(folder.resolve())), 100)
    for i, name in enumerate(NAMES):
        assert np.array_equal(atlas.tiles[i], np.asarray(draw_tile(name, 100)))


@pytest.mark.parametrize("size", [24, 64, 160])
def test_scaled_tiles_keep_only_their_own_colours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    monkeypatch.setenv(ASSETS_ENV, str(write_assets(tmp_path, "demo", NAMES)))
    atlas = TileAtlas(TileSet(names=NAMES, folder="demo"), size)
    assert atlas.tiles.shape == (3, size, size, 3)
    for i, name in enumerate(NAMES):
        art = np.asarray(draw_tile(name, 100))
        assert colors_of(atlas.tiles[i]) <= colors_of(art)
        # the dominant flat colour survives scaling
        assert tuple(atlas.tiles[i][size // 4, size // 8]) == COLORS[i]


def test_fit_tile_snaps_a_two_colour_checker_to_those_two_colours() -> None:
    art = np.zeros((100, 100, 3), dtype=np.uint8)
    art[::2, ::2] = (255, 0, 0)
    art[1::2, 1::2] = (255, 0, 0)
    fitted = fit_tile(art, 30)
    assert colors_of(fitted) <= {(0, 0, 0), (255, 0, 0)}


def test_a_missing_tile_image_is_a_run_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ASSETS_ENV, str(write_assets(tmp_path, "demo", ("t0",))))
    with pytest.raises(RunError, match=r"missing tile image .*demo/t1\.png"):
        TileAtlas(TileSet(names=("t0", "t1"), folder="demo"), 100)


def test_drawn_tiles_are_called_at_the_tile_size() -> None:
    sizes: list[int] = []

    def draw(name: str, size: int) -> Image.Image:
        sizes.append(size)
        return draw_tile(name, size)

    atlas = TileAtlas(TileSet(names=NAMES, draw=draw), 20)
    assert sizes == [20, 20, 20]
    assert np.array_equal(atlas.tiles[2], np.asarray(draw_tile("t2", 20)))


def test_a_tile_drawn_at_the_wrong_size_is_reported() -> None:
    with pytest.raises(RunError, match="drawn at 10x10"):
        TileAtlas(TileSet(names=("t0",), draw=lambda name, size: draw_tile(name, 10)), 20)


def test_odd_tile_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="even"):
        TileAtlas(tileset(), 15)


def test_palette_and_indexed_tiles_reproduce_the_tiles_exactly() -> None:
    extra = ((1, 2, 3), (240, 240, 240))
    atlas = TileAtlas(tileset(7), 12, extra_colors=extra)
    assert atlas.indexed.shape == (7, 12, 12)
    assert atlas.indexed.dtype == np.uint8
    assert np.array_equal(atlas.palette[atlas.indexed], atlas.tiles)
    palette = colors_of(atlas.palette)
    assert palette == colors_of(atlas.tiles) | set(extra)
    assert len(palette) == len(atlas.palette)  # no duplicates
    assert list(atlas.index_of(np.array(extra, dtype=np.uint8))) == [
        [tuple(c) for c in atlas.palette.tolist()].index(e) for e in extra
    ]


def test_more_than_256_colours_are_quantised_once_for_every_format() -> None:
    def rainbow(name: str, size: int) -> Image.Image:
        offset = int(name.removeprefix("t")) * 97
        values = (np.arange(size * size, dtype=np.int64) * 7 + offset) % 4096
        rgb = np.stack([(values >> 4) & 0xF0, (values << 4) & 0xF0, values & 0xF0], axis=-1)
        return Image.fromarray(rgb.reshape(size, size, 3).astype(np.uint8))

    extra = ((9, 9, 9), (250, 250, 250))
    atlas = TileAtlas(TileSet(names=("t0", "t1", "t2"), draw=rainbow), 32, extra_colors=extra)
    assert len(atlas.palette) <= 256
    assert set(extra) <= colors_of(atlas.palette)
    assert np.array_equal(atlas.palette[atlas.indexed], atlas.tiles)


def test_yuv_tiles_match_converting_the_rgb_tiles() -> None:
    atlas = TileAtlas(TileSet(names=NAMES, draw=noise_tile), 8)
    y, u, v = atlas.yuv
    assert y.shape == (3, 8, 8)
    assert u.shape == v.shape == (3, 4, 4)
    ey, eu, ev = rgb_to_yuv420(atlas.tiles[1])
    assert np.array_equal(y[1], ey)
    assert np.array_equal(u[1], eu)
    assert np.array_equal(v[1], ev)


def test_rgb_to_yuv420_known_colours() -> None:
    rgb = np.array([[[0, 0, 0], [255, 255, 255]], [[0, 0, 0], [255, 255, 255]]], np.uint8)
    y, u, v = rgb_to_yuv420(rgb)
    assert y.tolist() == [[16, 235], [16, 235]]
    assert u.tolist() == [[128]]
    assert v.tolist() == [[128]]
    red = np.zeros((2, 2, 3), np.uint8)
    red[..., 0] = 255
    ry, ru, rv = rgb_to_yuv420(red)
    assert (int(ry[0, 0]), int(ru[0, 0]), int(rv[0, 0])) == (81, 90, 240)
