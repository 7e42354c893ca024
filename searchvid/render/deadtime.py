"""Dead stretches: seconds of video where the picture barely changes, played fast.

A search that toggles one corner of the board for many seconds shows a reader nothing new,
yet every frame of it would get its share of the video. A paced video (``[video]
duration``) finds such stretches in the silent pass that times it
(:func:`~searchvid.render.jumppace.paced_for_jumps`) and plays each one in about
:data:`DEAD_PLAYS_FOR` seconds by keeping only some of its frames; the strip says so on
every frame of it, with why (``fast`` and how many times faster: eight times is
``fast \N{MULTIPLICATION SIGN}8: board barely changes``), so the reader knows that time is
compressed there and what was left out: frames that change the picture only a little.

What a stretch is (:class:`DeadFinder`), read from the views' tile grids and the frames'
key facts, the same in every format and command:

- A frame is *lively* when something a reader must see happens on it: a card (opening or
  closing), a new best, a committed move or roll, the search's last frame, a frame held
  longer than one frame duration (a move's, a best's or a jump's hold), a shallow choice
  kept whole (``[video] keep_depth``), or, with a tree panel, a tree node the panel never
  showed before. A lively frame is never dropped.
- A run of frames that are not lively is *quiet* while the board cells that changed from
  one frame to the next, taken together over the run, are at most :data:`DEAD_SHARE` of the
  board's cells (at least one cell): the changes stay in one small patch, such as the last
  tiles of a backtracking search toggling in a corner. A search that places tiles all over
  the board is not quiet, however few cells each frame changes.
- A quiet run longer than ``[video] compress_dead`` seconds is dead. Only a single search
  is compressed: a race's columns are aligned on work, and a filmstrip (``[video]
  filmstrip``) changes where the board may not, so neither is. Its frames are each one
  frame duration long (a held frame is lively), so it lasts as many frame durations as it
  has frames.

The frames kept of a dead stretch are its first, its last and every ``factor``-th counted
back from its last; the frame after the stretch thus follows the same frame as before, and
every kept frame differs from the one before it by no more than the patch, so no frame
gains or loses a jump's hold (:mod:`searchvid.render.jumps`): the video loses exactly the
frames dropped.

With ``[video] after_best`` (``DeadFinder(settle=True)``), the frames after the one that
first shows the best the search ends with are *settled*: nothing they show beats it, so a
run of them that is not lively is dead whatever it changes on the board, once longer than
``compress_dead`` seconds, and plays in about :data:`SETTLED_PLAYS_FOR` seconds; its strip
says why (``fast \N{MULTIPLICATION SIGN}2: no better found``, :data:`SETTLED_REASON`). Held
frames stay lively, so a jump (a walk starting over) keeps its hold outside the stretches.
A kept frame of a settled stretch may change more cells than one step of the search (the
steps dropped before it): where that makes it a jump, it is held as one, which the pacing
pass does not count (a few cells a step, as a random walk's tiles, stay far under a jump).
The frame of that best itself stays ``after_best`` seconds (:attr:`PacedVideo.final_best`).

Frames are numbered as :func:`~searchvid.render.policy.assign_frames` numbers them without
the stretches (``first``, ``end``), and as the video shows them (``shown``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from searchvid.render.settings import VideoOptions
from searchvid.search.frontierview import StatusFields, frontier_of
from searchvid.search.status import Field

DEAD_SHARE = 0.05
"""A quiet run's changes stay within this share of the board's cells (at least one)."""

DEAD_PLAYS_FOR = 1.0
"""Seconds a dead stretch plays for once compressed (at least three frames)."""

SETTLED_PLAYS_FOR = 0.5
"""Seconds a settled stretch plays for once compressed (at least three frames): shorter than
a dead one, as a reader has already seen the result it cannot beat."""


FAST_REASON = "board barely changes"
"""Why a dead stretch plays fast, after its factor in the strip (``fast \N{MULTIPLICATION SIGN}8:
board barely changes``): what the stretch's frames have in common, in words for any domain."""

SETTLED_REASON = "no better found"
"""Why a settled stretch (after the search's final best, ``[video] after_best``) plays fast:
nothing in it beats the best already shown."""


