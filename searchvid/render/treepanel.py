"""The search-tree panel: the tree a search builds, drawn from its events alone.

A :class:`TreePanel` is laid out from a silent first pass over the run's events (see
:mod:`searchvid.render.treelayout`), then fed every event of the real pass with
:meth:`TreePanel.observe` and asked for a picture with :meth:`TreePanel.draw` once per frame.
Only items whose look changed are redrawn, and their rectangles are returned.

What it shows (a legend in the bottom-left corner lists the states the run uses):

- Nodes appear when an event first names them, at the place the layout gave them. The
  current node has a yellow ring (a yellow fill when nodes are tiny); the path from the root
  to it is yellow: edges, and outlines of nodes large enough for one.
- Frontier nodes (generated, not expanded) are hollow rings; expanded / visited nodes are
  grey disks; leaves and dead ends are squares; beam search's dropped children are grey
  crosses; nodes of a played line (``MOVE``: a solution replayed, a committed move) have a
  green outline.
- MCTS (streams with ``BACKUP``): nodes are bars whose height follows the visit count (log
  scale against the root's count at the end of the decision) and whose colour is the mean
  reward for player 0 on a red (0) - white (0.5) - blue (1) scale; the visit count is
  written under (or beside) a bar when there is room. Bars stand on a common line and are
  wide (``min_spacing``): of a wide fan-out, the most visited children are drawn and the
  rest are one ``+k`` item; where the tree does not fit, nodes visited once are left to the
  ``+k`` items too.
- MCTS in plan mode (a ``MOVE`` after each block of iterations): the panel shows the tree of
  the *current decision* only, rooted at the node the last MOVE committed, each decision
  laid out by itself from the first pass. The committed move is drawn green in the old tree;
  the first event of the next block redraws the panel with the next decision's layout (its
  root green, the subtree kept from earlier decisions already there). A header line counts
  ``move k of n`` beside one small square per decision (green: played, yellow: current).
- Minimax values (streams whose LEAF/BACKTRACK values are all in [0, 1] and whose ENTERs
  carry none): a node's latest value on the same scale, written beside it when there is
  room; a node's children cut off by alpha-beta (``PRUNE``) are one magenta cross under it,
  on a magenta edge, with their number.
- Hidden parts of large trees (see :mod:`~searchvid.render.treelayout`) are hollow squares
  with ``+k`` (k: hidden nodes seen so far), outlined white while some are on the frontier.
- Random walks: a ``walk N`` counter in the top-left corner counts the restarts.
- With a ``thumbnail`` callback and a small tree (every node drawn, at most
  ``thumbnail_limit`` of them, pictures of at least 24 px), each node is a picture of its
  board in a frame showing its state: yellow on the current path, green when played, the
  value colour where known, light grey on the frontier.
- With a ``label`` callback and a small tree (every node drawn, at most ``thumbnail_limit``)
  whose columns hold a few letters, each node's label is written under it (cut with "…" to
  its column; yellow for the current node), except under thumbnails. With decisions, the
  header also names the root of the current decision.

Drawing is exact: no anti-aliasing, only :attr:`TreePanel.colors` (plus thumbnail colours),
lines 2 px wide on even columns, boxes of sizes 2 mod 4 centred on even pixel pairs, text in
Pillow's default font without anti-aliasing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Rect
from searchvid.render.treelayout import (
    ITEM_AGGREGATE,
    ITEM_NODE,
    ITEM_PRUNED,
    TreeCensus,
    TreeLayout,
    TreeRecord,
)
from searchvid.search.events import Event, EventKind

Pixels = npt.NDArray[np.uint8]
Thumbnail = Callable[[Any], npt.NDArray[np.uint8]]
"""A board picture for a node: an ``(h, w, 3)`` uint8 RGB array."""
Label = Callable[[Any], str]
"""A short text naming a node."""

# -- colours --------------------------------------------------------------------------------

BACKGROUND: RGB = (24, 24, 24)
EDGE: RGB = (88, 88, 88)
PATH: RGB = (250, 204, 21)
TEXT: RGB = (200, 200, 200)
FRONTIER: RGB = (224, 224, 224)
VISITED: RGB = (150, 150, 150)
DROPPED: RGB = (60, 60, 60)
CROSS: RGB = (120, 120, 120)
PLAYED: RGB = (74, 222, 128)
PRUNED: RGB = (232, 121, 249)
HIDDEN: RGB = (112, 112, 112)
DIVERGING: tuple[RGB, ...] = (
    (178, 24, 43),
    (214, 96, 77),
    (244, 165, 130),
    (253, 219, 199),
    (247, 247, 247),
    (209, 229, 240),
    (146, 197, 222),
    (67, 147, 195),
    (33, 102, 172),
)
"""Values for player 0 from 0 (red) through 0.5 (white) to 1 (blue): ColorBrewer's RdBu."""

COLORS: tuple[RGB, ...] = (
    BACKGROUND,
    EDGE,
    PATH,
    TEXT,
    FRONTIER,
    VISITED,
    DROPPED,
    CROSS,
    PLAYED,
    PRUNED,
    HIDDEN,
    *DIVERGING,
)
"""Every colour a panel draws (thumbnails add their own)."""

_BG, _EDGE, _PATH, _TEXT, _FRONTIER, _VISITED, _DROPPED, _CROSS = range(8)
_PLAYED, _PRUNED, _HIDDEN, _DIV = 8, 9, 10, 11

# -- node states and event kinds -------------------------------------------------------------

_UNSEEN, _OPEN_FRONTIER, _DROPPED_STATE, _OPEN, _LEAF_STATE = range(5)

_DISK, _SQUARE, _CROSS_SHAPE = 0, 1, 2

_K = EventKind
_CURRENT_KINDS = frozenset(
    {_K.ENTER, _K.BACKTRACK, _K.LEAF, _K.RESTART, _K.EXPAND, _K.SELECT, _K.ROLLOUT, _K.MOVE}
)
"""Kinds that make their node the current one (the states the video shows)."""

_EDGE_BAND = 6
"""Smallest gap between two rows: a stub, the 2 px bar, a stub."""
_MIN_THUMB = 24
_MAX_DOT = 30
_MAX_BAR = 86
_MAX_MARK = 14
_LEGEND_SWATCH = 10
_MARGIN = 4
_TEXT_CACHE = 4096

Look = tuple[Any, ...]

_NAME_ROOM = "abcde"
"""Names are drawn only where a column holds at least this much text."""
_CRUMB = 6
"""Side of a decision's square in the header."""


