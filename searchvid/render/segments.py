"""A render split across workers: fixed segments of video time, drawn apart, joined.

``render --jobs N`` (or ``--scheduler``) cuts the video into segments of about
:data:`SEGMENT_SECONDS` of video time, at frame boundaries read from the render's own
timing (:meth:`~searchvid.render.stepping.Run.timed`: every hold counted). The cut does
not depend on the number of workers, so neither do the output's bytes.

Each worker replays the seeded event stream silently up to its segment's first frame, as
``preview`` does (events observed, nothing drawn), then draws its frames and encodes them
as an MP4 of their own (a keyframe first, libx264's threads pinned). A worker keeps its
place in the stream between the segments it is given, so the frames it skips are replayed
once, not once per segment. The segments are joined with ffmpeg's concat demuxer, without
re-encoding, into an MP4 written like any other (temporary name, faststart, renamed on
success). A PNG folder is split the same way, its frames named by index; a GIF, an HTML
player and captions are rendered whole (:func:`check_splittable`).

Nothing is left behind: the segments live in a temporary folder removed on every way out,
and on an error or a signal the workers are stopped (SIGTERM, then SIGKILL after
:data:`STOP_SECONDS`) before the output's temporary file is removed.
"""

from __future__ import annotations

import concurrent.futures as futures
import contextlib
import importlib
import io
import logging
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PIL import Image

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import FrameBuffer, PixelFormat
from searchvid.render.cards import held_last
from searchvid.render.encode import Mp4Encoder, ffmpeg_exe
from searchvid.render.job import EventSource, RenderJob, RenderResult
from searchvid.render.output import AtomicOutput, OutputKind, check_target, reserve_partial
from searchvid.render.png import FRAME_NAME, PngFolderEncoder
from searchvid.render.settings import Quality
from searchvid.render.stepping import Run, timed_strips
from searchvid.search.events import Event
from searchvid.signals import checkpoint, run_to_completion, terminate_on_signals
from searchvid.usercode import describe_failure

__all__ = [
    "SEGMENT_SECONDS",
    "SEGMENT_THREADS",
    "Segment",
    "Splittable",
    "check_scheduler",
    "check_splittable",
    "plan_segments",
    "render_segment",
    "render_split",
]

SEGMENT_SECONDS = 10
"""Video time a segment covers, at least (it ends at the first frame boundary past it)."""

SEGMENT_THREADS = 1
"""libx264's threads for every segment, whatever the machine: x264's output depends on its
thread count, and the joined MP4's bytes must not depend on where a segment is encoded. One:
the workers are the parallelism (a worker and its encoder keep about one core busy), and a
single-threaded x264 spends the least CPU time per frame."""

STOP_SECONDS = 2.0
"""How long stopped workers get to clean up (their ffmpeg, their files) before SIGKILL."""

_POLL_SECONDS = 0.05
"""How often the waiting main process looks for a signal (it cannot be raised inside
``concurrent.futures``' own waiting)."""

SPLIT_FORMATS = "an MP4 (.mp4) or a folder of PNG frames"
"""What a split render writes, in words for the refusal of the other formats."""


class Splittable(Protocol):
    """What a split render is given: a scene, or anything that makes its searches and
    jobs afresh in a worker (it is pickled to the workers, so it must pickle)."""

    @property
    def title(self) -> str: ...

    def sources(self) -> Sequence[Callable[[], Iterable[Event]]]: ...

    def render_jobs(self) -> list[RenderJob]: ...


@dataclass(frozen=True)
class Segment:
    """A run of consecutive frames rendered as one piece.

    Attributes:
        index: Its place in the video, from 0.
        first: Index of its first frame.
        stop: Index of the frame after its last.
        holds: Each frame's hold (extra frame durations), as the render times it.
        last: Whether it ends the video (and so holds the last frame for ``hold_last``).
    """

    index: int
    first: int
    stop: int
    holds: tuple[int, ...]
    last: bool

    @property
    def ticks(self) -> int:
        """Its length in frame durations, the last frame's ``hold_last`` aside."""
        return len(self.holds) + sum(self.holds)


