"""Minimax as negamax with alpha-beta and a transposition table, on an explicit stack; in
games of chance, expectimax.

Values are in [0, 1]: internally from the point of view of the player to move (negamax:
a parent's value is the best of ``1 - child value``), in events from player 0's point of
view (1 = player 0 wins, 0.5 draw, 0 = player 0 loses). Turns are assumed to alternate
(every child has the other player to move), as in tic-tac-toe and Quarto.

The transposition table maps ``key()`` to ``(value, flag, depth searched)`` where the flag
says whether the value is exact or a lower/upper bound (a fail-high / fail-low result of an
alpha-beta window). An entry answers a probe only when it was searched at least as deep.

Domains with chance nodes (``Capability.CHANCE``) are searched by **expectimax** instead, with
values for player 0 throughout: a chance node's value is the probability-weighted mean of its
outcomes' values; a decision node's is the best of its children's -- the highest in one-player
games (no ``to_move``: the player's own reward), the highest for player 0 and the lowest for
player 1 in two-player games (turns need not alternate there). Alpha-beta windows pass
through decision nodes only: the outcomes of a chance node are searched with the full
window, so a chance node's value is always exact and is never cut off -- the simple sound
choice, which prunes nothing below a chance node that its own decisions do not. The table's
keys are the nodes' keys, which tell chance nodes and whose turn it is apart.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from searchvid.errors import CapabilityError, RunError, UserCodeError
from searchvid.options import option
from searchvid.search.algorithm import Algorithm, BudgetSpent
from searchvid.search.algorithms._access import Nature
from searchvid.search.events import Event, EventKind, new_event
from searchvid.search.node import Capability, capabilities_of, children_of, key_of, require
from searchvid.search.status import Field
from searchvid.search.values import depth_value, terminal_reward
from searchvid.usercode import method_location

_ENTER = EventKind.ENTER
_LEAF = EventKind.LEAF
_BACKTRACK = EventKind.BACKTRACK
_IMPROVE = EventKind.IMPROVE
_MOVE = EventKind.MOVE
_ROLL = EventKind.ROLL
_PRUNE = EventKind.PRUNE

_EXACT, _LOWER, _UPPER = 0, 1, 2
_UNLIMITED = 1 << 40
"""Remaining depth of an unlimited search, and of terminal entries (valid at any depth)."""

SHOWN = "of them in the"
"""How the name of the status field begins that counts the nodes a search with
``event_depth`` reports (``nodes searched 22,592   of them in the top 3 plies: 84``): the
ones a video shows, of the nodes searched. Search frames and played moves' frames use the
same words."""

EMPTY_WINDOW = "empty: cut-off"
"""The status value of the field ``window`` when the alpha-beta window is empty (alpha >=
beta): the moves left at the node cannot change the result (``window empty: cut-off``)."""

REUSED = "position seen before: value reused"
"""What the strip adds on a node whose value the transposition table gave (no search below
it), so that a step down and straight back up reads as what it is."""

REUSED_UNDONE = "undone: a move to a position seen before"
"""What the strip adds on the step back from such a node (the board shows the move undone)."""

_MAX, _MIN, _CHANCE = 0, 1, 2
"""Kinds of expectimax nodes: player 0's (or the one player's) decision, player 1's, chance."""

_Search = Generator[Event, None, tuple[float, Any, int]]
"""Yields events; returns (value for the player to move, best child, next step)."""

_ORDER = list(Capability)
"""Capabilities in declaration order (for stable messages)."""

_NONE = object()
"""What ``next`` returns here from an iterator that is exhausted."""


@dataclass(frozen=True, kw_only=True)
class MinimaxOptions:
    """Options of :class:`Minimax`."""

    depth: int = option(
        0,
        doc="Search depth in moves (0 = to the end of the game); rolls of the dice are not "
        "counted.",
        minimum=0,
    )
    alpha_beta: bool = option(True, doc="Prune with alpha-beta windows.")
    transposition: bool = option(True, doc="Share results between transpositions (by key).")
    value: str | None = option(
        None,
        doc="Value function at the depth cut-off, in [0, 1] for player 0 (default: 0.5).",
    )
    play: bool = option(True, doc="After solving, play the best line to the end as MOVE events.")
    event_depth: int = option(
        0, doc="Emit ENTER/BACKTRACK/LEAF only for nodes this deep or less (0 = all).", minimum=0
    )
    samples: int = option(
        0,
        doc="At chance nodes, average over this many sampled outcomes instead of all (0 = all).",
        minimum=0,
    )


