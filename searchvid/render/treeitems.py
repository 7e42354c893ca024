"""How each item of the tree panel looks, and painting it: nodes, marks and the edges.

:class:`TreeItems` turns what :class:`~searchvid.render.treestate.TreeState` knows about an
item into a *look* (a tuple of everything that decides its pixels) and paints the items and
edges whose look changed. The marks are those of :mod:`searchvid.render.treemarks`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.render.canvas import Rect
from searchvid.render.textink import TextInk, ellipsized
from searchvid.render.treelayout import (
    ITEM_AGGREGATE,
    ITEM_NODE,
    ITEM_PRUNED,
    ITEM_SPOT,
    TreeLayout,
)
from searchvid.render.treelegend import LegendEntry, LegendFacts, legend_entries
from searchvid.render.treemarks import (
    BG,
    CROSS_I,
    CROSS_SHAPE,
    DISK,
    DROPPED_I,
    EDGE_I,
    FRONTIER_I,
    HIDDEN_I,
    PATH_I,
    PLAYED_I,
    PRUNED_I,
    PV_I,
    SCALE_I,
    SQUARE,
    TEXT_I,
    UNDONE_I,
    VISITED_I,
    Pixels,
    body,
    bucket,
    count,
    cross,
    fit,
    ink_ramp,
    number,
    paint_ink,
    paint_line,
    paint_mask,
    paint_shape,
    ring,
)
from searchvid.render.treesizes import EDGE_BAND, MAX_MARK, Sizes
from searchvid.render.treestate import DROPPED_STATE, LEAF_STATE, OPEN_FRONTIER, TreeState

Look = tuple[Any, ...]
"""Everything that decides the pixels of an item's slot."""

_EDGE = 4
"""Pixels between the panel's sides and the widest slot (the panel's margin)."""

_UNDRAWN: Look = ("undrawn",)
"""The look of a slot not painted yet in its decision: every slot is painted once, even an
empty one (a fold's lane), so that a panel drawn step by step and one drawn at once agree
where a slot overlaps the legend of a panel too small for both."""


def distinct_cut(text: str, above: str, width: int, measure: Callable[[str], int]) -> str:
    """``text`` cut to ``width`` px (as ``measure`` sizes text) keeping where it differs
    from ``above`` (its parent's label): the longest tail, from before the first
    difference, that fits after a leading "…" (``"…XOO/X.."`` under ``"XOX/XOO/...."``);
    where even the part from the first difference on is too wide, that part cut at its
    end too (``"…XO…"``). A label sharing no start with ``above``, or all of it, is cut at
    its end as usual (``"XOX/XOO/…"``)."""
    same = 0
    for a, b in zip(text, above, strict=False):
        if a != b:
            break
        same += 1
    if same == 0 or same >= len(text):
        return ellipsized(text, width, measure)
    low, high = 1, same  # the earliest start whose tail fits: measure shrinks as it moves on
    if measure("…" + text[high:]) > width:
        return ellipsized("…" + text[same:], width, measure)
    while low < high:
        middle = (low + high) // 2
        if measure("…" + text[middle:]) <= width:
            high = middle
        else:
            low = middle + 1
    return "…" + text[low:]


def word_tail(text: str, width: int, measure: Callable[[str], int]) -> str:
    """The last whole words of ``text`` that fit in ``width`` px after a leading "…"
    (``"…O:a1"`` for ``"XOX/.O./OX. O:a1"``); "" where not even its last word fits: a
    label cut inside a word (``"…O…"``) names nothing, so none is better."""
    words = text.split(" ")
    for start in range(1, len(words)):
        tail = "…" + " ".join(words[start:])
        if words[start] and measure(tail) <= width:
            return tail
    return ""


