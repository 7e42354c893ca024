"""The status strip: named fields, text sized by the frame, palette-exact glyphs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.render.hud import TEXT_SHARE, Hud, HudText
from searchvid.search.status import Field

TEXT = HudText(
    "Railroad Ink: random walks",
    "random-walk searching",
    (Field("step", 123), Field("depth", 7), Field("exits joined", 7, of=12), Field("best", 0.81)),
)


def ink_rows(hud: Hud, color: int) -> np.ndarray:
    return np.flatnonzero((hud.strip == color).any(axis=1))


@pytest.mark.parametrize("frame_width", [400, 900, 1800])
def test_text_is_at_least_a_fiftieth_of_the_frame_wide(frame_width: int) -> None:
    hud = Hud(frame_width, frame_width)
    hud.update(TEXT)
    assert hud.height % 2 == 0
    rows = ink_rows(hud, 1)  # the title's ink
    assert rows.max() - rows.min() + 1 >= frame_width / TEXT_SHARE * 0.6  # cap height
    assert hud._line >= frame_width / TEXT_SHARE  # the line of text


def test_a_wider_frame_makes_a_taller_strip_and_captions_add_a_line() -> None:
    assert Hud(900, 1800).height > Hud(900, 900).height
    assert Hud(900, 900, captions=True).height > Hud(900, 900).height


def test_text_uses_only_the_three_hud_colours_title_above_status() -> None:
    hud = Hud(900, 900)
    assert hud.update(TEXT)
    assert set(np.unique(hud.strip).tolist()) == {0, 1, 2}
    assert ink_rows(hud, 1).max() < ink_rows(hud, 2).min()


def test_update_reports_whether_anything_changed() -> None:
    hud = Hud(900, 900)
    assert hud.update(TEXT)
    before = hud.strip.copy()
    assert not hud.update(TEXT)
    assert np.array_equal(hud.strip, before)
    changed = HudText(TEXT.title, TEXT.phase, (Field("step", 124), *TEXT.fields[1:]))
    assert hud.update(changed)
    rows = np.flatnonzero((hud.strip != before).any(axis=1))
    assert rows.min() > ink_rows(hud, 1).max()  # the title line was not touched


def test_fields_keep_their_place_when_numbers_grow() -> None:
    short = HudText("t", "p", (Field("step", 9), Field("depth", 1)))
    long = HudText("t", "p", (Field("step", 123_456), Field("depth", 1)))
    one, other = Hud(900, 900), Hud(900, 900)
    one.update(short)
    other.update(long)
    # "depth 1" starts where the step slot (room for six digits) ends, in both strips
    start = one._pad + one._slot("p", first=True) + one._gap + one._slot("step 9", first=False)
    tail_one, tail_other = one.strip[:, start:] == 2, other.strip[:, start:] == 2
    assert tail_one.any()
    assert np.array_equal(tail_one, tail_other)
    assert not np.array_equal(one.strip == 2, other.strip == 2)  # the step values differ


def test_long_titles_are_cut_with_an_ellipsis_and_stay_in_the_strip() -> None:
    hud = Hud(300, 300)
    hud.update(HudText("x" * 200, "p", ()))
    assert hud.strip[:, -2:].max() == 0  # nothing in the right padding


def test_fields_that_do_not_fit_two_lines_are_dropped_not_squeezed() -> None:
    many = HudText("t", "phase", tuple(Field(f"f{i}", i) for i in range(40)))
    hud = Hud(400, 400)
    hud.update(many)
    status = ink_rows(hud, 2)
    assert status.max() < hud.height  # inside the strip: two status lines


texts = st.builds(
    HudText,
    title=st.sampled_from(["a", "Water Sort: the optimal 39 pours (A*)", "x" * 90]),
    phase=st.sampled_from(["A* searching", "solution"]),
    fields=st.lists(
        st.builds(
            Field,
            name=st.sampled_from(["step", "depth", "frontier", "score"]),
            value=st.none() | st.integers(0, 10**7) | st.floats(-1e6, 1e6, allow_nan=False),
        ),
        max_size=6,
    ).map(tuple),
    caption=st.none() | st.sampled_from(["pour tube 3 into tube 7", "backtrack to depth 2"]),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(texts, min_size=1, max_size=6))
def test_a_strip_drawn_frame_by_frame_equals_one_drawn_from_scratch(
    sequence: list[HudText],
) -> None:
    hud = Hud(500, 500, captions=True)
    for text in sequence:
        hud.update(text)
        fresh = Hud(500, 500, captions=True)
        fresh.update(text)
        assert np.array_equal(hud.strip, fresh.strip)
