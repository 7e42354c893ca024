"""Every mark a board draws with a meaning is declared for the legend, carries a shape as
well as a colour, and a player's colour is the same on the board as in the tree panel."""

from __future__ import annotations

import numpy as np
import pytest

from searchvid.domains import domain_names, make_domain
from searchvid.domains.quarto import art as quarto_art
from searchvid.domains.tictactoe import art as tictactoe_art
from searchvid.domains.tree.rules import Tree
from searchvid.domains.tree.view import BORDER, FILL, NodeState, TreeView
from searchvid.render.atlas import RGB
from searchvid.render.boardlegend import marks_of
from searchvid.render.palette import PLAYER_COLORS
from searchvid.render.treemarks import DIVERGING

BUILTIN = [n for n in domain_names() if make_domain(n, {}).__module__.startswith("searchvid.")]


def pixels_of(image: object) -> np.ndarray:
    return np.asarray(image)[..., :3]


def where(tile: np.ndarray, color: RGB) -> np.ndarray:
    return (tile == np.array(color)).all(axis=-1)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_builtin_view_declares_its_marks(name: str) -> None:
    view = make_domain(name, {}).view()
    marks = marks_of(view)  # raises on a tile the view does not have
    assert marks, f"{name} draws marks with no legend"
    texts = [m.text for m in marks]
    assert len(set(texts)) == len(texts)


def test_the_players_colours_are_the_tree_panels() -> None:
    x = pixels_of(tictactoe_art.draw_tile("x"))
    o = pixels_of(tictactoe_art.draw_tile("o"))
    assert where(x, PLAYER_COLORS[0]).sum() > 100
    assert not where(x, PLAYER_COLORS[1]).any()
    assert where(o, PLAYER_COLORS[1]).sum() > 100
    # the panel's ends of a two-player value: player 1 wins at 0, player 0 at 1
    assert (DIVERGING[0], DIVERGING[-1]) == (PLAYER_COLORS[1], PLAYER_COLORS[0])
    for player in (0, 1):
        hand = pixels_of(quarto_art.draw_tile(f"hand{player}"))
        assert where(hand, PLAYER_COLORS[player]).sum() > 90 * 90


@pytest.mark.parametrize(
    ("draw", "plain", "highlighted", "ink"),
    [
        (tictactoe_art.draw_tile, "x", "x_last", tictactoe_art.PALETTE["grid"]),
        (tictactoe_art.draw_tile, "o", "o_win", tictactoe_art.PALETTE["grid"]),
        (tictactoe_art.draw_tile, "x", "x_win", tictactoe_art.PALETTE["grid"]),
        (quarto_art.draw_tile, "TDRH_board", "TDRH_last", quarto_art.PALETTE["line"]),
        (quarto_art.draw_tile, "SLQF_board", "SLQF_win", quarto_art.PALETTE["line"]),
    ],
)
def test_a_highlight_adds_a_shape_not_only_a_colour(
    draw: object, plain: str, highlighted: str, ink: RGB
) -> None:
    before = where(pixels_of(draw(plain)), ink)  # type: ignore[operator]
    after = where(pixels_of(draw(highlighted)), ink)  # type: ignore[operator]
    assert (after & ~before).sum() >= 64  # a folded corner or a frame, in the dark ink
    assert not (before & ~after).any()


def tree_box(state: NodeState, size: int = 64) -> np.ndarray:
    """Node ``a``'s box (three tiles) drawn in ``state``."""
    view = TreeView(Tree.from_mapping("root", {"a": {}, "b": {}}))
    draw = view.tileset.draw
    assert draw is not None
    parts = [draw(f"node-1-{state.name.lower()}-{part}", size) for part in range(3)]
    return np.concatenate([pixels_of(p) for p in parts], axis=1)


def test_tree_view_states_have_their_own_borders() -> None:
    size = 64  # box margins: 10 px above, 8 px beside; borders 2 px
    frontier = tree_box(NodeState.FRONTIER, size)
    top_border = frontier[10, 8 : 3 * size - 8]  # the box's top edge, left to right
    dashes = where(top_border, BORDER)
    assert dashes.any()
    assert not dashes.all()  # dashed: border and fill alternate
    assert where(top_border, FILL[NodeState.FRONTIER]).any()
    current = tree_box(NodeState.CURRENT, size)
    visited = tree_box(NodeState.VISITED, size)
    ring = (slice(6, 8), slice(size, 2 * size))  # just outside the box's top edge
    assert where(current[ring], BORDER).all()  # a second border around the current node
    assert not where(visited[ring], BORDER).any()


def test_tree_view_legend_tiles_show_each_state() -> None:
    view = TreeView(Tree.from_mapping("root", {"a": {}}))
    words = [m.text for m in view.marks]
    assert words == ["current", "on the path to it", "visited", "frontier", "not reached yet"]
    draw = view.tileset.draw
    assert draw is not None
    states = (
        NodeState.CURRENT,
        NodeState.STACK,
        NodeState.VISITED,
        NodeState.FRONTIER,
        NodeState.UNVISITED,
    )
    for mark, state in zip(view.marks, states, strict=True):
        tile = pixels_of(draw(mark.tile, 48))
        assert where(tile, FILL[state]).sum() > 100, mark