def plan_segments(
    holds: Sequence[int], fps: int, *, seconds: float = SEGMENT_SECONDS
) -> list[Segment]:
    """Cut frames with these holds into segments of at least ``seconds`` of video time.

    A segment ends at the first frame boundary at or past ``seconds`` from its start (the
    last one takes what is left), so the cut depends only on the timing, never on the
    number of workers.

    >>> [(s.first, s.stop) for s in plan_segments([0, 3, 0, 0, 5, 0], 2, seconds=2)]
    [(0, 2), (2, 5), (5, 6)]
    """
    length = max(1, round(seconds * fps))
    segments: list[Segment] = []
    first = ticks = 0
    for index, hold in enumerate(holds):
        ticks += 1 + hold
        if ticks >= length and index + 1 < len(holds):
            segments.append(
                Segment(len(segments), first, index + 1, tuple(holds[first : index + 1]), False)
            )
            first, ticks = index + 1, 0
    if first < len(holds):
        segments.append(Segment(len(segments), first, len(holds), tuple(holds[first:]), True))
    return segments


def check_splittable(kind: OutputKind, option: str) -> None:
    """Refuse a split render of a format that is rendered whole.

    Raises:
        UsageError: Naming ``option`` and the formats a split render writes.
    """
    if kind not in (OutputKind.MP4, OutputKind.FOLDER):
        what = {OutputKind.GIF: "a GIF", OutputKind.HTML: "an HTML player"}.get(kind, "captions")
        raise UsageError(
            f"{option}: a split render writes {SPLIT_FORMATS}, not {what}; render it whole "
            "(without --jobs and --scheduler)"
        )


_TCP = r"tcp://(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):\d{1,5}"
"""A Dask scheduler's address: ``tcp://HOST:PORT`` (an IPv6 host in brackets)."""


def check_scheduler(scheduler: str) -> Any:
    """Dask's ``distributed`` module, once ``scheduler`` is known to be one it can use.

    Raises:
        UsageError: Dask is not installed, or ``scheduler`` is neither ``local`` nor
            ``tcp://HOST:PORT``.
    """
    if scheduler != "local" and not re.fullmatch(_TCP, scheduler):
        raise UsageError(f"--scheduler: expected local or tcp://HOST:PORT, got {scheduler!r}")
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'searchvid[dask]'") from None


@dataclass(frozen=True)
class _Task:
    """One segment for a worker: what to render and how."""

    key: str  # the render's id: a worker keeps its place in the stream across its segments
    source: Splittable
    segment: Segment
    kind: OutputKind
    fps: int
    quality: Quality
    hold_last: float
    scratch: str | None  # a folder for the worker's temporary files (None: the system's)


@dataclass(frozen=True)
class _Done:
    """What a worker sends back: the segment's MP4, or its frames as PNG files."""

    index: int
    files: tuple[bytes, ...]


class _Place:
    """A worker's place in one render's stream: the painter with what it has observed, and
    the frames still to come."""

    def __init__(self, task: _Task) -> None:
        source = task.source
        sources: Sequence[EventSource] = list(source.sources())
        jobs = source.render_jobs()
        from searchvid.render.pipeline import frame_painter

        self.key = task.key
        self._painter = frame_painter(sources, jobs, source.title)
        self._run = Run(sources, jobs, self._painter, None)
        fmt = PixelFormat.YUV420P if task.kind is OutputKind.MP4 else PixelFormat.RGB24
        self.buffer: FrameBuffer = self._painter.open(fmt)
        self._frames = enumerate(self._run.timed(draw=False))
        self.next = 0  # the index of the next frame to come

    def frames(self, segment: Segment) -> Iterator[int]:
        """Draw the segment's frames one by one, yielding each one's hold; the frames
        before it are replayed silently."""
        for index, (shown, card, hold) in self._frames:
            self.next = index + 1
            checkpoint()
            if index < segment.first:
                continue
            self._run.draw(shown, card)
            expected = segment.holds[index - segment.first]
            if hold != expected:  # a search that is not reproducible from its seed
                raise RunError(
                    f"frame {index} is held {hold} frames in a worker, {expected} in the "
                    "timing pass: the search does not replay the same from its seed"
                )
            yield hold
            if self.next >= segment.stop:
                return
        raise RunError(
            f"the replay ended at frame {self.next}, before segment {segment.index}'s last "
            f"frame {segment.stop - 1}: the search does not replay the same from its seed"
        )


