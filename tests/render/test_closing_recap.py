"""A closing card's recap of the search's settings wraps onto the lines it needs instead of
losing its words (issue 20 item 6, sixth round: railroad-game-expectimax's closing frame
at 720 px read a bare "expectimax", its settings dropped without a mark)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import searchvid
from searchvid.render.hud import MAX_CAPTION_LINES, Hud, HudText, StripContent
from searchvid.render.linewrap import shortened, wrap_phrases, wrap_words
from searchvid.render.narration import Narration
from searchvid.render.pipeline import frame_painter, normalise
from searchvid.search.status import Field
from tests.render.strips import strips

_EXPECTIMAX = (
    "expectimax (looks 2 moves ahead, value: scaled score, averages 3 sampled outcomes per roll)"
)
_SCENES = sorted(path.stem for path in Path("scenes").glob("*.toml"))


def _hud(recap: str, width: int = 720) -> Hud:
    return Hud(width, captions=True, contents=[StripContent("a title", ("a phase",), recap=recap)])


def _draw(hud: Hud, caption: str) -> np.ndarray:
    hud.update(HudText("a title", "a phase", (Field("step", 1),), caption))
    return hud.strip.copy()


def test_a_recap_wider_than_a_line_gets_the_caption_lines_it_fills_broken_between_phrases() -> None:
    hud = _hud(_EXPECTIMAX)
    assert hud.caption_lines == 2
    assert hud._caption(_EXPECTIMAX, hud.caption_lines) == [
        "expectimax (looks 2 moves ahead, value: scaled score,",
        "averages 3 sampled outcomes per roll)",
    ]
    # title, status and two caption lines: one line taller than a one-line recap's strip
    one = _hud("expectimax")
    assert hud.height == 2 * hud._pad + 4 * hud._line + (2 * hud._pad + 4 * hud._line) % 2
    assert one.height == 2 * one._pad + 3 * one._line + (2 * one._pad + 3 * one._line) % 2
    assert _hud("expectimax").caption_lines == 1


def test_the_wrapped_recap_is_drawn_line_under_line() -> None:
    hud = _hud(_EXPECTIMAX)
    lines = hud._caption(_EXPECTIMAX, hud.caption_lines)
    drawn = _draw(hud, _EXPECTIMAX)
    top = hud.height - hud._pad - hud.caption_lines * hud._line
    for index, line in enumerate(lines):
        alone = _draw(_hud(_EXPECTIMAX), line)  # the line's words alone, on the first line
        rows = slice(top + index * hud._line, top + (index + 1) * hud._line)
        first = slice(top, top + hud._line)
        assert np.array_equal(drawn[rows], alone[first]), index
    # an ordinary caption keeps one line; the recap's second line stays blank under it
    short = _draw(_hud(_EXPECTIMAX), "play die 2: rail curve at B4")
    assert not short[top + hud._line : top + 2 * hud._line].any()
    assert short[top : top + hud._line].any()


def test_phrases_break_after_a_comma_where_that_takes_no_more_lines() -> None:
    def measure(text: str) -> int:
        return len(text)  # one pixel a character: the breaks are plain to read

    text = "mcts (c 0.2, a long set, short)"
    assert wrap_words(text, 20, measure) == ["mcts (c 0.2, a long", "set, short)"]
    assert wrap_phrases(text, 20, measure) == ["mcts (c 0.2,", "a long set, short)"]
    # where phrases would take three lines and words two, the words' breaks stay
    longer = "mcts (c 0.2, a long setting here, short)"
    assert wrap_words(longer, 20, measure) == ["mcts (c 0.2, a long", "setting here, short)"]
    assert wrap_phrases(longer, 20, measure) == wrap_words(longer, 20, measure)
    # a phrase wider than a line goes on over as many as it needs, words whole
    long = "algo (one two three four five six seven eight)"
    assert wrap_phrases(long, 16, measure) == wrap_words(long, 16, measure)
    assert wrap_phrases("short", 16, measure) == ["short"]


def test_a_recap_too_long_for_the_most_lines_loses_its_last_asides_whole() -> None:
    def measure(text: str) -> int:
        return len(text)

    text = "algo (a, b) tail, more (aside two)"
    assert shortened(text, 10, measure, lines=2) == "algo tail, more"  # "algo tail," "more"
    assert shortened(text, 10, measure) == "algo tail"  # one line: as before
    hud = _hud("x " * 400)
    assert hud.caption_lines == MAX_CAPTION_LINES


def test_a_recap_that_would_keep_none_of_its_settings_is_left_out_whole() -> None:
    recap = "expectimax (" + ", ".join(f"setting {i} of many words" for i in range(40)) + ")"
    hud = _hud(recap, 400)
    assert hud.caption_lines == MAX_CAPTION_LINES
    assert hud._caption(recap, hud.caption_lines) == [""]  # not a bare "expectimax"
    top = hud.height - hud._pad - hud.caption_lines * hud._line
    assert not _draw(hud, recap)[top:].any()
    # another caption as long, not the recap, keeps its head as before
    assert hud._caption(recap + " ", hud.caption_lines) == ["expectimax"]


def test_the_closing_caption_is_the_recap_the_strip_was_sized_for() -> None:
    closing = strips("railroad-game-expectimax")[-1][1]
    scene = searchvid.load_scene("railroad-game-expectimax")
    assert closing.caption == Narration(scene.render_job().voice()).recap()


@pytest.mark.parametrize("width", [None, 720])
@pytest.mark.parametrize("name", _SCENES)
def test_every_scenes_closing_recap_is_shown_whole(name: str, width: int | None) -> None:
    scene = searchvid.load_scene(name)
    if width is not None:
        scene = scene.with_overrides(width=width)
    sources, jobs = normalise(scene.sources(), scene.render_jobs())
    painter = frame_painter(sources, jobs, scene.title)
    for hud, narration in zip(painter.huds, painter.narrations, strict=True):
        if hud is None or not hud.captions or not narration.voice.captions:
            continue
        recap = narration.recap()
        lines = hud._caption(recap, hud.caption_lines)
        assert " ".join(lines) == recap, (lines, recap)
        assert all(hud._measure(line) <= hud._usable for line in lines), lines
        assert len(lines) <= hud.caption_lines
