"""The frame: one column per search (its board, its tree panel, its status strip), in a row.

::

    +-----------+-----------+   +-----------+-----------+
    |  board 0  |  tree 0   |   |  board 1  |  tree 1   |
    +-----------+-----------+   +-----------+-----------+
    |  status strip 0       |   |  status strip 1       |
    +-----------------------+   +-----------------------+

Every region keeps its own cache and reports what it changed to the :class:`FrameBuffer`,
whose union of changed rectangles goes to the encoder. All regions start on even pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from searchvid.errors import RunError
from searchvid.render.atlas import RGB, TileAtlas
from searchvid.render.canvas import FrameBuffer, IndexStrip, PixelFormat, Pixels, Rect, RgbPanel
from searchvid.render.hud import HUD_COLORS, Hud, HudText
from searchvid.render.narration import Narration, Voice
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

BACKGROUND: RGB = HUD_COLORS[0]
"""Colour of the frame where no region draws (between and under columns)."""

MIN_PANEL = 400
"""Smallest side of a tree panel in pixels: a 3 x 3 board still gets a readable tree."""


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
class _Column:
    """Where one column's regions sit, in frame pixels."""

    left: int
    board: tuple[int, int]  # (width, height)
    panel: tuple[int, int] | None  # (width, height) beside the board
    width: int
    height: int  # board/panel block, without the strip


class FrameLayout:
    """The geometry of a frame: columns of board, panel and strip, and the frame's size.

    Cheap to build (nothing is drawn), so scenes can check frame sizes before any work.

    Args:
        shapes: Each search's board shape ``(rows, cols)``.
        video: The ``[video]`` options (tile size, HUD, tree panel).
        panels: Which searches have a tree panel.
    """

    def __init__(
        self, shapes: Sequence[tuple[int, int]], video: VideoOptions, panels: Sequence[bool]
    ) -> None:
        tile = video.tile_size
        self.gap = 0 if len(shapes) == 1 else max(8, tile // 5) // 2 * 2
        columns: list[_Column] = []
        left = 0
        for (rows, cols), has_panel in zip(shapes, panels, strict=True):
            board = (cols * tile, rows * tile)
            panel = None
            if has_panel:
                side = (max(board[0], board[1], MIN_PANEL) + 1) // 2 * 2
                panel = (video.tree_width or side, video.tree_height or max(board[1], side))
            width = board[0] + (panel[0] if panel else 0)
            height = max(board[1], panel[1] if panel else 0)
            columns.append(_Column(left, board, panel, width, height))
            left += width + self.gap
        self.width = max(left - self.gap, video.width)  # padded to [video] width
        # several searches: one title bar over them all; each column's strip names its search
        self.title_height = self.title_bar().height if video.hud and len(columns) > 1 else 0
        self.columns = tuple(columns)
        self.block_height = max(c.height for c in columns)
        self.strip_height = max(
            (self.hud(c.width, video).height for c in columns) if video.hud else (0,)
        )
        self.height = self.title_height + self.block_height + self.strip_height

    def hud(self, width: int, video: VideoOptions) -> Hud:
        """A status strip for a column ``width`` wide in this frame."""
        return Hud(width, self.width, video.tile_size, captions=video.captions)

    def title_bar(self) -> Hud:
        """The one-line title over several searches side by side."""
        return Hud(self.width, self.width, title_only=True)

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the frame in pixels."""
        return self.width, self.height


class FramePainter:
    """Draws frames of one or more searches side by side.

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
        shapes = [t.view.shape for t in tracks]
        self.layout = FrameLayout(shapes, video, [t.panel is not None for t in tracks])
        self.panels: list[Panel | None] = [
            t.panel(*c.panel) if t.panel is not None and c.panel is not None else None
            for t, c in zip(tracks, self.layout.columns, strict=True)
        ]
        extra: list[RGB] = [*HUD_COLORS]
        for panel in self.panels:
            if panel is not None:
                extra.extend(panel.colors)
        self.atlas = TileAtlas(tracks[0].view.tileset, video.tile_size, extra_colors=extra)
        self.huds = [
            self.layout.hud(c.width, video) if video.hud else None for c in self.layout.columns
        ]
        if any(h is not None and h.height != self.layout.strip_height for h in self.huds):
            raise RunError("searches side by side must have columns of one width")
        self.narrations = [Narration(t.voice) for t in tracks]
        self.strip_every = 1
        """Redraw a strip's counters only every k-th frame (GIFs: fewer changed pixels)."""
        self._frames = [0] * len(tracks)
        self.buffer: FrameBuffer | None = None
        self._boards: list[Any] = []
        self._strips: list[IndexStrip | None] = []
        self._panel_regions: list[RgbPanel | None] = []

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

    def open(self, pixel_format: PixelFormat) -> FrameBuffer:
        """Create the frame buffer in the layout the encoder takes, background painted."""
        buffer = FrameBuffer(
            self.width, self.height, pixel_format, palette=self.atlas.palette, background=BACKGROUND
        )
        head = self.layout.title_height
        if head:
            bar = self.layout.title_bar()
            bar.update(HudText(self.title, "", ()))
            strip = IndexStrip(buffer, HUD_COLORS, top=0, left=0, height=head, width=self.width)
            strip.show(bar.strip)
        top = head + self.layout.block_height
        for column in self.layout.columns:
            board = buffer.board(self.atlas, self._shape(column), top=head, left=column.left)
            self._boards.append(board)
            self._strips.append(
                IndexStrip(
                    buffer,
                    HUD_COLORS,
                    top=top,
                    left=column.left,
                    height=self.layout.strip_height,
                    width=column.width,
                )
                if self.video.hud
                else None
            )
            self._panel_regions.append(
                RgbPanel(buffer, top=head, left=column.left + column.board[0])
                if column.panel is not None
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
    ) -> None:
        """Show ``event``'s node in column ``track``, with its panel and strip.

        Args:
            track: The column.
            event: The frame's event.
            best: The best value so far.
            improving: Whether the node is a new best (the strip is redrawn at once).
            fields: The algorithm's own fields at this moment.
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
        hud, strip = self.huds[track], self._strips[track]
        count = self._frames[track]
        self._frames[track] += 1
        if hud is None or strip is None:
            return
        # the played line shows at once; restarts and new bests wait for the schedule
        urgent = event.kind is EventKind.MOVE or event.kind is EventKind.ROLL
        if count % self.strip_every and not urgent:
            return
        text = self.narrations[track].text(event, best, improving, fields)
        if hud.update(text):
            strip.show(hud.strip)


def layout_events(source: Callable[[], Iterable[Event]], video: VideoOptions) -> Iterable[Event]:
    """The events of a silent first pass, cut where the video is (for a stable tree layout)."""
    from searchvid.render.policy import assign_frames

    return (event for event, _ in assign_frames(source(), video))
