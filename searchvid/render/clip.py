"""Parts of a video: a clip between two times (``render --start T --end T``), and the frame a
trace step becomes (``preview --step N``).

A time is a frame index or a moment in seconds, written so that the two cannot be confused:

* ``120``: frame 120 (from 0, as ``preview --frame`` and a PNG folder's names count);
* ``12.5s``: 12.5 seconds into the video;
* ``0:12.5`` or ``1:02:03``: minutes and seconds, or hours, minutes and seconds (the
  ``m:ss.s`` the storyboard labels its frames with).

A bare decimal (``12.5``) is refused: it could be either.

A clip holds whole frames, each on screen as long as in the full video (holds included), so
its frames are those of the full render and its timing is the full video's, moved to start
at 0. ``--start`` picks its first frame: that frame, or the frame on screen at that moment.
``--end`` is where it stops, not included: frame ``--end`` is the first one left out, or at
a moment, the frames that appear before it are kept. The full video's last frame keeps its
``hold_last`` only when the clip runs to the end.

A clip is timed by a first pass over the searches that draws nothing
(:func:`~searchvid.render.timeline.timeline`): the times in seconds need every hold before
them, and a clip past the video's end is refused before anything is drawn or written.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from searchvid.errors import RunError, UsageError
from searchvid.render.cards import held_last
from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.timeline import Timeline
from searchvid.search.events import Event

__all__ = [
    "Clip",
    "ClipTime",
    "clip_timeline",
    "frame_of_step",
    "parse_time",
    "plan_clip",
]

TIME_SYNTAX = "a frame number (120), seconds (12.5s) or minutes:seconds (0:12.5)"
"""The forms of a time, in words for error messages and help."""

_FRAME = re.compile(r"\d+")
_SECONDS = re.compile(r"(\d+(?:\.\d*)?|\.\d+)s")
_CLOCK = re.compile(r"(?:(\d+):)?(\d+):(\d+(?:\.\d*)?)")


@dataclass(frozen=True)
class ClipTime:
    """A point of a video: a frame index, or a moment in seconds (exactly one is set).

    Attributes:
        text: As written (named in error messages).
        frame: A frame index, from 0.
        seconds: Seconds from the video's start.
    """

    text: str
    frame: int | None = None
    seconds: Fraction | None = None


def parse_time(text: str | int, option: str) -> ClipTime:
    """Read a time written as :data:`TIME_SYNTAX` says (an ``int`` is a frame index).

    Args:
        text: The time.
        option: The option it was given to (``--start``), named in errors.

    Raises:
        UsageError: Anything else, naming ``option`` and the allowed forms.
    """
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise UsageError(f"{option}: expected {TIME_SYNTAX}, got {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise UsageError(f"{option}: a frame number is >= 0, got {text}")
        return ClipTime(str(text), frame=text)
    written = text.strip()
    if _FRAME.fullmatch(written):
        return ClipTime(written, frame=int(written))
    seconds = _SECONDS.fullmatch(written)
    if seconds:
        return ClipTime(written, seconds=Fraction(seconds.group(1)))
    clock = _CLOCK.fullmatch(written)
    if clock:
        hours, minutes, secs = clock.groups()
        if Fraction(secs) >= 60 or (hours is not None and int(minutes) >= 60):
            raise UsageError(f"{option}: {text!r}: minutes and seconds are below 60")
        total = Fraction(secs) + 60 * int(minutes) + 3600 * int(hours or 0)
        return ClipTime(written, seconds=total)
    if re.fullmatch(r"\d*\.\d+|\d+\.", written):
        raise UsageError(
            f"{option}: {text!r} is ambiguous; write {written}s for seconds, or a whole "
            "frame number"
        )
    raise UsageError(f"{option}: expected {TIME_SYNTAX}, got {text!r}")


@dataclass(frozen=True)
class Clip:
    """The frames ``first`` to ``stop - 1`` of a video of ``total`` frames.

    Attributes:
        first: Index of the clip's first frame in the full video.
        stop: Index of the frame after its last.
        total: Frames in the full video.
    """

    first: int
    stop: int
    total: int

    @property
    def frames(self) -> int:
        """How many frames the clip holds."""
        return self.stop - self.first

    @property
    def to_the_end(self) -> bool:
        """Whether the clip ends with the video's last frame (and so holds it for
        ``hold_last``, as the full video does)."""
        return self.stop == self.total

    def encoder_video(self, video: VideoOptions) -> VideoOptions:
        """``video`` as the encoder of the clip takes it: the last frame held as in the full
        video where the clip ends the video, else not held at all."""
        video = held_last(video)
        return video if self.to_the_end else dataclasses.replace(video, hold_last=0.0)


def plan_clip(line: Timeline, start: ClipTime | None, end: ClipTime | None) -> Clip:
    """The clip of the video timed by ``line`` from ``start`` to ``end`` (None: the video's
    start, its end).

    Raises:
        UsageError: A time past the video's end, or a clip without a frame, in one line
            that gives the video's length.
        RunError: The video has no frames.
    """
    total = len(line.frames)
    if not total:
        raise RunError("no frames: the clip's video is empty")
    length = f"the video has {total} frames (0 to {total - 1}) and lasts {_seconds(line)}"
    first = 0
    if start is not None:
        if start.frame is not None:
            first = start.frame
            if first >= total:
                raise UsageError(f"--start {start.text} is past the end: {length}")
        else:
            assert start.seconds is not None
            if start.seconds >= line.duration:
                raise UsageError(f"--start {start.text} is past the end: {length}")
            first = line.at(start.seconds).index
    stop = total
    if end is not None:
        if end.frame is not None:
            stop = end.frame
            if stop > total:
                raise UsageError(
                    f"--end {end.text} is past the end: {length}; --end {total} (or no --end) "
                    "ends the clip with the last frame"
                )
        else:
            assert end.seconds is not None
            if end.seconds > line.duration:
                raise UsageError(f"--end {end.text} is past the end: {length}")
            stop = bisect.bisect_left([frame.start for frame in line.frames], end.seconds)
    if first >= stop:
        start_text = start.text if start is not None else "0"
        end_text = end.text if end is not None else "the end"
        raise UsageError(
            f"--start {start_text} must come before --end {end_text}: the clip would hold no "
            f"frame (it starts at frame {first}, and frame {stop} is the first one left out)"
        )
    return Clip(first, stop, total)


def _seconds(line: Timeline) -> str:
    """The video's length in seconds, to the millisecond (``12 s``, ``38.417 s``)."""
    return f"{float(line.duration):.3f}".rstrip("0").rstrip(".") + " s"


