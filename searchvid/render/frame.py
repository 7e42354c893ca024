"""The frame: one column per search (its board, its tree panel, its legend, its status strip).

::

    +-----------+-----------+   +-----------+-----------+
    |  board 0  |  tree 0   |   |  board 1  |  tree 1   |
    +-----------+-----------+---+-----------+-----------+
    |  legend of the boards' marks                      |
    +-----------------------+---+-----------------------+
    |  status strip 0       |   |  status strip 1       |
    +-----------------------+   +-----------------------+

Columns stand side by side, or one above the other (``[video] arrange``: then each column
has its legend under its board). The legend explains the marks the boards' view declares
(:mod:`searchvid.render.boardlegend`): every column draws the same tiles, so columns side by
side share one legend across the frame. It never changes, so it is painted once. Every
other region keeps its own cache and reports what it changed to the :class:`FrameBuffer`,
whose union of changed rectangles goes to the encoder. All regions start on even pixels.
With ``[video] filmstrip``, each board has a strip of boards under it, above the legend
(:mod:`searchvid.render.filmstrip`: a frontier search's next boards, or a beam's level).

:func:`~searchvid.render.fitting.fit_width` chooses the tile size (and, for narrow frames,
the tree panel's size and the arrangement) that fits a frame into ``[video] width`` pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from searchvid.errors import RunError, UserCodeError
from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.boardlegend import BoardLegend, Mark, marks_of
from searchvid.render.canvas import FrameBuffer, IndexStrip, PixelFormat, Pixels, Rect, RgbPanel
from searchvid.render.cards import crowned_title, race_result, strip_text
from searchvid.render.filmstrip import Filmstrip
from searchvid.render.hud import HUD_COLORS, Hud, HudText, StripContent, expected_status
from searchvid.render.narration import Card, Ending, Narration, Voice
from searchvid.render.settings import VideoOptions
from searchvid.render.textink import MIN_TEXT
from searchvid.render.view import View
from searchvid.search.events import Event
from searchvid.search.status import Field
from searchvid.usercode import method_location

BACKGROUND: RGB = HUD_COLORS[0]
"""Colour of the frame where no region draws (between and under columns)."""

MIN_PANEL = 400
"""Smallest side of a tree panel in pixels: a 3 x 3 board still gets a readable tree."""

MAX_LEGEND_FONT = 32
"""The board legend's largest text, in pixels, however wide the frame."""

LabelSize = Callable[[int], int]
"""A view's ``label_size(tile_size)``: the pixel size of the text it writes in its tiles."""


class Panel(Protocol):
    """A drawing component beside a board (the search-tree panel)."""

    @property
    def colors(self) -> Sequence[RGB]:
        """Every colour it may draw (added to the frame's palette)."""
        ...

    @property
    def pixels(self) -> Pixels:
        """Its current picture, ``(height, width, 3)`` RGB."""
        ...

    def observe(self, event: Event) -> None:
        """Take one event of the stream (every event, in order)."""
        ...

    def draw(self) -> Sequence[Rect] | Rect | None:
        """Bring :attr:`pixels` up to date; the rectangles that changed (None: nothing)."""
        ...


PanelFactory = Callable[[int, int], Panel]
"""Makes a search's panel at ``(width, height)`` pixels."""


@dataclass(frozen=True)
class Track:
    """One search's column: what draws it.

    Attributes:
        view: Maps its nodes to tile grids (a fresh instance per search: views may observe).
        voice: What its status strip says (title, algorithm, the domain's words).
        panel: Makes its tree panel, or None for no panel.
    """

    view: View
    voice: Voice
    panel: PanelFactory | None = None


