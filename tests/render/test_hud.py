from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.render.hud import Hud, HudText, format_number

TEXT = HudText("random-walk · railroad", 123, 7, 0.75, 0.8125)


@pytest.mark.parametrize("tile_size", [40, 100, 200])
def test_height_is_even_and_grows_with_the_tile_size(tile_size: int) -> None:
    hud = Hud(9 * tile_size, tile_size)
    assert hud.height % 2 == 0
    assert hud.strip.shape == (hud.height, 9 * tile_size)
    assert Hud(9 * 2 * tile_size, 2 * tile_size).height > hud.height


def test_text_uses_only_the_three_hud_colours() -> None:
    hud = Hud(900, 100)
    assert hud.update(TEXT)
    assert set(np.unique(hud.strip).tolist()) == {0, 1, 2}
    title_rows = np.flatnonzero((hud.strip == 1).any(axis=1))
    status_rows = np.flatnonzero((hud.strip == 2).any(axis=1))
    assert title_rows.max() < status_rows.min()  # title line above the status line


def test_update_reports_whether_anything_changed() -> None:
    hud = Hud(600, 60)
    assert hud.update(TEXT)
    before = hud.strip.copy()
    assert not hud.update(HudText(TEXT.title, TEXT.step, TEXT.depth, TEXT.value, TEXT.best))
    assert np.array_equal(hud.strip, before)
    assert hud.update(HudText(TEXT.title, 124, TEXT.depth, TEXT.value, TEXT.best))
    changed = np.flatnonzero((hud.strip != before).any(axis=0))
    assert changed.max() < 600 // 3  # only the step field was redrawn


def test_different_steps_draw_differently() -> None:
    one, other = Hud(600, 60), Hud(600, 60)
    one.update(TEXT)
    other.update(HudText(TEXT.title, 124, TEXT.depth, TEXT.value, TEXT.best))
    assert not np.array_equal(one.strip, other.strip)


def test_a_narrow_board_wraps_the_fields_onto_more_lines() -> None:
    wide, narrow = Hud(900, 100), Hud(200, 100)
    assert narrow.height > wide.height
    wide.update(TEXT)
    narrow.update(TEXT)
    bands = np.flatnonzero((narrow.strip == 2).any(axis=1))
    assert bands.max() - bands.min() > 3 * (wide.height // 3)  # fields stacked
    assert narrow.strip[:, -2:].max() == 0  # nothing drawn into the right padding


def test_a_very_narrow_board_shrinks_the_font() -> None:
    assert Hud(60, 100).height < Hud(200, 100).height


texts = st.builds(
    HudText,
    title=st.sampled_from(["a · b", "backtracking · tree", "x" * 90]),
    step=st.integers(0, 10**7),
    depth=st.integers(0, 999),
    value=st.none() | st.floats(-1e9, 1e9, allow_nan=False),
    best=st.none() | st.floats(-1, 1),
    value_label=st.sampled_from(["value", "score"]),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(texts, min_size=1, max_size=6))
def test_incremental_updates_equal_a_fresh_draw(sequence: list[HudText]) -> None:
    hud = Hud(500, 50)
    for text in sequence:
        hud.update(text)
        fresh = Hud(500, 50)
        fresh.update(text)
        assert np.array_equal(hud.strip, fresh.strip)


def test_format_number() -> None:
    assert format_number(None) == "-"
    assert format_number(3.0) == "3"
    assert format_number(-39) == "-39"
    assert format_number(0.8125) == "0.8125"
    assert format_number(2 / 3) == "0.6667"
    assert format_number(123456.789) == "1.235e+05"
    assert format_number(float("inf")) == "inf"


def test_a_search_that_ranks_nothing_shows_no_value_or_best() -> None:
    hidden = HudText("backtracking · tree", 6, 3, None, None, "")
    assert hidden.fields() == ("step 6", "depth 3", "", "")
    shown = HudText("beam · railroad", 6, 3, 0.5, 0.75, "score")
    assert shown.fields() == ("step 6", "depth 3", "score 0.5", "best 0.75")
    hud = Hud(900, 100)
    hud.update(hidden)
    plain = hud.strip.copy()
    hud.update(shown)
    assert not np.array_equal(plain, hud.strip)
