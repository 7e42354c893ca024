"""The alpha-beta window gauge (issue 20 items 3 and 6): under a minimax board without a
tree panel, a scale in the game's words with the window as a band, the node's value as a
notch and "cut-off" where the window closes; switched by ``[video] window_gauge``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from searchvid import SceneError, load_scene, scene_from_dict
from searchvid.render.canvas import Rect
from searchvid.render.framelayout import FrameLayout
from searchvid.render.pipeline import drawn_frames, frame_painter
from searchvid.render.settings import VideoOptions
from searchvid.render.textink import TextInk
from searchvid.render.window import (
    BACKGROUND,
    CUT,
    SCALE,
    VALUE,
    WINDOW,
    WindowGauge,
    scale_words,
    window_of,
)
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

WIDTH, FONT = 600, 18


class Words:
    """A narrator with words for a win, a draw and a loss."""

    def describe_value(self, value: float) -> str | None:
        return {0.0: "O wins", 0.5: "draw", 1.0: "X wins"}.get(value)


def gauge() -> WindowGauge:
    return WindowGauge(WIDTH, FONT, scale_words(Words()))


def event(kind: EventKind = EventKind.BACKTRACK, value: float | None = None) -> Event:
    return Event(kind, None, 3, 7, value)


def window(alpha: float, beta: float) -> tuple[Field, ...]:
    return (Field("nodes searched", 12), Field("alpha", alpha), Field("beta", beta))


def columns_of(pixels: npt.NDArray[np.uint8], row: int, color: tuple[int, int, int]) -> list[int]:
    """The columns of ``row`` painted exactly ``color``."""
    hit = (pixels[row] == np.array(color, dtype=np.uint8)).all(axis=-1)
    return [int(x) for x in np.flatnonzero(hit)]


def bar_row(g: WindowGauge) -> int:
    """A row through the middle of the scale."""
    rows = [
        r
        for r in range(g.height)
        if len(columns_of(g.pixels, r, SCALE)) + len(columns_of(g.pixels, r, WINDOW)) > 100
    ]
    return rows[len(rows) // 2]


def test_scale_words_are_the_domains_else_the_numbers() -> None:
    assert scale_words(Words()) == ("O wins", "draw", "X wins")
    assert scale_words(None) == ("0", "0.5", "1")


def test_the_window_is_read_from_the_fields_only_when_both_bounds_are_numbers() -> None:
    assert window_of(window(0.5, 1.0)) == (0.5, 1.0)
    assert window_of((Field("alpha", 0.5),)) is None
    assert window_of((Field("alpha", "draw"), Field("beta", 1.0))) is None
    assert window_of(()) is None


def test_the_band_spans_alpha_to_beta_and_the_notch_marks_the_value() -> None:
    g = gauge()
    changed = g.draw(window(0.5, 1.0), event(value=0.5))
    assert changed == [Rect(0, 0, g.height, WIDTH)]
    row = bar_row(g)
    # the scale runs from column 8 (value 0) to 592 (value 1): the window from 0.5 is blue
    # to the end, the notch 6 px wide centred on 0.5 (x 300) is yellow, the rest grey
    assert (g.x_of(0.0), g.x_of(0.5), g.x_of(1.0)) == (8, 300, 592)
    assert columns_of(g.pixels, row, VALUE) == list(range(297, 303))
    assert columns_of(g.pixels, row, WINDOW) == list(range(303, 592))
    assert columns_of(g.pixels, row, SCALE) == list(range(8, 297))
    assert not columns_of(g.pixels, row, CUT)
    # the notch reaches past the bar, above and below
    assert columns_of(g.pixels, row - g._bar // 2 - 1, VALUE) == list(range(297, 303))


def test_no_value_no_notch_and_the_same_look_changes_nothing() -> None:
    g = gauge()
    g.draw(window(0.0, 0.5), event(EventKind.ENTER))
    row = bar_row(g)
    assert columns_of(g.pixels, row, WINDOW) == list(range(8, 300))
    assert not columns_of(g.pixels, row, VALUE)
    assert g.draw(window(0.0, 0.5), event(EventKind.ENTER)) == []


def cut_written(g: WindowGauge) -> bool:
    return bool((g.pixels == np.array(CUT, dtype=np.uint8)).all(axis=-1)[: g._bar_top].any())


def test_an_empty_window_says_cut_off_and_draws_its_bounds_in_vermilion() -> None:
    g = gauge()
    g.draw(window(1.0, 0.5), event(value=1.0))
    row = bar_row(g)
    assert columns_of(g.pixels, row, CUT) == list(range(298, 302))  # beta's line (alpha's
    assert not columns_of(g.pixels, row, WINDOW)  # at 1 is under the value's notch)
    assert columns_of(g.pixels, row, VALUE) == list(range(586, 592))
    assert cut_written(g)
    # the words are the text ink of "cut-off", right-aligned in the key line
    ink = TextInk(FONT)
    width = ink.advance("cut-off")
    top = g._key_top
    box = g.pixels[top : top + ink.line, WIDTH - 8 - width : WIDTH - 8]
    assert np.array_equal(
        (box != np.array(BACKGROUND, dtype=np.uint8)).any(axis=-1),
        ink.shade("cut-off")[:, : box.shape[1]] > 0,
    )
    g.draw(window(0.5, 1.0), event(value=1.0))
    assert not cut_written(g)


def test_a_prune_is_a_cut_off_and_its_value_is_no_node_value() -> None:
    g = gauge()
    g.draw(window(0.5, 1.0), event(EventKind.PRUNE, value=3.0))  # 3 moves cut
    row = bar_row(g)
    assert not columns_of(g.pixels, row, VALUE)
    assert cut_written(g)


def test_without_a_window_the_gauge_says_so() -> None:
    g = gauge()
    g.draw((Field("nodes searched", 3),), event(EventKind.MOVE, value=0.5))
    row = bar_row(g)
    assert columns_of(g.pixels, row, SCALE) == list(range(8, 592))
    assert not columns_of(g.pixels, row, VALUE)
    ink = TextInk(FONT)
    text = "no alpha-beta window on this frame"
    box = g.pixels[g._key_top : g._key_top + ink.line, 8 : 8 + ink.advance(text)]
    shade = ink.shade(text)
    assert np.array_equal(
        (box != np.array(BACKGROUND, dtype=np.uint8)).any(axis=-1), shade[:, : box.shape[1]] > 0
    )


# -- in the frame ------------------------------------------------------------------------

TABLE = {
    "title": "t",
    "domain": {"name": "tictactoe", "position": "XOX/.O./OX."},
    "search": {"algorithm": "minimax"},
    "video": {"tile_size": 100, "window_gauge": True},
}


def test_the_gauge_sits_between_the_board_and_the_legend_only_without_a_tree() -> None:
    video = VideoOptions(tile_size=100, window_gauge=True)
    plain = FrameLayout([(3, 3)], VideoOptions(tile_size=100), [False])
    layout = FrameLayout([(3, 3)], video, [False])
    (column,) = layout.columns
    height = WindowGauge.measure(300, layout.legend_font)
    assert column.gauge_height == height > 0
    assert column.gauge_top == 300  # right under the board
    assert column.legend_top == 300 + height
    assert layout.height == plain.height + height
    tree = FrameLayout([(3, 3)], VideoOptions(tile_size=100, window_gauge=True, tree=True), [True])
    assert tree.columns[0].gauge_height == 0


def test_a_minimax_scene_draws_the_gauge_with_the_games_words() -> None:
    scene = scene_from_dict(TABLE, name="t")
    painter = frame_painter(scene.sources(), scene.render_jobs())
    (gauge_,) = painter.gauges
    assert gauge_ is not None
    assert gauge_.words == ("O wins", "draw", "X wins")
    assert painter.text_heights["gauge"] >= 12
    first = np.asarray(scene.preview(1).convert("RGB"))
    top = painter.layout.columns[0].gauge_top
    assert (first[top : top + gauge_.height] == np.array(WINDOW, dtype=np.uint8)).all(-1).any()
    off = scene_from_dict({**TABLE, "video": {"tile_size": 100}}, name="t")
    assert off.preview(1).size[1] == scene.preview(1).size[1] - gauge_.height


def test_window_gauge_must_be_a_boolean_and_for_a_search_with_a_window() -> None:
    with pytest.raises(SceneError, match="window_gauge"):
        scene_from_dict({**TABLE, "video": {"window_gauge": "yes"}}, name="t")
    message = (
        "t: video.window_gauge: only for minimax with alpha_beta (the search that reports "
        "an alpha-beta window)"
    )
    for search in ({"algorithm": "backtracking"}, {"algorithm": "minimax", "alpha_beta": False}):
        with pytest.raises(SceneError) as raised:
            scene_from_dict({**TABLE, "search": search}, name="t")
        assert str(raised.value) == message


def test_the_shipped_minimax_scenes_show_the_gauge() -> None:
    for name in ("tictactoe-minimax", "tictactoe4-solve"):
        assert load_scene(name).video.window_gauge


def test_each_frame_with_the_gauge_equals_a_fresh_drawing_of_it() -> None:
    scene = scene_from_dict(TABLE, name="t")
    drawn = [
        f.copy() for _, f in drawn_frames(scene.sources(), scene.render_jobs(), lambda _i: True)
    ]
    assert len(drawn) > 5
    for i in range(len(drawn)):
        assert np.array_equal(np.asarray(scene.preview(i).convert("RGB")), drawn[i]), i
