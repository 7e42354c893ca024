"""What a search's status strip speaks with (:class:`Voice`: its title, its algorithm, the
domain's words through the :class:`Narrator` protocol), the cards that open and close a film,
and how a film ends: the plain types :mod:`searchvid.render.narration` and the frame, the
stepping and the render job share."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from searchvid.search.events import Event
from searchvid.search.status import Field


class Narrator(Protocol):
    """What a domain tells the strip (every :class:`~searchvid.Domain` is one)."""

    def label(self, node: Any) -> str: ...

    def status(self, node: Any) -> Sequence[Field]: ...

    def describe_move(self, parent: Any, child: Any) -> str | None: ...

    def describe_value(self, value: float) -> str | None: ...

    def describe_node_value(self, node: Any, value: float) -> str | None: ...

    def describe_end(self, node: Any) -> str | None: ...


class ValueWords(Protocol):
    """What a domain may add to its :class:`Narrator` words: its value functions in words."""

    def describe_value_function(self, name: str) -> tuple[str, str] | None:
        """``(what the strip calls it, what it measures)`` for value function ``name``
        (``("closeness to goal", "1 = all 12 exits joined, ...")``), or None: the strip
        then shows the function's own name, and the opening card says nothing more."""
        ...


class Ending(enum.Enum):
    """Why a frame is the last of its search's video; its strip then says what happened
    instead of "searching" (unless the node itself ends the puzzle or the game)."""

    COMPLETE = "search complete"
    """The search ended by itself."""
    MAX_FRAMES = "stopped at max_frames"
    """The video was full."""
    MAX_EVENTS = "stopped at max_events"
    """The search ran ``max_events`` events."""
    BUDGET = "stopped: work budget spent"
    """The search did ``max_events`` units of work."""


@dataclass(frozen=True)
class Voice:
    """How one search is narrated.

    Attributes:
        title: The strip's first line (the scene's title).
        algorithm: The algorithm as readers name it ("A*", "breadth-first").
        narrator: The domain's words (None: numbers only).
        value_name: Name of the value shown ("network", "score"; None: "value").
        score: Value of the frame's node (None: the event's own value).
        values: Whether value and best are shown at all.
        move_phase: What MOVE frames are ("solution" for a found path played out,
            "playing" for committed moves of a game).
        captions: Whether to narrate each frame on a caption line.
        settings: The algorithm's settings as the scene gives them (``iterations 300``),
            for the opening and closing cards.
        best_name: What the strip calls the best value so far ("best", "best playout";
            "": no such field, for random play, which keeps no best).
        doing: What the search's own frames do, after its name in the phase
            ("searching"; "in progress" for random play, which does not search).
    """

    title: str
    algorithm: str
    narrator: Narrator | None = None
    value_name: str | None = None
    score: Callable[[Any], float] | None = None
    values: bool = True
    move_phase: str = "solution"
    captions: bool = False
    settings: tuple[Field, ...] = ()
    best_name: str = "best"
    doing: str = "searching"
    caption: Callable[[Event], str | None] | None = None
    """The frame's own caption line (a :class:`~searchvid.VideoWriter`'s ``observe(caption=)``)
    in place of the narrated words, where it gives one (None: always narrated)."""
    expected: tuple[str, ...] = ()
    """Status texts as long as the longest the strip will show, where they are known before
    the first frame (a :class:`~searchvid.VideoWriter`'s, from what it observed), for
    sizing the strip (empty: guessed from the algorithm,
    :func:`~searchvid.render.hud.expected_status`)."""
    finished: str | None = None
    """What the last frame's phase says when the search ended by itself and the domain has no
    words for the node (a :class:`~searchvid.VideoWriter`'s ``"done"``; None: ``search
    complete``)."""
    compare: Callable[[], Sequence[Field]] | None = None
    """The closing card's words on another search run from the same start (the scene's
    ``[compare]``, :class:`~searchvid.render.comparison.Comparison`), asked for only when
    the card is drawn (None: no comparison)."""
    start: Any = None
    """The domain's start position, for sizing the strip to the opening card before the
    search runs (None: the narrator's ``root()``, asked then)."""
    steps: bool = True
    """Whether the strip counts the search's steps (its events). A race's columns leave it
    out: they advance by work, and equal step counts beside unequal work would read as a
    tie (:func:`in_race`)."""
    notes: bool = True
    """Whether the strip explains a count that would else puzzle on a line of its own (the
    kept tree's ``(+209 from earlier moves)``, :func:`kept_visits`). A race's narrow
    columns leave it out: there it would push the strip's last fields off."""
    problem: bool = True
    """Whether the opening card states the problem. A race's columns after the first leave
    it to the first (one start for all: said once, it leaves their lines to their
    settings, which differ) and say :data:`SAME_PROBLEM`."""


SAME_PROBLEM = "same problem"
"""What a race column's opening card says in place of the problem its first column states."""


def in_race(voice: Voice, searches: int, index: int = 0) -> Voice:
    """``voice`` as column ``index`` (from 0) of ``searches`` side by side narrates: without
    its step counter (:attr:`Voice.steps`) and notes (:attr:`Voice.notes`) in a race, and
    after the first column without the problem (:attr:`Voice.problem`); as is for a single
    search."""
    if searches <= 1:
        return voice
    return replace(voice, steps=False, notes=False, problem=index == 0)


class Card(enum.Enum):
    """A frame whose strip is a card rather than its step: the first frame opens the video,
    the last one closes it."""

    OPENING = "opening"
    """The problem, the algorithm and its settings, over the start position."""
    CLOSING = "closing"
    """The result, what it cost and (in a race) the finishing order."""


class BestShown(tuple[Field, ...]):
    """The algorithm's fields of the frame that first showed a search's best, as the
    closing card passes them when it shows that frame's board instead of the last one
    (:func:`~searchvid.render.cards.closing_frame`).

    Attributes:
        last: The algorithm's fields of the search's last frame: what the whole search
            did (``walk 40/40``: the card's ``best of 40 walks``), which the card shows.
    """

    last: tuple[Field, ...]

    def __new__(cls, fields: Iterable[Field], last: Iterable[Field]) -> BestShown:
        made = super().__new__(cls, fields)
        made.last = tuple(last)
        return made