_PLACES = threading.local()
"""Per worker thread: its :class:`_Place` in the current render (one kept at a time)."""


def render_segment(task: _Task) -> _Done:
    """A worker's part: replay to the segment's first frame, draw and encode its frames.

    Errors come back as one-line :class:`UsageError` or :class:`RunError` (other exceptions
    described as the command line describes them), so that they cross process boundaries.
    """
    try:
        with terminate_on_signals((signal.SIGTERM,)):
            return _render_segment(task)
    except UsageError as error:  # plain classes: a subclass may not rebuild from its text
        raise UsageError(str(error)) from None
    except RunError as error:
        raise RunError(str(error)) from None
    except Exception as error:
        raise RunError(describe_failure(error)) from None


def _render_segment(task: _Task) -> _Done:
    place: _Place | None = getattr(_PLACES, "place", None)
    if place is None or place.key != task.key or place.next > task.segment.first:
        _PLACES.place = None  # let the old one go before the new one is built
        place = _PLACES.place = _Place(task)
    try:
        return _draw_segment(task, place)
    except BaseException:
        _PLACES.place = None  # its stream stopped part-way: a retry starts afresh
        raise


def _draw_segment(task: _Task, place: _Place) -> _Done:
    """Draw and encode ``task``'s segment from ``place`` (which is before its start)."""
    segment = task.segment
    if task.kind is OutputKind.FOLDER:
        files: list[bytes] = []
        for _hold in place.frames(segment):
            image = io.BytesIO()
            Image.fromarray(place.buffer.frame).save(image, format="PNG", compress_level=1)
            files.append(image.getvalue())
        return _Done(segment.index, tuple(files))
    folder = tempfile.mkdtemp(prefix="searchvid-segment-", dir=task.scratch)
    try:
        path = Path(folder) / f"segment_{segment.index:05d}.mp4"
        buffer = place.buffer
        encoder = Mp4Encoder(
            path,
            width=buffer.width,
            height=buffer.height,
            fps=task.fps,
            quality=task.quality,
            hold_last=task.hold_last if segment.last else 0.0,
            threads=SEGMENT_THREADS,
        )
        with encoder:
            for hold in place.frames(segment):
                encoder.write(buffer.frame, None, hold=hold)
        return _Done(segment.index, (path.read_bytes(),))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def render_split(
    source: Splittable,
    target: Path,
    *,
    workers: int,
    scheduler: str | None = None,
    option: str = "--jobs",
    progress: Callable[[int], None] | None = None,
    timing: Sequence[EventSource] | None = None,
) -> RenderResult:
    """Render ``source`` to ``target`` in segments drawn by ``workers`` processes (or by a
    Dask cluster: ``scheduler`` is ``"local"`` or ``"tcp://HOST:PORT"``), then join them.

    Args:
        source: Makes the searches and jobs (pickled to every worker).
        target: An MP4 or a PNG folder; written atomically.
        workers: Worker processes of the local pool, or of a Dask ``local`` cluster.
        scheduler: None for a process pool; else the Dask scheduler to use.
        option: The command-line option that asked for the split (named in refusals).
        progress: Called with the number of frames done each time a segment is done.
        timing: The event sources of the timing pass (default ``source.sources()``).

    Raises:
        UsageError: A format that is rendered whole, a bad scheduler address, or Dask
            missing.
        RunError: No frames, a worker failed or died, or the join failed.
    """
    start = time.perf_counter()
    kind = check_target(target)
    check_splittable(kind, option)
    jobs = source.render_jobs()
    video = jobs[0].video
    holds, events = _timing(timing if timing is not None else source.sources(), jobs)
    if not holds:
        raise RunError(f"no frames: no event was selected by frames = {video.frames!r}")
    segments = plan_segments(holds, video.fps)
    hold_last = held_last(video).hold_last
    key = uuid.uuid4().hex
    with contextlib.ExitStack() as stack:
        output = _JoinedMp4(target) if kind is OutputKind.MP4 else _PngBytesFolder(target)
        stack.enter_context(output)
        scratch = tempfile.mkdtemp(prefix="searchvid-split-")
        stack.callback(run_to_completion, lambda: shutil.rmtree(scratch, ignore_errors=True))
        executor = stack.enter_context(_executor(scheduler, min(workers, len(segments)), scratch))
        local = scheduler is None or scheduler == "local"
        tasks = [
            _Task(
                key,
                source,
                segment,
                kind,
                video.fps,
                video.quality,
                hold_last,
                scratch if local else None,
            )
            for segment in segments
        ]
        pending = {executor.submit(render_segment, task): task.segment for task in tasks}
        done_frames = 0
        while pending:
            finished, _ = futures.wait(pending, _POLL_SECONDS, futures.FIRST_COMPLETED)
            checkpoint()  # a signal stops the render here: the executor's exit stops workers
            for future in finished:
                segment = pending.pop(future)
                output.add(segment, _result(future, segment), scratch)
                done_frames += segment.stop - segment.first
                if progress is not None:
                    progress(done_frames)
        output.join(segments, scratch)
    ticks = sum(segment.ticks for segment in segments)
    return RenderResult(
        frames=len(holds),
        encoded_frames=ticks + round(hold_last * video.fps)
        if kind is OutputKind.MP4
        else len(holds),
        events=events,
        seconds=time.perf_counter() - start,
        path=target,
    )