@dataclass(frozen=True)
class Boards:
    """What a frame's layout needs to know of the searches' boards, before any drawing.

    Attributes:
        shapes: Each search's board shape ``(rows, cols)``.
        marks: The marks the boards' legend explains (the view's ``marks``).
        label_size: The view's ``label_size(tile_size)``, the size of the text it writes in
            its tiles, where it writes any (None: no text on the board).
    """

    shapes: tuple[tuple[int, int], ...]
    marks: tuple[Mark, ...] = ()
    label_size: LabelSize | None = None

    @classmethod
    def of(cls, view: View, count: int = 1) -> Boards:
        """The boards of ``count`` searches drawn by views like ``view``.

        Raises:
            UserCodeError: The view's ``marks`` are not marks of its own tiles.
        """
        try:
            marks = marks_of(view)
        except ValueError as error:
            own = getattr(view, "__dict__", {}).get("_view", view)  # a CheckedView's view
            raise UserCodeError(str(method_location(own, "marks")), str(error)) from None
        label_size = getattr(view, "label_size", None)
        shape = (int(view.shape[0]), int(view.shape[1]))
        return cls((shape,) * count, marks, label_size if callable(label_size) else None)

    def layout(self, video: VideoOptions) -> FrameLayout:
        """The frame's layout under ``video`` (tree panels where ``video.tree`` says)."""
        return FrameLayout(self.shapes, video, [video.tree] * len(self.shapes), marks=self.marks)


@dataclass(frozen=True)
class _Column:
    """Where one column's regions sit, in frame pixels."""

    left: int
    top: int  # of the board/panel block
    board: tuple[int, int]  # (width, height)
    panel: tuple[int, int] | None  # (width, height) beside the board
    width: int
    height: int  # board/panel block, without the legend and the strip
    legend_top: int
    strip_top: int
    film_height: int = 0  # the filmstrip's, between the block and the legend (0: none)

    @property
    def film_top(self) -> int:
        """The first row of the filmstrip under the board."""
        return self.legend_top - self.film_height


@dataclass(frozen=True)
class LegendBox:
    """Where a board legend sits, in frame pixels (its height is the layout's)."""

    top: int
    left: int
    width: int