class TreeItems(TreeState):
    """The items of the current layout as pictures (see :class:`TreePanel
    <searchvid.render.treepanel.TreePanel>`, which sets the attributes below before any
    item is placed).

    Attributes:
        pixels: The panel's picture.
        thumbnails: Whether the current layout draws nodes as board pictures.
    """

    pixels: Pixels
    thumbnails: bool
    _rgb: Pixels
    _rows: Pixels
    _text: TextInk
    _small: TextInk
    _thumbnail: Callable[[Any], npt.NDArray[np.uint8]] | None
    _names_of: dict[int, str]
    _pictures: dict[tuple[int, int], Pixels]
    _sizes: list[Sizes]
    _current_node: int
    _facts: LegendFacts
    _legend: list[LegendEntry]

    def _fill(self, region: Pixels, color: int) -> None:
        """Set every pixel of ``region`` (a block of :attr:`pixels`) to colour ``color``.

        From a row of that colour: numpy broadcasts a single ``(3,)`` colour pixel by
        pixel, some 5-50x slower than copying rows, and redrawing a decision fills most of
        the panel.
        """
        region[...] = self._rows[color, : region.shape[1]]

    def _set_current(self, i: int) -> None:
        """Node ``i`` is the current one (see :meth:`TreeState._set_current`).

        Most events of a search make a node current, often the one that already is (an
        MCTS playout names the node it starts from): then nothing changes. And where the
        node is drawn by its own item with no hidden path lent a slot, only the current
        item changes: the general case's bookkeeping (freeing hosts, looking up spots) is
        skipped.
        """
        if i == self._current_node:  # only _enter() changes what this call decides
            return
        self._current_node = i
        v = self._rep[i]
        if not self._host and self._item_kind[v] != ITEM_AGGREGATE:
            self._current = v
            return
        super()._set_current(i)

    def _entered(self, k: int) -> None:
        """Slots, box tops and edge rectangles of decision ``k``'s items; nothing drawn."""
        layout = self.layouts[k]
        self._current_node = -1  # the node last made current, in this decision
        self._place(layout, self._sizes[k])
        self._drawn: list[Look | None] = [_UNDRAWN] * layout.items
        self._bus_drawn: list[tuple[int, int, int, int] | None] = [None] * layout.items

    def _forced_began(self) -> None:
        """A forced decision: the legend gains the ring of its search's root, and the panel
        is drawn afresh (as for a new decision: the legend may overlap a small tree)."""
        self._legend = legend_entries(
            self._facts,
            hidden=bool(self.layout.aggregates),
            thumbnails=self.thumbnails,
            counts=self._sizes[self.layout.census.index].notes,
            searched=True,
            named=self._sizes[self.layout.census.index].names,
        )
        self._redraw_all()

    def _searched_root(self, v: int) -> bool:
        """Whether item ``v`` draws the node a forced decision searches from (its root,
        inside the kept tree of the decision before it)."""
        return self._forced and self._item_kind[v] == ITEM_NODE and self._gid[v] == self._root

    def _forced_words(self, words: str) -> tuple[str, str]:
        """The header's two lines in a forced decision, whose move count is ``words``: the
        tree drawn (an earlier decision's, kept) and the node it holds where the forced
        search ran, whose visits the strip counts (so that they can be found there; the
        header has that line only where it names roots: with a ``label``)."""
        kept = self.layout.census.index + 1
        below = self.decision + 1 - kept
        if self._label is None:  # one line: no room for where it searched
            return f"{words} (forced: one move): tree of move {kept}", ""
        # "forced" alone read as unexplained beside a strip counting the search's
        # iterations: the search still runs them, with one move to choose from
        start = "its played child" if below == 1 else f"its played node {below} below"
        return (
            f"{words}: forced, one move to choose from",
            f"tree of move {kept}, searched from {start}",
        )

    def _redraw_all(self) -> None:
        """Draw the whole panel afresh at the next draw, as for a new decision."""
        self._first = True
        self._drawn = [_UNDRAWN] * self.layout.items
        self._bus_drawn = [None] * self.layout.items

    def _place(self, layout: TreeLayout, sizes: Sizes) -> None:
        self.thumbnails = sizes.thumbnails
        box, tall, band = sizes.box, sizes.tall, sizes.band
        self._bw, self._bh, self._band = box, tall, band
        self._notes, self._notes_below = sizes.notes, sizes.notes_below
        self._names, self._name_height = sizes.names, sizes.name_height
        self._ring_shape = SQUARE if self._mcts or self.thumbnails else DISK
        margin = box - body(box)
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
            if kids and layout.pitch_y - full >= EDGE_BAND:  # else too cramped for edges
                xs = [layout.x[c] for c in kids]
                self._bus_rect.append(
                    Rect(top + full, min(x, *xs) - 2, top + layout.pitch_y, max(x, *xs) + 4)
                )
            else:
                self._bus_rect.append(None)
        self._widen_slots(layout)
        self._heights = list(range(2, self._body_h + 1, 4))
        self._root_visits = max(1, int(layout.census.weights.max(initial=1)))

    def _widen_slots(self, layout: TreeLayout) -> None:
        """Stretch each slot sideways over the free room of its row: to the slots of its
        neighbours, or to the panel's margin. A node alone in its row (a root) or beside a
        gap has room for its whole number and name, which one column would cut.

        MCTS trees only: there the number is each node's visits, which the reader checks
        against the strip ("most visited move 65 visits"); elsewhere a value written beside
        some nodes and not their neighbours would read as a difference between them."""
        if not self._mcts:
            return
        edge = _EDGE
        right_edge = self.pixels.shape[1] - _EDGE
        rows: dict[int, list[int]] = {}
        for v in range(layout.items):
            rows.setdefault(layout.row[v], []).append(v)
        slots = self._slot
        for members in rows.values():
            members.sort(key=lambda v: layout.x[v])
            # neighbours split the gap between their slots at its middle (even: yuv420p)
            cuts = [
                max(slots[a].right, (slots[a].right + slots[b].left) // 2 & ~1)
                for a, b in pairwise(members)
            ]
            lefts, rights = [edge, *cuts], [*cuts, right_edge]
            for v, lo, hi in zip(members, lefts, rights, strict=True):
                slot = slots[v]
                slots[v] = Rect(slot.top, min(slot.left, lo), slot.bottom, max(slot.right, hi))

    def _room(self, v: int) -> int:
        """Pixels of text a line centred under item ``v`` may take: its slot's room on the
        narrower side, twice (a widened slot is not symmetric), less a gap."""
        slot, x = self._slot[v], self.layout.x[v]
        return 2 * min(x + 1 - slot.left, slot.right - x - 1) - 4

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
            look_bus = (
                self._kids[p],
                self._bus_highlight(p),
                self._played_child(p),
                self._pv_child[p],
            )
            if look_bus != bus_drawn[p]:
                bus_drawn[p] = look_bus
                self._paint_bus(p, rect, look_bus[1:])
                rects.append(rect)
        self._dirty_bus.clear()

    def _look(self, v: int) -> Look | None:
        """Everything that decides the pixels of item ``v``'s slot (the item a step back
        just left has one more element: True)."""
        look = self._plain_look(v)
        return (*look, True) if look is not None and v == self._left else look

    def _plain_look(self, v: int) -> Look | None:
        """:meth:`_look` but for the mark of a step back."""
        if not self._shown[v]:
            return None
        status = 2 if self._current == v else 1 if self._on_path[v] else 0
        out = 2 if self._played_child(v) >= 0 else int(self._kids[v] > 0)
        kind = self._item_kind[v]
        pv = self._pv_state[v]
        if kind == ITEM_NODE:
            played = self._item_played(v)
            node = self._node_look(v, status, self._gid[v])
            return (status, out, *node, self._name(v), played, pv)
        n = self._count[v]
        guest = self._guest[v]
        if guest >= 0:  # a hidden node on the current path, drawn in a spot of a fold's lane
            node = self._node_look(v, status, guest)
            return (status, out, *node, "", 0, pv)
        if kind == ITEM_SPOT:
            return None
        side = min(self._body_w, self._body_h, MAX_MARK)
        if kind == ITEM_AGGREGATE:  # its nodes drawn in its lane are not counted twice
            n -= sum(self._guest[s] >= 0 for s in self.layout.spots.get(v, ()))
            line = FRONTIER_I if self._open[v] else HIDDEN_I
            mark = (SQUARE, side, side, -1, line, f"+{count(n)}", TEXT_I, 0, "", 0)
            return (status, out, *mark, pv)
        return (status, out, CROSS_SHAPE, side, side, PRUNED_I, -1, str(n), PRUNED_I, 0, "", 0, 0)

    def _node_look(self, v: int, status: int, g: int) -> tuple[Any, ...]:
        """(shape, height, width, fill, outline, note, note colour, state) of node ``g``
        drawn by item ``v`` (its own item, or a spot of a fold's lane lending it a slot)."""
        state = self._state_of[g]
        shape = SQUARE if state == LEAF_STATE else DISK
        height, width = self._body_h, self._body_w
        fill, outline = VISITED_I, -1
        note = ""
        own = self._item_kind[v] == ITEM_NODE
        if self._mcts:
            shape = SQUARE
            visits = self._visits[v] if own else self._node_visits[g]
            total = self._total[v] if own else self._node_total[g]
            heights = self._heights
            if visits:
                fill = SCALE_I + bucket(total / visits)
                share = math.log1p(visits) / math.log1p(self._root_visits)
                height = heights[min(len(heights) - 1, round(share * (len(heights) - 1)))]
                note = count(visits)
            else:
                height = heights[0]
        elif state == OPEN_FRONTIER:
            fill, outline = -1, FRONTIER_I
        elif state == DROPPED_STATE:
            shape, fill = CROSS_SHAPE, CROSS_I
        value = self._value[v] if own else None
        if value is not None and state != OPEN_FRONTIER:
            fill = SCALE_I + bucket(value)
            note = number(value)
        if own and self._searched_root(v):  # ringed (large) or outlined (small) in white
            outline = TEXT_I
        elif self._played[g]:  # a played line stays green; its edges show the path
            outline = PLAYED_I
        elif status:
            outline = PATH_I
        if self.thumbnails:  # a picture of the board: visits show in its label, not its size
            height = width
        return (shape, height, width, fill, outline, note, TEXT_I, state)

    def _name(self, v: int) -> str:
        """The label written under node item ``v`` ("" when names are off or unknown); one
        too wide for its column keeps the part that differs from its parent's label
        (:func:`distinct_cut`), so that siblings, which share their parent's start, still
        read apart, when that keeps the label's end; else its last whole words
        (:func:`word_tail`); else nothing (a fragment such as "…O…" names no node)."""
        name = self._full_name(v)
        room = self._room(v)  # as _paint_under cuts it
        if not name or self._text.width(name) <= room:
            return name
        up = self._parent[v]
        if up >= 0:
            cut = distinct_cut(name, self._full_name(up), room, self._text.width)
            if cut.startswith("…") and not cut.endswith("…"):  # the label's end, kept
                return cut
        return word_tail(name, room, self._text.width)

    def _full_name(self, v: int) -> str:
        """The whole label of node item ``v`` ("" when names are off or unknown)."""
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
        self._fill(pixels[slot.top : slot.bottom, max(0, slot.left) : slot.right], BG)
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
            self._paint_stub(v, (slot.top, body_top), status, pruned=look[2] == CROSS_SHAPE)
        if out:
            stub = PATH_I if status == 1 else EDGE_I
            if out == 2:  # down to a played child: heavy
                self._fill(pixels[body_top + height : slot.bottom, x - 2 : x + 2], PLAYED_I)
            if out == 1 or status == 1:
                self._fill(pixels[body_top + height : slot.bottom, x : x + 2], stub)
        pv = look[12]
        if pv:  # the principal variation: a line beside the edges, a base under the bar
            beside = slice(x + 2, min(x + 4, slot.right))  # (slots may be narrow)
            if self._parent[v] >= 0:
                self._fill(pixels[slot.top : body_top, beside], PV_I)
            if pv == 2:
                self._fill(pixels[body_top + height : slot.bottom, beside], PV_I)
            base = min(body_top + height, slot.bottom - 2)
            span = slice(max(0, slot.left, body_left - 2), min(slot.right, body_left + width + 2))
            self._fill(pixels[base : base + 2, span], PV_I)
        if thumb:
            self._paint_thumbnail(v, body_top, body_left, width, look)
        elif bw < 10 and status == 2:
            paint_shape(pixels, rgb, (body_top, body_left), (height, width), shape, PATH_I, -1)
        elif shape == CROSS_SHAPE and fill == PRUNED_I:
            paint_mask(pixels, body_top, body_left, cross(width, bold=True), rgb[PRUNED_I])
        else:
            line = PLAYED_I if outline == TEXT_I and bw >= 10 else outline  # ringed below
            paint_shape(pixels, rgb, (body_top, body_left), (height, width), shape, fill, line)
        if outline == TEXT_I and status != 2 and bw >= 10:  # a forced search's root
            paint_mask(pixels, top, x + 1 - bw // 2, ring(self._ring_shape, bh, bw, 2), rgb[TEXT_I])
        if status == 2 and bw >= 10:
            paint_mask(pixels, top, x + 1 - bw // 2, ring(self._ring_shape, bh, bw, 2), rgb[PATH_I])
        if len(look) > 13:  # the node a step back left: ringed in the "undone" colour
            if bw >= 10:
                mask = ring(self._ring_shape, bh, bw, 2)
                paint_mask(pixels, top, x + 1 - bw // 2, mask, rgb[UNDONE_I])
            else:
                body = (body_top, body_left), (height, width)
                paint_shape(pixels, rgb, *body, shape, UNDONE_I, -1)
        if self._notes and note:
            if self._notes_below:
                self._paint_under(self._small, note, note_color, slot, (x, top + bh + 2))
            else:
                left = x + 1 + max(width, bw if status == 2 else 0) // 2 + 2
                self._paint_note(note, note_color, slot.top, left, slot.right)
        if look[10]:
            color = PATH_I if status == 2 else TEXT_I
            self._paint_under(self._text, look[10], color, slot, (x, slot.top + self._band + 2))

    def _paint_stub(self, v: int, rows: tuple[int, int], status: int, *, pruned: bool) -> None:
        """The edge from the top of item ``v``'s slot down to its body: on the current path
        yellow, to a pruned marker dashed, to a played node heavy."""
        pixels, rgb, x = self.pixels, self._rgb, self.layout.x[v]
        if self._item_played(v):
            self._fill(pixels[rows[0] : rows[1], x - 2 : x + 2], PLAYED_I)
            if not status:
                return
        color = rgb[PATH_I if status else PRUNED_I if pruned else EDGE_I]
        paint_line(pixels, rows, (x, x + 2), color, dashed=pruned and not status)

    def _paint_thumbnail(self, v: int, top: int, left: int, size: int, look: Look) -> None:
        status, fill, outline, state = look[0], look[5], look[6], look[9]
        frame = outline if outline >= 0 else fill if fill >= 0 else VISITED_I
        if status == 0 and state == OPEN_FRONTIER:
            frame = FRONTIER_I
        elif status == 0 and state == DROPPED_STATE:
            frame = DROPPED_I
        thick = 4 if size >= 40 else 2
        picture = self._picture(v, size - 2 * thick)
        pixels, rgb = self.pixels, self._rgb
        if picture is not None:
            h, w = picture.shape[:2]
            y = top + thick + ((size - 2 * thick - h) // 2 & ~1)
            x = left + thick + ((size - 2 * thick - w) // 2 & ~1)
            pixels[y : y + h, x : x + w] = picture
        paint_mask(pixels, top, left, ring(SQUARE, size, size, thick), rgb[frame])
        if state == DROPPED_STATE:
            paint_mask(pixels, top + 4, left + 4, cross(size - 8), rgb[CROSS_I])

    def _picture(self, v: int, inner: int) -> Pixels | None:
        g = self._gid[v]
        picture = self._pictures.get((g, inner))
        if picture is None and g in self._objects and self._thumbnail is not None:
            board = np.asarray(self._thumbnail(self._objects[g]), dtype=np.uint8)
            picture = fit(board[..., :3], inner)
            self._pictures[g, inner] = picture
        return picture

    def _paint_under(
        self, font: TextInk, text: str, color: int, slot: Rect, at: tuple[int, int]
    ) -> None:
        """``text`` centred on column ``x`` from pixel row ``top`` (``at``), cut to the slot's
        width, on a background gap in the edge that passes under the item."""
        x, top = at
        room = 2 * min(x + 1 - slot.left, slot.right - x - 1) - 4  # as _room
        ink = font.ink(font.fit(text, room))
        h, w = ink.shape
        if not w:
            return
        left = x + 1 - w // 2
        gap = slice(max(0, slot.left, left - 2), min(slot.right, left + w + 2))
        self._fill(self.pixels[max(0, top - 1) : top + h + 1, gap], BG)
        shades = self._rgb[ink_ramp(color)]
        paint_ink(self.pixels, top, left, ink, shades, right=slot.right)

    def _paint_note(self, text: str, color: int, top: int, left: int, right: int) -> None:
        """``text`` left-aligned at ``left`` in the band from ``top``, if it fits before
        ``right`` (on the slot's background, cleared before the item is painted)."""
        if self._text.width(text) > right - left:
            return
        ink = self._text.ink(text)
        y = top + (self._band - ink.shape[0]) // 2
        paint_ink(self.pixels, y, left, ink, self._rgb[ink_ramp(color)], right=right)

    def _paint_bus(self, p: int, rect: Rect, marked: tuple[int, int, int]) -> None:
        """The edges from ``p`` down to its children: a bar across and a drop to each;
        pruned markers' dashed, the played child's heavy, the current path's yellow, and a
        second line beside the edge to the principal variation's child (``marked``: the
        children on the current path, played, on the PV; -1: none)."""
        highlight, played, pv = marked
        pixels, rgb = self.pixels, self._rgb
        self._fill(pixels[rect.top : rect.bottom, rect.left : rect.right], BG)
        layout = self.layout
        kids = [c for c in layout.children[p] if self._shown[c]]
        if not kids:
            return
        xp = layout.x[p]
        bar = rect.top + ((rect.bottom - rect.top - 2) // 2 & ~1)
        if played >= 0:  # under the others: the path may run along it
            xc = layout.x[played]
            lo, hi = min(xp, xc), max(xp, xc)
            self._fill(pixels[rect.top : bar + 2, xp - 2 : xp + 2], PLAYED_I)
            self._fill(pixels[max(rect.top, bar - 2) : bar + 2, lo - 2 : hi + 2], PLAYED_I)
            self._fill(pixels[bar : rect.bottom, xc - 2 : xc + 2], PLAYED_I)
        for c in sorted(kids, key=lambda c: self._item_kind[c] != ITEM_PRUNED):
            if c == played:
                continue
            cut = self._item_kind[c] == ITEM_PRUNED
            color = rgb[PRUNED_I if cut else EDGE_I]
            xc = layout.x[c]
            span = (min(xp, xc), max(xp, xc) + 2)
            paint_line(pixels, (bar, bar + 2), span, color, dashed=cut)
            paint_line(pixels, (bar + 2, rect.bottom), (xc, xc + 2), color, dashed=cut)
        if pv >= 0:  # beside the others: right of the drops, under the bar
            xc = layout.x[pv]
            self._fill(pixels[rect.top : bar + 4, xp + 2 : xp + 4], PV_I)
            self._fill(pixels[bar + 2 : bar + 4, min(xp, xc) + 2 : max(xp, xc) + 4], PV_I)
            self._fill(pixels[bar + 2 : rect.bottom, xc + 2 : xc + 4], PV_I)
        if highlight >= 0 or played < 0:
            self._fill(pixels[rect.top : bar, xp : xp + 2], PATH_I if highlight >= 0 else EDGE_I)
        if highlight >= 0:
            xc = layout.x[highlight]
            self._fill(pixels[bar : bar + 2, min(xp, xc) : max(xp, xc) + 2], PATH_I)
            self._fill(pixels[bar + 2 : rect.bottom, xc : xc + 2], PATH_I)
