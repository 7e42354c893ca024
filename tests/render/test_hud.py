"""The status strip: whole strings set by FreeType and anti-aliased in the strip's own
colours, text sized by the frame, titles wrapped, a strip as tall as its content."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from searchvid.render.hud import (
    HUD_COLORS,
    MAX_FONT,
    MAX_TITLE_LINES,
    TEXT_SHARE,
    Hud,
    HudText,
    StripContent,
    expected_status,
)
from searchvid.render.textink import LEVELS, MIN_TEXT, font
from searchvid.search.status import Field

TEXT = HudText(
    "Railroad Ink: random walks",
    "random-walk searching",
    (Field("step", 123), Field("depth", 7), Field("exits joined", 7, of=12), Field("best", 0.81)),
)
TITLE_INK = {1, *range(3, 3 + LEVELS - 1)}
"""Strip indices of the title's ink: full, then its blends over the background."""
STATUS_INK = {2, *range(3 + LEVELS - 1, 3 + 2 * (LEVELS - 1))}


def ink_rows(hud: Hud, colors: set[int]) -> np.ndarray:
    return np.flatnonzero(np.isin(hud.strip, list(colors)).any(axis=1))


def line_of(hud: Hud, index: int) -> np.ndarray:
    top = hud._pad + index * hud._line
    return hud.strip[top : top + hud._line]


def test_the_strip_colours_are_greys_with_blends_between_each_text_colour_and_the_ground() -> None:
    background, title, status = HUD_COLORS[:3]
    assert len(HUD_COLORS) == 3 + 2 * (LEVELS - 1) == len(set(HUD_COLORS))
    assert all(r == g == b for r, g, b in HUD_COLORS)  # greys: exact in 4:2:0 chroma
    title_blends = [c[0] for c in HUD_COLORS[3 : 3 + LEVELS - 1]]
    status_blends = [c[0] for c in HUD_COLORS[3 + LEVELS - 1 :]]
    assert background[0] < title_blends[0]
    assert title_blends == sorted(title_blends)
    assert title_blends[-1] < title[0]
    assert background[0] < status_blends[0]
    assert status_blends[-1] < status[0]


