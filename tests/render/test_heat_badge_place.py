"""The heat map's counts never hide the piece they count, and the move just played keeps its
own colours (issue 20, item 6: quarto-mcts's closing board, where the winning piece was
tinted over and its centre covered by the count)."""

from __future__ import annotations

import numpy as np
import pytest

from searchvid.domains.quarto.art import TILE_NAMES
from searchvid.render.frame import FramePainter
from searchvid.render.heatcell import (
    BADGE,
    CORNER,
    PV,
    SLIVER,
    badge_edge,
    badge_place,
    cell_ground,
    outline_width,
)
from searchvid.render.heatmap import CellHeat, HeatLayer
from searchvid.render.job import track
from searchvid.scene import scene_from_dict
from searchvid.search.events import EventKind
from tests.render.test_heatmap import TILE, board, first_decision, painter, ttt_scene


def badge_box(cell: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) of the pixels of a cell in the badge's colour."""
    ys, xs = np.nonzero((cell == np.array(BADGE)).all(axis=-1))
    return int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1


def quarto_layer(tile: int) -> HeatLayer:
    scene = scene_from_dict(
        {
            "title": "heat",
            "seed": 4,
            "domain": {"name": "quarto"},
            "search": {"algorithm": "mcts", "mode": "plan", "iterations": 20},
            "video": {"tile_size": tile, "opening": 0, "closing": 0},
        }
    )
    layer = FramePainter([track(scene.render_job(), None)], scene.video).heats[0]
    assert layer is not None
    return layer


def art_of(tile: np.ndarray) -> np.ndarray:
    """The tile's own drawing: pixels off the colour of its edges."""
    return (tile != np.array(cell_ground(tile))).any(axis=-1)


def test_the_ground_is_the_colour_of_the_cells_edges_not_of_a_piece_filling_it() -> None:
    tile = np.zeros((100, 100, 3), dtype=np.uint8)
    tile[:] = (200, 190, 170)
    tile[10:90, 10:90] = (60, 40, 30)  # a piece covering 64 % of the cell
    assert cell_ground(tile) == (200, 190, 170)


def test_a_badge_stands_in_the_centre_of_an_empty_cell_else_where_the_piece_leaves_room() -> None:
    art = np.zeros((100, 100), dtype=bool)
    assert badge_place(art, 24, 40, 6) == (38, 30)  # an empty cell: centred
    art[30:70, 30:70] = True  # a piece in the middle: the first free corner
    assert badge_place(art, 24, 40, 6) == (6, 6)
    art[:40, :40] = True  # the top left taken too: the top right
    assert badge_place(art, 24, 40, 6) == (6, 54)
    art[:] = True  # nothing free anywhere: the centre, as before
    assert badge_place(art, 24, 40, 6) == (38, 30)


@pytest.mark.parametrize("tile", [100, 80])  # 80: the cells of a 720-px frame
def test_a_large_quarto_piece_keeps_its_colours_and_its_centre_under_a_count(tile: int) -> None:
    """A count stands in a corner of a large piece of the pool; on the piece just placed
    (quarto-mcts's closing frame: the winning piece) it would hide a part of it: none."""
    layer = quarto_layer(tile)
    assert layer._atlas is not None
    tiles = layer._atlas.tiles
    # the tile with the most drawing: a large piece (at 40 px, a 720-px frame's cells)
    k = max(range(len(tiles)), key=lambda t: int(art_of(tiles[t]).sum()))
    original = tiles[k]
    art = art_of(original)
    assert art.sum() > tile * tile // 3
    # the piece just placed, its count written beside it (its move's other cell): outlined,
    # whole, no count on it
    picture = layer._picture(k, CellHeat(1319, 4, True, counted=False))
    band = outline_width(tile)
    assert (picture[:band] == np.array(PV)).all()
    inside = (slice(band, tile - band), slice(band, tile - band))
    assert np.array_equal(picture[inside], original[inside])
    for best in (False, True):
        picture = layer._picture(k, CellHeat(1319, 4, best))
        if best:  # the outline along the edges
            art = art & ~(picture == np.array(PV)).all(axis=-1)
        top, bottom, left, right = badge_box(picture)
        badge = np.zeros(art.shape, dtype=bool)
        badge[top:bottom, left:right] = True
        under = badge.copy()
        # the piece itself is never tinted: every pixel of it away from the badge (and
        # the outline) is as the board draws it
        kept = art & ~under
        assert np.array_equal(picture[kept], original[kept])
        middle = tile // 2
        assert not badge[middle - 2 : middle + 2, middle - 2 : middle + 2].any()  # its centre
        assert (art & badge).sum() < art.sum() // 5  # a corner of it at most
        edge = badge_edge(tile)
        assert min(top, left) >= edge
        assert max(bottom, right) <= tile - edge  # the count is never cut