@dataclass(frozen=True)
class _Sizes:
    """How one layout's items are drawn: box sizes and what text fits.

    Attributes:
        thumbnails: Nodes are board pictures.
        box: Width of a node's box (2 mod 4).
        tall: Height of a node's box (MCTS bars are taller).
        band: Height of the part of a row's band that holds the boxes and their notes.
        notes: Whether numbers (values, visits, ``+k``) are written by the items.
        notes_below: Whether they are written under the boxes (else beside them).
        names: Whether node labels are written under the nodes (and their notes).
        name_height: Height of the line under the band for names (0 without names).
    """

    thumbnails: bool
    box: int
    tall: int
    band: int
    notes: bool
    notes_below: bool
    names: bool
    name_height: int


class TreePanel:
    """A search-tree picture of ``width`` x ``height`` pixels, updated event by event.

    Args:
        width: Panel width in pixels (even, at least 32).
        height: Panel height in pixels (even, at least 32).
        events_for_layout: The first pass: the same events the panel will observe (cut at
            the same point). Consumed once, here.
        thumbnail: Optional board picture of a node (the event's ``node``): an RGB array.
            Used when the whole tree is small (see ``thumbnail_limit``).
        label: Optional short text naming a node (the event's ``node``), written under the
            node where the tree is small (every node drawn, at most ``thumbnail_limit`` of
            them, in every decision) and its column has room; cut with "…" to fit. Not
            under thumbnails: the picture names the node.
        values: Colour nodes by value in [0, 1] for player 0: None detects minimax-like
            streams (MCTS streams always show their mean rewards).
        decisions: Lay out each decision of a plan-mode search by itself (see
            :mod:`~searchvid.render.treelayout`): None for streams with ``BACKUP`` events
            (MCTS), True for any stream whose MOVEs are followed by more search, False to
            lay out the whole run as one tree.
        font_size: Text size in pixels (default: from the panel width).
        min_spacing: Smallest distance between the centres of two nodes of a row (even);
            trees wider than that are aggregated. None: 32 for MCTS streams (bars 22 px
            wide, visit counts written under them), else 8.
        thumbnail_limit: Most nodes drawn as thumbnails (or with labels).
        max_children: Most children drawn per node (the heaviest: most visited, else the
            largest subtrees); the others are one ``+k`` aggregate. None: a quarter of
            the columns that fit (MCTS: half), at least 8.
        min_visits: Where a decision's tree does not fit, MCTS nodes with fewer visits by
            the end of the decision are drawn only within a ``+k`` aggregate (a node visited
            once is a bare expansion).

    Attributes:
        width: Panel width.
        height: Panel height.
        pixels: The current picture, ``(height, width, 3)`` uint8 RGB.
        record: What the first pass saw: one census per decision.
        layouts: One layout per decision, in order.
        layout: The current decision's layout: where each of its nodes is drawn.
        decision: The number of the current decision, from 0.
        thumbnails: Whether the current layout draws nodes as board pictures.
    """

    def __init__(
        self,
        width: int,
        height: int,
        *,
        events_for_layout: Iterable[Event],
        thumbnail: Thumbnail | None = None,
        label: Label | None = None,
        values: bool | None = None,
        decisions: bool | None = None,
        font_size: int | None = None,
        min_spacing: int | None = None,
        thumbnail_limit: int = 60,
        max_children: int | None = None,
        min_visits: int = 2,
    ) -> None:
        if width % 2 or height % 2 or width < 32 or height < 32:
            raise ValueError(f"a tree panel is even-sized and at least 32 px, got {width}x{height}")
        if min_spacing is not None and (min_spacing < 2 or min_spacing % 2):
            raise ValueError(f"min_spacing must be even and >= 2, got {min_spacing}")
        self.width, self.height = width, height
        self._root: int = -1  # the current decision's root, once the events named it
        self._pending = -1  # the node of a MOVE not followed by search yet
        self._pending_node: Any = None
        self._first: bool = True
        self.record = record = TreeRecord.of(events_for_layout, split=decisions)
        kinds = record.kinds
        self._mcts = _K.BACKUP in kinds
        self._values = self._mcts or (record.unit_values if values is None else values)
        self._split = record.split
        self._text = _TextInk(font_size or max(9, min(13, width // 40)))
        self._small = _TextInk(max(9, self._text.size - 2))  # numbers under the items
        self._rgb = np.array(COLORS, dtype=np.uint8)
        self.pixels: Pixels = np.empty((height, width, 3), dtype=np.uint8)
        self.pixels[:] = self._rgb[_BG]
        header = self._text.height + 4 if _K.RESTART in kinds or self._split else 0
        header += header % 2
        self._header_box = Rect(_MARGIN, _MARGIN, _MARGIN + header, width - _MARGIN)
        entries = self._legend_entries(has_hidden=True)
        legend_height = self._legend_height(entries)
        self._legend_top = height - _MARGIN - legend_height
        top = _MARGIN + header + (_MARGIN if header else 0)
        bottom = max(top, self._legend_top - _MARGIN)
        if min_spacing is None:
            min_spacing = 32 if self._mcts else 8
        columns = (width - 2 * _MARGIN) // min_spacing
        if max_children is None and self._mcts:  # the root's fan-out is the story
            max_children = max(8, columns // 2)
        self.layouts = [
            TreeLayout(
                census,
                left=_MARGIN,
                top=top,
                width=width - 2 * _MARGIN,
                height=max(2, bottom - top),
                min_pitch_x=min_spacing,
                min_pitch_y=max(_EDGE_BAND + 6, min(min_spacing, 16)),
                max_pitch_y=240 if self._mcts else 160,
                max_children=max_children,
                min_weight=min_visits if self._mcts else 0,
            )
            for census in record.decisions
        ]
        if not any(layout.aggregates for layout in self.layouts):
            entries = self._legend_entries(has_hidden=False)
        # names where every decision's tree is small enough to be drawn whole
        small = all(not t.aggregates and t.items <= thumbnail_limit for t in self.layouts)
        self._label = label
        self._name_nodes = small and label is not None
        self._sizes = [
            self._sizes_for(layout, thumbnail is not None, thumbnail_limit)
            for layout in self.layouts
        ]
        self._thumbnail = thumbnail
        self._init_state()
        self._enter(0)
        self._legend = entries
        self._draw_legend(entries)

    # -- public ---------------------------------------------------------------------------

    @property
    def colors(self) -> tuple[RGB, ...]:
        """Every colour the panel draws, besides thumbnail colours."""
        return COLORS

    @property
    def census(self) -> TreeCensus:
        """The current decision's tree, as the first pass saw it."""
        return self.layout.census

    @property
    def decisions(self) -> int:
        """Number of decisions (1 unless a plan-mode search is split)."""
        return len(self.layouts)

    def observe(self, event: Event) -> None:
        """Take note of ``event`` (call it for every event, in stream order)."""
        kind = event.kind
        i = event.id
        if self._split:  # the same rule as the first pass (treelayout._Reader)
            if kind is _K.MOVE:
                if i is not None and i >= 0:
                    self._pending = i
                    self._pending_node = event.node
            elif self._pending >= 0 and kind is not _K.IMPROVE:
                self._next_decision()
            if self._root < 0 and i is not None and i >= 0 and event.parent is None:
                self._root = i
                if self._label is not None:
                    self._root_name = self._label(event.node)
        if i is None:
            if kind in _CURRENT_KINDS and event.parent is not None:  # a playout state
                p = event.parent
                if 0 <= p < self._n and self._rep[p] >= 0:
                    self._current = self._rep[p]
            return
        if not 0 <= i < self._n:
            return
        v = self._rep[i]
        if v < 0:
            return
        if kind is _K.BACKUP:
            self._backup(v, event.value)
            return
        if kind is _K.IMPROVE:
            return
        if kind is _K.PRUNE:
            self._prune(i, v, event.value)
            return
        if not self._seen[i]:
            self._appear(i, v, event.node)
        if kind in _CURRENT_KINDS:
            self._current = v
            if kind is _K.RESTART:
                self._walks += 1
        self._change_state(i, v, kind)
        if kind is _K.MOVE:
            if not self._split:
                self._backup_root = v
            if not self._played[i]:
                self._played[i] = 1
                self._dirty.add(v)
        elif self._node_values and (kind is _K.LEAF or kind is _K.BACKTRACK):
            value = event.value
            if value is not None and value != self._value[v]:
                self._value[v] = value
                self._node_value[i] = value
                self._dirty.add(v)

    def draw(self) -> list[Rect]:
        """Bring :attr:`pixels` up to date; returns the rectangles that changed.

        The first call, and the first after the panel moves on to the next decision, draws
        everything and returns the whole panel; other calls redraw only items whose look
        changed since the previous call (empty list: nothing changed).
        """
        self._sync_path()
        rects: list[Rect] = []
        if self._first:
            self._first = False
            self.pixels[:] = self._rgb[_BG]  # a new decision: everything may have moved
            self._draw_legend(self._legend)
            self._dirty.update(range(self.layout.items))
            self._dirty_bus.update(range(self.layout.items))
            self._paint_dirty(rects)
            self._paint_header()
            return [Rect(0, 0, self.height, self.width)]
        self._paint_dirty(rects)
        if (self._walks, self._root_name) != self._header_drawn:
            rects.append(self._paint_header())
        if len(rects) > 64:
            return [_bounds(rects)]
        return rects

    def item_rect(self, node_id: int) -> Rect | None:
        """The rectangle the drawing of tree node ``node_id`` stays in (None: not drawn in
        the current decision's layout).

        A node hidden by aggregation is drawn by its aggregate, whose rectangle this is.
        """
        if not 0 <= node_id < self._n or self._rep[node_id] < 0:
            return None
        return self._slot[self._rep[node_id]]

    def marker_rect(self, node_id: int) -> Rect | None:
        """The rectangle of the pruned-children marker under node ``node_id`` (None: none)."""
        if not 0 <= node_id < self._n or self._rep[node_id] < 0:
            return None
        marker = self.layout.marker_of.get(self._rep[node_id])
        return None if marker is None else self._slot[marker]

    @property
    def box_size(self) -> tuple[int, int]:
        """``(height, width)`` of a node's box (MCTS bars are taller than wide)."""
        return self._bh, self._bw

    @property
    def labelled(self) -> bool:
        """Whether the current layout writes node labels under the nodes."""
        return self._names

    @property
    def legend(self) -> tuple[str, ...]:
        """The texts of the legend's entries, in order."""
        return tuple(text for _, text in self._legend)

    def centre(self, node_id: int) -> tuple[int, int] | None:
        """Pixel ``(row, column)`` just below and right of the centre of node ``node_id``'s box."""
        if not 0 <= node_id < self._n or self._rep[node_id] < 0:
            return None
        v = self._rep[node_id]
        return self._box_top[v] + self._bh // 2, self.layout.x[v] + 1

    # -- geometry -------------------------------------------------------------------------

    def _sizes_for(self, layout: TreeLayout, thumbnail: bool, limit: int) -> _Sizes:
        """Box sizes and the text that fits, from a layout's pitches."""
        sx, sy = layout.pitch_x, layout.pitch_y
        text = self._text
        line = text.height + 4 + (text.height % 2)  # a line of text under the boxes, gaps
        thumbnails = False
        if thumbnail and not layout.aggregates and layout.items <= limit:
            box = _size4(min(sx - 4, sy - _EDGE_BAND, 104))
            thumbnails = _body(box) >= _MIN_THUMB
        if not thumbnails:
            box = _size4(min(sx - 2, sy - _EDGE_BAND, _MAX_DOT))
        # a board picture names its node better than any text cut to a column
        names = self._name_nodes and not thumbnails and sx - 4 >= text.width(_NAME_ROOM)
        if names and sy - box - line < _EDGE_BAND:  # smaller boxes, to keep the names
            smaller = _size4(sy - line - _EDGE_BAND)
            if smaller >= 10:
                box = smaller
            else:
                names = False
        names_room = line if names else 0
        note_width = text.width("1.2k" if self._mcts else "0.55" if self._values else "+99")
        wants_notes = self._values or bool(layout.aggregates) or _K.PRUNE in self.record.kinds
        room = sx // 2 - box // 2 - 2
        if wants_notes and room < note_width and box >= 14 and not thumbnails and not self._mcts:
            smaller = _size4(sx - 2 * note_width - 6)
            if smaller >= 10:
                box = smaller
                room = sx // 2 - box // 2 - 2
        small = self._small
        note_line = small.height + 4 + (small.height % 2)
        widest = small.width("+1.2k" if self._mcts else "0.55" if self._values else "+99")
        below = (
            wants_notes
            and room < note_width
            and not thumbnails
            and sx - 4 >= widest
            and sy - box - note_line - names_room >= _EDGE_BAND
        )
        notes_room = note_line if below else 0
        tall = box
        if self._mcts and not thumbnails:  # bars: height shows visits
            tall = _size4(min(sy - _EDGE_BAND - names_room - notes_room, 4 * box + 2, _MAX_BAR))
            tall = max(box, tall)
        band = tall + notes_room
        # each note is drawn where it fits beside its item: some must fit beside a mark
        notes = below or (wants_notes and sx // 2 - min(box, _MAX_MARK) // 2 - 2 >= text.width("0"))
        if notes and not below and text.height > band:
            band = tall + 4 * math.ceil((text.height - tall) / 4)
            if sy - band - names_room < _EDGE_BAND:
                notes, band = False, tall
        return _Sizes(thumbnails, box, tall, band, notes, below, names, names_room)

    def _place(self, layout: TreeLayout, sizes: _Sizes) -> None:
        """Slots, box tops and edge rectangles of ``layout``'s items."""
        self.thumbnails = sizes.thumbnails
        box, tall, band = sizes.box, sizes.tall, sizes.band
        self._bw, self._bh, self._band = box, tall, band
        self._notes, self._notes_below = sizes.notes, sizes.notes_below
        self._names, self._name_height = sizes.names, sizes.name_height
        self._ring_shape = _SQUARE if self._mcts or self.thumbnails else _DISK
        margin = box - _body(box)
        self._body_w, self._body_h = box - margin, tall - margin
        half = layout.pitch_x // 2
        full = band + sizes.name_height
        self._slot: list[Rect] = []
        self._box_top: list[int] = []
        self._bus_rect: list[Rect | None] = []
        for v in range(layout.items):
            top = layout.row_top(layout.row[v])
            x = layout.x[v]
            self._slot.append(Rect(top, x + 1 - half, top + full, x + 1 + half))
            self._box_top.append(top if sizes.notes_below else top + (band - tall) // 2)
            kids = layout.children[v]
            if kids and layout.pitch_y - full >= _EDGE_BAND:  # else too cramped for edges
                xs = [layout.x[c] for c in kids]
                self._bus_rect.append(
                    Rect(top + full, min(x, *xs), top + layout.pitch_y, max(x, *xs) + 2)
                )
            else:
                self._bus_rect.append(None)
        self._heights = list(range(2, self._body_h + 1, 4))
        self._root_visits = max(1, int(layout.census.weights.max(initial=1)))

    # -- state ----------------------------------------------------------------------------

    def _init_state(self) -> None:
        """Per node id: what the events said so far (survives a change of decision)."""
        n = self._n = self.record.size
        self._rep: list[int] = [-1] * n
        self._seen = bytearray(n)
        self._state_of = bytearray(n)  # _UNSEEN, _OPEN_FRONTIER, ...
        self._played = bytearray(n)
        self._node_value: dict[int, float] = {}
        self._pruned_count: dict[int, int] = {}
        self._objects: dict[int, Any] = {}  # nodes whose picture or label may be drawn
        self._names_of: dict[int, str] = {}
        self._pictures: dict[tuple[int, int], Pixels] = {}
        self._wanted: set[int] = set()
        for layout, sizes in zip(self.layouts, self._sizes, strict=True):
            if sizes.thumbnails or sizes.names:
                self._wanted.update(g for g in layout.node if g >= 0)
        self._node_values: bool = self._values and not self._mcts
        self._raise: dict[EventKind, int] = {
            _K.ENTER: _OPEN,
            _K.BACKTRACK: _OPEN,
            _K.SELECT: _OPEN,
            _K.RESTART: _OPEN,
            _K.MOVE: _OPEN,
            _K.LEAF: _LEAF_STATE,
            _K.FRONTIER: _OPEN_FRONTIER,
            _K.EXPAND: _OPEN if self._mcts else _OPEN_FRONTIER,
        }
        self._walks: int = 1
        self._header_drawn: tuple[int, str] | None = None
        self._root_name = ""
        self._members: list[int] = []
        self._dirty: set[int] = set()
        self._dirty_bus: set[int] = set()

    def _enter(self, k: int) -> None:
        """Make decision ``k``'s layout the current one, its items as the events left them."""
        self.decision = k
        self.layout = layout = self.layouts[k]
        self._place(layout, self._sizes[k])
        rep = self._rep
        for g in self._members:
            rep[g] = -1
        census = layout.census
        members = self._members = census.ids.tolist()
        for g, v in zip(members, layout.rep, strict=True):
            rep[g] = v
        items = layout.items
        self._gid = layout.node
        self._parent = layout.parent
        self._item_kind = layout.kind
        self._shown = [False] * items
        self._kids = [0] * items
        self._count = [0] * items  # aggregates: members seen; markers: children cut off
        self._open = [0] * items  # aggregates: members on the frontier
        self._visits = [0] * items
        self._total = [0.0] * items
        self._value: list[float | None] = [None] * items
        self._drawn: list[Look | None] = [None] * items
        self._bus_drawn: list[tuple[int, int] | None] = [None] * items
        self._current = 0 if k and items else -1
        self._path: list[int] = []
        self._on_path = [False] * items
        self._backup_root = -1
        self._first = True
        self._dirty.clear()
        self._dirty_bus.clear()
        self._restore(census)

    def _restore(self, census: TreeCensus) -> None:
        """Show what earlier decisions left of this one's tree (nothing for the first)."""
        if not self.decision:
            return
        kind, rep, seen, state = self._item_kind, self.layout.rep, self._seen, self._state_of
        visits, totals = census.prior_visits.tolist(), census.prior_totals.tolist()
        for local, g in enumerate(self._members):
            if not seen[g]:
                continue
            v = rep[local]
            if kind[v] == ITEM_NODE:
                self._visits[v], self._total[v] = visits[local], totals[local]
                self._value[v] = self._node_value.get(g)
                marker = self.layout.marker_of.get(v)
                if marker is not None and g in self._pruned_count:
                    self._count[marker] = self._pruned_count[g]
                    self._show(marker)
            else:
                self._count[v] += 1
                self._open[v] += state[g] == _OPEN_FRONTIER
            if not self._shown[v]:
                self._show(v)

    def _next_decision(self) -> None:
        """The first event after a MOVE: a new decision starts if it commits a new root."""
        pending, self._pending = self._pending, -1
        if pending == self._root or self._root < 0:
            return
        self._root = pending
        k = self.decision + 1
        if k < len(self.layouts):  # the first pass counted the same starts
            if self._label is not None:
                self._root_name = self._label(self._pending_node)
            self._enter(k)  # its root is the current node

    # -- observing ------------------------------------------------------------------------

    def _appear(self, i: int, v: int, node: Any) -> None:
        """Node ``i`` (drawn by item ``v``) is named for the first time."""
        self._seen[i] = 1
        if i in self._wanted:  # drawn by itself in some decision, if not in this one
            self._objects[i] = node
        if self._item_kind[v] == ITEM_AGGREGATE:
            self._count[v] += 1
            self._dirty.add(v)
        if not self._shown[v]:
            self._show(v)

    def _change_state(self, i: int, v: int, kind: EventKind) -> None:
        """Raise node ``i``'s state for ``kind``; its item (or aggregate ``v``) follows."""
        state = self._state_of[i]
        target = self._raise.get(kind, state)
        if kind is _K.DROP:
            target = _DROPPED_STATE if state <= _OPEN_FRONTIER else state
        elif target < state:
            target = state
        if target == state:
            return
        self._state_of[i] = target
        if self._item_kind[v] == ITEM_NODE:
            self._dirty.add(v)
            return
        if state == _OPEN_FRONTIER:  # an aggregate counts its members on the frontier
            self._open[v] -= 1
            self._dirty.add(v)
        if target == _OPEN_FRONTIER:
            self._open[v] += 1
            self._dirty.add(v)

    def _show(self, v: int) -> None:
        self._shown[v] = True
        self._dirty.add(v)
        p = self._parent[v]
        if p >= 0:
            self._kids[p] += 1
            self._dirty.add(p)
            self._dirty_bus.add(p)

    def _backup(self, v: int, reward: float | None) -> None:
        """One visit and ``reward`` for ``v`` and its ancestors up to the current root."""
        r = 0.0 if reward is None else reward
        stop = self._backup_root
        parent, visits, total, dirty = self._parent, self._visits, self._total, self._dirty
        while v >= 0:
            visits[v] += 1
            total[v] += r
            dirty.add(v)
            if v == stop:
                break
            v = parent[v]

    def _prune(self, i: int, v: int, count: float | None) -> None:
        n = int(count) if count is not None and math.isfinite(count) else 1
        self._pruned_count[i] = self._pruned_count.get(i, 0) + n
        marker = self.layout.marker_of.get(v)
        if marker is None:
            return
        self._count[marker] += n
        self._dirty.add(marker)
        if not self._shown[marker]:
            self._show(marker)

    # -- drawing --------------------------------------------------------------------------

    def _sync_path(self) -> None:
        """Move the highlighted path to the current node, marking what changed."""
        path, on = self._path, self._on_path
        current = self._current
        if path and path[-1] == current:
            return
        parent, row, dirty, dirty_bus = (
            self._parent,
            self.layout.row,
            self._dirty,
            self._dirty_bus,
        )
        chain = []
        w = current
        while w >= 0 and not on[w]:
            chain.append(w)
            w = parent[w]
        keep = row[w] + 1 if w >= 0 else 0
        for u in path[keep:]:
            on[u] = False
            dirty.add(u)
            if parent[u] >= 0:
                dirty_bus.add(parent[u])
        del path[keep:]
        for u in reversed(chain):
            on[u] = True
            dirty.add(u)
            if parent[u] >= 0:
                dirty_bus.add(parent[u])
            path.append(u)
        if w >= 0:
            dirty.add(w)
            dirty_bus.add(w)

    def _paint_dirty(self, rects: list[Rect]) -> None:
        drawn, look_of, slot = self._drawn, self._look, self._slot
        for v in sorted(self._dirty):
            look = look_of(v)
            if look != drawn[v]:
                drawn[v] = look
                self._paint_item(v, look)
                rects.append(slot[v])
        self._dirty.clear()
        bus_drawn = self._bus_drawn
        for p in sorted(self._dirty_bus):
            rect = self._bus_rect[p]
            if rect is None:
                continue
            look_bus = (self._kids[p], self._bus_highlight(p))
            if look_bus != bus_drawn[p]:
                bus_drawn[p] = look_bus
                self._paint_bus(p, rect, look_bus[1])
                rects.append(rect)
        self._dirty_bus.clear()

    def _bus_highlight(self, p: int) -> int:
        """The child of ``p`` on the current path (-1: none)."""
        if not self._on_path[p] or self._path[-1] == p:
            return -1
        return self._path[self.layout.row[p] + 1]

    def _look(self, v: int) -> Look | None:
        """Everything that decides the pixels of item ``v``'s slot."""
        if not self._shown[v]:
            return None
        status = 2 if self._current == v else 1 if self._on_path[v] else 0
        out = self._kids[v] > 0
        kind = self._item_kind[v]
        if kind == ITEM_NODE:
            return (status, out, *self._node_look(v, status), self._name(v))
        count = self._count[v]
        side = min(self._body_w, self._body_h, _MAX_MARK)
        if kind == ITEM_AGGREGATE:
            line = _FRONTIER if self._open[v] else _HIDDEN
            return (status, out, _SQUARE, side, side, -1, line, f"+{_count(count)}", _TEXT, 0, "")
        return (status, out, _CROSS_SHAPE, side, side, _PRUNED, -1, str(count), _PRUNED, 0, "")

    def _node_look(self, v: int, status: int) -> tuple[Any, ...]:
        """(shape, height, width, fill, outline, note, note colour, state) of a node."""
        g = self._gid[v]
        state = self._state_of[g]
        shape = _SQUARE if state == _LEAF_STATE else _DISK
        height, width = self._body_h, self._body_w
        fill, outline = _VISITED, -1
        note = ""
        if self._mcts:
            shape = _SQUARE
            visits = self._visits[v]
            heights = self._heights
            if visits:
                fill = _DIV + _bucket(self._total[v] / visits)
                share = math.log1p(visits) / math.log1p(self._root_visits)
                height = heights[min(len(heights) - 1, round(share * (len(heights) - 1)))]
                note = _count(visits)
            else:
                height = heights[0]
        elif state == _OPEN_FRONTIER:
            fill, outline = -1, _FRONTIER
        elif state == _DROPPED_STATE:
            shape, fill = _CROSS_SHAPE, _CROSS
        value = self._value[v]
        if value is not None and state != _OPEN_FRONTIER:
            fill = _DIV + _bucket(value)
            note = _number(value)
        if self._played[g]:  # a played line stays green; its edges show the path
            outline = _PLAYED
        elif status:
            outline = _PATH
        if self.thumbnails:  # a picture of the board: visits show in its label, not its size
            height = width
        return (shape, height, width, fill, outline, note, _TEXT, state)

    def _name(self, v: int) -> str:
        """The label written under node item ``v`` ("" when names are off or unknown)."""
        if not self._names or self._label is None:
            return ""
        g = self._gid[v]
        name = self._names_of.get(g)
        if name is None:
            if g not in self._objects:
                return ""
            name = self._names_of[g] = self._label(self._objects[g])
        return name

    def _paint_item(self, v: int, look: Look | None) -> None:
        slot = self._slot[v]
        pixels, rgb = self.pixels, self._rgb
        pixels[slot.top : slot.bottom, max(0, slot.left) : slot.right] = rgb[_BG]
        if look is None:
            return
        status, out, shape, height, width, fill, outline, note, note_color = look[:9]
        x = self.layout.x[v]
        bw, bh, top = self._bw, self._bh, self._box_top[v]
        thumb = self.thumbnails and self._item_kind[v] == ITEM_NODE
        if self._mcts:  # bars (and marks) stand on the bottom of the box, like a bar chart
            body_top = top + (bh + self._body_h) // 2 - height
        else:
            body_top = top + (bh - height) // 2
        body_left = x + 1 - width // 2
        if self._parent[v] >= 0:
            into = (
                _PATH if status else _PRUNED if shape == _CROSS_SHAPE and fill == _PRUNED else _EDGE
            )
            pixels[slot.top : body_top, x : x + 2] = rgb[into]
        if out:
            stub = _PATH if status == 1 else _EDGE
            pixels[body_top + height : slot.bottom, x : x + 2] = rgb[stub]
        if thumb:
            self._paint_thumbnail(v, body_top, body_left, width, look)
        elif bw < 10 and status == 2:
            self._paint_shape(body_top, body_left, height, width, shape, _PATH, -1)
        else:
            self._paint_shape(body_top, body_left, height, width, shape, fill, outline)
        if status == 2 and bw >= 10:
            ring = _ring(self._ring_shape, bh, bw, 2)
            _paint_mask(pixels, top, x + 1 - bw // 2, ring, rgb[_PATH])
        if self._notes and note:
            if self._notes_below:
                self._paint_under(self._small, note, note_color, slot, (x, top + bh + 2))
            else:
                left = x + 1 + max(width, bw if status == 2 else 0) // 2 + 2
                self._paint_note(note, note_color, slot.top, left, slot.right)
        if look[10]:
            color = _PATH if status == 2 else _TEXT
            self._paint_under(self._text, look[10], color, slot, (x, slot.top + self._band + 2))

    def _paint_shape(
        self, top: int, left: int, height: int, width: int, shape: int, fill: int, line: int
    ) -> None:
        pixels, rgb = self.pixels, self._rgb
        if shape == _CROSS_SHAPE:
            _paint_mask(pixels, top, left, _cross(width), rgb[fill])
            return
        if min(height, width) < 6 and line >= 0:  # no room for an outline: it fills
            fill, line = line, -1
        if fill >= 0:
            _paint_mask(pixels, top, left, _solid(shape, height, width), rgb[fill])
        if line >= 0:
            _paint_mask(pixels, top, left, _ring(shape, height, width, 2), rgb[line])

    def _paint_thumbnail(self, v: int, top: int, left: int, size: int, look: Look) -> None:
        status, fill, outline, state = look[0], look[5], look[6], look[9]
        frame = outline if outline >= 0 else fill if fill >= 0 else _VISITED
        if status == 0 and state == _OPEN_FRONTIER:
            frame = _FRONTIER
        elif status == 0 and state == _DROPPED_STATE:
            frame = _DROPPED
        thick = 4 if size >= 40 else 2
        picture = self._picture(v, size - 2 * thick)
        pixels, rgb = self.pixels, self._rgb
        if picture is not None:
            h, w = picture.shape[:2]
            y = top + thick + ((size - 2 * thick - h) // 2 & ~1)
            x = left + thick + ((size - 2 * thick - w) // 2 & ~1)
            pixels[y : y + h, x : x + w] = picture
        _paint_mask(pixels, top, left, _ring(_SQUARE, size, size, thick), rgb[frame])
        if state == _DROPPED_STATE:
            _paint_mask(pixels, top + 4, left + 4, _cross(size - 8), rgb[_CROSS])

    def _picture(self, v: int, inner: int) -> Pixels | None:
        g = self._gid[v]
        picture = self._pictures.get((g, inner))
        if picture is None and g in self._objects and self._thumbnail is not None:
            board = np.asarray(self._thumbnail(self._objects[g]), dtype=np.uint8)
            picture = _fit(board[..., :3], inner)
            self._pictures[g, inner] = picture
        return picture

    def _paint_under(
        self, font: _TextInk, text: str, color: int, slot: Rect, at: tuple[int, int]
    ) -> None:
        """``text`` centred on column ``x`` from pixel row ``top`` (``at``), cut to the slot's
        width, on a background gap in the edge that passes under the item."""
        x, top = at
        ink = font.fit(text, slot.right - slot.left - 4)
        h, w = ink.shape
        if not w:
            return
        left = x + 1 - w // 2
        gap_left = max(0, slot.left, left - 2)
        self.pixels[max(0, top - 1) : top + h + 1, gap_left : left + w + 2] = self._rgb[_BG]
        _paint_mask(self.pixels, top, left, ink, self._rgb[color])

    def _paint_note(self, text: str, color: int, top: int, left: int, right: int) -> None:
        """``text`` left-aligned at ``left`` in the band from ``top``, if it fits."""
        ink = self._text.ink(text)
        if ink.shape[1] > right - left:
            return
        y = top + (self._band - ink.shape[0]) // 2
        _paint_mask(self.pixels, y, left, ink, self._rgb[color])

    def _paint_bus(self, p: int, rect: Rect, highlight: int) -> None:
        pixels, rgb = self.pixels, self._rgb
        pixels[rect.top : rect.bottom, rect.left : rect.right] = rgb[_BG]
        layout = self.layout
        kids = [c for c in layout.children[p] if self._shown[c]]
        if not kids:
            return
        xp = layout.x[p]
        bar = rect.top + ((rect.bottom - rect.top - 2) // 2 & ~1)
        for wanted in (ITEM_PRUNED, -1):
            for c in kids:
                cut = self._item_kind[c] == ITEM_PRUNED
                if cut != (wanted == ITEM_PRUNED):
                    continue
                color = rgb[_PRUNED if cut else _EDGE]
                xc = layout.x[c]
                pixels[bar : bar + 2, min(xp, xc) : max(xp, xc) + 2] = color
                pixels[bar + 2 : rect.bottom, xc : xc + 2] = color
        pixels[rect.top : bar, xp : xp + 2] = rgb[_PATH if highlight >= 0 else _EDGE]
        if highlight >= 0:
            xc = layout.x[highlight]
            pixels[bar : bar + 2, min(xp, xc) : max(xp, xc) + 2] = rgb[_PATH]
            pixels[bar + 2 : rect.bottom, xc : xc + 2] = rgb[_PATH]

    def _paint_header(self) -> Rect:
        """The line at the top: ``walk N`` for random walks, ``move k of n`` for decisions."""
        box = self._header_box
        self._header_drawn = (self._walks, self._root_name)
        if box.bottom <= box.top:
            return box
        pixels, rgb = self.pixels, self._rgb
        pixels[box.top : box.bottom, box.left : box.right] = rgb[_BG]
        room = box.right - box.left
        if not self._split:
            ink = self._text.ink(f"walk {self._walks}")
            _paint_mask(pixels, box.top + 2, box.left, ink[:, :room], rgb[_TEXT])
            return box
        n, k = len(self.layouts), self.decision
        ink = self._text.ink(f"move {k + 1} of {n}")
        _paint_mask(pixels, box.top + 2, box.left, ink[:, :room], rgb[_TEXT])
        x = box.left + ink.shape[1] + 10 & ~1
        step = _CRUMB + 2
        top = box.top + (box.bottom - box.top - _CRUMB) // 2 & ~1
        if x + n * step <= box.right:  # one square per decision, when they all fit
            done, ring = _solid(_SQUARE, _CRUMB, _CRUMB), _ring(_SQUARE, _CRUMB, _CRUMB, 2)
            for d in range(n):
                color = _PLAYED if d < k else _PATH if d == k else _HIDDEN
                _paint_mask(pixels, top, x + d * step, done if d <= k else ring, rgb[color])
            x += n * step + 8
        if self._root_name and x < box.right:
            ink = self._text.fit(self._root_name, box.right - x)
            _paint_mask(pixels, box.top + 2, x, ink, rgb[_TEXT])
        return box

    # -- legend ---------------------------------------------------------------------------

    def _legend_entries(self, *, has_hidden: bool) -> list[tuple[str, str]]:
        """(swatch, text) pairs for the states this run uses."""
        kinds = self.record.kinds
        frontier = _K.FRONTIER in kinds or (_K.EXPAND in kinds and not self._mcts)
        entries = [("current", "current")]
        if frontier:
            entries.append(("frontier", "frontier"))
        if not self._mcts:
            entries.append(("visited", "expanded" if frontier else "visited"))
        if self.record.leaves and not self._mcts:
            entries.append(("leaf", "leaf / dead end"))
        if _K.DROP in kinds:
            entries.append(("dropped", "dropped"))
        if _K.PRUNE in kinds:
            entries.append(("pruned", "pruned"))
        if _K.MOVE in kinds:
            entries.append(("played", "played"))
        if has_hidden:
            entries.append(("hidden", "+k hidden"))
        if self._values:
            caption = "mean reward, player 0" if self._mcts else "value, player 0"
            entries.append(("scale", caption))
        if self._mcts:
            entries.append(("sizes", "size: visits"))
        return entries

    def _entry_width(self, swatch: str, text: str) -> int:
        s = _LEGEND_SWATCH
        lead = s * 9 + self._text.width("0") + self._text.width("1") + 8 if swatch == "scale" else s
        if swatch == "sizes":
            lead = 18
        return lead + 4 + self._text.width(text) + 12

    def _legend_lines(self, entries: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
        lines: list[list[tuple[str, str]]] = [[]]
        used = 0
        room = self.width - 2 * _MARGIN
        for swatch, text in entries:
            width = self._entry_width(swatch, text)
            if lines[-1] and used + width > room:
                lines.append([])
                used = 0
            lines[-1].append((swatch, text))
            used += width
        return lines

    def _line_height(self) -> int:
        return max(self._text.height, _LEGEND_SWATCH) + 4 & ~1

    def _legend_height(self, entries: list[tuple[str, str]]) -> int:
        return len(self._legend_lines(entries)) * self._line_height() + 2

    def _draw_legend(self, entries: list[tuple[str, str]]) -> None:
        line_height = self._line_height()
        s = _LEGEND_SWATCH
        rgb, pixels = self._rgb, self.pixels
        for n, line in enumerate(self._legend_lines(entries)):
            top = self._legend_top + 2 + n * line_height
            if top < 0:
                continue  # a panel too small for its legend
            swatch_top = top + (line_height - s) // 2 & ~1
            x = _MARGIN
            for swatch, text in line:
                x = self._draw_swatch(swatch, swatch_top, x)
                ink = self._text.ink(text)
                y = top + (line_height - ink.shape[0]) // 2
                if x + 4 + ink.shape[1] <= self.width:
                    _paint_mask(pixels, y, x + 4, ink, rgb[_TEXT])
                x += 4 + ink.shape[1] + 12 & ~1

    def _draw_swatch(self, swatch: str, top: int, x: int) -> int:
        """Draw one legend swatch at ``(top, x)``; returns the x after it."""
        s = _LEGEND_SWATCH
        rgb, pixels = self._rgb, self.pixels
        shapes = {
            "frontier": (_DISK, -1, _FRONTIER),
            "visited": (_DISK, _VISITED, -1),
            "leaf": (_SQUARE, _VISITED, -1),
            "dropped": (_CROSS_SHAPE, _CROSS, -1),
            "played": (_DISK, _VISITED, _PLAYED),
            "hidden": (_SQUARE, -1, _HIDDEN),
        }
        if swatch == "current":
            ring = self._ring_shape
            _paint_mask(pixels, top, x, _ring(ring, s, s, 2), rgb[_PATH])
            self._paint_shape(top + 4, x + 4, 2, 2, ring, _VISITED, -1)
        elif swatch == "pruned":
            _paint_mask(pixels, top, x, _cross(s), rgb[_PRUNED])
        elif swatch == "scale":
            zero = self._text.ink("0")
            _paint_mask(pixels, top + (s - zero.shape[0]) // 2, x, zero, rgb[_TEXT])
            x += (int(zero.shape[1]) + 4) & ~1
            for k in range(9):
                pixels[top : top + s, x + k * s : x + (k + 1) * s] = rgb[_DIV + k]
            x += 9 * s + 2
            one = self._text.ink("1")
            _paint_mask(pixels, top + (s - one.shape[0]) // 2, x, one, rgb[_TEXT])
            return (x + int(one.shape[1]) + 2) & ~1
        elif swatch == "sizes":
            for k, size in enumerate((2, 6, 10)):
                self._paint_shape(top + s - size, x + k * 6, size, 4, _SQUARE, _VISITED, -1)
            return x + 18
        else:
            shape, fill, line = shapes[swatch]
            self._paint_shape(top, x, s, s, shape, fill, line)
        return x + s


# -- pixels ---------------------------------------------------------------------------------

# -- pixels ---------------------------------------------------------------------------------


def _paint_mask(
    pixels: Pixels, top: int, left: int, mask: npt.NDArray[np.bool_], color: Pixels
) -> None:
    """Set the pixels under ``mask`` (placed at ``(top, left)``, clipped) to ``color``."""
    h, w = mask.shape
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(pixels.shape[0], top + h), min(pixels.shape[1], left + w)
    if y0 >= y1 or x0 >= x1:
        return
    region = pixels[y0:y1, x0:x1]
    region[mask[y0 - top : y1 - top, x0 - left : x1 - left]] = color


_MASKS: dict[tuple[int, int, int, int], npt.NDArray[np.bool_]] = {}


def _solid(shape: int, height: int, width: int) -> npt.NDArray[np.bool_]:
    """A filled disk (a square box) or rectangle."""
    key = (shape, height, width, 0)
    mask = _MASKS.get(key)
    if mask is None:
        if shape == _DISK and height == width:
            c = (width - 1) / 2
            yy, xx = np.mgrid[0:width, 0:width]
            mask = (yy - c) ** 2 + (xx - c) ** 2 <= (width / 2) ** 2 + 0.25
        else:
            mask = np.ones((height, width), dtype=bool)
        _MASKS[key] = mask
    return mask


def _ring(shape: int, height: int, width: int, thickness: int) -> npt.NDArray[np.bool_]:
    """The outer ``thickness`` pixels of a disk or rectangle."""
    key = (shape, height, width, thickness)
    mask = _MASKS.get(key)
    if mask is None:
        mask = _solid(shape, height, width).copy()
        inner_h, inner_w = height - 2 * thickness, width - 2 * thickness
        if inner_h > 0 and inner_w > 0:
            inside = mask[thickness : thickness + inner_h, thickness : thickness + inner_w]
            inside &= ~_solid(shape, inner_h, inner_w)
        _MASKS[key] = mask
    return mask


def _cross(size: int) -> npt.NDArray[np.bool_]:
    """An x of two 2 px diagonals in a ``size`` square."""
    key = (_CROSS_SHAPE, size, size, 0)
    mask = _MASKS.get(key)
    if mask is None:
        yy, xx = np.mgrid[0:size, 0:size]
        mask = (np.abs(yy - xx) <= 1) | (np.abs(yy + xx - (size - 1)) <= 1)
        _MASKS[key] = mask
    return mask


def _fit(board: Pixels, inner: int) -> Pixels:
    """``board`` scaled by nearest neighbour to fit an ``inner`` square, even-sized."""
    h, w = board.shape[:2]
    scale = inner / max(h, w, 1)
    th = max(2, int(h * scale) & ~1)
    tw = max(2, int(w * scale) & ~1)
    rows = np.arange(th) * h // th
    cols = np.arange(tw) * w // tw
    return np.ascontiguousarray(board[rows][:, cols])


def _bounds(rects: list[Rect]) -> Rect:
    return Rect(
        min(r.top for r in rects),
        min(r.left for r in rects),
        max(r.bottom for r in rects),
        max(r.right for r in rects),
    )


def _size4(limit: float) -> int:
    """The largest size ``2 + 4k`` not above ``limit`` (at least 2)."""
    return max(2, (int(limit) - 2) // 4 * 4 + 2)


def _body(box: int) -> int:
    """Size of a node's body in a box (the rest holds the current-node ring)."""
    if box >= 18:
        return box - 8
    if box >= 10:
        return box - 4
    return box


def _bucket(value: float) -> int:
    """Which of the 9 diverging colours shows ``value`` in [0, 1] (clamped; NaN: the middle)."""
    if math.isnan(value):
        return 4
    return min(8, max(0, int(max(-1.0, min(2.0, value)) * 9)))


def _number(value: float) -> str:
    """A short label for a value: ``1``, ``0.5``, ``0.33``."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e6:
        return str(int(value))
    return f"{value:.2g}"


def _count(n: int) -> str:
    if n < 1000:
        return str(n)
    if n < 10_000:
        return f"{n / 1000:.1f}k"
    return f"{n // 1000}k"


class _TextInk:
    """Text as boolean masks in Pillow's default font at ``size``, without anti-aliasing."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._font = ImageFont.load_default(size=size)
        box = self._font.getbbox("Abdfghjklpqy()[]0123456789+")
        self._top = int(box[1])
        self.height = int(box[3]) - self._top
        self._cache: dict[str, npt.NDArray[np.bool_]] = {}
        self._cuts: dict[tuple[str, int], npt.NDArray[np.bool_]] = {}

    def width(self, text: str) -> int:
        """Width of ``text``'s ink box in pixels."""
        return int(self.ink(text).shape[1])

    def fit(self, text: str, width: int) -> npt.NDArray[np.bool_]:
        """``text`` as a mask at most ``width`` px wide: cut and ended with "…" if longer
        (an empty mask when not even "…" fits)."""
        mask = self.ink(text)
        if mask.shape[1] <= width:
            return mask
        key = (text, width)
        cut = self._cuts.get(key)
        if cut is None:
            cut = self.ink("")
            lo, hi = 0, len(text)  # the longest prefix that fits with its "…"
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self.ink(text[:mid].rstrip() + "…").shape[1] <= width:
                    lo = mid
                else:
                    hi = mid - 1
            if self.ink("…").shape[1] <= width:
                cut = self.ink(text[:lo].rstrip() + "…")
            if len(self._cuts) >= _TEXT_CACHE:
                self._cuts.clear()
            self._cuts[key] = cut
        return cut

    def ink(self, text: str) -> npt.NDArray[np.bool_]:
        """``text`` as a ``(height, width)`` mask."""
        mask = self._cache.get(text)
        if mask is None:
            # monochrome glyphs may reach past the measured length: room, then trim
            width = math.ceil(self._font.getlength(text)) + 2 * self.height
            image = Image.new("L", (width, self.height), 0)
            draw = ImageDraw.Draw(image)
            draw.fontmode = "1"
            draw.text((0, -self._top), text, fill=255, font=self._font)
            full = np.asarray(image) > 127
            columns = np.flatnonzero(full.any(axis=0))
            mask = full[:, : int(columns[-1]) + 1] if columns.size else full[:, :0]
            if len(self._cache) >= _TEXT_CACHE:
                self._cache.clear()
            self._cache[text] = mask
        return mask
