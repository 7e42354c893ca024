"""Captions as WebVTT (https://www.w3.org/TR/webvtt1/): the words of the status strip's
caption line, timed to the frames of the video, and the film's chapters beside them.

``render SCENE -o NAME.vtt`` writes two files: ``NAME.vtt``, one cue per run of frames whose
caption says the same, and ``NAME.chapters.vtt``, one cue per phase of the film
(:class:`~searchvid.render.timeline.Phase`: the search, the solution played out). WebVTT
keeps captions and chapters in separate tracks (``<track kind="captions">`` and
``<track kind="chapters">``), so they are two files, named so that a page can use both::

    <video src="NAME.mp4" controls>
      <track kind="captions" src="NAME.vtt" srclang="en" label="English" default>
      <track kind="chapters" src="NAME.chapters.vtt" srclang="en">
    </video>

Cue times are the frames' times in the video made with the same scene and options
(:mod:`searchvid.render.timeline`), in milliseconds, rounded to the nearest. A scene without
``captions = true`` still gets its captions: the words the caption line would say, since a
side file of captions is most useful for a video that has none drawn in. No pixel is drawn.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from searchvid.errors import RunError, UsageError
from searchvid.render.job import EventSource, RenderJob, RenderResult
from searchvid.render.output import AtomicOutput, check_name_length, reserve_partial, writing
from searchvid.render.timeline import Phase, Timeline, chapters, timeline
from searchvid.signals import checkpoint, defer_signals

__all__ = ["captions_text", "chapters_path", "chapters_text", "cue_time", "write_captions"]

HEADER = "WEBVTT"
"""The first line of every WebVTT file."""


def chapters_path(path: Path) -> Path:
    """Where the chapters of the captions at ``path`` go: ``NAME.chapters.vtt`` beside
    ``NAME.vtt`` (the suffix's case kept)."""
    return path.with_name(f"{path.stem}.chapters{path.suffix}")


def cue_time(seconds: Fraction) -> str:
    """``seconds`` as a WebVTT timestamp ``HH:MM:SS.mmm``, rounded to the nearest
    millisecond.

    >>> cue_time(Fraction(1, 12)), cue_time(Fraction(3725))
    ('00:00:00.083', '01:02:05.000')
    """
    millis = math.floor(seconds * 1000 + Fraction(1, 2))
    seconds_, millis = divmod(millis, 1000)
    minutes, seconds_ = divmod(seconds_, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds_:02d}.{millis:03d}"


def cue_text(text: str) -> str:
    """``text`` as one line of cue text: whitespace (line breaks too, which would end the
    cue) folded to single spaces, and ``&``, ``<`` and ``>`` escaped (so ``-->`` cannot
    appear)."""
    line = " ".join(text.split())
    return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _caption(captions: Sequence[str | None], titles: Sequence[str]) -> str:
    """A frame's cue text: its caption, or in a race one line per column with a caption,
    each after the column's title ("1 · A*: expand: pour 3 into 7")."""
    if len(captions) == 1:
        return cue_text(captions[0] or "")
    lines = [
        f"{cue_text(title)}: {cue_text(text)}"
        for title, text in zip(titles, captions, strict=True)
        if text and cue_text(text)
    ]
    return "\n".join(lines)


def _document(cues: Sequence[tuple[Fraction, Fraction, str]]) -> str:
    """A WebVTT file of ``cues`` ``(start, end, text)``: the header, then each cue after a
    blank line."""
    blocks = [HEADER]
    blocks.extend(f"{cue_time(start)} --> {cue_time(end)}\n{text}" for start, end, text in cues)
    return "\n\n".join(blocks) + "\n"


def captions_text(line: Timeline) -> str:
    """The WebVTT captions of ``line``: one cue per run of frames with the same caption text
    (frames without any caption get no cue)."""
    cues: list[tuple[Fraction, Fraction, str]] = []
    previous: str | None = None
    for frame in line.frames:
        text = _caption(frame.captions, line.titles)
        if cues and text == previous:
            start, _, words = cues[-1]
            cues[-1] = (start, frame.end, words)
        elif text:
            cues.append((frame.start, frame.end, text))
        previous = text
    return _document(cues)


def chapter_title(phase: Phase, algorithms: Sequence[str]) -> str:
    """A chapter's title: ``Search: A*`` (``Search: A* vs breadth-first`` in a race),
    ``Solution``, ``Opening``, ``Closing``."""
    names = [name for name in dict.fromkeys(algorithms) if name]
    if phase is Phase.SEARCH and names:
        return cue_text(f"{phase.value}: {' vs '.join(names)}")
    return phase.value


def chapters_text(line: Timeline) -> str:
    """The WebVTT chapters of ``line``: one cue per run of frames in one phase."""
    return _document(
        [(c.start, c.end, chapter_title(c.phase, line.algorithms)) for c in chapters(line)]
    )


def write_captions(
    events: EventSource | Sequence[EventSource],
    job: RenderJob | Sequence[RenderJob],
    output: Path,
    *,
    progress: Callable[[int], None] | None = None,
    snapshots: Path | None = None,
) -> RenderResult:
    """Write the captions of the video of these searches to ``output`` (``NAME.vtt``) and
    its chapters beside it (:func:`chapters_path`), both or neither.

    Args:
        events: The event source of each search (as for ``render``).
        job: The render job of each search (as for ``render``).
        output: The captions' path.
        progress: Called with the number of frames done after each frame.
        snapshots: Must be None: snapshots are pictures, and captions draw none.

    Returns:
        The video's frame count, its length in frame durations (``encoded_frames``: the
        frames of the MP4), the events read, the time taken and ``output``.

    Raises:
        UsageError: ``snapshots`` is given, or the chapters' file name is too long.
        RunError: No event became a frame, or the files could not be written.
    """
    start = time.perf_counter()
    if snapshots is not None:
        raise UsageError("--snapshots writes pictures of frames; captions (.vtt) draw none")
    check_name_length(chapters_path(output))
    line = timeline(events, job, captions=True, progress=progress)
    if not line.frames:
        jobs = [job] if isinstance(job, RenderJob) else list(job)
        selected = jobs[0].video.frames
        raise RunError(f"no frames: no event was selected by frames = {selected!r}")
    texts = {chapters_path(output): chapters_text(line), output: captions_text(line)}
    with TextFiles(texts) as files:
        files.write()
    return RenderResult(
        frames=len(line.frames),
        encoded_frames=line.ticks,
        events=line.events,
        seconds=time.perf_counter() - start,
        path=output,
    )


class TextFiles(AtomicOutput):
    """Small text files in one folder, written under temporary names and renamed together
    when the block ends cleanly: all of them, or (on an error, Ctrl-C, SIGTERM) none.

    Args:
        texts: Each file's path and text (UTF-8, ``\\n`` line ends); the last is the main
            output (its path is :attr:`path`).
    """

    def __init__(self, texts: dict[Path, str]) -> None:
        if not texts:
            raise ValueError("no files to write")
        super().__init__(list(texts)[-1])
        self._texts = texts
        self._partial: dict[Path, Path] = {}

    def _open(self) -> None:
        self._make_parent()
        for path in self._texts:
            self._partial[path] = reserve_partial(path)
        self._tmp = self._partial[self.path]

    def write(self) -> None:
        """Write every text to its temporary file."""
        for path, text in self._texts.items():
            with writing(path):
                self._partial[path].write_text(text, encoding="utf-8", newline="\n")
        self._count = 1

    def _finish(self) -> None:
        if not self._count:
            raise RunError("nothing was written")
        with defer_signals():
            checkpoint()  # after a signal, nothing is committed (whatever swallowed it)
            done: list[Path] = []
            try:
                for path, partial in self._partial.items():
                    os.replace(partial, path)
                    done.append(path)
            except OSError:
                for path in done:  # all or none: those renamed already go again
                    with contextlib.suppress(OSError):
                        path.unlink()
                raise
            self._partial.clear()
            self._tmp = None
            self._created = []

    def _abort(self) -> None:
        for partial in self._partial.values():
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
        self._partial.clear()
        self._tmp = None
