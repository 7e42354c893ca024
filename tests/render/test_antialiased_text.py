"""Every text of a frame is anti-aliased, on a few exact colours: the tree panel (legend,
header, names, counts), the tree view's node labels and GridView labels.

Text is FreeType's coverage rounded to ``LEVELS`` steps; a pixel of level ``k`` takes colour
``ramp(ink, beneath)[k]``. So each text colour on each background adds ``LEVELS - 1``
blends, which the panel declares in its colour table and the atlas holds in its palette.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import searchvid
import searchvid.render.atlas as atlas_module
from searchvid.domains.tree.rules import Tree, TreeNode
from searchvid.domains.tree.view import BACKGROUND as PAPER
from searchvid.domains.tree.view import (
    BORDER,
    BOX,
    FILL,
    FOUND,
    HIGHLIGHT,
    LINE,
    TEXT,
    NodeState,
    TreeView,
)
from searchvid.render.pipeline import frame_painter
from searchvid.render.textink import LEVELS, TextInk, blend, font, ramp
from searchvid.render.treelegend import LegendEntry, TreeLegend
from searchvid.render.treemarks import (
    BACKGROUND,
    BG,
    DISK,
    INK_BLENDS,
    PATH,
    PATH_I,
    PRUNED,
    PRUNED_I,
    TEXT_I,
    ink_ramp,
    paint_ink,
    panel_colors,
)
from searchvid.render.treemarks import TEXT as PANEL_TEXT
from searchvid.render.treepanel import TreePanel
from searchvid.resources import builtin_scenes_dir
from searchvid.search.events import Event, EventKind

RGB = tuple[int, int, int]
SCENES = sorted(path.stem for path in builtin_scenes_dir().glob("*.toml"))


def colours_in(pixels: np.ndarray) -> set[RGB]:
    flat = np.unique(pixels.reshape(-1, 3), axis=0)
    return {(int(r), int(g), int(b)) for r, g, b in flat}


def blends(ink: RGB, background: RGB) -> set[RGB]:
    """The colours strictly between ``background`` and ``ink`` on their ramp."""
    return set(ramp(ink, background)[1:LEVELS])


# -- the rules -----------------------------------------------------------------------------


def test_blend_gives_each_level_the_ramp_of_the_colour_beneath() -> None:
    pixels = np.zeros((2, LEVELS + 1, 3), dtype=np.uint8)
    pixels[0] = (240, 240, 240)
    pixels[1] = (10, 60, 200)
    level = np.tile(np.arange(LEVELS + 1, dtype=np.uint8), (2, 1))
    blend(pixels, level, (20, 20, 20))
    for row, beneath in enumerate(((240, 240, 240), (10, 60, 200))):
        expected = ramp((20, 20, 20), beneath)
        assert [tuple(int(c) for c in p) for p in pixels[row]] == list(expected)
    assert tuple(pixels[0, 0]) == (240, 240, 240)  # level 0 keeps its colour


def test_paint_ink_sets_level_k_to_shade_k_and_leaves_level_0_alone() -> None:
    rgb = np.array(panel_colors(False), dtype=np.uint8)
    shades = rgb[ink_ramp(TEXT_I)]
    pixels = np.full((4, 8, 3), 7, dtype=np.uint8)
    ink = np.array([[0, 1, 2, 3, 4, 5, 0, 5]], dtype=np.uint8)
    paint_ink(pixels, 1, -1, ink, shades)  # one column off the left edge: clipped
    text_ramp = ramp(PANEL_TEXT, BACKGROUND)
    expected = np.full((4, 8, 3), 7, dtype=np.uint8)
    for column, k in enumerate(ink[0, 1:].tolist()):  # ink column c lands on column c - 1
        if k:
            expected[1, column] = text_ramp[k]
    assert np.array_equal(pixels, expected)  # level 0 and the rows around keep their 7


@pytest.mark.parametrize("two_players", [False, True])
def test_each_text_colour_has_its_ramp_on_the_background_in_the_panel_table(
    two_players: bool,
) -> None:
    table = panel_colors(two_players)
    assert len(set(table)) == len(table)
    for index, colour in ((TEXT_I, PANEL_TEXT), (PATH_I, PATH), (PRUNED_I, PRUNED)):
        shades = ink_ramp(index)
        assert shades[0] == BG
        assert shades[-1] == index
        assert tuple(table[i] for i in shades) == ramp(colour, BACKGROUND)
    assert set(INK_BLENDS) <= set(table)


def test_legend_words_are_the_ink_levels_mapped_through_the_text_ramp() -> None:
    text = TextInk(14)
    rgb = np.array(panel_colors(False), dtype=np.uint8)
    legend = TreeLegend(text, 400, ends=("0", "1"), rgb=rgb)
    pixels = np.empty((legend.line_height + 2, 400, 3), dtype=np.uint8)
    pixels[:] = rgb[BG]
    legend.draw(
        pixels, (0, 0), [LegendEntry("current", "current")], node_shape=DISK, thumbnails=False
    )
    ink = text.ink("current")
    top = 2 + (legend.line_height - ink.shape[0]) // 2
    left = legend.swatch + 4  # after the swatch of the current node
    words = pixels[top : top + ink.shape[0], left : left + ink.shape[1]]
    assert np.array_equal(words, rgb[ink_ramp(TEXT_I)][ink])
    assert set(np.unique(ink).tolist()) == set(range(LEVELS + 1))  # blended edges
    assert (pixels[:, left + ink.shape[1] :] == rgb[BG]).all()  # nothing after the words


# -- the tree panel ------------------------------------------------------------------------


def ev(kind: EventKind, nid: int, parent: int | None, value: float | None = None) -> Event:
    return Event(kind, f"n{nid}", 0, 0, value=value, id=nid, parent=parent)


MINIMAX = [
    ev(EventKind.ENTER, 0, None),
    ev(EventKind.LEAF, 1, 0, 1.0),
    ev(EventKind.BACKTRACK, 0, None, 1.0),
    ev(EventKind.ENTER, 2, 0),
    ev(EventKind.LEAF, 3, 2, 0.0),
    ev(EventKind.BACKTRACK, 2, 0, 0.0),
    ev(EventKind.PRUNE, 2, 0, 2.0),
    ev(EventKind.BACKTRACK, 0, None, 1.0),
]


def random_tree(seed: int, nodes: int) -> list[Event]:
    rng = random.Random(seed)
    events = [ev(EventKind.ENTER, 0, None)]
    for nid in range(1, nodes):
        events.append(ev(EventKind.ENTER, nid, rng.randrange(nid)))
    return events


@pytest.mark.parametrize(
    ("events", "label"),
    [(MINIMAX, True), (MINIMAX, False), (random_tree(3, 400), False)],
)
def test_every_pixel_of_a_panel_is_a_declared_colour_and_text_is_blended(
    events: list[Event], label: bool
) -> None:
    panel = TreePanel(
        400,
        320,
        events_for_layout=iter(events),
        label=(lambda node: f"node {node}") if label else None,
    )
    for event in events:
        panel.observe(event)
        panel.draw()
    drawn = colours_in(panel.pixels)
    assert drawn <= set(panel.colors)
    assert blends(PANEL_TEXT, BACKGROUND) <= drawn  # the legend's words at least
    if events is MINIMAX:
        assert blends(PRUNED, BACKGROUND) & drawn  # the pruned count
        assert (not label) or blends(PATH, BACKGROUND) & drawn  # the current node's name


# -- the tree view's labels ----------------------------------------------------------------


def tree_view() -> TreeView:
    tree = Tree("Root", (Tree("Monte Carlo Tree Search"), Tree("Beam")))
    view = TreeView(tree)
    view.grid(TreeNode(tree))
    return view


def tree_view_palette() -> set[RGB]:
    fills = set(FILL.values())
    text = {TEXT} | {c for fill in fills for c in blends(TEXT, fill)}
    return {PAPER, LINE, HIGHLIGHT, BORDER, FOUND} | fills | text


@pytest.mark.parametrize("size", [48, 64, 100])
def test_tree_view_tiles_hold_only_flat_colours_and_the_labels_blends(size: int) -> None:
    view = tree_view()
    draw = view.tileset.draw
    assert draw is not None
    allowed = tree_view_palette()
    for name in view.tileset.names:
        assert colours_in(np.asarray(draw(name, size))) <= allowed, name


@pytest.mark.parametrize("state", list(NodeState))
def test_a_label_is_blended_over_its_box_fill(state: NodeState) -> None:
    view = tree_view()
    draw = view.tileset.draw
    assert draw is not None
    size = 64
    parts = [np.asarray(draw(f"node-0-{state.name.lower()}-{part}", size)) for part in range(BOX)]
    box = np.concatenate(parts, axis=1)
    drawn = colours_in(box)
    assert blends(TEXT, FILL[state]) <= drawn  # every intermediate level shows
    assert TEXT in drawn


def test_label_size_is_the_size_the_labels_are_set_in() -> None:
    """One line ("Root") set at ``label_size`` is as tall as that font's ink of "Root"."""
    tree = Tree("Root", (Tree("a"),))
    view = TreeView(tree)
    draw = view.tileset.draw
    assert draw is not None
    size = 64
    box = np.concatenate(
        [np.asarray(draw(f"node-0-unvisited-{part}", size)) for part in range(BOX)], axis=1
    )
    fill = FILL[NodeState.UNVISITED]
    text = np.zeros(box.shape[:2], dtype=bool)
    for colour in ramp(TEXT, fill)[1:]:
        text |= (box == np.array(colour, dtype=np.uint8)).all(axis=2)
    rows = np.flatnonzero(text.any(axis=1))
    _, top, _, bottom = font(view.label_size(size)).getbbox("Root")
    assert abs((rows[-1] - rows[0] + 1) - (bottom - top)) <= 1
    assert view.label_size(size) >= 12