def _timing(sources: Sequence[EventSource], jobs: Sequence[RenderJob]) -> tuple[list[int], int]:
    """Every frame's hold, as the render times it, and the events read (nothing drawn)."""
    holds: list[int] = []
    strips = timed_strips(list(sources), list(jobs))
    while True:
        try:
            _shown, _texts, hold, _card = next(strips)
        except StopIteration as stop:
            return holds, int(stop.value)
        checkpoint()
        holds.append(hold)


def _result(future: futures.Future[_Done], segment: Segment) -> _Done:
    """The segment a worker made, or its failure as one line."""
    try:
        return future.result()
    except (UsageError, RunError):
        raise
    except futures.process.BrokenProcessPool:
        raise RunError(
            f"a render worker died before segment {segment.index} (frames {segment.first} to "
            f"{segment.stop - 1}) was done; nothing was written"
        ) from None
    except Exception as error:  # Dask's KilledWorker, a lost connection, ...
        raise RunError(
            f"segment {segment.index} (frames {segment.first} to {segment.stop - 1}) failed: "
            f"{describe_failure(error)}"
        ) from None


def _worker_start() -> None:
    """A pool worker leaves SIGINT and SIGHUP to the main process, which stops it with
    SIGTERM (Ctrl-C reaches the whole process group)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


@contextlib.contextmanager
def _executor(scheduler: str | None, workers: int, scratch: str) -> Iterator[futures.Executor]:
    """A process pool of ``workers``, or an executor on a Dask cluster (a local one keeps
    its files in ``scratch``); stopped on the way out (on a failure or a signal, at once:
    running workers are terminated)."""
    if scheduler is not None:
        with _dask_executor(scheduler, workers, scratch) as executor:
            yield executor
        return
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    pool = _Pool(workers, mp_context=context, initializer=_worker_start)
    try:
        yield pool
    except BaseException:
        run_to_completion(lambda: _stop_pool(pool))
        raise
    pool.shutdown(wait=True)


_R = TypeVar("_R")


class _Pool(futures.ProcessPoolExecutor):
    """A process pool that remembers every worker it started, so that all of them can be
    waited for (the pool forgets them when one dies, and terminates the others itself)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.started: dict[int, multiprocessing.process.BaseProcess] = {}

    def submit(self, fn: Callable[..., _R], /, *args: Any, **kwargs: Any) -> futures.Future[_R]:
        future = super().submit(fn, *args, **kwargs)
        self.started.update(getattr(self, "_processes", None) or {})
        return future


