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
With ``[video] window_gauge``, a board without a tree panel has the alpha-beta window gauge
right under it (:mod:`searchvid.render.window`: minimax's window on the scale of values).

:func:`~searchvid.render.fitting.fit_width` chooses the tile size (and, for narrow frames,
the tree panel's size and the arrangement) that fits a frame into ``[video] width`` pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from searchvid.errors import RunError, UserCodeError
from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.boardlegend import PLACED_MARK, BoardLegend
from searchvid.render.canvas import FrameBuffer, PixelFormat, Pixels, Rect, RgbPanel
from searchvid.render.cards import (
    card_lines,
    crowned_title,
    opening_texts,
    race_result,
    strip_text,
)
from searchvid.render.celllabels import LabelLayer, labels_of
from searchvid.render.filmstrip import Filmstrip
from searchvid.render.framelayout import Column, FrameLayout
from searchvid.render.heatmap import HeatLayer, heat_marks
from searchvid.render.hud import HUD_COLORS, HudText, StripContent, expected_status
from searchvid.render.indexstrip import IndexStrip
from searchvid.render.narration import Narration
from searchvid.render.pathmarks import COLORS as PATH_COLORS
from searchvid.render.pathmarks import Move, PathWatch, depth_of, path_marks
from searchvid.render.pathmarks import deepest as path_deepest
from searchvid.render.placed import COLOR as PLACED
from searchvid.render.placed import PlacedWatch, Step, bracket, bracket_width, changed_cells
from searchvid.render.placed import swatch as placed_swatch
from searchvid.render.playout import COLOR as PLAYOUT
from searchvid.render.playout import MARK as PLAYOUT_MARK
from searchvid.render.playout import (
    SEARCHED_COLOR,
    SEARCHED_MARK,
    frame_width,
    playout_marks,
    searched_marks,
    shows_playout,
)
from searchvid.render.playout import cells as playout_cells
from searchvid.render.playout import swatch as playout_swatch
from searchvid.render.settings import VideoOptions
from searchvid.render.tracks import Boards, Panel, Track
from searchvid.render.undo import COLOR as UNDONE
from searchvid.render.undo import Left, UndoWatch, line_width, marked_cells, undone_before
from searchvid.render.view import View
from searchvid.render.voice import Card, Ending, in_race
from searchvid.render.window import WindowGauge, scale_words
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from searchvid.usercode import method_location

BACKGROUND: RGB = HUD_COLORS[0]
"""Colour of the frame where no region draws (between and under columns)."""


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
        boards = Boards.of(
            tracks[0].view,
            len(tracks),
            backtracks=any(t.backtracks for t in tracks),
            heat=any(t.heat for t in tracks),
        )
        self.label_size = boards.label_size
        shapes = [(int(t.view.shape[0]), int(t.view.shape[1])) for t in tracks]
        backtracks = any(t.backtracks for t in tracks)
        playing = any(t.voice.move_phase == "playing" for t in tracks)
        marks = (
            *boards.marks,
            *heat_marks(video, boards.heat),
            *playout_marks(video, boards.iterations),
            *searched_marks(video, boards.iterations, playing),
            *path_marks(video, backtracks),
        )
        # an MCTS's board framed where it shows a playout's end (its legend says so)
        framed = bool(playout_marks(video, boards.iterations))
        self._playouts = [framed and t.heat for t in tracks]
        # and where it shows a searched position ahead of the game played (the strip says so)
        searched = bool(searched_marks(video, boards.iterations, playing))
        self._searched = [searched and t.heat for t in tracks]
        self.heats = [
            HeatLayer(t.view) if t.heat and heat_marks(video, boards.heat) else None for t in tracks
        ]
        strips = [
            StripContent(
                t.voice.title,
                (
                    t.voice.expected
                    or expected_status(
                        t.voice.algorithm,
                        values=t.voice.values,
                        narrated=t.voice.narrator is not None,
                    )
                ),
                extra_lines=card_lines(t.voice.settings),
                card=opening_texts(t.voice),
                recap=Narration(t.voice).recap() if t.voice.captions else "",
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
        # a step back frames the cells it undid (drawn with or without a legend)
        self._undo = [UndoWatch(video.keep_depth) if t.backtracks else None for t in tracks]
        if any(self._undo):
            extra.append(UNDONE)
        # a forward move brackets the cells it changed, where the view asks for the mark
        placed = any(mark is PLACED_MARK for mark in boards.marks)
        self._placed = [PlacedWatch() if placed else None for _ in tracks]
        if placed:
            extra.append(PLACED)
        # a paced depth-first video brackets each move of the frame's path by its depth
        deepest = path_deepest(video, backtracks)
        self._paths = [PathWatch(deepest) if deepest and t.backtracks else None for t in tracks]
        if deepest:
            extra.extend(PATH_COLORS[:deepest])
        if framed:
            extra.append(PLAYOUT)
        if searched:
            extra.append(SEARCHED_COLOR)
        self._labels = [self._cell_labels(t.view, s) for t, s in zip(tracks, shapes, strict=True)]
        for labels in self._labels:
            extra.extend(labels.colors)
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
        self.gauges = [
            WindowGauge(c.board[0], self.layout.legend_font, scale_words(t.voice.narrator))
            if c.gauge_height
            else None
            for t, c in zip(tracks, self.layout.columns, strict=True)
        ]
        for gauge in self.gauges[:1]:  # every gauge paints the same colours
            if gauge is not None:
                extra.extend(gauge.colors)
        if any(self.heats):  # the heat's tints of the tiles' grounds (a first, plain load)
            plain = TileAtlas(tracks[0].view.tileset, video.tile_size)
            extra.extend(HeatLayer.extra_colors(plain.tiles))
        self.atlas = TileAtlas(tracks[0].view.tileset, video.tile_size, extra_colors=extra)
        for heat in self.heats:
            if heat is not None:
                heat.bind(self.atlas)
        self.huds = [
            self.layout.hud(c.width, video) if video.hud else None for c in self.layout.columns
        ]
        if any(h is not None and h.height != self.layout.strip_height for h in self.huds):
            raise RunError("searches side by side must have columns of one width")
        self.narrations = [
            Narration(in_race(t.voice, len(tracks), i)) for i, t in enumerate(tracks)
        ]
        self.buffer: FrameBuffer | None = None
        self._boards: list[Any] = []
        self._strips: list[IndexStrip | None] = []
        self._panel_regions: list[RgbPanel | None] = []
        self._film_regions: list[RgbPanel | None] = []
        self._gauge_regions: list[RgbPanel | None] = []

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
        ``label_size`` at this tile size), ``"coordinates"`` (the view's cell labels). Parts
        that write nothing are left out."""
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
        counts = [h.text_height for h in self.heats if h is not None and h.text_height]
        if counts:
            heights["heat"] = min(counts)
        labels = [g.text_height for g in self._labels if g.text_height]
        if labels:
            heights["coordinates"] = min(labels)
        films = [f.text_height for f in self.films if f is not None]
        if films:
            heights["filmstrip"] = min(films)
        gauges = [g.text_height for g in self.gauges if g is not None]
        if gauges:
            heights["gauge"] = min(gauges)
        return heights

    def _cell_labels(self, view: View, shape: tuple[int, int]) -> LabelLayer:
        """The layer of ``view``'s cell labels (its coordinates) on boards of ``shape``.

        Raises:
            UserCodeError: The view's ``cell_labels`` are not labels of its own cells.
        """
        try:
            labels = labels_of(view, shape)
        except ValueError as error:
            own = getattr(view, "__dict__", {}).get("_view", view)  # a CheckedView's view
            raise UserCodeError(str(method_location(own, "cell_labels")), str(error)) from None
        return LabelLayer(labels, self.video.tile_size, shape[1])

    def _filmstrip(self, view: View, column: Column) -> Filmstrip:
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
        """The picture of ``view``'s tile ``name`` in the frame's colours (or of a heat
        map's mark)."""
        for heat in self.heats:
            swatch = heat.swatch(name) if heat is not None else None
            if swatch is not None:
                return swatch
        if name == PLAYOUT_MARK.tile:
            return playout_swatch(self.video.tile_size, BACKGROUND)
        if name == SEARCHED_MARK.tile:
            return playout_swatch(self.video.tile_size, BACKGROUND, SEARCHED_COLOR)
        depth = depth_of(name)
        if depth is not None:
            return placed_swatch(self.video.tile_size, BACKGROUND, PATH_COLORS[depth - 1])
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
            inset = column.left + column.inset  # the picture, centred in a padded frame
            board = buffer.board(self.atlas, self._shape(column), top=column.top, left=inset)
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
                RgbPanel(buffer, top=column.top, left=inset + column.board[0])
                if column.panel is not None
                else None
            )
            self._film_regions.append(
                RgbPanel(buffer, top=column.film_top, left=inset) if column.film_height else None
            )
            self._gauge_regions.append(
                RgbPanel(buffer, top=column.gauge_top, left=inset) if column.gauge_height else None
            )
        self.buffer = buffer
        return buffer

    def _shape(self, column: Column) -> tuple[int, int]:
        tile = self.video.tile_size
        return column.board[1] // tile, column.board[0] // tile

    def observe(self, track: int, event: Event) -> None:
        """Feed one event of search ``track`` to its view, panel and strip (every event)."""
        observe = getattr(self.tracks[track].view, "observe", None)
        if observe is not None:
            observe(event)
        undo = self._undo[track]
        if undo is not None:
            undo.observe(event)
        placed = self._placed[track]
        if placed is not None:
            placed.observe(event)
        path = self._paths[track]
        if path is not None:
            path.observe(event)
        heat = self.heats[track]
        if heat is not None:
            heat.tracker.observe(event)
        panel = self.panels[track]
        if panel is not None:
            panel.observe(event)
        self.narrations[track].observe(event)

    def stepped_back(self, track: int, event: Event, left: Left) -> None:
        """Tell column ``track`` that its ``BACKTRACK`` ``event`` left ``left``: for a frame
        drawn without observing the events before it (every other caller observes them)."""
        undo = self._undo[track]
        if undo is not None and event.kind is EventKind.BACKTRACK:
            undo.remember(event, left)

    def placed_from(self, track: int, event: Event, parent: Step | None) -> None:
        """Tell column ``track`` that ``event`` stepped forward from ``parent`` (None: it
        did not): for a frame drawn without observing the events before it."""
        placed = self._placed[track]
        if placed is not None:
            placed.remember(event, parent)

    def stepped_past(self, track: int, event: Event, back: tuple[Event, Left] | None) -> None:
        """Tell column ``track`` that ``event`` came straight after the step back ``back``
        (None: it did not): for a frame drawn without observing the events before it."""
        undo = self._undo[track]
        if undo is not None:
            undo.remember_back(event, back)

    def path_to(self, track: int, event: Event, moves: tuple[Move, ...]) -> None:
        """Tell column ``track`` that ``event``'s path is ``moves``: for a frame drawn
        without observing the events before it."""
        path = self._paths[track]
        if path is not None:
            path.remember(event, moves)

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
        grid = spec.view.grid(event.node)
        board = self._boards[track]
        before = board.grid
        redrawn = board.update(grid)
        # an MCTS's board framed as a playout's end or a searched position is not the
        # position decided: the root's counts there would sit on cells its moves fill
        playout = self._playouts[track] and shows_playout(event)
        searched = (
            not playout
            and self._searched[track]
            and not card
            and self.narrations[track].shows_searched(event)
        )
        heat = self.heats[track]
        if heat is not None:
            heat.paint(board, before, redrawn, off=playout or searched)
        undo = self._undo[track]
        # the closing card states the result: a step back there is not news to mark
        left = undo.left_by(event) if undo is not None and card is not Card.CLOSING else None
        if left is not None:  # a step back: frame what it undid, on this frame only
            cells = marked_cells(spec.view, left, event, grid)
            board.outline(cells, UNDONE, width=line_width(self.video.tile_size))
            self._labels[track].covered(cells)
        back = undo.back_before(event) if undo is not None and card is not Card.CLOSING else None
        if back is not None:  # the next sibling: frame what the step back before it undid
            cells = undone_before(spec.view, back, event.node, grid)
            board.outline(cells, UNDONE, width=line_width(self.video.tile_size))
            self._labels[track].covered(cells)
        path = self._paths[track]
        # the closing card shows the best board, not the last event's path
        moves = path.moves(event) if path is not None and card is not Card.CLOSING else ()
        for move in moves:  # each move of the path, bracketed in its depth's colour
            cells = changed_cells(
                spec.view, move.parent, move.node, spec.view.grid(move.parent), grid
            )
            color = PATH_COLORS[move.depth - 1]
            bracket(board, cells, width=bracket_width(self.video.tile_size), color=color)
            self._labels[track].covered(cells)
        placed = self._placed[track]
        marked = left is not None or path is not None  # the path's brackets say it already
        parent = placed.parent_of(event) if placed is not None and not marked else None
        if parent is not None:  # a step forward: bracket what it changed, on this frame only
            cells = changed_cells(
                spec.view, parent.node, event.node, spec.view.grid(parent.node), grid
            )
            bracket(board, cells, width=bracket_width(self.video.tile_size))
            self._labels[track].covered(cells)
        if playout:  # not the position played
            cells = list(playout_cells(grid.size))
            board.outline(cells, PLAYOUT, width=frame_width(self.video.tile_size))
            self._labels[track].covered(cells)
        elif searched:
            cells = list(playout_cells(grid.size))  # the node searched, not the game's
            board.outline(cells, SEARCHED_COLOR, width=frame_width(self.video.tile_size))
            self._labels[track].covered(cells)
        self._labels[track].paint(
            board, before, everything=redrawn == grid.size or heat is not None
        )
        panel, region = self.panels[track], self._panel_regions[track]
        if panel is not None and region is not None:
            changed = panel.draw()
            if changed is not None:
                rects = [changed] if isinstance(changed, Rect) else list(changed)
                region.show(panel.pixels, rects)
        film, film_region = self.films[track], self._film_regions[track]
        if film is not None and film_region is not None:
            film_region.show(film.pixels, film.draw(fields, event))
        gauge, gauge_region = self.gauges[track], self._gauge_regions[track]
        if gauge is not None and gauge_region is not None:
            gauge_region.show(gauge.pixels, gauge.draw(fields, event))
        hud, strip = self.huds[track], self._strips[track]
        if hud is None or strip is None:
            return
        # every format shows the strip of the frame's own node (never a stale one)
        text = strip_text(
            self.narrations[track], event, best, improving, fields, ending, card, place
        )
        if hud.update(text):  # only the fields redrawn are compared and converted
            strip.show(hud.strip, hud.take_changed())

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
