"""What the status strip says for a frame: the phase, named fields and a caption.

The words come from the domain (its fields, how it names a move and a value) and the
algorithm (its own fields: frontier size, iterations...), through the small :class:`Narrator`
protocol, so the renderer stays domain-free.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from searchvid.render.domainterms import DEAD_END, START, TERMS, term, unstated
from searchvid.render.fieldwords import (
    FOUND_AT,
    SEARCH_COUNTERS,
    SEARCHED,
    WORK,
    all_searches,
    kept_visits,
    named_win_rate,
)
from searchvid.render.filmstrip import REPLAY_NOTE
from searchvid.render.hud import HudText
from searchvid.render.voice import SAME_PROBLEM, BestShown, Ending, Voice
from searchvid.search.events import Event, EventKind
from searchvid.search.frontierview import FrontierView, Glimpse, Role
from searchvid.search.status import Field, format_number

MEMORY = 65_536
"""Tree nodes remembered by id, to name a frame's move from its parent (least recent go)."""


VALUE_BOUNDS = frozenset({"alpha", "beta"})
"""Names of algorithm fields that are values on the scale the strip puts into the domain's
words (minimax's alpha-beta window)."""

_PLAYED = frozenset({EventKind.MOVE, EventKind.ROLL})
"""Event kinds of a played line: a closing card on one states the game's result."""

START_VALUE = "start position"
"""What the closing card over a best board calls the start position's value."""

SEARCHED_DOING = f"{SEARCHED} (not played)"
"""What a search is doing on a frame of a board ahead of the game's, once moves are played
(``MCTS searched position (not played)``; the aside goes first where room is short)."""

QUEUES = "queues"
"""What a frontier search's frame of a child it generates names the child by, beside the node
being expanded (``at Uninformed  queues Depth-First``): the child joins the frontier's
queue, it is not where the search is."""

NONE_YET = "none yet"
"""The best value so far before the search has reported one (``best value so far: none
yet``), and a node's value before the search gave it one (``value: none yet`` as minimax
enters a node, drawn grey in its tree as "no value yet")."""


