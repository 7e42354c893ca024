"""Water Sort tile art: committed PNGs match the drawing code; tiles are distinct and crisp."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from searchvid.domains.watersort.art import (
    LIQUIDS,
    MARK_DARK,
    MARK_LIGHT,
    PALETTE,
    TILE_SIZE,
    draw_tile,
    mark_colour,
    tile_names,
)

ASSETS = Path(__file__).resolve().parents[3] / "tile_assets" / "watersort"


def pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def test_tiles_use_the_small_palette() -> None:
    assert len(set(PALETTE)) == len(PALETTE) <= 48
    allowed = {tuple(c) for c in PALETTE}
    for name in tile_names():
        array = pixels(draw_tile(name))
        assert array.shape == (TILE_SIZE, TILE_SIZE, 3)
        colours = {tuple(int(v) for v in c) for c in array.reshape(-1, 3)}
        assert colours <= allowed, name


def test_glyphs_contrast_with_their_liquid() -> None:
    for liquid in LIQUIDS:
        red, green, blue = liquid
        luma = 0.299 * red + 0.587 * green + 0.114 * blue
        expected = MARK_DARK if luma >= 128 else MARK_LIGHT
        assert mark_colour(liquid) == expected


def test_unknown_tile_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown Water Sort tile"):
        draw_tile("c17")
