"""When each frame of a video is on screen, and in which phase of the film: the one timing
that captions (:mod:`searchvid.render.vtt`) and the storyboard
(:mod:`searchvid.render.storyboard`) share with the encoders.

A frame stays on screen ``1 + hold`` frame durations of ``1 / fps`` seconds, where ``hold``
is the one :func:`~searchvid.render.pipeline.render` gives the encoder (a committed move
held for ``hold_moves``, a new best for ``hold_improvements``, the opening card for
``[video] opening``); the last frame stays ``hold_last`` longer (``closing`` where the
closing card wants longer: :func:`~searchvid.render.cards.held_last`), rounded to whole
frames as the MP4 repeats it (:func:`last_hold`). So frame ``k`` starts exactly where the
MP4 shows it. A GIF rounds its delays to whole centiseconds from the running time, so its
frames start within 5 ms of these times; its last frame's extra hold is rounded to
centiseconds, not to frames, so with one that is not a whole number of frames the GIF ends
up to half a frame earlier or later.

Times are exact fractions of a second; they are rounded only where they are written.

The phases (:class:`Phase`) are the film's chapters: the opening card (the first frame), the
search, the solution where the algorithm plays a found path out, and the closing card (the
last frame). A card's phase comes from the pipeline's card of the frame; the others' is read
from what the frame shows, so a video without cards (``opening = 0``, ``closing = 0``, or no
``hud``) has only the search and the solution.
"""

from __future__ import annotations

import bisect
import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from searchvid.render.cards import Shown, held_last
from searchvid.render.job import EventSource, RenderJob
from searchvid.render.stepping import timed_strips
from searchvid.render.voice import Card
from searchvid.search.events import EventKind

__all__ = [
    "Chapter",
    "FrameTime",
    "Phase",
    "Timeline",
    "chapters",
    "clock",
    "frame_times",
    "last_hold",
    "timeline",
]


class Phase(enum.Enum):
    """A phase of the film: what its chapter is called."""

    OPENING = "Opening"
    """The opening card (title, problem, algorithm)."""
    SEARCH = "Search"
    """The search at work (and, for a game, the moves it plays as it goes)."""
    SOLUTION = "Solution"
    """The found path played out, after the search."""
    CLOSING = "Closing"
    """The closing card (the result and the run's statistics)."""


@dataclass(frozen=True)
class FrameTime:
    """One frame of the video and when it is on screen.

    Attributes:
        index: The frame's index (as in ``preview --frame`` and a PNG folder's names).
        start: Seconds from the video's start to the frame's first appearance.
        duration: Seconds the frame stays on screen (holds included).
        phase: The phase of the film the frame belongs to.
        captions: Each column's caption line (None: a column without a frame yet, or
            without captions).
    """

    index: int
    start: Fraction
    duration: Fraction
    phase: Phase
    captions: tuple[str | None, ...] = ()

    @property
    def end(self) -> Fraction:
        """Seconds from the video's start to the moment the next frame replaces this one."""
        return self.start + self.duration


@dataclass(frozen=True)
class Timeline:
    """Every frame of a video with its times, phase and captions.

    Attributes:
        fps: Frames per second.
        frames: The frames in order.
        titles: Each column's strip title (the scene's title, or "1 · A*" in a race).
        algorithms: Each column's algorithm as readers name it ("A*").
        events: Events the searches made up to the video's end.
    """

    fps: int
    frames: tuple[FrameTime, ...]
    titles: tuple[str, ...] = ()
    algorithms: tuple[str, ...] = ()
    events: int = 0

    @property
    def duration(self) -> Fraction:
        """The video's length in seconds (0 without frames)."""
        return self.frames[-1].end if self.frames else Fraction(0)

    @property
    def ticks(self) -> int:
        """The video's length in frame durations: the frames an MP4 holds."""
        return int(self.duration * self.fps)

    def at(self, seconds: Fraction) -> FrameTime:
        """The frame on screen ``seconds`` into the video (the last one at or past its end).

        Raises:
            ValueError: The timeline has no frames.
        """
        if not self.frames:
            raise ValueError("a timeline without frames shows nothing")
        starts = [frame.start for frame in self.frames]
        return self.frames[max(0, bisect.bisect_right(starts, seconds) - 1)]


@dataclass(frozen=True)
class Chapter:
    """A run of frames in one phase.

    Attributes:
        phase: The phase.
        start: Seconds from the video's start to its first frame.
        end: Seconds from the video's start to the end of its last frame.
        first: Index of its first frame.
        last: Index of its last frame.
    """

    phase: Phase
    start: Fraction
    end: Fraction
    first: int
    last: int


def last_hold(hold_last: float, fps: int) -> int:
    """Extra frame durations the last frame stays for ``hold_last`` seconds: the copies the
    MP4 encoder appends (``round(hold_last * fps)``)."""
    return round(hold_last * fps)


def frame_times(
    holds: Sequence[int], fps: int, hold_last: float
) -> list[tuple[Fraction, Fraction]]:
    """``(start, duration)`` in seconds of each frame, given each frame's hold (extra frame
    durations, as :func:`~searchvid.render.pipeline.render` gives the encoder).

    >>> [(str(s), str(d)) for s, d in frame_times([0, 2, 0], 4, 0.5)]
    [('0', '1/4'), ('1/4', '3/4'), ('1', '3/4')]
    """
    times: list[tuple[Fraction, Fraction]] = []
    ticks = 0
    for index, hold in enumerate(holds):
        length = 1 + hold + (last_hold(hold_last, fps) if index == len(holds) - 1 else 0)
        times.append((Fraction(ticks, fps), Fraction(length, fps)))
        ticks += length
    return times


