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


FAST_REASON = "board barely changes"
"""Why a dead stretch plays fast, after its factor in the strip (``fast \N{MULTIPLICATION SIGN}8:
board barely changes``): what the stretch's frames have in common, in words for any domain."""


@dataclass(frozen=True)
class DeadStretch:
    """One dead stretch and how it is played.

    Attributes:
        first: Its first frame, numbered without the dead stretches.
        end: The frame after its last, numbered the same way.
        factor: One frame in ``factor`` is kept (its first and last always).
        shown: Its first frame's index in the video (the dead stretches before it dropped).
    """

    first: int
    end: int
    factor: int
    shown: int

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
    """

    dead: tuple[DeadStretch, ...] = ()


def stretches(video: VideoOptions) -> tuple[DeadStretch, ...]:
    """The dead stretches ``video`` plays fast (none unless pacing found some)."""
    return video.dead if isinstance(video, PacedVideo) else ()


def fast_field(video: VideoOptions, index: int) -> Field | None:
    """The strip's ``fast`` field for video frame ``index`` inside a dead stretch, else
    None: eight times faster reads ``fast \N{MULTIPLICATION SIGN}8: board barely
    changes`` (:data:`FAST_REASON`), so a reader is told what is sped up and why."""
    for stretch in stretches(video):
        if stretch.shown <= index < stretch.shown + stretch.kept:
            return Field("fast", f"\N{MULTIPLICATION SIGN}{stretch.factor}: {FAST_REASON}")
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


def dead_factor(frames: int, fps: int) -> int:
    """The ``factor`` that plays a dead stretch of ``frames`` frames in about
    :data:`DEAD_PLAYS_FOR` seconds: at most ``target`` frames kept, where ``target`` is that
    many frame durations (at least 3: the first, the last and one between)."""
    target = max(3, round(DEAD_PLAYS_FOR * fps))
    return max(2, math.ceil((frames - 1) / (target - 2)))


def planned(video: VideoOptions, runs: Sequence[tuple[int, int]]) -> PacedVideo:
    """``video`` with the quiet runs ``runs`` (``(first, end)`` frames, numbered without
    dead stretches) as its dead stretches, each with its factor and place in the video."""
    table = {name: getattr(video, name) for name in VideoOptions.__dataclass_fields__}
    dead: list[DeadStretch] = []
    dropped = 0
    for first, end in runs:
        stretch = DeadStretch(first, end, dead_factor(end - first, video.fps), first - dropped)
        dead.append(stretch)
        dropped += stretch.dropped
    return PacedVideo(**table, dead=tuple(dead))


class DeadFinder:
    """Finds the quiet runs of a video frame by frame (see the module's rules).

    Args:
        video: The ``[video]`` options (``fps``, ``compress_dead``).
    """

    def __init__(self, video: VideoOptions) -> None:
        self._longer_than = video.compress_dead * video.fps  # frames, each one long
        self._grid: npt.NDArray[np.int16] | None = None
        self._patch: npt.NDArray[np.bool_] | None = None  # cells changed in the current run
        self._first: int | None = None  # the current run's first frame
        self._frame = -1
        self.runs: list[tuple[int, int]] = []
        """The dead runs found so far: ``(first, end)`` frames."""

    def see(self, grid: npt.NDArray[np.int16] | None, lively: bool) -> None:
        """The next frame: its board's tile grid (None: no board) and whether it is lively."""
        self._frame += 1
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
        """The dead runs, once every frame has been seen: a run never holds the last one."""
        self._close()
        return self.runs

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
