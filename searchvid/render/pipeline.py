"""The render pipeline: events -> frame policy -> view -> canvas -> HUD -> encoder.

:func:`render` writes a whole video; :func:`render_frame` draws one frame for a preview
without drawing or encoding the frames before it. Both run the same frame policy and track
the HUD's "best so far" the same way, so a preview equals that frame of the PNG-folder render
pixel for pixel.
"""

from __future__ import annotations

import base64
import html
import os
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
from searchvid.render.encode import Encoder, OutputKind, open_encoder, output_kind, write_png
from searchvid.render.hud import HUD_COLORS, Hud, HudText
from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.search.events import Event, EventKind

__all__ = [
    "RenderJob",
    "RenderResult",
    "VideoWriter",
    "frame_size",
    "render",
    "render_frame",
    "write_png",
]


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

    In a notebook it shows itself: an MP4 as a ``<video>``, a GIF as an ``<img>`` (embedded
    as data when at most :data:`INLINE_LIMIT` bytes, else linked by path).

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

    def __str__(self) -> str:
        return f"{self.frames} frames in {self.seconds:.1f} s -> {self.path}"

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
        return f"<p>{caption}</p>"


INLINE_LIMIT = 20_000_000
"""Largest output (bytes) that :meth:`RenderResult._repr_html_` embeds as a data URI."""


def _html_source(path: Path, mime: str) -> str:
    """A data URI of ``path`` when small enough, else its path (relative when possible)."""
    if path.stat().st_size <= INLINE_LIMIT:
        return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")
    return html.escape(path.as_posix(), quote=True)


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
            raise RunError(_no_frames(job.video, count))
    return RenderResult(
        frames=frames,
        encoded_frames=encoder.encoded_frames,
        events=count,
        seconds=time.perf_counter() - start,
        path=output,
    )


def frame_size(shape: tuple[int, int], video: VideoOptions) -> tuple[int, int]:
    """``(width, height)`` in pixels of the frames of a view of ``shape`` (rows, cols): the
    board plus, with ``hud``, the status strip. Cheap: nothing is drawn."""
    rows, cols = shape
    width = cols * video.tile_size
    strip = Hud(width, video.tile_size).height if video.hud and width > 0 else 0
    return width, rows * video.tile_size + strip


def _no_frames(video: VideoOptions, events: int) -> str:
    """Why a render made no frame."""
    why = f"no event was selected by frames = {video.frames!r}"
    if events >= video.max_events:
        why = f"the search ran max_events = {video.max_events} events, and {why}"
    return f"no frames: {why}"


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
        return self.paint(event.node, event.step, event.depth, event.value, best)

    def paint(
        self, node: Any, step: int, depth: int | None, value: float | None, best: float | None
    ) -> Canvas:
        """Show ``node`` with its HUD line (step, depth, value, best); returns the canvas."""
        canvas = self._canvas
        assert canvas is not None, "open() first"
        canvas.update(self.job.view.grid(node))
        if self.hud is not None:
            score = self.job.score
            if score is not None:
                value = score(node)
            if not self.job.values:
                value = best = None
            text = HudText(self.job.title, step, depth, value, best, self._label)
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


class VideoWriter:
    """Turns any loop into a video: call :meth:`observe` with each state it visits.

    The push-style counterpart of a scene's render (the seeds' ``VideoObserver``), through the
    same cached canvas, HUD and encoders: each call is one frame, and only the tiles whose id
    changed are redrawn. Use it as a context manager; the file appears when the block ends
    without an error, and :attr:`result` then holds the :class:`RenderResult`::

        with VideoWriter("walk.mp4", MyDomain(options).view(), fps=12) as video:
            for node in my_search(root):
                video.observe(node)
        print(video.result)

    Args:
        out: ``NAME.mp4``, ``NAME.gif`` or a folder of PNG frames.
        view: Draws the nodes (a domain's ``view()``, or a :class:`~searchvid.GridView`).
        fps: Frames per second, 1 to 120.
        tile_size: Pixels per tile edge (even, 8 to 512).
        hud: Draw the status strip (title, step, depth, value, best so far).
        title: The strip's first line.
        hold_last: Seconds the last frame stays on screen.
        quality: MP4 encoder preset: ``"draft"``, ``"default"`` or ``"final"``.

    Raises:
        UsageError: A bad setting (naming it and what is allowed) or output path.
    """

    def __init__(
        self,
        out: str | os.PathLike[str],
        view: View,
        *,
        fps: int = 12,
        tile_size: int = 100,
        hud: bool = True,
        title: str = "",
        hold_last: float = 2.0,
        quality: str = "default",
    ) -> None:
        from searchvid.errors import OptionError
        from searchvid.options import build_options

        settings: dict[str, Any] = {"fps": fps, "tile_size": tile_size, "hud": hud}
        settings |= {"hold_last": hold_last, "quality": quality}
        try:
            video = build_options(VideoOptions, settings)
        except OptionError as error:
            raise UsageError(f"VideoWriter: {error}") from None
        self.path = Path(out)
        if not os.fspath(self.path).strip():
            raise UsageError("VideoWriter: the output path is empty")
        output_kind(self.path)  # an unsupported suffix fails before any work
        self._job = RenderJob(view=view, video=video, title=title)
        self._painter: _Painter | None = None
        self._encoder: Encoder | None = None
        self._frames = 0
        self._best: float | None = None
        self._start = 0.0
        self.result: RenderResult | None = None
        """The render's result once the ``with`` block has ended without an error."""

    @property
    def frames(self) -> int:
        """Frames written so far."""
        return self._frames

    def __enter__(self) -> VideoWriter:
        if self._encoder is not None or self.result is not None:
            raise RuntimeError("a VideoWriter writes one video; make a new one")
        self._start = time.perf_counter()
        painter = _Painter.for_job(self._job)
        encoder = open_encoder(
            self.path,
            width=painter.width,
            height=painter.height,
            video=self._job.video,
            palette=painter.atlas.palette,
        )
        encoder.__enter__()
        painter.open(encoder.pixel_format)
        self._painter, self._encoder = painter, encoder
        return self

    def observe(self, node: Any, *, depth: int | None = None, value: float | None = None) -> None:
        """Add one frame showing ``node``.

        Args:
            node: A state the view can draw.
            depth: Shown in the status strip (None: ``-``).
            value: The node's value, shown with the best value so far (None: none).
        """
        if self._painter is None or self._encoder is None:
            raise RuntimeError("observe() is called inside `with VideoWriter(...) as video:`")
        if value is not None and (self._best is None or value > self._best):
            self._best = value
        canvas = self._painter.paint(node, self._frames, depth, value, self._best)
        self._encoder.write(canvas.frame, canvas.take_dirty())
        self._frames += 1

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: object,
    ) -> None:
        encoder, self._encoder, self._painter = self._encoder, None, None
        if encoder is None:
            return
        if exc_type is None and self._frames == 0:
            encoder.__exit__(RunError, RunError("no frames"), None)
            raise RunError(f"no frames: observe() was never called, so {self.path} was not written")
        encoder.__exit__(exc_type, exc, None)
        if exc_type is None:
            self.result = RenderResult(
                frames=self._frames,
                encoded_frames=encoder.encoded_frames,
                events=self._frames,
                seconds=time.perf_counter() - self._start,
                path=self.path,
            )
