"""The node contract: what a search algorithm may ask of a state.

A node is an immutable, hashable state with ``children()``. Everything else is an optional
capability that a domain *declares* on its node class::

    class Board:
        CAPABILITIES = frozenset({Capability.TERMINAL, Capability.KEY})

Algorithms state what they need (:attr:`Algorithm.requires`) and call :func:`require` before
they start, so a domain lacking a capability fails at once with a message that names it.

Conventions for the capabilities:

- ``is_terminal() -> bool``: the game is over. Without this capability, a node with no
  children is terminal.
- ``to_move -> int``: the player to move, 0 (first player) or 1; two-player games only.
- ``reward() -> float``: at terminal nodes, the outcome in [0, 1] **for player 0** (1 win,
  0.5 draw, 0 loss); one-player domains give their own reward in [0, 1] (1 = solved).
- ``key() -> Hashable``: a transposition key; equal keys mean interchangeable states (for
  example Water Sort states that differ only in tube order).
- ``filtered_children() -> Sequence[node]``: the subset of children an agent should consider
  (e.g. Quarto's "take a win at once, never hand over a winning piece"); never empty when
  ``children()`` is not.
- ``random_child(rng) -> node | None``: one child drawn uniformly at random with
  ``rng: random.Random``, or None when there is none, without building every child (rollouts
  and random walks on boards with hundreds of moves). It must draw the same child as
  ``rng.choice(list(children()))`` would only if the domain says so; what matters is that it
  is uniform and deterministic for a given rng state. On a chance node the helper
  :func:`random_child` draws with the outcome probabilities (``sample_outcome``) instead; a
  node with both capabilities should make its own ``random_child`` do the same there.
- ``is_chance() -> bool``, ``outcomes() -> Sequence[tuple[float, node]]`` and
  ``sample_outcome(rng) -> node``: chance (dice, shuffles). At a chance node nature, not a
  player, picks the child: ``outcomes()`` lists ``(probability, outcome)`` pairs in a
  deterministic order, each outcome once (equal outcomes merged), every probability > 0 and
  their sum 1 within 1e-9; ``children()`` of a chance node lists exactly those outcome nodes,
  in the same order. ``sample_outcome(rng)`` draws one outcome with those probabilities,
  deterministic for a given rng state and cheap (without building every outcome where
  possible). A chance node is never terminal; ``is_chance()`` is False at decision nodes,
  where ``outcomes()`` and ``sample_outcome`` are not called.
"""

from __future__ import annotations

import enum
import itertools
import random
import types
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Protocol, Self, runtime_checkable

from searchvid.errors import CapabilityError, UserCodeError
from searchvid.usercode import method_location, shown


class Capability(enum.Enum):
    """Optional node capabilities beyond ``children()``."""

    TERMINAL = "is_terminal"
    TO_MOVE = "to_move"
    REWARD = "reward"
    KEY = "key"
    FILTERED_CHILDREN = "filtered_children"
    RANDOM_CHILD = "random_child"
    CHANCE = "is_chance"

    @property
    def description(self) -> str:
        """What the capability means, for error messages."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Capability.TERMINAL: "is_terminal() (knows when the game is over)",
    Capability.TO_MOVE: "to_move (a two-player turn order)",
    Capability.REWARD: "reward() (a terminal outcome in [0, 1])",
    Capability.KEY: "key() (a transposition key)",
    Capability.FILTERED_CHILDREN: "filtered_children() (tactical move filtering)",
    Capability.RANDOM_CHILD: "random_child(rng) (draws one child without listing all)",
    Capability.CHANCE: (
        "is_chance(), outcomes() and sample_outcome(rng) (chance nodes: outcomes with "
        "probabilities)"
    ),
}


@runtime_checkable
class Node(Protocol):
    """An immutable, hashable search state."""

    def __hash__(self) -> int: ...

    def children(self) -> Iterable[Self]:
        """The states reachable in one move, in a deterministic order."""
        ...


class TerminalNode(Node, Protocol):
    """A node that knows when the game is over."""

    def is_terminal(self) -> bool: ...


class RewardNode(TerminalNode, Protocol):
    """A node with a terminal outcome in [0, 1] (for player 0 in two-player games)."""

    def reward(self) -> float: ...


class TwoPlayerNode(RewardNode, Protocol):
    """A node of a two-player, zero-sum game."""

    @property
    def to_move(self) -> int: ...


class KeyedNode(Node, Protocol):
    """A node with a transposition key."""

    def key(self) -> Hashable: ...


class FilteredNode(Node, Protocol):
    """A node that can narrow its children to the tactically sensible ones."""

    def filtered_children(self) -> Sequence[Self]: ...


class RandomChildNode(Node, Protocol):
    """A node that can draw one random child cheaply."""

    def random_child(self, rng: random.Random) -> Self | None: ...


class ChanceNode(Node, Protocol):
    """A node of a game with chance: some nodes are nature's, which picks an outcome."""

    def is_chance(self) -> bool:
        """Whether nature, not a player, picks this node's child."""
        ...

    def outcomes(self) -> Sequence[tuple[float, Self]]:
        """``(probability, outcome)`` pairs of a chance node, in a deterministic order."""
        ...

    def sample_outcome(self, rng: random.Random) -> Self:
        """One outcome of a chance node drawn with its probability."""
        ...


def capabilities_of(node: object) -> frozenset[Capability]:
    """The capabilities a node's class declares in ``CAPABILITIES``."""
    declared: frozenset[Capability] = getattr(type(node), "CAPABILITIES", frozenset())
    return frozenset(declared)


