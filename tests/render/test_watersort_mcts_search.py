"""watersort-mcts shows Monte Carlo tree search at work, not a replay of its pours (issue 20
item 6): between the committed pours, frames of the decision's iterations (tree nodes and
the ends of random playouts, framed in orange), beside the tree panel, in 20 to 40 s."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest

import searchvid
from searchvid.render.palette import ORANGE
from searchvid.render.timeline import timeline


@pytest.fixture(scope="module")
def scene() -> searchvid.Scene:
    return searchvid.load_scene("watersort-mcts")


@pytest.fixture(scope="module")
def shown(scene: searchvid.Scene) -> list[dict[str, Any]]:
    """The trace's records that become frames, in frame order."""
    records = [r for r in scene.trace() if r["frame"] is not None]
    assert [r["frame"] for r in records] == list(range(len(records)))
    return records


def _is_playout(record: dict[str, Any]) -> bool:
    return record["kind"] == "leaf" and record["id"] is None and record["parent"] is not None


def test_every_pour_is_a_frame_and_the_search_shows_between_them(
    shown: list[dict[str, Any]],
) -> None:
    moves = [i for i, r in enumerate(shown) if r["kind"] == "move"]
    assert len(moves) == 46  # the start, then the 45 pours
    assert moves[0] == 0
    assert moves[-1] == len(shown) - 1
    searching = [r for r in shown if r["kind"] != "move"]
    playouts = [r for r in searching if _is_playout(r)]
    # the decision's iterations: playout ends and tree nodes (selected, expanded)
    assert {r["kind"] for r in searching} == {"leaf", "select", "expand"}
    assert len(playouts) >= 20
    assert len(searching) - len(playouts) >= 20
    # the search shows before nearly every pour: at most the forced ones follow straight on
    gaps = [b - a - 1 for a, b in pairwise(moves)]
    assert sum(1 for gap in gaps if gap == 0) <= 2
    # the first decision, seen first, shows several of its playouts
    assert sum(1 for r in shown[: moves[1]] if _is_playout(r)) >= 4


def test_the_tree_panel_is_on_and_the_video_lasts_20_to_40_seconds(
    scene: searchvid.Scene,
) -> None:
    assert scene.video.tree is True
    frames = timeline(scene.sources(), scene.render_jobs()).frames
    end = frames[-1].start + frames[-1].duration
    assert 20 <= end <= 40


def test_a_playout_frame_is_framed_in_orange_and_a_pour_is_not(
    scene: searchvid.Scene, shown: list[dict[str, Any]]
) -> None:
    moves = [i for i, r in enumerate(shown) if r["kind"] == "move"]
    playout = next(i for i, r in enumerate(shown) if _is_playout(r) and i > moves[1])
    pour = next(i for i in moves if i > playout)
    corner = (3, 3)  # inside the board's top-left edge cell, where the orange band runs
    framed = np.asarray(scene.preview(playout))
    plain = np.asarray(scene.preview(pour))
    assert tuple(framed[corner]) == ORANGE
    assert tuple(plain[corner]) != ORANGE
    # the band runs along the board's whole top edge on the playout's frame only
    top = framed[3, : plain.shape[1] // 2]
    assert (top == np.array(ORANGE)).all(-1).sum() >= plain.shape[1] // 4
