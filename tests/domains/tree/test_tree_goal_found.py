"""A goal the search reached is marked found (issue 20 item 6): its box gets a blue frame
inside its border in every state a reached node takes (visited, on the path, current), the
flag stays, and the legend names the mark; a goal not reached yet shows only its flag."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import searchvid
from searchvid.domains.tree.view import FOUND, FOUND_KEY, GOAL_KEY, NodeState, TreeView
from searchvid.render.boardlegend import Mark
from searchvid.render.pipeline import render_frame
from searchvid.search.events import EventKind

TABLE = {
    "title": "goal",
    "domain": {
        "name": "tree",
        "root": "Root",
        "goal": "C",
        "children": {"A": {"A1": {}}, "B": {}, "C": {}},
    },
    "search": {"algorithm": "breadth-first"},
    "video": {"frames": "all", "tile_size": 32, "hold_last": 0},
}
SIZE = 32


def scene() -> searchvid.Scene:
    return searchvid.scene_from_dict(TABLE, name="goal")


def found_pixels(picture: npt.NDArray[np.uint8]) -> int:
    return int(np.all(picture == FOUND, axis=-1).sum())


def box(view: TreeView, label: str, state: NodeState) -> npt.NDArray[np.uint8]:
    """The first tile of ``label``'s box in ``state``, drawn by the view."""
    names = view.tileset.names
    index = next(
        int(name.split("-")[1])
        for name in names
        if name.startswith("node-")
        and name.endswith("-unvisited-0")
        and view._layout.labels[int(name.split("-")[1])] == label
    )
    draw = view.tileset.draw
    assert draw is not None
    name = f"node-{index}-{state.name.lower()}-0"
    return np.asarray(draw(name, SIZE).convert("RGB"))


def test_a_reached_goal_is_framed_in_every_reached_state_and_only_then() -> None:
    view = scene().view()
    assert isinstance(view, TreeView)
    for state in NodeState:
        reached = state in (NodeState.VISITED, NodeState.STACK, NodeState.CURRENT)
        assert (found_pixels(box(view, "C", state)) > 0) == reached, state
        assert found_pixels(box(view, "B", state)) == 0, state  # not a goal: never


def test_the_legend_names_the_found_mark_only_with_a_goal() -> None:
    view = scene().view()
    assert isinstance(view, TreeView)
    assert view.marks[-2:] == (
        Mark(GOAL_KEY, "goal (corner flag)"),
        Mark(FOUND_KEY, "goal found"),
    )
    draw = view.tileset.draw
    assert draw is not None
    swatch = np.asarray(draw(FOUND_KEY, SIZE).convert("RGB"))
    assert found_pixels(swatch) > 0
    assert found_pixels(np.asarray(draw(GOAL_KEY, SIZE).convert("RGB"))) == 0
    table = {**TABLE, "domain": {k: v for k, v in TABLE["domain"].items() if k != "goal"}}
    plain = searchvid.scene_from_dict(table, name="plain").view()
    assert all(mark.tile not in (GOAL_KEY, FOUND_KEY) for mark in plain.marks)


def test_the_frames_mark_the_goal_found_from_the_frame_that_reaches_it() -> None:
    s = scene()
    shown = [e for e in s.events(framed=False) if e.kind.shows_state]
    reached = next(k for k, e in enumerate(shown) if e.node.label == "C")
    assert shown[reached].kind is EventKind.LEAF
    assert reached < len(shown) - 1  # the solution is played out after it
    counts = [
        found_pixels(render_frame(s.sources(), s.render_jobs(), k, title=s.title))
        for k in range(len(shown))
    ]
    legend = counts[0]  # the legend's swatch alone
    assert legend > 0
    assert counts[:reached] == [legend] * reached
    assert all(count > legend for count in counts[reached:])
