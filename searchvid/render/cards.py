"""The opening and closing cards: which frames they are, what their strips say, how long
they stay, and a race's finishing order.

The first video frame opens the video: over the start position its strip states the
problem, the algorithm and its settings, and it stays ``[video] opening`` seconds. The last
frame closes it: its strip states the result and what it cost (in a race, each search's
place; the title bar names the winner), and it stays ``max(hold_last, closing)`` seconds.
Both are frames of the search's own stream, so frame ``N`` means the same event in every
format and command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from searchvid.render.hud import HudText
from searchvid.render.narration import Card, Ending, Narration
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event
from searchvid.search.status import Field

Shown = tuple[Event, float | None, bool, Ending | None] | None
"""What a column shows: the event of its latest frame, the best value so far, whether the
frame shows a new best, and why it is the search's last frame (None: it is not)."""


def card_of(video: VideoOptions, index: int, shown: Sequence[Shown]) -> Card | None:
    """Which card video frame ``index``, showing ``shown``, is: the last frame (every
    column at its search's last frame) closes the video, the first opens it; None for the
    frames between, or without a strip or with the card's key at 0. A one-frame video
    closes."""
    if not video.hud:
        return None
    if video.closing and all(item is not None and item[3] is not None for item in shown):
        return Card.CLOSING
    return Card.OPENING if index == 0 and video.opening else None


def opening_hold(video: VideoOptions) -> int:
    """Extra frame durations the opening card stays: ``[video] opening`` seconds in all."""
    return max(0, round(video.opening * video.fps) - 1)


def held_last(video: VideoOptions) -> VideoOptions:
    """``video`` as the encoder takes it: the last frame held ``hold_last`` seconds, or
    ``closing`` seconds where the closing card wants longer."""
    if video.hud and video.closing > video.hold_last:
        return dataclasses.replace(video, hold_last=video.closing)
    return video


def race_places(
    shown: Sequence[Shown], ended: Sequence[int | None], titles: Sequence[str]
) -> tuple[list[str | None], list[str]]:
    """Each search's place in a race (``"1st of 3"``), and the winners' titles, from the
    video frame each search ended at (``ended``, None: not yet): searches that ran to
    their end rank by the video frame they ended at (ties share a place); a search cut
    short (max_frames, max_events) does not finish."""
    count = len(shown)
    done = {
        i: frame
        for i, (item, frame) in enumerate(zip(shown, ended, strict=True))
        if item is not None and item[3] is Ending.COMPLETE and frame is not None
    }
    places: list[str | None] = ["did not finish"] * count
    for i, frame in done.items():
        rank = 1 + sum(1 for other in done.values() if other < frame)
        tied = sum(1 for other in done.values() if other == frame) > 1
        places[i] = f"{'tied ' if tied else ''}{_ordinal(rank)} of {count}"
    first = min(done.values(), default=None)
    return places, [titles[i] for i, frame in done.items() if frame == first]


def race_result(winners: Sequence[str]) -> str:
    """``"winner: 2 · A*"``, or ``"tie: 1 · breadth-first and 2 · backtracking"``."""
    if len(winners) == 1:
        return f"winner: {winners[0]}"
    return f"tie: {', '.join(winners[:-1])} and {winners[-1]}"


def crowned_title(title: str, result: str) -> str:
    """A race's title on its closing card: ``"Water Sort race · winner: 2 · A*"``."""
    return f"{title} · {result}" if title else result


def strip_text(
    narration: Narration,
    event: Event,
    best: float | None,
    improving: bool,
    fields: Sequence[Field],
    ending: Ending | None,
    card: Card | None,
    place: str | None,
) -> HudText:
    """What a strip says: the frame's step, or the opening or closing card."""
    if card is Card.OPENING:
        return narration.opening(event)
    if card is Card.CLOSING and ending is not None:
        return narration.closing(event, best, fields, ending, place)
    return narration.text(event, best, improving, fields, ending)


def _ordinal(rank: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``21st``."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"