class _Counters:
    """What the searches of one traversal have done so far, for the status strip.

    Attributes:
        searched: Nodes visited by the searches that have finished.
        nodes: Nodes visited by the running search, as of its latest event.
        hits: Probes the transposition table answered.
        cuts: Alpha-beta cut-offs: nodes left as soon as a value reached the window's bound.
        window: The alpha-beta window of the node of the latest event, for player 0:
            ``(alpha, beta)``, alpha what player 0 can already make sure of, beta what
            player 1 can (None: no event of the search yet, or a move played).
        reported: The tree nodes the emitting search has reported so far (its
            :class:`_Tree`'s parent list, read live), while it runs; None after it.
        shown: The nodes the emitting search reported, once it has ended.
        reused: Whether the latest LEAF event's value came from the table (a position
            searched before), until the BACKTRACK that follows it has been reported.
    """

    __slots__ = ("cuts", "hits", "nodes", "reported", "reused", "searched", "shown", "window")

    def __init__(self) -> None:
        self.searched = 0
        self.nodes = 0
        self.hits = 0
        self.cuts = 0
        self.window: tuple[float, float] | None = None
        self.reported: list[int | None] | None = None
        self.shown = 0
        self.reused = False

    def drawn(self) -> int:
        """The nodes reported as events so far: the ones a video can show."""
        return self.shown if self.reported is None else len(self.reported)


def _window_p0(alpha: float, beta: float, to_move: int) -> tuple[float, float]:
    """A negamax window (for the player to move) as player 0's ``(alpha, beta)``."""
    return (alpha, beta) if to_move == 0 else (1.0 - beta, 1.0 - alpha)


def _probe(entry: tuple[float, int, int], alpha: float, beta: float) -> tuple[float, float, float]:
    """Use a transposition-table entry deep enough for the node: ``(value, alpha, beta)``,
    the value when the entry settles the node (else -1) and the window it narrows."""
    v, flag = entry[0], entry[1]
    if flag == _EXACT:
        return v, alpha, beta
    if flag == _LOWER:
        if v >= beta:
            return v, alpha, beta
        return -1.0, max(alpha, v), beta
    if v <= alpha:
        return v, alpha, beta
    return -1.0, alpha, min(beta, v)


