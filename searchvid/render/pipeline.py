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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from searchvid.errors import RunError, UsageError
from searchvid.render.boardlegend import Mark
from searchvid.render.canvas import PixelFormat
from searchvid.render.cards import (
    BestFrames,
    Shown,
    card_of,
    held_last,
)
from searchvid.render.clip import Clip
from searchvid.render.deadtime import with_fast
from searchvid.render.encode import open_encoder, write_png
from searchvid.render.frame import FramePainter
from searchvid.render.framelayout import FrameLayout
from searchvid.render.html import Annotates
from searchvid.render.job import EventSource, RenderJob, RenderResult, track
from searchvid.render.jumps import frame_holds
from searchvid.render.output import OutputKind, check_target
from searchvid.render.pathmarks import Move, PathWatch
from searchvid.render.pathmarks import deepest as path_deepest
from searchvid.render.placed import PlacedWatch, Step
from searchvid.render.settings import VideoOptions
from searchvid.render.stepping import (
    Run,
    frames_with_best,
    normalise,
    status_reader,
    strip_texts,
    timed_strips,
)
from searchvid.render.undo import Left, UndoWatch
from searchvid.render.voice import Card, Ending
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from searchvid.signals import checkpoint, run_to_completion

__all__ = [
    "RenderJob",
    "RenderResult",
    "drawn_frames",
    "frame_holds",
    "frame_size",
    "render",
    "render_frame",
    "strip_texts",
    "timed_strips",
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
    clip: Clip | None = None,
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
        clip: Only these frames, each held as in the whole video (the frames before them
            are replayed, not drawn); see :func:`~searchvid.render.cliprender.render_clip`, which
            also writes a clip's captions.

    Returns:
        Counts, time and path.

    Raises:
        UsageError: An unsupported output path, or frames the format cannot hold.
        RunError: The encoder failed, a tile image is missing, or no event became a frame.
    """
    start = time.perf_counter()
    # an unusable output path fails before any work
    if check_target(output) is OutputKind.VTT:  # captions: words and times, no pixels
        from searchvid.render.vtt import write_captions

        if clip is not None:
            raise ValueError("a clip's captions are written by render_clip")

        return write_captions(events, job, output, progress=progress, snapshots=snapshots)
    sources, jobs = normalise(events, job)
    video = jobs[0].video
    painter = frame_painter(sources, jobs, title)
    encoder = open_encoder(
        output,
        width=painter.width,
        height=painter.height,
        video=held_last(video) if clip is None else clip.encoder_video(video),
        palette=painter.palette,
        title=title,
    )
    annotate = encoder.annotate if isinstance(encoder, Annotates) else None
    snapper = _Snapshots(jobs[0], snapshots) if snapshots is not None else None
    run = Run(sources, jobs, painter, snapper)
    frames = 0
    with encoder, _kept_on_success(snapper):
        buffer = painter.open(encoder.pixel_format)
        for index, (shown, card, hold) in enumerate(run.timed(draw=clip is None)):
            checkpoint()  # a signal the code it hit swallowed, or held back, stops here
            if clip is not None:
                if index < clip.first:
                    continue  # observed, not drawn: as a preview replays to its frame
                run.draw(shown, card)
            if annotate is not None:
                annotate(_frame_details(shown, jobs))
            encoder.write(buffer.frame, buffer.take_dirty(), hold=hold)
            frames += 1
            if progress is not None:
                progress(frames)
            if clip is not None and index + 1 >= clip.stop:
                break
        if frames == 0:
            raise RunError(_no_frames(video, run.events, spent=run.budget_spent()))
        if clip is not None and frames != clip.frames:
            raise RunError(
                f"the clip's replay made {frames} of its {clip.frames} frames: the search "
                "does not replay the same from its seed"
            )
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
    sources, jobs = normalise(events, job)
    if index < 0:
        if not all(callable(s) for s in sources):
            if not _history_free(jobs):
                raise ValueError("frames counted from the end need replayable event sources")
            return _last_frames(sources[0], jobs[0], index)
        total = Run(sources, jobs, None, None).count()
        if total + index < 0:
            raise UsageError(f"frame {index} is out of range: the video has {total} frames")
        index += total
    painter = frame_painter(sources, jobs, title)
    run = Run(sources, jobs, painter, None)
    frames = 0
    for shown in run.frames():
        if frames == index:
            painter.open(PixelFormat.RGB24)
            run.draw(shown, card_of(jobs[0].video, index, shown))
            assert painter.buffer is not None
            return painter.buffer.frame
        frames += 1
    raise UsageError(f"frame {index} is out of range: the video has {frames} frames")


def _last_frames(source: EventSource, job: RenderJob, index: int) -> npt.NDArray[np.uint8]:
    """Frame ``index`` (< 0) of one history-free search, read once: the recent frames kept."""
    recent: deque[tuple[Event, float | None, bool, Sequence[Field], Ending | None]]
    recent = deque(maxlen=-index)
    lefts: deque[Left | None] = deque(maxlen=-index)  # the node each step back left
    watch = UndoWatch(job.video.keep_depth)
    parents: deque[Step | None] = deque(maxlen=-index)  # the state each step forward left
    placed = PlacedWatch()
    paths: deque[tuple[Move, ...]] = deque(maxlen=-index)  # each frame's path, by depth
    backs: deque[tuple[Event, Left] | None] = deque(maxlen=-index)  # a step back before it
    path = PathWatch(path_deepest(job.video, True))
    frames = 0
    stream = source() if callable(source) else source
    status = status_reader(stream)
    bests = BestFrames(1)  # the search's best, for its closing card
    for event, frame, best, improving, ending in frames_with_best(stream, job.video):
        watch.observe(event)
        placed.observe(event)
        path.observe(event)
        if event.kind is EventKind.IMPROVE:
            bests.improve(0, event)
        if frame is not None:
            lefts.append(watch.left_by(event))
            parents.append(placed.parent_of(event))
            paths.append(path.moves(event))
            backs.append(watch.back_before(event))
            frames += 1
            fields = status(event) if status is not None else ()
            recent.append((event, best, improving, fields, ending))
            if improving:
                bests.offer(0, (event, best, improving, ending), fields)
    if len(recent) < -index:
        raise UsageError(f"frame {index} is out of range: the video has {frames} frames")
    event, best, improving, fields, ending = recent[0]
    painter = FramePainter([track(job, None)], job.video)
    if lefts[0] is not None:
        painter.stepped_back(0, event, lefts[0])
    painter.placed_from(0, event, parents[0])
    painter.path_to(0, event, paths[0])
    painter.stepped_past(0, event, backs[0])
    painter.open(PixelFormat.RGB24)
    card = card_of(job.video, frames + index, [(event, best, improving, ending)])
    if card is Card.CLOSING:
        event, best, fields = bests.closing(0, (event, best, improving, ending), fields)
    fields = with_fast(job.video, frames + index, fields)  # as Run.draw stamps it
    painter.draw(0, event, best, improving=improving, fields=fields, ending=ending, card=card)
    assert painter.buffer is not None
    return painter.buffer.frame


def _history_free(jobs: Sequence[RenderJob]) -> bool:
    heat = jobs[0].heat and jobs[0].video.heatmap != "off"  # the heat map reads every event
    return (
        len(jobs) == 1
        and jobs[0].panel is None
        and not heat
        and not hasattr(jobs[0].view, "observe")
    )


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


def drawn_frames(
    events: EventSource | Sequence[EventSource],
    job: RenderJob | Sequence[RenderJob],
    wanted: Callable[[int], bool],
    *,
    title: str = "",
) -> Iterator[tuple[int, npt.NDArray[np.uint8]]]:
    """``(index, frame)`` for the frames of :func:`render` whose index ``wanted`` accepts, as
    ``(height, width, 3)`` RGB (one buffer, redrawn: copy what you keep); the other frames
    are not drawn (their events are observed, as for :func:`render_frame`)."""
    sources, jobs = normalise(events, job)
    painter = frame_painter(sources, jobs, title)
    run = Run(sources, jobs, painter, None)
    buffer = painter.open(PixelFormat.RGB24)
    for index, shown in enumerate(run.frames()):
        if wanted(index):
            run.draw(shown, card_of(jobs[0].video, index, shown))
            yield index, buffer.frame


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
