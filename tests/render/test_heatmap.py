"""The MCTS heat map: the root's moves tinted on the board by their share of its visits."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from searchvid.cli import main
from searchvid.errors import UserCodeError
from searchvid.render.canvas import PixelFormat
from searchvid.render.frame import FramePainter
from searchvid.render.heatcell import ALPHA, BADGE, PV, TINT
from searchvid.render.heatmap import LEVELS, CellHeat, HeatLayer, heat_possible
from searchvid.render.job import track
from searchvid.render.playout import SEARCHED_COLOR
from searchvid.render.textink import MIN_TEXT, TextInk
from searchvid.render.view import TileSet
from searchvid.scene import Scene, scene_from_dict
from searchvid.search.events import Event, EventKind
from tests.render.painters import painter_at

TILE = 100


def ttt_scene(**video: Any) -> Scene:
    """Tic-tac-toe from a midgame position with four empty cells, MCTS playing both sides."""
    return scene_from_dict(
        {
            "title": "heat",
            "seed": 0,
            "domain": {"name": "tictactoe", "position": "XOX/.O./.X."},
            "search": {"algorithm": "mcts", "mode": "plan", "iterations": 40},
            "video": {"tile_size": TILE, "opening": 0, "closing": 0, **video},
        }
    )


def painter(scene: Scene, fmt: PixelFormat = PixelFormat.RGB24) -> FramePainter:
    paint = FramePainter([track(scene.render_job(), None)], scene.video)
    paint.open(fmt)
    return paint


def board(paint: FramePainter) -> np.ndarray:
    """The board's pixels (3 x 3 tiles at the top left) as RGB."""
    assert paint.buffer is not None
    return np.asarray(paint.buffer.rgb())[: 3 * TILE, : 3 * TILE].copy()


def first_decision(scene: Scene) -> Iterator[Event]:
    """The events up to and including the first MOVE after the root's."""
    moves = 0
    for event in scene.events():
        yield event
        if event.kind is EventKind.MOVE:
            moves += 1
            if moves == 2:
                return


def root_child_visits(events: list[Event]) -> dict[int, tuple[Any, int]]:
    """Per child of the root (tree node 0): its node and how many BACKUPs came through it."""
    parent: dict[int, int | None] = {}
    kids: dict[int, Any] = {}
    visits: dict[int, int] = {}
    for e in events:
        if e.id is None:
            continue
        parent.setdefault(e.id, e.parent)
        if e.parent == 0 and e.id not in kids:
            kids[e.id] = e.node
        if e.kind is EventKind.BACKUP:
            i: int | None = e.id
            while i is not None and parent.get(i) not in (0, None):
                i = parent.get(i)
            if i is not None and i != 0:
                visits[i] = visits.get(i, 0) + 1
    return {k: (node, visits.get(k, 0)) for k, node in kids.items()}


def tinted(ground: tuple[int, int, int], level: int) -> tuple[int, ...]:
    return tuple(round(g + (t - g) * ALPHA * level) for g, t in zip(ground, TINT, strict=True))


def ground_of(tile: np.ndarray) -> tuple[int, int, int]:
    colors, counts = np.unique(tile.reshape(-1, 3), axis=0, return_counts=True)
    r, g, b = colors[int(counts.argmax())]
    return int(r), int(g), int(b)


