"""The render pipeline: events -> frame policy -> view -> canvas -> HUD -> encoder.

:func:`render` writes a whole video; :func:`render_frame` draws one frame for a preview
without drawing or encoding the frames before it. Both run the same frame policy and track
the HUD's "best so far" the same way, so a preview equals that frame of the PNG-folder render
pixel for pixel.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from searchvid.errors import RunError, UsageError
from searchvid.render.boardlegend import Mark
from searchvid.render.canvas import PixelFormat
from searchvid.render.encode import open_encoder, write_png
from searchvid.render.frame import FrameLayout, FramePainter
from searchvid.render.html import Annotates
from searchvid.render.hud import HudText
from searchvid.render.job import EventSource, RenderJob, RenderResult, track
from searchvid.render.narration import Ending, Narration
from searchvid.render.output import check_target
from searchvid.render.policy import FINAL_FRAME_LOOKAHEAD, assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.writer import VideoWriter
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from searchvid.signals import checkpoint, run_to_completion
from searchvid.usercode import describe_failure

__all__ = [
    "RenderJob",
    "RenderResult",
    "VideoWriter",
    "frame_size",
    "render",
    "render_frame",
    "strip_texts",
    "write_png",
]


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
    painter = frame_painter(sources, jobs, title)
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
    with encoder, _kept_on_success(snapper):
        buffer = painter.open(encoder.pixel_format)
        for shown in run.frames():
            checkpoint()  # a signal the code it hit swallowed, or held back, stops here
            run.draw(shown)
            if annotate is not None:
                annotate(_frame_details(shown, jobs))
            hold = _hold(shown, move_hold, best_hold)
            encoder.write(buffer.frame, buffer.take_dirty(), hold=hold)
            frames += 1
            if progress is not None:
                progress(frames)
        if frames == 0:
            raise RunError(_no_frames(video, run.events, spent=run.budget_spent()))
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
    marks: Sequence[Mark] = (),
) -> tuple[int, int]:
    """``(width, height)`` in pixels of the frames of views of ``shapes`` (rows, cols) side by
    side (or stacked): boards, tree panels where ``panels`` says so (default: ``video.tree``),
    with ``legend`` the legends of ``marks`` and, with ``hud``, the status strips. Cheap:
    nothing is drawn."""
    listed: list[tuple[int, int]] = (
        [(int(shapes[0]), int(shapes[1]))]  # type: ignore[arg-type]
        if isinstance(shapes[0], int)
        else [(int(r), int(c)) for r, c in shapes]  # type: ignore[misc]
    )
    if any(rows <= 0 or cols <= 0 for rows, cols in listed):
        return 0, 0
    wanted = list(panels) if panels is not None else [video.tree] * len(listed)
    return FrameLayout(listed, video, wanted, marks=marks).size


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


def _no_frames(video: VideoOptions, events: int, *, spent: bool = False) -> str:
    """Why a render made no frame (``spent``: a search's work budget ended it)."""
    why = f"no event was selected by frames = {video.frames!r}"
    if events >= video.max_events:
        why = f"the search ran max_events = {video.max_events} events, and {why}"
    elif spent:
        work = "nodes visited, children generated or iterations"
        why = (
            f"the search did max_events = {video.max_events} units of work ({work}) in "
            f"{events} events, and {why}"
        )
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
    painter = frame_painter(sources, jobs, title)
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
    recent: deque[tuple[Event, float | None, bool, Sequence[Field], Ending | None]]
    recent = deque(maxlen=-index)
    frames = 0
    stream = source() if callable(source) else source
    status = _status_reader(stream)
    for event, frame, best, improving, ending in _frames_with_best(stream, job.video):
        if frame is not None:
            frames += 1
            fields = status(event) if status is not None else ()
            recent.append((event, best, improving, fields, ending))
    if len(recent) < -index:
        raise UsageError(f"frame {index} is out of range: the video has {frames} frames")
    event, best, improving, fields, ending = recent[0]
    painter = FramePainter([track(job, None)], job.video)
    painter.open(PixelFormat.RGB24)
    painter.draw(0, event, best, improving=improving, fields=fields, ending=ending)
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


def frame_painter(
    sources: Sequence[EventSource], jobs: Sequence[RenderJob], title: str = ""
) -> FramePainter:
    """The painter of the frames of these searches (their tree panels laid out, nothing
    drawn yet): what a render draws with, and what can be asked for the frame's metrics."""
    tracks = []
    for source, job in zip(sources, jobs, strict=True):
        if job.panel is not None and not callable(source):
            raise ValueError("a tree panel needs a replayable event source (a function)")
        tracks.append(track(job, source if callable(source) else None))
    return FramePainter(tracks, jobs[0].video, title=title or jobs[0].title)


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
_IMPROVE = EventKind.IMPROVE
Shown = tuple[Event, float | None, bool, Ending | None] | None
"""What a column shows: the event of its latest frame, the best value so far, whether the
frame shows a new best, and why it is the search's last frame (None: it is not)."""

StatusReader = Callable[[Event], Sequence[Field]]
"""The fields of a search's algorithm for the frame of an event."""


class _Painter(Protocol):
    """What :class:`_Run` draws with: a :class:`FramePainter`, or :class:`_Strips`."""

    def observe(self, track: int, event: Event) -> None: ...

    def draw(
        self,
        track: int,
        event: Event,
        best: float | None,
        *,
        improving: bool = False,
        fields: Sequence[Field] = (),
        ending: Ending | None = None,
    ) -> None: ...


def _status_reader(stream: Iterable[Event]) -> StatusReader | None:
    """How to ask ``stream`` for its algorithm's fields at an event: ``status_of(event)``
    (the fields as they were when the event was made), else ``status()`` (as they are now),
    else None."""
    status_of: StatusReader | None = getattr(stream, "status_of", None)
    if status_of is not None:
        return status_of
    status: Callable[[], Sequence[Field]] | None = getattr(stream, "status", None)
    if status is None:
        return None
    return lambda _event: status()


_T = TypeVar("_T")


def _naming(stream: Iterator[_T], index: int, count: int) -> Iterator[_T]:
    """``stream``; among several searches, a failure of one names it: ``search[1]: ...``."""
    if count == 1:
        yield from stream
        return
    try:
        yield from stream
    except Exception as error:
        if isinstance(error, UsageError):
            raise UsageError(f"search[{index}]: {error}") from error
        raise RunError(f"search[{index}]: {describe_failure(error)}") from error


class _Run:
    """Steps several searches together, one selected frame each per video frame."""

    def __init__(
        self,
        sources: Sequence[EventSource],
        jobs: Sequence[RenderJob],
        painter: _Painter | None,
        snapper: _Snapshots | None,
    ) -> None:
        self._sources = sources
        self._video = jobs[0].video
        self._painter = painter
        self._snapper = snapper
        self._status: list[StatusReader | None] = []
        self._opened: list[Iterable[Event]] = []
        self.events = 0

    def frames(self) -> Iterator[list[Shown]]:
        """For each video frame, what every column shows (events observed on the way)."""
        opened = self._opened = [s() if callable(s) else s for s in self._sources]
        self._status = [_status_reader(stream) for stream in opened]
        streams = [
            _naming(_frames_with_best(stream, self._video), i, len(opened))
            for i, stream in enumerate(opened)
        ]
        shown: list[Shown] = [None] * len(streams)
        live = [True] * len(streams)
        painter = self._painter
        while True:
            advanced = False
            for i, stream in enumerate(streams):
                if not live[i]:
                    continue
                for event, frame, best, improving, ending in stream:
                    self.events += 1
                    if painter is not None:
                        painter.observe(i, event)
                    if i == 0 and self._snapper is not None:
                        self._snapper.offer(event)
                    if frame is not None:
                        shown[i] = (event, best, improving, ending)
                        advanced = True
                        break
                else:
                    live[i] = False
            if not advanced:
                return
            yield shown

    def budget_spent(self) -> bool:
        """Whether a search ended because its work budget (``max_events``) ran out."""
        return any(getattr(stream, "budget_spent", False) for stream in self._opened)

    def count(self) -> int:
        """How many video frames the searches make (nothing observed or drawn)."""
        return sum(1 for _ in self.frames())

    def draw(self, shown: Sequence[Shown]) -> None:
        """Paint every column's current frame."""
        assert self._painter is not None
        for i, item in enumerate(shown):
            if item is not None:
                event, best, improving, ending = item
                status = self._status[i] if i < len(self._status) else None
                fields = status(event) if status is not None else ()
                self._painter.draw(
                    i, event, best, improving=improving, fields=fields, ending=ending
                )


_Framed = tuple[Event, int | None, float | None, bool]
"""An event, its frame (or None), the best value so far, and whether it is a new best."""


def _frames_with_best(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None, float | None, bool, Ending | None]]:
    """:func:`assign_frames` plus the HUD's best value so far, whether the event's node is a
    new best, and, for the last frame of the stream, why it is the last (else None).

    To know that a frame is the last, the events after it are held back until the next frame
    or the end of the stream, at most :data:`~searchvid.render.policy.FINAL_FRAME_LOOKAHEAD`
    of them (a frame followed by more events without a frame counts as not the last). They
    are yielded in order, so observers see each event before the frames after it."""
    held: list[_Framed] = []  # a frame, then the events after it
    seen = 0
    for item in _with_best(events, video):
        seen += 1
        if held:
            if item[1] is None and len(held) <= FINAL_FRAME_LOOKAHEAD:
                held.append(item)
                continue
            yield (*held[0], None)
            yield from ((*later, None) for later in held[1:])
            held.clear()
        if item[1] is None:
            yield (*item, None)
        else:
            held.append(item)
    if held:
        yield (*held[0], _ending(events, video, held[0][1], seen))
        yield from ((*later, None) for later in held[1:])


