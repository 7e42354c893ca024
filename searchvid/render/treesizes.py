"""How big the tree panel draws the items of one layout, and which texts fit beside them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from searchvid.render.textink import TextInk
from searchvid.render.treelayout import TreeLayout
from searchvid.render.treemarks import body, size4

EDGE_BAND = 6
"""Smallest gap between two rows: a stub, the 2 px bar, a stub."""
MIN_THUMB = 24
"""Smallest board picture worth drawing; smaller trees of pictures become dots."""
MAX_DOT = 30
MAX_BAR = 146
MAX_MARK = 14
"""Largest side of a mark (``+k`` square, pruned cross)."""
NAME_ROOM = "abcde"
"""Names are drawn only where a column holds at least this much text."""


@dataclass(frozen=True)
class Sizes:
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


@dataclass(frozen=True)
class SizeRules:
    """What a panel draws, which decides its sizes.

    Attributes:
        text: The font of notes beside items, names and the legend.
        small: The font of notes under items.
        thumbnails: Whether a board picture is available for each node.
        thumbnail_limit: Most items drawn as pictures or with names.
        names: Whether names are wanted (every decision's tree is small and a label given).
        mcts: Whether items are MCTS bars (height: visits).
        values: Whether nodes carry values (notes beside them).
        pruned: Whether the stream prunes (counts beside the markers).
    """

    text: TextInk
    small: TextInk
    thumbnails: bool
    thumbnail_limit: int
    names: bool
    mcts: bool
    values: bool
    pruned: bool


def thumbnail_pitch() -> tuple[int, int]:
    """The smallest column and row pitch at which :func:`sizes_for` draws board pictures:
    the smallest box whose body is :data:`MIN_THUMB`, plus its gaps (as there)."""
    box = size4(MIN_THUMB)
    while body(box) < MIN_THUMB:
        box += 4
    return box + 4, box + EDGE_BAND


def sizes_for(layout: TreeLayout, rules: SizeRules) -> Sizes:
    """Box sizes and the text that fits, from a layout's pitches."""
    sx, sy = layout.pitch_x, layout.pitch_y
    text = rules.text
    line = text.height + 4 + (text.height % 2)  # a line of text under the boxes, gaps
    thumbnails = False
    box = 2
    if rules.thumbnails and not layout.aggregates and layout.items <= rules.thumbnail_limit:
        box = size4(min(sx - 4, sy - EDGE_BAND, 104))
        thumbnails = body(box) >= MIN_THUMB
    if not thumbnails:
        box = size4(min(sx - 2, sy - EDGE_BAND, MAX_DOT))
    # a board picture names its node better than any text cut to a column
    names = rules.names and not thumbnails and sx - 4 >= text.width(NAME_ROOM)
    if names and sy - box - line < EDGE_BAND:  # smaller boxes, to keep the names
        smaller = size4(sy - line - EDGE_BAND)
        if smaller >= 10:
            box = smaller
        else:
            names = False
    names_room = line if names else 0
    widest_note = "1.2k" if rules.mcts else "0.55" if rules.values else "+99"
    note_width = text.width(widest_note)
    wants_notes = rules.values or bool(layout.aggregates) or rules.pruned
    room = sx // 2 - box // 2 - 2
    if wants_notes and room < note_width and box >= 14 and not thumbnails and not rules.mcts:
        smaller = size4(sx - 2 * note_width - 6)
        if smaller >= 10:
            box = smaller
            room = sx // 2 - box // 2 - 2
    small = rules.small
    note_line = small.height + 4 + (small.height % 2)
    widest = small.width("+" + widest_note if rules.mcts else widest_note)
    below = (
        wants_notes
        and room < note_width
        and not thumbnails
        and sx - 4 >= widest
        and sy - box - note_line - names_room >= EDGE_BAND
    )
    notes_room = note_line if below else 0
    tall = box
    if rules.mcts and not thumbnails:  # bars: height shows visits
        tall = size4(min(sy - EDGE_BAND - names_room - notes_room, 6 * box + 2, MAX_BAR))
        tall = max(box, tall)
    band = tall + notes_room
    # each note is drawn where it fits beside its item: some must fit beside a mark
    notes = below or (wants_notes and sx // 2 - min(box, MAX_MARK) // 2 - 2 >= text.width("0"))
    if notes and not below and text.height > band:
        band = tall + 4 * math.ceil((text.height - tall) / 4)
        if sy - band - names_room < EDGE_BAND:
            notes, band = False, tall
    return Sizes(thumbnails, box, tall, band, notes, below, names, names_room)
