"""Rendering a clip (``render --start T --end T``): the frames of :class:`~searchvid.render.
clip.Clip` through the whole render's pipeline, or its captions timed from 0."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from searchvid.render.clip import ClipTime, clip_timeline, plan_clip
from searchvid.render.job import EventSource, RenderJob, RenderResult
from searchvid.render.output import OutputKind, check_name_length, check_target
from searchvid.render.pipeline import render
from searchvid.render.timeline import Timeline, timeline
from searchvid.render.vtt import TextFiles, captions_text, chapters_path, chapters_text

__all__ = ["render_clip"]


def render_clip(
    sources: Sequence[EventSource],
    jobs: Callable[[], Sequence[RenderJob]],
    output: Path,
    *,
    start: ClipTime | None,
    end: ClipTime | None,
    progress: Callable[[int], None] | None = None,
    title: str = "",
) -> RenderResult:
    """Render the clip of the video of these searches from ``start`` to ``end`` to
    ``output``, in any format :func:`~searchvid.render.pipeline.render` writes (captions
    too: the clip's, timed from 0).

    The searches run twice: once to time the frames (nothing drawn), then to draw the clip's
    frames (those before it are replayed silently, as ``preview`` does); so ``sources``
    must be replayable, and ``jobs`` makes the render jobs afresh for each pass (a view may
    observe the events it is fed). ``progress`` counts the clip's frames.

    Raises:
        UsageError: An unusable output, or a clip past the end or without frames.
        RunError: The encoder failed, or the video has no frames.
    """
    began = time.perf_counter()
    kind = check_target(output)
    line = timeline(sources, list(jobs()), captions=kind is OutputKind.VTT)
    clip = plan_clip(line, start, end)
    if kind is OutputKind.VTT:
        part = clip_timeline(line, clip)
        _write_captions(part, output)
        return RenderResult(
            frames=clip.frames,
            encoded_frames=part.ticks,
            events=line.events,
            seconds=time.perf_counter() - began,
            path=output,
        )
    result = render(list(sources), list(jobs()), output, progress=progress, title=title, clip=clip)
    return dataclasses.replace(result, seconds=time.perf_counter() - began)


def _write_captions(line: Timeline, output: Path) -> None:
    """Write the captions and chapters of ``line`` beside each other, both or neither."""
    check_name_length(chapters_path(output))
    texts = {chapters_path(output): chapters_text(line), output: captions_text(line)}
    with TextFiles(texts) as files:
        files.write()
