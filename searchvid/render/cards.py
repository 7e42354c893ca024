"""The opening and closing cards: which frames they are, what their strips say, how long
they stay, and a race's finishing order.

The first video frame opens the video: over the start position its strip states the
problem, the algorithm and its settings, and it stays ``[video] opening`` seconds. The last
frame closes it: its strip states the result and what it cost (in a race, each search's
place and work; the title bar names the winner), and it stays ``max(hold_last, closing)``
seconds. Both are frames of the search's own stream, so frame ``N`` means the same event in
every format and command. In a race, a search's strip also shows a finish stamp from the
frame it ends on (:func:`race_fields`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.render.fieldwords import WORK
from searchvid.render.hud import HudText
from searchvid.render.narration import Narration
from searchvid.render.setting_words import OutOfReach, out_of_reach
from searchvid.render.settings import VideoOptions
from searchvid.render.voice import BestShown, Card, Ending, Voice
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field

Shown = tuple[Event, float | None, bool, Ending | None] | None
"""What a column shows: the event of its latest frame, the best value so far, whether the
frame shows a new best, and why it is the search's last frame (None: it is not)."""


@dataclass(frozen=True)
class BestFrame:
    """The frame that first showed a search's best so far.

    Attributes:
        event: The frame's event (its node is the best).
        best: The best value it showed.
        fields: The algorithm's fields on that frame.
    """

    event: Event
    best: float | None
    fields: Sequence[Field]


class BestFrames:
    """Per column, the frame that first showed its search's latest best (IMPROVE), so that
    the closing card can show the result rather than wherever the search stopped."""

    def __init__(self, count: int) -> None:
        self._frames: list[BestFrame | None] = [None] * count
        self._best: list[Any] = [None] * count  # the latest IMPROVE's node
        self._improved = [False] * count  # a best beyond the first node's

    def improve(self, track: int, event: Event) -> None:
        """Note an IMPROVE event of column ``track``: its node is now the best."""
        self._improved[track] = self._best[track] is not None
        self._best[track] = event.node

    def offer(
        self,
        track: int,
        item: Shown,
        status: Callable[[Event], Sequence[Field]] | Sequence[Field] | None,
    ) -> None:
        """Note the frame column ``track`` shows now (call once per new frame, in order):
        kept with its algorithm's fields (``status``: them, or how to read them for the
        frame's event) when it shows a new best."""
        if item is not None and item[2]:
            fields = status(item[0]) if callable(status) else status or ()
            self._frames[track] = BestFrame(item[0], item[1], fields)

    def closing(self, track: int, item: Shown, fields: Sequence[Field]) -> _Drawn:
        """What the closing card of column ``track`` draws, whose last frame shows ``item``
        with the algorithm's ``fields``: that frame, or the frame that first showed the
        search's best when the last one shows another node (see :func:`closing_frame`)."""
        if not self._improved[track]:  # the start was never beaten: nothing to show
            return _last(item, fields)
        return closing_frame(item, fields, self._frames[track], self._best[track])


_Drawn = tuple[Event, float | None, Sequence[Field]]
"""A frame's event, best value so far and algorithm fields, as a painter draws them."""


def closing_frame(
    item: Shown, fields: Sequence[Field], best: BestFrame | None, node: Any
) -> _Drawn:
    """The closing card's event, best value and fields: the last frame's (``item``,
    ``fields``), or, when the search reported a best (``node``, the latest IMPROVE's) that
    a frame showed (``best``) and the last frame shows another node, worse where its
    event has a value (and not a move played out: a game or a solution ends where it
    ends), that frame's, its fields marked
    :class:`~searchvid.render.narration.BestShown` so that the card says so."""
    event = _last(item, fields)[0]
    if (
        best is None
        or best.event.node is not node
        or event.node is node
        or event.kind in _PLAYED_KINDS
        or (event.value is not None and best.best is not None and event.value >= best.best)
    ):
        return _last(item, fields)
    return best.event, best.best, BestShown(best.fields, fields)


def _last(item: Shown, fields: Sequence[Field]) -> _Drawn:
    """The last frame's own event, best value and fields."""
    assert item is not None
    return item[0], item[1], fields


_PLAYED_KINDS = frozenset({EventKind.MOVE, EventKind.ROLL})


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


SEARCHED_COUNT = " searched"
"""How the name of an algorithm's count of every node it searched ends (``nodes searched``):
a count of the whole search's work, which a closing card does not repeat in another unit."""


def work_field(cost: int, unit: tuple[str, str]) -> Field:
    """``work 408 expansions``, ``work 1 iteration``: ``cost`` steps of work named by
    ``unit`` (singular, plural). Named ``work``, apart from the algorithm's own counters
    (MCTS's ``iteration 12/100`` counts within a move)."""
    return Field(WORK, cost, unit=unit[0] if cost == 1 else unit[1])


