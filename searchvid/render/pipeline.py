"""The render pipeline: events -> frame policy -> view -> canvas -> HUD -> encoder.

:func:`render` writes a whole video; :func:`render_frame` draws one frame for a preview
without drawing or encoding the frames before it. Both run the same frame policy and track
the HUD's "best so far" the same way, so a preview equals that frame of the PNG-folder render
pixel for pixel.
"""

from __future__ import annotations

import base64
import contextlib
import html
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import FrameBuffer, PixelFormat
from searchvid.render.encode import (
    Encoder,
    OutputKind,
    check_target,
    open_encoder,
    output_kind,
    write_png,
)
from searchvid.render.frame import FrameLayout, FramePainter, Panel, Track, layout_events
from searchvid.render.html import Annotates
from searchvid.render.narration import Narrator, Voice
from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from searchvid.signals import run_to_completion

__all__ = [
    "RenderJob",
    "RenderResult",
    "VideoWriter",
    "frame_size",
    "render",
    "render_frame",
    "write_png",
]


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
        if kind is OutputKind.HTML and self.path.stat().st_size <= INLINE_LIMIT:
            page = html.escape(self.path.read_text(encoding="utf-8"), quote=True)
            return (
                f'<iframe srcdoc="{page}" title="{caption}" '
                'style="width:100%;height:80vh;border:0"></iframe>'
            )
        return f"<p>{caption}</p>"


GIF_STRIP_RATE = 1
"""In GIFs the strip changes at most this many times a second: a changed counter costs a
band of the frame from the changed tile down to the strip, in bytes and in encoding time.
Committed moves still show at once. Other formats redraw the strip every frame."""

INLINE_LIMIT = 20_000_000
"""Largest output (bytes) that :meth:`RenderResult._repr_html_` embeds as a data URI."""


def _html_source(path: Path, mime: str) -> str:
    """A data URI of ``path`` when small enough, else its path (relative when possible)."""
    if path.stat().st_size <= INLINE_LIMIT:
        return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")
    return html.escape(path.as_posix(), quote=True)


def render(
    events: EventSource | Sequence[EventSource],
    job: RenderJob | Sequence[RenderJob],
    output: Path,
    *,
    progress: Callable[[int], None] | None = None,
    snapshots: Path | None = None,
    title: str = "",
) -> RenderResult:
    """Render the frames of one search, or of several side by side, to ``output``.

    With several searches (``events`` and ``job`` sequences of equal length), each gets a
    column; every video frame advances each search by one selected frame, and a search that
    has ended holds its last frame until all have.

    Args:
        events: The event source of each search; consumed up to its last frame.
        job: View, video options and HUD content of each search (one ``video`` for all).
        output: Target path; its suffix picks the format. Written atomically.
        progress: Called with the number of frames done after each frame.
        snapshots: If given, a folder that receives ``improve_<k:04d>.png`` (the full frame of
            the improving node, HUD included) for every IMPROVE event of the first search with
            a strictly better value than all before it; ``k`` counts from 0.
        title: The video's title where the format has room for one (the HTML player).

    Returns:
        Counts, time and path.

    Raises:
        UsageError: An unsupported output path, or frames the format cannot hold.
        RunError: The encoder failed, a tile image is missing, or no event became a frame.
    """
    start = time.perf_counter()
    check_target(output)  # an unusable output path fails before any work
    sources, jobs = _normalise(events, job)
    video = jobs[0].video
    painter = _painter(sources, jobs, title)
    encoder = open_encoder(
        output,
        width=painter.width,
        height=painter.height,
        video=video,
        palette=painter.palette,
        title=title,
    )
    annotate = encoder.annotate if isinstance(encoder, Annotates) else None
    snapper = _Snapshots(jobs[0], snapshots) if snapshots is not None else None
    run = _Run(sources, jobs, painter, snapper)
    move_hold = max(0, round(video.hold_moves * video.fps) - 1)
    best_hold = max(0, round(video.hold_improvements * video.fps) - 1)
    frames = 0
    if output_kind(output) is OutputKind.GIF:
        painter.strip_every = max(1, round(video.fps / GIF_STRIP_RATE))
    with encoder, _kept_on_success(snapper):
        buffer = painter.open(encoder.pixel_format)
        for shown in run.frames():
            run.draw(shown)
            if annotate is not None:
                annotate(_frame_details(shown, jobs))
            hold = _hold(shown, move_hold, best_hold)
            encoder.write(buffer.frame, buffer.take_dirty(), hold=hold)
            frames += 1
            if progress is not None:
                progress(frames)
        if frames == 0:
            raise RunError(_no_frames(video, run.events))
    return RenderResult(
        frames=frames,
        encoded_frames=encoder.encoded_frames,
        events=run.events,
        seconds=time.perf_counter() - start,
        path=output,
    )