@pytest.mark.parametrize("size", [48, 64, 100])
def test_labels_that_fit_keep_a_pixel_clear_of_the_box_border(size: int) -> None:
    """An "l" rises above an "H": the label's own ink, not the font's cap height, must
    stay inside the box (its text is blended over the fill alone, never the border)."""
    view = tree_view()
    draw = view.tileset.draw
    assert draw is not None
    for i in range(3):
        parts = [np.asarray(draw(f"node-{i}-visited-{part}", size)) for part in range(BOX)]
        box = np.concatenate(parts, axis=1)
        on_border = blends(TEXT, BORDER) - blends(TEXT, FILL[NodeState.VISITED])
        assert not colours_in(box) & on_border, (i, size)
        fill = (box == np.array(FILL[NodeState.VISITED], dtype=np.uint8)).all(axis=2)
        text = np.zeros(box.shape[:2], dtype=bool)
        for colour in ramp(TEXT, FILL[NodeState.VISITED])[1:]:
            text |= (box == np.array(colour, dtype=np.uint8)).all(axis=2)
        inside = np.flatnonzero(fill.any(axis=1))  # the fill's rows, inside the border
        rows = np.flatnonzero(text.any(axis=1))
        assert rows.size
        assert inside[0] + 1 <= rows[0] <= rows[-1] <= inside[-1] - 1, (i, size)


# -- whole frames --------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCENES)
def test_no_shipped_scene_needs_its_tiles_quantised(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiles, panels, strip and legends together hold at most 256 colours, so no atlas is
    reduced (which would change the text's exact blends)."""

    def refuse(*args: object) -> None:
        raise AssertionError(f"{name}: the atlas was quantised")

    monkeypatch.setattr(atlas_module, "_quantize", refuse)
    scene = searchvid.load_scene(name)
    painter = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    assert len(painter.palette) <= atlas_module.MAX_COLORS


@pytest.mark.parametrize(
    ("name", "frame"), [("tree-backtracking", 6), ("tictactoe-minimax-tree", 40)]
)
def test_a_frame_holds_only_its_palette_and_its_text_is_blended(name: str, frame: int) -> None:
    scene = searchvid.load_scene(name)
    pixels = np.asarray(scene.preview(frame))
    painter = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    palette = {(int(r), int(g), int(b)) for r, g, b in painter.palette}
    drawn = colours_in(pixels)
    assert drawn <= palette
    if scene.video.tree:  # the panel's words
        assert blends(PANEL_TEXT, BACKGROUND) <= drawn
    else:  # the node labels on visited boxes
        assert blends(TEXT, FILL[NodeState.VISITED]) <= drawn