def clip_timeline(line: Timeline, clip: Clip) -> Timeline:
    """The timeline of ``clip`` alone: its frames, numbered from 0, times from 0."""
    frames = line.frames[clip.first : clip.stop]
    offset = frames[0].start
    return dataclasses.replace(
        line,
        frames=tuple(
            dataclasses.replace(frame, index=index, start=frame.start - offset)
            for index, frame in enumerate(frames)
        ),
    )


def frame_of_step(events: Iterable[Event], video: VideoOptions, step: int) -> int:
    """The video frame on screen at trace step ``step`` of one search: the frame that
    step becomes, or, for a step that becomes none, the latest frame before it.

    Only the events up to ``step`` are read.

    Raises:
        UsageError: ``step`` is negative, comes before the video's first frame, or is past
            the end of the video's events.
    """
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise UsageError(f"--step: must be an integer >= 0, got {step!r}")
    latest: int | None = None
    last_step: int | None = None
    for event, frame in assign_frames(events, video):
        if event.step > step:
            if latest is not None:
                return latest
            if frame is not None:  # read on only to name the first frame's step
                raise UsageError(
                    f"--step {step} comes before the video's first frame, which step "
                    f"{event.step} makes"
                )
        elif frame is not None:
            latest = frame
        last_step = event.step
    if last_step is not None and last_step >= step:
        if latest is None:
            raise UsageError(f"--step {step}: no event of the search became a frame")
        return latest
    seen = "no events" if last_step is None else f"steps 0 to {last_step}"
    raise UsageError(
        f"--step {step} is past the end: the video's events are {seen} (searchvid trace lists them)"
    )