def solo_work(cost: int, unit: tuple[str, str], fields: Sequence[Field]) -> tuple[Field, ...]:
    """What a single search's closing card adds to state what the search cost in its own
    unit (``work 103 expansions``, for a breadth-first search or A*, whose fields count no
    work): nothing when none was done, or when the algorithm's own ``fields`` already count
    it: one states that count (backtracking's ``visited 9``), is a counter out of a total
    (MCTS's ``iterations 100/100``, a random walk's ``walk 6/6``, a beam's ``kept 3/5``)
    or counts every node searched (minimax's ``nodes searched 117,293``, of which its
    events may report only the top plies: ``work 4 expansions`` beside it would read as
    the whole search's cost), so that no cost is said twice in two units."""
    if cost <= 0 or any(_counts(field, cost) for field in fields):
        return ()
    return (work_field(cost, unit),)


def _counts(field: Field, cost: int) -> bool:
    """Whether ``field`` counts work: a counter with a total, a count equal to ``cost``, or
    a count of the nodes searched of at least ``cost``."""
    if field.of is not None:
        return True
    if field.name.endswith(SEARCHED_COUNT) and isinstance(field.value, int):
        return field.value >= cost
    return (
        isinstance(field.value, int) and not isinstance(field.value, bool) and (field.value == cost)
    )


CRITERION = "by work"
"""How a race ranks its searches, as its stamps, cards and title say it: by the work each
did (its unit named beside it: node expansions, iterations), not by the length of what it
found."""


def _finished(
    shown: Sequence[Shown], costs: Sequence[int | None], ranked: frozenset[int] | None = None
) -> dict[int, int]:
    """The searches that ran to their end (``Ending.COMPLETE``) and their costs (among the
    ``ranked`` columns only, when given)."""
    return {
        i: cost
        for i, (item, cost) in enumerate(zip(shown, costs, strict=True))
        if item is not None
        and item[3] is Ending.COMPLETE
        and cost is not None
        and (ranked is None or i in ranked)
    }


def ranked_columns(units: Sequence[tuple[str, str]]) -> frozenset[int]:
    """The columns a race ranks: those whose searches count their work in the same unit, so
    that the numbers compare (expansions against expansions, not against MCTS iterations):
    the unit most of them share (on a tie, the one of the earliest column), when at least
    two share it; none when no two do. All of them when they share one unit."""
    shared = [sum(1 for other in units if other == unit) for unit in units]
    most = max(shared, default=0)
    if most == len(units):
        return frozenset(range(len(units)))
    if most < 2:
        return frozenset()
    unit = units[shared.index(most)]
    return frozenset(i for i, other in enumerate(units) if other == unit)


def _rank(cost: int, done: dict[int, int]) -> str:
    """``"1st"``, ``"tied 2nd"``: a cost's place among the finished searches' ``done``."""
    rank = 1 + sum(1 for other in done.values() if other < cost)
    tied = sum(1 for other in done.values() if other == cost) > 1
    return f"{'tied ' if tied else ''}{_ordinal(rank)}"


def race_places(
    shown: Sequence[Shown],
    costs: Sequence[int | None],
    titles: Sequence[str],
    units: Sequence[tuple[str, str]] = (),
) -> tuple[list[str | None], list[str]]:
    """Each search's place in a race (``"1st of 3 by work"``), and the winners' titles: searches
    that ran to their end rank by the work their whole stream did (``costs``; ties share a
    place); a search cut short (max_frames, max_events, its work budget) does not finish.
    Only searches whose work counts in the same unit rank (:func:`ranked_columns` of
    ``units``; none given: all): one counting another unit, ``"unranked (iterations)"``,
    takes no place and wins nothing, and the others' places count only the ranked."""
    ranked = ranked_columns(units) if units else frozenset(range(len(shown)))
    done = _finished(shown, costs, ranked)
    places: list[str | None] = ["did not finish"] * len(shown)
    for i, cost in _finished(shown, costs).items():
        if i in done:
            places[i] = f"{_rank(cost, done)} of {len(ranked)} {CRITERION}"
        else:
            places[i] = f"unranked ({units[i][1]})"
    least = min(done.values(), default=None)
    return places, [titles[i] for i, cost in done.items() if cost == least]