class FrameLayout:
    """The geometry of a frame: columns of board, panel, legend and strip, and its size.

    Cheap to build (nothing is drawn), so scenes can check frame sizes before any work.

    Args:
        shapes: Each search's board shape ``(rows, cols)``.
        video: The ``[video]`` options (tile size, HUD, legend, tree panel, arrangement).
        panels: Which searches have a tree panel.
        marks: The marks the boards' legend explains (none, or ``legend`` or ``hud`` off:
            no legend).
        strips: What each column's status strip shows, to size the strips for it (none:
            a one-line title and a typical search's fields).
        title: The title bar's text over several searches.

    Attributes:
        columns: Each search's regions.
        stacked: Whether the columns stand one above the other.
        title_height: Rows of the title bar over several searches (0 for one search).
        block_height: Rows of the tallest board/panel block.
        legends: Where the board legend sits: across the frame, under columns side by
            side, or under the title bar over stacked columns (none without marks or
            ``legend``).
        legend_height: Rows of a legend (0: none).
        strip_height: Rows of a column's status strip (0: none).
        gap: Pixels between two columns.
    """

    def __init__(
        self,
        shapes: Sequence[tuple[int, int]],
        video: VideoOptions,
        panels: Sequence[bool],
        *,
        marks: Sequence[Mark] = (),
        strips: Sequence[StripContent] = (),
        title: str = "",
    ) -> None:
        self.strips = tuple(strips)
        self.title = title
        tile = self._tile = video.tile_size
        self.stacked = video.arrange == "stacked" and len(shapes) > 1
        self.gap = 0 if len(shapes) == 1 else max(8, tile // 5) // 2 * 2
        blocks: list[tuple[tuple[int, int], tuple[int, int] | None]] = []
        for (rows, cols), has_panel in zip(shapes, panels, strict=True):
            board = (cols * tile, rows * tile)
            panel = None
            if has_panel:
                side = (max(board[0], board[1], MIN_PANEL) + 1) // 2 * 2
                panel = (video.tree_width or side, video.tree_height or max(board[1], side))
            blocks.append((board, panel))
        widths = [b[0] + (p[0] if p else 0) for b, p in blocks]
        heights = [max(b[1], p[1] if p else 0) for b, p in blocks]
        natural = max(widths) if self.stacked else sum(widths) + self.gap * (len(widths) - 1)
        self.width = max(natural, video.width)  # padded to [video] width
        # several searches: one title bar over them all; each column's strip names its search
        self.title_height = self.title_bar().height if video.hud and len(shapes) > 1 else 0
        self.block_height = max(heights)
        legend_width = self.width  # one legend spans the frame
        self.legend_height = (
            BoardLegend.measure(marks, legend_width, font_size=self.legend_font)
            if video.legend and video.hud and marks  # no strip: the board alone
            else 0
        )
        self.strip_height = max((self.hud(w, video).height for w in widths) if video.hud else (0,))
        columns: list[_Column] = []
        left, top = 0, self.title_height
        # stacked, one legend under the title explains every board (not one per column)
        column_legend = 0 if self.stacked else self.legend_height
        if self.stacked:
            top += self.legend_height
        for (board, panel), width, height in zip(blocks, widths, heights, strict=True):
            block = height if self.stacked else self.block_height
            film = self.film_height(board, video)
            legend_top = top + block + film
            strip_top = legend_top + column_legend
            columns.append(
                _Column(left, top, board, panel, width, height, legend_top, strip_top, film)
            )
            if self.stacked:
                top = strip_top + self.strip_height + self.gap
            else:
                left += width + self.gap
        self.columns = tuple(columns)
        self.legends: tuple[LegendBox, ...] = ()
        if self.legend_height:
            self.legends = (
                (LegendBox(self.title_height, 0, self.width),)
                if self.stacked
                else (LegendBox(columns[0].legend_top, 0, self.width),)
            )
        self.height = columns[-1].strip_top + self.strip_height

    @property
    def legend_font(self) -> int:
        """The board legend's text size: at least 2 px over the smallest, larger in wide
        frames and beside large tiles so that it keeps its place beside the strip."""
        return max(MIN_TEXT + 2, min(MAX_LEGEND_FONT, max(self.width // 64, self._tile // 8)))

    def film_height(self, board: tuple[int, int], video: VideoOptions) -> int:
        """Rows of the filmstrip under a board of ``board`` (width, height) px (0: none)."""
        if not video.filmstrip:
            return 0
        return Filmstrip.measure(board[0], board, video.filmstrip, font_size=self.legend_font)

    def hud(self, width: int, video: VideoOptions) -> Hud:
        """A status strip for a column ``width`` wide in this frame."""
        return Hud(width, self.width, captions=video.captions, contents=self.strips or None)

    def title_bar(self) -> Hud:
        """The title over several searches (wrapped as it needs), room kept for the closing
        card's winner after it."""
        titles = [s.title for s in self.strips]
        results = [race_result(titles[:1]), race_result(titles)] if titles else []
        crowned = [StripContent(crowned_title(self.title, words)) for words in results]
        return Hud(
            self.width, self.width, title_only=True, contents=[StripContent(self.title), *crowned]
        )

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the frame in pixels."""
        return self.width, self.height


class FramePainter:
    """Draws frames of one or more searches side by side (or stacked).

    Args:
        tracks: One per search, in column order.
        video: The ``[video]`` options.
        title: The title bar's text when there are several searches.
    """

    def __init__(self, tracks: Sequence[Track], video: VideoOptions, *, title: str = "") -> None:
        if not tracks:
            raise ValueError("a frame needs at least one search")
        names = tracks[0].view.tileset.names
        if any(t.view.tileset.names != names for t in tracks[1:]):
            raise RunError("searches side by side must draw the same tiles (one domain)")
        self.tracks = tuple(tracks)
        self.video = video
        self.title = title
        boards = Boards.of(tracks[0].view, len(tracks))
        self.label_size = boards.label_size
        shapes = [(int(t.view.shape[0]), int(t.view.shape[1])) for t in tracks]
        marks = boards.marks
        strips = [
            StripContent(
                t.voice.title,
                expected_status(
                    t.voice.algorithm,
                    values=t.voice.values,
                    narrated=t.voice.narrator is not None,
                ),
            )
            for t in tracks
        ]
        self.layout = FrameLayout(
            shapes,
            video,
            [t.panel is not None for t in tracks],
            marks=marks,
            strips=strips,
            title=title,
        )
        self.panels: list[Panel | None] = [
            t.panel(*c.panel) if t.panel is not None and c.panel is not None else None
            for t, c in zip(tracks, self.layout.columns, strict=True)
        ]
        tile = partial(self._tile, tracks[0].view)
        self.legends = [
            BoardLegend(marks, tile, box.width, font_size=self.layout.legend_font)
            for box in self.layout.legends
        ]
        extra: list[RGB] = [*HUD_COLORS]
        for panel in self.panels:
            if panel is not None:
                extra.extend(panel.colors)
        for legend in self.legends:
            extra.extend(legend.colors)
        self.films = [
            self._filmstrip(t.view, c) if c.film_height else None
            for t, c in zip(tracks, self.layout.columns, strict=True)
        ]
        for film in self.films:
            if film is not None:
                extra.extend(film.colors)
        self.atlas = TileAtlas(tracks[0].view.tileset, video.tile_size, extra_colors=extra)
        self.huds = [
            self.layout.hud(c.width, video) if video.hud else None for c in self.layout.columns
        ]
        if any(h is not None and h.height != self.layout.strip_height for h in self.huds):
            raise RunError("searches side by side must have columns of one width")
        self.narrations = [Narration(t.voice) for t in tracks]
        self.buffer: FrameBuffer | None = None
        self._boards: list[Any] = []
        self._strips: list[IndexStrip | None] = []
        self._panel_regions: list[RgbPanel | None] = []
        self._film_regions: list[RgbPanel | None] = []

    @property
    def width(self) -> int:
        """Frame width in pixels."""
        return self.layout.width

    @property
    def height(self) -> int:
        """Frame height in pixels."""
        return self.layout.height

    @property
    def palette(self) -> Pixels:
        """Every colour a frame may hold (at most 256: the GIF palette)."""
        return self.atlas.palette

    @property
    def text_heights(self) -> dict[str, int]:
        """The smallest text each part of the frame writes, in pixels, by part: ``"strip"``
        and ``"title"`` (ink height of a line of the strip's font), ``"legend"`` (the board
        legend's), ``"panel"`` (the tree panels' smallest), ``"board"`` (the view's
        ``label_size`` at this tile size). Parts that write nothing are left out."""
        heights: dict[str, int] = {}
        strips = [h for h in self.huds if h is not None]
        if strips:
            heights["strip"] = min(min(h.text_heights) for h in strips)
        if self.layout.title_height:
            heights["title"] = min(self.layout.title_bar().text_heights)
        legends = [g.text_height for g in self.legends]
        if legends:
            heights["legend"] = min(legends)
        measured = [getattr(p, "text_heights", None) for p in self.panels if p is not None]
        panels = [min(m) for m in measured if m]
        if panels:
            heights["panel"] = min(panels)
        if self.label_size is not None:
            heights["board"] = self.label_size(self.video.tile_size)
        films = [f.text_height for f in self.films if f is not None]
        if films:
            heights["filmstrip"] = min(films)
        return heights

    def _filmstrip(self, view: View, column: _Column) -> Filmstrip:
        """The filmstrip under ``column``'s board: ``view``'s boards in the frame's tiles."""
        return Filmstrip(
            column.board[0],
            column.board,
            self.video.filmstrip,
            font_size=self.layout.legend_font,
            grid=view.grid,
            tiles=lambda: self.atlas.tiles,
        )

    def _tile(self, view: View, name: str) -> Pixels:
        """The picture of ``view``'s tile ``name`` in the frame's colours."""
        tiles: Pixels = self.atlas.tiles[view.tileset.id(name)]
        return tiles

    def open(self, pixel_format: PixelFormat) -> FrameBuffer:
        """Create the frame buffer in the layout the encoder takes, background and legends
        painted (they never change)."""
        buffer = FrameBuffer(
            self.width, self.height, pixel_format, palette=self.atlas.palette, background=BACKGROUND
        )
        self.buffer = buffer
        if self.layout.title_height:
            self._title_bar(self.title)
        for box, legend in zip(self.layout.legends, self.legends, strict=True):
            buffer.paint_rgb(box.top, box.left, legend.pixels)
        for column in self.layout.columns:
            board = buffer.board(self.atlas, self._shape(column), top=column.top, left=column.left)
            self._boards.append(board)
            self._strips.append(
                IndexStrip(
                    buffer,
                    HUD_COLORS,
                    top=column.strip_top,
                    left=column.left,
                    height=self.layout.strip_height,
                    width=column.width,
                )
                if self.video.hud
                else None
            )
            self._panel_regions.append(
                RgbPanel(buffer, top=column.top, left=column.left + column.board[0])
                if column.panel is not None
                else None
            )
            self._film_regions.append(
                RgbPanel(buffer, top=column.film_top, left=column.left)
                if column.film_height
                else None
            )
        self.buffer = buffer
        return buffer

    def _shape(self, column: _Column) -> tuple[int, int]:
        tile = self.video.tile_size
        return column.board[1] // tile, column.board[0] // tile

    def observe(self, track: int, event: Event) -> None:
        """Feed one event of search ``track`` to its view, panel and strip (every event)."""
        observe = getattr(self.tracks[track].view, "observe", None)
        if observe is not None:
            observe(event)
        panel = self.panels[track]
        if panel is not None:
            panel.observe(event)
        self.narrations[track].observe(event)

    def draw(
        self,
        track: int,
        event: Event,
        best: float | None,
        *,
        improving: bool = False,
        fields: Sequence[Field] = (),
        ending: Ending | None = None,
        card: Card | None = None,
        place: str | None = None,
    ) -> None:
        """Show ``event``'s node in column ``track``, with its panel and strip.

        Args:
            track: The column.
            event: The frame's event.
            best: The best value so far.
            improving: Whether the node is a new best (the caption says so).
            fields: The algorithm's own fields when it reported ``event``.
            ending: Why this is the search's last frame (None: it is not); the strip then
                says what happened.
            card: The strip is the opening or the closing card (None: the frame's step).
            place: On the closing card of a race, the search's place in it.
        """
        assert self.buffer is not None, "open() first"
        spec = self.tracks[track]
        self._boards[track].update(spec.view.grid(event.node))
        panel, region = self.panels[track], self._panel_regions[track]
        if panel is not None and region is not None:
            changed = panel.draw()
            if changed is not None:
                rects = [changed] if isinstance(changed, Rect) else list(changed)
                region.show(panel.pixels, rects)
        film, film_region = self.films[track], self._film_regions[track]
        if film is not None and film_region is not None:
            film_region.show(film.pixels, film.draw(fields, event))
        hud, strip = self.huds[track], self._strips[track]
        if hud is None or strip is None:
            return
        # every format shows the strip of the frame's own node (never a stale one)
        text = strip_text(
            self.narrations[track], event, best, improving, fields, ending, card, place
        )
        if hud.update(text):
            strip.show(hud.strip)

    def crown(self, winners: Sequence[str]) -> None:
        """Name the race's ``winners`` (columns' titles; several: a tie) in the title bar:
        the race's closing card."""
        assert self.buffer is not None, "open() first"
        if self.layout.title_height and winners:
            self._title_bar(crowned_title(self.title, race_result(winners)))

    def _title_bar(self, title: str) -> None:
        assert self.buffer is not None
        bar = self.layout.title_bar()
        bar.update(HudText(title, "", ()))
        width, head = self.width, self.layout.title_height
        strip = IndexStrip(self.buffer, HUD_COLORS, top=0, left=0, height=head, width=width)
        strip.show(bar.strip)


def layout_events(source: Callable[[], Iterable[Event]], video: VideoOptions) -> Iterable[Event]:
    """The events of a silent first pass, cut where the video is (for a stable tree layout)."""
    from searchvid.render.policy import assign_frames

    return (event for event, _ in assign_frames(source(), video))
