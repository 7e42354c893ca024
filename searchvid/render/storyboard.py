"""A storyboard: a contact sheet of a video's frames, to judge the whole video at a glance.

The sheet shows the first frame (the opening), ``count`` frames evenly spaced in time and the
last frame (the closing), each scaled down and labelled with its time in the video
(``m:ss.s``, the times of :mod:`searchvid.render.timeline`, as in the captions), its frame
number (for ``preview --frame``) and its phase. Frames are picked by time, not by index,
because the sheet should show the video as a viewer sees it: a frame held for three seconds
is on the sheet more likely than one shown for a twelfth. The times run from the end of the
first frame (the opening card, held) to the start of the last (the closing card): both are
on the sheet anyway. A frame picked twice is drawn once, so a short video, or one with long
holds, has fewer tiles.

The searches run twice: once without pixels to time the frames, then once to draw only the
picked frames (as ``preview`` draws one). Tiles are laid out in a grid about 3:2 in shape,
at most :data:`MAX_WIDTH` pixels wide; a frame is never enlarged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.errors import RunError
from searchvid.render.atlas import RGB
from searchvid.render.canvas import Rect
from searchvid.render.job import EventSource, RenderJob
from searchvid.render.pipeline import drawn_frames
from searchvid.render.png import write_png
from searchvid.render.textink import TextInk, ramp
from searchvid.render.timeline import FrameTime, Timeline, clock, timeline

__all__ = [
    "DEFAULT_COUNT",
    "MAX_WIDTH",
    "Sheet",
    "Tile",
    "pick_frames",
    "scale_frame",
    "storyboard",
]

DEFAULT_COUNT = 10
"""Frames between the first and the last, by default."""

MAX_WIDTH = 2400
"""The widest sheet, in pixels."""

MARGIN = 24
"""Pixels around the sheet's content and between tiles."""

LABEL_SIZE = 18
"""Font size of the tiles' labels, in pixels."""

HEADING_SIZE = 24
"""Font size of the sheet's heading, in pixels."""

BACKGROUND: RGB = (24, 24, 24)
_TIME_RGB: RGB = (255, 255, 255)
_NOTE_RGB: RGB = (170, 170, 170)
_ASPECT = 1.5  # the sheet's shape aimed at: a screen or a page, not a strip
_MIN_TILE = 120  # a narrower tile shows too little; fewer columns then


@dataclass(frozen=True)
class Tile:
    """One frame on the sheet.

    Attributes:
        frame: The frame's time, phase and index.
        box: Where the scaled frame is on the sheet.
        label: Its label's text (time, frame number, phase).
    """

    frame: FrameTime
    box: Rect
    label: str


@dataclass(frozen=True)
class Sheet:
    """What :func:`storyboard` wrote.

    Attributes:
        path: The PNG written.
        width: Its width in pixels.
        height: Its height in pixels.
        tiles: The frames shown, in order.
        frames: Frames in the video.
        duration: The video's length in seconds.
    """

    path: Path
    width: int
    height: int
    tiles: tuple[Tile, ...]
    frames: int
    duration: Fraction

    def __str__(self) -> str:
        return (
            f"{len(self.tiles)} of {self.frames} frames ({clock(self.duration)}) on a "
            f"{self.width}x{self.height} sheet -> {self.path}"
        )


def pick_frames(line: Timeline, count: int) -> list[FrameTime]:
    """The first frame, the frames on screen at ``count`` times evenly spaced between the
    end of the first frame and the start of the last (the opening card's hold and the last
    frame's ``hold_last`` are not sampled again), and the last frame; each once, in order
    (a frame on screen at several of the times, held, is picked once)."""
    if not line.frames:
        return []
    first, last = line.frames[0], line.frames[-1]
    picked = {0: first, last.index: last}
    span = max(Fraction(0), last.start - first.end)
    for k in range(1, count + 1):
        frame = line.at(first.end + span * k / (count + 1))
        picked[frame.index] = frame
    return [picked[index] for index in sorted(picked)]


def scale_frame(frame: npt.NDArray[np.uint8], width: int, height: int) -> npt.NDArray[np.uint8]:
    """``frame`` (``(h, w, 3)`` RGB) resized to ``width`` x ``height`` (Lanczos: small text
    stays as sharp as the size allows); unchanged at its own size."""
    if frame.shape[1] == width and frame.shape[0] == height:
        return np.array(frame, dtype=np.uint8)
    image = Image.fromarray(frame, mode="RGB").resize((width, height), Image.Resampling.LANCZOS)
    return np.asarray(image, dtype=np.uint8)


@dataclass(frozen=True)
class _Grid:
    columns: int
    rows: int
    tile_width: int
    tile_height: int


