"""Pacing with jumps and dead stretches: a paced video (``duration``) keeps its length with
the holds of its jumps (:mod:`searchvid.render.jumps`) and gives the time its dead stretches
save (:mod:`searchvid.render.deadtime`) to the rest of the video."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence

from searchvid.render.cards import held_last
from searchvid.render.deadtime import DeadFinder, DeadStretch, planned
from searchvid.render.job import RenderJob
from searchvid.render.jumps import jump_hold
from searchvid.render.policy import shallow
from searchvid.render.settings import VideoOptions
from searchvid.render.stepping import Run
from searchvid.render.view import View
from searchvid.render.voice import Ending
from searchvid.search.events import Event, EventKind


def paced_for_jumps(
    sources: Sequence[Callable[[], Iterable[Event]]],
    view: Callable[[], View],
    video: VideoOptions,
    passes: int = 4,
    *,
    least_every: int = 1,
) -> VideoOptions:
    """``video``, paced (:func:`~searchvid.render.policy.pace`), with ``every`` raised
    until the held jumps (:class:`Jumps`) fit ``duration`` too, and with its dead
    stretches played fast (:mod:`searchvid.render.deadtime`, ``compress_dead``).

    Pacing counts frames, not the boards they show, so a silent pass (no pixels, no
    strips) measures the video as rendered: its length, holds included, and its dead
    stretches. A video too long grows ``every`` by the share it runs over; one that dead
    stretches made short gives the time back by lowering ``every`` (never below
    ``least_every``, nor so far that the frames would not fit ``max_frames``), measured
    again. At most ``passes`` silent passes; the smallest ``every`` that fits wins. Without
    ``duration``, or without ``max_jumps`` and ``compress_dead``, ``video`` unchanged; but
    with ``after_best`` and without ``duration``, only the final best held and the settled
    stretches after it played fast (``every`` as the scene sets it).

    Args:
        sources: Each search's events, replayable.
        view: Makes a fresh view of the searches' domain (views may observe events).
        video: The paced ``[video]`` options.
        passes: How many silent passes at most.
        least_every: The scene's own ``every``: the smallest ``every`` may become.
    """
    # a race's columns are aligned on work, and a filmstrip changes where the board may
    # not: neither is compressed
    compress = video.compress_dead > 0 and len(sources) == 1 and not video.filmstrip
    settle = compress and video.after_best > 0  # the final best held, what follows settled
    if not video.duration and settle:
        return _settled_only(sources, view, video)
    if not video.duration or not (jump_hold(video) or compress):
        return video
    budget = round(video.duration * video.fps)
    too_long = 0  # the largest every known to run over (or be cut at max_frames)
    fits: int | None = None  # the smallest every known to fit
    chosen: VideoOptions | None = None
    every = video.every
    for _ in range(passes):
        tried = dataclasses.replace(video, every=every)
        measure = _measure(sources, view, tried, compress, settle)
        if not measure.runs and not jump_hold(video) and every == video.every and not settle:
            return video  # nothing held, nothing compressed: pacing's count stands
        length = measure.ticks - sum(stretch.dropped for stretch in measure.video_dead)
        if length > budget or (compress and measure.cut):
            too_long = max(too_long, every)
            wanted = max(every + 1, math.ceil(every * length / budget))
        else:
            if fits is None or every < fits:
                fits, chosen = every, measure.paced(tried)
            if not measure.runs:
                break  # nothing compressed: pacing's every stands, as without dead stretches
            wanted = measure.shrunk(every, budget, least_every, video.max_frames * _LIFT)
        if fits is not None:
            wanted = min(wanted, fits - 1)
        wanted = max(wanted, too_long + 1, least_every)
        if wanted == every or (fits is not None and wanted >= fits):
            break
        every = wanted
    if chosen is None:  # nothing fits in the passes: thinned as the last one said, whole
        return dataclasses.replace(video, every=every)  # (a plan holds for its own every)
    return chosen


def _settled_only(
    sources: Sequence[Callable[[], Iterable[Event]]],
    view: Callable[[], View],
    video: VideoOptions,
) -> VideoOptions:
    """``video`` without ``duration`` but with ``after_best``: nothing thinned and no dead
    stretch played fast (those need ``duration``), only the final best held and the settled
    stretches after it played fast; one silent pass finds them."""
    measure = _measure(sources, view, video, True, True)
    final = measure.final_best
    if final is None:
        return video
    settled = [run for run in measure.runs if run[0] > final]
    return planned(video, settled, final)


@dataclasses.dataclass
class _Measure:
    """What a silent pass measured of a video.

    Attributes:
        ticks: Its length in frame durations, holds included, without dead stretches.
        frames: Its frames, without dead stretches.
        live: Its frames one frame duration long outside dead stretches (those that
            ``every`` thins).
        runs: Its dead runs (``(first, end)`` frames).
        cut: Whether it was cut at ``max_frames``: measuring dead stretches, whether it
            has more frames than ``max_frames`` once they are played fast, or was cut at
            :data:`_LIFT` times as many before.
        video_dead: The dead stretches planned from ``runs``.
        final_best: The frame of the search's final best (numbered without dead stretches),
            held ``after_best`` seconds (None: no such hold).
    """

    ticks: int
    frames: int
    live: int
    runs: list[tuple[int, int]]
    cut: bool
    video_dead: tuple[DeadStretch, ...] = ()
    final_best: int | None = None

    def paced(self, video: VideoOptions) -> VideoOptions:
        """``video`` with the dead stretches found and the final best's hold (unchanged
        without either)."""
        if not self.runs and self.final_best is None:
            return video
        return planned(video, self.runs, self.final_best)

    def shrunk(self, every: int, budget: int, least: int, max_frames: int) -> int:
        """The ``every`` that fills ``budget`` with the time the dead stretches saved: the
        frames ``every`` thins scale with ``1 / every``, the rest stays."""
        rest = self.ticks - sum(s.dropped for s in self.video_dead) - self.live
        room = budget - rest
        if room <= 0 or not self.live:
            return every
        wanted = math.ceil(every * self.live / room)
        enough = math.ceil(every * self.frames / max(1, max_frames - 1))  # fit max_frames
        return max(least, wanted, enough)


def _measure(
    sources: Sequence[Callable[[], Iterable[Event]]],
    view: Callable[[], View],
    video: VideoOptions,
    compress: bool,
    settle: bool = False,
) -> _Measure:
    """One silent pass: the video's length in frame durations, holds included, as
    :func:`timed_strips` times it (the final best's hold added, ``settle``), and its dead
    runs (``compress``; those after the final best settled, ``settle``)."""
    limit = video.max_frames
    if compress:  # the frames a dead stretch drops do not fill the video
        video = dataclasses.replace(video, max_frames=limit * _LIFT)
    jobs = [RenderJob(view=view(), video=video, title="") for _ in sources]
    run = Run(sources, jobs, _Viewers(jobs), None)
    finder = DeadFinder(video, settle=settle) if compress else None
    ticks = frames = ones = 0
    ones_at: list[int] = []  # frames one frame duration long, for ``live``
    cut = False
    panel: set[object] | None = set() if video.tree else None  # tree nodes shown so far
    for shown, card, hold in run.timed(draw=False):
        ticks += 1 + hold
        if hold == 0:
            ones_at.append(frames)
        frames += 1
        item = shown[0]
        if item is not None and item[3] is Ending.MAX_FRAMES:
            cut = True
        if finder is not None:
            lively = card is not None or hold > 0 or item is None or _lively(item)
            if item is not None and shallow(video, item[0]):
                lively = True  # a shallow choice kept whole (keep_depth) is never dropped
            if item is not None and panel is not None and item[0].id not in panel:
                lively = True  # the tree panel shows a node it never showed before
                panel.add(item[0].id)
            grid = jobs[0].view.grid(item[0].node) if item is not None else None
            finder.see(grid, lively, item is not None and item[2])
    runs = finder.finish() if finder is not None else []
    final = finder.final_best if finder is not None and settle else None
    if final is not None:  # this pass's video holds it not yet: the paced one will
        ticks += max(0, round(video.after_best * video.fps) - 1)
    ticks += round(held_last(video).hold_last * video.fps)
    inside = sum(end - first for first, end in runs)  # dead frames are one long each
    ones = len(ones_at) - inside
    stretches = planned(video, runs, final).dead if runs else ()
    if compress and frames - sum(s.dropped for s in stretches) > limit - 1:
        cut = True  # played fast, it would still be cut at max_frames
    return _Measure(ticks, frames, ones, runs, cut, stretches, final)


_LIFT = 4
"""Measuring dead stretches, a silent pass reads up to this many times ``max_frames``
frames: the frames the stretches drop leave room for more."""


def _lively(item: tuple[Event, float | None, bool, Ending | None]) -> bool:
    """A new best, a committed move or roll, or the search's last frame."""
    event, _best, improving, ending = item
    return improving or ending is not None or event.kind in _PLAYED


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})


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