class Minimax(Algorithm[MinimaxOptions]):
    """Negamax with alpha-beta and a bound-flag transposition table, never recursing;
    expectimax in games of chance.

    Events, in order (depth = moves from the root; values for player 0):

    - Searching a node with at least one move to search: ``ENTER`` (value None). A node
      resolved without searching its moves gets ``LEAF`` instead, with its value: terminal
      (``reward()``), at the depth cut-off (the value function), or answered by the
      transposition table (a bound where the table holds one).
    - Each time the search returns to a node after one of its moves: ``BACKTRACK`` with
      that node and its best value so far (a bound under alpha-beta) -- also after its
      last move searched (or a cut-off), just before it is left. At a chance node: the
      weighted mean of the outcomes searched so far.
    - At the root only, right after a move's result came back and before the root's
      BACKTRACK: ``IMPROVE`` with that child when it strictly beats the root's best move so
      far (value: the child's value). A chance node at the root has no moves: no IMPROVE.
    - ENTER/BACKTRACK/LEAF are emitted only for nodes at depth <= ``event_depth`` (all
      when 0); IMPROVE always.
    - Right after a node's last BACKTRACK, when alpha-beta cut off moves it had left:
      ``PRUNE`` (an annotation) with that node, value = how many moves were cut off.
    - With ``play``: ``MOVE`` for the root (depth 0), then for each move of the best line,
      each found by a silent re-search of the current position with the warm table, until
      the game ends (value: the position's value). Where the line reaches a chance node,
      nature's outcome is drawn (``sample_outcome``) and emitted as ``ROLL`` instead
      (value: the outcome's value), and the line goes on from it. Those rolls come from
      nature's own stream (:class:`~searchvid.search.algorithms._access.Nature`, made before
      the search draws anything), not the rng the search samples with, so the same seed
      rolls the same outcomes, given the same states, as any other algorithm's game.

    Chance nodes (expectimax; see the module docstring): the children of a chance node are
    its outcomes, in ``outcomes()`` order, each searched with its probability as weight --
    or, with ``samples``, the outcomes of that many draws with the rng (with replacement;
    an outcome drawn again is searched once, weighted by how often it was drawn), so each
    chance node costs ``samples`` outcomes at most whatever its number of outcomes. Rolls
    do not count towards ``depth``: a search ``depth`` 1 deep tries every move and, where a
    move ends at a chance node, the outcomes after it, each scored by the value function.

    Tree nodes (``id`` and ``parent`` of the events): each ENTER/LEAF creates one, in
    pre-order from the root (0), below the node under it on the stack; a position answered
    by the table is a tree node of its own each time. BACKTRACK and PRUNE carry their node's
    id, IMPROVE the id of the root's child it names. A MOVE (or ROLL) carries the id of its
    node's tree node where the search reported it (the child, by move, of the previous
    MOVE's tree node; by outcome only when every outcome was searched), else a new id below
    the previous MOVE's. Nodes deeper than ``event_depth`` get no ids.

    Work budget (:attr:`~searchvid.search.algorithm.Algorithm.work_limit`): a unit per node
    visited (as counted by :attr:`nodes`: expanded, a leaf, or answered by the table), in the
    solving search and in the re-searches of ``play`` alike, and one per move counted for a
    PRUNE. Nodes below ``event_depth`` emit no event but still count, so the budget ends a
    search that runs long between events; when it is spent the stream ends at once.

    :meth:`solve` returns the root's value with no events at all (same loop, events off).
    After a search, :attr:`nodes` holds the number of nodes it visited.
    """

    name = "minimax"
    title = "minimax"
    move_phase = "playing"
    reports_values = True
    best_name = "best value so far"
    """Its IMPROVE events give the value of the root's best move so far: a value (``draw``),
    not a move, and not that of a node of the tree the board may be showing."""
    backtracks = True
    summary = (
        "Negamax with alpha-beta and a transposition table: solves two-player games; "
        "expectimax in games of chance."
    )
    options_type = MinimaxOptions
    requires = frozenset({Capability.TERMINAL, Capability.REWARD})
    value_option = "value"

    nodes: int = 0
    """Nodes visited by the latest search (each TT probe, leaf or expanded node counts 1)."""

    _counts: _Counters = _Counters()
    """What the running traversal's searches have done (replaced when one starts)."""
    _two_player: bool = True
    """Whether the root's domain has two players (``to_move``)."""
    _chance: bool = False
    """Whether the root's domain has chance nodes (expectimax)."""
    _left: int = 0
    """Units of the work budget left to the traversal's next search (< 0: spent)."""

    def check(self, root: Any) -> None:
        """Without chance nodes, two players (``to_move``) are needed too.

        Raises:
            CapabilityError: Naming what ``root`` lacks.
        """
        caps = capabilities_of(root)
        needed = set(self.requires)
        if Capability.CHANCE not in caps:
            needed.add(Capability.TO_MOVE)
        try:
            require(root, sorted(needed, key=_ORDER.index), algorithm=self.name)
        except CapabilityError as error:
            if Capability.TO_MOVE in needed and Capability.TO_MOVE not in caps:
                raise CapabilityError(f"{error} (or chance nodes, for expectimax)") from None
            raise

    @classmethod
    def display_name_for(cls, root: Any) -> str:
        """``expectimax`` for a game of chance (what this class searches there), else
        ``minimax``."""
        return "expectimax" if Capability.CHANCE in capabilities_of(root) else cls.display_name()

    def status(self) -> Sequence[Field]:
        """``nodes searched 15,165`` (by every search so far: the solving search and, in
        play, the re-searches), ``transpositions 2,310`` (probes the table answered) and
        ``cut-offs 3,054`` (nodes alpha-beta left early, where the settings allow any:
        :meth:`_can_cut`, or once there is one); with ``alpha_beta``, while the
        search reports nodes, the window of the latest event's node on player 0's scale of
        values (1 player 0 wins, 0.5 a draw, 0 player 0 loses): ``alpha 0.5`` (what player
        0 can already make sure of) and ``beta 1`` (what player 1 can); a node whose value
        falls outside it does not matter to the result; when the window is empty (alpha >=
        beta), ``window empty: cut-off`` (the moves left at that node cannot change the
        result). With ``event_depth``, once some nodes searched lie below it, ``nodes in the
        top 3 plies: 84`` after the node count: the nodes reported as events (the steps
        count only those), of the nodes searched."""
        counts = self._counts
        searched = counts.searched + counts.nodes
        fields = [Field("nodes searched", searched)]
        drawn = counts.drawn()
        if self.options.event_depth and drawn != searched:
            fields.append(self._in_top_plies(drawn))
        fields.append(Field("transpositions", counts.hits))
        if self._can_cut() or counts.cuts:
            fields.append(Field("cut-offs", counts.cuts))
        window = counts.window
        if self.options.alpha_beta and window is not None:
            alpha, beta = window
            fields += (Field("alpha", alpha), Field("beta", beta))
            if alpha >= beta:  # nothing left to find here: the gauge's "cut-off", in words
                fields.append(Field("window", EMPTY_WINDOW))
        return tuple(fields)

    def _can_cut(self) -> bool:
        """Whether the search's settings let alpha-beta cut off nodes as a rule: not
        without ``alpha_beta``, nor in a one-player game of chance, where the window closes
        only on a value at the very top of the scale (``cut-offs 0`` on every frame would
        be a dead counter; it shows from the first cut-off, if there is one)."""
        return self.options.alpha_beta and (self._two_player or not self._chance)

    def _in_top_plies(self, drawn: int) -> Field:
        """``of them in the top 3 plies: 84``, after ``nodes searched``: the plies whose nodes
        are events (``event_depth``), one wording on every frame that counts them."""
        depth = self.options.event_depth
        return Field(f"{SHOWN} top {depth} {'ply' if depth == 1 else 'plies'}:", drawn)

    def status_of(self, event: Event) -> Sequence[Field]:
        """As :meth:`status`, but a played move's frame (``MOVE``, ``ROLL``) counts the
        nodes the search showed before the moves (negamax) only where some were shown:
        ``of them in the top 3 plies: 84`` with ``event_depth`` (the words of the search's
        frames), else ``40 before the first move`` (each move played is searched again,
        unseen). Expectimax's frames are its moves and rolls only: it shows no node to
        count. A leaf whose value the table gave adds ``position seen before: value
        reused``, and the step back from it ``undone: a move to a position seen before``."""
        fields = self.status()
        if self._counts.reused and (event.kind is _LEAF or event.kind is _BACKTRACK):
            # a move tried and taken back at once says nothing unless the strip says why
            words = REUSED if event.kind is _LEAF else REUSED_UNDONE
            return (*fields, Field("", words))
        if event.kind is not _MOVE and event.kind is not _ROLL:
            return fields
        kept = [f for f in fields if not f.name.startswith(SHOWN)]
        counts = self._counts
        drawn = counts.drawn()
        if not self._chance and drawn and drawn != counts.searched + counts.nodes:
            if self.options.event_depth:
                count = self._in_top_plies(drawn)
            else:
                count = Field("before the first move", drawn, prefix=True)
            kept.insert(1, count)
        return tuple(kept)

    def solve(self, root: Any) -> float:
        """The value of ``root`` for player 0, computed without creating any event.

        Raises:
            CapabilityError: ``root`` lacks a capability minimax needs.
            RunError: The :attr:`work_limit` was reached before the value was known.
        """
        self.check(root)
        self._start(root)
        value, _, _ = self._silent(root)
        return self._for_player0(root, value)

    def best_child(self, root: Any) -> tuple[Any, float] | None:
        """The best move from ``root`` and the root's value for player 0 (None: no move,
        or ``root`` is a chance node).

        Raises:
            CapabilityError: ``root`` lacks a capability minimax needs.
            RunError: The :attr:`work_limit` was reached before the best move was known.
        """
        self.check(root)
        self._start(root)
        value, child, _ = self._silent(root)
        if child is None:
            return None
        return child, self._for_player0(root, value)

    def _start(self, root: Any) -> None:
        """Fresh table, counters and work budget for a traversal from ``root``."""
        caps = capabilities_of(root)
        self._tt: dict[Hashable, tuple[float, int, int]] = {}
        self._counts = _Counters()
        self._chance = Capability.CHANCE in caps
        self._two_player = Capability.TO_MOVE in caps
        self._left = self._budget()

    def _silent(self, root: Any) -> tuple[float, Any, int]:
        """A whole search of ``root`` without events, for :meth:`solve` and :meth:`best_child`.

        Raises:
            RunError: The work budget ran out first.
        """
        try:
            return _drain(self._search(root, -1, 0))
        except BudgetSpent:
            self._settle(-1, spent=True)
            raise RunError(
                f"minimax: the work budget (work_limit = {self.work_limit}) ran out before "
                "the search ended"
            ) from None
        finally:
            if not self.budget_spent:
                self._settle(self._left)

    def _search(self, root: Any, emit_limit: int, step: int, tree: _Tree | None = None) -> _Search:
        """Expectimax in games of chance, else negamax."""
        if self._chance:
            return self._expectimax(root, emit_limit, step, tree)
        return self._negamax(root, emit_limit, step, tree)

    def _for_player0(self, node: Any, value: float) -> float:
        """A search's value of ``node`` for player 0 (negamax's are for the player to move)."""
        if self._chance or node.to_move == 0:
            return value
        return 1.0 - value

    def _traverse(self, root: Any) -> Iterator[Event]:
        # the played line's rolls: derived from the rng before the search draws from it
        chance = Capability.CHANCE in capabilities_of(root)
        nature = Nature(self.rng) if chance and self.options.play else None
        self._start(root)
        spent = False
        try:
            limit = self.options.event_depth or _UNLIMITED
            tree = _Tree()
            self._counts.reported = tree.ups
            value, child, step = yield from self._search(root, limit, 0, tree)
            # the moves played below add tree ids of their own: the count stops here
            self._counts.shown, self._counts.reported = len(tree.ups), None
            if not self.options.play:
                return
            self._counts.window = None  # the moves played are not searched in a window
            node, depth, kind = root, 0, _MOVE
            nid, parent = 0, None  # the root was reported: it is tree node 0
            whole = self.options.samples == 0  # chance nodes were searched outcome by outcome
            while True:
                yield Event(kind, node, depth, step, self._for_player0(node, value), nid, parent)
                step += 1
                if chance and node.is_chance():
                    assert nature is not None
                    child, kind = nature.roll(node), _ROLL
                    move = _move_number(node, child) if whole else None
                elif child is None:
                    return
                else:
                    kind = _MOVE
                    move = _move_number(node, child)
                nid, parent = tree.child(nid, move), nid
                node, depth = child, depth + 1
                value, child, _ = _drain(self._search(node, -1, 0))
        except BudgetSpent:
            spent = True
        finally:
            self._settle(self._left, spent=spent)

    def _negamax(self, root: Any, emit_limit: int, step: int, tree: _Tree | None = None) -> _Search:
        """Search ``root``; events only for plies <= ``emit_limit`` (-1: none at all).

        The tree nodes of the events are recorded in ``tree`` (required when emitting).
        """
        opts = self.options
        tt = self._tt if opts.transposition else None
        tt_get = tt.get if tt is not None else None
        alpha_beta = opts.alpha_beta
        dec = 1 if opts.depth else 0
        keyed = Capability.KEY in capabilities_of(root)
        cut_value = terminal_reward if self.value is depth_value else self.value
        improve = emit_limit >= 0
        counts = self._counts
        nodes = 0
        cap = self._left  # the work budget: nodes may not exceed it
        best_child = None
        # tree ids, for the emitting part of the search only: the ids and counts of children
        # reported so far of the frames at plies <= emit_limit (the bottom of the stack)
        ups, moves_of = (tree.ups, tree.moves) if tree is not None else ([], [])
        tids: list[int] = []
        reported: list[int] = []
        last = 0  # the id of the child whose result is being returned

        # frame: [node, remaining moves, alpha, beta, best, searched alpha, key, current child]
        stack: list[list[Any]] = []
        node = root
        alpha, beta = (0.0, 1.0) if alpha_beta else (-1.0, 2.0)
        dleft = opts.depth or _UNLIMITED
        ply = 0
        while True:
            nodes += 1
            if nodes > cap:
                self._left = -1
                raise BudgetSpent
            result = -1.0  # < 0: not resolved yet
            hit = False
            k = node.key() if keyed else node
            if tt_get is not None and stack:
                entry = tt_get(k)
                if entry is not None and entry[2] >= dleft:
                    result, alpha, beta = _probe(entry, alpha, beta)
                    if result >= 0.0:
                        counts.hits += 1
                        hit = True
            if result < 0.0:
                if node.is_terminal():
                    r = node.reward()
                    result = r if node.to_move == 0 else 1.0 - r
                    if tt is not None:
                        tt[k] = (result, _EXACT, _UNLIMITED)
                elif dleft == 0:
                    r = cut_value(node)
                    result = r if node.to_move == 0 else 1.0 - r
                    if tt is not None:
                        tt[k] = (result, _EXACT, 0)
                else:
                    moves = iter(children_of(node))
                    child = next(moves, None)
                    if child is not None:
                        if ply <= emit_limit:
                            nid = len(ups)
                            if tids:
                                parent: int | None = tids[-1]
                                moves_of.append(reported[-1])
                                reported[-1] += 1
                            else:
                                parent = None
                                moves_of.append(0)
                            ups.append(parent)
                            counts.nodes = nodes
                            counts.window = _window_p0(alpha, beta, node.to_move)
                            yield new_event(Event, (_ENTER, node, ply, step, None, nid, parent))
                            step += 1
                            tids.append(nid)
                            reported.append(0)
                        stack.append([node, moves, alpha, beta, -1.0, alpha, k, child])
                        node = child
                        alpha, beta = 1.0 - beta, 1.0 - alpha
                        dleft -= dec
                        ply += 1
                        continue
                    # no move although not terminal: score it as the game's end
                    r = terminal_reward(node)
                    result = r if node.to_move == 0 else 1.0 - r
            if ply <= emit_limit:
                p0 = result if node.to_move == 0 else 1.0 - result
                last = len(ups)
                if tids:
                    parent = tids[-1]
                    moves_of.append(reported[-1])
                    reported[-1] += 1
                else:
                    parent = None
                    moves_of.append(0)
                ups.append(parent)
                counts.nodes = nodes
                counts.window = _window_p0(alpha, beta, node.to_move)
                counts.reused = hit
                yield new_event(Event, (_LEAF, node, ply, step, p0, last, parent))
                step += 1
            # return `result` up the stack until a node has a move left to search
            while stack:
                frame = stack[-1]
                ply -= 1
                dleft += dec
                v = 1.0 - result
                if v > frame[4]:
                    frame[4] = v
                    if ply == 0:
                        best_child = frame[7]
                        if improve:
                            p0 = v if frame[0].to_move == 0 else 1.0 - v
                            counts.nodes = nodes
                            counts.window = _window_p0(frame[2], frame[3], frame[0].to_move)
                            yield new_event(Event, (_IMPROVE, best_child, 1, step, p0, last, 0))
                            step += 1
                    if alpha_beta and v > frame[2]:
                        frame[2] = v
                if ply <= emit_limit:
                    best = frame[4]
                    p0 = best if frame[0].to_move == 0 else 1.0 - best
                    nid = tids[-1]
                    parent = ups[nid]
                    counts.nodes = nodes
                    counts.window = _window_p0(frame[2], frame[3], frame[0].to_move)
                    yield new_event(Event, (_BACKTRACK, frame[0], ply, step, p0, nid, parent))
                    step += 1
                    counts.reused = False  # its words belong to the step back just reported
                if frame[2] < frame[3]:
                    child = next(frame[1], None)
                    if child is not None:
                        frame[7] = node = child
                        alpha, beta = 1.0 - frame[3], 1.0 - frame[2]
                        dleft -= dec
                        ply += 1
                        break
                else:  # a cut-off: the moves left are not searched
                    counts.cuts += 1
                    if ply <= emit_limit:
                        pruned = self._count_moves(frame[1], cap - nodes)
                        cap -= pruned
                        if pruned:
                            counts.nodes = nodes
                            yield new_event(
                                Event, (_PRUNE, frame[0], ply, step, float(pruned), nid, parent)
                            )
                            step += 1
                if ply <= emit_limit:
                    last = tids.pop()
                    reported.pop()
                result = frame[4]
                if tt is not None:
                    if result <= frame[5]:
                        tt[frame[6]] = (result, _UPPER, dleft)
                    elif result >= frame[3]:
                        tt[frame[6]] = (result, _LOWER, dleft)
                    else:
                        tt[frame[6]] = (result, _EXACT, dleft)
                stack.pop()
            else:
                self.nodes = nodes
                self._left = cap - nodes
                counts.nodes = 0
                counts.searched += nodes
                return result, best_child, step

    def _expectimax(
        self, root: Any, emit_limit: int, step: int, tree: _Tree | None = None
    ) -> _Search:
        """Expectimax from ``root``, values for player 0; events as :meth:`_negamax`'s.

        Returns the root's value for player 0 and its best child (None at a chance node).
        """
        opts = self.options
        tt = self._tt if opts.transposition else None
        tt_get = tt.get if tt is not None else None
        alpha_beta = opts.alpha_beta
        dec = 1 if opts.depth else 0
        keyed = Capability.KEY in capabilities_of(root)
        two_player = self._two_player
        cut_value = terminal_reward if self.value is depth_value else self.value
        improve = emit_limit >= 0
        counts = self._counts
        nodes = 0
        cap = self._left  # the work budget: nodes may not exceed it
        best_child = None
        ups, moves_of = (tree.ups, tree.moves) if tree is not None else ([], [])
        tids: list[int] = []
        reported: list[int] = []
        last = 0  # the id of the child whose result is being returned
        low, high = (0.0, 1.0) if alpha_beta else (-1.0, 2.0)  # the full window

        # frame: [node, remaining moves, alpha, beta, best, searched alpha, key, current
        # child, kind, searched beta, weight of the current child, weight searched]; at a
        # chance node remaining moves are (weight, outcome) pairs, alpha and beta the full
        # window (outcomes are searched exactly) and best the weighted sum so far
        stack: list[list[Any]] = []
        node = root
        alpha, beta = low, high
        dleft = opts.depth or _UNLIMITED
        ply = 0
        while True:
            nodes += 1
            if nodes > cap:
                self._left = -1
                raise BudgetSpent
            result = -1.0  # < 0: not resolved yet
            k = node.key() if keyed else node
            if tt_get is not None and stack:
                entry = tt_get(k)
                if entry is not None and entry[2] >= dleft:
                    result, alpha, beta = _probe(entry, alpha, beta)
                    if result >= 0.0:
                        counts.hits += 1
            if result < 0.0:
                if node.is_terminal():
                    result = float(node.reward())
                    if tt is not None:
                        tt[k] = (result, _EXACT, _UNLIMITED)
                elif dleft == 0:
                    result = float(cut_value(node))
                    if tt is not None:
                        tt[k] = (result, _EXACT, 0)
                else:
                    weight = 0.0
                    if node.is_chance():
                        kind, best = _CHANCE, 0.0
                        moves: Iterator[Any] = self._outcomes(node)
                        weight, child = _first_outcome(node, moves)
                        window = (low, high)
                    else:
                        kind = _MIN if two_player and node.to_move == 1 else _MAX
                        best = 2.0 if kind == _MIN else -1.0
                        moves = iter(children_of(node))
                        child = next(moves, None)
                        window = (alpha, beta)
                    if child is not None:
                        if ply <= emit_limit:
                            nid = len(ups)
                            if tids:
                                parent: int | None = tids[-1]
                                moves_of.append(reported[-1])
                                reported[-1] += 1
                            else:
                                parent = None
                                moves_of.append(0)
                            ups.append(parent)
                            counts.nodes = nodes
                            counts.window = window  # values for player 0 throughout
                            yield new_event(Event, (_ENTER, node, ply, step, None, nid, parent))
                            step += 1
                            tids.append(nid)
                            reported.append(0)
                        alpha, beta = window
                        stack.append(
                            [
                                node,
                                moves,
                                alpha,
                                beta,
                                best,
                                alpha,
                                k,
                                child,
                                kind,
                                beta,
                                weight,
                                0.0,
                            ]
                        )
                        node = child
                        if kind != _CHANCE:
                            dleft -= dec
                        ply += 1
                        continue
                    # no move although not terminal: score it as the game's end
                    result = terminal_reward(node)
            if ply <= emit_limit:
                last = len(ups)
                if tids:
                    parent = tids[-1]
                    moves_of.append(reported[-1])
                    reported[-1] += 1
                else:
                    parent = None
                    moves_of.append(0)
                ups.append(parent)
                counts.nodes = nodes
                counts.window = (alpha, beta)
                yield new_event(Event, (_LEAF, node, ply, step, result, last, parent))
                step += 1
            # return `result` up the stack until a node has a move left to search
            while stack:
                frame = stack[-1]
                ply -= 1
                kind = frame[8]
                if kind == _CHANCE:
                    frame[4] += frame[10] * result
                    frame[11] += frame[10]
                    shown = frame[4] / frame[11]
                else:
                    dleft += dec
                    if (result > frame[4]) if kind == _MAX else (result < frame[4]):
                        frame[4] = result
                        if ply == 0:
                            best_child = frame[7]
                            if improve:
                                counts.nodes = nodes
                                counts.window = (frame[2], frame[3])
                                yield new_event(
                                    Event, (_IMPROVE, best_child, 1, step, result, last, 0)
                                )
                                step += 1
                        if alpha_beta:
                            if kind == _MAX:
                                if result > frame[2]:
                                    frame[2] = result
                            elif result < frame[3]:
                                frame[3] = result
                    shown = frame[4]
                if ply <= emit_limit:
                    nid = tids[-1]
                    parent = ups[nid]
                    counts.nodes = nodes
                    counts.window = (frame[2], frame[3])
                    yield new_event(Event, (_BACKTRACK, frame[0], ply, step, shown, nid, parent))
                    step += 1
                if frame[2] < frame[3]:
                    if kind == _CHANCE:
                        pair = next(frame[1], None)
                        if pair is not None:
                            frame[10], child = pair
                            frame[7] = node = child
                            alpha, beta = low, high
                            ply += 1
                            break
                    else:
                        child = next(frame[1], None)
                        if child is not None:
                            frame[7] = node = child
                            alpha, beta = frame[2], frame[3]
                            dleft -= dec
                            ply += 1
                            break
                else:  # a cut-off (never at a chance node): the moves left are not searched
                    counts.cuts += 1
                    if ply <= emit_limit:
                        pruned = self._count_moves(frame[1], cap - nodes)
                        cap -= pruned
                        if pruned:
                            counts.nodes = nodes
                            yield new_event(
                                Event, (_PRUNE, frame[0], ply, step, float(pruned), nid, parent)
                            )
                            step += 1
                if ply <= emit_limit:
                    last = tids.pop()
                    reported.pop()
                if kind == _CHANCE:
                    result = frame[4] / frame[11]
                    if tt is not None:
                        tt[frame[6]] = (result, _EXACT, dleft)
                else:
                    result = frame[4]
                    if tt is not None:
                        if result <= frame[5]:
                            tt[frame[6]] = (result, _UPPER, dleft)
                        elif result >= frame[9]:
                            tt[frame[6]] = (result, _LOWER, dleft)
                        else:
                            tt[frame[6]] = (result, _EXACT, dleft)
                stack.pop()
            else:
                self.nodes = nodes
                self._left = cap - nodes
                counts.nodes = 0
                counts.searched += nodes
                return result, best_child, step

    def _count_moves(self, moves: Iterator[Any], allowance: int) -> int:
        """How many moves ``moves`` has left (for PRUNE), each a unit of work.

        Raises:
            BudgetSpent: There are more than ``allowance`` (a ``children()`` that never ends).
        """
        count = sum(1 for _ in islice(moves, max(allowance, 0)))
        if count == allowance and next(moves, _NONE) is not _NONE:
            self._left = -1
            raise BudgetSpent
        return count

    def _outcomes(self, node: Any) -> Iterator[tuple[float, Any]]:
        """The ``(weight, outcome)`` pairs a chance node is searched over: every outcome
        with its probability, or those of ``samples`` draws, weighted by their frequency."""
        samples = self.options.samples
        if not samples:
            return iter(node.outcomes())
        drawn: dict[Hashable, list[Any]] = {}
        rng = self.rng
        for _ in range(samples):
            outcome = node.sample_outcome(rng)
            k = key_of(outcome)
            seen = drawn.get(k)
            if seen is None:
                drawn[k] = [1, outcome]
            else:
                seen[0] += 1
        return iter([(count / samples, outcome) for count, outcome in drawn.values()])


