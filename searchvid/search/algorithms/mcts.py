"""Monte Carlo tree search (UCT) with rewards in [0, 1], for one- and two-player domains.

Memory is bounded by the number of iterations, not by the branching factor: a tree node
keeps its state, visit count, reward sum, the tree nodes of the children expanded so far and
an O(1) record of which children were tried -- never the list of its child states. Untried
children are found again when a node is expanded:

- on domains that declare ``random_child`` (and without ``filter_moves``), by drawing random
  children until one is not tried yet (a small set of tried keys, dropped once the node is
  fully expanded);
- otherwise by an affine permutation ``j -> (a * j + b) mod n`` of the child indices (four
  ints per node: ``a``, ``b``, the next ``j`` and ``n``) into the regenerated child list; the
  lists of nodes being expanded are kept in a small LRU cache bounded by ``child_cache``
  states.

With ``avoid_cycles`` a tree path never repeats a state (by key): a node's untried children
exclude the keys of its ancestors (in plan mode, the committed line is made of ancestors
too), so a tree is at most as deep as the domain has states, and a node whose every child
goes back to its line is *stuck*: it stays a leaf of the tree, scored by the ``reward``
value function.

Chance nodes (domains declaring ``Capability.CHANCE``) need nothing new from the domain: at a
chance node nature, not UCT, picks the way on. Selection draws an outcome with
``sample_outcome`` and follows the tree node of that outcome, creating it (the iteration's
expansion) the first time the outcome is drawn; the chance node keeps one child per distinct
outcome drawn so far (by key), so equal outcomes share their statistics, and the chance
node's own visits and mean -- what UCT at the decision above it compares -- average over the
outcomes as nature draws them. Rollouts draw outcomes the same way. Nature's outcomes are
never refused, not even by ``avoid_cycles``.
"""

from __future__ import annotations

import math
import sys
from collections import OrderedDict
from collections.abc import Generator, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal

from searchvid.options import option
from searchvid.search.algorithm import Algorithm, BudgetSpent, list_children
from searchvid.search.algorithms._access import Nature, draw_unvisited, drawer, key_function
from searchvid.search.events import Event, EventKind, new_event
from searchvid.search.node import (
    Capability,
    capabilities_of,
    children_of,
    is_terminal,
    require,
)
from searchvid.search.status import Field
from searchvid.search.values import depth_value, terminal_reward

_SELECT = EventKind.SELECT
_EXPAND = EventKind.EXPAND
_ROLLOUT = EventKind.ROLLOUT
_LEAF = EventKind.LEAF
_IMPROVE = EventKind.IMPROVE
_MOVE = EventKind.MOVE
_BACKUP = EventKind.BACKUP
_ROLL = EventKind.ROLL
_ITERATION_KINDS = frozenset({_SELECT, _EXPAND, _ROLLOUT, _LEAF, _IMPROVE})
"""Events inside an iteration (its BACKUP ends it)."""
_NO_LINE = sys.maxsize
"""The length of the goal line kept before any is found (any line is shorter)."""
_CHANCE = -2
"""``untried`` of a chance node: its outcomes are drawn, never tried in turn."""


@dataclass(frozen=True, kw_only=True)
class MctsOptions:
    """Options of :class:`Mcts`."""

    iterations: int = option(
        1000, doc="Iterations: per move in plan mode, in all in search mode.", minimum=1
    )
    exploration: float = option(1.4, doc="UCT exploration constant c.", minimum=0, maximum=100)
    mode: Literal["search", "plan"] = option(
        "search",
        doc="'search': iterate from the root; 'plan': iterate, commit the best move, repeat.",
    )
    reward: str | None = option(
        None,
        doc="Value function in [0, 1] scoring a one-player rollout's end (default: the domain's).",
    )
    avoid_cycles: bool = option(
        False,
        doc=(
            "Tree paths, rollouts and plan mode's committed line never revisit a state (by "
            "key); a stuck rollout ends there, a stuck plan ends the game."
        ),
    )
    filter_moves: bool = option(
        False, doc="Expand only the domain's filtered_children() where it offers them."
    )
    rollout_limit: int = option(
        10_000,
        doc="Longest rollout in moves (0 = no limit); the default only guards against "
        "domains whose moves can cycle for ever.",
        minimum=0,
    )
    opponent: Literal["mcts", "random"] = option(
        "mcts", doc="Plan mode, two players: how player 1 picks its moves."
    )
    rollout_events: bool = option(False, doc="Emit a ROLLOUT event for each rollout state.")
    max_moves: int = option(
        0,
        doc="Plan mode: stop after this many moves (0 = when the game ends); rolls of the "
        "dice are not counted.",
        minimum=0,
    )
    commit_solution: bool = option(
        True,
        doc=(
            "Plan mode, one player with a goal: once a playout reaches the goal, play the "
            "shortest such line out after the iteration block instead of searching on."
        ),
    )
    child_cache: int = option(
        100_000,
        doc="Child states cached for nodes being expanded by index (0 = regenerate each time).",
        minimum=0,
    )


