"""A heat map of the MCTS root's children on the board itself, as Go engines show.

While a Monte Carlo tree search thinks about a move (from the first ``SELECT`` of an
iteration from the root to the ``MOVE`` that commits a move), each child of the root tints
the board cells its move occupies, more strongly the closer its visits come to the most
visited move's, and writes its visit count there on a badge (text at least 12 px tall, so cells
of about 24 px or more, as a 720-px frame still has; a count too wide for its cell
shrinks to ``1.2k``). A cell several moves occupy (a tile in four rotations) shows its most
visited move's count and tint, not their sum: MCTS plays the most visited single move, so
the cell of the move played always shows the highest count, and the strip's "most visited
move 29 visits" is the count of one cell. The badge stands where
it covers the least of the tile's own drawing: centred on an empty cell, in a free corner or
side of a cell holding a piece, so that a count never hides what it counts. The move just
played (outlined, below) writes its count on each of its cells where it covers at most a
sliver of the drawing; where one of its cells has no such room and another has (Quarto's
piece placed, and the pool slot it took the next piece from), the count stands only on the
other. With no such room anywhere, the count stays where it covers at most a corner of the
drawing (a road's tile), and is left off a piece filling its cell (a closing frame's winning
piece stays whole; the strip's "most visited move" gives the count).

**The decision just made.** The ``MOVE`` frame that commits a move shows the whole
decision: every move's visits as the search left them, on the board after the move, and
the move played outlined in the sky blue of the tree panel's principal variation (the
legend: "the move played") and left untinted: the piece just placed (on a closing board,
the winning one) keeps its own colours. Only the played move is outlined, on that frame alone: while
the search still thinks no move is played, and the most visited move so far is often one
of a tie. With ``frames = "moves"`` every frame that plays a move has heat; a roll of the
dice (``ROLL``) decides nothing and has none. Everything is read from the events
(``EXPAND``, ``SELECT``, ``BACKUP``, ``MOVE``), so it works for any domain.

**Only over the decision's position, or one move from it.** The counts are of the root's
moves, so they are drawn only on frames whose board shows the root's position (the grids
are equal), or the root's position with one of its moves made: the ``MOVE`` frame's
position after the played move, and a frame of an iteration stepping onto a child of the
root (its ``SELECT`` or ``EXPAND``): the other moves' cells are as they were, the move's own
cell holds its tile, and every count is still of a move from the root. While the search
thinks, most frames are of the root or of its children, so the map stays on from frame to
frame. A frame about a deeper node (or a playout's end) shows that node's board as it is,
without heat: there a count would sit on a cell another move fills, and the strip describes
that node. Where the frame's board is framed as not the position decided (in a game played
move by move, a searched position's frame, and a playout's end: :mod:`searchvid.render.playout`),
it has no heat either, a child of the root included: a reader takes heat for the position
shown, and the move's own count would stand on the tile it placed.

**Which cells a move occupies.** By default, the cells whose tile id differs between the
root's grid and the child's. A view may say better with a ``move_cells(node, child)``
method returning the ``(row, col)`` cells (empty: this move has no board position), or
opt out with ``move_cells = None`` (no heat map and no legend entry for its boards). A
cell that several moves occupy shows the most visited of them.

**Exact pixels.** A heated cell is a pure function of its tile and of its heat (level,
count, outline), painted over the board after the board's own incremental redraw, so a
frame is the same whether the board was redrawn in part or in full. The tint blends only
the tile's ground (the most common colour along its edges, not a large piece's) toward
:data:`TINT`, so the GIF palette needs
only a few colours per ground (:meth:`HeatLayer.extra_colors`); the count is set on a
badge in the status strip's colours.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.errors import UserCodeError
from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.boardlegend import Mark
from searchvid.render.canvas import Pixels, TileBoard
from searchvid.render.heatcell import (
    CORNER,
    PV,
    SLIVER,
    as_rgb,
    badge_edge,
    cell_ground,
    draw_badge,
    draw_outline,
    least_words,
    outline_width,
    short_count,
    tinted,
)
from searchvid.render.settings import VideoOptions
from searchvid.render.textink import MIN_TEXT, TextInk
from searchvid.render.view import TileGrid
from searchvid.search.events import Event, EventKind
from searchvid.usercode import method_location, shown

MoveCells = Callable[[Any, Any], Iterable[tuple[int, int]]]
"""A view's ``move_cells(node, child)``: the ``(row, col)`` cells of the board the move from
``node`` to its child ``child`` occupies (empty: the move has no board position)."""

LEVELS = 4
"""Steps of tint: a cell whose count is ``n > 0`` of the highest count ``top`` on the board
gets level ``ceil(LEVELS * n / top)``, blended ``0.2 * level`` of the way toward
:data:`TINT` (the most visited moves' cells the darkest, whatever the number of moves)."""

HEAT_MARK = Mark("searchvid:heat", "visits of the cell's most visited move")
"""The legend's entry for the tint (a swatch at the top level); a cell several moves
occupy shows the most visited of them."""

PV_MARK = Mark("searchvid:heat-pv", "the move played")
"""The legend's entry for the outline, drawn on the frame that commits a move."""

MARKS = (HEAT_MARK, PV_MARK)
"""The legend entries a heat map adds, when it is on."""


def heat_marks(video: VideoOptions, heat: bool) -> tuple[Mark, ...]:
    """The legend entries of a heat map on boards that may show one (``heat``) under
    ``video``: none when ``heatmap`` is off, or when the frames are only the leaves or the
    improvements (no frame then shows the root's position or commits a move, the only
    frames with heat)."""
    if not heat or video.heatmap == "off" or video.frames in ("leaves", "improvements"):
        return ()
    return MARKS


def heat_possible(view: Any) -> bool:
    """Whether ``view``'s moves have board positions (it does not set ``move_cells = None``)."""
    return getattr(view, "move_cells", True) is not None


@dataclass(frozen=True)
class CellHeat:
    """What one heated cell shows.

    Attributes:
        visits: Visits of the most visited move occupying the cell.
        level: Tint level, 1 to :data:`LEVELS`.
        best: Whether the move just played occupies it (outlined, on the frame that
            commits it).
        counted: Whether its count is written on it: not on a cell of the move played whose
            piece a count would partly hide while another of the move's cells has room
            for it (Quarto's pool slot beside the piece placed).
    """

    visits: int
    level: int
    best: bool
    counted: bool = True


class HeatTracker:
    """The root's children and their visits, from the events.

    Args:
        cells: The flat cell indices (row * cols + col) a move from the root ``node`` to
            ``child`` occupies.
    """

    def __init__(self, cells: Callable[[Any, Any], tuple[int, ...]]) -> None:
        self._cells_of = cells
        self._parent: dict[int, int | None] = {}
        self._kids: dict[int, list[tuple[int, Any]]] = {}
        self._visits: dict[int, int] = {}
        self._root: int | None = None
        self._root_node: Any = None
        self._thinking = False
        self._cells: dict[int, tuple[int, ...]] = {}
        self._decided: dict[int, CellHeat] = {}
        self._focus: int | None = None

    @property
    def root_node(self) -> Any:
        """The node of the root the counts are of (None before the first event)."""
        return self._root_node

    @property
    def stepping_in(self) -> bool:
        """Whether the latest event steps onto a child of the root (its ``SELECT`` or
        ``EXPAND``): a frame of it shows the root's position with that one move made."""
        return self._focus is not None and self._root is not None

    @property
    def thinking(self) -> bool:
        """Whether the search is thinking about a move from the root."""
        return self._thinking

    def observe(self, event: Event) -> None:
        """Take one event of the stream (every event, in order)."""
        self._focus = None  # a playout's LEAF (no id) shows a deeper board too
        i = event.id
        if i is None:
            return
        kind = event.kind
        if i not in self._parent:
            self._parent[i] = event.parent
            if event.parent is not None:
                self._kids.setdefault(event.parent, []).append((i, event.node))
        self._decided = {}
        played = kind is EventKind.MOVE or kind is EventKind.ROLL
        if kind is EventKind.MOVE and self._root is not None:
            self._decided = self._counts(played=i)
        if played or (self._root is None and event.parent is None):
            self._reroot(i, event.node)
        elif kind is EventKind.SELECT:  # an iteration from the root: thinking
            self._thinking = True
        elif kind is EventKind.BACKUP:
            self._backup(i)
        if (kind is EventKind.SELECT or kind is EventKind.EXPAND) and (
            self._root is not None and event.parent == self._root
        ):
            self._focus = i

    def _reroot(self, i: int, node: Any) -> None:
        self._root, self._root_node = i, node
        self._thinking = False
        self._cells.clear()

    def _backup(self, i: int) -> None:
        """One visit for ``i`` and each ancestor up to the root (as MCTS counts)."""
        visits, parent, root = self._visits, self._parent, self._root
        g: int | None = i
        while g is not None:
            visits[g] = visits.get(g, 0) + 1
            if g == root:
                break
            g = parent.get(g)

    def heat(self) -> dict[int, CellHeat]:
        """Each heated cell (flat index) and what it shows: on the frame of a ``MOVE``, the
        decision it ends, the played move outlined; while thinking, the visits so far;
        else empty."""
        if self._decided:
            return self._decided
        if not self._thinking or self._root is None:
            return {}
        return self._counts(played=None)

    def _counts(self, played: int | None) -> dict[int, CellHeat]:
        """The most visits of a root's child on each cell, the child ``played`` outlined."""
        counts: dict[int, int] = {}
        marked: set[int] = set()
        for i, node in self._kids.get(self._root, ()) if self._root is not None else ():
            n = self._visits.get(i, 0)
            if not n:
                continue
            cells = self._cells.get(i)
            if cells is None:
                cells = self._cells[i] = self._cells_of(self._root_node, node)
            for cell in cells:
                counts[cell] = max(counts.get(cell, 0), n)
            if i == played:
                marked.update(cells)
        top = max(counts.values(), default=1)
        return {
            cell: CellHeat(n, max(1, math.ceil(LEVELS * n / top)), cell in marked)
            for cell, n in counts.items()
        }


class HeatLayer:
    """One board's heat map: its tracker, and the heated cells painted over the board.

    Args:
        view: The board's view (its grids, and its ``move_cells`` hook if it has one).
    """

    def __init__(self, view: Any) -> None:
        self._view = view
        self._hook: MoveCells | None = getattr(view, "move_cells", None)
        self._cols = int(view.shape[1])
        self._rows = int(view.shape[0])
        self._root_grid: tuple[Any, TileGrid] | None = None
        self.tracker = HeatTracker(self._move_cells)
        self._shown: dict[int, CellHeat] = {}
        self._pictures: dict[tuple[int, CellHeat], Pixels] = {}
        self._atlas: TileAtlas | None = None
        self._grounds: npt.NDArray[np.uint8] | None = None
        self._text: TextInk | None = None

    # -- cells ----------------------------------------------------------------------------

    def _move_cells(self, node: Any, child: Any) -> tuple[int, ...]:
        if self._hook is not None:
            return self._hooked(node, child)
        changed = np.flatnonzero(np.asarray(self._view.grid(child)) != self._root_view(node))
        return tuple(int(k) for k in changed)

    def _root_view(self, root: Any) -> TileGrid:
        """The grid of the root ``root`` (kept while it stays the root)."""
        cached = self._root_grid
        if cached is None or cached[0] is not root:
            cached = self._root_grid = (root, self._view.grid(root))
        return cached[1]

    def _hooked(self, node: Any, child: Any) -> tuple[int, ...]:
        assert self._hook is not None
        answer = self._hook(node, child)
        try:
            pairs = [(r, c) for r, c in answer]
        except (TypeError, ValueError):
            pairs = []
            answer_ok = False
        else:
            answer_ok = all(
                isinstance(r, int | np.integer)
                and isinstance(c, int | np.integer)
                and 0 <= r < self._rows
                and 0 <= c < self._cols
                for r, c in pairs
            )
        if not answer_ok:
            raise UserCodeError(
                str(method_location(getattr(self._view, "_view", self._view), "move_cells")),
                f"returned {shown(answer)}; it must be (row, col) cells of the "
                f"{self._rows} x {self._cols} board",
            )
        return tuple(sorted({int(r) * self._cols + int(c) for r, c in pairs}))

    # -- colours --------------------------------------------------------------------------

    @staticmethod
    def extra_colors(tiles: Pixels) -> list[RGB]:
        """The colours heated cells and the legend's swatches may add to tiles ``tiles``
        (``(n, s, s, 3)``): each tile's ground at every level, and the outline."""
        colors: list[RGB] = [PV]
        for ground in {cell_ground(tile) for tile in tiles}:
            colors.extend(tinted(ground, level) for level in range(1, LEVELS + 1))
        return colors

    def bind(self, atlas: TileAtlas) -> None:
        """Draw with ``atlas``'s tiles (call once the frame's atlas is built)."""
        self._atlas = atlas
        self._grounds = np.array([cell_ground(t) for t in atlas.tiles], dtype=np.uint8)
        size = max(MIN_TEXT, atlas.size // 5)
        text = TextInk(size)
        # the badge may fill most of a cell: while the search thinks, the board shows the
        # root's position, where a move's cell holds what the move replaces (mostly empty)
        fits = text.height >= MIN_TEXT and text.height + 4 <= atlas.size - 2 * badge_edge(
            atlas.size
        )
        self._text = text if fits else None

    @property
    def text_height(self) -> int | None:
        """The ink height of the counts (None: cells too small, no counts drawn)."""
        return self._text.height if self._text is not None else None

    def swatch(self, name: str) -> Pixels | None:
        """The legend's picture of mark ``name`` (None: not a heat mark)."""
        if name not in (HEAT_MARK.tile, PV_MARK.tile):
            return None
        assert self._atlas is not None, "bind() first"
        assert self._grounds is not None
        # the first tile with the most common ground: an empty cell on most boards
        if name != PV_MARK.tile:
            return self._tinted_tile(0, LEVELS)
        picture = self._tinted_tile(0, 0)  # level 0: as the cell is drawn, untinted
        draw_outline(picture, max(2, picture.shape[0] // 8 & ~1))
        return picture

    # -- drawing --------------------------------------------------------------------------

    def paint(
        self, board: TileBoard, before: TileGrid | None, redrawn: int, *, off: bool = False
    ) -> None:
        """Paint the heat over ``board`` after its ``update`` (``before``: its grid before,
        ``redrawn``: what ``update`` returned), restoring cells that lost their heat.

        Only a board that shows the root's position, or a child of the root the frame's
        event steps onto, gets heat: the counts are of the root's moves, and on a deeper
        board they would sit on cells other moves fill. ``off``: the frame marks its board
        as not the position decided (a searched position's or a playout's frame), so it
        gets none either, even one move from the root."""
        grid = board.grid
        if grid is None:
            return
        heat = self.tracker.heat()
        if heat and (off or not self._over_root(grid)):
            heat = {}
        flat = grid.ravel()
        # cells the board drew again from its grid (None: it may have drawn any of them;
        # other marks' cells are re-blitted too, so the grid's changes alone do not say)
        fresh: set[int] | None = set() if redrawn == 0 and before is not None else None
        heat = self._count_where_free(heat, grid)
        for k in set(self._shown) | set(heat):
            wanted = heat.get(k)
            if wanted == self._shown.get(k) and fresh is not None:
                continue
            tile = int(flat[k])
            if wanted is None:  # the cell lost its heat: its tile, as the board draws it
                self._blit(board, k, board.atlas.tiles[tile])
            else:
                self._blit(board, k, self._picture(tile, wanted))
        self._shown = heat

    def _count_where_free(self, heat: dict[int, CellHeat], grid: TileGrid) -> dict[int, CellHeat]:
        """``heat``, the move played's count left off those of its cells whose piece it
        would partly hide, where another of its cells has room for it (the piece just
        placed stays whole, the count stands beside it); with no such room, the count stays
        where it hides at most :data:`CORNER` of the drawing (a road's tile) and is left
        off a piece it would hide more of (a closing frame's winning piece: the strip's
        "most visited move" says it)."""
        played = [k for k, h in heat.items() if h.best]
        if not played or self._text is None or self._atlas is None:
            return heat
        assert self._grounds is not None
        flat = grid.ravel()
        covers: dict[int, float] = {}
        for k in played:
            tile = int(flat[k])
            words = self._count_words(heat[k].visits)
            if words is None:
                continue
            art = (self._atlas.tiles[tile] != self._grounds[tile]).any(axis=-1)
            covers[k] = least_words(self._text, words, heat[k].visits, art)[1]
        # room for it somewhere: only there; else where it hides no more than a corner
        room = SLIVER if any(c <= SLIVER for c in covers.values()) else CORNER
        hidden = [k for k, c in covers.items() if c > room]
        if not hidden:
            return heat
        shown = dict(heat)
        for k in hidden:
            shown[k] = replace(heat[k], counted=False)
        return shown

    def _over_root(self, grid: TileGrid) -> bool:
        """Whether ``grid`` is the root's, or the frame's event steps onto a child of the
        root (the board shows the root's position with that one move made: its tile, and
        what the tile changes around it, such as a neighbour's open end)."""
        if self.tracker.stepping_in:
            return True
        return bool(np.array_equal(grid, self._root_view(self.tracker.root_node)))

    def _blit(self, board: TileBoard, k: int, picture: Pixels) -> None:
        s = board.atlas.size
        r, c = divmod(k, self._cols)
        board.buffer.paint_rgb(board.top + r * s, board.left + c * s, picture)

    def _picture(self, tile: int, heat: CellHeat) -> Pixels:
        key = (tile, heat)
        picture = self._pictures.get(key)
        if picture is None:
            if heat.best:  # the piece just placed in its own colours, only outlined
                picture = self._tinted_tile(tile, 0)
                draw_outline(picture, outline_width(picture.shape[0]))
            else:
                picture = self._tinted_tile(tile, heat.level)
            words = self._count_words(heat.visits)
            if words is not None:
                assert self._text is not None
                assert self._atlas is not None
                assert self._grounds is not None
                # the tile's own drawing (a piece, a road): a badge must not hide it
                art = (self._atlas.tiles[tile] != self._grounds[tile]).any(axis=-1)
                if heat.best and heat.counted:
                    words = least_words(self._text, words, heat.visits, art)[0]
                if words is not None and heat.counted:
                    draw_badge(picture, self._text, words, art)
            if len(self._pictures) > 4096:
                self._pictures.clear()
            self._pictures[key] = picture
        return picture

    def _count_words(self, visits: int) -> str | None:
        """The count as the badge writes it: ``224``, else as short as ``1.2k`` or ``12k``
        when the digits do not fit the cell (None: no count fits, the tint alone shows)."""
        text, atlas = self._text, self._atlas
        if text is None or atlas is None:
            return None
        room = atlas.size - 2 * badge_edge(atlas.size) - 8
        for words in (f"{visits:,}", short_count(visits)):
            if text.ink(words).shape[1] <= room:
                return words
        return None

    def _tinted_tile(self, tile: int, level: int) -> Pixels:
        assert self._atlas is not None, "bind() first"
        assert self._grounds is not None
        picture: Pixels = self._atlas.tiles[tile].copy()
        if level == 0:  # untinted: the tile as the board draws it
            return picture
        ground = self._grounds[tile]
        where = (picture == ground).all(axis=-1)
        picture[where] = self._snap(tinted(as_rgb(ground), level))
        return picture

    def _snap(self, color: RGB) -> RGB:
        """``color`` itself, or the nearest palette colour when the atlas had to quantise
        (every format then still shows the same pixels)."""
        assert self._atlas is not None
        palette = self._atlas.palette.astype(np.int32)
        k = int(((palette - np.array(color, dtype=np.int32)) ** 2).sum(axis=1).argmin())
        return as_rgb(self._atlas.palette[k])