class Narration:
    """Turns one search's events into the strip's text, frame by frame."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self._nodes: OrderedDict[int, Any] = OrderedDict()
        self._tree_nodes = 0  # tree ids count from 0 in creation order: the largest + 1
        self._played: list[tuple[Any, int, int]] = []  # the MOVEs in a row: node, id, depth
        # the game's position: the latest committed move's (or roll's) node, or the start (a
        # frame of the search may show another board: see _searched)
        self._game: Any = None
        # the step of the latest event that is no MOVE: where the search stood when a found
        # solution's replay began (None: no such event yet)
        self._search_step: int | None = None
        # the first event's (the start position's) node and value: the closing card over a
        # best board gives the start's value for scale (None: not seen yet)
        self._start: tuple[Any, float | None] | None = None
        # the node the search took last to expand (its latest ENTER): id, node, depth; an
        # EXPAND of one of its children shows that child joining the frontier, while the
        # search is still expanding it (None: no ENTER yet)
        self._expanding: tuple[int, Any, int] | None = None

    def observe(self, event: Event) -> None:
        """Remember the event's tree node (every event, in order)."""
        if self._start is None and event.depth == 0 and event.kind.shows_state:
            self._start = (event.node, event.value)
        if event.kind is not EventKind.MOVE:
            self._search_step = event.step
        if event.kind is EventKind.ENTER and event.id is not None:
            self._expanding = (event.id, event.node, event.depth)
        if event.kind is EventKind.MOVE:
            self._played.append((event.node, -1 if event.id is None else event.id, event.depth))
            del self._played[:-REPLAY_BOARDS]
        elif self._played:
            self._played.clear()  # a played line is the MOVEs in a row
        if event.kind in _PLAYED or self._game is None:  # a roll of the dice moves it too
            self._game = event.node
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
        depth = event.depth
        queued: list[Field] = []
        expanding = self.expanding(event)
        if expanding is not None:
            # a child generated into the frontier: the strip stays on the node being
            # expanded (its depth, its words) and names the child it queues, or "depth 3"
            # beside "level 2" reads as the search going deep before finishing a level
            node, depth = expanding[1], expanding[2]
            if voice.narrator is not None:
                queued.append(Field(QUEUES, voice.narrator.label(event.node)))
        step = event.step
        if event.kind is EventKind.MOVE and voice.move_phase == "solution":
            # a found solution replayed is no search step: the count stays where the search
            # ended ("step 13,516" under "the search is over", not rising move by move)
            step = self._search_step if self._search_step is not None else step
        # a strip that counts the work done (a race's, a frontier search's) counts it alone:
        # steps (events) beside it are a second measure a reader cannot tell from it
        counted = ending is None and any(f.name == WORK for f in fields)
        shown: list[Field] = [Field("step", step)] if voice.steps and not counted else []
        shown.append(Field("depth", depth))
        if event.kind is EventKind.MOVE and voice.move_phase == "solution" and ending is None:
            # the search is over: its counters would not describe the board shown (the
            # closing card keeps them, as what the search cost)
            fields = [f for f in fields if f.name not in SEARCH_COUNTERS]
        narrator = voice.narrator
        values = narrator.describe_value if narrator is not None else None
        fields = named_win_rate(kept_visits(fields, voice.notes), values)
        if event.kind in _PLAYED and voice.move_phase == "playing":
            # each move played was searched anew, unseen: the counts are all searches'
            fields = all_searches(fields)
        shown.extend(self._worded(f) for f in fields)
        domain = list(voice.narrator.status(node)) if voice.narrator is not None else []
        shown.extend(domain)
        shown.extend(queued)
        if self._counts_moves(depth, domain):  # "pours 29" says what "depth 29" would
            shown = [f for f in shown if f.name != "depth"]
        phase = self._phase(event, ending)
        if ending is not None:
            shown = unstated(shown, phase)
        if voice.values:
            value = voice.score(node) if voice.score is not None else event.value
            words = self._value_function_words(voice.value_name)
            own = voice.score is not None  # the node's own value, not one a search proved
            name = words[0] if words is not None else voice.value_name or "value"
            if words is not None and not own:
                # a proved value is what the search expects the lines ahead to reach on the
                # function's scale, not the board's own ("score 10" beside 0.331 = 13)
                name = f"expected {name}"
            if any(f.name == name for f in shown):  # the domain's own "score 52" is not 0.575
                name = f"{name} value"
            end = self._end_words(node)
            said = self._value_words(value, node if own else None)
            if said is None:  # a dash for "no value yet" is a code a reader has to guess
                said = NONE_YET
            searched = self._searched(event)
            if own and end is not None and isinstance(said, str):
                # a finished position's own value is its result: whose it is, or a reader
                # takes "outcome: X wins" at move 2 for the game's
                name = "this playout" if _playout_end(event) else "this position"
            if own and isinstance(said, str) and searched and not _playout_end(event):
                # a board the search looked at ahead of the game: "X wins" there is not the
                # game's result, nor "undecided" its state (a reader took a searched win
                # for the game's in a game that ends drawn)
                name = SEARCHED
                # said once: the value's name, not the phase as well
                phase = phase.replace(SEARCHED_DOING, self.voice.doing)
            if isinstance(said, str):
                # the domain's "draw" beside "value: draw" says it twice, once unnamed
                shown = [f for f in shown if f not in domain or f.text() != said]
            if not (own and end is not None and phase == end):  # the phase states it
                shown.append(_value_field(name, said))
            # an algorithm's own named best ("best playout", "best value so far") is left off
            # a played move's frame where it would say nothing true: on the line's last
            # frame, which states the game's result ("best playout: X wins" under "game
            # over: draw" would contradict it), and where the search reported none
            # ("best value so far -" on every frame of expectimax, whose frames are its moves)
            named = voice.best_name != "best" and event.kind in _PLAYED
            best_said = self._value_words(best)
            # the last frame's phase that already states the best ("all 12 exits joined
            # with 23 tiles"): "best: all 12 exits joined" beside it says it once more
            stated = ending is not None and isinstance(best_said, str) and best_said in phase
            left_off = not voice.best_name or (named and (ending is not None or best is None))
            if not left_off and not stated:
                # a dash for "nothing found yet" is a code a reader has to guess
                shown.append(_value_field(voice.best_name, NONE_YET if best is None else best_said))
        caption = self._caption(event, best, improving) if voice.captions else None
        return HudText(voice.title, phase, tuple(shown), caption)

    def _counts_moves(self, depth: int, domain: Sequence[Field]) -> bool:
        """Whether the domain's field that counts the moves from the start (its
        ``move_count``: Water Sort's ``pours 29``) says the frame's ``depth``, so that the
        depth need not be said beside it."""
        name = getattr(self.voice.narrator, "move_count", None)
        return isinstance(name, str) and any(
            f.name == name and f.value == depth and f.of is None for f in domain
        )

    def expanding(self, event: Event) -> tuple[int, Any, int] | None:
        """The node being expanded (id, node, depth) where ``event`` is the ``EXPAND`` of
        one of its children, generated into a frontier search's frontier (its parent is
        the node the latest ``ENTER`` took): that node stays the current one while its
        children are generated. None for any other event (an MCTS ``EXPAND`` follows a
        ``SELECT``, not an ``ENTER``: its new node is where the iteration goes on)."""
        expanding = self._expanding
        if event.kind is not EventKind.EXPAND or expanding is None:
            return None
        return expanding if event.parent == expanding[0] else None

    def _end_words(self, node: Any) -> str | None:
        """The domain's words for the end ``node`` is (``game over: draw``), None before
        the end or without a narrator."""
        narrator = self.voice.narrator
        return narrator.describe_end(node) or None if narrator is not None else None

    def _searched(self, event: Event) -> bool:
        """Whether ``event``'s board is a position the search looked at, not the game's: in
        a game played move by move (``move_phase`` ``"playing"``), a frame of the search
        (no committed move, no roll) whose node is not the position reached by the moves
        played so far."""
        if self.voice.move_phase != "playing" or event.kind in _PLAYED:
            return False
        return event.node is not self._game

    def shows_searched(self, event: Event) -> bool:
        """Whether ``event``'s board is a position the search looked at, ahead of the game
        played move by move, and no playout's end: what the strip says where it has room
        (``MCTS searched position (not played)``, ``searched position: draw``), and the
        board's frame says on every such frame (:mod:`searchvid.render.playout`)."""
        playout = event.kind is EventKind.ROLLOUT or _playout_end(event)
        return not playout and self._searched(event)

    def film_view(self, event: Event, view: FrontierView | None) -> FrontierView | None:
        """The filmstrip's view of the frame showing ``event``: the algorithm's ``view``
        with its value named as the strip names it (``ranked by closeness to goal``, not
        ``ranked by network``: one name for one quantity), else the played-out solution
        (:meth:`replay_view`)."""
        if view is None:
            return self.replay_view(event)
        name = self.voice.value_name
        words = self._value_function_words(name)
        ranked = f"ranked by {name}"
        if words is None or ranked not in view.order:
            return view
        return replace(view, order=view.order.replace(ranked, f"ranked by {words[0]}"))

    def replay_view(self, event: Event) -> FrontierView | None:
        """The found solution played out so far, as a filmstrip shows it: on the frame of a
        solution's ``MOVE`` (``move_phase`` ``"solution"``), the boards of the moves before
        it (up to :data:`REPLAY_BOARDS`) and its own, last, each labelled ``move 5``; None on
        other frames. Read from the events observed, so a preview draws it as the render."""
        played = self._played
        if self.voice.move_phase != "solution" or event.kind is not EventKind.MOVE:
            return None
        # the frame's own move: the last observed, or one before it where the run has
        # read on before drawing
        at = next((i for i in range(len(played) - 1, -1, -1) if played[i][0] is event.node), None)
        if at is None:
            return None
        boards = tuple(
            Glimpse(node, nid, depth, Role.CURRENT if i == at else Role.DONE, _move(depth))
            for i, (node, nid, depth) in enumerate(played[: at + 1])
        )
        return FrontierView(REPLAY_NOTE, boards)

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
        if not voice.problem:  # a race's first column states it, once for all
            problem = SAME_PROBLEM
        settings = self._settings()
        if narrator is not None:  # what the domain's own fields count, where it says
            for field in narrator.status(node):
                counts = self._value_function_words(field.name)
                if counts is not None and counts[0] == field.name:
                    settings.append(Field(f"{field.name}:", counts[1]))
        meaning = self._value_function_words(voice.value_name) if voice.values else None
        if meaning is not None:  # what the strip's value measures, said once
            settings.append(Field(f"{meaning[0]}:", meaning[1]))
        fields = (Field("search:", voice.algorithm or "search"), *settings)
        caption = term(narrator, START) if voice.captions else None
        return HudText(voice.title, problem, fields, caption)

    def _settings(self) -> list[Field]:
        """The algorithm's settings as the cards show them: a value function by what it
        measures ("reward partial" reads "reward: share of exits joined")."""
        settings = []
        for field in self.voice.settings:
            words = self._value_function_words(field.value)
            settings.append(Field(f"{field.name}:", words[0]) if words is not None else field)
        return settings

    def _value_function_words(self, name: object) -> tuple[str, str] | None:
        """The domain's words for its value function ``name``, where it has some
        (:meth:`ValueWords.describe_value_function`): what the strip calls it and what it
        measures; None for anything else."""
        describe = getattr(self.voice.narrator, "describe_value_function", None)
        if describe is None or not isinstance(name, str):
            return None
        words: tuple[str, str] | None = describe(name)
        return words

    def closing(
        self,
        event: Event,
        best: float | None,
        fields: Sequence[Field],
        ending: Ending,
        place: str | None = None,
    ) -> HudText:
        """The closing card's strip: the last frame's (what happened, and the counters that
        say what it cost) and, in a race, ``place`` (``"finished 1st of 3"``); its caption
        names the algorithm and its settings (the result is on the lines above, once). Over
        the search's best board (``fields`` a :class:`BestShown`) it describes that board
        (its step, depth and the domain's fields), with the algorithm's fields of the last
        frame (what the whole search cost), its phase saying it is the best (``best of 40
        walks: ..., walk 17``; the counter the phase names, ``walk 40/40``, leaves the
        fields)."""
        if isinstance(fields, BestShown):  # the best board, the search's totals
            counter = _counter(fields.last) if _counter(fields) is not None else None
            kept = [field for field in fields.last if field is not counter]
            text = self.text(event, best, False, kept, ending)
            # the step is the best board's, earlier than the last frame's: say so, or the
            # count reads as going back ("step 28,018" then "step 1,348")
            found = tuple(replace(f, name=FOUND_AT) if f.name == "step" else f for f in text.fields)
            if self._plain_best(event, fields):  # the best as a bare value: give the scale
                found = (*found, *self._start_value(best))
            text = HudText(text.title, self._best_phase(event, best, fields, ending), found)
        else:
            text = self.text(event, best, False, fields, ending)
        compared = tuple(self.voice.compare()) if self.voice.compare is not None else ()
        shown = (*compared, *text.fields)  # the other search's result beside this one's
        shown = shown if place is None else (Field("race:", place), *shown)
        # the strip's lines above already state the result and the comparison: the
        # caption names who got it, not the same words a second time
        caption = self.recap() if self.voice.captions else None
        return HudText(text.title, text.phase, shown, caption)

    def recap(self) -> str:
        """The closing card's caption: the algorithm and its settings
        (``expectimax (looks 2 moves ahead, value: scaled score)``), known before the run
        so that the strip is sized to show it whole."""
        voice = self.voice
        settings = ", ".join(f.text() for f in self._settings())
        if settings and "(" in settings:  # no brackets within brackets: a comma
            return f"{voice.algorithm or 'search'}, {settings}"
        return f"{voice.algorithm} ({settings})" if settings else voice.algorithm or "search"

    def _plain_best(self, event: Event, fields: BestShown) -> bool:
        """Whether the closing card over the best board states it as a bare value
        (``best found: closeness to goal 0.539``, :meth:`_best_phase`): not in the domain's
        words for an end, nor as the best of a counted unit (``best of 12 walks``)."""
        narrator = self.voice.narrator
        if narrator is not None and narrator.describe_end(event.node):
            return False
        counter = _counter(fields)
        done = _counter(fields.last) if counter is not None else None
        return counter is None or done is None or done.name != counter.name

    def _start_value(self, best: float | None) -> tuple[Field, ...]:
        """``start position 0.502``: the start position's value beside a best board's, for
        scale (a best of 0.539 says little until the start's 0.502 is beside it); none
        where the strip shows no values, the start's value is unknown, or it is the best."""
        voice, start = self.voice, self._start
        if not voice.values or start is None:
            return ()
        node, value = start
        value = voice.score(node) if voice.score is not None else value
        if value is None or value == best:
            return ()
        return (_value_field(START_VALUE, self._value_words(value)),)

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
            named = self._value_function_words(self.voice.value_name)
            name = named[0] if named is not None else self.voice.value_name or "value"
            words = value if isinstance(value, str) else f"{name} {format_number(value)}"
        counter = _counter(fields)
        done = _counter(fields.last) if counter is not None else None
        if counter is not None and done is not None and done.name == counter.name:
            count = done.value if isinstance(done.value, int) else 0
            unit = counter.name if count == 1 else f"{counter.name}s"
            text = f"best of {format_number(count)} {unit}: {words}, "
            text += f"{counter.name} {counter.value_text().split('/')[0]}"
        else:
            return f"{ending.value}; best found: {words}{self._none_after(event, ending)}"
        return text if ending is Ending.COMPLETE else f"{ending.value}; {text}"

    def _none_after(self, event: Event, ending: Ending) -> str:
        """``, none better in the 27,830 steps after it``: what the rest of a search that
        ran to its end showed of a best found early (its steps counted as the strip counts
        them, to the last step observed); ``""`` for a search cut short, where more steps
        could have found better, or a strip that counts no steps."""
        last = self._search_step
        if ending is not Ending.COMPLETE or not self.voice.steps or last is None:
            return ""
        after = last - event.step
        if after <= 0:
            return ""
        steps = "step" if after == 1 else "steps"
        return f", none better in the {format_number(after)} {steps} after it"

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
        if event.kind is EventKind.ROLLOUT or _playout_end(event):
            return "playout, not played"  # a simulated line, not the search's position
        start = self._start
        if start is not None and self._game is not start[0] and self._searched(event):
            # once moves are played, a board ahead of the game's ("depth 16" beside "move
            # 9") reads as the game's unless the strip says what it is
            return SEARCHED_DOING
        return self.voice.doing

    def _worded(self, field: Field) -> Field:
        """An algorithm's bound on the value scale (:data:`VALUE_BOUNDS`: ``alpha 0.5``) in
        the domain's words where it has some (``alpha: draw``), as values are shown: a bare
        ``0.5`` beside ``value: X wins`` would leave the reader to guess the scale. An
        unnamed phrase of :data:`TERMS` (``fewest moves possible``) in the domain's words."""
        if not field.name and field.value in TERMS and isinstance(field.value, str):
            return replace(field, value=term(self.voice.narrator, field.value))
        if field.name not in VALUE_BOUNDS or not isinstance(field.value, float):
            return field
        return _value_field(field.name, self._value_words(field.value))

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
        elif _playout_end(event):
            text = "end of a random playout"
        elif kind is EventKind.LEAF:
            ending = self._value_words(event.value) if event.value is not None else None
            outcome = f" ({ending})" if isinstance(ending, str) else ""
            end = term(self.voice.narrator, DEAD_END)
            text = f"{move}: {end}{outcome}" if move else f"{end}{outcome}"
        elif kind is EventKind.EXPAND:
            text = self._expand_words(event, move)
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

    def _expand_words(self, event: Event, move: str | None) -> str:
        """An ``EXPAND`` frame's caption: ``expanding Uninformed: queues Depth-First`` for
        a child generated into a frontier (:meth:`expanding`), where the domain names its
        nodes; else ``expand: go to X``."""
        expanding = self.expanding(event)
        narrator = self.voice.narrator
        if expanding is not None and narrator is not None:
            parent, child = narrator.label(expanding[1]), narrator.label(event.node)
            return f"expanding {parent}: {QUEUES} {child}"
        return f"expand: {move}" if move else "expand"


def _playout_end(event: Event) -> bool:
    """Whether ``event`` shows where a random playout ended (an MCTS ``LEAF`` off the tree:
    no tree id, the playout's start as parent), not a position the search reached: its
    strip must not read as the search's own position."""
    return event.kind is EventKind.LEAF and event.id is None and event.parent is not None


REPLAY_BOARDS = 16
"""The boards of a played-out solution a filmstrip can show at most: its latest moves."""


def _move(depth: int) -> tuple[Field, ...]:
    return (Field("move", depth),)


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
