"""A caption too wide for its line loses whole phrases, never a word cut in two (issue 20
item 6): after its asides, the comma-separated parts outside brackets go, last first."""

from __future__ import annotations

import numpy as np

from searchvid.render.hud import Hud, HudText
from searchvid.search.status import Field

_MCTS = (
    "MCTS, plays the most visited move, 800 playouts per move, reward: scaled score, "
    "exploration 0.2 (lower: sticks to the best moves)"
)


def _strip(caption: str, width: int = 720) -> np.ndarray:
    hud = Hud(width, captions=True)
    hud.update(HudText("a title", "a phase", (Field("step", 1),), caption))
    return hud.strip.copy()


def test_a_closing_caption_of_settings_loses_its_last_settings_whole() -> None:
    # railroad-game-mcts's closing caption at 720 px: the aside goes, then the last setting
    kept = "MCTS, plays the most visited move, 800 playouts per move, reward: scaled score"
    assert np.array_equal(_strip(_MCTS), _strip(kept))
    # on a narrower line more settings go, the algorithm's name stays
    assert np.array_equal(_strip(_MCTS, 300), _strip("MCTS, plays the most visited move", 300))


def test_a_comma_inside_brackets_is_no_place_to_cut() -> None:
    # the aside goes first, whole, with its comma; the head before the first comma stays
    text = "head part (an aside, with a comma) and more words, tail part " + "x" * 10
    assert np.array_equal(_strip(text, 240), _strip("head part and more words", 240))


def test_a_caption_that_fits_keeps_every_part() -> None:
    assert not np.array_equal(_strip("MCTS, 800 playouts"), _strip("MCTS"))