class _Tree:
    """The tree nodes an emitting search reported: per id, its parent's id and move number.

    Ids are given in pre-order, so the nodes of a subtree follow its root without a gap.
    """

    __slots__ = ("moves", "ups")

    def __init__(self) -> None:
        self.ups: list[int | None] = []
        self.moves: list[int] = []

    def child(self, parent: int, move: int | None) -> int:
        """The id of move number ``move`` of tree node ``parent``.

        A new id below ``parent`` when that move was not reported (or ``move`` is None).
        """
        ups, moves = self.ups, self.moves
        if move is not None:
            for i in range(parent + 1, len(ups)):
                up = ups[i]
                if up is None or up < parent:
                    break  # past the end of the subtree of `parent`
                if up == parent and moves[i] == move:
                    return i
        ups.append(parent)
        moves.append(-1)
        return len(ups) - 1


def _move_number(node: Any, child: Any) -> int | None:
    """The index of ``child`` among the children of ``node`` (None: not among them)."""
    return next((i for i, c in enumerate(children_of(node)) if c == child), None)


def _first_outcome(node: Any, outcomes: Iterator[tuple[float, Any]]) -> tuple[float, Any]:
    """The first ``(weight, outcome)`` pair of a chance node.

    Raises:
        UserCodeError: The chance node has no outcome (naming the domain's ``outcomes()``).
    """
    pair = next(outcomes, None)
    if pair is None:
        raise UserCodeError(
            str(method_location(node, "outcomes")),
            "returned no outcomes: a chance node needs at least one",
            node=node,
        )
    return pair


def _drain(search: _Search) -> tuple[float, Any, int]:
    """Run a search that emits no event and return its result."""
    try:
        event = next(search)
    except StopIteration as stop:
        result: tuple[float, Any, int] = stop.value
        return result
    raise AssertionError(f"a silent search emitted {event}")
