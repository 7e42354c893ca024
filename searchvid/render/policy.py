"""The frame policy: which events of a search become video frames.

It runs ahead of drawing, so a skipped event costs no pixels, and it cuts the search once the
video is full. Every command (render, preview, trace, run) uses this one policy, so frame ``N``
means the same event everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from searchvid.render.settings import FrameSelection, VideoOptions
from searchvid.search.events import Event, EventKind


def selects(selection: FrameSelection, kind: EventKind) -> bool:
    """Whether an event of ``kind`` is a candidate frame under ``frames = selection``.

    ``all``: every kind that shows a state; ``leaves``: LEAF; ``improvements``: IMPROVE;
    ``moves``: MOVE.
    """
    if selection == "all":
        return kind.shows_state
    if selection == "leaves":
        return kind is EventKind.LEAF
    if selection == "improvements":
        return kind is EventKind.IMPROVE
    if selection == "moves":
        return kind is EventKind.MOVE
    raise ValueError(f"unknown frame selection {selection!r}")


def assign_frames(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None]]:
    """Pair every event with the index of the frame it becomes, or None.

    The candidates chosen by ``video.frames`` are counted from 0; candidates ``0, every,
    2 * every, ...`` become frames ``0, 1, 2, ...``. The iterator stops right after the event
    that made frame ``max_frames - 1`` (the video is full; the search is not run further).

    Args:
        events: The event stream of a search.
        video: The ``[video]`` options (``frames``, ``every``, ``max_frames``).

    Yields:
        ``(event, frame_index_or_None)`` for every event up to the cut.
    """
    selection, every, limit = video.frames, video.every, video.max_frames
    candidates = 0
    frames = 0
    for event in events:
        if not selects(selection, event.kind):
            yield event, None
            continue
        keep = candidates % every == 0
        candidates += 1
        if not keep:
            yield event, None
            continue
        yield event, frames
        frames += 1
        if frames >= limit:
            return
