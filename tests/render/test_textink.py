"""The frame's font and its two inks: whole strings set by FreeType, tabular figures,
anti-aliased shades on a few levels."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from searchvid.render.hud import MAX_FONT
from searchvid.render.textink import (
    FONT_FILE,
    INK_SAMPLE,
    LEVELS,
    MIN_TEXT,
    TextInk,
    font,
    ink_height,
    levels,
    ramp,
)

REPO = Path(__file__).resolve().parents[2]


def test_the_font_is_dejavu_sans_shipped_beside_its_licence() -> None:
    assert font(14).getname() == ("DejaVu Sans", "Book")
    licence = (FONT_FILE.parent / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera Fonts Copyright" in licence
    assert "Arev Fonts Copyright" in licence


def test_the_wheel_carries_every_file_of_the_fonts_folder() -> None:
    with (REPO / "pyproject.toml").open("rb") as file:
        data = tomllib.load(file)["tool"]["setuptools"]["package-data"]
    patterns = data["searchvid.render"]
    package = REPO / "searchvid" / "render"
    files = [p.relative_to(package).as_posix() for p in (package / "fonts").iterdir()]
    assert sorted(files) == ["fonts/DejaVuSans.ttf", "fonts/LICENSE-DejaVu.txt"]
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


@pytest.mark.parametrize("size", range(MIN_TEXT, MAX_FONT + 1))
def test_figures_are_tabular_at_every_size_the_frames_use(size: int) -> None:
    """Every digit has one advance and no pair of digits (or digit and separator) is
    kerned, so a counter's digits keep their places whatever its value."""
    face = font(size)
    assert len({face.getlength(digit) for digit in "0123456789"}) == 1
    for separator in ("", ",", ".", "/"):
        lengths = {
            face.getlength(f"step {a}{separator}{b}") for a in "0123456789" for b in "0123456789"
        }
        assert len(lengths) == 1, (size, separator)


def test_text_is_set_as_a_whole_string_with_the_fonts_kerning() -> None:
    """``AV`` is kerned: set as a whole it is narrower than its letters set one by one, and
    the ink is Pillow's rendering of the whole string (no glyph-by-glyph composition)."""
    text = TextInk(16)
    face = font(16)
    assert face.getlength("AV") < face.getlength("A") + face.getlength("V")
    word = "Water Sort: breadth-first"
    assert text.advance(word) == int(np.ceil(face.getlength(word)))
    image = Image.new("L", (text.advance(word) + 40, text.line), 0)
    ImageDraw.Draw(image).text((0, 0), word, fill=255, font=face)
    whole = np.asarray(image)[:, : text.advance(word)]
    expected = (whole.astype(np.int32) * LEVELS + 127) // 255
    assert np.array_equal(text.shade(word), expected)


def test_inks_and_shades_hold_every_level_and_are_one_rendering() -> None:
    """An ink is the rows of a shade that hold a line's ink, trimmed after its last inked
    column: the same anti-aliased levels, in a tighter box."""
    text = TextInk(20)
    word = "Railroad Ink: 0.531"
    shade, ink = text.shade(word), text.ink(word)
    assert shade.dtype == ink.dtype == np.uint8
    assert set(np.unique(shade).tolist()) == set(range(LEVELS + 1))
    assert set(np.unique(ink).tolist()) == set(range(LEVELS + 1))
    assert ink.shape[0] == text.height
    assert shade.shape[0] == text.line >= text.top + text.height
    assert ink[:, -1].any()  # trimmed at its last inked column
    both = min(ink.shape[1], shade.shape[1])
    rows = shade[text.top : text.top + text.height, :both]
    assert np.array_equal(ink[:, :both], rows)
    assert not shade[: text.top].any()
    assert not shade[text.top + text.height :].any()
    assert abs(text.width(word) - ink.shape[1]) <= 3  # the anti-aliased fringe


@pytest.mark.parametrize("word", ["current", "no value yet", "+1.2k", "move 3 of 9", "0"])
def test_width_is_measured_as_monochrome_text_was(word: str) -> None:
    """Layouts measure text as they did before it was anti-aliased (nothing moves): from
    the pen's start to the last column Pillow's monochrome rendering inks."""
    for size in (12, 14, 20):
        text = TextInk(size)
        image = Image.new("L", (text.advance(word) + 40, text.height), 0)
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"
        draw.text((0, -text.top), word, fill=255, font=font(size))
        columns = np.flatnonzero((np.asarray(image) > 127).any(axis=0))
        assert text.width(word) == columns[-1] + 1


def test_shades_hold_the_whole_line_accents_and_underscores_included() -> None:
    """A shade spans the font's line, so nothing a font draws in its line is cut."""
    text = TextInk(15)
    for word in ("max_frames", "Été", "|"):
        shade = text.shade(word)
        image = Image.new("L", (text.advance(word) + 40, 3 * text.line), 0)
        ImageDraw.Draw(image).text((0, text.line), word, fill=255, font=font(15))
        drawn = np.asarray(image)
        assert not drawn[: text.line].any(), word  # nothing above the line...
        assert not drawn[2 * text.line :].any(), word  # ...nor below it
        within = drawn[text.line : 2 * text.line, : text.advance(word)]
        assert np.array_equal(shade, levels(within)), word


def test_levels_round_coverage_to_the_nearest_step() -> None:
    coverage = np.array([0, 25, 26, 127, 128, 229, 230, 255], dtype=np.uint8)
    # steps of 51: 25.5 is the first half-way point
    assert levels(coverage).tolist() == [0, 0, 1, 2, 3, 4, 5, 5]


def test_a_ramp_runs_from_the_background_to_the_ink() -> None:
    colors = ramp((255, 255, 255), (24, 24, 24))
    assert len(colors) == LEVELS + 1
    assert colors[0] == (24, 24, 24)
    assert colors[-1] == (255, 255, 255)
    greys = [c[0] for c in colors]
    assert greys == sorted(greys)
    assert len(set(greys)) == LEVELS + 1
    assert all(c[0] == c[1] == c[2] for c in colors)  # greys stay greys (exact in 4:2:0)


def test_the_smallest_text_is_at_least_12_px_tall() -> None:
    assert ink_height(MIN_TEXT) >= 12
    assert TextInk(MIN_TEXT).height == ink_height(MIN_TEXT)
    box = font(MIN_TEXT).getbbox(INK_SAMPLE)
    assert ink_height(MIN_TEXT) == box[3] - box[1]


def test_fit_cuts_with_an_ellipsis_only_when_too_wide() -> None:
    text = TextInk(14)
    assert text.fit("short", 500) == "short"
    long = "a rather long label for a node"
    cut = text.fit(long, 80)
    assert cut.endswith("…")
    assert long.startswith(cut[:-1])
    assert 0 < text.width(cut) <= 80
    longer = long[: len(cut)].rstrip() + "…"  # one more letter would not fit
    assert longer == cut or text.width(longer) > 80
    assert text.fit("anything", 1) == ""  # not even "…" fits
    assert text.ink("").shape == (text.height, 0)