def _ending(events: Iterable[Event], video: VideoOptions, frame: int | None, seen: int) -> Ending:
    """Why the stream's last frame, ``frame``, is the last, once ``seen`` events were read."""
    if frame is not None and frame >= video.max_frames - 1:
        return Ending.MAX_FRAMES
    if seen >= video.max_events:
        return Ending.MAX_EVENTS
    if getattr(events, "budget_spent", False):
        return Ending.BUDGET
    return Ending.COMPLETE


def _with_best(events: Iterable[Event], video: VideoOptions) -> Iterator[_Framed]:
    """:func:`assign_frames` plus the HUD's best value so far (the latest IMPROVE value) and
    whether the next event reports the event's node as a new best (a moment to hold on);
    such a frame shows that new best as the best.

    Each event is yielded once the one after it is known (one event of lookahead)."""
    best: float | None = None
    previous: tuple[Event, int | None, float | None] | None = None
    for event, frame in assign_frames(events, video):
        if previous is not None:
            if event.kind is _IMPROVE and event.node is previous[0].node:
                new = event.value if event.value is not None else previous[2]
                yield (previous[0], previous[1], new, True)
            else:
                yield (*previous, False)
        if event.kind is _IMPROVE and event.value is not None:
            best = event.value
        previous = (event, frame, best)
    if previous is not None:
        yield (*previous, False)


