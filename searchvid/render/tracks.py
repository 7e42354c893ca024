"""What draws each search's column of a frame (:class:`Track`), its optional panel beside the
board (:class:`Panel`), and what the frame's layout needs to know of the boards before any
drawing (:class:`Boards`): the parts of :mod:`searchvid.render.frame` that the scene, the
render job and the width fitting use without drawing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from searchvid.errors import UserCodeError
from searchvid.render.atlas import RGB
from searchvid.render.boardlegend import UNDONE_MARK, Mark, marks_of
from searchvid.render.canvas import Pixels, Rect
from searchvid.render.framelayout import FrameLayout
from searchvid.render.heatmap import heat_marks, heat_possible
from searchvid.render.pathmarks import path_marks
from searchvid.render.playout import playout_marks
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.render.voice import Voice
from searchvid.search.events import Event
from searchvid.usercode import method_location

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
        backtracks: Its algorithm steps back (``BACKTRACK`` events): the board frames the
            cells each step back undid, and the legend names that mark.
    """

    view: View
    voice: Voice
    panel: PanelFactory | None = None
    backtracks: bool = False
    heat: bool = False
    """Its algorithm thinks in iterations from a root (MCTS): the board may show a heat map
    of the root's moves (:mod:`searchvid.render.heatmap`, ``[video] heatmap``)."""


@dataclass(frozen=True)
class Boards:
    """What a frame's layout needs to know of the searches' boards, before any drawing.

    Attributes:
        shapes: Each search's board shape ``(rows, cols)``.
        marks: The marks the boards' legend explains (the view's ``marks``).
        label_size: The view's ``label_size(tile_size)``, the size of the text it writes in
            its tiles, where it writes any (None: no text on the board).
        heat: The searches may show a heat map on the boards (an MCTS whose view's moves
            have board positions); the legend then explains it, unless ``[video]`` turns
            it off.
        iterations: A search thinks in iterations (MCTS): its frames may show a playout's
            end, framed on the board (:mod:`searchvid.render.playout`), which the legend
            then explains, unless the frames are the moves only.
    """

    shapes: tuple[tuple[int, int], ...]
    marks: tuple[Mark, ...] = ()
    label_size: LabelSize | None = None
    heat: bool = False
    iterations: bool = False

    @classmethod
    def of(
        cls, view: View, count: int = 1, *, backtracks: bool = False, heat: bool = False
    ) -> Boards:
        """The boards of ``count`` searches drawn by views like ``view``; with
        ``backtracks``, the legend also explains the "undone" mark of a step back.

        Raises:
            UserCodeError: The view's ``marks`` are not marks of its own tiles.
        """
        try:
            marks = marks_of(view)
        except ValueError as error:
            own = getattr(view, "__dict__", {}).get("_view", view)  # a CheckedView's view
            raise UserCodeError(str(method_location(own, "marks")), str(error)) from None
        if backtracks:
            marks = (*marks, UNDONE_MARK)
        label_size = getattr(view, "label_size", None)
        shape = (int(view.shape[0]), int(view.shape[1]))
        return cls(
            (shape,) * count,
            marks,
            label_size if callable(label_size) else None,
            heat=heat and heat_possible(view),
            iterations=heat,
        )

    def layout(self, video: VideoOptions) -> FrameLayout:
        """The frame's layout under ``video`` (tree panels where ``video.tree`` says)."""
        marks = (
            *self.marks,
            *heat_marks(video, self.heat),
            *playout_marks(video, self.iterations),
            *path_marks(video, any(m is UNDONE_MARK for m in self.marks)),
        )
        return FrameLayout(self.shapes, video, [video.tree] * len(self.shapes), marks=marks)
