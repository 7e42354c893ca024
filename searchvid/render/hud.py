"""The status strip under a board: the title, the phase and named fields, and a caption.

::

    Water Sort: the optimal 39 pours (A*)
    A* searching   step 1,204   depth 12   g 12   h 7   f 19   frontier 88   tubes done 5/12
    expand: pour tube 3 into tube 7

Every number has a name and one format (:class:`~searchvid.search.status.Field`). Text is set
by FreeType in the frame's font (:mod:`searchvid.render.textink`): whole strings, with the
font's kerning and advances, anti-aliased to :data:`~searchvid.render.textink.LEVELS` levels
of ink, so the strip needs only the :data:`HUD_COLORS` (its three colours and the blends
between each text colour and the background) and a GIF shows the same pixels as a PNG. The
font's figures are tabular, so a counter's digits keep their places.

Text is 1/50 of the frame's width tall (:data:`TEXT_SHARE`), never under
:data:`~searchvid.render.textink.MIN_TEXT` nor over :data:`MAX_FONT` pixels, so the strip
stays legible when a blog shows the video 720 px wide (:attr:`Hud.text_heights`). The strip
is as tall as what it is sized for (:class:`StripContent`): a title wraps onto as many lines
as it needs (up to three), and the fields flow over as many lines as the expected fields fill,
spread evenly so that no line stays empty; a caption gets the lines the closing card's recap
of the settings fills (up to three), broken between its phrases, so that no setting is
dropped for want of width. Each field has a slot with room for a
four-digit number, or less where less is known (:mod:`searchvid.render.slotroom`), so
values changing length rarely move the fields after them; only the slots whose text
changed are redrawn. Columns side by side (a race) get up to 8 status lines, not 6: their
cards say more (the column's place and work).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from searchvid.render.atlas import RGB
from searchvid.render.canvas import Rect
from searchvid.render.linewrap import (
    greedy,
    last_aside,
    last_clause,
    shortened,
    wrap_phrases,
    wrap_words,
)
from searchvid.render.slotroom import room_for, sized_rooms
from searchvid.render.textink import LEVELS, MIN_TEXT, TextInk, ellipsized, ramp
from searchvid.search.status import Field, format_number

_BACKGROUND_RGB: RGB = (24, 24, 24)
_TITLE_RGB: RGB = (255, 255, 255)
_STATUS_RGB: RGB = (190, 190, 190)

HUD_COLORS: tuple[RGB, ...] = (
    _BACKGROUND_RGB,
    _TITLE_RGB,
    _STATUS_RGB,
    *ramp(_TITLE_RGB, _BACKGROUND_RGB)[1:-1],
    *ramp(_STATUS_RGB, _BACKGROUND_RGB)[1:-1],
)
"""Background, title and status colours, then the title's and the status's anti-aliasing
blends over the background (greys all, so 4:2:0 chroma stays exact)."""

TEXT_SHARE = 50
"""Text is 1/TEXT_SHARE of the frame's width tall (at least MIN_TEXT pixels)."""

MAX_FONT = 64
"""Text never grows beyond this many pixels, however wide the frame."""

MAX_TITLE_LINES = 3
"""Lines a title may wrap onto; a longer title is cut with "…" at the end of the last."""

MAX_CAPTION_LINES = 3
"""Lines a caption may wrap onto (where the strip is sized for a closing recap that long);
a longer caption loses its asides, then is cut with "…"."""

_BACKGROUND, _TITLE, _STATUS = 0, 1, 2
_TITLE_BLENDS = 3  # index of the title's first blend; the status's follow the title's
_STATUS_BLENDS = _TITLE_BLENDS + LEVELS - 1
_INK: dict[int, npt.NDArray[np.uint8]] = {
    color: np.array([_BACKGROUND, *range(blends, blends + LEVELS - 1), color], dtype=np.uint8)
    for color, blends in ((_TITLE, _TITLE_BLENDS), (_STATUS, _STATUS_BLENDS))
}
"""Each text colour's strip index for each ink level, background (level 0) to full ink."""

