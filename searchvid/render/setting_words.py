"""The opening card's words for an algorithm's settings: what each option does, as a
reader who never saw the scene file would say it (``transposition = true`` reads
"remembers positions already solved", not "transposition").

A phrase is made from the option's value and, where the meaning depends on them, the
other options the scene sets (``iterations`` counts playouts per move in plan mode, in all
otherwise). Options with no phrase here keep the card's plain ``name value`` form; value
functions (``reward``, ``value``) are left to the domain's words for them
(:meth:`~searchvid.render.narration.ValueWords.describe_value_function`). A phrase the domain
restates in its ``terms`` reads in its words (tic-tac-toe's table "remembers positions
already solved, also turned or mirrored"), and what decides how much of a game a search visits
is said even where the scene leaves it at its default (:func:`unset_said`), with the order the
domain offers its moves in (:func:`describe_order`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.render.domainterms import SOLVED, term
from searchvid.search.status import Field, format_number

__all__ = [
    "DEPTH_LIMITED",
    "FRAMES_KEY",
    "GOAL_KEY",
    "GOAL_TERM",
    "MOVES_TERM",
    "OutOfReach",
    "describe_goal",
    "describe_order",
    "describe_reach",
    "describe_setting",
    "goal_bound",
    "out_of_reach",
    "unset_said",
]

FRAMES_KEY = "[video] frames"
"""The key under which :func:`describe_setting`'s ``options`` may carry the video's frame
selection (``"all"``, ``"leaves"``, ``"improvements"``, ``"moves"``; absent: ``"all"``):
a phrase about what the video shows of the search (``event_depth``) must hold for the
frames actually drawn. No ``[search]`` option can have this name."""

GOAL_KEY = "[domain] has_goal"
"""The key under which :func:`describe_goal`'s ``options`` carry whether the domain has a
goal (:attr:`~searchvid.Domain.has_goal`; absent: it has one). No ``[search]`` option can
have this name."""

Phrase = Callable[[Any, Mapping[str, Any]], str | None]
"""An option's phrase from its value and the other options set (None: no phrase)."""


def _count(value: Any, one: str, many: str | None = None) -> str:
    """``"1 playout"``, ``"100 playouts"``: a count with its noun."""
    if value == 1:
        return f"1 {one}"
    return f"{format_number(value)} {many if many is not None else one + 's'}"


def _switch(on: str, off: str) -> Phrase:
    """A boolean option's phrase: ``on`` when true, ``off`` when false."""
    return lambda value, _options: on if value else off


def _depth(value: Any, _options: Mapping[str, Any]) -> str:
    return "no depth limit" if value == 0 else f"goes at most {_count(value, 'move')} deep"


def _iterations(value: Any, options: Mapping[str, Any]) -> str:
    playouts = _count(value, "playout")
    return f"{playouts} per move" if options.get("mode") == "plan" else f"{playouts} in all"


def _commit_solution(value: Any, options: Mapping[str, Any]) -> str:
    if value:
        return "plays the first solving playout"
    if options.get("mode") == "plan":  # said by the mode's phrase, with the reason
        return ""
    return "a solving playout is not played"


def _exploration(value: Any, _options: Mapping[str, Any]) -> str:
    return f"exploration {format_number(value)} (lower: sticks to the best moves)"


def _event_depth(value: Any, options: Mapping[str, Any]) -> str:
    # what the video shows of the search depends on the frames it selects: with "moves"
    # or "improvements" no searched position below the root is a frame (IMPROVE is reported
    # at any depth), so "showing the top ply" would promise a picture no frame draws
    frames = options.get(FRAMES_KEY, "all")
    if frames in ("moves", "improvements"):
        return ""
    shown = "the dead ends" if frames == "leaves" else "every position"
    if value == 0:
        return f"showing {shown} searched"
    plies = "the top ply" if value == 1 else f"the top {format_number(value)} plies"
    if frames == "leaves":
        return f"showing the dead ends in {plies} of the search"
    return f"showing {plies} of the search"


def _search_depth(value: Any, _options: Mapping[str, Any]) -> str:
    if value == 0:
        return "searches to the end of the game"
    return f"looks {_count(value, 'move')} ahead"


