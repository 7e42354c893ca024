"""The tree domain's view: the explicit tree drawn as a tree diagram.

Layout: one band of rows per depth (a row of node boxes, then a row of connectors down to
the next depth); leaves spread left to right in the order written, each parent centred over
its children. Every node is a labelled box ``BOX`` tiles wide; connectors are tiles with a
line on any of their four half-edges. A frame shows:

- the current node (an orange fill and a second, outer border) and the search stack, its
  ancestors (a light yellow fill), joined by highlighted edges twice as wide as the others;
- the nodes the search has visited so far, in the order of its events (:meth:`TreeView.observe`),
  whatever the algorithm: depth first, level by level, random walks, playouts (a light blue
  fill);
- frontier nodes, generated (``EXPAND``) but not visited yet (a dashed border), and
  unvisited ones (white).

Every state has a shape or line style besides its colour (Okabe-Ito tints), and the view
declares them as :attr:`TreeView.marks`, so the frame's legend explains them. Tiles are
drawn at run time with Pillow at the requested size from a handful of flat colours; labels
are set in the frame's font (:func:`~searchvid.render.textink.font`), anti-aliased on
:data:`~searchvid.render.textink.LEVELS` steps blended over the box's fill, so each state
adds only ``LEVELS - 1`` blends of the text colour and GIF palettes stay exact.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from searchvid.domains.tree.rules import Tree, TreeNode
from searchvid.errors import UsageError
from searchvid.render.boardlegend import Mark
from searchvid.render.palette import BLUE, ORANGE, VERMILLION
from searchvid.render.textink import blend, font, levels
from searchvid.render.view import TileGrid, TileSet
from searchvid.search.events import Event, EventKind

BOX = 3
"""Tiles per node box (odd, so a box has a centre tile for the edges)."""
GAP = 1
"""Empty tiles between the boxes of neighbouring leaves."""

# A connector tile's id is its code: base-3 digits (north, east, south, west) with
# 0 = no line, 1 = a plain line, 2 = a highlighted line. Code 0 is the blank tile.
_NORTH, _EAST, _SOUTH, _WEST = 27, 9, 3, 1
_EDGE_TILES = 81
_DIGITS = "012"

Colour = tuple[int, int, int]
BACKGROUND: Colour = (244, 243, 238)
LINE: Colour = (150, 150, 150)
HIGHLIGHT: Colour = VERMILLION
BORDER: Colour = (34, 34, 34)
TEXT: Colour = (20, 20, 20)


class NodeState(enum.IntEnum):
    """How a node box is shown."""

    UNVISITED = 0
    VISITED = 1
    STACK = 2
    CURRENT = 3
    FRONTIER = 4
    """Generated (an ``EXPAND`` event: on a frontier, added to a search tree), not visited."""


FILL: dict[NodeState, Colour] = {
    NodeState.UNVISITED: (255, 255, 255),
    NodeState.VISITED: (184, 214, 236),
    NodeState.STACK: (250, 238, 156),
    NodeState.CURRENT: ORANGE,
    NodeState.FRONTIER: (206, 236, 222),
}
"""Each state's fill: white, then tints of Okabe-Ito blue, yellow and bluish green, and
orange for the current node."""
_STATES = len(NodeState)
KEYS: tuple[tuple[NodeState, str], ...] = (
    (NodeState.CURRENT, "current"),
    (NodeState.STACK, "on the path to it"),
    (NodeState.VISITED, "visited"),
    (NodeState.FRONTIER, "frontier"),
    (NodeState.UNVISITED, "not reached yet"),
)
"""The legend's entries: one label-less box per state (tiles ``key-<state>``)."""
GOAL_KEY = "key-goal"
"""The legend's swatch of a goal node (drawn when the tree has a goal)."""
FOUND_KEY = "key-goal-found"
"""The legend's swatch of a goal the search reached: found (drawn when the tree has a goal)."""
FOUND: Colour = BLUE
"""The frame inside a reached goal's border: Okabe-Ito blue, unlike every state's fill."""
_REACHED = frozenset({NodeState.VISITED, NodeState.STACK, NodeState.CURRENT})
"""The states of a node a search has reached: a goal in one of them is found."""
MAX_NODES = (np.iinfo(np.int16).max + 1 - _EDGE_TILES - len(KEYS) - 2) // (_STATES * BOX)
"""The most nodes a tree may have for its tile ids to fit in int16."""


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where the pre-order node ``i`` sits: its depth, centre column, parent and children."""

    labels: tuple[str, ...]
    depth: tuple[int, ...]
    centre: tuple[int, ...]
    parent: tuple[int, ...]
    has_children: tuple[bool, ...]
    rows: int
    cols: int


def _layout(tree: Tree) -> tuple[_Layout, dict[int, int]]:
    """Lay out ``tree``; also return ``id(subtree) -> pre-order index``."""
    order: list[Tree] = []
    parent: list[int] = []
    depth: list[int] = []
    stack: list[tuple[Tree, int, int]] = [(tree, -1, 0)]
    while stack:  # explicit pre-order: deep trees must not recurse
        node, up, level = stack.pop()
        order.append(node)
        parent.append(up)
        depth.append(level)
        here = len(order) - 1
        stack.extend((child, here, level + 1) for child in reversed(node.children))
    index = {id(node): i for i, node in enumerate(order)}
    centre = [0] * len(order)
    leaf_slot = 0
    for i, node in enumerate(order):  # leaves in pre-order get consecutive slots
        if not node.children:
            centre[i] = leaf_slot * (BOX + GAP) + BOX // 2
            leaf_slot += 1
    for i in range(len(order) - 1, -1, -1):  # children come after their parent
        kids = order[i].children
        if kids:
            first, last = index[id(kids[0])], index[id(kids[-1])]
            centre[i] = (centre[first] + centre[last]) // 2
    layout = _Layout(
        labels=tuple(node.label for node in order),
        depth=tuple(depth),
        centre=tuple(centre),
        parent=tuple(parent),
        has_children=tuple(bool(node.children) for node in order),
        rows=2 * max(depth) + 1,
        cols=leaf_slot * (BOX + GAP) - GAP,
    )
    return layout, index


class TreeView:
    """Draws the nodes of one :class:`Tree` as a tree diagram, marking what the search visited.

    The view remembers history: the renderer feeds it every event of the stream, in order,
    through :meth:`observe`, and :meth:`grid` draws a node as of the events observed so far.
    A node counts as visited once an event has shown it (any kind whose
    :attr:`~searchvid.search.events.EventKind.shows_state` is true) or a node below it: a
    search only reaches a node through its ancestors, so an MCTS playout ending in a leaf
    marks the nodes it passed through. ``EXPAND`` marks a node as frontier (generated, not
    visited) until an event shows it.

    A caller that never calls :meth:`observe` (a loop of its own through
    :class:`~searchvid.render.writer.VideoWriter`) still fills the tree: each node passed
    to :meth:`grid` then counts as visited from that frame on. One view follows one search;
    :meth:`reset` forgets it.

    Args:
        tree: The tree whose nodes (:class:`TreeNode` over the same ``Tree`` objects) will be
            drawn.
        goal: The label of the goal nodes (None: none): their boxes carry a black corner
            flag, in every state, and the legend explains it.

    Raises:
        UsageError: The tree has more than :data:`MAX_NODES` nodes.
    """

    def __init__(self, tree: Tree, *, goal: str | None = None) -> None:
        layout, index = _layout(tree)
        count = len(layout.labels)
        if count > MAX_NODES:
            raise UsageError(
                f"domain.children: the tree has {count} nodes; the tree view draws at most "
                f"{MAX_NODES}"
            )
        self._tree = tree  # keeps the subtrees alive, so their ids stay valid keys
        self._layout = layout
        self._index = index
        edge_names = ["blank"] + [f"edge-{_code_name(code)}" for code in range(1, _EDGE_TILES)]
        node_names = [
            f"node-{i}-{state.name.lower()}-{part}"
            for i in range(count)
            for state in NodeState
            for part in range(BOX)
        ]
        key_names = [f"key-{state.name.lower()}" for state, _ in KEYS] + [GOAL_KEY, FOUND_KEY]
        self._goal = frozenset(i for i, label in enumerate(layout.labels) if label == goal)
        self._keys = _EDGE_TILES + count * _STATES * BOX  # the first key tile's id
        self._tileset = TileSet(names=tuple(edge_names + node_names + key_names), draw=self._draw)
        self._base, self._box_cells = self._base_grid()
        self._base_flat = self._base.reshape(-1)
        # The edge down to each node from its parent, in flat indices of its connector row:
        # the parent's end, the node's end, the leftmost cell and the length of the span.
        parent = np.array(layout.parent, dtype=np.intp)
        centre = np.array(layout.centre, dtype=np.intp)
        row = (2 * np.array(layout.depth, dtype=np.intp) - 1) * layout.cols
        top = np.where(parent >= 0, centre[parent], centre)
        self._edge_top = row + top
        self._edge_bottom = row + centre
        self._edge_left = row + np.minimum(top, centre)
        self._edge_span = np.abs(top - centre)
        self._marks = self._base.copy()
        """The base grid with the visited and frontier marks: what every frame starts from."""
        self._state = bytearray(count)  # NodeState of each node in _marks
        self._observed = False
        self._expanding = -1  # the node of the latest ENTER: the one being expanded
        self._frontier_shown = True
        self._fonts: dict[int, tuple[ImageFont.FreeTypeFont, int]] = {}
        self._boxes: dict[tuple[int, NodeState, int], Image.Image] = {}

    @property
    def tileset(self) -> TileSet:
        """Connector tiles (ids 0-80, 0 blank), then ``BOX`` tiles per node and state."""
        return self._tileset

    @property
    def marks(self) -> tuple[Mark, ...]:
        """What a node box's look means, for the frame's legend: every state a node can
        take in this run (the frontier only if a search reports one, see
        :meth:`show_frontier`), and the goal's marks where the tree has a goal."""
        marks = [
            Mark(f"key-{state.name.lower()}", words)
            for state, words in KEYS
            if state is not NodeState.FRONTIER or self._frontier_shown
        ]
        if self._goal:
            marks.append(Mark(GOAL_KEY, "goal (corner flag)"))
            marks.append(Mark(FOUND_KEY, "goal found"))
        return tuple(marks)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``: two rows per depth but the last; ``BOX + GAP`` columns per leaf."""
        return self._layout.rows, self._layout.cols

    def show_frontier(self, shown: bool) -> None:
        """Whether a search drawn by this view reports frontier nodes (``EXPAND`` or
        ``FRONTIER`` events); without one (backtracking, a random walk, minimax) no node
        takes the frontier's look, and :attr:`marks` leaves it out of the legend. Default:
        shown (a view told nothing cannot rule it out)."""
        self._frontier_shown = shown

    def observe(self, event: Event) -> None:
        """Take in the next event of the search: mark the node it shows as visited.

        ``EXPAND`` and ``FRONTIER`` mark their node as frontier unless it is visited already;
        kinds that do not show a state (``IMPROVE`` and other annotations) change nothing.
        From the first call on, :meth:`grid` no longer counts the nodes it draws as visited.

        Raises:
            ValueError: The event shows a node that is not of this view's tree.
        """
        self._observed = True
        kind = event.kind
        if kind is EventKind.ENTER:  # a frontier search takes it to expand (MCTS selects)
            self._expanding = self._node_index(event.node)
        if kind is EventKind.EXPAND or kind is EventKind.FRONTIER:
            i = self._node_index(event.node)
            if self._state[i] == NodeState.UNVISITED:
                self._mark(i, NodeState.FRONTIER)
        elif kind.shows_state:
            self._visit(self._node_index(event.node))

    def reset(self) -> None:
        """Forget every event observed and node drawn: nothing is visited any more."""
        self._marks = self._base.copy()
        self._state = bytearray(len(self._state))
        self._observed = False
        self._expanding = -1

    def grid(self, node: TreeNode) -> TileGrid:
        """The diagram with ``node`` current, its ancestors on the stack joined by highlighted
        edges, and the nodes visited so far (see :meth:`observe`) marked. A ``node`` on the
        frontier (an ``EXPAND``'s frame: generated, not visited) whose parent the latest
        ``ENTER`` took is drawn as such, and that parent, the node being expanded, as the
        current one (a frontier search's children join the frontier while it expands).

        Costs one copy of the grid plus work linear in the depth of ``node``, however many
        nodes the tree has.

        Raises:
            ValueError: ``node`` is not a node of this view's tree.
        """
        current = self._node_index(node)
        up = int(self._layout.parent[current])
        if self._state[current] == NodeState.FRONTIER and up == self._expanding >= 0:
            # a node just generated (its EXPAND's frame) only joins the frontier: the search
            # is still expanding its parent, which stays the current node
            current = up
        if not self._observed:
            self._visit(current)
        grid = self._marks.copy()
        flat = grid.reshape(-1)
        path = self._path(current)  # current first, the root last
        cells = self._box_cells[path[1:]].reshape(-1)
        flat[cells] = self._base_flat[cells] + np.int16(BOX * NodeState.STACK)
        cells = self._box_cells[current]
        flat[cells] = self._base_flat[cells] + np.int16(BOX * NodeState.CURRENT)
        below = path[:-1]  # the path's edges: one above each of its nodes but the root
        if below.size:
            # The edges lie in distinct connector rows, so each fancy-indexed add below hits
            # a cell at most once.
            flat[self._edge_top[below]] += np.int16(_NORTH)
            flat[self._edge_bottom[below]] += np.int16(_SOUTH)
            east = _runs(self._edge_left[below], self._edge_span[below])
            flat[east] += np.int16(_EAST)
            flat[east + 1] += np.int16(_WEST)
        return grid

    def move_cells(self, node: TreeNode, child: TreeNode) -> tuple[tuple[int, int], ...]:
        """The ``(row, col)`` cells of ``child``'s box: what the step from ``node`` down to
        it changes. A step back from ``child`` outlines only them ("undone"), not
        ``node``'s box, which the same step turns from "on the path" to "current", nor the
        edge between them (the outline then wrapped both boxes: which one was undone?).

        Raises:
            ValueError: ``child`` is not a node of this view's tree.
        """
        cols = self._layout.cols
        return tuple(divmod(int(k), cols) for k in self._box_cells[self._node_index(child)])

    def _node_index(self, node: object) -> int:
        """The pre-order index of ``node``.

        Raises:
            ValueError: ``node`` is not a node of this view's tree.
        """
        i = self._index.get(id(getattr(node, "tree", None)))
        if i is None:
            raise ValueError(f"{node!r} is not a node of this view's tree")
        return i

    def _path(self, i: int) -> npt.NDArray[np.intp]:
        """Node ``i`` and its ancestors, up to the root."""
        parent = self._layout.parent
        path = [i]
        while (i := parent[i]) >= 0:
            path.append(i)
        return np.array(path, dtype=np.intp)

    def _mark(self, i: int, state: NodeState) -> None:
        cells = self._box_cells[i]
        self._marks.reshape(-1)[cells] = self._base_flat[cells] + np.int16(BOX * state)
        self._state[i] = state

    def _visit(self, i: int) -> None:
        """Mark node ``i`` and its ancestors visited (visited nodes' ancestors all are)."""
        parent = self._layout.parent
        while i >= 0 and self._state[i] != NodeState.VISITED:
            self._mark(i, NodeState.VISITED)
            i = parent[i]

    def _base_grid(self) -> tuple[TileGrid, np.ndarray]:
        """Every node unvisited, every edge plain; and each node's box cells (flat indices)."""
        layout = self._layout
        rows, cols = self.shape
        grid = np.zeros((rows, cols), dtype=np.int16)
        cells = np.zeros((len(layout.labels), BOX), dtype=np.intp)
        for i, (level, centre) in enumerate(zip(layout.depth, layout.centre, strict=True)):
            first = centre - BOX // 2
            cells[i] = np.arange(BOX) + (2 * level * cols + first)
            grid[2 * level, first : first + BOX] = _node_id(i, NodeState.UNVISITED, 0) + np.arange(
                BOX
            )
        spans: dict[int, list[int]] = {}  # parent -> centres of its children
        for i, up in enumerate(layout.parent):
            if up >= 0:
                spans.setdefault(up, []).append(layout.centre[i])
        for up, centres in spans.items():
            # One connector row per parent: its children's columns never overlap another
            # parent's, so each span is drawn once (linear in the width, not per child).
            row, top = 2 * layout.depth[up] + 1, layout.centre[up]
            low, high = min(top, *centres), max(top, *centres)
            _set_digit(grid, row, top, _NORTH)
            for centre in centres:
                _set_digit(grid, row, centre, _SOUTH)
            grid[row, low + 1 : high + 1] += np.int16(_WEST)
            grid[row, low:high] += np.int16(_EAST)
        return grid, cells

    # --- drawing -------------------------------------------------------------------------

    def _draw(self, name: str, size: int) -> Image.Image:
        """Draw the tile ``name`` at ``size`` x ``size`` pixels."""
        if size < 4 or size % 2:
            raise ValueError(f"tile size must be even and at least 4, got {size}")
        tile_id = self._tileset.id(name)
        if tile_id < _EDGE_TILES:
            return _draw_edges(tile_id, size)
        if tile_id >= self._keys + len(KEYS):
            return _draw_goal_key(size, found=tile_id > self._keys + len(KEYS))
        if tile_id >= self._keys:
            return _draw_key(KEYS[tile_id - self._keys][0], size)
        i, rest = divmod(tile_id - _EDGE_TILES, _STATES * BOX)
        state, part = divmod(rest, BOX)
        box = self._box(i, NodeState(state), size)
        return box.crop((part * size, 0, (part + 1) * size, size))

    def _box(self, i: int, state: NodeState, size: int) -> Image.Image:
        """The whole box of node ``i`` (``BOX`` tiles wide), cached per size."""
        key = (i, state, size)
        if key not in self._boxes:
            self._boxes[key] = self._draw_box(i, state, size)
        return self._boxes[key]

    def _draw_box(self, i: int, state: NodeState, size: int) -> Image.Image:
        layout = self._layout
        width = BOX * size
        image = Image.new("RGB", (width, size), BACKGROUND)
        draw = ImageDraw.Draw(image)
        margin_y, margin_x = _box_margins(size)[0], _box_side(size)
        _draw_stubs(
            draw,
            size,
            up=HIGHLIGHT if state in (NodeState.STACK, NodeState.CURRENT) else LINE,
            down=HIGHLIGHT if state is NodeState.STACK else LINE,
            parent=layout.parent[i] >= 0,
            children=layout.has_children[i],
        )
        box = (margin_x, margin_y, width - margin_x - 1, size - margin_y - 1)
        _draw_frame(draw, box, state, size)
        if i in self._goal:
            if state in _REACHED:  # a search stops at the first goal it reaches: found
                _draw_found(draw, box, size)
            _draw_flag(draw, box, size)
        face, spacing = self._font(size)
        inner = width - 2 * margin_x - 4 * _box_margins(size)[2]
        lines = _wrap(layout.labels[i], face, inner) or [layout.labels[i]]
        coverage = Image.new("L", image.size, 0)
        pen = ImageDraw.Draw(coverage)
        pen.fontmode = "L"  # anti-aliased; rounded to LEVELS steps and blended below
        origins, _ = _line_origins(face, lines, size, spacing)
        for text, y in zip(lines, origins, strict=True):
            x = (width - _text_width(face, text)) // 2 - int(face.getbbox(text)[0])
            pen.text((x, y), text, fill=255, font=face)
        pixels = np.array(image)
        blend(pixels, levels(np.asarray(coverage)), TEXT)
        return Image.fromarray(pixels)

    def label_size(self, size: int) -> int:
        """The pixel size of the labels' font in tiles of ``size`` pixels: the largest at
        which every label fits its box (a frame's text-size checks read it)."""
        return int(self._font(size)[0].size)

    def _font(self, size: int) -> tuple[ImageFont.FreeTypeFont, int]:
        """The largest font (and line spacing) at which every label fits its box."""
        if size not in self._fonts:
            self._fonts[size] = _fit_font(self._layout.labels, size)
        return self._fonts[size]


def _code_name(code: int) -> str:
    digits = []
    for weight in (_NORTH, _EAST, _SOUTH, _WEST):
        digits.append(_DIGITS[(code // weight) % 3])
    return "".join(digits)


def _set_digit(grid: TileGrid, row: int, col: int, weight: int) -> None:
    """Set a half-edge of a connector tile to a plain line (idempotent)."""
    if (int(grid[row, col]) // weight) % 3 == 0:
        grid[row, col] += weight


def _runs(starts: npt.NDArray[np.intp], lengths: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The indices ``starts[k] + j`` for ``0 <= j < lengths[k]``, for every ``k``, in order."""
    runs: npt.NDArray[np.intp] = (starts + lengths - lengths.cumsum()).repeat(lengths)
    runs += np.arange(len(runs), dtype=np.intp)
    return runs


def _node_id(i: int, state: NodeState, part: int) -> int:
    return _EDGE_TILES + (i * _STATES + state) * BOX + part


def _line_width(size: int) -> int:
    """Even width of connector lines."""
    return max(2, (size // 16) // 2 * 2)


def _line_start(size: int, line: int) -> int:
    """First pixel of a centred line; even, so colour edges stay on even pixels."""
    return (size - line) // 4 * 2


def _box_margins(size: int) -> tuple[int, int, int]:
    """Vertical margin, horizontal margin and border width of a node box (all even)."""
    margin_y = max(2, size // 6 // 2 * 2)
    margin_x = max(2, size // 8 // 2 * 2)
    border = max(2, size // 32 // 2 * 2)
    return margin_y, margin_x, border


def _box_side(size: int) -> int:
    """The horizontal margin of a node's box in its ``BOX`` tiles: the box margin and a
    border more, as the current node's outer border stands two borders out of its box and
    must stay clear of the tiles' edge (the panel's, at the leftmost and rightmost leaf)."""
    _, margin_x, border = _box_margins(size)
    return margin_x + border


def _draw_edges(code: int, size: int) -> Image.Image:
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for level, colour in ((1, LINE), (2, HIGHLIGHT)):  # plain lines first, highlights on top
        line = _line_width(size) * level
        a = _line_start(size, line)
        b = a + line - 1
        half = {_NORTH: (a, 0, b, b), _SOUTH: (a, a, b, size - 1)}
        half |= {_WEST: (0, a, b, b), _EAST: (a, a, size - 1, b)}
        for weight in (_NORTH, _EAST, _SOUTH, _WEST):
            if (code // weight) % 3 == level:
                draw.rectangle(half[weight], fill=colour)
    return image


def _draw_stubs(
    draw: ImageDraw.ImageDraw,
    size: int,
    *,
    up: Colour,
    down: Colour,
    parent: bool,
    children: bool,
) -> None:
    """The bits of edge above and below a node box of ``size`` px tiles, up to the
    connector rows; highlighted ones twice as wide, like the connectors'."""
    margin_y = _box_margins(size)[0]
    for wanted, colour, rows in (
        (parent, up, (0, margin_y - 1)),
        (children, down, (size - margin_y, size - 1)),
    ):
        if not wanted:
            continue
        line = _line_width(size) * (2 if colour == HIGHLIGHT else 1)
        x = (BOX // 2) * size + _line_start(size, line)
        draw.rectangle((x, rows[0], x + line - 1, rows[1]), fill=colour)


def _draw_frame(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], state: NodeState, size: int
) -> None:
    """A node box in ``state``'s look: its fill and border; the frontier's border dashed,
    the current node's doubled by a second border outside the first."""
    border = _box_margins(size)[2]
    left, top, right, bottom = box
    if state is NodeState.FRONTIER:
        draw.rectangle(box, fill=FILL[state])
        dash = max(4, size // 8 // 2 * 2)
        for x in range(left, right + 1, 2 * dash):
            end = min(x + dash - 1, right)
            draw.rectangle((x, top, end, top + border - 1), fill=BORDER)
            draw.rectangle((x, bottom - border + 1, end, bottom), fill=BORDER)
        for y in range(top, bottom + 1, 2 * dash):
            end = min(y + dash - 1, bottom)
            draw.rectangle((left, y, left + border - 1, end), fill=BORDER)
            draw.rectangle((right - border + 1, y, right, end), fill=BORDER)
        return
    draw.rectangle(box, fill=FILL[state], outline=BORDER, width=border)
    if state is NodeState.CURRENT:  # in the margin: the fill inside keeps its size
        outer = (left - 2 * border, top - 2 * border, right + 2 * border, bottom + 2 * border)
        draw.rectangle(outer, outline=BORDER, width=border)


def _draw_key(state: NodeState, size: int) -> Image.Image:
    """A legend swatch: an unlabelled node box in ``state``'s look, one tile wide, with the
    highlighted edge above it for the nodes on the path."""
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin_y, margin_x, border = _box_margins(size)
    if state in (NodeState.STACK, NodeState.CURRENT):
        line = 2 * _line_width(size)
        x = _line_start(size, line)
        draw.rectangle((x, 0, x + line - 1, margin_y - 1), fill=HIGHLIGHT)
    inset = margin_x + 2 * border
    _draw_frame(draw, (inset, margin_y, size - inset - 1, size - margin_y - 1), state, size)
    return image


def _draw_flag(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], size: int) -> None:
    """A goal's mark: a black triangle filling the box's top-right corner (a shape, so it
    reads whatever the box's fill)."""
    _, top, right, _ = box
    side = max(4, size // 4)
    draw.polygon([(right - side, top), (right, top), (right, top + side)], fill=BORDER)


def _draw_found(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], size: int) -> None:
    """A found goal's mark: a :data:`FOUND` frame just inside the box's border, as wide
    as it (inside the label's margin, so the label keeps its room); in a box too small
    for one, the border itself in :data:`FOUND`."""
    border = _box_margins(size)[2]
    left, top, right, bottom = box
    inner = (left + border, top + border, right - border, bottom - border)
    if inner[2] - inner[0] < 2 * border or inner[3] - inner[1] < 2 * border:
        # a box too small for a frame inside its border (a tiny legend swatch): the
        # border itself turns blue
        draw.rectangle(box, outline=FOUND, width=border)
        return
    draw.rectangle(inner, outline=FOUND, width=border)


def _draw_goal_key(size: int, *, found: bool = False) -> Image.Image:
    """The legend swatch of a goal: an unlabelled node box with its flag, unvisited; or,
    ``found``, visited and framed as a reached goal is."""
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin_y, margin_x, border = _box_margins(size)
    inset = margin_x + 2 * border
    box = (inset, margin_y, size - inset - 1, size - margin_y - 1)
    _draw_frame(draw, box, NodeState.VISITED if found else NodeState.UNVISITED, size)
    if found:
        _draw_found(draw, box, size)
    _draw_flag(draw, box, size)
    return image


def _text_height(face: ImageFont.FreeTypeFont, text: str) -> int:
    _, top, _, bottom = face.getbbox(text)
    return int(bottom - top)


def _text_width(face: ImageFont.FreeTypeFont, text: str) -> int:
    left, _, right, _ = face.getbbox(text)
    return int(right - left)


def _wrap(text: str, face: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap; an empty list when one word alone is too wide."""
    lines: list[str] = []
    for word in text.split():
        if _text_width(face, word) > width:
            return []
        if lines and _text_width(face, f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _line_origins(
    face: ImageFont.FreeTypeFont, lines: list[str], size: int, spacing: int
) -> tuple[list[int], bool]:
    """The pen's row for each line of a label centred in a box of ``size`` px tiles, and
    whether all their ink stays a pixel clear of the box's border.

    Lines are placed by the font's "Hg" box (cap height to descender), so that the text of
    every box sits on the same baselines; where a label's own letters (an "l" rises above
    an "H") would then touch the border, its lines move as a block just enough to clear it.
    """
    margin_y, _, border = _box_margins(size)
    clear = (margin_y + border + 1, size - margin_y - border - 1)  # rows ink may take
    _, top, _, bottom = face.getbbox("Hg")
    pitch = int(bottom - top)
    first = (size - len(lines) * pitch - (len(lines) - 1) * spacing) // 2 - int(top)
    origins = [first + k * (pitch + spacing) for k in range(len(lines))]
    boxes = [face.getbbox(text) for text in lines]
    high = min(y + int(box[1]) for y, box in zip(origins, boxes, strict=True))
    low = max(y + int(box[3]) for y, box in zip(origins, boxes, strict=True))
    shift = max(0, clear[0] - high) or min(0, clear[1] - low)
    fits = low - high <= clear[1] - clear[0]
    return [y + shift for y in origins] if fits else origins, fits


def _fit_font(labels: tuple[str, ...], size: int) -> tuple[ImageFont.FreeTypeFont, int]:
    """The largest font (and its line spacing) in which every label, wrapped to the box's
    width, keeps all its ink a pixel clear of the box's border (see :func:`_line_origins`);
    the smallest tried when none does."""
    border, margin_x = _box_margins(size)[2], _box_side(size)
    width = BOX * size - 2 * margin_x - 4 * border
    distinct = sorted(set(labels))
    low, high = 6, max(6, size // 3)

    def fits(pixels: int) -> bool:
        face = font(pixels)
        spacing = max(1, pixels // 6)
        for label in distinct:
            lines = _wrap(label, face, width)
            if not lines or not _line_origins(face, lines, size, spacing)[1]:
                return False
        return True

    best = low
    while low <= high:  # largest size that fits; the smallest one is used even if it does not
        middle = (low + high) // 2
        if fits(middle):
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return font(best), max(1, best // 6)