def _stop_pool(pool: _Pool) -> None:
    """Stop every worker of ``pool`` now: SIGTERM (they remove their files and ffmpeg), then
    SIGKILL after :data:`STOP_SECONDS`; return once all are gone, so that nothing they do
    can come after the cleanup."""
    processes = list(pool.started.values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            with contextlib.suppress(OSError, ValueError):
                process.kill()
            process.join()


@contextlib.contextmanager
def _dask_executor(scheduler: str, workers: int, scratch: str) -> Iterator[futures.Executor]:
    """An executor on Dask: a LocalCluster of ``workers`` processes (``"local"``) or the
    cluster at ``tcp://HOST:PORT``."""
    distributed = check_scheduler(scheduler)
    with contextlib.ExitStack() as stack:
        config: Any = importlib.import_module("dask.config")
        stack.enter_context(config.set({"temporary-directory": scratch}))  # its lock files too
        try:
            if scheduler == "local":
                cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    local_directory=scratch,
                    silence_logs=logging.ERROR,
                )
                stack.callback(run_to_completion, lambda: cluster.close())
                client = distributed.Client(cluster)
                # Ctrl-C reaches the whole process group: from here on, only this process
                # takes it, and closes the cluster (Dask's start-up before this is its own)
                client.run(_worker_start)
            else:
                client = distributed.Client(scheduler, timeout=10)
        except OSError as error:
            raise RunError(f"--scheduler {scheduler}: cannot connect: {error}") from None
        stack.callback(run_to_completion, lambda: client.close())
        executor = client.get_executor()
        try:
            yield executor
        except BaseException:
            run_to_completion(lambda: executor.shutdown(wait=False))
            raise


class _JoinedMp4(AtomicOutput):
    """The MP4 made of the segments' MP4s, joined by ffmpeg's concat demuxer (no
    re-encoding), faststart like the unsplit MP4."""

    def add(self, segment: Segment, done: _Done, scratch: str) -> None:
        """Keep a segment's MP4 in ``scratch`` until the join."""
        (Path(scratch) / f"segment_{segment.index:05d}.mp4").write_bytes(done.files[0])

    def join(self, segments: Sequence[Segment], scratch: str) -> None:
        """Join the segments, in order, into the temporary output."""
        assert self._tmp is not None
        listing = Path(scratch) / "segments.txt"
        names = [Path(scratch) / f"segment_{s.index:05d}.mp4" for s in segments]
        listing.write_text("".join(f"file '{name}'\n" for name in names), encoding="utf-8")
        command = [
            ffmpeg_exe(),
            *("-hide_banner", "-nostats", "-loglevel", "error"),
            *("-f", "concat", "-safe", "0", "-i", str(listing), "-c", "copy"),
            *("-movflags", "+faststart", "-f", "mp4", "-y", f"file:{self._tmp}"),
        ]
        try:
            done = subprocess.run(command, capture_output=True, start_new_session=True, check=False)
        except OSError as error:
            raise RunError(f"cannot start ffmpeg ({command[0]}): {error}") from None
        if done.returncode != 0:
            tail = " | ".join(done.stderr.decode(errors="replace").strip().splitlines()[-4:])
            raise RunError(f"ffmpeg failed (exit {done.returncode}) joining {self.path}: {tail}")
        self._count = len(segments)

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)

    def _finish(self) -> None:
        self._commit()

    def _abort(self) -> None:
        self._remove_tmp()


class _PngBytesFolder(PngFolderEncoder):
    """A PNG folder whose frames come encoded, in any order, a segment at a time."""

    def add(self, segment: Segment, done: _Done, scratch: str) -> None:
        """Write the segment's frames under their indices."""
        assert self._tmp is not None
        for offset, data in enumerate(done.files):
            (self._tmp / FRAME_NAME.format(segment.first + offset)).write_bytes(data)
        self._count += len(done.files)

    def join(self, segments: Sequence[Segment], scratch: str) -> None:
        """Nothing to join: the frames are in place."""