class _Strips:
    """Stands in for a :class:`FramePainter` to read the status strips' words: no pixels."""

    def __init__(self, jobs: Sequence[RenderJob]) -> None:
        self.narrations = [Narration(job.voice()) for job in jobs]
        self.texts: list[tuple[Event, HudText] | None] = [None] * len(jobs)

    def observe(self, track: int, event: Event) -> None:
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
    ) -> None:
        text = self.narrations[track].text(event, best, improving, fields, ending)
        self.texts[track] = (event, text)


def strip_texts(
    events: EventSource | Sequence[EventSource], job: RenderJob | Sequence[RenderJob]
) -> Iterator[list[tuple[Event, HudText] | None]]:
    """For every video frame, each column's event and what its status strip says (None: a
    column with no frame yet), with nothing drawn: the events, frame policy and words of
    :func:`render`, for checking what the strips claim against the search."""
    sources, jobs = _normalise(events, job)
    strips = _Strips(jobs)
    run = _Run(sources, jobs, strips, None)
    for shown in run.frames():
        run.draw(shown)
        yield list(strips.texts)


class _Snapshots:
    """Writes ``improve_<k>.png`` for every strictly better IMPROVE event of one search.

    They are outputs of the render like the video: when the render fails or is interrupted,
    :meth:`discard` removes the files written and the folders made for them.
    """

    def __init__(self, job: RenderJob, folder: Path) -> None:
        self._painter = FramePainter([track(job, None)], job.video)
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