def frame_size(
    shapes: tuple[int, int] | Sequence[tuple[int, int]],
    video: VideoOptions,
    *,
    panels: Sequence[bool] | None = None,
) -> tuple[int, int]:
    """``(width, height)`` in pixels of the frames of views of ``shapes`` (rows, cols) side by
    side: boards, tree panels where ``panels`` says so (default: ``video.tree``) and, with
    ``hud``, the status strips. Cheap: nothing is drawn."""
    listed: list[tuple[int, int]] = (
        [(int(shapes[0]), int(shapes[1]))]  # type: ignore[arg-type]
        if isinstance(shapes[0], int)
        else [(int(r), int(c)) for r, c in shapes]  # type: ignore[misc]
    )
    if any(rows <= 0 or cols <= 0 for rows, cols in listed):
        return 0, 0
    wanted = list(panels) if panels is not None else [video.tree] * len(listed)
    return FrameLayout(listed, video, wanted).size


def _hold(shown: Sequence[Shown], move_hold: int, best_hold: int) -> int:
    """Extra frame durations the current frame stays on screen: a committed move or a new
    best in any column holds it."""
    hold = 0
    for item in shown:
        if item is not None:
            if item[0].kind in _PLAYED:
                hold = max(hold, move_hold)
            if item[2]:
                hold = max(hold, best_hold)
    return hold


def _frame_details(shown: Sequence[Shown], jobs: Sequence[RenderJob]) -> dict[str, Any]:
    """What the HTML player lists for a frame: the first search's event, in words."""
    details: dict[str, Any] = {}
    for index, (item, job) in enumerate(zip(shown, jobs, strict=True)):
        if item is None:
            continue
        event = item[0]
        label = job.label(event.node) if job.label is not None else str(event.node)
        record = {
            "step": event.step,
            "kind": event.kind.value,
            "depth": event.depth,
            "label": label,
            "value": event.value,
        }
        if not details:
            details = record
        else:
            details[f"search {index}"] = f"{record['kind']} {label}"
    return details


def _no_frames(video: VideoOptions, events: int) -> str:
    """Why a render made no frame."""
    why = f"no event was selected by frames = {video.frames!r}"
    if events >= video.max_events:
        why = f"the search ran max_events = {video.max_events} events, and {why}"
    return f"no frames: {why}"


def render_frame(
    events: EventSource | Sequence[EventSource],
    job: RenderJob | Sequence[RenderJob],
    index: int,
    *,
    title: str = "",
) -> npt.NDArray[np.uint8]:
    """Frame ``index`` of the render of ``events`` as ``(height, width, 3)`` RGB.

    Only the frame policy (and the views and panels that observe events) runs over the events
    before it; the frame is drawn once. Negative indices count from the end (-1 is the last
    frame): the searches then run twice, the first time only to count the frames, which needs
    replayable sources unless a single search's view keeps no history.

    Raises:
        UsageError: ``index`` is out of range.
    """
    sources, jobs = _normalise(events, job)
    if index < 0:
        if not all(callable(s) for s in sources):
            if not _history_free(jobs):
                raise ValueError("frames counted from the end need replayable event sources")
            return _last_frames(sources[0], jobs[0], index)
        total = _Run(sources, jobs, None, None).count()
        if total + index < 0:
            raise UsageError(f"frame {index} is out of range: the video has {total} frames")
        index += total
    painter = _painter(sources, jobs, title)
    run = _Run(sources, jobs, painter, None)
    frames = 0
    for shown in run.frames():
        if frames == index:
            painter.open(PixelFormat.RGB24)
            run.draw(shown)
            assert painter.buffer is not None
            return painter.buffer.frame
        frames += 1
    raise UsageError(f"frame {index} is out of range: the video has {frames} frames")