def test_each_move_tints_its_cell_by_its_visits_against_the_most_visited_move() -> None:
    scene = ttt_scene()
    events = list(first_decision(scene))
    last_select = max(k for k, e in enumerate(events) if e.kind is EventKind.SELECT)
    seen = events[: last_select + 1]
    # a frame about the root's position (as the SELECT that starts an iteration there)
    probe = Event(EventKind.SELECT, seen[0].node, 0, seen[-1].step + 1, None, 0, None)
    hot, plain = painter(scene), painter(ttt_scene(heatmap="off"))
    for e in [*seen, probe]:
        hot.observe(0, e)
        plain.observe(0, e)
    hot.draw(0, probe, None)
    plain.draw(0, probe, None)
    heated, bare = board(hot), board(plain)
    children = root_child_visits(seen)
    total = sum(n for _, n in children.values())
    assert total > 0
    top = max(n for _, n in children.values())
    leaders = [k for k, (_, n) in children.items() if n == top]
    cells = set()
    for k, (node, n) in children.items():
        r, c = divmod(node.last, 3)
        cells.add((r, c))
        y, x = r * TILE + TILE - 12, c * TILE + TILE // 2  # the tile's ground, below any mark
        tile = bare[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE]
        ground = ground_of(tile)
        assert tuple(bare[y, x]) == ground
        if n == 0:
            assert tuple(heated[y, x]) == ground
            continue
        level = max(1, math.ceil(LEVELS * n / top))
        assert tuple(heated[y, x]) == tinted(ground, level), (k, n, top)
        # while the search thinks no move is played: none is outlined, not even a leader
        corner = tuple(heated[r * TILE + 1, c * TILE + TILE // 2])
        assert corner != PV, (k, leaders)
    # no other cell changes
    for r in range(3):
        for c in range(3):
            if (r, c) not in cells:
                block = (slice(r * TILE, (r + 1) * TILE), slice(c * TILE, (c + 1) * TILE))
                assert np.array_equal(heated[block], bare[block])


def test_the_move_frame_shows_the_decision_then_it_clears_and_incremental_equals_full() -> None:
    scene = ttt_scene()
    events = list(first_decision(scene))
    after = next(e for k, e in enumerate(scene.events()) if k == len(events))
    step = painter(scene)  # draws every frame event: the incremental canvas at work
    pal = painter(scene, PixelFormat.PAL8)  # the GIF's palette-index canvas
    shown = [k for k, e in enumerate(events) if e.kind.shows_state]
    checked = set(shown[:: max(1, len(shown) // 6)]) | set(shown[-3:])
    for k, e in enumerate(events):
        step.observe(0, e)
        pal.observe(0, e)
        if not e.kind.shows_state:
            continue
        step.draw(0, e, None)
        pal.draw(0, e, None)
        assert np.array_equal(board(pal), board(step)), (k, e.kind)
        if k not in checked:
            continue
        fresh = painter(scene)  # the same frame drawn from scratch after the same events
        for before in events[: k + 1]:
            fresh.observe(0, before)
        fresh.draw(0, e, None)
        assert np.array_equal(board(step), board(fresh)), (k, e.kind)
    move = events[-1]
    assert move.kind is EventKind.MOVE
    plain = painter(ttt_scene(heatmap="off"))
    for e in events:
        plain.observe(0, e)
    plain.draw(0, move, None)
    # the MOVE's frame: the decision's visits on the board after the move, every move with
    # a visit tinted by its share, and the move played (only it) outlined
    heated, bare = board(step), board(plain)
    children = root_child_visits(events[:-1])
    top = max(n for _, n in children.values())
    played = divmod(move.node.last, 3)
    for node, n in children.values():
        r, c = divmod(node.last, 3)
        y, x = r * TILE + TILE - 12, c * TILE + TILE // 2
        ground = ground_of(bare[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE])
        level = max(1, math.ceil(LEVELS * n / top))
        if (r, c) != played:  # the played cell's tile is drawn over its ground here
            assert tuple(heated[y, x]) == (tinted(ground, level) if n else ground)
        corner = tuple(heated[r * TILE + 1, c * TILE + TILE // 2])
        assert (corner == PV) is ((r, c) == played)
    # the next frame (the search thinks about the reply; no visits yet): no heat at all
    step.observe(0, after)
    plain.observe(0, after)
    step.draw(0, after, None)
    plain.draw(0, after, None)
    assert np.array_equal(board(step), board(plain))
    assert not np.isin(board(step).reshape(-1, 3).tolist(), [list(PV)]).all(axis=1).any()


class TinyView:
    """Two rows of three cells; a node is its six tile ids."""

    tileset = TileSet(names=("a", "b", "c"), draw=lambda name, size: None)  # type: ignore[arg-type,return-value]
    shape = (2, 3)

    def grid(self, node: tuple[int, ...]) -> np.ndarray:
        return np.array(node, dtype=np.int16).reshape(2, 3)


def feed(layer: HeatLayer, root: Any, kids: list[Any], visits: list[int]) -> None:
    layer.tracker.observe(Event(EventKind.MOVE, root, 0, 0, None, 0, None))
    for k, kid in enumerate(kids, start=1):
        layer.tracker.observe(Event(EventKind.EXPAND, kid, 1, k, None, k, 0))
    layer.tracker.observe(Event(EventKind.SELECT, root, 0, 9, None, 0, None))
    for k, n in enumerate(visits, start=1):
        for _ in range(n):
            layer.tracker.observe(Event(EventKind.BACKUP, kids[k - 1], 1, 10, 1.0, k, 0))


def test_by_default_a_move_occupies_the_cells_whose_tile_changes() -> None:
    layer = HeatLayer(TinyView())
    root = (0, 0, 0, 0, 0, 0)
    feed(layer, root, [(1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 2, 2)], [3, 1])
    heat = layer.tracker.heat()
    assert {k: (h.visits, h.level, h.best) for k, h in heat.items()} == {
        0: (3, 4, False),  # the most visited: the darkest, ceil(4 * 3 / 3) = 4
        4: (1, 2, False),  # 1 of the top's 3: ceil(4 * 1 / 3) = 2
        5: (1, 2, False),
    }
    layer.tracker.observe(Event(EventKind.MOVE, (0, 0, 0, 0, 2, 2), 1, 20, 0.5, 2, 0))
    # the move's frame: the decision, the move played outlined (not the most visited)
    heat = layer.tracker.heat()
    assert {k: (h.visits, h.level, h.best) for k, h in heat.items()} == {
        0: (3, 4, False),
        4: (1, 2, True),
        5: (1, 2, True),
    }
    layer.tracker.observe(Event(EventKind.SELECT, (0, 0, 0, 0, 2, 2), 1, 21, None, 2, 0))
    assert layer.tracker.heat() == {}  # the next event: the heat clears


def test_a_cell_of_several_moves_shows_its_most_visited_move_not_their_sum() -> None:
    layer = HeatLayer(TinyView())
    root = (0, 0, 0, 0, 0, 0)
    # two moves on cell 0 (tiles 1 and 2 there: a tile in two rotations), one on cell 4
    kids = [(1, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0)]
    feed(layer, root, kids, [2, 2, 3])
    heat = layer.tracker.heat()
    # cell 0: 2, not 2 + 2 = 4, which would read as more than the most visited move's 3
    assert {k: (h.visits, h.level) for k, h in heat.items()} == {0: (2, 3), 4: (3, 4)}
    layer.tracker.observe(Event(EventKind.MOVE, kids[2], 1, 20, 0.5, 3, 0))
    heat = layer.tracker.heat()  # the move played: the highest count, on its own cell
    assert max(heat.values(), key=lambda h: h.visits) == heat[4]
    assert [k for k, h in heat.items() if h.best] == [4]


def test_a_frame_stepping_onto_a_move_of_the_root_keeps_the_heat_a_deeper_one_has_none() -> None:
    layer = HeatLayer(TinyView())
    root = (0, 0, 0, 0, 0, 0)
    kids = [(1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0)]
    feed(layer, root, kids, [2, 3])
    assert layer._over_root(TinyView().grid(root))
    assert not layer._over_root(TinyView().grid(kids[0]))  # a BACKUP's frame: not the root's
    layer.tracker.observe(Event(EventKind.SELECT, kids[0], 1, 30, None, 1, 0))
    assert layer.tracker.stepping_in
    assert layer._over_root(TinyView().grid(kids[0]))  # the root with that move made
    layer.tracker.observe(Event(EventKind.LEAF, (1, 2, 2, 2, 2, 2), 5, 31, 1.0, None, 1))
    assert not layer.tracker.stepping_in  # its playout's end: a deeper board, no heat
    layer.tracker.observe(Event(EventKind.SELECT, kids[0], 1, 32, None, 1, 0))
    layer.tracker.observe(Event(EventKind.EXPAND, (1, 0, 2, 0, 0, 0), 2, 31, None, 9, 1))
    assert not layer.tracker.stepping_in  # a grandchild: a deeper board, no heat
    assert not layer._over_root(TinyView().grid((1, 0, 2, 0, 0, 0)))


def test_on_a_tie_only_the_move_played_is_outlined_and_a_roll_has_no_heat() -> None:
    layer = HeatLayer(TinyView())
    root = (0, 0, 0, 0, 0, 0)
    kids = [(0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0)]
    feed(layer, root, kids, [1, 2, 2])
    assert not any(h.best for h in layer.tracker.heat().values())  # thinking: no outline
    layer.tracker.observe(Event(EventKind.MOVE, kids[2], 1, 20, 0.5, 3, 0))
    heat = layer.tracker.heat()
    assert {k: (h.visits, h.best) for k, h in heat.items()} == {
        5: (1, False),
        0: (2, False),  # as many visits as the move played, which alone is outlined
        2: (2, True),
    }
    rolled = HeatLayer(TinyView())
    feed(rolled, root, kids, [1, 2, 2])
    rolled.tracker.observe(Event(EventKind.ROLL, kids[0], 1, 20, None, 1, 0))
    assert rolled.tracker.heat() == {}  # a roll of the dice decides nothing


def test_a_view_says_which_cells_a_move_occupies_or_that_it_has_none() -> None:
    class Hooked(TinyView):
        def move_cells(self, node: Any, child: Any) -> list[tuple[int, int]]:
            return [(1, 2)]

    layer = HeatLayer(Hooked())
    feed(layer, (0,) * 6, [(1, 1, 1, 1, 1, 1)], [2])
    assert {k: h.visits for k, h in layer.tracker.heat().items()} == {5: 2}

    class Wrong(TinyView):
        def move_cells(self, node: Any, child: Any) -> list[tuple[int, int]]:
            return [(2, 0)]  # off the 2 x 3 board

    wrong = HeatLayer(Wrong())
    feed(wrong, (0,) * 6, [(1,) * 6], [1])
    with pytest.raises(UserCodeError, match=r"move_cells\(\).*\(2, 0\).*2 x 3 board"):
        wrong.tracker.heat()

    class NoBoard(TinyView):
        move_cells = None

    assert heat_possible(TinyView())
    assert not heat_possible(NoBoard())


def test_a_bad_heatmap_key_is_one_line_naming_file_key_and_values(tmp_path: Path) -> None:
    scene = tmp_path / "hot.toml"
    scene.write_text(
        'title = "t"\n[domain]\nname = "tictactoe"\n[search]\nalgorithm = "mcts"\n'
        '[video]\nheatmap = "hot"\n'
    )
    result = CliRunner().invoke(main, ["run", str(scene)])
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {scene}: video.heatmap: must be one of: visits, off; got 'hot'\n"
    )


@pytest.mark.parametrize(
    ("search", "video", "shown"),
    [
        ({"algorithm": "mcts", "iterations": 10}, {}, True),
        ({"algorithm": "mcts", "iterations": 10}, {"heatmap": "off"}, False),
        ({"algorithm": "mcts", "iterations": 10}, {"frames": "moves"}, True),
        ({"algorithm": "mcts", "iterations": 10}, {"frames": "leaves"}, False),
        ({"algorithm": "minimax"}, {}, False),
    ],
)
def test_the_legend_explains_the_heat_only_where_it_is_shown(
    search: dict[str, Any], video: dict[str, Any], shown: bool
) -> None:
    scene = scene_from_dict(
        {
            "domain": {"name": "tictactoe", "position": "XOX/.O./.X."},
            "search": {**search, "mode": "plan"} if search["algorithm"] == "mcts" else search,
            "video": video,
        }
    )
    paint = painter(scene)
    words = {w for line in paint.legends[0].lines for w in line}
    assert ("visits of the cell's most visited move" in words) is shown
    assert ("the move played" in words) is shown
    assert "last move" in words  # the view's own marks stay


def yellow(pixels: np.ndarray) -> bool:
    """Whether ``pixels`` hold the searched position's frame colour."""
    return bool((pixels == np.array(SEARCHED_COLOR)).all(axis=-1).any())


def test_heat_is_drawn_over_the_roots_position_never_on_a_searched_or_deeper_board() -> None:
    scene = ttt_scene()
    events = [*first_decision(scene)]
    root = events[0].node
    view = scene.view()
    # SELECTs at the root, inserted as the frames about the root's position while thinking
    probes = {
        k: Event(EventKind.SELECT, root, 0, e.step, None, 0, None)
        for k, e in enumerate(events)
        if e.kind is EventKind.BACKUP and k % 7 == 0
    }
    hot, plain = painter(scene), painter(ttt_scene(heatmap="off"))
    deeper = at_root = decided = stepping = 0
    for k, e in enumerate(events):
        shown = [e, probes[k]] if k in probes else [e]
        for f in shown:
            hot.observe(0, f)
            plain.observe(0, f)
            if not f.kind.shows_state:
                continue
            hot.draw(0, f, None)
            plain.draw(0, f, None)
            heat = hot.heats[0].tracker.heat()  # type: ignore[union-attr]
            same = np.array_equal(board(hot), board(plain))
            if f.kind is EventKind.MOVE and heat:
                decided += 1
                assert not same, f.step  # the move's frame: the decision it ends
            elif np.array_equal(view.grid(f.node), view.grid(root)) and heat:
                at_root += 1
                assert not same, f.step  # the root's board: heated
                assert not yellow(board(hot)), f.step  # and not framed as searched
            elif f.kind in (EventKind.SELECT, EventKind.EXPAND) and f.parent == 0 and heat:
                # the root's board with one of its moves made, which the frame marks as a
                # searched position (not played): the root's counts are not drawn over it,
                # where the move's own count would stand on the piece it placed
                stepping += 1
                assert yellow(board(hot)), f.step
                assert same, f.step
            else:
                deeper += f.depth > 0
                assert same, (f.step, f.kind)  # any other board: exactly as without heat
    assert at_root >= 3
    assert decided == 1
    assert stepping >= 3
    assert deeper > 10
    assert events[-1].kind is EventKind.MOVE


def badge_box(cell: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) of the pixels of a cell in the badge's colour."""
    ys, xs = np.nonzero((cell == np.array(BADGE)).all(axis=-1))
    return int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1


@pytest.mark.parametrize(("tile", "visits", "words"), [(40, 224, "224"), (40, 12_345, "12k")])
def test_counts_are_legible_in_the_small_cells_of_a_720_px_frame(
    tile: int, visits: int, words: str
) -> None:
    scene = ttt_scene(tile_size=tile)
    paint = FramePainter([track(scene.render_job(), None)], scene.video)
    layer = paint.heats[0]
    assert layer is not None
    assert layer.text_height is not None
    assert layer.text_height >= MIN_TEXT  # was None (no counts at all) below 50 px cells
    picture = layer._picture(0, CellHeat(visits, 2, True))
    top, bottom, left, right = badge_box(picture)
    edge = max(2, tile // 16 & ~1)
    assert tuple(picture[0, tile // 2]) == PV  # the outline of the most visited move
    assert min(left, top) >= edge
    assert max(right, bottom) <= tile - edge
    ink = TextInk(max(MIN_TEXT, tile // 5)).ink(words)
    assert (bottom - top, right - left) == (ink.shape[0] + 4, ink.shape[1] + 8)  # nothing cut


def test_a_count_too_wide_for_any_form_is_left_out_and_the_tint_remains() -> None:
    scene = ttt_scene(tile_size=24)
    paint = FramePainter([track(scene.render_job(), None)], scene.video)
    layer = paint.heats[0]
    assert layer is not None
    assert layer.text_height == TextInk(MIN_TEXT).height
    badge = np.array(BADGE)
    assert (layer._picture(0, CellHeat(7, 4, False)) == badge).all(axis=-1).any()
    wide = layer._picture(0, CellHeat(12_345, 4, False))  # "12k" needs more than 24 px
    assert not (wide == badge).all(axis=-1).any()
    assert tuple(wide[12, 12]) == tuple(layer._tinted_tile(0, 4)[12, 12])


HEAT_SCENES = ["railroad-mcts"]  # railroad-mcts-tree turns its heat off: its tree shows visits


@pytest.mark.parametrize("name", HEAT_SCENES)
def test_the_shipped_heat_maps_write_their_counts_at_720_px(name: str) -> None:
    _, paint = painter_at(name, 720)
    assert any(paint.heats)
    assert paint.text_heights["heat"] >= MIN_TEXT