def _grid(tiles: int, frame_width: int, frame_height: int, cell_extra: int) -> _Grid:
    """The columns and tile size whose sheet comes nearest :data:`_ASPECT` (empty cells
    cost a little), tiles as wide as fits :data:`MAX_WIDTH` but never wider than a frame."""
    best: tuple[float, _Grid] | None = None
    for columns in range(1, tiles + 1):
        room = (MAX_WIDTH - MARGIN * (columns + 1)) // columns
        width = min(frame_width, room)
        if width < _MIN_TILE and best is not None:
            break
        width = max(2, width)
        height = max(1, round(frame_height * width / frame_width))
        rows = -(-tiles // columns)
        sheet_width = MARGIN * (columns + 1) + columns * width
        sheet_height = MARGIN * (rows + 1) + rows * (height + cell_extra)
        empty = rows * columns - tiles
        cost = abs(math.log(sheet_width / sheet_height / _ASPECT)) + 0.1 * empty / columns
        if best is None or cost < best[0]:
            best = (cost, _Grid(columns, rows, width, height))
    assert best is not None
    return best[1]


def _paint_text(
    sheet: npt.NDArray[np.uint8], ink: TextInk, text: str, top: int, left: int, color: RGB
) -> int:
    """Draw ``text`` anti-aliased with its ink's top row at ``top``; return its width."""
    levels = ink.ink(text)
    if not levels.size:
        return 0
    colors = np.array(ramp(color, BACKGROUND), dtype=np.uint8)
    height, width = levels.shape
    region = sheet[top : top + height, left : left + width]
    levels = levels[: region.shape[0], : region.shape[1]]
    inked = levels > 0
    region[inked] = colors[levels[inked]]
    return int(width)


def storyboard(
    events: EventSource | Sequence[EventSource],
    job: RenderJob | Sequence[RenderJob] | Callable[[], Sequence[RenderJob]],
    output: Path,
    *,
    count: int = DEFAULT_COUNT,
    title: str = "",
    progress: Callable[[int], None] | None = None,
) -> Sheet:
    """Draw the storyboard of the video of these searches to ``output`` (a PNG, written
    under a temporary name and renamed when complete).

    Args:
        events: The event source of each search (replayable: it is read twice).
        job: The render job of each search (as for ``render``), or a function that makes
            them: then each of the two passes gets fresh jobs. Pass the function (a scene's
            ``render_jobs``) when a view keeps state from the events it has seen, as the
            tree domain's view does: jobs read once by the timing pass would draw later
            frames with what that pass saw.
        output: The PNG's path.
        count: Frames evenly spaced in time between the first and the last (>= 0).
        title: The sheet's heading (and, in a race, the frame's title bar).
        progress: Called with the number of frames timed after each frame.

    Raises:
        ValueError: ``count`` is negative.
        RunError: No event became a frame, or the PNG could not be written.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    made: Callable[[], RenderJob | Sequence[RenderJob]] = job if callable(job) else lambda: job
    line = timeline(events, made(), progress=progress)
    picked = pick_frames(line, count)
    if not picked:
        first = made()
        video = (first if isinstance(first, RenderJob) else first[0]).video
        raise RunError(f"no frames: no event was selected by frames = {video.frames!r}")
    wanted = {frame.index for frame in picked}
    label_ink, heading_ink = TextInk(LABEL_SIZE), TextInk(HEADING_SIZE)
    cell_extra = MARGIN // 2 + label_ink.height
    scaled: dict[int, npt.NDArray[np.uint8]] = {}
    grid: _Grid | None = None
    for index, pixels in drawn_frames(events, made(), wanted.__contains__, title=title):
        if grid is None:
            grid = _grid(len(picked), pixels.shape[1], pixels.shape[0], cell_extra)
        scaled[index] = scale_frame(pixels, grid.tile_width, grid.tile_height)
    if grid is None or len(scaled) != len(picked):
        raise RunError("the searches made other frames the second time they ran")
    head = MARGIN + heading_ink.height
    width = MARGIN * (grid.columns + 1) + grid.columns * grid.tile_width
    height = head + MARGIN * (grid.rows + 1) + grid.rows * (grid.tile_height + cell_extra)
    sheet = np.empty((height, width, 3), dtype=np.uint8)
    sheet[...] = BACKGROUND
    heading = f"{title} · " if title else ""
    heading += f"{clock(line.duration)}, {len(line.frames):,} frames at {line.fps} fps"
    _paint_text(
        sheet, heading_ink, heading_ink.fit(heading, width - 2 * MARGIN), MARGIN, MARGIN, _TIME_RGB
    )
    tiles: list[Tile] = []
    for place, frame in enumerate(picked):
        row, column = divmod(place, grid.columns)
        top = head + MARGIN + row * (grid.tile_height + cell_extra + MARGIN)
        left = MARGIN + column * (grid.tile_width + MARGIN)
        box = Rect(top, left, top + grid.tile_height, left + grid.tile_width)
        sheet[box.top : box.bottom, box.left : box.right] = scaled[frame.index]
        time_text = clock(frame.start)
        note = f"  frame {frame.index} · {frame.phase.value.lower()}"
        label_top = box.bottom + MARGIN // 2
        used = _paint_text(sheet, label_ink, time_text, label_top, left, _TIME_RGB)
        room = grid.tile_width - used
        _paint_text(sheet, label_ink, label_ink.fit(note, room), label_top, left + used, _NOTE_RGB)
        tiles.append(Tile(frame, box, time_text + note))
    write_png(sheet, output)
    return Sheet(output, width, height, tuple(tiles), len(line.frames), line.duration)
