"""The board legend draws each declared mark's tile as a swatch beside its words."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from searchvid.render.boardlegend import BACKGROUND, COLORS, TEXT, BoardLegend, Mark, marks_of
from searchvid.render.textink import MIN_TEXT
from searchvid.render.view import TileSet

TILES = {
    "red": np.full((10, 10, 3), (200, 30, 30), dtype=np.uint8),
    "blue": np.full((10, 10, 3), (30, 30, 200), dtype=np.uint8),
}
TILES["blue"][:5] = (250, 250, 250)  # a top half of its own: the swatch keeps the shape


def tile(name: str) -> np.ndarray:
    return TILES[name]


FAKE_TILES = TileSet(names=("red", "blue"), folder="x")


@dataclass
class FakeView:
    marks: tuple[object, ...]
    tileset: TileSet = FAKE_TILES


def test_swatches_are_the_tiles_shrunk_and_the_words_follow() -> None:
    legend = BoardLegend([Mark("red", "hot"), Mark("blue", "cold")], tile, 400)
    assert legend.lines == (("hot", "cold"),)
    s = legend.swatch
    assert s >= 24
    top = 6  # the margin
    assert (legend.pixels[top : top + s, 6 : 6 + s] == (200, 30, 30)).all()
    colours = {tuple(p) for p in legend.pixels.reshape(-1, 3).tolist()}
    tiles = {(200, 30, 30), (30, 30, 200), (250, 250, 250)}
    assert tiles | {BACKGROUND, TEXT} <= colours <= tiles | set(COLORS)  # text anti-aliased
    second = legend.pixels[top : top + s]
    columns = np.flatnonzero((second == (30, 30, 200)).all(axis=2).any(axis=0))
    left = int(columns[0])
    assert (second[: s // 2, left] == (250, 250, 250)).all()
    assert (second[s // 2 :, left] == (30, 30, 200)).all()


def test_marks_wrap_into_lines_that_fit_the_width() -> None:
    marks = [Mark("red", f"mark number {k}") for k in range(6)]
    wide = BoardLegend(marks, tile, 1200)
    narrow = BoardLegend(marks, tile, 300)
    assert len(wide.lines) == 1
    assert len(narrow.lines) > 2
    assert narrow.height > wide.height
    assert [m for line in narrow.lines for m in line] == [m.text for m in marks]
    text_columns = np.flatnonzero((narrow.pixels == TEXT).all(axis=2).any(axis=0))
    assert int(text_columns.max()) < narrow.width


def test_text_is_never_below_12_px() -> None:
    assert BoardLegend([Mark("red", "x")], tile, 200).text_size >= MIN_TEXT
    with pytest.raises(ValueError, match="at least 12"):
        BoardLegend([Mark("red", "x")], tile, 200, font_size=10)


def test_no_marks_no_legend() -> None:
    assert BoardLegend([], tile, 200).height == 0


def test_a_view_declares_marks_of_its_own_tiles() -> None:
    assert marks_of(FakeView(marks=(Mark("red", "hot"),))) == (Mark("red", "hot"),)
    assert marks_of(object()) == ()
    with pytest.raises(ValueError, match="not in the tile set"):
        marks_of(FakeView(marks=(Mark("green", "grass"),)))
    with pytest.raises(ValueError, match="must be Mark objects"):
        marks_of(FakeView(marks=(("red", "hot"),)))
