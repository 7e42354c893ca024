"""The render pipeline: events -> frame policy -> view -> canvas -> HUD -> encoder.

:func:`render` writes a whole video; :func:`render_frame` draws one frame for a preview
without drawing or encoding the frames before it. Both run the same frame policy and track
the HUD's "best so far" the same way, so a preview equals that frame of the PNG-folder render
pixel for pixel.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.errors import RunError, UsageError
from searchvid.render.atlas import TileAtlas
from searchvid.render.canvas import Canvas, PixelFormat
from searchvid.render.encode import open_encoder, output_kind, write_png
from searchvid.render.hud import HUD_COLORS, Hud, HudText
from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.search.events import Event, EventKind

__all__ = ["RenderJob", "RenderResult", "render", "render_frame", "write_png"]


@dataclass(frozen=True)
class RenderJob:
    """What to render: a domain's view, the video options and the HUD's content.

    Attributes:
        view: Maps nodes to tile grids.
        video: The scene's ``[video]`` options.
        title: HUD title, e.g. ``"random-walk · railroad"``.
        score: Value shown in the HUD for the frame's node (None: the event's own value).
        values: Whether the HUD shows value and best at all (False where the search ranks
            nothing, e.g. backtracking over an explicit tree).
    """

    view: View
    video: VideoOptions
    title: str
    score: Callable[[Any], float] | None = None
    values: bool = True


@dataclass(frozen=True)
class RenderResult:
    """What a render produced.

    Attributes:
        frames: Frames selected by the policy (the PNG-folder count).
        encoded_frames: Frames in the output including held ones (MP4).
        events: Events consumed (the search is cut after the last frame).
        seconds: Wall time of the whole render, search included.
        path: The output written.
    """

    frames: int
    encoded_frames: int
    events: int
    seconds: float
    path: Path


def render(
    events: Iterable[Event],
    job: RenderJob,
    output: Path,
    *,
    progress: Callable[[int], None] | None = None,
    snapshots: Path | None = None,
) -> RenderResult:
    """Render the frames of ``events`` to ``output`` (``.mp4``, ``.gif`` or a PNG folder).

    Args:
        events: The event stream of a search; consumed up to the last frame.
        job: View, video options and HUD content.
        output: Target path; its suffix picks the format. Written atomically.
        progress: Called with the number of frames done after each frame.
        snapshots: If given, a folder that receives ``improve_<k:04d>.png`` (the full frame of
            the improving node, HUD included) for every IMPROVE event with a strictly better
            value than all before it; ``k`` counts from 0.

    Returns:
        Counts, time and path.

    Raises:
        UsageError: An unsupported output path.
        RunError: The encoder failed, a tile image is missing, or no event became a frame.
    """
    start = time.perf_counter()
    output_kind(output)  # an unsupported suffix fails before any work
    painter = _Painter.for_job(job)
    output.parent.mkdir(parents=True, exist_ok=True)
    encoder = open_encoder(
        output,
        width=painter.width,
        height=painter.height,
        video=job.video,
        palette=painter.atlas.palette,
    )
    painter.open(encoder.pixel_format)
    snapper = _Snapshots(job, painter.atlas, snapshots) if snapshots is not None else None
    frames = 0
    count = 0
    move_hold = max(0, round(job.video.hold_moves * job.video.fps) - 1)
    with encoder:
        for event, frame, best in _frames_with_best(events, job.video):
            count += 1
            if snapper is not None:
                snapper.offer(event)
            if frame is None:
                continue
            canvas = painter.draw(event, best)
            hold = move_hold if event.kind is EventKind.MOVE else 0
            encoder.write(canvas.frame, canvas.take_dirty(), hold=hold)
            frames += 1
            if progress is not None:
                progress(frames)
        if frames == 0:
            raise RunError(f"no frames: no event was selected by frames = {job.video.frames!r}")
    return RenderResult(
        frames=frames,
        encoded_frames=encoder.encoded_frames,
        events=count,
        seconds=time.perf_counter() - start,
        path=output,
    )


def render_frame(events: Iterable[Event], job: RenderJob, index: int) -> npt.NDArray[np.uint8]:
    """Frame ``index`` of the render of ``events`` as ``(height, width, 3)`` RGB.

    Only the frame policy runs over the events before it; the frame is drawn once. Negative
    indices count from the end (-1 is the last frame), which runs the search to its cut.

    Raises:
        UsageError: ``index`` is out of range.
    """
    chosen: tuple[Event, float | None] | None = None
    frames = 0
    if index >= 0:
        for event, frame, best in _frames_with_best(events, job.video):
            if frame is not None:
                frames += 1
                if frame == index:
                    chosen = (event, best)
                    break
    else:
        recent: deque[tuple[Event, float | None]] = deque(maxlen=-index)
        for event, frame, best in _frames_with_best(events, job.video):
            if frame is not None:
                frames += 1
                recent.append((event, best))
        if len(recent) == -index:
            chosen = recent[0]
    if chosen is None:
        raise UsageError(f"frame {index} is out of range: the video has {frames} frames")
    painter = _Painter.for_job(job)
    painter.open(PixelFormat.RGB24)
    return painter.draw(*chosen).frame


def _frames_with_best(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None, float | None]]:
    """:func:`assign_frames` plus the HUD's best value so far (the latest IMPROVE value)."""
    best: float | None = None
    for event, frame in assign_frames(events, video):
        if event.kind is EventKind.IMPROVE and event.value is not None:
            best = event.value
        yield event, frame, best


