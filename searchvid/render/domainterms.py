"""The strip's generic phrases in a domain's own words, and the counts a last frame's
phase already states.

A domain may give a ``terms`` mapping, phrase to its words, for the phrases of
:data:`TERMS` (the tree domain's ``{"the start position": "the root", "dead end": "leaf",
"fewest moves possible": "no shallower goal"}``; tic-tac-toe's :data:`SOLVED` says its
positions turned or mirrored are remembered too); a phrase it leaves out stays as is
(:func:`term`). Domain-free: the narration asks, the domain answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from searchvid.search.status import Field, format_number

__all__ = ["DEAD_END", "SHORTEST", "SOLVED", "START", "TERMS", "says_depth", "term", "unstated"]

START = "the start position"
"""The opening card's caption over the search's first node."""
DEAD_END = "dead end"
"""A caption's word for a node with no moves out (a ``LEAF``)."""
SHORTEST = "fewest moves possible"
"""Breadth-first's closing word on a goal it found level by level."""
SOLVED = "remembers positions already solved"
"""The opening card's phrase for a game search's table of positions it has solved (minimax's
``transposition``): a domain whose positions share an entry with others (tic-tac-toe's
boards turned or mirrored) says so in its words for it."""
TERMS = (START, DEAD_END, SHORTEST, SOLVED)
"""The strip's generic phrases a domain may put in its own words (its ``terms``)."""

_DEPTHS = frozenset({"depth", "level"})
"""Names of fields that count the levels below the start: the strip's own ``depth`` and a
level-by-level search's ``level``."""


def term(narrator: Any, phrase: str) -> str:
    """``phrase`` (one of :data:`TERMS`) in the words of ``narrator`` (a domain) where its
    ``terms`` give some (a tree's ``"the root"`` for ``"the start position"``), else as
    is."""
    terms = getattr(narrator, "terms", None)
    own = terms.get(phrase) if isinstance(terms, Mapping) else None
    return own if isinstance(own, str) and own else phrase


def unstated(shown: Sequence[Field], phase: str) -> list[Field]:
    """``shown`` without what the last frame's ``phase`` already states: the depth counts
    (``depth``, ``level``; ``found Minimax at depth 2`` then ``depth 2`` and ``level 2`` says
    one number three times), and an unnamed word the phase contains (``game over`` under
    ``game over: 37 points``)."""
    return [
        f
        for f in shown
        if not (f.name in _DEPTHS and isinstance(f.value, int) and says_depth(phase, f.value))
        and not (not f.name and isinstance(f.value, str) and f.value and f.value in phase)
    ]


def says_depth(phase: str, depth: int) -> bool:
    """Whether ``phase`` states ``depth N`` as a whole number (``depth 2``, not ``depth
    25`` nor ``depth 2,048``)."""
    said = f"depth {format_number(depth)}"
    at = phase.find(said)
    while at >= 0:
        after = phase[at + len(said) : at + len(said) + 2]
        # "depth 1" in "depth 12" or "depth 1,204" is another number
        if not after[:1].isdigit() and not (after[:1] == "," and after[1:].isdigit()):
            return True
        at = phase.find(said, at + 1)
    return False
