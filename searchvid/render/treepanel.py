"""The search-tree panel: the tree a search builds, drawn from its events alone.

A :class:`TreePanel` is laid out from a silent first pass over the run's events (see
:mod:`searchvid.render.treelayout`), then fed every event of the real pass with
:meth:`TreePanel.observe` (bookkeeping in :mod:`searchvid.render.treestate`) and asked for a
picture with :meth:`TreePanel.draw` once per frame. Only items whose look changed are
redrawn, and their rectangles are returned.

What it shows (a legend at the bottom, :mod:`searchvid.render.treelegend`, explains every
mark the run draws; the marks and colours are listed in :mod:`searchvid.render.treemarks`):

- Nodes appear when an event first names them, at the place the layout gave them. The
  current node has a yellow ring (a yellow fill when nodes are tiny); the path from the root
  to it is yellow: edges, and outlines of nodes large enough for one.
- Frontier nodes (generated, not expanded) are hollow rings; expanded / visited nodes are
  grey disks; leaves and dead ends are squares; beam search's dropped children are grey
  crosses; nodes of a played line (``MOVE``: a solution replayed, a committed move) have a
  green outline and a heavy green edge down to them.
- Values: a node's fill (a board picture's frame) shows its value in [0, 1] on a ramp: for a
  two-player game (``outcomes`` given) from player 1's colour to player 0's, the colours the
  boards give the players; else a cividis-like ramp.
- MCTS (streams with ``BACKUP``): nodes are bars whose height follows the visit count (log
  scale against the root's count at the end of the decision) and whose colour is the mean
  reward; the visit count is written under (or beside) a bar when there is room. Bars stand
  on a common line and are wide (``min_spacing``). Each node's children are ordered by
  their visits *at the end of the decision* (from the first pass: most visited leftmost,
  so nodes never move); of a wide fan-out, the most visited children are drawn and the
  least visited are one ``+k`` item, last. The current node is never lost in a ``+k``
  item: the hidden part of its path is drawn in the item's *lane*, a column just left of it
  (see :mod:`~searchvid.render.treelayout`, *spotlight*), each node with its own visit
  count, and the ``+k`` beside it counts the other hidden nodes. The principal variation
  as of the current event (from the root, repeatedly the child with the most visits so
  far) is a sky-blue line beside its edges and a sky-blue base under its bars; it ends in
  a ``+k`` item when the next node is hidden there.
- MCTS in plan mode (a ``MOVE`` after each block of iterations): the panel shows the tree of
  the *current decision* only, rooted at the node the last MOVE committed, each decision
  laid out by itself from the first pass. A header line counts ``move k of n`` beside one
  small mark per decision where they fit (filled green: played; a tall yellow bar: current;
  hollow: to come); with a ``label``, a second line names the tree's root (see below).
  A *forced* decision (one move to choose from) keeps the previous decision's tree, and the
  header says so: ``move 44 of 44: forced, one move to choose from`` / ``tree of move 43,
  searched from its played child``, ringed in white (legend: "this move's search root").
- Minimax values (streams whose LEAF/BACKTRACK values are all in [0, 1] and whose ENTERs
  carry none): a node's latest value, written beside it when there is room; a node's
  children cut off by alpha-beta (``PRUNE``) are one bold purple cross under it, at the end
  of a dashed edge, with their number.
- Hidden parts of large trees (see :mod:`~searchvid.render.treelayout`) are hollow squares
  with ``+k`` (k: hidden nodes seen so far, not their visits; the legend: "+k more
  nodes"), outlined white while some are on the frontier.
- Random walks: a ``walk N`` counter in the top-left corner counts the restarts.
- With a ``thumbnail`` callback and a small tree (every node drawn, at most
  ``thumbnail_limit`` of them, pictures of at least 24 px), each node is a picture of its
  board in a frame showing its state; where pictures would be smaller, nodes are dots.
- With a ``label`` callback and a small tree whose columns hold a few letters, each node's
  label is written under it (yellow for the current node), except under thumbnails; one
  too wide for its column keeps the part that differs from its parent's label, or its last
  whole words (``…O:a1``), or is left out: never a fragment cut inside a word at both ends.
  The legend says how to read labels in the domain's words (``names``). With decisions,
  the header's second line names the tree's root (``root, before move 3: ...``).
- In MCTS trees, each item's slot reaches over the free room of its row (to its
  neighbours' slots or the panel's margin), so a node alone in its row, such as the root,
  writes its whole visit count and name where one column would cut them.

Every text is at least ``textink.MIN_TEXT`` pixels tall (:attr:`TreePanel.text_sizes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Rect
from searchvid.render.panelchanges import changed_rects, changed_within
from searchvid.render.textink import MIN_TEXT, TextInk
from searchvid.render.treeitems import TreeItems
from searchvid.render.treelayout import ITEM_NODE, TreeLayout
from searchvid.render.treelegend import LegendEntry, LegendFacts, TreeLegend, legend_entries
from searchvid.render.treemarks import (
    BACKGROUND,
    BG,
    COLORS,
    CROSS,
    DIVERGING,
    EDGE,
    FRONTIER,
    HIDDEN_I,
    PATH,
    PATH_I,
    PLAYED,
    PLAYED_I,
    PRUNED,
    SEQUENTIAL,
    SQUARE,
    TEXT,
    TEXT_I,
    VISITED,
    Pixels,
    ink_ramp,
    paint_ink,
    paint_mask,
    panel_colors,
    ring,
    solid,
)
from searchvid.render.treerecord import TreeRecord
from searchvid.render.treesizes import EDGE_BAND, SizeRules, sizes_for, thumbnail_pitch
from searchvid.search.events import Event, EventKind

__all__ = [
    "BACKGROUND",
    "COLORS",
    "CROSS",
    "DIVERGING",
    "EDGE",
    "FRONTIER",
    "PATH",
    "PLAYED",
    "PRUNED",
    "SEQUENTIAL",
    "TEXT",
    "VISITED",
    "Label",
    "Thumbnail",
    "TreePanel",
]

Thumbnail = Callable[[Any], npt.NDArray[np.uint8]]
"""A board picture for a node: an ``(h, w, 3)`` uint8 RGB array."""
Label = Callable[[Any], str]
"""A short text naming a node."""

_K = EventKind
_MARGIN = 4
_CRUMB = 6
"""Side of a decision's square in the header (the current one is twice as tall)."""