_MAX_STATUS_LINES = 6
_MAX_RACE_LINES = 8  # a race column's closing card says more: its place and its work
_RACE_CARD = ("race: 1st of 3 by work", "work 00,000 expansions")  # what it adds
_CACHE = 4096
_INK_CACHE = 1024  # texts kept drawn: the fields' values that recur
_MAX_TOUCHED = 64  # rectangles noted before they are merged into the whole strip

__all__ = [
    "HUD_COLORS",
    "MAX_CAPTION_LINES",
    "MAX_FONT",
    "MAX_TITLE_LINES",
    "TEXT_SHARE",
    "Hud",
    "HudText",
    "StripContent",
    "expected_status",
    "format_number",
]


@dataclass(frozen=True, slots=True)
class HudText:
    """What the strip shows for one frame.

    Attributes:
        title: First line: the scene's title.
        phase: What the search is doing, e.g. ``"A* searching"``, ``"solution"``.
        fields: The named quantities, in order (search counters, then the algorithm's and the
            domain's fields, then value and best).
        caption: The caption line (None: no caption line).
    """

    title: str
    phase: str
    fields: tuple[Field, ...]
    caption: str | None = None

    def status_texts(self) -> tuple[str, ...]:
        """The phase and each field as drawn."""
        return (self.phase, *(f.text() for f in self.fields))


@dataclass(frozen=True, slots=True)
class StripContent:
    """What a strip is sized for, before any frame is drawn.

    Attributes:
        title: The title it shows.
        status: Status texts like the ones it will show (the phase, then ``name value`` for
            each field): the strip gets as many status lines as these fill.
        extra_lines: Whole status lines added for texts a typical search does not show (an
            opening card's statement that a goal is out of reach).
        card: The opening card's status texts: the strip gets the lines they fill where
            they need more than ``status`` (a card is never cut to the running lines).
        recap: The closing card's caption (the algorithm and its settings, known before
            the run): a strip with a caption line gets as many caption lines as it fills
            (up to :data:`MAX_CAPTION_LINES`), so that it is shown whole.
    """

    title: str = ""
    status: tuple[str, ...] = ()
    extra_lines: int = 0
    card: tuple[str, ...] = ()
    recap: str = ""


def expected_status(algorithm: str, *, values: bool, narrated: bool) -> tuple[str, ...]:
    """Status texts like the longest a search by ``algorithm`` (its name as readers know it)
    usually shows, for sizing a strip before the search runs.

    Searches that rank nodes (``values``) show the phase, step and depth, four fields of the
    algorithm's, three of the domain's where it has words (``narrated``), and value and best,
    in a few words where the domain has them (a game's last frame says who won); searches
    that rank nothing (an explicit tree) show fewer: two of the algorithm's and one of the
    domain's.
    """
    texts = [f"{algorithm} searching", "step 00,000", "depth 00"]
    if not values:
        texts += ["frontier 0,000", "level 00"]
        return (*texts, "at a node's name") if narrated else tuple(texts)
    texts += ["frontier 0,000", "iterations 000/000", "visits 0,000", "mean reward 0.000"]
    if narrated:
        texts += ["exits joined 0/12", "score 0,000", "pieces left 00"]
        return (*texts, "value: a few words", "best: a few words")
    return (*texts, "value 0.000", "best 0.000")


_DEFAULT_CONTENT = StripContent("", expected_status("search", values=True, narrated=True))

_Slot = tuple[str, int, int]  # text, left, right