@dataclass(frozen=True)
class DeadStretch:
    """One dead stretch and how it is played.

    Attributes:
        first: Its first frame, numbered without the dead stretches.
        end: The frame after its last, numbered the same way.
        factor: One frame in ``factor`` is kept (its first and last always).
        shown: Its first frame's index in the video (the dead stretches before it dropped).
        reason: Why it plays fast, as its strip says it (:data:`FAST_REASON`, or
            :data:`SETTLED_REASON` after the search's final best).
    """

    first: int
    end: int
    factor: int
    shown: int
    reason: str = FAST_REASON

    def keeps(self, frame: int) -> bool:
        """Whether the video keeps ``frame`` (numbered without the dead stretches, inside
        this stretch): the first, and every ``factor``-th counted back from the last."""
        return frame == self.first or (self.end - 1 - frame) % self.factor == 0

    @property
    def kept(self) -> int:
        """How many of its frames the video keeps."""
        back = (self.end - 1 - self.first) // self.factor + 1  # counted back from the last
        return back + (0 if (self.end - 1 - self.first) % self.factor == 0 else 1)

    @property
    def dropped(self) -> int:
        """How many of its frames the video drops."""
        return self.end - self.first - self.kept


@dataclass(frozen=True, kw_only=True)
class PacedVideo(VideoOptions):
    """``[video]`` options as pacing leaves them: with the dead stretches to play fast.

    Not a scene key: pacing computes it (a scene file cannot name ``dead``).

    Attributes:
        dead: The dead stretches, in frame order.
        final_best: The video frame that first shows the best the search ends with, held
            ``after_best`` seconds (None: no such hold).
    """

    dead: tuple[DeadStretch, ...] = ()
    final_best: int | None = None


def stretches(video: VideoOptions) -> tuple[DeadStretch, ...]:
    """The dead stretches ``video`` plays fast (none unless pacing found some)."""
    return video.dead if isinstance(video, PacedVideo) else ()


class DeadWalk:
    """The dead stretches of ``video`` met in order by frames numbered without them (as
    :func:`~searchvid.render.policy.assign_frames` and its tally number the frames they keep
    before dropping any): :meth:`drops` says which of those frames the video drops."""

    def __init__(self, video: VideoOptions) -> None:
        self._ahead = list(stretches(video))[::-1]  # the next one last

    def drops(self, frame: int) -> bool:
        """Whether the video drops ``frame`` (frames asked in increasing order): it lies in a
        dead stretch, which keeps only some of its frames (:meth:`DeadStretch.keeps`)."""
        ahead = self._ahead
        while ahead and ahead[-1].end <= frame:
            ahead.pop()
        return bool(ahead) and ahead[-1].first <= frame and not ahead[-1].keeps(frame)


def fast_field(video: VideoOptions, index: int) -> Field | None:
    """The strip's ``fast`` field for video frame ``index`` inside a dead stretch, else
    None: eight times faster reads ``fast \N{MULTIPLICATION SIGN}8: board barely
    changes`` (:data:`FAST_REASON`), so a reader is told what is sped up and why."""
    for stretch in stretches(video):
        if stretch.shown <= index < stretch.shown + stretch.kept:
            return Field("fast", f"\N{MULTIPLICATION SIGN}{stretch.factor}: {stretch.reason}")
        if index < stretch.shown:
            break
    return None


def with_fast(video: VideoOptions, index: int, fields: Sequence[Field]) -> Sequence[Field]:
    """``fields`` of video frame ``index``, after its ``fast`` field where it has one (the
    frontier view they may carry kept)."""
    fast = fast_field(video, index)
    if fast is None:
        return fields
    view = frontier_of(fields)
    return (fast, *fields) if view is None else StatusFields((fast, *fields), view)


def dead_factor(frames: int, fps: int, seconds: float = DEAD_PLAYS_FOR) -> int:
    """The ``factor`` that plays a dead stretch of ``frames`` frames in about ``seconds``
    (:data:`DEAD_PLAYS_FOR`): at most ``target`` frames kept, where ``target`` is that
    many frame durations (at least 3: the first, the last and one between)."""
    target = max(3, round(seconds * fps))
    return max(2, math.ceil((frames - 1) / (target - 2)))


