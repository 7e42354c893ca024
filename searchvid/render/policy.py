"""The frame policy: which events of a search become video frames.

It runs ahead of drawing, so a skipped event costs no pixels, and it cuts the search once the
video is full. Every command (render, preview, trace, run) uses this one policy, so frame ``N``
means the same event everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import islice

from searchvid.render.settings import FrameSelection, VideoOptions
from searchvid.search.events import Event, EventKind


def selects(selection: FrameSelection, kind: EventKind) -> bool:
    """Whether an event of ``kind`` is a candidate frame under ``frames = selection``.

    ``all``: every kind that shows a state (ROLL included); ``leaves``: LEAF;
    ``improvements``: IMPROVE; ``moves``: the played line, MOVE and ROLL (a game of chance
    shows each roll of the dice between its moves).
    """
    if selection == "all":
        return kind.shows_state
    if selection == "leaves":
        return kind is EventKind.LEAF
    if selection == "improvements":
        return kind is EventKind.IMPROVE
    if selection == "moves":
        return kind is EventKind.MOVE or kind is EventKind.ROLL
    raise ValueError(f"unknown frame selection {selection!r}")


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
"""The played line: committed moves and the dice nature rolled, never thinned away."""

FINAL_FRAME_LOOKAHEAD = 4096
"""Events buffered after a skipped candidate, waiting to see whether it was the last one."""


def assign_frames(
    events: Iterable[Event], video: VideoOptions
) -> Iterator[tuple[Event, int | None]]:
    """Pair every event with the index of the frame it becomes, or None.

    The candidates chosen by ``video.frames`` are counted from 0; candidates ``0, every,
    2 * every, ...`` become frames ``0, 1, 2, ...``. Under ``frames = "all"`` a MOVE or ROLL
    event (a committed move, a solution being played out, a roll of the dice) is always a
    frame and is not counted, so
    ``every`` thins the search but never the answer; with ``duration`` (pacing) a candidate
    whose node the next events report as a new best (IMPROVE) is kept too. The last candidate
    of the stream always becomes the final frame even when ``every`` would skip it, so a video
    ends on the search's final state (a solved puzzle, the end of a game); to know that a
    skipped candidate was the last, the events after it are held back, at most
    :data:`FINAL_FRAME_LOOKAHEAD` of them.
    The iterator stops right after the event that made frame ``max_frames - 1`` (the video is
    full; the search is not run further), or after ``max_events`` events: a search that runs
    for ever, or long without an event the selection takes, still ends. (Work done between
    events is bounded by the search itself: a scene gives it ``max_events`` as its
    :attr:`~searchvid.search.algorithm.Algorithm.work_limit`.)

    Args:
        events: The event stream of a search.
        video: The ``[video]`` options (``frames``, ``every``, ``max_frames``,
            ``max_events``).

    Yields:
        ``(event, frame_index_or_None)`` for every event up to the cut, in stream order.
    """
    selection, every, limit = video.frames, video.every, video.max_frames
    keep_best = video.duration > 0  # pacing never thins away a new best
    candidates = 0
    frames = 0
    held: list[Event] = []  # a skipped candidate, then the events after it
    for event in islice(events, video.max_events):
        candidate = selects(selection, event.kind)
        if held and (candidate or len(held) > FINAL_FRAME_LOOKAHEAD):
            for waiting in held:
                yield waiting, None
            held.clear()
        if held:
            if keep_best and event.kind is EventKind.IMPROVE and event.node is held[0].node:
                yield held[0], frames  # the skipped state was a new best: keep it after all
                frames += 1
                for waiting in (*held[1:], event):
                    yield waiting, None
                held.clear()
                if frames >= limit:
                    return
                continue
            held.append(event)
            continue
        if not candidate:
            yield event, None
            continue
        if selection == "all" and event.kind in _PLAYED:
            keep = True
        else:
            keep = candidates % every == 0
            candidates += 1
        if not keep:
            held.append(event)
            continue
        yield event, frames
        frames += 1
        if frames >= limit:
            return
    if held:
        yield held[0], frames
        for waiting in held[1:]:
            yield waiting, None


def pace(streams: Iterable[Iterable[Event]], video: VideoOptions) -> VideoOptions:
    """``video`` with ``every`` chosen so the searches fit about ``duration`` seconds.

    A silent pass over each search (up to ``max_events``) counts its candidate frames and
    the frames that are always kept (MOVE frames under ``all`` and new bests, with their
    holds); ``every`` then thins the rest evenly into the time left after those and
    ``hold_last``. The longest search decides. Without ``duration``, ``video`` unchanged.
    """
    if not video.duration:
        return video
    fps = video.fps
    budget = round(video.duration * fps) - round(video.hold_last * fps)
    move_units = max(1, round(video.hold_moves * fps))
    best_units = max(1, round(video.hold_improvements * fps))
    every = 1
    for events in streams:
        thinned = kept = 0
        for event in islice(events, video.max_events):
            if selects(video.frames, event.kind):
                if video.frames == "all" and event.kind in _PLAYED:
                    kept += move_units
                else:
                    thinned += 1
            elif event.kind is EventKind.IMPROVE:
                kept += best_units
        spare = max(1, budget - kept)
        every = max(every, -(-thinned // spare))
    return replace(video, every=max(video.every, every))