class _TreeNode:
    """One node of the search tree.

    Attributes:
        state: The domain node.
        visits: Iterations through this node.
        total: Sum of their rewards, from the point of view of ``mover``.
        mean: ``total / visits`` (0 before the first visit).
        spread: ``1 / sqrt(visits)``, the UCT exploration term's factor (kept up to date so
            that choosing among hundreds of children costs one multiply-add each).
        mover: The player who made the move into this node (0 in one-player domains); for
            an outcome of a chance node, the chance node's mover.
        untried: Children not expanded yet (-1: not counted yet; ``_CHANCE`` at a chance
            node).
        kids: The expanded children, in expansion order (None until first expanded).
        outcomes: At a chance node, the child of each outcome drawn so far, by key (None at
            decision nodes).
        order: Which child to try next: ``(a, b, j, n)`` of the index permutation (the next
            child is number ``(a * j + b) % n``), or the set of tried (or excluded) keys; None
            once fully expanded.
        terminal: Whether the state ends the game (None: not known yet).
        key: The state's key where needed (cycle avoidance, expansion by drawing).
        id: The tree node's id in the events (0 for the root, then in creation order).
        parent: The parent's id (None for the root of the stream).
    """

    __slots__ = (
        "id",
        "key",
        "kids",
        "mean",
        "mover",
        "order",
        "outcomes",
        "parent",
        "spread",
        "state",
        "terminal",
        "total",
        "untried",
        "visits",
    )

    def __init__(
        self,
        state: Any,
        mover: int,
        terminal: bool | None,
        key: Hashable,
        id: int = 0,
        parent: int | None = None,
    ) -> None:
        self.id = id
        self.parent = parent
        self.state = state
        self.visits = 0
        self.total = 0.0
        self.mean = 0.0
        self.spread = 1.0
        self.mover = mover
        self.untried = -1
        self.kids: list[_TreeNode] | None = None
        self.order: tuple[int, int, int, int] | set[Hashable] | None = None
        self.outcomes: dict[Hashable, _TreeNode] | None = None
        self.terminal = terminal
        self.key = key


_Iterations = Generator[Event, None, int]


