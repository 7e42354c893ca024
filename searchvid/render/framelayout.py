"""Where a frame's regions sit: each column's board, tree panel, filmstrip and status strip,
the legend of the boards' marks and the title bar over searches side by side (see
:mod:`searchvid.render.frame` for the picture). Measured, never drawn: the painter draws into
the places :class:`FrameLayout` gives, and the scene checks a frame's size with it before
any work."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from searchvid.render.boardlegend import MIN_WIDTH as LEGEND_MIN_WIDTH
from searchvid.render.boardlegend import BoardLegend, Mark
from searchvid.render.cards import crowned_title, race_result
from searchvid.render.filmstrip import Filmstrip
from searchvid.render.hud import Hud, StripContent
from searchvid.render.settings import VideoOptions
from searchvid.render.textink import MIN_TEXT
from searchvid.render.window import WindowGauge

MIN_PANEL = 400
"""Smallest side of a tree panel in pixels: a 3 x 3 board still gets a readable tree."""

MAX_LEGEND_FONT = 32
"""The board legend's largest text, in pixels, however wide the frame."""


@dataclass(frozen=True)
class Column:
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
    gauge_height: int = 0  # the window gauge's, between the block and the filmstrip (0: none)
    inset: int = 0
    """Pixels the board/panel block, its filmstrip and gauge sit right of ``left``: half what
    the frame is wider than the block (``--width`` pads it), so the picture is centred, not
    followed by a dark band (the strip's text stays at ``left``)."""

    @property
    def film_top(self) -> int:
        """The first row of the filmstrip under the board."""
        return self.legend_top - self.film_height

    @property
    def gauge_top(self) -> int:
        """The first row of the alpha-beta window gauge under the board."""
        return self.film_top - self.gauge_height


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
            if video.legend and video.hud and marks and legend_width >= LEGEND_MIN_WIDTH
            else 0  # no strip: the board alone; too narrow: no legend to read
        )
        self.strip_height = max((self.hud(w, video).height for w in widths) if video.hud else (0,))
        columns: list[Column] = []
        left, top = 0, self.title_height
        # stacked, one legend under the title explains every board (not one per column)
        column_legend = 0 if self.stacked else self.legend_height
        if self.stacked:
            top += self.legend_height
        for (board, panel), width, height in zip(blocks, widths, heights, strict=True):
            block = height if self.stacked else self.block_height
            film = self.film_height(board, video)
            # the window gauge stands in for a tree panel's window: only without one
            gauge = self.gauge_height(board) if video.window_gauge and panel is None else 0
            legend_top = top + block + gauge + film
            strip_top = legend_top + column_legend
            # even, as every region's edge (yuv420p's 2x2 chroma)
            inset = (self.width - (width if self.stacked else natural)) // 2 & ~1
            columns.append(
                Column(
                    left,
                    top,
                    board,
                    panel,
                    width,
                    height,
                    legend_top,
                    strip_top,
                    film,
                    gauge,
                    inset,
                )
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

    def gauge_height(self, board: tuple[int, int]) -> int:
        """Rows of the alpha-beta window gauge under a board of ``board`` (width, height)
        px."""
        return WindowGauge.measure(board[0], self.legend_font)

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
