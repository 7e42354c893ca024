"""What a render is given and what it returns: :class:`RenderJob`, :class:`RenderResult`.

Shared by :mod:`searchvid.render.pipeline` (a scene's render) and
:mod:`searchvid.render.writer` (the push-style :class:`~searchvid.render.writer.VideoWriter`).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from searchvid.render.output import OutputKind, output_kind
from searchvid.render.policy import Ended
from searchvid.render.settings import VideoOptions
from searchvid.render.tracks import Panel, Track
from searchvid.render.treereplay import first_pass
from searchvid.render.view import View
from searchvid.render.voice import Narrator, Voice
from searchvid.search.events import Event
from searchvid.search.status import Field

EventSource = Iterable[Event] | Callable[[], Iterable[Event]]
"""A search's events: a stream read once, or a function that starts the seeded search afresh
(needed to lay a tree panel out from a silent first pass, and for views that observe)."""


@dataclass(frozen=True)
class RenderJob:
    """What to render for one search: its view, the video options and the strip's content.

    Attributes:
        view: Maps nodes to tile grids (one instance per search: views may observe events).
        video: The scene's ``[video]`` options.
        title: The strip's first line, e.g. the scene's title.
        score: Value shown in the strip for the frame's node (None: the event's own value).
        values: Whether the strip shows value and best at all (False where the search ranks
            nothing, e.g. backtracking over an explicit tree).
        panel: Makes the search's tree panel at ``(width, height)`` px from the events of a
            silent first pass (None: no panel). Needs a replayable :data:`EventSource`.
        label: Names a node in words, for the HTML player's per-frame details (None: ``str``).
        narrator: The domain's words for the strip and captions (a :class:`Narrator`;
            None: numbers only).
        algorithm: The algorithm as readers name it, before the phase ("A* searching").
        value_name: Name of the value shown ("network"; None: "value").
        move_phase: What MOVE frames are: "solution" (a path played out) or "playing".
        settings: The algorithm's settings as the scene gives them, for the opening and
            closing cards (``Field("iterations", 300)``).
        best_name: What the strip calls the best value so far (the algorithm's
            :attr:`~searchvid.Algorithm.best_name`; ``""``: no such field).
        doing: What the search's own frames do, after the algorithm's name in the phase
            (``searching``; ``in progress`` for random play, which does not search).
        backtracks: The algorithm steps back (its :attr:`~searchvid.Algorithm.backtracks`):
            the board frames what each step back undid, and the legend says so.
        heat: The algorithm thinks in iterations from a root (MCTS): the board may show a
            heat map of the root's moves (``[video] heatmap``).
    """

    view: View
    video: VideoOptions
    title: str
    score: Callable[[Any], float] | None = None
    values: bool = True
    panel: Callable[[int, int, Iterable[Event]], Panel] | None = None
    label: Callable[[Any], str] | None = None
    narrator: Narrator | None = None
    algorithm: str = ""
    value_name: str | None = None
    move_phase: str = "solution"
    settings: tuple[Field, ...] = ()
    best_name: str = "best"
    doing: str = "searching"
    backtracks: bool = False
    heat: bool = False
    compare: Callable[[], Sequence[Field]] | None = None
    """The closing card's words on a search to compare with (``[compare]``; None: none)."""
    start: Any = None
    """The domain's start position as the scene made it for this job, for the opening card's
    words before the search runs (None: the narrator's own ``root()``)."""

    def voice(self) -> Voice:
        """How the strip narrates this search."""
        return Voice(
            title=self.title,
            algorithm=self.algorithm,
            narrator=self.narrator,
            value_name=self.value_name,
            score=self.score,
            values=self.values,
            move_phase=self.move_phase,
            captions=self.video.captions,
            settings=self.settings,
            best_name=self.best_name,
            doing=self.doing,
            compare=self.compare,
            start=self.start,
        )


@dataclass(frozen=True)
class RenderResult:
    """What a render produced.

    In a notebook it shows itself: an MP4 as a ``<video>``, a GIF as an ``<img>`` (embedded
    as data when at most :data:`INLINE_LIMIT` bytes, else linked by path).

    Attributes:
        frames: Frames selected by the policy (the PNG-folder count).
        encoded_frames: Frames in the output including held ones (MP4).
        events: Events consumed (the search is cut after the last frame).
        seconds: Wall time of the whole render, search included.
        path: The output written.
        ended: Why the video ended, as ``run --json`` says it: ``"complete"`` (the search
            ran to its end), ``"max_frames"`` (the video filled up and the search was cut)
            or ``"max_events"`` (the event budget was spent). A render from a scene sets it;
            other producers leave the default.
    """

    frames: int
    encoded_frames: int
    events: int
    seconds: float
    path: Path
    ended: Ended = "complete"

    def __str__(self) -> str:
        line = f"{self.frames} frames in {self.seconds:.1f} s -> {self.path}"
        if self.ended != "complete":
            line += f" (cut at {self.ended}: the search did not end)"
        return line

    def _repr_html_(self) -> str:
        """HTML for Jupyter and IPython: the video itself, no IPython import needed."""
        kind = output_kind(self.path) if self.path.exists() else None
        caption = html.escape(str(self))
        if kind is OutputKind.MP4:
            source = _html_source(self.path, "video/mp4")
            return (
                f'<video src="{source}" controls loop autoplay muted playsinline '
                f'title="{caption}" style="max-width:100%"></video>'
            )
        if kind is OutputKind.GIF:
            source = _html_source(self.path, "image/gif")
            return f'<img src="{source}" alt="{caption}" style="max-width:100%">'
        if kind is OutputKind.HTML and self.path.stat().st_size <= INLINE_LIMIT:
            page = html.escape(self.path.read_text(encoding="utf-8"), quote=True)
            return (
                f'<iframe srcdoc="{page}" title="{caption}" '
                'style="width:100%;height:80vh;border:0"></iframe>'
            )
        return f"<p>{caption}</p>"


INLINE_LIMIT = 20_000_000
"""Largest output (bytes) that :meth:`RenderResult._repr_html_` embeds as a data URI."""


def _html_source(path: Path, mime: str) -> str:
    """A data URI of ``path`` when small enough, else its path (relative when possible)."""
    if path.stat().st_size <= INLINE_LIMIT:
        return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")
    return html.escape(path.as_posix(), quote=True)


def track(job: RenderJob, source: Callable[[], Iterable[Event]] | None) -> Track:
    """The frame's column for ``job``; its tree panel is laid out from a silent pass over
    ``source`` (no panel without a replayable source), recorded so that the render replays
    it rather than searching again (:mod:`searchvid.render.treereplay`)."""
    make = job.panel
    panel = None
    if make is not None and source is not None:
        video = job.video

        def panel(width: int, height: int) -> Panel:
            return make(width, height, first_pass(source, video))

    return Track(job.view, job.voice(), panel, backtracks=job.backtracks, heat=job.heat)