def require(node: object, needed: Iterable[Capability], *, algorithm: str) -> None:
    """Fail at once when ``node`` lacks a capability ``algorithm`` needs.

    Raises:
        CapabilityError: Naming the algorithm, the node type and the missing capability.
    """
    missing = [c for c in needed if c not in capabilities_of(node)]
    if missing:
        what = "; ".join(c.description for c in missing)
        kind = type(node).__name__
        raise CapabilityError(f"algorithm '{algorithm}' needs {what}, which {kind} lacks")


PLAIN_CHILDREN = frozenset(
    {list, tuple, types.GeneratorType, map, filter, itertools.chain, itertools.islice}
)
"""What ``children()`` returns in practice: passed after one set lookup. A search's hot loop
may call ``children()`` itself, pass an answer of one of these types and give any other to
:func:`checked_children` (what :func:`children_of` does, without its call)."""


def children_of(node: Any) -> Iterable[Any]:
    """``node.children()``, refused when it is not an iterable of nodes.

    Searches call this rather than ``children()`` itself, so a domain's ``children()`` that
    returns None (a forgotten ``return``), a number or a string fails at once, naming the
    method, instead of deep inside an algorithm. The common answers (a list, a tuple, a
    generator) cost one set lookup.

    Raises:
        UserCodeError: ``game.py:14 in Board.children(): returned None, not an iterable of
            nodes``; its ``node`` is ``node``.
    """
    found = node.children()
    if type(found) in PLAIN_CHILDREN:
        return found  # type: ignore[no-any-return]
    return checked_children(node, found)


def checked_children(node: Any, found: Any) -> Iterable[Any]:
    """``found``, what ``node.children()`` returned, refused unless an iterable of nodes.

    Raises:
        UserCodeError: As :func:`children_of`.
    """
    problem = children_problem(found)
    if problem is not None:
        raise UserCodeError(str(method_location(node, "children")), problem, node=node)
    return found  # type: ignore[no-any-return]


def children_problem(found: Any) -> str | None:
    """What is wrong with ``found`` as the answer of ``children()``, or None when it is an
    iterable (a string is not: its letters are no nodes)."""
    if not isinstance(found, str | bytes):
        try:
            iter(found)
        except TypeError:
            pass
        else:
            return None
    return (
        f"returned {shown(found)}, not an iterable of nodes: return a list or a tuple, or "
        "yield the children"
    )


def check_node(node: Any) -> None:
    """Refuse a node that searches cannot keep in a set or compare.

    Run once on a root of the user's before any search starts, so that an ``__eq__`` or
    ``__hash__`` that raises fails here, with its own line, rather than in the middle of a
    search, or never (in a search that happens not to compare nodes).

    Raises:
        UserCodeError: The node's class is not hashable.
        Exception: What the node's ``__hash__`` or ``__eq__`` raised.
    """
    if type(node).__hash__ is None:
        raise UserCodeError(
            str(method_location(node, "__hash__")),
            f"{type(node).__qualname__} nodes are not hashable: make the node a frozen "
            "dataclass, or define __eq__ and __hash__ on its state",
        )
    hash(node)
    node == node  # noqa: B015 - called for what it raises; whether True is `check`'s matter


def is_terminal(node: Any) -> bool:
    """Whether ``node`` is terminal: ``is_terminal()`` where declared, else no children."""
    if Capability.TERMINAL in capabilities_of(node):
        return bool(node.is_terminal())
    return next(iter(children_of(node)), None) is None


def random_child(node: Any, rng: random.Random) -> Any:
    """One child of ``node`` drawn with ``rng``, or None when it has none.

    At a chance node (see :func:`is_chance`) the outcome is drawn with its probability by the
    node's ``sample_outcome``. Elsewhere the child is drawn uniformly: by the node's
    ``random_child`` where declared, else from the listed children.
    """
    declared = capabilities_of(node)
    if Capability.CHANCE in declared and node.is_chance():
        return node.sample_outcome(rng)
    if Capability.RANDOM_CHILD in declared:
        return node.random_child(rng)
    kids = list(children_of(node))
    return rng.choice(kids) if kids else None


def is_chance(node: Any) -> bool:
    """Whether ``node`` is a chance node: it declares :attr:`Capability.CHANCE` and is one."""
    return Capability.CHANCE in capabilities_of(node) and bool(node.is_chance())


def outcomes(node: Any) -> list[tuple[float, Any]]:
    """The ``(probability, outcome)`` pairs of chance node ``node``, in the node's order.

    Raises:
        ValueError: ``node`` is not a chance node.
    """
    if not is_chance(node):
        raise ValueError(f"{type(node).__name__} node is not a chance node")
    return [(float(p), outcome) for p, outcome in node.outcomes()]


def sample_outcome(node: Any, rng: random.Random) -> Any:
    """One outcome of chance node ``node`` drawn with its probability using ``rng``.

    Raises:
        ValueError: ``node`` is not a chance node.
    """
    if not is_chance(node):
        raise ValueError(f"{type(node).__name__} node is not a chance node")
    return node.sample_outcome(rng)


def key_of(node: Any) -> Hashable:
    """The transposition key of ``node``: ``key()`` where declared, else the node itself."""
    if Capability.KEY in capabilities_of(node):
        return node.key()  # type: ignore[no-any-return]
    return node  # type: ignore[no-any-return]