@pytest.mark.parametrize("frame_width", [400, 720, 900, 1800])
def test_text_is_a_fiftieth_of_the_frame_and_at_least_12_px(frame_width: int) -> None:
    hud = Hud(frame_width, frame_width)
    hud.update(TEXT)
    assert hud.height % 2 == 0
    wanted = min(max(MIN_TEXT, -(-frame_width // TEXT_SHARE)), MAX_FONT)
    assert hud.text_sizes == (wanted,)
    assert min(hud.text_heights) >= MIN_TEXT
    rows = ink_rows(hud, {1})  # the title's full ink: capitals and descenders
    assert rows.max() - rows.min() + 1 >= 0.6 * wanted
    assert hud._line >= wanted


@pytest.mark.parametrize("width", [180, 360, 720])
def test_a_720_px_frame_writes_text_at_least_12_px_tall_in_every_column(width: int) -> None:
    """The strip's own measure: columns of any width in a 720-px frame, captions included."""
    hud = Hud(width, 720, captions=True)
    assert min(hud.text_heights) >= 12
    assert min(hud.text_sizes) >= 12
    box = font(hud.size).getbbox("Abdfghjklpqy()[]0123456789+")
    assert hud.text_heights == (box[3] - box[1],)


def test_text_is_anti_aliased_in_the_strip_colours_title_above_status() -> None:
    hud = Hud(900, 900)
    assert hud.update(TEXT)
    used = set(np.unique(hud.strip).tolist())
    assert used <= set(range(len(HUD_COLORS)))
    assert used & (TITLE_INK - {1})
    assert used & (STATUS_INK - {2})
    assert ink_rows(hud, TITLE_INK).max() < ink_rows(hud, STATUS_INK).min()


def test_a_field_is_the_whole_string_as_freetype_sets_it() -> None:
    """Set as one string (kerning and the font's advances), not glyph by glyph: the pixels
    of the title line are Pillow's rendering of the whole title, levelled."""
    hud = Hud(900, 900)
    title = "Water Sort: breadth-first, AV"
    hud.update(HudText(title, "p", ()))
    face = font(hud.size)
    image = Image.new("L", (hud.width, hud._line), 0)
    ImageDraw.Draw(image).text((hud._pad, 0), title, fill=255, font=face)
    coverage = np.asarray(image).astype(np.int32)
    levels = (coverage * LEVELS + 127) // 255
    expected = np.array([0, *range(3, 3 + LEVELS - 1), 1])[levels]
    got = line_of(hud, 0)
    assert np.array_equal(got, expected)


def test_update_reports_whether_anything_changed() -> None:
    hud = Hud(900, 900)
    assert hud.update(TEXT)
    before = hud.strip.copy()
    assert not hud.update(TEXT)
    assert np.array_equal(hud.strip, before)
    changed = HudText(TEXT.title, TEXT.phase, (Field("step", 124), *TEXT.fields[1:]))
    assert hud.update(changed)
    rows = np.flatnonzero((hud.strip != before).any(axis=1))
    assert rows.min() > ink_rows(hud, TITLE_INK).max()  # the title line was not touched


def test_fields_keep_their_place_while_numbers_grow_to_four_digits() -> None:
    short = HudText("t", "p", (Field("step", 9), Field("depth", 1)))
    grown = HudText("t", "p", (Field("step", 9_999), Field("depth", 1)))
    longer = HudText("t", "p", (Field("step", 123_456), Field("depth", 1)))
    content = [StripContent("t", short.status_texts())]  # one status line
    one, other, third = (Hud(900, 900, contents=content) for _ in range(3))
    one.update(short)
    other.update(grown)
    third.update(longer)
    # "depth 1" starts where the step slot (room for "0,000") ends, in the first two
    slots = one._slots(short.status_texts())
    start = one._pad + slots[0] + one._gap + slots[1] + one._gap
    status = list(STATUS_INK)
    tail_one = np.isin(line_of(one, 1)[:, start:], status)
    assert tail_one.any()
    assert np.array_equal(tail_one, np.isin(line_of(other, 1)[:, start:], status))
    # a six-digit value outgrows its room: the fields after it move on
    assert not np.array_equal(tail_one, np.isin(line_of(third, 1)[:, start:], status))


def test_digits_keep_their_columns_as_a_counter_changes() -> None:
    """Tabular figures: 1,111 and 8,888 put each digit in the same columns."""
    content = [StripContent("t", ("p", "step 0"))]
    one, other = Hud(900, 900, contents=content), Hud(900, 900, contents=content)
    one.update(HudText("t", "p", (Field("step", 1_111),)))
    other.update(HudText("t", "p", (Field("step", 8_888),)))
    ink_one = line_of(one, 1).any(axis=0)
    ink_other = line_of(other, 1).any(axis=0)
    # the phase and the field's name are identical; the digits' cells start and end together
    columns_one, columns_other = np.flatnonzero(ink_one), np.flatnonzero(ink_other)
    assert columns_one[0] == columns_other[0]
    assert abs(int(columns_one[-1]) - int(columns_other[-1])) <= 1


def test_long_titles_wrap_onto_more_lines_instead_of_being_cut() -> None:
    title = "Tic-tac-toe 4x4: the whole game solved, a draw"
    hud = Hud(200, 200, contents=[StripContent(title, ("p",))])
    lines = hud._wrap(title)
    assert len(lines) >= 2
    assert " ".join(lines) == title  # every word, none cut
    assert hud.title_lines == len(lines)
    hud.update(HudText(title, "p", ()))
    for index in range(hud.title_lines):
        assert np.isin(line_of(hud, index), list(TITLE_INK)).any()
    assert hud.strip[:, -hud._pad :].max() == 0  # nothing in the right padding


def test_a_title_longer_than_three_lines_is_cut_with_an_ellipsis_on_the_third() -> None:
    hud = Hud(300, 300)
    lines = hud._wrap("word " * 60)
    assert len(lines) == MAX_TITLE_LINES
    assert lines[-1].endswith("…")
    assert all(hud._measure(line) <= hud._usable for line in lines)


def test_the_strip_is_as_tall_as_its_content() -> None:
    texts = expected_status("A*", values=True, narrated=True)
    hud = Hud(900, 900, captions=True, contents=[StripContent("Water Sort", texts)])
    needed = hud._lines_needed(texts)
    assert hud.status_lines == needed
    lines = hud.title_lines + needed + 1
    assert hud.height in (2 * hud._pad + lines * hud._line, 2 * hud._pad + lines * hud._line + 1)
    few = Hud(900, 900, contents=[StripContent("t", ("p", "step 0"))])
    assert few.status_lines == 1
    assert few.height < hud.height


def test_fewer_fields_than_expected_spread_over_every_line() -> None:
    """No empty line: fields fill all the status lines the strip was sized for."""
    hud = Hud(
        400, 400, contents=[StripContent("t", expected_status("A*", values=True, narrated=True))]
    )
    assert hud.status_lines >= 3
    fields = tuple(Field(name, 1) for name in ("step", "depth", "g", "h", "f"))
    hud.update(HudText("t", "A* searching", fields))
    for index in range(hud.status_lines):
        assert np.isin(line_of(hud, hud.title_lines + index), list(STATUS_INK)).any(), index


def test_strips_sized_for_several_columns_are_of_one_height() -> None:
    contents = [StripContent("1 · breadth-first", ("p",)), StripContent("2 · " + "x " * 40, ("p",))]
    one = Hud(400, 800, contents=contents)
    assert one.title_lines > 1
    assert one.height == Hud(400, 800, contents=contents[::-1]).height


def test_fields_that_do_not_fit_the_lines_are_dropped_not_squeezed() -> None:
    many = HudText("t", "phase", tuple(Field(f"f{i}", i) for i in range(40)))
    hud = Hud(400, 400, contents=[StripContent("t", ("phase", "f0 0", "f1 1"))])
    hud.update(many)
    shown = [text for row in hud._rows for text, _, _ in row]
    assert 3 <= len(shown) < 41
    assert shown == list(many.status_texts()[: len(shown)])  # the first ones, in order
    for text, left, right in (slot for row in hud._rows for slot in row):
        assert right - left >= hud._measure(text)  # whole, never cut


def test_captions_are_cut_with_an_ellipsis_to_their_line() -> None:
    hud = Hud(300, 300, captions=True)
    hud.update(HudText("t", "p", (), "x" * 200))
    assert hud.strip[:, -hud._pad :].max() == 0


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


counters = st.builds(
    lambda step, depth, score, caption: HudText(
        "Railroad Ink: backtracking",
        "backtracking searching",
        (
            Field("step", step),
            Field("depth", depth),
            Field("exits joined", 3, of=12),
            Field("network", score),
            Field("best", 0.53),
        ),
        caption,
    ),
    step=st.integers(0, 2_000_000),
    depth=st.integers(0, 30),
    score=st.none() | st.floats(0, 1),
    caption=st.none() | st.sampled_from(["go to a", "backtrack to depth 2"]),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(counters, min_size=2, max_size=8), st.sampled_from([360, 500, 900]))
def test_counters_redrawn_slot_by_slot_equal_a_strip_drawn_from_scratch(
    sequence: list[HudText], width: int
) -> None:
    """Frame after frame only the changed slots are redrawn (the slots stay put while the
    numbers fit them); the strip is still the one drawn from nothing."""
    hud = Hud(width, width, captions=True)
    for text in sequence:
        hud.update(text)
        fresh = Hud(width, width, captions=True)
        fresh.update(text)
        assert np.array_equal(hud.strip, fresh.strip)


def test_a_changed_counter_redraws_only_its_own_slot() -> None:
    hud = Hud(900, 900)
    hud.update(TEXT)
    before = hud.strip.copy()
    hud.update(HudText(TEXT.title, TEXT.phase, (Field("step", 124), *TEXT.fields[1:])))
    changed = np.flatnonzero((hud.strip != before).any(axis=0))
    (step,) = [slot for row in hud._rows for slot in row if slot[0].startswith("step")]
    assert step[0] == "step 124"
    # "step 123" -> "step 124": only the last digit's columns, inside the step slot
    assert step[1] + hud._measure("step 12") - 2 <= changed.min()
    assert changed.max() < step[2]


def test_a_strip_sized_before_the_search_holds_a_games_last_frame_whole() -> None:
    """The longest frame of a shipped scene (Railroad Ink's dice game over, MCTS, 900 px)
    fits the lines :func:`expected_status` sizes the strip for: no field is dropped."""
    last = HudText(
        "Railroad Ink, the dice game: MCTS, 400 playouts per die",
        "MCTS, game over: 52 points",
        (
            Field("step", 48_624),
            Field("depth", 38),
            Field("move", 31),
            Field("iterations", 400, of=400),
            Field("visits", 273),
            Field("mean reward", 0.575),
            Field("", "game over"),
            Field("exits joined", 7, of=12),
            Field("score", 52),
            Field("exit points", 36),
            Field("road", 8),
            Field("rail", 9),
            Field("centre", 4),
            Field("errors", -5),
            Field("score value", 0.575),
            Field("best", 0.581),
        ),
    )
    content = StripContent(last.title, expected_status("MCTS", values=True, narrated=True))
    hud = Hud(900, 900, captions=True, contents=[content])
    hud.update(last)
    shown = [text for row in hud._rows for text, _, _ in row]
    assert shown == list(last.status_texts())
    assert all(row for row in hud._rows)  # and no line empty


LONG = "14 tubes of 4 and 12 colours: pour until each colour fills a tube of its own, tube by tube"


def _drawn_texts(hud: Hud) -> list[list[str]]:
    return [[text for text, _, _ in line] for line in hud._rows]


def test_a_status_text_wider_than_a_line_goes_on_over_spare_lines_whole() -> None:
    """A problem line in a narrow column is broken at spaces over lines the strip has to
    spare, not cut; only its last line may hold the text after it (as a text that fits
    one line would)."""
    expected = tuple(f"sized field {i} 1234" for i in range(8))
    hud = Hud(400, 400, contents=[StripContent("2 · A*", expected)])
    assert hud.status_lines >= 3
    assert hud._measure(LONG) > hud._usable
    hud.update(HudText("2 · A*", LONG, (Field("search", "A*"),)))
    lines = _drawn_texts(hud)
    words = " ".join(text for line in lines for text in line).split()
    assert " ".join(words).startswith(LONG)
    assert not any("…" in text for line in lines for text in line)
    first_lines = [line for line in lines if any(text in LONG for text in line)]
    assert len(first_lines) >= 2
    # nothing shares a line of the text but its last
    assert all(len(line) == 1 for line in first_lines[:-1])
    assert first_lines[-1][-1] == "search A*"
    assert all(hud._measure(text) <= hud._usable for line in lines for text in line)


def test_a_wide_status_text_is_cut_where_the_strip_has_no_line_to_spare() -> None:
    hud = Hud(400, 400, contents=[StripContent("2 · A*", ("x",))])
    assert hud.status_lines == 1
    hud.update(HudText("2 · A*", LONG, ()))
    assert _drawn_texts(hud) == [[LONG]]  # not folded: drawn cut with "…" to its line
    assert hud._measure(LONG) > hud._usable