class Mcts(Algorithm[MctsOptions]):
    """UCT Monte Carlo tree search, in ``search`` or ``plan`` mode.

    Each iteration emits, in order (depth = moves from the root of the whole stream):

    - ``SELECT``: the node the tree policy reached (UCT descent while nodes are fully
      expanded): the node about to be expanded, a terminal node, or (with ``avoid_cycles``)
      a stuck node, whose every child is already on its line. At a chance node the descent
      follows the outcome nature draws (``sample_outcome``), so SELECT may be a chance node
      whose outcome was drawn for the first time.
    - ``EXPAND``: the new child added below it (absent when the selected node is terminal
      or stuck); below a chance node, the outcome just drawn. With ``avoid_cycles`` a
      player's move never leads to a state (by key) on the line from the root of the
      stream: the committed moves and the tree path.
    - ``ROLLOUT`` for every state of the random playout after the new child and before its
      last state -- only with ``rollout_events``.
    - ``LEAF``: the playout's last state, value = the reward: for two players player 0's
      ``reward()`` at a terminal state (the ``reward`` value function, 0.5 by default, when
      cut off by ``rollout_limit`` or ``avoid_cycles``); for one player the ``reward``
      value function (the domain's ``reward()`` at terminal states, 0.5 elsewhere, if none).
    - ``IMPROVE`` with that last state when its reward strictly beats every earlier one.
    - ``BACKUP`` (an annotation) with the tree node where back-propagation starts (the
      expanded child, else the selected node), value = the reward for player 0.

    Statistics of a tree node are from the point of view of the player who moved into it
    (player 0's reward r counts as 1 - r for player 1), so UCT picks each player's best.

    ``search`` mode runs ``iterations`` iterations from the root and ends. ``plan`` mode
    emits ``MOVE`` for the root (depth 0, value None), then repeats: run ``iterations``
    iterations, commit the root child with the most visits (ties: higher mean; with
    ``avoid_cycles`` the children never include a state of the committed line), emit
    ``MOVE`` for it (depth = moves committed so far, value = its mean reward for player 0,
    or its reward when terminal) and re-root the tree on it, keeping its subtree. With two
    players and ``opponent = "random"``, player 1's moves are drawn at random instead
    (MOVE without iterations; with ``avoid_cycles`` never back to the committed line).
    Plan mode ends at a terminal state, a goal, ``max_moves``, or -- before any iteration --
    at a state with no move left (with ``avoid_cycles``: none off the committed line).

    In plan mode a committed line that reaches a chance node does not search there: the
    real outcome is drawn with ``sample_outcome`` from nature's own stream
    (:class:`~searchvid.search.algorithms._access.Nature`, made before the first iteration:
    not the rng the iterations draw from, so the same seed rolls the same outcomes, given
    the same states, as any other algorithm's game), emitted as ``ROLL`` (depth one
    more, value = the outcome's mean reward for player 0 as for MOVE, or None unvisited)
    and the tree is re-rooted on it (keeping its subtree when that outcome was drawn
    before); the search goes on from there. In a domain with chance nodes a game is played
    to its end: the goal test does not end it and ``commit_solution`` does not apply (a
    playout's line depends on the outcomes drawn in it).

    ``commit_solution`` (one player, a goal test, plan mode): during an iteration block, each
    playout whose last state is a goal gives a line from the current root -- the tree path,
    then the playout up to its first goal state -- and the shortest such line is kept (the
    first of equal length). The playout's states are listed only as far as a goal there
    could still give a shorter line, and only the kept line outlives its iteration; the goal
    test costs one call per iteration, plus a scan of that list when the playout ends at a
    goal. The iterations themselves are not changed. After the block, instead of committing
    one move, every state of the kept line is committed in turn (``MOVE`` events, value =
    the ``reward`` value function of the state) and the stream ends at the goal (or at
    ``max_moves``). Without it (or with no goal reached yet) the block ends as above.

    Tree nodes (``id`` and ``parent`` of the events): the root is 0; each EXPAND creates
    the next id (as does a random opponent's move to a state the tree lacks, in its MOVE);
    SELECT, BACKUP and MOVE carry their tree node's id, and ids of a kept subtree survive
    re-rooting (so the new root's parent is the previous root). Rollout states are not tree
    nodes: ROLLOUT and the playout's LEAF have ``id`` None and ``parent`` = the tree node
    the playout started from; IMPROVE carries the id of its state's tree node when the
    playout made no move, else the same as LEAF. Adding one visit and the BACKUP's value to
    its node and each ancestor up to the current root (the latest MOVE's node in plan mode)
    reproduces every tree node's visit count and reward sum for player 0 exactly. With
    ``commit_solution`` the committed line's MOVEs carry the ids of its tree nodes, then
    new ids (each below the previous MOVE's) for the part that came from the playout.

    Two optional methods of a state make an iteration cheaper without changing it, used only
    where the state's class opts in with ``SEARCHVID_FAST_ROLLOUTS = True`` (so that a user's
    own methods of these names are never taken for them):

    - ``child_count()``: how many children the state has, all different (by key). Where
      children are expanded by drawing and no key is excluded, a node is opened by counting
      its children instead of listing them.
    - ``random_playout(rng, limit)``: the state that up to ``limit`` calls of
      ``random_child(rng)`` in a row reach (stopping at a terminal state), drawing the same
      numbers from ``rng``, and the number of moves made. Each playout is then one call,
      where nothing needs the states on the way: no ``rollout_events``, ``avoid_cycles`` or
      goal line being looked for, and a domain that declares ``is_terminal``.

    Railroad Ink's boards offer both.

    Work budget (:attr:`~searchvid.search.algorithm.Algorithm.work_limit`): a unit per
    iteration and one per rollout move (a playout's states are most of an iteration's cost),
    across every block of plan mode; when it is spent the stream ends at once, in the middle
    of an iteration if need be. A node whose children are listed (to expand it, or to draw a
    child in a domain without ``random_child``) and number more than the whole budget spends
    it too.

    An instance runs one traversal at a time (the tree lives in the running generator).
    ``_tree`` holds the current root of the tree, during the traversal and after it (for
    tests).
    """

    name = "mcts"
    title = "MCTS"
    move_phase = "playing"
    best_name = "best playout"
    summary = "Monte Carlo tree search (UCT): random playouts steer a growing tree."
    options_type = MctsOptions
    value_option = "reward"
    # a race steps MCTS by iterations: each selects a path, adds at most one node to the
    # tree and plays out from there (its SELECT starts it)
    work_kinds = frozenset({_SELECT})
    work_unit = ("iteration", "iterations")
    reports_frontier = True  # EXPAND: a node added to the tree, not visited yet

    @classmethod
    def best_name_for(cls, options: Mapping[str, Any]) -> str:
        """What the strip calls the best playout under the scene's ``[search]`` table
        ``options``: ``best playout (not played)`` in plan mode with ``commit_solution =
        false``, where a playout that solves the puzzle is shown as the best but not
        committed, so a reader does not wonder why the solved line is not played."""
        plan = options.get("mode", "search") == "plan"
        if plan and options.get("commit_solution", True) is False:
            return f"{cls.best_name} (not played)"
        return cls.best_name

    _two_player: bool = False
    """Whether the running search is of a two-player game."""
    _tree: _TreeNode | None = None
    """The current root of the tree (None before the first traversal)."""
    _block: _TreeNode | None = None
    """The root of the latest block of iterations (None before the first)."""
    _block_visits: int = 0
    """Its visits when the block began."""
    _block_kept: int = 0
    """Its visits when the block began, where it is a decision (not a chance node): the
    iterations of earlier moves that passed through it, kept with the subtree (plan mode),
    which its moves' counts (a heat map, a tree panel's root) include."""
    _leader: _TreeNode | None = None
    """The child of ``_block`` with the most visits (ties: the higher mean) -- the move that
    would be committed -- kept up to date by backpropagation (None: no child yet, or the
    block's root is a chance node)."""
    _move_number: int = 0
    """Plan mode: the move being searched for or just committed, counting from 1."""
    _left: int = 0
    """Units of the work budget left to the running traversal."""
    _cap: int = 0
    """The most children a listing may hold: the traversal's whole budget."""
    _nature: Nature | None = None
    """Plan mode in a game of chance: where the played line's rolls come from."""

    def status(self) -> Sequence[Field]:
        """The search's own numbers for the strip, each O(1).

        ``move 4`` (plan mode: the move being searched for, or just played; rolls of the dice
        are not moves), ``iterations 120/300`` (this block's iterations done, of
        ``iterations``), then in two-player games ``win rate 51%``: player 0's mean reward
        over every playout through the block's root (the iterations kept from earlier moves
        too), whoever moves there, and the ``visits`` of the leading move there -- the one
        with the most visits so far; in one-player games that move's ``visits`` and ``mean
        reward 0.531`` (``-`` before any). The win rate is the whole decision's, not the
        leading move's: where a position has hundreds of moves, the leader may have a handful
        of visits, and the best of many such small means reads as a certain win for whoever
        chooses (``100%``, then ``9%`` one move later).
        """
        return self._fields(under_way=False)

    def status_of(self, event: Event) -> Sequence[Field]:
        """As :meth:`status`, for a frame showing ``event``: during an iteration (``SELECT``
        to its ``LEAF`` and ``IMPROVE``) the count is of the iteration on screen,
        ``iteration 121/300``; a roll of the dice (``ROLL``, plan mode) shows only the
        moves played so far: nobody searches or decides at a roll, and the ``visits`` and
        mean reward of the outcome rolled (a handful of the search's draws) read as the
        last decision's numbers left on screen."""
        kind = event.kind
        if kind is _ROLL:
            return (Field("move", self._move_number),)
        return self._fields(under_way=kind in _ITERATION_KINDS)

    def _fields(self, *, under_way: bool) -> list[Field]:
        """:meth:`status`'s fields; with ``under_way``, the iteration under way is counted."""
        opts = self.options
        block, leader = self._block, self._leader
        done = block.visits - self._block_visits if block is not None else 0
        if under_way:
            fields = [Field("iteration", done + 1, of=opts.iterations)]
        else:
            fields = [Field("iterations", done, of=opts.iterations)]
        if opts.mode == "plan":
            fields.insert(0, Field("move", self._move_number))
        visits = leader.visits if leader is not None else None
        if self._two_player:
            fields.append(Field("win rate", _first_players_rate(block), percent=True))
            fields.append(Field("visits", visits))
        else:
            mean = leader.mean if leader is not None and leader.visits else None
            fields.extend((Field("visits", visits), Field("mean reward", mean)))
        if self._block_kept:  # the strip names them (fieldwords.kept_visits)
            fields.append(Field("earlier visits", self._block_kept))
        return fields

    def check(self, root: Any) -> None:
        """Two-player domains also need a terminal ``reward()``."""
        super().check(root)
        if Capability.TO_MOVE in capabilities_of(root):
            require(root, (Capability.REWARD,), algorithm=self.name)

    def _traverse(self, root: Any) -> Iterator[Event]:
        opts = self.options
        caps = capabilities_of(root)
        self._two_player = Capability.TO_MOVE in caps
        self._check_terminal = Capability.TERMINAL in caps
        self._filtered = opts.filter_moves and Capability.FILTERED_CHILDREN in caps
        self._by_drawing = Capability.RANDOM_CHILD in caps and not self._filtered
        self._left = self._cap = self._budget()
        self._draw = drawer(root, self._cap)
        self._chance = Capability.CHANCE in caps
        # the played line's rolls: derived from the rng before any iteration draws from it
        self._nature = Nature(self.rng) if self._chance and opts.mode == "plan" else None
        # at chance nodes a rollout draws with sample_outcome, through the chance-aware draw
        self._native = Capability.RANDOM_CHILD in caps and not self._chance
        # children counted, not listed, where they are found by drawing
        fast = getattr(type(root), "SEARCHVID_FAST_ROLLOUTS", False) is True
        self._counted = fast and self._by_drawing and callable(getattr(root, "child_count", None))
        # a whole playout in one call where nothing needs the states on the way
        self._playout = (
            self._native
            and self._check_terminal
            and not opts.avoid_cycles
            and not opts.rollout_events
            and fast
            and callable(getattr(root, "random_playout", None))
        )
        self._keyed = Capability.KEY in caps
        self._key = key_function(root)
        self._needs_key = opts.avoid_cycles or self._by_drawing or self._chance
        self._reward = terminal_reward if self.value is depth_value else self.value
        self._cache: OrderedDict[_TreeNode, Sequence[Any]] = OrderedDict()
        self._cached = 0
        self._best = -math.inf
        self._commit = (
            opts.mode == "plan"
            and opts.commit_solution
            and self.goal is not None
            and not self._two_player
            and not self._chance
        )
        self._line: tuple[list[_TreeNode], list[Any]] | None = None
        self._next_id = 0
        self._block, self._leader, self._move_number = None, None, 0
        self._block_kept = 0
        two_player_start = self._two_player and not (self._chance and root.is_chance())
        mover = 1 - root.to_move if two_player_start else 0
        spent = False
        try:
            tree = self._tree = self._new_node(root, mover, None)
            if opts.mode == "search":
                yield from self._iterations(tree, opts.iterations, 0, set(), 0)
            else:
                yield from self._plan(tree)
        except BudgetSpent:
            spent = True
            self._left = -1
        finally:
            self._settle(self._left, spent=spent)

    # -- plan mode -------------------------------------------------------------------------

    def _plan(self, tree: _TreeNode) -> Iterator[Event]:
        opts = self.options
        key = self._key
        history: set[Hashable] = {key(tree.state)} if opts.avoid_cycles else set()
        random_opponent = self._two_player and opts.opponent == "random"
        goal = None if self._chance else self.goal  # a game of chance is played to its end
        step, depth, moves = 0, 0, 0  # events, plies (rolls included), moves committed
        yield Event(_MOVE, tree.state, 0, step, None, tree.id, tree.parent)
        step += 1
        excluded = history if opts.avoid_cycles else None
        while moves != opts.max_moves or opts.max_moves == 0:
            state = tree.state
            if tree.terminal is None:
                tree.terminal = is_terminal(state)
            if tree.terminal or (goal is not None and goal(state)):
                return
            kind = _MOVE
            chosen: _TreeNode | None
            if tree.outcomes is not None:  # a chance node: nature rolls, nobody searches
                chosen = self._roll(tree)
                kind = _ROLL
            elif random_opponent and state.to_move == 1:
                self._move_number = moves + 1
                chosen = self._random_move(tree, excluded)
                if chosen is None:
                    return
            else:
                if tree.untried < 0:
                    self._open(tree, excluded)
                if not tree.kids and tree.untried == 0:
                    return  # no move left (with avoid_cycles: none off the committed line)
                self._move_number = moves + 1
                step = yield from self._iterations(tree, opts.iterations, depth, history, step)
                line = self._line
                if line is not None:  # commit_solution: play the goal line out
                    self._line = None
                    yield from self._play_line(line, tree.id, depth, step)
                    return
                kids = tree.kids
                assert kids  # the root had an untried child, so an iteration expanded it
                chosen = max(kids, key=_commit_rank)
            tree = self._tree = chosen
            self._cache.clear()
            self._cached = 0
            depth += 1
            if kind is _MOVE:
                moves += 1
            if opts.avoid_cycles:
                history.add(key(tree.state))
            yield Event(kind, tree.state, depth, step, self._estimate(tree), tree.id, tree.parent)
            step += 1

    def _roll(self, tree: _TreeNode) -> _TreeNode:
        """The real outcome of chance node ``tree``, nature's next roll: its tree node (kept
        with its subtree if the search drew that outcome before, else a new one)."""
        outcomes = tree.outcomes
        assert outcomes is not None
        assert tree.kids is not None
        assert self._nature is not None
        state = self._nature.roll(tree.state)
        k = self._key(state)
        kid = outcomes.get(k)
        if kid is None:
            kid = outcomes[k] = self._new_node(state, tree.mover, tree.id, k)
            tree.kids.append(kid)
        else:
            kid.state = state  # an equal state; this one shows the dice actually rolled
        return kid

    def _play_line(
        self, line: tuple[list[_TreeNode], list[Any]], parent: int, depth: int, step: int
    ) -> Iterator[Event]:
        """MOVE events for a kept goal line: its tree nodes, then its playout's states."""
        max_moves = self.options.max_moves
        nodes, tail = line
        for node in nodes:
            depth += 1
            value = float(self._reward(node.state))
            # the strip's move and leading-move fields follow the line (no more iterations)
            self._move_number, self._leader = depth, node
            yield Event(_MOVE, node.state, depth, step, value, node.id, node.parent)
            step += 1
            parent = node.id
            if depth == max_moves:
                return
        self._leader = None  # the playout's states have no statistics
        for state in tail:
            depth += 1
            self._move_number = depth
            nid = self._next_id
            self._next_id += 1
            yield Event(_MOVE, state, depth, step, float(self._reward(state)), nid, parent)
            step += 1
            parent = nid
            if depth == max_moves:
                return

    def _random_move(self, tree: _TreeNode, excluded: set[Hashable] | None) -> _TreeNode | None:
        """Player 1's random move, off ``excluded`` keys; its subtree is kept if the tree has it."""
        key = self._key
        if excluded is None:
            state = self._draw(tree.state, self.rng)
            if state is None:
                return None
            k = key(state)
        else:
            state, k = draw_unvisited(tree.state, self.rng, excluded, key, self._draw, self._cap)
            if state is None:
                return None
        for kid in tree.kids or ():
            if (kid.key if kid.key is not None else key(kid.state)) == k:
                return kid
        return self._new_node(state, tree.state.to_move, tree.id)

    def _estimate(self, node: _TreeNode) -> float | None:
        """The value for player 0 reported with a MOVE."""
        if node.terminal:
            return self._end_value(node.state, True)
        if node.visits == 0:
            return None
        return 1.0 - node.mean if node.mover else node.mean

    # -- iterations ------------------------------------------------------------------------

    def _iterations(
        self,
        root: _TreeNode,
        count: int,
        base_depth: int,
        history: set[Hashable],
        step: int,
    ) -> _Iterations:
        """Run ``count`` UCT iterations below ``root``; returns the next step number.

        With ``commit_solution`` active, the shortest line from ``root`` to a goal seen by
        these iterations (if any) is left in ``self._line``.
        """
        opts = self.options
        rng, draw, key = self.rng, self._draw, self._key
        native = self._native
        playout = self._playout
        keyed = self._keyed
        c = opts.exploration
        sqrt, log = math.sqrt, math.log
        two_player = self._two_player
        chance = self._chance
        check_terminal = self._check_terminal
        avoid = opts.avoid_cycles
        limit = opts.rollout_limit or -1
        rollout_events = opts.rollout_events
        end_value = self._end_value
        expand = self._expand
        best = self._best
        commit = self._commit
        goal = self.goal or _no_goal
        line = self._line
        shortest = len(line[0]) + len(line[1]) if line is not None else _NO_LINE  # its moves
        excluded: set[Hashable] | None = None
        # the leading child of the root (status): most visits, then the higher mean; only the
        # child an iteration went through gains, so comparing it with the leader keeps it
        lead = root.outcomes is None
        leader = max(root.kids, key=_commit_rank) if lead and root.kids else None
        self._block, self._block_visits, self._leader = root, root.visits, leader
        self._block_kept = root.visits if lead else 0
        cap = self._cap
        work = self._left  # the work budget: a unit per iteration and per rollout move
        for _ in range(count):
            work -= 1
            if work < 0:
                raise BudgetSpent
            # selection: descend by UCT while nodes are fully expanded; at a chance node
            # follow the outcome nature draws, stopping at one drawn for the first time
            node = root
            path = [node]
            depth = base_depth
            drawn = None  # a chance node's outcome without a tree node yet
            while True:
                while node.untried == 0 and not node.terminal:
                    kids = node.kids
                    if not kids:
                        break  # stuck: every child is on the line (avoid_cycles)
                    explore = c * sqrt(log(node.visits))
                    chosen = kids[0]
                    top = -1.0
                    for kid in kids:
                        score = kid.mean + explore * kid.spread
                        if score > top:
                            top = score
                            chosen = kid
                    node = chosen
                    path.append(node)
                    depth += 1
                outcomes = node.outcomes
                if outcomes is None:
                    break
                drawn = node.state.sample_outcome(rng)
                drawn_key = key(drawn)
                known = outcomes.get(drawn_key)
                if known is None:
                    break
                drawn = None
                node = known
                path.append(node)
                depth += 1
            yield new_event(Event, (_SELECT, node.state, depth, step, None, node.id, node.parent))
            step += 1
            if avoid:  # the keys on the line: committed moves and the tree path
                excluded = history.copy()
                excluded.update([n.key for n in path])
            # expansion
            stuck = False
            if not node.terminal:
                if drawn is None:
                    child = expand(node, excluded)
                else:
                    child = self._add_outcome(node, drawn, drawn_key)
                if child is None:
                    stuck = not node.terminal
                else:
                    node = child
                    path.append(node)
                    depth += 1
                    if excluded is not None:
                        excluded.add(node.key)
                    yield new_event(
                        Event, (_EXPAND, node.state, depth, step, None, node.id, node.parent)
                    )
                    step += 1
            # rollout
            state = node.state
            start, tree_depth = node.id, depth
            finished = True  # ended at a terminal state / dead end
            # commit_solution: the playout's states while a goal there gives the shortest line
            trail: list[Any] | None = None
            room = 0  # (playout moves from here to a goal must be fewer)
            if commit:
                room = shortest - (len(path) - 1)
                if room > 0:
                    trail = [state]
            if stuck:
                finished = False
            elif playout and trail is None and not node.terminal:
                # the loop below in one call: up to `allowed` moves, a unit of work each
                allowed = work if limit < 0 else min(limit, work)
                state, moves = state.random_playout(rng, allowed)
                work -= moves
                depth += moves
                if moves == allowed and not state.is_terminal():
                    if moves != limit:
                        raise BudgetSpent  # the next move would overspend
                    finished = False
            elif not node.terminal:
                moves = 0
                visited = excluded  # the line's keys (avoid_cycles), extended by the playout
                while True:
                    if moves == limit:
                        finished = False
                        break
                    work -= 1
                    if work < 0:
                        raise BudgetSpent
                    nxt = state.random_child(rng) if native else draw(state, rng)
                    if nxt is None:
                        break
                    if visited is not None:
                        k = nxt.key() if keyed else nxt
                        if k in visited and not (chance and state.is_chance()):
                            nxt, k = draw_unvisited(state, rng, visited, key, draw, cap)
                            if nxt is None:  # every move revisits a state: stuck
                                finished = False
                                break
                        visited.add(k)
                    if rollout_events and moves:
                        yield new_event(Event, (_ROLLOUT, state, depth, step, None, None, start))
                        step += 1
                    state = nxt
                    depth += 1
                    moves += 1
                    if trail is not None and moves < room:
                        trail.append(state)
                    if check_terminal and state.is_terminal():
                        break
            if trail is not None and goal(state):  # the line ends at its first goal
                for i, reached in enumerate(trail):
                    if goal(reached):
                        line = (path[1:], trail[1 : i + 1])
                        shortest = len(path) - 1 + i
                        break
            reward = end_value(state, finished)
            yield new_event(Event, (_LEAF, state, depth, step, reward, None, start))
            step += 1
            if reward > best:
                best = reward
                if depth == tree_depth:  # no playout move: the state is the tree node's
                    yield new_event(
                        Event, (_IMPROVE, state, depth, step, reward, start, node.parent)
                    )
                else:
                    yield new_event(Event, (_IMPROVE, state, depth, step, reward, None, start))
                step += 1
            yield new_event(
                Event, (_BACKUP, node.state, tree_depth, step, reward, start, node.parent)
            )
            step += 1
            # backpropagation
            other = 1.0 - reward if two_player else reward
            for n in path:
                visits = n.visits + 1
                total = n.total + (other if n.mover else reward)
                n.visits = visits
                n.total = total
                n.mean = total / visits
                n.spread = 1.0 / sqrt(visits)
            if lead and len(path) > 1:
                first = path[1]
                if first is not leader and (
                    leader is None
                    or first.visits > leader.visits
                    or (first.visits == leader.visits and first.mean > leader.mean)
                ):
                    leader = self._leader = first
        self._best = best
        self._line = line
        self._left = work
        return step

    def _end_value(self, state: Any, finished: bool) -> float:
        """The reward of a playout's last state (player 0's in two-player games)."""
        if self._two_player and finished:
            return float(state.reward())
        return float(self._reward(state))

    # -- tree nodes ------------------------------------------------------------------------

    def _new_node(
        self, state: Any, mover: int, parent: int | None, key: Hashable = None
    ) -> _TreeNode:
        """A tree node for ``state`` below tree node ``parent``, with the next id.

        Its key is computed here when needed and not given.
        """
        terminal = state.is_terminal() if self._check_terminal else None
        if key is None and self._needs_key:
            key = self._key(state)
        nid = self._next_id
        self._next_id = nid + 1
        node = _TreeNode(state, mover, terminal, key, nid, parent)
        if self._chance and state.is_chance():
            node.untried = _CHANCE
            node.kids = []
            node.outcomes = {}
            node.terminal = False
        return node

    def _add_outcome(self, node: _TreeNode, state: Any, key: Hashable) -> _TreeNode:
        """A new tree node below chance node ``node`` for its outcome ``state``."""
        assert node.outcomes is not None
        assert node.kids is not None
        child = node.outcomes[key] = self._new_node(state, node.mover, node.id, key)
        node.kids.append(child)
        return child

    def _children_of(self, state: Any) -> Sequence[Any]:
        if self._filtered:
            return state.filtered_children()  # type: ignore[no-any-return]
        return list_children(children_of(state), self._cap)

    def _expand(self, node: _TreeNode, excluded: set[Hashable] | None) -> _TreeNode | None:
        """Add one untried child below ``node``, whose key is not in ``excluded``.

        ``excluded`` (avoid_cycles) holds the keys of the node's line: it must be the same
        each time the node is expanded. Returns None when no such child is left (and marks
        ``node`` terminal when it has no child at all).
        """
        if node.untried < 0:
            self._open(node, excluded)
        if node.untried == 0:
            return None
        kids = node.kids
        order = node.order
        assert kids is not None
        assert order is not None
        if isinstance(order, set):
            state, k = self._draw_untried(node, order)
        else:
            a, b, j, size = order
            while True:
                state = self._child_at(node, (a * j + b) % size)
                j += 1
                k = self._key(state) if self._needs_key else None
                if excluded is None or k not in excluded:
                    break
            node.order = (a, b, j, size)
        mover = node.state.to_move if self._two_player else 0
        child = self._new_node(state, mover, node.id, k)
        kids.append(child)
        node.untried -= 1
        if node.untried == 0:
            node.order = None
            if node in self._cache:
                self._cached -= len(self._cache.pop(node))
        return child

    def _open(self, node: _TreeNode, excluded: set[Hashable] | None) -> None:
        """Count the children of ``node`` off ``excluded`` keys; set up the record of tried ones.

        A node without children is marked terminal.
        """
        if self._counted and not excluded:  # nothing to skip: counting is enough
            size = node.state.child_count()
            if size > self._cap:
                raise BudgetSpent  # as listing that many would
            node.kids = []
            node.untried = size
            if size == 0:
                node.terminal = True
            else:
                node.order = set()
            return
        states = self._children_of(node.state)
        node.kids = []
        size = len(states)
        if size == 0:
            node.untried = 0
            node.terminal = True
            return
        key = self._key
        if self._by_drawing:
            keys = [key(s) for s in states]
            skipped = {k for k in keys if k in excluded} if excluded else set()
            node.untried = len(set(keys)) - len(skipped)
            node.order = skipped if node.untried else None
            return
        if excluded is None:
            node.untried = size
        else:
            node.untried = sum(1 for s in states if key(s) not in excluded)
            if node.untried == 0:
                return
        rng = self.rng
        b = rng.randrange(size)
        a = 1
        if size > 2:
            a = rng.randrange(1, size)
            while math.gcd(a, size) != 1:
                a = rng.randrange(1, size)
        node.order = (a, b, 0, size)
        self._remember(node, states)

    def _draw_untried(self, node: _TreeNode, tried: set[Hashable]) -> tuple[Any, Hashable]:
        """A random child whose key was not tried (a listed fallback after many misses)."""
        draw, key, rng = self._draw, self._key, self.rng
        patience = 8 * (len(tried) + node.untried) + 32
        # the same calls as draw() and key() make, without their frames (the hot path)
        keyed = self._keyed
        random_child = node.state.random_child if self._native else None
        for _ in range(patience):
            state = random_child(rng) if random_child is not None else draw(node.state, rng)
            if state is None:
                break
            k = state.key() if keyed else key(state)
            if k not in tried:
                tried.add(k)
                return state, k
        kids = list_children(children_of(node.state), self._cap)
        fresh = [(s, k) for s in kids if (k := key(s)) not in tried]
        if not fresh:
            raise AssertionError(f"{node.state!r}: random_child disagrees with children()")
        state, k = fresh[rng.randrange(len(fresh))]
        tried.add(k)
        return state, k

    def _child_at(self, node: _TreeNode, index: int) -> Any:
        """Child number ``index`` of ``node``, from the cache or regenerated."""
        cache = self._cache
        states = cache.get(node)
        if states is not None:
            cache.move_to_end(node)
            return states[index]
        if self._filtered or self.options.child_cache:
            states = self._children_of(node.state)
            self._remember(node, states)
            return states[index]
        return next(islice(children_of(node.state), index, None))

    def _remember(self, node: _TreeNode, states: Sequence[Any]) -> None:
        budget = self.options.child_cache
        if len(states) > budget:
            return
        cache = self._cache
        cache[node] = states
        self._cached += len(states)
        while self._cached > budget:
            _, dropped = cache.popitem(last=False)
            self._cached -= len(dropped)


def _first_players_rate(block: _TreeNode | None) -> float | None:
    """Player 0's mean reward over all the playouts through decision node ``block`` (its
    statistics are its mover's, the player who moved into it); None before the first, and
    at a chance node, where nobody decides."""
    if block is None or not block.visits or block.outcomes is not None:
        return None
    return 1.0 - block.mean if block.mover else block.mean


def _no_goal(node: Any) -> bool:
    """The goal test of a domain without a goal."""
    return False


def _commit_rank(node: _TreeNode) -> tuple[int, float]:
    """Most visits first, then the higher mean (from the mover's point of view)."""
    return node.visits, node.mean
