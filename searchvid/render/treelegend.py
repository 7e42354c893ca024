"""The tree panel's legend: one swatch and a few words for every mark the run draws.

Entries are chosen from what the first pass saw (a beam search has dropped children, an
alpha-beta search pruned ones, ...) and from how the current layout draws nodes (dots or
board pictures), so the legend never explains a mark the panel cannot show, nor leaves one
unexplained. Each swatch repeats the mark's shape or line style, not only its colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from searchvid.render.textink import TextInk
from searchvid.render.treemarks import (
    CROSS_I,
    DISK,
    EDGE_I,
    FRONTIER_I,
    HIDDEN_I,
    PATH_I,
    PLAYED_I,
    PRUNED_I,
    PV_I,
    SCALE_I,
    SCALE_STEPS,
    SQUARE,
    TEXT_I,
    UNDONE_I,
    VISITED_I,
    Pixels,
    cross,
    ink_ramp,
    paint_ink,
    paint_line,
    paint_mask,
    paint_shape,
    ring,
)

_GAP = 12
"""Space between two entries of a line."""
_LEAD = 8
"""Length of the bit of edge drawn before a played or pruned mark."""
_MIDDLE_I = SCALE_I + SCALE_STEPS // 2
"""The value scale's middle colour (a two-player draw's grey)."""


@dataclass(frozen=True)
class LegendEntry:
    """One mark and its words.

    Attributes:
        key: Which swatch: ``current``, ``undone``, ``searched``, ``frontier``,
            ``visited``, ``leaf``, ``dropped``, ``pruned``, ``played``, ``pv``, ``hidden``,
            ``scale``, ``sizes`` or ``names``.
        text: The words after the swatch (for ``scale``, the name of the value).
    """

    key: str
    text: str


@dataclass(frozen=True)
class LegendFacts:
    """What a run draws, which decides the legend's entries.

    Attributes:
        frontier: Nodes are generated before they are expanded (hollow frontier rings).
        visited_word: The words for an expanded node without a value: ``no value yet``
            where nodes show values, ``expanded`` beside a frontier, else ``visited``.
        leaves: Some nodes are leaves or dead ends (squares).
        dropped: A beam search drops children (crosses).
        pruned: Alpha-beta cuts children off (a dashed edge to a bold cross).
        played: Moves are played (heavy edges).
        values: Nodes are coloured by value.
        value_name: ``value`` or ``mean reward``.
        mcts: Nodes are MCTS bars: size shows visits, no visited / leaf states; the
            principal variation (the line of most visits) is marked.
        undone: The search steps back (``BACKTRACK`` events): the node a step back leaves
            is ringed on that frame.
        middle: The words for the middle of a two-player value scale (``draw``), named
            beside the node with no value yet, whose grey it must not be taken for (None:
            not named; never for MCTS, whose 0.5 is a mean reward, not a result).
        names: The domain's words for reading its node labels (its ``node_names``),
            written last where the layout draws names; None: none.
    """

    frontier: bool
    visited_word: str
    leaves: bool
    dropped: bool
    pruned: bool
    played: bool
    values: bool
    value_name: str
    mcts: bool
    undone: bool = False
    middle: str | None = None
    names: str | None = None


def legend_entries(
    facts: LegendFacts,
    *,
    hidden: bool,
    thumbnails: bool,
    counts: bool = True,
    searched: bool = False,
    named: bool = False,
) -> list[LegendEntry]:
    """The entries for a run's ``facts``, for a layout with ``+k`` items (``hidden``) and
    drawing ``thumbnails`` or not (a picture's frame shows its state, but not a leaf).

    ``counts`` says whether the layout writes numbers beside its marks (its sizes'
    ``notes``): only then do the entries promise one (the pruned mark's count, a fold's
    ``+k``, a bar's visits); a tree too large for them says what the marks alone show.
    ``searched``: a forced decision is shown in the tree before it, with the node its
    search started from ringed in white. ``named``: the layout writes node names (the
    domain's words for them close the legend, in words alone)."""
    entries = [LegendEntry("current", "current")]
    if facts.undone:
        entries.append(LegendEntry("undone", "undone"))
    if facts.frontier:
        entries.append(LegendEntry("frontier", "frontier"))
    if not facts.mcts:
        entries.append(LegendEntry("visited", facts.visited_word))
        if facts.values and facts.middle:  # the scale's grey middle, beside that grey
            entries.append(LegendEntry("middle", facts.middle))
        if facts.leaves and not thumbnails:  # a picture has no leaf shape
            entries.append(LegendEntry("leaf", "leaf / dead end"))
    if facts.dropped:
        entries.append(LegendEntry("dropped", "dropped"))
    if facts.pruned:
        entries.append(LegendEntry("pruned", "pruned (count)" if counts else "pruned"))
    if facts.played:
        entries.append(LegendEntry("played", "played"))
    if searched:
        entries.append(LegendEntry("searched", "this move's search root"))
    if facts.mcts:
        entries.append(LegendEntry("pv", "most visits"))
    if hidden:
        # k counts nodes (a reader took "+k hidden" for k visits)
        entries.append(LegendEntry("hidden", "+k more nodes" if counts else "more nodes"))
    if facts.values:
        entries.append(LegendEntry("scale", facts.value_name))
    if facts.mcts:
        # moves played from a kept tree: a node's visits include those of earlier moves'
        # iterations, so a root may count more than one move's iterations
        # the number under a bar is its visits too: named, or it reads as a node's id; a
        # visit counts when its iteration ends (a frame inside "iteration 177/300" shows the
        # root's 176 done: said, or the reader finds one missing)
        sizes = "height, number: visits done" if counts else "height: visits done"
        sizes += ", kept from earlier moves" if facts.played else ""
        entries.append(LegendEntry("sizes", sizes))
    if named and facts.names:
        entries.append(LegendEntry("names", facts.names))
    return entries


class TreeLegend:
    """Lays out and draws legend entries in lines across a panel ``width`` wide.

    Args:
        text: The legend's font.
        width: The room for a line, in pixels.
        ends: Words for the two ends of the value scale (value 0, value 1).
        rgb: The panel's colour table (indices from :mod:`~searchvid.render.treemarks`).
    """

    def __init__(self, text: TextInk, width: int, *, ends: tuple[str, str], rgb: Pixels) -> None:
        self.text = text
        self.width = width
        self.ends = ends
        self._rgb = rgb
        self.swatch = max(10, text.height & ~1)
        """Side of a swatch: about the height of the text beside it."""
        self.line_height = max(text.height, self.swatch) + 4 & ~1

    # -- measuring ----------------------------------------------------------------------

    def _swatch_width(self, key: str) -> int:
        s, text = self.swatch, self.text
        if key == "scale":
            low, high = self.ends
            return text.width(low) + 4 + self._step() * SCALE_STEPS + 4 + text.width(high)
        if key == "sizes":
            return 18
        if key == "names":  # words alone: the names under the nodes are their sample
            return -4
        if key in ("played", "pruned", "pv"):
            return _LEAD + s
        return s

    def _step(self) -> int:
        return max(6, self.swatch // 2 + 1 & ~1)

    def entry_width(self, entry: LegendEntry) -> int:
        """Pixels an entry takes in its line, the gap after it included."""
        words = self.text.width(entry.text)
        if entry.key == "scale":  # the name first: "value  O wins ▮▮▮ X wins"
            return words + 8 + self._swatch_width("scale") + _GAP
        return self._swatch_width(entry.key) + 4 + words + _GAP

    def lines(self, entries: list[LegendEntry]) -> list[list[LegendEntry]]:
        """The entries in lines, each at most :attr:`width` wide (but for a single entry)."""
        lines: list[list[LegendEntry]] = [[]]
        used = 0
        for entry in entries:
            width = self.entry_width(entry)
            if lines[-1] and used + width - _GAP > self.width:
                lines.append([])
                used = 0
            lines[-1].append(entry)
            used += width
        return lines

    def height(self, entries: list[LegendEntry]) -> int:
        """Height of the legend of ``entries``."""
        return len(self.lines(entries)) * self.line_height + 2

    # -- drawing ------------------------------------------------------------------------

    def draw(
        self,
        pixels: Pixels,
        at: tuple[int, int],
        entries: list[LegendEntry],
        *,
        node_shape: int,
        thumbnails: bool,
    ) -> None:
        """Draw ``entries`` from ``at`` ``(top, left)``; nodes are drawn as ``node_shape``
        (``DISK`` or ``SQUARE``), board pictures as frames when ``thumbnails``."""
        top0, left = at
        for n, line in enumerate(self.lines(entries)):
            top = top0 + 2 + n * self.line_height
            if top < 0:
                continue  # a panel too small for its legend
            swatch_top = top + (self.line_height - self.swatch) // 2 & ~1
            x = left
            for entry in line:
                if entry.key == "scale":
                    x = self._words(pixels, top, x, entry.text) + 8 & ~1
                    x = self._scale(pixels, top, swatch_top, x)
                else:
                    if entry.key != "names":
                        self._swatch(pixels, entry.key, (swatch_top, x), node_shape, thumbnails)
                    x = self._words(pixels, top, x + self._swatch_width(entry.key) + 4, entry.text)
                x = x + _GAP & ~1

    def _words(self, pixels: Pixels, top: int, x: int, words: str) -> int:
        ink, width = self.text.ink(words), self.text.width(words)
        y = top + (self.line_height - ink.shape[0]) // 2
        if x + width <= pixels.shape[1]:  # (the gap after the words holds ink's fringe)
            paint_ink(pixels, y, x, ink, self._rgb[ink_ramp(TEXT_I)])
        return x + width

    def _scale(self, pixels: Pixels, top: int, swatch_top: int, x: int) -> int:
        low, high = self.ends
        x = self._words(pixels, top, x, low) + 4 & ~1
        s, step, rgb = self.swatch, self._step(), self._rgb
        for k in range(SCALE_STEPS):
            pixels[swatch_top : swatch_top + s, x + k * step : x + (k + 1) * step] = rgb[
                SCALE_I + k
            ]
        x += SCALE_STEPS * step + 4
        return self._words(pixels, top, x, high)

    def _swatch(
        self, pixels: Pixels, key: str, at: tuple[int, int], node_shape: int, thumbnails: bool
    ) -> None:
        """Draw the swatch of ``key`` with its top-left corner at ``at``."""
        top, x = at
        s, rgb = self.swatch, self._rgb
        box = node_shape  # a node as the panel draws it: disk, bar or picture frame
        if key in ("current", "undone", "searched"):
            color = {"current": PATH_I, "undone": UNDONE_I, "searched": TEXT_I}[key]
            paint_mask(pixels, top, x, ring(node_shape, s, s, 2), rgb[color])
            paint_shape(pixels, rgb, (top + 4, x + 4), (s - 8, s - 8), node_shape, VISITED_I, -1)
        elif key == "pruned":  # a dashed edge into a bold cross
            middle = top + s // 2 - 1 & ~1
            paint_line(pixels, (middle, middle + 2), (x, x + _LEAD), rgb[PRUNED_I], dashed=True)
            paint_mask(pixels, top, x + _LEAD, cross(s, bold=True), rgb[PRUNED_I])
        elif key == "played":  # a heavy edge into an outlined node
            middle = top + s // 2 - 2 & ~1
            pixels[middle : middle + 4, x : x + _LEAD] = rgb[PLAYED_I]
            paint_shape(pixels, rgb, (top, x + _LEAD), (s, s), box, VISITED_I, PLAYED_I)
        elif key == "pv":  # an edge with a second line beside it, into a bar on a base
            middle = top + s // 2 - 2 & ~1
            pixels[middle : middle + 2, x : x + _LEAD + 2] = rgb[EDGE_I]
            pixels[middle + 2 : middle + 4, x : x + _LEAD + 2] = rgb[PV_I]
            bar = s - 4
            paint_shape(
                pixels, rgb, (top + 2, x + _LEAD + 2), (bar - 2, bar), SQUARE, VISITED_I, -1
            )
            pixels[top + bar : top + bar + 2, x + _LEAD : x + _LEAD + bar + 4] = rgb[PV_I]
        elif key == "sizes":
            for k, size in enumerate((2, 6, 10)):
                paint_shape(
                    pixels, rgb, (top + s - size, x + k * 6), (size, 4), SQUARE, VISITED_I, -1
                )
        elif key == "dropped":
            paint_mask(pixels, top, x, cross(s), rgb[CROSS_I])
        else:
            shape, fill, line = {
                "frontier": (box, -1, FRONTIER_I),
                "visited": (box, -1, VISITED_I) if thumbnails else (DISK, VISITED_I, -1),
                "middle": (box, -1, _MIDDLE_I) if thumbnails else (DISK, _MIDDLE_I, -1),
                "leaf": (SQUARE, VISITED_I, -1),
                "hidden": (SQUARE, -1, HIDDEN_I),
            }[key]
            paint_shape(pixels, rgb, (top, x), (s, s), shape, fill, line)
