"""How long a frame stays on screen: a committed move's and a new best's holds
(:func:`frame_hold`), and jumps, frames whose board replaces much of the one before
(``[video] max_jumps``).

A breadth-first search's next state, an MCTS iteration's rollout, a move on a 3 x 3 board:
when a frame replaces much of the board, a reader cannot follow it at video pace (the
video strobes). Such a frame is held so that jumps come at most ``max_jumps`` a second.
Whether a frame jumps is read from the views' tile grids (:class:`Jumps`), the same in every
format and command; :func:`paced_for_jumps` keeps a paced video (``duration``) to its
length with those holds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from searchvid.render.cards import Shown
from searchvid.render.job import RenderJob
from searchvid.render.settings import VideoOptions
from searchvid.search.events import EventKind

JUMP_SHARE = 0.15
"""A board that differs from the one before it in more than this share of its tiles jumps:
the eye cannot follow such changes at video pace (``[video] max_jumps``)."""


class Jumps:
    """Which frames jump, and how long a jump stays on screen (``[video] max_jumps``).

    A column's board jumps when its tile grid differs from the one the column showed
    before in more than :data:`JUMP_SHARE` of its tiles. A frame where any column jumps is
    held so that it stays ``1 / max_jumps`` seconds (rounded up to whole frames): the next
    frame, and so the next jump, comes that much later. Read from the views' tile grids
    (int16 arrays), not from pixels: the same in every format and command.

    Args:
        jobs: One per column; their views draw the boards.
        video: The ``[video]`` options (``fps``, ``max_jumps``).
    """

    def __init__(self, jobs: Sequence[RenderJob], video: VideoOptions) -> None:
        self._views = [job.view for job in jobs]
        self._grids: list[npt.NDArray[np.int16] | None] = [None] * len(jobs)
        self.hold = jump_hold(video)
        """Extra frame durations of a frame that jumps (0: jumps are not held)."""

    def __call__(self, shown: Sequence[Shown], fresh: Sequence[bool]) -> int:
        """The extra frame durations the current frame stays for its jumps (0: none)."""
        if not self.hold:
            return 0
        jumped = False
        for i, (item, new) in enumerate(zip(shown, fresh, strict=True)):
            if item is None or not new:
                continue
            grid = self._views[i].grid(item[0].node)
            before = self._grids[i]
            if before is not None and before.shape == grid.shape:
                jumped |= int(np.count_nonzero(grid != before)) > JUMP_SHARE * grid.size
            self._grids[i] = grid
        return self.hold if jumped else 0


def jump_hold(video: VideoOptions) -> int:
    """Extra frame durations a jump stays on screen: ``1 / max_jumps`` seconds in all,
    rounded up to whole frames (0: ``max_jumps`` is off, or allows a jump every frame)."""
    if not video.max_jumps:
        return 0
    return max(0, math.ceil(video.fps / video.max_jumps - 1e-9) - 1)


def frame_holds(video: VideoOptions) -> tuple[int, int]:
    """``(move_hold, best_hold)``: the extra frame durations a committed move and a new best
    stay on screen (``hold_moves`` and ``hold_improvements`` in whole frames)."""
    move_hold = max(0, round(video.hold_moves * video.fps) - 1)
    best_hold = max(0, round(video.hold_improvements * video.fps) - 1)
    return move_hold, best_hold


def frame_hold(
    shown: Sequence[Shown], fresh: Sequence[bool], move_hold: int, best_hold: int
) -> int:
    """Extra frame durations the current frame stays on screen: a committed move or a new
    best that a column shows for the first time (``fresh``) holds it. A column that has
    ended and holds its last frame holds the video no longer: the others go on at their
    own pace."""
    hold = 0
    for item, new in zip(shown, fresh, strict=True):
        if item is not None and new:
            if item[0].kind in _PLAYED_KINDS:
                hold = max(hold, move_hold)
            if item[2]:
                hold = max(hold, best_hold)
    return hold


_PLAYED_KINDS = frozenset({EventKind.MOVE, EventKind.ROLL})