def test_the_played_cell_shows_its_tile_outlined_with_the_count_off_the_mark() -> None:
    scene = ttt_scene()
    events = list(first_decision(scene))
    move = events[-1]
    assert move.kind is EventKind.MOVE
    hot, plain = painter(scene), painter(ttt_scene(heatmap="off"))
    for event in events:
        hot.observe(0, event)
        plain.observe(0, event)
    hot.draw(0, move, None)
    plain.draw(0, move, None)
    heated, bare = board(hot), board(plain)
    r, c = divmod(move.node.last, 3)
    cell = (slice(r * TILE, (r + 1) * TILE), slice(c * TILE, (c + 1) * TILE))
    shown, tile = heated[cell], bare[cell]
    top, bottom, left, right = badge_box(shown)
    band = outline_width(TILE)
    assert (shown[:band] == np.array(PV)).all()
    inner = np.ones((TILE, TILE), dtype=bool)
    inner[:band] = inner[-band:] = False
    inner[:, :band] = inner[:, -band:] = False
    inner[top:bottom, left:right] = False
    assert np.array_equal(shown[inner], tile[inner])  # untinted: the O as the board has it
    # beside the O: at most a sliver of its ring, never its middle (it was centred on it)
    art = art_of(tile)
    assert art[top:bottom, left:right].sum() * 20 < art.sum()
    assert not top <= TILE // 2 < bottom
    assert (top, right) == (
        badge_edge(TILE),
        TILE - badge_edge(TILE),
    )  # the last-move mark is top left


@pytest.mark.parametrize("tile", [100, 80])
def test_the_move_played_writes_its_count_beside_a_piece_it_would_hide(tile: int) -> None:
    layer = quarto_layer(tile)
    assert layer._atlas is not None
    tiles = layer._atlas.tiles
    big = max(range(len(tiles)), key=lambda t: int(art_of(tiles[t]).sum()))  # fills its cell
    empty = TILE_NAMES.index("reserve")  # the pool slot the next piece was taken from
    grid = np.full((4, 9), empty, dtype=np.int16)
    grid[0, 0] = big
    heat = {0: CellHeat(1319, 4, True), 5: CellHeat(1319, 4, True), 3: CellHeat(7, 1, False)}
    shown = layer._count_where_free(heat, grid)
    # the piece placed stays whole; its pool slot carries the count; other cells unchanged
    assert shown == {**heat, 0: CellHeat(1319, 4, True, counted=False)}
    whole = layer._picture(big, shown[0])
    assert not (whole == np.array(BADGE)).all(axis=-1).any()
    assert (layer._picture(empty, shown[5]) == np.array(BADGE)).all(axis=-1).any()
    # a move of one cell (a closing frame's winning placement) on a piece filling it: a
    # count anywhere hides more than a corner of it, so none (the strip has it)
    alone = {0: CellHeat(1319, 4, True)}
    assert layer._count_where_free(alone, grid) == {0: CellHeat(1319, 4, True, counted=False)}
    # on a small piece: the count stays, beside it
    small = min(
        (t for t in range(len(tiles)) if art_of(tiles[t]).any()),
        key=lambda t: int(art_of(tiles[t]).sum()),
    )
    grid[0, 0] = small
    assert layer._count_where_free(alone, grid) == alone
    assert (layer._picture(small, alone[0]) == np.array(BADGE)).all(axis=-1).any()
    assert (SLIVER, CORNER) == (0.03, 0.12)


@pytest.mark.parametrize("tile", [100, 80])
def test_a_road_just_placed_keeps_its_count_in_a_corner(tile: int) -> None:
    scene = scene_from_dict(
        {
            "seed": 1,
            "domain": {"name": "railroad"},
            "search": {"algorithm": "mcts", "mode": "plan", "iterations": 5},
            "video": {"tile_size": tile, "opening": 0, "closing": 0},
        }
    )
    layer = FramePainter([track(scene.render_job(), None)], scene.video).heats[0]
    assert layer is not None
    assert layer._atlas is not None
    tiles = layer._atlas.tiles
    drawn = [t for t in range(len(tiles)) if art_of(tiles[t]).any()]
    grid = np.zeros(scene.view().shape, dtype=np.int16)
    kept = 0
    for t in drawn:  # every tile: a 3-digit count on the tile of a move just played
        grid[1, 1] = t
        k = 1 * grid.shape[1] + 1
        kept += layer._count_where_free({k: CellHeat(610, 4, True)}, grid)[k].counted
    assert kept == len(drawn)