def timeline(
    events: EventSource | Sequence[EventSource],
    job: RenderJob | Sequence[RenderJob],
    *,
    captions: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Timeline:
    """The timeline of the video :func:`~searchvid.render.pipeline.render` makes of these
    searches and jobs: the same events, frame policy and holds, with no pixel drawn.

    Args:
        events: The event source of each search (as for ``render``).
        job: The render job of each search (as for ``render``).
        captions: Narrate every frame on a caption line, as ``[video] captions = true``
            does, whatever the jobs say (the frames and their times do not change).
        progress: Called with the number of frames done after each frame.
    """
    jobs = [job] if isinstance(job, RenderJob) else list(job)
    if captions:
        jobs = [replace(j, video=replace(j.video, captions=True)) for j in jobs]
    video = jobs[0].video
    holds: list[int] = []
    cards: list[Card | None] = []
    lines: list[tuple[str | None, ...]] = []
    columns = [_Column(j.move_phase == "solution") for j in jobs]
    frames = timed_strips(events, jobs[0] if isinstance(job, RenderJob) else jobs)
    while True:
        try:
            shown, texts, hold, card = next(frames)
        except StopIteration as stop:
            count: int = stop.value
            break
        for column, item in zip(columns, shown, strict=True):
            column.see(len(holds), item)
        holds.append(hold)
        cards.append(card)
        lines.append(tuple(text.caption if text is not None else None for text in texts))
        if progress is not None:
            progress(len(holds))
    phases = [
        _CARD_PHASES.get(card, phase)
        for card, phase in zip(cards, _phases(columns, len(holds)), strict=True)
    ]
    times = frame_times(holds, video.fps, held_last(video).hold_last)
    return Timeline(
        fps=video.fps,
        frames=tuple(
            FrameTime(index, start, duration, phase, line)
            for index, ((start, duration), phase, line) in enumerate(
                zip(times, phases, lines, strict=True)
            )
        ),
        titles=tuple(j.title for j in jobs),
        algorithms=tuple(j.algorithm for j in jobs),
        events=count,
    )


class _Column:
    """What one column showed, frame by frame: enough to find where its search ends and a
    replay of moves begins."""

    def __init__(self, solution: bool) -> None:
        self.solution = solution  # its MOVE events play a found path out (not a game)
        self.steps: list[tuple[int, bool, int]] = []  # (frame, is a MOVE, depth) per advance
        self.ended: int | None = None  # the frame from which it holds its last frame
        self._item: Shown = None

    def see(self, frame: int, item: Shown) -> None:
        if item is None or item is self._item:  # no frame yet, or held
            return
        self._item = item
        event, _best, _improving, ending = item
        self.steps.append((frame, event.kind is EventKind.MOVE, event.depth))
        if ending is not None:
            self.ended = frame + 1

    def replay(self) -> int | None:
        """The frame where the column starts playing a line out after its search, or None.

        That is the run of MOVE frames that ends the column: a found path (any such run of a
        search whose moves are a solution), or, for a search whose moves are a game's, the
        whole game played from the start after the search (minimax's best line; not the
        last move of an MCTS that searches between moves)."""
        run = len(self.steps)
        while run and self.steps[run - 1][1]:
            run -= 1
        if run == len(self.steps):
            return None
        first = self.steps[run]
        if self.solution or (run > 0 and first[2] <= 1):
            return first[0]
        return None


_CARD_PHASES: dict[Card | None, Phase] = {
    Card.OPENING: Phase.OPENING,
    Card.CLOSING: Phase.CLOSING,
}
"""The phase of a card's frame (the others' phase is read from what they show)."""


def _phases(columns: Sequence[_Column], frames: int) -> list[Phase]:
    """Each frame's phase: the solution once some column plays a line out and no column
    still searches (a column that has ended holds its last frame, and counts as done); else
    the search."""
    replays = [column.replay() for column in columns]
    phases: list[Phase] = []
    for frame in range(frames):
        replaying = searching = False
        for column, replay in zip(columns, replays, strict=True):
            if not column.steps or frame < column.steps[0][0]:
                continue
            if replay is not None and frame >= replay:
                replaying = True
            elif column.ended is None or frame < column.ended:
                searching = True
        phases.append(Phase.SOLUTION if replaying and not searching else Phase.SEARCH)
    return phases


def chapters(line: Timeline) -> list[Chapter]:
    """The runs of frames of one phase, in order."""
    found: list[Chapter] = []
    for frame in line.frames:
        if found and found[-1].phase is frame.phase:
            found[-1] = replace(found[-1], end=frame.end, last=frame.index)
        else:
            found.append(Chapter(frame.phase, frame.start, frame.end, frame.index, frame.index))
    return found


def clock(seconds: Fraction) -> str:
    """``seconds`` as a reader reads a video's time: ``m:ss.s`` (``h:mm:ss.s`` from an hour
    on), rounded to the nearest tenth.

    >>> clock(Fraction(754, 10)), clock(Fraction(1, 12)), clock(Fraction(3600))
    ('1:15.4', '0:00.1', '1:00:00.0')
    """
    tenths = math.floor(seconds * 10 + Fraction(1, 2))
    minutes, tenths = divmod(tenths, 600)
    hours, minutes = divmod(minutes, 60)
    second = f"{tenths // 10:02d}.{tenths % 10}"
    return f"{hours}:{minutes:02d}:{second}" if hours else f"{minutes}:{second}"