def _samples(value: Any, _options: Mapping[str, Any]) -> str:
    if value == 0:
        return "weighs every outcome of a roll"
    return f"averages {_count(value, 'sampled outcome')} per roll"


def _repeats(value: Any, _options: Mapping[str, Any]) -> str | None:
    return {
        "allow": "may revisit positions",
        "path": "never repeats a position on its path",
        "never": "never revisits a position",
    }.get(value)


def _opponent(value: Any, _options: Mapping[str, Any]) -> str | None:
    return {
        "mcts": "the opponent searches the same way",
        "random": "the opponent plays at random",
    }.get(value)


def _mode(value: Any, options: Mapping[str, Any]) -> str:
    if value != "plan":
        return "searches once, from the start"
    if options.get("commit_solution") is False:
        # why the strip's "best playout (not played)" can solve the board while the
        # moves played do not follow it
        return "plays the most visited move, not the best playout"
    return "plays the most visited move"


_MCTS: dict[str, Phrase] = {
    "mode": _mode,
    "iterations": _iterations,
    "exploration": _exploration,
    "avoid_cycles": _switch("never revisits a position", "may revisit positions"),
    "filter_moves": _switch("tries only the moves the game deems sensible", "tries every move"),
    "rollout_limit": lambda v, _o: (
        "playouts run to the end" if v == 0 else (f"playouts stop after {_count(v, 'move')}")
    ),
    "opponent": _opponent,
    "max_moves": lambda v, _o: "plays to the end" if v == 0 else f"stops after {_count(v, 'move')}",
    "commit_solution": _commit_solution,
}

_MINIMAX: dict[str, Phrase] = {
    "depth": _search_depth,
    "alpha_beta": _switch(
        "alpha-beta: skips moves that cannot change the result", "no alpha-beta: tries every move"
    ),
    "transposition": _switch(SOLVED, "solves each position anew, even if seen"),
    "play": _switch("then plays the best line", "stops once solved"),
    "event_depth": _event_depth,
    "samples": _samples,
}

_FRONTIER: dict[str, Phrase] = {
    "max_depth": _depth,
    "replay": _switch("then replays the solution found", "does not replay the solution"),
    # an EXPAND frame shows each child as it joins the queue; without it, a node's children
    # appear all at once with its own frame
    "expand_events": _switch("children shown as they are queued", ""),
}

_PHRASES: dict[str, dict[str, Phrase]] = {
    "mcts": _MCTS,
    "minimax": _MINIMAX,
    "breadth-first": _FRONTIER,
    "best-first": _FRONTIER,
    "astar": _FRONTIER,
    "beam": {
        **_FRONTIER,
        "width": lambda v, _o: f"keeps the best {format_number(v)} of each level",
    },
    "backtracking": {
        "max_depth": _depth,
        "repeats": _repeats,
        "stop_at_goal": _switch("stops at the first goal", "goes on past goals"),
    },
    "random-walk": {
        "restarts": lambda v, _o: (
            "one line of random moves from the start"
            if v == 1
            else _count(v, "random walk") + " from the start"
        ),
        "max_depth": lambda v, _o: (
            "walks to a dead end" if v == 0 else (f"each walk at most {_count(v, 'move')}")
        ),
        "avoid_cycles": _switch("a walk never revisits a position", "a walk may revisit positions"),
    },
}
"""The phrases of each shipped algorithm's options, by its registry name."""


_EXHAUSTIVE = frozenset({"backtracking", "breadth-first", "best-first", "astar"})
"""The algorithms that stop only at a goal: with none, they visit every node they can reach
(within ``max_depth``). Beam search drops nodes; random walks and game searches do not
visit every node."""

_ONCE = frozenset({"breadth-first", "best-first", "astar"})
"""Of :data:`_EXHAUSTIVE`, those that never visit a state twice (duplicates by key skipped);
backtracking does so only with ``repeats = "never"``."""


