"""Pacing with jumps: a paced video (``duration``) keeps its length with the holds of its
jumps (:mod:`searchvid.render.jumps`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence

from searchvid.render.cards import held_last
from searchvid.render.job import RenderJob
from searchvid.render.jumps import jump_hold
from searchvid.render.settings import VideoOptions
from searchvid.render.stepping import Run
from searchvid.render.view import View
from searchvid.search.events import Event


def paced_for_jumps(
    sources: Sequence[Callable[[], Iterable[Event]]],
    view: Callable[[], View],
    video: VideoOptions,
    passes: int = 4,
) -> VideoOptions:
    """``video``, paced (:func:`~searchvid.render.policy.pace`), with ``every`` raised
    until the held jumps (:class:`Jumps`) fit ``duration`` too: pacing counts frames, not
    the boards they show, so a silent pass (no pixels, no strips) measures the video as
    rendered, and ``every`` grows by the share it runs over, at most ``passes`` times.
    Without ``duration`` or ``max_jumps``, ``video`` unchanged.

    Args:
        sources: Each search's events, replayable.
        view: Makes a fresh view of the searches' domain (views may observe events).
        video: The paced ``[video]`` options.
        passes: How many silent passes at most.
    """
    if not video.duration or not jump_hold(video):
        return video
    budget = round(video.duration * video.fps)
    for _ in range(passes):
        ticks = _ticks(sources, view, video)
        if ticks <= budget:
            break
        grown = max(video.every + 1, math.ceil(video.every * ticks / budget))
        video = dataclasses.replace(video, every=grown)
    return video


def _ticks(
    sources: Sequence[Callable[[], Iterable[Event]]], view: Callable[[], View], video: VideoOptions
) -> int:
    """The video's length in frame durations, holds included, as :func:`timed_strips`
    times it."""
    jobs = [RenderJob(view=view(), video=video, title="") for _ in sources]
    run = Run(sources, jobs, _Viewers(jobs), None)
    ticks = sum(1 + hold for _, _, hold in run.timed(draw=False))
    return ticks + round(held_last(video).hold_last * video.fps)


class _Viewers:
    """A painter that only feeds the views that observe events (for their boards)."""

    def __init__(self, jobs: Sequence[RenderJob]) -> None:
        self._observers = [getattr(job.view, "observe", None) for job in jobs]

    def observe(self, track: int, event: Event) -> None:
        observe = self._observers[track]
        if observe is not None:
            observe(event)

    def draw(self, track: int, event: Event, best: float | None, **_: object) -> None:
        """Nothing to draw."""

    def crown(self, winners: Sequence[str]) -> None:
        """Nothing to crown."""