class Hud:
    """Draws the status strip of a column ``width`` pixels wide.

    Args:
        width: The strip's width (the column's).
        frame_width: The whole frame's width: the text is 1/50 of it tall.
        captions: Whether the strip has a caption line.
        title_only: A strip holding just a title (the title bar over several searches side
            by side).
        contents: What the strips of this size in the frame show (each column's title and
            expected status texts): this strip gets the lines the largest of them needs, so
            that strips side by side are of one height. None: a title of one line and the
            status of a typical search.

    Attributes:
        height: Rows of the strip (even).
        strip: ``(height, width)`` uint8 indices into :data:`HUD_COLORS`.
        title_lines: Lines for the title.
        status_lines: Lines for the phase and the fields.
    """

    def __init__(
        self,
        width: int,
        frame_width: int | None = None,
        *,
        captions: bool = False,
        title_only: bool = False,
        contents: Sequence[StripContent] | None = None,
    ) -> None:
        self.width = width
        share = math.ceil((frame_width or width) / TEXT_SHARE)
        self.size = min(max(MIN_TEXT, share), MAX_FONT)
        self._text = TextInk(self.size)
        leading = self.size // 8  # a little air between lines: descenders never meet capitals
        self._line = self._text.line + leading
        self._pad = max(2, self.size // 3)
        self._gap = self.size
        self.captions = captions and not title_only
        self._slot_widths: dict[str, int] = {}
        self._inks: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}
        self._flows: dict[tuple[int, ...], tuple[list[list[int]], bool]] = {}
        self._tight_flows: dict[tuple[int, ...], list[list[int]]] = {}
        self._folds: dict[str, tuple[str, ...]] = {}
        sized = list(contents) if contents else [_DEFAULT_CONTENT]
        self._race = len(sized) > 1  # columns side by side: see _RACE_CARD
        if self._race:
            sized = [replace(c, status=(*c.status, *_RACE_CARD)) for c in sized]
        self._rooms = sized_rooms(text for c in sized for text in c.status)
        self.title_lines = max(1, *(len(self._wrap(c.title)) for c in sized))
        need = self._lines_needed  # a card of no texts needs 1 line: no more than any status
        needed = (max(need(c.status, c.extra_lines), need(c.card)) for c in sized)
        self.status_lines = 0 if title_only else max(1, *needed)
        self._recaps = frozenset(c.recap for c in sized if c.recap)
        self.caption_lines = (
            min(MAX_CAPTION_LINES, max(1, *(len(self._caption(c.recap, 0)) for c in sized)))
            if self.captions
            else 0
        )
        lines = self.title_lines + self.status_lines + self.caption_lines
        self.height = 2 * self._pad + lines * self._line
        self.height += self.height % 2
        self.strip: npt.NDArray[np.uint8] = np.zeros((self.height, width), dtype=np.uint8)
        self._shown: tuple[str, tuple[str, ...], str | None] = ("", (), None)
        self._rows: list[list[_Slot]] = []  # status lines as last drawn
        self._drawn_once = False
        self._touched: list[Rect] = []  # rectangles drawn since take_changed()

    @property
    def text_sizes(self) -> tuple[int, ...]:
        """The pixel size (em height) of every font the strip writes with, smallest first."""
        return (self.size,)

    @property
    def text_heights(self) -> tuple[int, ...]:
        """The ink height of a line (ascenders to descenders) of every font the strip writes
        with (title, status and caption), smallest first."""
        return (self._text.height,)

    def update(self, text: HudText) -> bool:
        """Redraw the lines whose text changed; True if anything changed."""
        title, status, caption = text.title, text.status_texts(), text.caption
        old_title, old_status, old_caption = self._shown
        first = not self._drawn_once
        changed = first
        if title != old_title or first:
            self._draw_title(title)
            changed = True
        if self.status_lines and (status != old_status or first):
            self._draw_status(status)
            changed = True
        if self.captions and (caption != old_caption or first):
            lines = self._caption(caption or "", self.caption_lines)
            for index in range(self.caption_lines):
                words = lines[index] if index < len(lines) else ""
                line = self.title_lines + self.status_lines + index
                self._draw_line(line, [(words, self._pad, self.width - self._pad)], _STATUS)
            changed = True
        self._shown = (title, status, caption)
        self._drawn_once = True
        return changed

    def take_changed(self) -> list[Rect]:
        """The rectangles of :attr:`strip` drawn over since the last call (strip
        coordinates): every pixel that may have changed lies in one of them, so that the
        frame compares and converts only those (:meth:`IndexStrip.show`)."""
        touched, self._touched = self._touched, []
        return touched

    def _touch(self, rect: Rect) -> None:
        """Note a rectangle drawn over; many (a strip nobody takes them from) become one,
        the whole strip."""
        if len(self._touched) >= _MAX_TOUCHED:
            self._touched = [Rect(0, 0, self.height, self.width)]
        else:
            self._touched.append(rect)

    # -- layout ---------------------------------------------------------------------------

    def _wrap(self, title: str) -> list[str]:
        """``title`` broken at spaces into lines that fit (at most MAX_TITLE_LINES, the
        last cut with "…" if the title is longer still)."""
        usable = self.width - 2 * self._pad
        lines: list[str] = []
        words = title.split()
        while words:
            if len(lines) == MAX_TITLE_LINES - 1:
                lines.append(self._cut(" ".join(words), usable))
                break
            count = 1
            while count < len(words) and self._measure(" ".join(words[: count + 1])) <= usable:
                count += 1
            lines.append(self._cut(" ".join(words[:count]), usable))
            words = words[count:]
        return lines or [""]

    def _lines_needed(self, texts: Sequence[str], extra: int = 0) -> int:
        """Status lines ``texts`` fill at their slots' widths, plus ``extra`` whole lines."""
        most = _MAX_RACE_LINES if self._race else _MAX_STATUS_LINES
        if not texts:
            return min(most, 1 + extra)
        slots = self._slots(texts)
        return min(most, len(greedy(slots, self._usable, self._gap)) + extra)

    @property
    def _usable(self) -> int:
        return self.width - 2 * self._pad

    def _slots(self, texts: Sequence[str]) -> list[int]:
        """Each text's slot: its width, and for a field at least room for a four-digit
        value after its name, so that values growing to four digits move nothing; less
        where a shorter room is known (:func:`~searchvid.render.slotroom.room_for`), so
        that ``depth 2`` or ``round 1/7`` leaves no wide hole before the next field."""
        slots = [min(self._measure(texts[0]), self._usable)] if texts else []
        if texts and isinstance(texts[0], _Piece):
            slots[0] = self._usable
        known = self._slot_widths
        for text in texts[1:]:
            # a line of a folded text fills its line: nothing follows it there
            slot = self._usable if isinstance(text, _Piece) else known.get(text)
            if isinstance(text, _Tail):  # words, not a counter: no room for a value to grow
                slot = min(self._measure(text), self._usable)
            if slot is None:
                name, _, value = text.rpartition(" ")
                room = self._measure(f"{name} {room_for(value, self._rooms.get(name))}".lstrip())
                slot = min(max(self._measure(text), room), self._usable)
                if len(known) >= _CACHE:
                    known.clear()
                known[text] = slot
            slots.append(slot)
        return slots

    def _folded(self, texts: Sequence[str]) -> tuple[str, ...]:
        """``texts`` with each text wider than a line broken at spaces into texts that fit
        (a long problem line in a narrow race column may go on over two lines, not cut,
        where the strip has lines to spare: the strip is not made taller for it)."""
        out: list[str] = []
        folds = self._folds
        for text in texts:
            parts = folds.get(text)
            if parts is None:
                parts = (text,)
                if len(folds) >= _CACHE:
                    folds.clear()
                if self._measure(text) > self._usable and " " in text:
                    lines = self._wrap_words(text)
                    # its last line is a text like any other: the next may follow on it
                    parts = (*(_Piece(line) for line in lines[:-1]), _Tail(lines[-1]))
                folds[text] = parts
            out.extend(parts)
        return tuple(out)

    def _fits(self, texts: Sequence[str]) -> bool:
        """Whether ``texts`` fill no more than the strip's status lines."""
        return len(self._flow(self._slots(texts))) <= self.status_lines

    def _fitted(self, texts: tuple[str, ...]) -> tuple[str, ...]:
        """``texts`` as the status lines take them, when some are wider than a line: folded
        over lines the strip has to spare (:meth:`_folded`; the strip is not made taller
        for it); where that overfills the strip, the wide texts lose their asides (their
        parenthesised parts, the last text's last first) until they do fit folded; failing
        that, the wide texts are folded first first while they fit, and the rest are cut
        with "…" when drawn. Texts that each fit a line are returned as they are."""
        folded = self._folded(texts)
        if len(folded) == len(texts) or self._fits(folded):
            return folded
        current = list(texts)
        while True:
            wide = [
                i
                for i, text in enumerate(current)
                if self._measure(text) > self._usable and last_aside(text) is not None
            ]
            if not wide:
                break
            text = current[wide[-1]]
            start, end = last_aside(text) or (0, 0)
            current[wide[-1]] = text[:start] + text[end:]
            folded = self._folded(current)
            if self._fits(folded):
                return folded
        groups: list[tuple[str, ...]] = [(text,) for text in current]
        for i, text in enumerate(current):
            parts = self._folded((text,))
            trial = [*groups[:i], parts, *groups[i + 1 :]]
            if len(parts) > 1 and self._fits([part for group in trial for part in group]):
                groups = trial
        return tuple(part for group in groups for part in group)

    def _wrap_words(self, text: str) -> list[str]:
        """``text`` broken at spaces into lines of at most a line's width
        (:func:`~searchvid.render.linewrap.wrap_words`)."""
        return wrap_words(text, self._usable, self._measure)

    def _tight(self, texts: Sequence[str]) -> list[int]:
        """Each text's slot without spare room: its own width."""
        return [min(self._measure(text), self._usable) for text in texts]

    def _layout(self, texts: tuple[str, ...]) -> list[list[_Slot]]:
        """Each status line's ``(text, left, right)`` slots for ``texts``.

        The texts flow in order over the strip's status lines, spread so that every line
        holds some when there are enough; texts that fill more lines than the strip has
        first lose their slots' spare room, then (the last ones) their place."""
        slots = self._slots(texts)
        key = tuple(slots)
        flow = self._flows.get(key)
        if flow is None:
            rows = self._flow(slots)
            if len(self._flows) >= _CACHE:
                self._flows.clear()
            flow = self._flows[key] = (rows, len(rows) > self.status_lines)
        rows, tight = flow
        if tight:  # slots without spare room, then drop what still overflows
            # laid out by these texts' own widths: rows kept from other texts of the same
            # roomy slots could overfill a line (a strip drawn frame after frame would then
            # differ from the same frame drawn alone)
            slots = self._tight(texts)
            tight_key = tuple(slots)
            tight_rows = self._tight_flows.get(tight_key)
            if tight_rows is None:
                if len(self._tight_flows) >= _CACHE:
                    self._tight_flows.clear()
                tight_rows = self._tight_flows[tight_key] = self._flow(slots)[: self.status_lines]
            rows = tight_rows
        laid: list[list[_Slot]] = []
        for row in rows:
            left, line = self._pad, []
            for i in row:
                right = min(left + slots[i], self.width - self._pad)
                line.append((texts[i], left, right))
                left = right + self._gap
            laid.append(line)
        return laid

    def _flow(self, slots: list[int]) -> list[list[int]]:
        """Indices of ``slots`` per line: over at most the strip's status lines if they fit,
        on the narrowest measure that keeps them within that many lines."""
        rows = greedy(slots, self._usable, self._gap)
        if len(rows) >= self.status_lines:
            return rows
        low, high = max(slots), self._usable  # a line as short as the lines allow
        while low < high:
            middle = (low + high) // 2
            if len(greedy(slots, middle, self._gap)) <= self.status_lines:
                high = middle
            else:
                low = middle + 1
        return greedy(slots, low, self._gap)

    def _measure(self, text: str) -> int:
        """Pixels ``text`` takes when set as a whole (kerning included)."""
        return self._text.advance(text)

    def _caption(self, caption: str, lines: int) -> list[str]:
        """``caption`` as drawn on at most ``lines`` lines (0: as many as it fills): on one
        line where it fits one; else broken between its phrases
        (:func:`~searchvid.render.linewrap.wrap_phrases`); where that takes more than
        ``lines`` lines, without its asides until it fits
        (:func:`~searchvid.render.linewrap.shortened`), the last line cut with "…" if it
        still does not. A recap the strip was sized for (:attr:`StripContent.recap`) that
        keeps none of its settings is not drawn at all: a bare algorithm's name reads as
        cut, and the opening card states the settings."""
        usable, measure = self._usable, self._measure
        if measure(caption) <= usable:
            return [caption]
        if lines != 1:
            wrapped = wrap_phrases(caption, usable, measure)
            if lines == 0 or len(wrapped) <= lines:
                return [self._cut(line, usable) for line in wrapped]
        short = shortened(caption, usable, measure, lines)
        if caption in self._recaps and last_aside(short) is None and last_clause(short) is None:
            return [""]
        wrapped = wrap_phrases(short, usable, measure) if lines > 1 else [short]
        if len(wrapped) > lines:
            wrapped = [*wrapped[: lines - 1], " ".join(wrapped[lines - 1 :])]
        return [self._cut(line, usable) for line in wrapped]

    def _cut(self, text: str, width: int) -> str:
        """``text``, or its longest prefix ended with "…" that fits ``width`` pixels ("…"
        alone when nothing fits)."""
        return ellipsized(text, width, self._measure) or "…"

    # -- drawing --------------------------------------------------------------------------

    def _draw_title(self, title: str) -> None:
        lines = self._wrap(title)
        if len(lines) > self.title_lines:  # a title longer than the strip was sized for
            rest = " ".join(lines[self.title_lines - 1 :])
            lines = [*lines[: self.title_lines - 1], self._cut(rest, self._usable)]
        for index in range(self.title_lines):
            text = lines[index] if index < len(lines) else ""
            self._draw_line(index, [(text, self._pad, self.width - self._pad)], _TITLE)

    def _draw_status(self, texts: tuple[str, ...]) -> None:
        """Lay the status texts out over the strip's status lines and draw them.

        The slots depend on the current texts alone, so a strip drawn from scratch equals one
        drawn frame after frame (previews equal renders). A line whose slots did not move is
        updated slot by slot: a slot's text never reaches past its slot.
        """
        texts = self._fitted(texts)
        rows = self._layout(texts)
        for r in range(self.status_lines):
            parts = rows[r] if r < len(rows) else []
            old = self._rows[r] if r < len(self._rows) else None
            if old is None or [p[1:] for p in old] != [p[1:] for p in parts]:
                self._draw_line(self.title_lines + r, parts, _STATUS)
                continue
            line = self._line_rows(self.title_lines + r)
            for (text, left, right), (was, _, _) in zip(parts, old, strict=True):
                if text != was:
                    line[:, left:right] = _BACKGROUND
                    self._draw_text(line, text, left, right, _STATUS)
                    top = self._pad + (self.title_lines + r) * self._line
                    self._touch(Rect(top, left, top + self._line, right))
        self._rows = rows

    def _line_rows(self, index: int) -> npt.NDArray[np.uint8]:
        top = self._pad + index * self._line
        return self.strip[top : top + self._line]

    def _draw_line(self, index: int, parts: Sequence[_Slot], color: int) -> None:
        """Clear line ``index`` and draw each ``(text, left, right)`` part on it."""
        line = self._line_rows(index)
        line[:] = _BACKGROUND
        top = self._pad + index * self._line
        self._touch(Rect(top, 0, top + self._line, self.width))
        for text, left, right in parts:
            self._draw_text(line, text, left, right, color)

    def _draw_text(
        self, line: npt.NDArray[np.uint8], text: str, left: int, right: int, color: int
    ) -> None:
        """Set ``text`` in ``color`` from ``left`` on a cleared line, clipped at ``right``."""
        if self._measure(text) > right - left:
            text = self._cut(text, right - left)
        inks = self._inks
        ink = inks.get((text, color))
        if ink is None:
            ink = _INK[color][self._text.shade(text, keep=False)]
            if len(inks) >= _INK_CACHE:
                del inks[next(iter(inks))]  # the oldest: counters' old values go first
            inks[(text, color)] = ink
        width = min(ink.shape[1], right - left)
        line[: ink.shape[0], left : left + width] = ink[:, :width]


class _Piece(str):
    """A line of a status text too wide for one line (``Hud._folded``), its last line
    aside: its slot is a whole line, so the text's next line starts a line of its own."""

    __slots__ = ()


class _Tail(str):
    """The last line of a status text too wide for one line (``Hud._folded``): its slot is
    its own width, and the next text may follow it on its line."""

    __slots__ = ()