class TreePanel(TreeItems):
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
        values: Colour nodes by value in [0, 1]: None detects minimax-like streams (MCTS
            streams always show their mean rewards).
        outcomes: For a two-player game, the words for value 0 and value 1 (player 0's
            value: ``("O wins", "X wins")``): the value scale runs from player 1's colour
            to player 0's (:data:`~searchvid.render.palette.PLAYER_COLORS`) and its ends
            are named so. None (one player): a cividis-like scale from ``0`` to ``1``.
        middle: With ``outcomes``, the words for value 0.5 (``"draw"``): the legend names
            the scale's grey middle beside the grey of a node with no value yet.
        names: With ``label``, how to read the labels (the domain's words), for the legend.
        decisions: Lay out each decision of a plan-mode search by itself (see
            :mod:`~searchvid.render.treelayout`): None for streams with ``BACKUP`` events
            (MCTS), True for any stream whose MOVEs are followed by more search, False to
            lay out the whole run as one tree.
        font_size: Text size in pixels (default: from the panel width, at least
            :data:`~searchvid.render.textink.MIN_TEXT`).
        min_spacing: Smallest distance between the centres of two nodes of a row (even);
            trees wider than that are aggregated. None: for MCTS streams, at least 32 and
            room for a count such as ``+1.2k`` (bars 22 px wide, visit counts written
            under them), else 8.
        thumbnail_limit: Most nodes drawn as thumbnails (or with labels).
        max_children: Most children drawn per node (the heaviest: most visited, else the
            largest subtrees); the others are one ``+k`` aggregate. None: a quarter of
            the columns that fit (MCTS: all of them), at least 8.
        min_visits: Where a decision's tree does not fit, MCTS nodes with fewer visits by
            the end of the decision are drawn only within a ``+k`` aggregate. The default,
            1, draws every node there is room for: the most visited come first anyway,
            and bars keep their width whatever their number.
        undo_mark: On the frame of a ``BACKTRACK``, ring the node the step back left in
            the "undone" colour (and name the ring in the legend, where the stream has
            any ``BACKTRACK``).
        changes_only: A redraw of everything (a new decision) after the first returns only
            the parts that differ from the picture before, not the whole panel: for a caller
            whose copy of the panel is the picture :meth:`draw` last returned (a frame).

    Attributes:
        width: Panel width.
        height: Panel height.
        pixels: The current picture, ``(height, width, 3)`` uint8 RGB.
        record: What the first pass saw: one census per decision.
        layouts: One layout per decision, in order.
        layout: The current decision's layout: where each of its nodes is drawn.
        decision: The number of the current decision, from 0.
        thumbnails: Whether the current layout draws nodes as board pictures.
        thumbnail_warning: With a ``thumbnail`` callback, why some decision's nodes are
            dots rather than pictures, in one line with the panel size pictures need (or
            the tree's size, when no panel holds pictures of it); None when every node is
            a picture or none was asked for.
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
        outcomes: tuple[str, str] | None = None,
        middle: str | None = None,
        names: str | None = None,
        decisions: bool | None = None,
        font_size: int | None = None,
        min_spacing: int | None = None,
        thumbnail_limit: int = 60,
        max_children: int | None = None,
        min_visits: int = 1,
        undo_mark: bool = True,
        changes_only: bool = False,
    ) -> None:
        if width % 2 or height % 2 or width < 32 or height < 32:
            raise ValueError(f"a tree panel is even-sized and at least 32 px, got {width}x{height}")
        if min_spacing is not None and (min_spacing < 2 or min_spacing % 2):
            raise ValueError(f"min_spacing must be even and >= 2, got {min_spacing}")
        self.width, self.height = width, height
        record = TreeRecord.of(events_for_layout, split=decisions)
        kinds = record.kinds
        mcts = _K.BACKUP in kinds
        self._values = mcts or (record.unit_values if values is None else values)
        size = font_size or max(MIN_TEXT, min(14, width // 40))
        self._text = TextInk(size)
        self._small = TextInk(max(MIN_TEXT, size - 2) if size >= MIN_TEXT else size)
        self._colors = panel_colors(outcomes is not None)
        self._rgb = np.array(self._colors, dtype=np.uint8)
        # a full row of each colour, for fast fills (TreeItems._fill)
        self._rows = np.repeat(self._rgb[:, np.newaxis, :], width, axis=1)
        self.pixels: Pixels = np.empty((height, width, 3), dtype=np.uint8)
        self._fill(self.pixels[:], BG)
        # the picture before a draw (``changes_only``), kept in one buffer: a fresh copy a
        # frame would cost a page fault per 4 KiB of the panel
        self._before: Pixels | None = None
        frontier = _K.FRONTIER in kinds or (_K.EXPAND in kinds and not mcts)
        self._facts = LegendFacts(
            frontier=frontier,
            # with values, a grey node is one whose value is not known yet (grey is a draw)
            visited_word="no value yet" if self._values else "expanded" if frontier else "visited",
            leaves=bool(record.leaves),
            dropped=_K.DROP in kinds,
            pruned=_K.PRUNE in kinds,
            played=_K.MOVE in kinds,
            values=self._values,
            value_name="mean reward" if mcts else "value",
            mcts=mcts,
            undone=undo_mark and _K.BACKTRACK in kinds,
            middle=middle if outcomes is not None else None,
            names=names if label is not None else None,
        )
        self._key = TreeLegend(
            self._text, width - 2 * _MARGIN, ends=outcomes or ("0", "1"), rgb=self._rgb
        )
        header = self._text.height + 4 if _K.RESTART in kinds or record.split else 0
        header += header % 2
        # decisions with a label: the root's words get a line of their own (beside the move
        # count they were cut at blog width)
        self._header_line = header
        header *= 2 if record.split and label is not None else 1
        self._header_box = Rect(_MARGIN, _MARGIN, _MARGIN + header, width - _MARGIN)
        forced = record.split and any(census.forced for census in record.decisions)
        widest = legend_entries(
            self._facts, hidden=True, thumbnails=False, searched=forced, named=True
        )
        self._legend_top = height - _MARGIN - self._key.height(widest)
        top = _MARGIN + header + (_MARGIN if header else 0)
        bottom = max(top, self._legend_top - _MARGIN)
        if min_spacing is None:  # MCTS: room for a count ("+1.2k") under each bar
            min_spacing = max(32, self._small.width("+1.2k") + 5 & ~1) if mcts else 8
        columns = (width - 2 * _MARGIN) // min_spacing
        if max_children is None and mcts:  # the root's fan-out is the story: no cap
            max_children = max(8, columns)
        placement: dict[str, Any] = {
            "min_pitch_x": min_spacing,
            "min_pitch_y": max(EDGE_BAND + 6, min(min_spacing, 16)),
            "max_pitch_y": 240 if mcts else 160,
            "min_weight": min_visits if mcts else 0,
            "by_weight": mcts,
            "spotlight": mcts,
        }
        layouts = [
            TreeLayout(
                census,
                left=_MARGIN,
                top=top,
                width=width - 2 * _MARGIN,
                height=max(2, bottom - top),
                max_children=max_children,
                **placement,
            )
            for census in record.decisions
        ]
        # names where every decision's tree is small enough to be drawn whole
        small = all(not t.aggregates and t.items <= thumbnail_limit for t in layouts)
        rules = SizeRules(
            text=self._text,
            small=self._small,
            thumbnails=thumbnail is not None,
            thumbnail_limit=thumbnail_limit,
            names=small and label is not None,
            mcts=mcts,
            values=self._values,
            pruned=_K.PRUNE in kinds,
        )
        self._sizes = [sizes_for(layout, rules) for layout in layouts]
        self.thumbnail_warning: str | None = None
        if thumbnail is not None and not all(sizes.thumbnails for sizes in self._sizes):
            drawn = zip(record.decisions, self._sizes, strict=True)
            short = [census for census, sizes in drawn if not sizes.thumbnails]
            self.thumbnail_warning = _thumbnail_warning(
                short, (width, height), height - (bottom - top), thumbnail_limit, placement
            )
        wanted: set[int] = set()
        for layout, sizes in zip(layouts, self._sizes, strict=True):
            if sizes.thumbnails or sizes.names:
                wanted.update(g for g in layout.node if g >= 0)
        super().__init__(
            record,
            layouts,
            mcts=mcts,
            node_values=self._values and not mcts,
            wanted=wanted,
            label=label,
        )
        self._marks_left = undo_mark
        self._changes_only = changes_only
        self._shown_once = False  # whether a picture was returned (it is on screen)
        self._thumbnail = thumbnail
        self._names_of: dict[int, str] = {}
        self._pictures: dict[tuple[int, int], Pixels] = {}
        self._header_drawn: tuple[int, str, int] | None = None
        self._legend_look: tuple[Any, ...] | None = None
        self._legend_pixels: Pixels = self.pixels[:0]
        self._enter(0)
        self._draw_legend()

    # -- public ---------------------------------------------------------------------------

    @property
    def colors(self) -> tuple[RGB, ...]:
        """Every colour the panel draws, besides thumbnail colours."""
        return self._colors

    @property
    def text_sizes(self) -> tuple[int, ...]:
        """The pixel size of every font the panel writes with (legend, header, names,
        notes), smallest first: all at least :data:`~searchvid.render.textink.MIN_TEXT`
        unless ``font_size`` asked for less."""
        return tuple(sorted({self._text.size, self._small.size}))

    @property
    def text_heights(self) -> tuple[int, ...]:
        """The ink height of a line (ascenders to descenders) of every font the panel
        writes with, smallest first."""
        return tuple(sorted({self._text.height, self._small.height}))

    def draw(self) -> list[Rect]:
        """Bring :attr:`pixels` up to date; returns the rectangles that changed.

        The first call, and the first after the panel moves on to the next decision, draws
        everything and returns the whole panel; other calls redraw only items whose look
        changed since the previous call, and return their rectangles (empty list: nothing
        changed). With ``changes_only``, every call after the first returns only the parts
        that differ from the previous picture (:mod:`searchvid.render.panelchanges`).
        """
        self._sync_path()
        self._sync_pv()
        rects: list[Rect] = []
        if self._first:
            self._first = False
            # pixels change only in draw(): until now, they are the picture on screen
            before = self._keep_before() if self._changes_only and self._shown_once else None
            self._shown_once = True
            self._fill(self.pixels[:], BG)  # a new decision: everything may have moved
            self._draw_legend()
            self._dirty.update(range(self.layout.items))
            self._dirty_bus.update(range(self.layout.items))
            self._paint_dirty(rects)
            self._paint_header()
            if before is None:
                return [Rect(0, 0, self.height, self.width)]
            return changed_rects(before, self.pixels)
        header = (self._walks, self._root_name, self.decision) != self._header_drawn
        before = None
        if self._changes_only and (self._dirty or self._dirty_bus or header):
            before = self._keep_before()
        self._paint_dirty(rects)
        if header:
            rects.append(self._paint_header())
        if before is not None:  # a slot redrawn is mostly as it was: copy only its changes
            return changed_within(before, self.pixels, rects)
        if len(rects) > 64:
            return [_bounds(rects)]
        return rects

    def _keep_before(self) -> Pixels:
        """A copy of :attr:`pixels` as they are now (the same buffer each call)."""
        if self._before is None:
            self._before = np.empty_like(self.pixels)
        np.copyto(self._before, self.pixels)
        return self._before

    def item_rect(self, node_id: int) -> Rect | None:
        """The rectangle the drawing of tree node ``node_id`` stays in (None: not drawn in
        the current decision's layout).

        A node hidden by aggregation is drawn by its aggregate, whose rectangle this is.
        """
        if not 0 <= node_id < self._n or self._rep[node_id] < 0:
            return None
        return self._slot[self._rep[node_id]]

    def drawn_at(self, node_id: int) -> Rect | None:
        """The slot where tree node ``node_id`` is drawn *by itself* now: its own item's, or
        that of the spot item (in a fold's lane) lending it a slot while it is on the current
        path (None: only counted in a ``+k`` item, or not in the current decision)."""
        if not 0 <= node_id < self._n or self._rep[node_id] < 0:
            return None
        v = self._host.get(node_id, self._rep[node_id])
        if self._item_kind[v] == ITEM_NODE or self._guest[v] == node_id:
            return self._slot[v]
        return None

    @property
    def pv_nodes(self) -> tuple[int, ...]:
        """The principal variation as last drawn: the ids of its nodes drawn by themselves,
        from the root (a final ``+k`` item, where the next node is hidden, is left out)."""
        return tuple(self._gid[v] for v in self._pv if self._item_kind[v] == ITEM_NODE)

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
        """The texts of the legend's entries, in order (the value scale's by its name)."""
        return tuple(entry.text for entry in self._legend)

    @property
    def scale_ends(self) -> tuple[str, str]:
        """The words at the ends of the value scale: value 0, value 1."""
        return self._key.ends

    @property
    def header_words(self) -> tuple[str, str]:
        """The header's two texts for a plan-mode search: the move count (``"move 3 of
        44"``) and, with a ``label``, the words for the tree's root (``"root, before move 43:
        ..."``; after the last move, ``"after move 44: ..."``); a forced decision's words
        (``TreeItems._forced_words``); ``("", "")`` without decisions."""
        if not self._split:
            return "", ""
        words = f"move {self.decision + 1} of {len(self.layouts)}"
        return self._forced_words(words) if self._forced else (words, self._root_name)

    def centre(self, node_id: int) -> tuple[int, int] | None:
        """Pixel ``(row, column)`` just below and right of the centre of node ``node_id``'s box."""
        if not 0 <= node_id < self._n or self._rep[node_id] < 0:
            return None
        v = self._rep[node_id]
        return self._box_top[v] + self._bh // 2, self.layout.x[v] + 1

    # -- geometry -------------------------------------------------------------------------

    def _entered(self, k: int) -> None:
        """Decision ``k``'s items are placed; its legend follows how they are drawn."""
        super()._entered(k)
        self._legend: list[LegendEntry] = legend_entries(
            self._facts,
            hidden=bool(self.layouts[k].aggregates),
            thumbnails=self.thumbnails,
            counts=self._sizes[k].notes,
            named=self._sizes[k].names,
        )

    def _paint_header(self) -> Rect:
        """The line at the top: ``walk N`` for random walks, ``move k of n`` for decisions."""
        box = self._header_box
        self._header_drawn = (self._walks, self._root_name, self.decision)
        if box.bottom <= box.top:
            return box
        pixels, rgb = self.pixels, self._rgb
        self._fill(pixels[box.top : box.bottom, box.left : box.right], BG)
        room = box.right - box.left
        shades = rgb[ink_ramp(TEXT_I)]
        if not self._split:
            ink = self._text.ink(f"walk {self._walks}")
            paint_ink(pixels, box.top + 2, box.left, ink[:, :room], shades)
            return box
        n = len(self.layouts)
        words, root_words = self.header_words
        paint_ink(pixels, box.top + 2, box.left, self._text.ink(words)[:, :room], shades)
        x = box.left + self._text.width(words) + 10 & ~1
        step = _CRUMB + 2
        line = self._header_line
        middle = box.top + line // 2
        # one mark per decision, where they fit beside the move count
        if n * step <= box.right - x:
            square = solid(SQUARE, _CRUMB, _CRUMB)
            tall = solid(SQUARE, 2 * _CRUMB, _CRUMB)
            hollow = ring(SQUARE, _CRUMB, _CRUMB, 2)
            for d in range(n):
                mark, color = (square, PLAYED_I) if d < self.decision else (hollow, HIDDEN_I)
                if d == self.decision:
                    mark, color = tall, PATH_I
                top = middle - mark.shape[0] // 2 & ~1
                paint_mask(pixels, top, x + d * step, mark, rgb[color])
        if root_words:
            ink = self._text.ink(self._text.fit(root_words, room))
            paint_ink(pixels, box.top + line + 2, box.left, ink, shades, right=box.right)
        return box

    def _draw_legend(self) -> None:
        """The legend, on the background (the panel was just cleared): drawn once per
        look, then copied (each new decision clears the panel; most share one legend)."""
        look = (tuple(self._legend), self._ring_shape, self.thumbnails)
        rows = slice(max(0, self._legend_top), self.height)  # it draws nothing above
        if self._legend_look == look:
            self.pixels[rows] = self._legend_pixels
            return
        self._key.draw(
            self.pixels,
            (self._legend_top, _MARGIN),
            self._legend,
            node_shape=self._ring_shape,
            thumbnails=self.thumbnails,
        )
        self._legend_look = look
        self._legend_pixels = self.pixels[rows].copy()


def _thumbnail_warning(
    decisions: list[Any],
    size: tuple[int, int],
    chrome: int,
    limit: int,
    placement: dict[str, Any],
) -> str:
    """Why the trees of ``decisions`` (censuses) are drawn as dots in a panel of ``size``
    (``chrome``: its height besides the tree: header, legend, margins), and the panel size
    at which each would be drawn whole as board pictures (each leaf a column, each depth a
    row, at :func:`~searchvid.render.treesizes.thumbnail_pitch`)."""
    nodes = max(len(census.ids) for census in decisions)
    lead = "tree_thumbnails: board pictures are not drawn"
    if nodes > limit:
        return f"{lead}: the search tree has {nodes} nodes, pictures are drawn for at most {limit}"
    pitch_x, pitch_y = thumbnail_pitch()
    need_w, need_h = size
    for census in decisions:  # each tree laid out whole, in room enough for every node
        whole = TreeLayout(
            census,
            left=0,
            top=0,
            width=pitch_x * len(census.ids),
            height=pitch_y * (len(census.ids) + 1),
            **placement,
        )
        need_w = max(need_w, pitch_x * whole.columns + 2 * _MARGIN)
        need_h = max(need_h, pitch_y * whole.rows + chrome + chrome % 2)  # panels are even
    width, height = size
    if need_w > width and need_h > height:
        room = f"of {need_w}x{need_h} px (tree_width = {need_w}, tree_height = {need_h})"
    elif need_h > height:
        room = f"{need_h} px high (tree_height = {need_h})"
    else:
        room = f"{need_w} px wide (tree_width = {need_w})"
    return f"{lead} in a {width}x{height} px tree panel; they fit in a panel {room}"


def _bounds(rects: list[Rect]) -> Rect:
    return Rect(
        min(r.top for r in rects),
        min(r.left for r in rects),
        max(r.bottom for r in rects),
        max(r.right for r in rects),
    )
