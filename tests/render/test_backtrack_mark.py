"""A step back looks different from a step down: on a BACKTRACK frame the cells the step
undid are outlined in the "undone" colour, for that frame only, and the legend says so."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from render_fakes import tileset

from searchvid import SceneError, load_scene, scene_from_dict
from searchvid.domains.tictactoe.art import TILE_NAMES
from searchvid.render.atlas import TileAtlas
from searchvid.render.canvas import FrameBuffer, PixelFormat
from searchvid.render.indexstrip import Canvas
from searchvid.render.job import RenderJob
from searchvid.render.palette import UNDONE
from searchvid.render.pipeline import drawn_frames, frame_painter, render_frame
from searchvid.render.treepanel import TreePanel
from searchvid.render.yuv import rgb_to_yuv420
from searchvid.scene import Scene
from searchvid.search.events import EventKind

Frames = list[npt.NDArray[np.uint8]]
EMPTY = TILE_NAMES.index("empty")


def frames(scene: Scene, jobs: Sequence[RenderJob]) -> Frames:
    """Every frame of the render, drawn incrementally (the canvas's own redraw)."""
    return [f.copy() for _, f in drawn_frames(scene.sources(), list(jobs), lambda _i: True)]


def kinds(scene: Scene) -> list[EventKind]:
    """The kind of each frame's event."""
    return [e.kind for e in scene.events(framed=False) if e.kind.shows_state]


def has_undone(pixels: npt.NDArray[np.uint8]) -> bool:
    return bool((pixels == np.array(UNDONE, dtype=np.uint8)).all(axis=-1).any())


@pytest.fixture(scope="module")
def tree() -> Scene:
    """The seed's tree searched depth first (15 frames)."""
    return load_scene(Path(__file__).resolve().parent.parent / "golden" / "seed-tree.toml")


@pytest.fixture(scope="module")
def marked(tree: Scene) -> Frames:
    return frames(tree, tree.render_jobs())


@pytest.fixture(scope="module")
def plain(tree: Scene) -> Frames:
    """The same frames with the mark switched off (its legend entry too)."""
    jobs = [dataclasses.replace(j, backtracks=False) for j in tree.render_jobs()]
    return frames(tree, jobs)


def board_of(tree: Scene, frame: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    rows, cols = tree.view().shape
    tile = tree.video.tile_size
    return frame[: rows * tile, : cols * tile]


def expected_outline(
    plain_before: npt.NDArray[np.uint8],
    plain_now: npt.NDArray[np.uint8],
    tile: int,
    width: int,
    within: set[tuple[int, int]] | None = None,
) -> npt.NDArray[np.uint8]:
    """``plain_now`` with the outline drawn by hand: around the cells whose pixels differ
    from ``plain_before`` (the node the step left), ``width`` px inside each such cell along
    every edge it shares with an unchanged cell or the board's edge; only the cells
    ``within`` where given (the move undone's, from the view's ``move_cells``)."""
    rows, cols = plain_now.shape[0] // tile, plain_now.shape[1] // tile
    changed = {
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if (within is None or (r, c) in within)
        and not np.array_equal(
            plain_before[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile],
            plain_now[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile],
        )
    }
    assert changed, "a step back that changes no cell tests nothing"
    out = plain_now.copy()
    for r, c in changed:
        y, x = r * tile, c * tile
        if (r - 1, c) not in changed:
            out[y : y + width, x : x + tile] = UNDONE
        if (r + 1, c) not in changed:
            out[y + tile - width : y + tile, x : x + tile] = UNDONE
        if (r, c - 1) not in changed:
            out[y : y + tile, x : x + width] = UNDONE
        if (r, c + 1) not in changed:
            out[y : y + tile, x + tile - width : x + tile] = UNDONE
    return out


def test_a_backtrack_frame_outlines_exactly_the_cells_it_undid(
    tree: Scene, marked: Frames, plain: Frames
) -> None:
    shown = kinds(tree)
    assert len(shown) == len(marked) == 15
    backs = [i for i, k in enumerate(shown) if k is EventKind.BACKTRACK]
    assert backs == [3, 6, 8, 9, 12, 13, 14]
    tile = tree.video.tile_size
    assert tile == 64  # outlines 2 px wide
    events = [e for e in tree.events(framed=False) if e.kind.shows_state]
    view = tree.view()
    for i in backs[:-1]:  # the last is the closing card's, which marks nothing undone
        # the tree's steps are one level each: only the box of the child left is undone,
        # not the box returned to (now current) nor the edge between them
        left, back = events[i - 1].node, events[i].node
        assert left.tree in back.tree.children
        within = set(view.move_cells(back, left))
        want = expected_outline(
            board_of(tree, plain[i - 1]), board_of(tree, plain[i]), tile, 2, within
        )
        assert np.array_equal(board_of(tree, marked[i]), want), f"frame {i}"


def test_the_next_frame_has_no_trace_and_enter_frames_have_none(
    tree: Scene, marked: Frames, plain: Frames
) -> None:
    shown = kinds(tree)
    for i, kind in enumerate(shown):
        board = board_of(tree, marked[i])
        if kind is EventKind.BACKTRACK and i < len(shown) - 1:
            assert has_undone(board), f"frame {i}"
            continue
        assert not has_undone(board), f"frame {i} ({kind.value})"
        assert np.array_equal(board, board_of(tree, plain[i])), f"frame {i}"
    assert shown[3] is EventKind.BACKTRACK
    assert shown[4] is EventKind.ENTER
    # the closing card (a step back to the root) states the result: no undone mark on it,
    # and its board is the unmarked one, pixel for pixel
    assert shown[-1] is EventKind.BACKTRACK
    assert has_undone(board_of(tree, marked[-2]))


def test_each_frame_equals_a_fresh_drawing_of_it(tree: Scene, marked: Frames) -> None:
    # the incremental redraw clears last frame's outline exactly: a preview, which draws
    # only its own frame on a blank canvas, is pixel-identical
    for i in (3, 4, 8, 9, 10, 14):
        alone = render_frame(tree.sources(), tree.render_jobs(), i, title=tree.title)
        assert np.array_equal(alone, marked[i]), f"frame {i}"


def test_the_legend_names_the_mark_only_when_the_scene_backtracks(tree: Scene) -> None:
    def words(scene: Scene) -> list[str]:
        painter = frame_painter(scene.sources(), scene.render_jobs())
        return [w for legend in painter.legends for line in legend.lines for w in line]

    def palette_has_undone(scene: Scene) -> bool:
        painter = frame_painter(scene.sources(), scene.render_jobs())
        return bool((painter.palette == np.array(UNDONE, dtype=np.uint8)).all(axis=1).any())

    assert words(tree)[-1] == "undone"
    assert palette_has_undone(tree)
    for name in ("tictactoe-minimax", "railroad-backtracking"):
        assert "undone" in words(load_scene(name)), name
    for name in ("watersort-bfs", "railroad-random"):
        scene = load_scene(name)
        assert "undone" not in words(scene), name
        assert not palette_has_undone(scene), name


def test_the_legend_swatch_is_an_outlined_square(tree: Scene) -> None:
    painter = frame_painter(tree.sources(), tree.render_jobs())
    (legend,) = painter.legends
    pixels = legend.pixels
    assert has_undone(pixels)
    rows, cols = np.nonzero((pixels == np.array(UNDONE, dtype=np.uint8)).all(axis=-1))
    side = legend.swatch
    assert rows.max() - rows.min() + 1 == side
    assert cols.max() - cols.min() + 1 == side
    centre = pixels[rows.min() + side // 2, cols.min() + side // 2]
    assert tuple(centre) != UNDONE  # hollow: an outline, not a fill


def test_the_outline_is_the_same_in_every_pixel_format(tree: Scene) -> None:
    # PAL8 (GIF) and RGB24 (PNG folder) frames of a backtrack frame hold the same picture
    painter = frame_painter(tree.sources(), tree.render_jobs())
    rgb = render_frame(tree.sources(), tree.render_jobs(), 3, title=tree.title).copy()
    corner = (int(rgb[0, 0, 0]), int(rgb[0, 0, 1]), int(rgb[0, 0, 2]))
    buffer = FrameBuffer(
        rgb.shape[1], rgb.shape[0], PixelFormat.PAL8, palette=painter.palette, background=corner
    )
    buffer.paint_rgb(0, 0, rgb)  # refuses any colour the GIF palette does not hold
    assert np.array_equal(buffer.rgb(), rgb)


# -- the tree panel ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minimax_tree() -> Scene:
    return load_scene("tictactoe-minimax-tree")


def undone_mask(frame: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    return (frame == np.array(UNDONE, dtype=np.uint8)).all(axis=-1)


def test_the_panel_rings_the_node_a_step_back_left(minimax_tree: Scene) -> None:
    scene = minimax_tree
    shown = kinds(scene)
    wanted = range(12)
    drawn = {
        i: f.copy()
        for i, f in drawn_frames(scene.sources(), scene.render_jobs(), lambda i: i in wanted)
    }
    assert shown[:12].count(EventKind.BACKTRACK) >= 3
    rows, cols = scene.view().shape
    tile = scene.video.tile_size
    # the legends hold the mark's swatches: look above the first swatch's row
    baseline = undone_mask(drawn[0])
    legend_rows = int(np.nonzero(baseline.any(axis=1))[0].min())
    assert legend_rows > rows * tile  # the board has none on the first frame: swatches only
    for i in wanted:
        marks = undone_mask(drawn[i][:legend_rows])
        panel = marks[:, cols * tile :]
        board = marks[: rows * tile, : cols * tile]
        if shown[i] is not EventKind.BACKTRACK:
            assert not marks.any(), f"frame {i} ({shown[i].value})"
            continue
        assert board.any(), f"frame {i}"
        ys, xs = np.nonzero(panel)
        assert ys.size, f"frame {i}: no ring in the panel"
        # one node's ring: a small square-ish box, not a spread of pixels
        height, width = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
        assert height == width, f"frame {i}"
        assert height < panel.shape[0] // 8, f"frame {i}"
        assert not panel[(ys.min() + ys.max()) // 2, (xs.min() + xs.max()) // 2]  # a ring


def test_the_panel_frames_equal_fresh_drawings(minimax_tree: Scene) -> None:
    scene = minimax_tree
    shown = kinds(scene)
    back = shown.index(EventKind.BACKTRACK)
    picks = {back, back + 1}
    drawn = {
        i: f.copy()
        for i, f in drawn_frames(scene.sources(), scene.render_jobs(), lambda i: i in picks)
    }
    for i in sorted(picks):
        alone = render_frame(scene.sources(), scene.render_jobs(), i, title=scene.title)
        assert np.array_equal(alone, drawn[i]), f"frame {i}"


def test_the_panel_legend_names_the_ring_only_when_the_search_backtracks(
    minimax_tree: Scene,
) -> None:
    def panel_legend(scene: Scene) -> tuple[str, ...]:
        painter = frame_painter(scene.sources(), scene.render_jobs())
        (panel,) = painter.panels
        assert isinstance(panel, TreePanel)
        return panel.legend

    assert panel_legend(minimax_tree)[:2] == ("current", "undone")
    assert "undone" not in panel_legend(load_scene("tictactoe-mcts-tree"))


def test_a_preview_counted_from_the_end_marks_a_step_back_too() -> None:
    # a view that keeps no history lets a frame counted from the end be drawn from a stream
    # read once: a step back there is marked as in the whole render
    scene = scene_from_dict(
        {
            "title": "t",
            "domain": {"name": "tictactoe", "position": "XOX/OXO/..."},
            "search": {"algorithm": "backtracking"},
            "video": {"tile_size": 60},
        },
        name="t",
    )
    assert not hasattr(scene.view(), "observe")
    drawn = frames(scene, scene.render_jobs())
    assert kinds(scene)[-2] is EventKind.BACKTRACK
    rows, cols = scene.view().shape
    board = drawn[-2][: rows * 60, : cols * 60]
    assert has_undone(board)
    assert np.array_equal(np.asarray(scene.preview(-2).convert("RGB")), drawn[-2])
    # read once from an iterator (no replay): the same frame
    (job,) = scene.render_jobs()
    once = render_frame(scene.sources()[0](), job, -2)
    assert np.array_equal(once, drawn[-2])


# -- the canvas: a mark lasts one frame, in every pixel format ------------------------------

MARK_TILES = 5
MARK_ATLAS = TileAtlas(tileset(MARK_TILES, noise=True), 6, extra_colors=(UNDONE,))


def drawn_fresh(
    shape: tuple[int, int], grid: npt.NDArray[np.int16], cells: list[int], fmt: PixelFormat
) -> npt.NDArray[np.uint8]:
    """A new canvas showing ``grid`` with ``cells`` outlined: what a preview draws."""
    canvas = Canvas(MARK_ATLAS, shape, fmt)
    canvas.update(grid)
    canvas.outline(cells, UNDONE, width=2)
    return canvas.frame


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_marks_last_one_frame_and_the_redraw_equals_a_fresh_canvas(data: st.DataObject) -> None:
    rows, cols = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 5))
    cells = rows * cols
    ids = st.integers(0, MARK_TILES - 1)
    canvases = {fmt: Canvas(MARK_ATLAS, (rows, cols), fmt) for fmt in PixelFormat}
    for _ in range(data.draw(st.integers(1, 10))):
        grid = np.array(
            data.draw(st.lists(ids, min_size=cells, max_size=cells)), dtype=np.int16
        ).reshape(rows, cols)
        marked = data.draw(st.lists(st.integers(0, cells - 1), max_size=cells, unique=True))
        for fmt, canvas in canvases.items():
            canvas.update(grid)
            canvas.outline(marked, UNDONE, width=2)
            assert np.array_equal(canvas.frame, drawn_fresh((rows, cols), grid, marked, fmt))
        rgb = canvases[PixelFormat.RGB24].frame
        assert has_undone(rgb) == bool(marked)
        assert np.array_equal(MARK_ATLAS.palette[canvases[PixelFormat.PAL8].frame], rgb)
        y, u, v = rgb_to_yuv420(rgb)
        yuv = np.concatenate([y.ravel(), u.ravel(), v.ravel()])
        assert np.array_equal(canvases[PixelFormat.YUV420P].frame, yuv)


def test_undo_mark_false_leaves_the_mark_and_its_legend_out() -> None:
    table = {
        "title": "t",
        "domain": {"name": "tree", "root": "Root", "children": {"A": {"B": {}}, "C": {}}},
        "search": {"algorithm": "backtracking"},
        "video": {"tile_size": 64, "undo_mark": False, "tree": True},
    }
    scene = scene_from_dict(table, name="t")
    assert not any(j.backtracks for j in scene.render_jobs())
    painter = frame_painter(scene.sources(), scene.render_jobs())
    assert "undone" not in [w for g in painter.legends for line in g.lines for w in line]
    (panel,) = painter.panels
    assert isinstance(panel, TreePanel)
    assert "undone" not in panel.legend
    assert EventKind.BACKTRACK in kinds(scene)
    for _, frame in drawn_frames(scene.sources(), scene.render_jobs(), lambda _i: True):
        assert not has_undone(frame)
    with pytest.raises(SceneError, match="undo_mark"):
        scene_from_dict({**table, "video": {"undo_mark": "yes"}}, name="t")


# -- the mark outlines what the step undid, never the frame's last move --------------------


def cells_with_undone(board: npt.NDArray[np.uint8], shape: tuple[int, int], tile: int) -> set[int]:
    """Flat indices of the cells holding any pixel of the "undone" colour."""
    rows, cols = shape
    return {
        r * cols + c
        for r in range(rows)
        for c in range(cols)
        if has_undone(board[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile])
    }


def test_a_step_back_to_a_last_move_outlines_only_the_cells_it_emptied() -> None:
    # Minimax returns from a child (its own move highlighted as "last move", or a winning
    # line) to the node whose last move is highlighted in turn: the cells whose tile
    # changed only by a highlight are not undone, only the emptied one is (issue 20 item 6)
    scene = scene_from_dict(
        {
            "title": "t",
            "domain": {"name": "tictactoe", "position": "XOX/.O./OX."},
            "search": {"algorithm": "minimax"},
            "video": {"tile_size": 40},
        },
        name="t",
    )
    view, tile = scene.view(), 40
    shown = [e for e in scene.events(framed=False) if e.kind.shows_state]
    drawn = frames(scene, scene.render_jobs())
    assert len(drawn) == len(shown)
    checked = lines = 0
    for k, event in enumerate(shown):
        if event.kind is not EventKind.BACKTRACK or event.node.last < 0:
            continue
        # the node left: the state shown just before; undone: the cells it had a mark on
        # that the node returned to has empty (not the cells whose highlight changed)
        left, now = view.grid(shown[k - 1].node).ravel(), view.grid(event.node).ravel()
        emptied = {int(c) for c in np.flatnonzero((now == EMPTY) & (left != EMPTY))}
        assert len(emptied) == 1  # one move undone at a time here
        assert event.node.last in np.flatnonzero(left != now)  # its highlight moved
        board = drawn[k][: 3 * tile, : 3 * tile]
        assert cells_with_undone(board, (3, 3), tile) == emptied
        lines += int(np.count_nonzero(left != now) > 2)  # a winning line's highlight gone
        checked += 1
    assert checked >= 2
    assert lines >= 1