def describe_goal(algorithm: str, options: Mapping[str, Any]) -> str | None:
    """What a search does when the domain has no goal (``options[GOAL_KEY]`` false): ``"no
    goal: visits every node once"`` for an algorithm that stops only at a goal, so the
    reader learns what the search is for; None where the domain has a goal, the algorithm
    does not visit every node, or a goal is not what would stop it (``stop_at_goal =
    false``: the card's setting says so).

    Args:
        algorithm: The algorithm's registry name (``"backtracking"``).
        options: Every option the scene sets, and under :data:`GOAL_KEY` whether the
            domain has a goal.
    """
    if options.get(GOAL_KEY, True) or algorithm not in _EXHAUSTIVE:
        return None
    if options.get("stop_at_goal") is False:
        return None
    once = algorithm in _ONCE or options.get("repeats") == "never"
    depth = options.get("max_depth", 0)
    within = f" within {_count(depth, 'move')} of the start" if depth else ""
    return f"no goal: visits every node{within}{' once' if once else ''}"


def describe_setting(
    algorithm: str, key: str, value: Any, options: Mapping[str, Any], narrator: Any = None
) -> str | None:
    """The reader's phrase for option ``key`` set to ``value`` of ``algorithm`` (its
    registry name): None where there is none (the card then shows ``key value``), ``""``
    where another option's phrase already says it, or where the option changes nothing the
    video shows (the card leaves it off).

    Args:
        algorithm: The algorithm's registry name (``"mcts"``).
        key: The option's name as the scene writes it (``"commit_solution"``).
        value: The option's value as the scene writes it.
        options: Every option the scene sets, for phrases whose meaning depends on
            another (``iterations`` with ``mode = "plan"``), and under :data:`FRAMES_KEY`
            the video's frame selection, for phrases about what the video shows.
        narrator: The domain, whose ``terms`` may restate a phrase (tic-tac-toe's
            :data:`~searchvid.render.domainterms.SOLVED`: its table holds each board once
            for all its turns and mirror images); None: the phrase as is.
    """
    phrase = _PHRASES.get(algorithm, {}).get(key)
    words = phrase(value, options) if phrase is not None else None
    return term(narrator, words) if words else words


_UNSET_SAID: dict[str, tuple[str, ...]] = {"minimax": ("alpha_beta", "transposition")}
"""The options of each algorithm (by registry name) the opening card states even where the
scene leaves them at their default: they decide how much of a game the search visits, so a
reader who counts the nodes needs them (4x4 tic-tac-toe solved in 22,592 nodes is only
believable with alpha-beta and the table of solved positions said)."""


