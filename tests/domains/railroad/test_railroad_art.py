"""Railroad Ink tile art: the committed PNGs, a contact sheet, seamless edges."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from searchvid.domains.railroad.art import PALETTE, TILE_SIZE
from searchvid.domains.railroad.tiles import TILES, Side, Transport
from searchvid.domains.railroad.view import ERROR_TILE_NAMES, STRIP_TILE_NAMES, TILE_NAMES

ASSETS = Path(__file__).resolve().parents[3] / "tile_assets" / "railroad"

Pixels = npt.NDArray[np.uint8]


def _load(name: str) -> Pixels:
    with Image.open(ASSETS / f"{name}.png") as image:
        assert image.mode == "RGB"
        assert image.size == (TILE_SIZE, TILE_SIZE)
        return np.asarray(image).copy()


@pytest.fixture(scope="module")
def assets() -> dict[str, Pixels]:
    return {name: _load(name) for name in TILE_NAMES}


def test_the_view_has_every_oriented_tile_plus_markers_and_exits() -> None:
    # empty border, 58 oriented route tiles, 8 exit kinds, empty interior cell, open marker,
    # then the game's row: 7 rounds, game over, unrolled die, 9 faces x 3 states, 7 slots,
    # then the error barriers: the legend's swatch, the open marker with any of 15 sets of
    # sides, 24 two-route tiles with 3 sets of their two blank sides, 16 Ts with their one
    assert len(TILE_NAMES) == 1 + 58 + 8 + 2 + len(STRIP_TILE_NAMES) + len(ERROR_TILE_NAMES)
    assert len(STRIP_TILE_NAMES) == 7 + 1 + 1 + 9 * 3 + 1 + 6
    assert len(ERROR_TILE_NAMES) == 1 + 15 + 24 * 3 + 16
    assert len(TILES) == 58


def test_contact_sheet_of_all_tiles(assets: dict[str, Pixels], tmp_path: Path) -> None:
    cols = 10
    rows = -(-len(TILE_NAMES) // cols)
    sheet = np.zeros((rows * TILE_SIZE, cols * TILE_SIZE, 3), dtype=np.uint8)
    for index, name in enumerate(TILE_NAMES):
        r, c = divmod(index, cols)
        sheet[r * TILE_SIZE : (r + 1) * TILE_SIZE, c * TILE_SIZE : (c + 1) * TILE_SIZE] = assets[
            name
        ]
    path = tmp_path / "railroad-tiles.png"
    Image.fromarray(sheet).save(path)
    with Image.open(path) as image:
        assert image.size == (cols * TILE_SIZE, rows * TILE_SIZE)
        back = np.asarray(image)
    r, c = divmod(TILE_NAMES.index("overpass-r0"), cols)
    cell = back[r * TILE_SIZE : (r + 1) * TILE_SIZE, c * TILE_SIZE : (c + 1) * TILE_SIZE]
    assert np.array_equal(cell, assets["overpass-r0"])


def test_colours_come_from_the_small_palette(assets: dict[str, Pixels]) -> None:
    used = set()
    for pixels in assets.values():
        used |= {tuple(int(v) for v in px) for px in np.unique(pixels.reshape(-1, 3), axis=0)}
    assert used <= set(PALETTE)
    assert len(PALETTE) <= 24


def _strip(pixels: Pixels, side: Side) -> Pixels:
    """The two outermost pixel rows on ``side``, outermost first, along the edge."""
    if side is Side.N:
        return pixels[:2]
    if side is Side.S:
        return pixels[-2:][::-1]
    if side is Side.W:
        return pixels[:, :2].transpose(1, 0, 2)
    return pixels[:, -2:][:, ::-1].transpose(1, 0, 2)


def test_routes_meet_every_edge_the_same_way(assets: dict[str, Pixels]) -> None:
    reference = {
        Transport.ROAD: _strip(assets["road-straight-r0"], Side.N),
        Transport.RAIL: _strip(assets["rail-straight-r0"], Side.N),
        None: _strip(assets["empty-cell"], Side.N),
    }
    for tile in TILES:
        pixels = assets[tile.name]
        for side in Side:
            assert np.array_equal(_strip(pixels, side), reference[tile.side(side)]), (
                tile.name,
                side,
            )


def _route_pixels(strip: Pixels) -> Pixels:
    """The strip with every background colour (paper, grid, border) blanked to zero."""
    background = np.array(PALETTE[:3], dtype=np.uint8)
    is_background = (strip[:, :, None, :] == background[None, None]).all(axis=3).any(axis=2)
    return np.where(is_background[:, :, None], 0, strip).astype(np.uint8)


def test_exits_continue_the_route_of_the_cell_they_face(assets: dict[str, Pixels]) -> None:
    for name in TILE_NAMES:
        if not name.startswith("exit-"):
            continue
        side = {"down": Side.S, "up": Side.N, "left": Side.W, "right": Side.E}[name.split("-")[2]]
        route = "road" if "road" in name else "rail"
        expected = _route_pixels(_strip(assets[f"{route}-straight-r0"], Side.N))
        assert np.array_equal(_route_pixels(_strip(assets[name], side)), expected), name
        assert expected.any()
