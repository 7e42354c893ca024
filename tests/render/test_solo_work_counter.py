"""A frontier search alone counts one thing on its strip, the work it has done, as its
closing card and a race do: ``work 87 expansions`` grows frame by frame to the closing
figure, with no event count (``step 368``) beside it."""

from __future__ import annotations

from typing import Any

import pytest

import searchvid
from searchvid.render.hud import HudText
from searchvid.search.events import EventKind


def _strips(scene: Any) -> list[tuple[Any, HudText]]:
    """The single search's distinct frames: event and strip."""
    out: list[tuple[Any, HudText]] = []
    for shown in scene.strip_texts():
        item = shown[0]
        if item is not None and (not out or out[-1][0] is not item[0]):
            out.append(item)
    return out


def _work(text: HudText) -> list[int]:
    return [int(str(f.value)) for f in text.fields if f.name == "work"]


@pytest.mark.parametrize("algorithm", ["breadth-first", "best-first", "astar"])
def test_a_frontier_search_counts_its_expansions_up_to_the_closing_figure(algorithm: str) -> None:
    table = {
        "domain": {"name": "tree", "goal": "Monte Carlo Tree Search"},
        "search": {"algorithm": algorithm},
        "video": {"frames": "all", "hold_last": 0},
    }
    strips = _strips(searchvid.scene_from_dict(table, name="t.toml"))
    (opening, _), *frames, (_, closing) = strips
    assert opening.kind is EventKind.ENTER  # the start, expanded first: the card's board
    counts = []
    expanded = 1
    for event, text in frames:
        names = [f.name for f in text.fields]
        assert "step" not in names
        if event.kind in (EventKind.ENTER, EventKind.LEAF):
            expanded += 1
        # the nodes taken from the frontier so far, this frame's own among them
        assert _work(text) == [expanded]
        assert next(f.text() for f in text.fields if f.name == "work").endswith(
            " expansion" if expanded == 1 else " expansions"
        )
        counts.append(expanded)
    assert counts == sorted(counts)
    assert _work(closing) == [counts[-1]]
    assert "step" not in [f.name for f in closing.fields]


def test_the_shipped_a_star_s_solution_frames_keep_the_search_s_work() -> None:
    strips = _strips(searchvid.load_scene("watersort-astar"))
    searching = [t for e, t in strips[1:-1] if e.kind is not EventKind.MOVE]
    solution = [t for e, t in strips[1:-1] if e.kind is EventKind.MOVE]
    assert searching
    assert solution
    assert all(_work(t) and "step" not in [f.name for f in t.fields] for t in searching)
    # the search is over on the solution's frames: its work stays what the card states
    assert {_work(t)[0] for t in solution} == {103}
    assert _work(strips[-1][1]) == [103]


@pytest.mark.parametrize(("algorithm", "counted"), [("backtracking", "visited"), ("beam", "kept")])
def test_searches_whose_fields_count_their_work_keep_their_strips(
    algorithm: str, counted: str
) -> None:
    table = {
        "domain": {"name": "tree"},
        "search": {"algorithm": algorithm},
        "video": {"frames": "all", "hold_last": 0},
    }
    for _, text in _strips(searchvid.scene_from_dict(table, name="t.toml"))[1:-1]:
        names = [f.name for f in text.fields]
        assert "work" not in names
        assert "step" in names
        assert counted in names