def planned(
    video: VideoOptions, runs: Sequence[tuple[int, int]], final_best: int | None = None
) -> PacedVideo:
    """``video`` with the quiet runs ``runs`` (``(first, end)`` frames, numbered without
    dead stretches) as its dead stretches, each with its factor and place in the video;
    with ``final_best`` (the frame of the search's final best, numbered the same way) its
    hold (``after_best``), the runs after it settled (:data:`SETTLED_REASON`)."""
    table = {name: getattr(video, name) for name in VideoOptions.__dataclass_fields__}
    dead: list[DeadStretch] = []
    dropped = 0
    shown_best = None
    for first, end in runs:
        if final_best is not None and shown_best is None and first > final_best:
            shown_best = final_best - dropped
        reason = SETTLED_REASON if final_best is not None and first > final_best else FAST_REASON
        settled = reason == SETTLED_REASON
        seconds = SETTLED_PLAYS_FOR if settled else DEAD_PLAYS_FOR
        factor = dead_factor(end - first, video.fps, seconds)
        stretch = DeadStretch(first, end, factor, first - dropped, reason)
        dead.append(stretch)
        dropped += stretch.dropped
    if final_best is not None and shown_best is None:
        shown_best = final_best - dropped
    return PacedVideo(**table, dead=tuple(dead), final_best=shown_best)


def final_best_hold(video: VideoOptions, index: int) -> int:
    """Extra frame durations video frame ``index`` stays as the frame of the search's final
    best (``after_best``; :attr:`PacedVideo.final_best`), else 0."""
    if not isinstance(video, PacedVideo) or video.final_best != index:
        return 0
    return max(0, round(video.after_best * video.fps) - 1)


class DeadFinder:
    """Finds the quiet runs of a video frame by frame (see the module's rules).

    Args:
        video: The ``[video]`` options (``fps``, ``compress_dead``).
        settle: Also find the settled runs after the search's final best (``after_best``).
    """

    def __init__(self, video: VideoOptions, *, settle: bool = False) -> None:
        self._longer_than = video.compress_dead * video.fps  # frames, each one long
        self._settle = settle
        self._calm: int | None = None  # the current run of frames that are not lively
        self._calm_runs: list[tuple[int, int]] = []
        self.final_best: int | None = None
        """The latest frame that showed a new best (with ``settle``; None: none yet)."""
        self._grid: npt.NDArray[np.int16] | None = None
        self._patch: npt.NDArray[np.bool_] | None = None  # cells changed in the current run
        self._first: int | None = None  # the current run's first frame
        self._frame = -1
        self.runs: list[tuple[int, int]] = []
        """The dead runs found so far: ``(first, end)`` frames."""

    def see(
        self, grid: npt.NDArray[np.int16] | None, lively: bool, improving: bool = False
    ) -> None:
        """The next frame: its board's tile grid (None: no board), whether it is lively, and
        whether it shows a new best (lively too)."""
        self._frame += 1
        if self._settle:
            self._see_calm(lively or grid is None, improving)
        before, self._grid = self._grid, grid
        if lively or grid is None:
            self._close()  # no run holds a lively frame: the next may start after it
            return
        if before is None or before.shape != grid.shape or self._patch is None:
            self._close()
            self._open(grid)
            return
        patch = self._patch | (grid != before)
        if int(np.count_nonzero(patch)) > max(1, math.floor(DEAD_SHARE * grid.size)):
            self._close()  # the changes left the patch: a new run starts here
            self._open(grid)
            return
        self._patch = patch

    def finish(self) -> list[tuple[int, int]]:
        """The dead runs, once every frame has been seen: a run never holds the last one.
        With ``settle``, the runs after the final best are the settled runs there."""
        self._close()
        if self._settle:
            self._see_calm(True, False)
            best = self.final_best
            if best is not None:
                before = [run for run in self.runs if run[0] < best]
                self.runs = before + [run for run in self._calm_runs if run[0] > best]
        return self.runs

    def _see_calm(self, lively: bool, improving: bool) -> None:
        """Follow the runs of frames that are not lively, whatever they change."""
        if improving:
            self.final_best = self._frame
        if not lively:
            if self._calm is None:
                self._calm = self._frame
            return
        first, end = self._calm, self._frame
        if first is not None and end - first > self._longer_than and end - first >= 4:
            self._calm_runs.append((first, end))
        self._calm = None

    def _open(self, grid: npt.NDArray[np.int16]) -> None:
        self._first = self._frame
        self._patch = np.zeros(grid.shape, dtype=np.bool_)

    def _close(self) -> None:
        """End the current run before the frame just seen; keep it if it is dead."""
        first, end = self._first, self._frame
        if first is not None and end - first > self._longer_than and end - first >= 4:
            self.runs.append((first, end))
        self._first = None
        self._patch = None