def _last_frames(source: EventSource, job: RenderJob, index: int) -> npt.NDArray[np.uint8]:
    """Frame ``index`` (< 0) of one history-free search, read once: the recent frames kept."""
    recent: deque[tuple[Event, float | None]] = deque(maxlen=-index)
    frames = 0
    stream = source() if callable(source) else source
    for event, frame, best, _ in _frames_with_best(stream, job.video):
        if frame is not None:
            frames += 1
            recent.append((event, best))
    if len(recent) < -index:
        raise UsageError(f"frame {index} is out of range: the video has {frames} frames")
    event, best = recent[0]
    painter = FramePainter([_track(job, None)], job.video)
    painter.open(PixelFormat.RGB24)
    painter.draw(0, event, best)
    assert painter.buffer is not None
    return painter.buffer.frame


def _history_free(jobs: Sequence[RenderJob]) -> bool:
    return len(jobs) == 1 and jobs[0].panel is None and not hasattr(jobs[0].view, "observe")


def _normalise(
    events: EventSource | Sequence[EventSource], job: RenderJob | Sequence[RenderJob]
) -> tuple[list[EventSource], list[RenderJob]]:
    """Sources and jobs as equal-length lists (one search or several)."""
    if isinstance(job, RenderJob):
        single: EventSource = events  # type: ignore[assignment]
        return [single], [job]
    jobs = list(job)
    sources: list[EventSource] = list(events)  # type: ignore[arg-type]
    if len(sources) != len(jobs) or not jobs:
        raise ValueError("one event source per job")
    return sources, jobs


def _painter(
    sources: Sequence[EventSource], jobs: Sequence[RenderJob], title: str = ""
) -> FramePainter:
    tracks = []
    for source, job in zip(sources, jobs, strict=True):
        if job.panel is not None and not callable(source):
            raise ValueError("a tree panel needs a replayable event source (a function)")
        tracks.append(_track(job, source if callable(source) else None))
    return FramePainter(tracks, jobs[0].video, title=title or jobs[0].title)


def _track(job: RenderJob, source: Callable[[], Iterable[Event]] | None) -> Track:
    make = job.panel
    panel = None
    if make is not None and source is not None:
        video = job.video

        def panel(width: int, height: int) -> Panel:
            return make(width, height, layout_events(source, video))

    return Track(job.view, job.voice(), panel)


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
_IMPROVE = EventKind.IMPROVE
Shown = tuple[Event, float | None, bool] | None
"""What a column shows: the event of its latest frame, the best value so far, and whether
the frame shows a new best."""


class _Run:
    """Steps several searches together, one selected frame each per video frame."""

    def __init__(
        self,
        sources: Sequence[EventSource],
        jobs: Sequence[RenderJob],
        painter: FramePainter | None,
        snapper: _Snapshots | None,
    ) -> None:
        self._sources = sources
        self._video = jobs[0].video
        self._painter = painter
        self._snapper = snapper
        self._status: list[Callable[[], Sequence[Field]] | None] = []
        self.events = 0

    def frames(self) -> Iterator[list[Shown]]:
        """For each video frame, what every column shows (events observed on the way)."""
        opened = [s() if callable(s) else s for s in self._sources]
        self._status = [getattr(stream, "status", None) for stream in opened]
        streams = [_frames_with_best(stream, self._video) for stream in opened]
        shown: list[Shown] = [None] * len(streams)
        live = [True] * len(streams)
        painter = self._painter
        while True:
            advanced = False
            for i, stream in enumerate(streams):
                if not live[i]:
                    continue
                for event, frame, best, improving in stream:
                    self.events += 1
                    if painter is not None:
                        painter.observe(i, event)
                    if i == 0 and self._snapper is not None:
                        self._snapper.offer(event)
                    if frame is not None:
                        shown[i] = (event, best, improving)
                        advanced = True
                        break
                else:
                    live[i] = False
            if not advanced:
                return
            yield shown

    def count(self) -> int:
        """How many video frames the searches make (nothing observed or drawn)."""
        return sum(1 for _ in self.frames())

    def draw(self, shown: Sequence[Shown]) -> None:
        """Paint every column's current frame."""
        assert self._painter is not None
        for i, item in enumerate(shown):
            if item is not None:
                event, best, improving = item
                status = self._status[i] if i < len(self._status) else None
                fields = status() if status is not None else ()
                self._painter.draw(i, event, best, improving=improving, fields=fields)