def unset_said(
    algorithm: str, options: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """The options of ``algorithm`` the opening card states although the scene does not set
    them, each with its default (``{"alpha_beta": True, "transposition": True}`` for a
    minimax scene that sets neither), in :data:`_UNSET_SAID`'s order.

    Args:
        algorithm: The algorithm's registry name.
        options: Every option the scene sets.
        defaults: The algorithm's options with their defaults (an option without one is
            left off).
    """
    return {
        key: defaults[key]
        for key in _UNSET_SAID.get(algorithm, ())
        if key not in options and key in defaults
    }


_IN_ORDER = frozenset({"minimax", "backtracking"})
"""The algorithms that try a node's moves one by one in the order the domain gives them, so
that the order decides how much they search (alpha-beta cuts off more where good moves come
first; a depth-first search finds what the first moves lead to first)."""


def describe_order(algorithm: str, narrator: Any) -> str | None:
    """The opening card's words for the order ``algorithm`` tries moves in: the domain's
    ``move_order`` (tic-tac-toe's ``tries winning moves first, then blocks, then cells on
    the most lines``) for an algorithm of :data:`_IN_ORDER`; None where the domain says none
    or the algorithm does not search moves in its order.

    Args:
        algorithm: The algorithm's registry name.
        narrator: The domain, for its optional ``move_order``.
    """
    words = getattr(narrator, "move_order", None)
    if algorithm not in _IN_ORDER or not isinstance(words, str) or not words:
        return None
    return words


GOAL_TERM = "a goal"
"""The cards' phrase for a goal, which a domain may put in its own words (its ``terms``:
Railroad Ink's ``"joining all 12 exits"``)."""

MOVES_TERM = "moves"
"""The cards' word for what a domain's ``goal_moves_bound`` counts, which a domain may put
in its own words (its ``terms``: Railroad Ink's ``"tiles"``, as a move places at most
one)."""

DEPTH_LIMITED = frozenset(
    {"backtracking", "breadth-first", "best-first", "astar", "beam", "random-walk"}
)
"""The shipped algorithms whose ``max_depth`` (when above 0) keeps every position they visit
within that many moves of the start: only of them can the cards say a goal is out of
reach (another algorithm's option of that name may mean something else)."""


@dataclass(frozen=True, slots=True)
class OutOfReach(Field):
    """The opening card's statement that no goal lies within the search's depth limit
    (``joining all 12 exits needs at least 12 tiles: out of reach in 2 moves``), carrying
    what the closing card says of it.

    Attributes:
        closing: The closing card's words (``joining all 12 exits needs at least 12 tiles:
            impossible within 2 moves``).
    """

    closing: str = ""


def goal_bound(domain: Any, start: Any) -> Any:
    """What ``domain``'s optional hook ``goal_moves_bound`` says of ``start`` (None where
    it has none): a proved lower bound on the moves any goal needs from there, or None
    (unknown); unchecked (the scene checks a domain of the user's)."""
    bound_of = getattr(domain, "goal_moves_bound", None)
    return None if bound_of is None else bound_of(start)


def describe_reach(
    algorithm: str,
    options: Mapping[str, Any],
    bound: int | None,
    narrator: Any,
    value: str | None = None,
) -> tuple[Field, ...]:
    """The opening card's words where a goal is out of the search's reach: a depth-limited
    search (``algorithm`` in :data:`DEPTH_LIMITED`, ``max_depth`` above 0 in ``options``)
    from a start from which the domain proves that any goal needs more moves (``bound``,
    its ``goal_moves_bound`` of the start; None: unknown) than the limit allows. Then the
    search cannot find a goal whatever it does, and the reader should know before it looks
    as if it failed: an :class:`OutOfReach` field (``joining all 12 exits needs at least 12
    tiles: out of reach in 2 moves``, in the domain's :data:`GOAL_TERM` and
    :data:`MOVES_TERM` words, ``a goal needs at least 5 moves`` without them) and, where the
    strip shows a value (``value``, its function's name), what the search is for instead
    (``the search keeps the best by closeness to goal``). Nothing otherwise.

    The claim comes from the domain's proof alone, never from the search: a depth-limited
    search that skips positions seen before may miss a goal within its limit.

    Args:
        algorithm: The algorithm's registry name.
        options: Every option the scene sets.
        bound: The domain's lower bound on the moves to a goal from the start.
        narrator: The domain, for its ``terms`` and ``describe_value_function``.
        value: The name of the value function the strip shows (None: none).
    """
    depth = options.get("max_depth", 0)
    if (
        algorithm not in DEPTH_LIMITED
        or bound is None
        or not isinstance(depth, int)
        or isinstance(depth, bool)
        or not 0 < depth < bound
    ):
        return ()
    need = (
        f"{term(narrator, GOAL_TERM)} needs at least {format_number(bound)} "
        f"{term(narrator, MOVES_TERM)}"
    )
    within = _count(depth, "move")
    fields: list[Field] = [
        OutOfReach(
            "", f"{need}: out of reach in {within}", closing=f"{need}: impossible within {within}"
        )
    ]
    if value is not None:
        describe = getattr(narrator, "describe_value_function", None)
        words = describe(value) if describe is not None else None
        name = (
            words[0] if isinstance(words, tuple) and words and isinstance(words[0], str) else value
        )
        fields.append(Field("", f"the search keeps the best by {name}"))
    return tuple(fields)


def out_of_reach(settings: Sequence[Field]) -> Field | None:
    """The closing card's field for an :class:`OutOfReach` among a search's ``settings``
    (the opening card's), None where there is none."""
    for field in settings:
        if isinstance(field, OutOfReach):
            return Field("", field.closing)
    return None
