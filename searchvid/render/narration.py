"""What the status strip says for a frame: the phase, named fields and a caption.

The words come from the domain (its fields, how it names a move and a value) and the
algorithm (its own fields: frontier size, iterations...), through the small :class:`Narrator`
protocol, so the renderer stays domain-free.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from searchvid.render.hud import HudText
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field, format_number

MEMORY = 65_536
"""Tree nodes remembered by id, to name a frame's move from its parent (least recent go)."""


class Narrator(Protocol):
    """What a domain tells the strip (every :class:`~searchvid.Domain` is one)."""

    def label(self, node: Any) -> str: ...

    def status(self, node: Any) -> Sequence[Field]: ...

    def describe_move(self, parent: Any, child: Any) -> str | None: ...

    def describe_value(self, value: float) -> str | None: ...

    def describe_node_value(self, node: Any, value: float) -> str | None: ...

    def describe_end(self, node: Any) -> str | None: ...


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
        best_name: What the strip calls the best value so far ("best", "best playout").
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


_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
"""Event kinds of a played line: a closing card on one states the game's result."""


class Narration:
    """Turns one search's events into the strip's text, frame by frame."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self._nodes: OrderedDict[int, Any] = OrderedDict()
        self._tree_nodes = 0  # tree ids count from 0 in creation order: the largest + 1

    def observe(self, event: Event) -> None:
        """Remember the event's tree node (every event, in order)."""
        if event.id is not None and event.id >= self._tree_nodes:
            self._tree_nodes = event.id + 1
        if event.id is not None and event.kind.shows_state:
            nodes = self._nodes
            nodes[event.id] = event.node
            nodes.move_to_end(event.id)
            if len(nodes) > MEMORY:
                nodes.popitem(last=False)

    def text(
        self,
        event: Event,
        best: float | None,
        improving: bool,
        fields: Sequence[Field] = (),
        ending: Ending | None = None,
    ) -> HudText:
        """The strip of the frame showing ``event``.

        Args:
            event: The frame's event.
            best: The best value so far (the frame's node's own, when it is a new best).
            improving: Whether the frame's node is a new best.
            fields: The algorithm's own fields when it reported ``event``.
            ending: Why this is the search's last frame (None: it is not).
        """
        voice = self.voice
        node = event.node
        shown: list[Field] = [Field("step", event.step), Field("depth", event.depth)]
        shown.extend(fields)
        if voice.narrator is not None:
            shown.extend(voice.narrator.status(node))
        if voice.values:
            value = voice.score(node) if voice.score is not None else event.value
            name = voice.value_name or "value"
            if any(f.name == name for f in shown):  # the domain's own "score 52" is not 0.575
                name = f"{name} value"
            own = voice.score is not None  # the node's own value, not one a search proved
            shown.append(_value_field(name, self._value_words(value, node if own else None)))
            if not (ending is not None and event.kind in _PLAYED and voice.best_name != "best"):
                # a played line's last frame states the game's result: the best simulated
                # line ("best playout: X wins" under "game over: draw") would contradict it
                shown.append(_value_field(voice.best_name, self._value_words(best)))
        caption = self._caption(event, best, improving) if voice.captions else None
        return HudText(voice.title, self._phase(event, ending), tuple(shown), caption)

    def opening(self, event: Event) -> HudText:
        """The opening card's strip, over the start position ``event`` shows: the problem
        in one line (the domain's :meth:`~searchvid.Domain.describe_problem`, else the start
        position's label), then the algorithm and its settings."""
        voice, node = self.voice, event.node
        narrator = voice.narrator
        describe = getattr(narrator, "describe_problem", None)
        problem = describe(node) if describe is not None else None
        if not problem:
            problem = f"from {narrator.label(node)}" if narrator is not None else "the start"
        fields = (Field("search:", voice.algorithm or "search"), *voice.settings)
        caption = "the start position" if voice.captions else None
        return HudText(voice.title, problem, fields, caption)

    def closing(
        self,
        event: Event,
        best: float | None,
        fields: Sequence[Field],
        ending: Ending,
        place: str | None = None,
    ) -> HudText:
        """The closing card's strip: the last frame's (what happened, and the counters that
        say what it cost), its caption one line on the result: the algorithm, its
        settings and, in a race, ``place`` (``"finished 1st of 3"``). Over the search's best
        board (``fields`` a :class:`BestShown`) it describes that board (its step, depth and
        the domain's fields), with the algorithm's fields of the last frame (what the whole
        search cost), its phase saying it is the best (``best of 40 walks: ..., walk 17``;
        the counter the phase names, ``walk 40/40``, leaves the fields)."""
        if isinstance(fields, BestShown):  # the best board, the search's totals
            counter = _counter(fields.last) if _counter(fields) is not None else None
            kept = [field for field in fields.last if field is not counter]
            text = self.text(event, best, False, kept, ending)
            text = HudText(text.title, self._best_phase(event, best, fields, ending), text.fields)
        else:
            text = self.text(event, best, False, fields, ending)
        shown = text.fields if place is None else (Field("race:", place), *text.fields)
        caption = None
        if self.voice.captions:
            voice = self.voice
            settings = ", ".join(f.text() for f in voice.settings)
            who = f"{voice.algorithm} ({settings})" if settings else voice.algorithm or "search"
            caption = f"{who}: {text.phase}"
        return HudText(text.title, text.phase, shown, caption)

    def _best_phase(
        self, event: Event, best: float | None, fields: BestShown, ending: Ending
    ) -> str:
        """What the closing card says over the search's best board, ``event``'s, when the
        search ended elsewhere: ``best of 40 walks: all 12 exits joined with 46 tiles, walk
        17`` (the algorithm's first counter with a total, ``walk 17/40``, names the unit;
        how many the last frame counts is how many the search made), else ``search
        complete; best found: network 0.75``. A search cut short says so first."""
        narrator = self.voice.narrator
        words = narrator.describe_end(event.node) if narrator is not None else None
        if not words:
            value = self._value_words(best)
            name = self.voice.value_name or "value"
            words = value if isinstance(value, str) else f"{name} {format_number(value)}"
        counter = _counter(fields)
        done = _counter(fields.last) if counter is not None else None
        if counter is not None and done is not None and done.name == counter.name:
            count = done.value if isinstance(done.value, int) else 0
            unit = counter.name if count == 1 else f"{counter.name}s"
            text = f"best of {format_number(count)} {unit}: {words}, "
            text += f"{counter.name} {counter.value_text().split('/')[0]}"
        else:
            return f"{ending.value}; best found: {words}"
        return text if ending is Ending.COMPLETE else f"{ending.value}; {text}"

    def _phase(self, event: Event, ending: Ending | None) -> str:
        """``A* searching``, ``MCTS playing``; on the last frame what happened, ``solved in
        39 pours`` (the earlier frames have named the algorithm)."""
        if ending is not None:
            return self._end(event, ending)
        algorithm, doing = self.voice.algorithm, self._doing(event)
        return f"{algorithm} {doing}" if algorithm else doing

    def _end(self, event: Event, ending: Ending) -> str:
        """What happened, on the last frame: the end the node is (the domain's words), else
        why the video ends there."""
        narrator = self.voice.narrator
        words = narrator.describe_end(event.node) if narrator is not None else None
        if words:
            return words
        if ending is Ending.COMPLETE and self.voice.finished:
            return self.voice.finished
        if ending is Ending.COMPLETE and self._tree_nodes:
            nodes = self._tree_nodes
            return f"{ending.value}: {format_number(nodes)} node{'s' if nodes != 1 else ''}"
        return ending.value

    def _doing(self, event: Event) -> str:
        if event.kind is EventKind.MOVE:
            return self.voice.move_phase
        if event.kind.value == "roll":
            return "rolling the dice"
        return "searching"

    def _value_words(self, value: float | None, node: Any = None) -> float | str | None:
        """``value`` in the domain's words where it has some: as ``node``'s own value when
        given (a value function's, which may not decide a game), else as a proved value."""
        narrator = self.voice.narrator
        if value is None or narrator is None:
            return value
        if node is not None:
            words = narrator.describe_node_value(node, value)
        else:
            words = narrator.describe_value(value)
        return words if words is not None else value

    def _move(self, event: Event) -> str | None:
        narrator = self.voice.narrator
        if narrator is None or event.parent is None:
            return None
        parent = self._nodes.get(event.parent)
        if parent is None:
            return None
        return narrator.describe_move(parent, event.node)

    def _caption(self, event: Event, best: float | None, improving: bool) -> str:
        kind = event.kind
        move = self._move(event)
        if kind is EventKind.BACKTRACK:
            text = f"backtrack to depth {event.depth}"
        elif kind is EventKind.RESTART:
            text = "restart from the start"
        elif kind is EventKind.MOVE:
            number = event.depth  # moves from the start along the played line
            verb = "play" if self.voice.move_phase == "playing" else f"solution, move {number}:"
            text = f"{verb} {move}" if move else f"{self.voice.move_phase}, move {number}"
        elif kind is EventKind.LEAF:
            ending = self._value_words(event.value) if event.value is not None else None
            outcome = f" ({ending})" if isinstance(ending, str) else ""
            text = f"{move}: dead end{outcome}" if move else f"dead end{outcome}"
        elif kind is EventKind.EXPAND:
            text = f"expand: {move}" if move else "expand"
        elif kind is EventKind.SELECT:
            text = f"select: {move}" if move else "select"
        elif kind is EventKind.ROLLOUT:
            text = "random playout"
        elif kind.value == "roll":
            text = move or "roll the dice"
        else:
            text = move or (f"depth {event.depth}" if event.depth else "the start")
        own = self.voice.caption(event) if self.voice.caption is not None else None
        if own:
            text = own
        if improving:
            value = self._value_words(best)
            shown = value if isinstance(value, str) else format_number(value)
            text += f"; new best: {shown}"
        return text


def _counter(fields: Sequence[Field]) -> Field | None:
    """The first field that counts whole things out of a whole total (``walk 17/40``)."""
    for field in fields:
        whole = isinstance(field.value, int) and isinstance(field.of, int)
        if whole and field.name and not (field.prefix or field.unit or field.percent):
            return field
    return None


def _value_field(name: str, value: float | str | None) -> Field:
    """``network 0.53``, or ``value: draw`` where the domain put the value into words."""
    return Field(f"{name}:" if isinstance(value, str) else name, value)