def _frames_with_best(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None, float | None, bool]]:
    """:func:`assign_frames` plus the HUD's best value so far (the latest IMPROVE value) and
    whether the next event reports the event's node as a new best (a moment to hold on).

    Each event is yielded once the one after it is known (one event of lookahead)."""
    best: float | None = None
    previous: tuple[Event, int | None, float | None] | None = None
    for event, frame in assign_frames(events, video):
        if previous is not None:
            improving = event.kind is _IMPROVE and event.node is previous[0].node
            yield (*previous, improving)
        if event.kind is _IMPROVE and event.value is not None:
            best = event.value
        previous = (event, frame, best)
    if previous is not None:
        yield (*previous, False)


class _Snapshots:
    """Writes ``improve_<k>.png`` for every strictly better IMPROVE event of one search.

    They are outputs of the render like the video: when the render fails or is interrupted,
    :meth:`discard` removes the files written and the folders made for them.
    """

    def __init__(self, job: RenderJob, folder: Path) -> None:
        self._painter = FramePainter([_track(job, None)], job.video)
        self._painter.open(PixelFormat.RGB24)
        self._folder = folder
        self._best: float | None = None
        self._count = 0
        self._written: list[Path] = []
        self._made: list[Path] = []  # folders created here, outermost first

    def discard(self) -> None:
        """Remove every snapshot written, then the folders made for them (if empty)."""
        for path in self._written:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        self._written.clear()
        for folder in reversed(self._made):
            with contextlib.suppress(OSError):  # not empty: someone else's files are in it
                folder.rmdir()
        self._made.clear()

    def offer(self, event: Event) -> None:
        value = event.value
        if event.kind is not EventKind.IMPROVE or value is None:
            return
        if self._best is not None and value <= self._best:
            return
        self._best = value
        if not self._made and not self._folder.is_dir():
            missing = [self._folder, *(p for p in self._folder.parents if not p.exists())]
            self._folder.mkdir(parents=True, exist_ok=True)
            self._made = sorted(missing, key=lambda p: len(p.parts))
        self._painter.draw(0, event, value, improving=True)
        assert self._painter.buffer is not None
        path = self._folder / f"improve_{self._count:04d}.png"
        self._written.append(path)  # before the write: an interrupted write is removed too
        write_png(self._painter.buffer.frame, path)
        self._count += 1


@contextlib.contextmanager
def _kept_on_success(snapshots: _Snapshots | None) -> Iterator[None]:
    """Discard ``snapshots`` when the block fails or is interrupted (signals held back)."""
    try:
        yield
    except BaseException:
        if snapshots is not None:
            run_to_completion(snapshots.discard)
        raise


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
        out: ``NAME.mp4``, ``NAME.gif``, ``NAME.html`` (a player) or a folder of PNG frames.
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
        check_target(self.path)  # an unusable output path fails before any work
        self._job = RenderJob(view=view, video=video, title=title)
        self._painter: FramePainter | None = None
        self._buffer: FrameBuffer | None = None
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
        painter = FramePainter([_track(self._job, None)], self._job.video)
        encoder = open_encoder(
            self.path,
            width=painter.width,
            height=painter.height,
            video=self._job.video,
            palette=painter.palette,
            title=self._job.title,
        )
        encoder.__enter__()
        try:
            self._buffer = painter.open(encoder.pixel_format)
        except BaseException as error:
            encoder.__exit__(type(error), error, None)
            raise
        self._painter, self._encoder = painter, encoder
        return self

    def observe(self, node: Any, *, depth: int | None = None, value: float | None = None) -> None:
        """Add one frame showing ``node``.

        Args:
            node: A state the view can draw.
            depth: Shown in the status strip (None: ``-``).
            value: The node's value, shown with the best value so far (None: none).
        """
        painter, buffer, encoder = self._painter, self._buffer, self._encoder
        if painter is None or buffer is None or encoder is None:
            raise RuntimeError("observe() is called inside `with VideoWriter(...) as video:`")
        if value is not None and (self._best is None or value > self._best):
            self._best = value
        event = Event(EventKind.ENTER, node, depth if depth is not None else 0, self._frames, value)
        painter.observe(0, event)
        painter.draw(0, event, self._best)
        encoder.write(buffer.frame, buffer.take_dirty())
        self._frames += 1

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: object,
    ) -> None:
        encoder, self._encoder, self._painter, self._buffer = self._encoder, None, None, None
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