def race_fields(
    shown: Sequence[Shown],
    work: Sequence[int | None],
    costs: Sequence[int | None],
    units: Sequence[tuple[str, str]],
    ahead: Sequence[int | None],
) -> list[tuple[Field, ...]]:
    """What each search's strip in a race says of its work, before its own fields: while
    it runs, the work its frame has done (``work 1,204 expansions``); from the frame it
    ends on, a finish stamp that names its place among the searches finished so far and
    the race's criterion, then its cost: ``finished 1st by work``, ``work 103
    expansions``; or ``did not finish`` and its cost for a search cut short; or
    ``finished unranked`` for a search whose work counts in a unit the ranked searches do
    not share (:func:`ranked_columns`).

    The searches still running have done at least as much work (a race advances the
    least-worked first), so only a tie can change a place: while one of the ranked has a
    frame to come (``ahead``: each one's next frame's work, None: none) that has done no
    more work than a finished search, that search's stamp names no place (``finished``)."""
    ranked = ranked_columns(units)
    done = _finished(shown, costs, ranked)
    coming = [key for j, key in enumerate(ahead) if key is not None and j in ranked]
    stamps: list[tuple[Field, ...]] = []
    for i, item in enumerate(shown):
        cost, now = costs[i], work[i]
        if item is None or item[3] is None or cost is None:
            stamps.append((work_field(now, units[i]),) if now is not None else ())
            continue
        if item[3] is not Ending.COMPLETE:
            words = Field("", "did not finish")
        elif i not in done:
            words = Field("finished", "unranked")
        elif any(key <= cost for key in coming):
            words = Field("", "finished")
        else:  # two fields, not one: each fits a narrow column's line
            words = Field("finished", f"{_rank(cost, done)} {CRITERION}")
        stamps.append((words, work_field(cost, units[i])))
    return stamps


def race_result(winners: Sequence[str]) -> str:
    """``"winner by work: A*"``, or ``"tie by work: breadth-first and backtracking"``: the
    criterion is said, as a race of a puzzle could be read as one for the fewest moves. The
    columns' numbers (``2 · A*``) are left off where the names alone tell the winners apart
    (``tie by work: 1 · A* and 2 · A*`` keeps them)."""
    names = [_COLUMN_NUMBER.sub("", winner, count=1) for winner in winners]
    if len(set(names)) == len(names):
        winners = names
    if len(winners) == 1:
        return f"winner {CRITERION}: {winners[0]}"
    return f"tie {CRITERION}: {', '.join(winners[:-1])} and {winners[-1]}"


_COLUMN_NUMBER = re.compile(r"^\d+ · ")
"""The column number a race puts before each search's name (``2 · A*``)."""


def crowned_title(title: str, result: str) -> str:
    """A race's title on its closing card: ``"Water Sort race · winner by work: A*"``."""
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
        text = _one_count(narration.closing(event, best, fields, ending, place))
        return _unreachable(text, narration.voice.settings)
    return narration.text(event, best, improving, fields, ending)


def opening_texts(voice: Voice) -> tuple[str, ...]:
    """The opening card's status texts as ``voice`` will show them over the domain's start
    (its ``root()``), for sizing the strip to hold the card whole
    (:attr:`~searchvid.render.hud.StripContent.card`); none where the narrator has no
    start to describe."""
    node = voice.start
    if node is None:
        root = getattr(voice.narrator, "root", None)
        if root is None:
            return ()
        node = root()
    start = Event(EventKind.ENTER, node, 0, 0, None, None, None)
    return Narration(voice).opening(start).status_texts()


def card_lines(settings: Sequence[Field]) -> int:
    """Whole status lines a search's opening card adds to those its strip is sized for
    (:attr:`~searchvid.render.hud.StripContent.extra_lines`): where it states that a goal is
    out of the search's reach (an :class:`~searchvid.render.setting_words.OutOfReach` among
    ``settings``), one for that and one for each field after it (what the search keeps
    instead), so that the strip grows to hold them rather than push the card's other fields
    off it (a strip is sized before the start position's own words are known); none for
    other searches."""
    if out_of_reach(settings) is None:
        return 0
    start = next(i for i, field in enumerate(settings) if isinstance(field, OutOfReach))
    return len(settings) - start


def _unreachable(text: HudText, settings: Sequence[Field]) -> HudText:
    """A closing card that says, first among its fields, that no goal was possible within
    the search's depth (``joining all 12 exits needs at least 12 tiles: impossible within 2
    moves``) where the opening card said it was out of reach: only from the domain's proof
    (:func:`~searchvid.render.setting_words.describe_reach`), never from the search."""
    said = out_of_reach(settings)
    if said is None:
        return text
    return dataclasses.replace(text, fields=(said, *text.fields))


def _one_count(text: HudText) -> HudText:
    """A closing card that states the work in its unit (``work 103 expansions``) without
    the event count beside it (``step 368``: a second, unnamed measure of the same run)."""
    if not any(f.name == WORK for f in text.fields):
        return text
    kept = tuple(f for f in text.fields if f.name != "step")
    return dataclasses.replace(text, fields=kept)


def _ordinal(rank: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``21st``."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"