class _Painter:
    """Draws frames of one job: view -> canvas, plus the HUD strip."""

    def __init__(self, job: RenderJob, atlas: TileAtlas) -> None:
        self.job = job
        self.atlas = atlas
        rows, cols = job.view.shape
        self.width = cols * atlas.size
        self.hud = Hud(self.width, atlas.size) if job.video.hud else None
        self.height = rows * atlas.size + (self.hud.height if self.hud else 0)
        self._canvas: Canvas | None = None
        self._label = "" if not job.values else "score" if job.score is not None else "value"

    @classmethod
    def for_job(cls, job: RenderJob) -> _Painter:
        atlas = TileAtlas(job.view.tileset, job.video.tile_size, extra_colors=HUD_COLORS)
        return cls(job, atlas)

    def open(self, pixel_format: PixelFormat) -> None:
        """Create the canvas in the layout the encoder takes."""
        self._canvas = Canvas(
            self.atlas,
            self.job.view.shape,
            pixel_format,
            footer_height=self.hud.height if self.hud else 0,
            footer_colors=HUD_COLORS,
        )

    def draw(self, event: Event, best: float | None) -> Canvas:
        """Show ``event``'s node (and its HUD line); returns the canvas."""
        canvas = self._canvas
        assert canvas is not None, "open() first"
        canvas.update(self.job.view.grid(event.node))
        if self.hud is not None:
            score = self.job.score
            value = score(event.node) if score is not None else event.value
            if not self.job.values:
                value = best = None
            text = HudText(self.job.title, event.step, event.depth, value, best, self._label)
            if self.hud.update(text):
                canvas.set_footer(self.hud.strip)
        return canvas


class _Snapshots:
    """Writes ``improve_<k>.png`` for every strictly better IMPROVE event."""

    def __init__(self, job: RenderJob, atlas: TileAtlas, folder: Path) -> None:
        self._painter = _Painter(job, atlas)
        self._painter.open(PixelFormat.RGB24)
        self._folder = folder
        self._best: float | None = None
        self._count = 0

    def offer(self, event: Event) -> None:
        value = event.value
        if event.kind is not EventKind.IMPROVE or value is None:
            return
        if self._best is not None and value <= self._best:
            return
        self._best = value
        self._folder.mkdir(parents=True, exist_ok=True)
        canvas = self._painter.draw(event, value)
        write_png(canvas.frame, self._folder / f"improve_{self._count:04d}.png")
        self._count += 1
