"""Names the status strip gives to fields whose bare names would mislead a reader: the
leading move's visits, visits kept from earlier moves, whose a win rate is, a best board's
step, and a frontier search's progress counters (split from
:mod:`searchvid.render.narration`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from searchvid.search.status import Field

SEARCH_COUNTERS = frozenset({"frontier", "level", "kept"})
"""Fields of a frontier search's progress (``frontier 124``, beam's ``level 23`` and ``kept
6/6``): on the frames of a found solution played out they would describe where the search
ended, not the board shown, so those frames leave them out."""

WORK = "work"
"""The name of a search's work in its own unit (``work 1,204 expansions``), on cards, race
stamps and the frames of a frontier search alone; a strip that shows it shows no step count
beside it."""

FOUND_AT = "found at step"
"""What the closing card calls the step of the best board it shows: the step it was found
at, before the search's last (``found at step 1,348`` after frames up to step 28,018)."""

LEADER = "most visited move"
"""What the strip calls an iteration block's ``visits``: they are the leading move's (a
board's heat map writes a cell's sum over its moves, which would else read as the same
count)."""

SEARCHED = "searched position"
"""What the strip calls the own value of a board the search looked at ahead of a game played
move by move (``searched position: X wins``, ``searched position: undecided``): not the
game's position, whose result may differ."""

KEPT_VISITS = "(+{:,} from earlier moves)"
"""Said after the iterations of the current move (format with the count) where the search
began it with visits kept from earlier moves: a field of its own, so a narrow strip wraps it
instead of cutting it."""

EARLIER = "earlier visits"
"""The field in which a search that keeps its tree reports the visits the position it decides
from already had when it began the move (MCTS in plan mode: iterations of earlier moves that
passed through it; absent when none were kept)."""


def kept_visits(fields: Sequence[Field], notes: bool = True) -> Sequence[Field]:
    """``fields``, with an iteration block's ``visits`` named for the move they count, and
    the visits kept from earlier moves said after the iterations:
    ``iterations 800/800``, ``(+209 from earlier moves)``, ``most visited move 610 visits``.

    A search that thinks in iterations (``iterations 120/300``, ``iteration 121/300``:
    MCTS) shows the ``visits`` of its leading move, the one with the most visits at the
    block's root; a heat map beside it sums the visits of all moves on a cell, so the
    strip names whose count it is. A search that keeps its tree after committing a move
    (MCTS in plan mode) starts the next move with the visits the kept subtree already had,
    so 491 visits can stand beside ``iterations 300/300``, and the counts of its moves (a
    heat map's cells, a tree panel's root) add up to more than the iterations: the search
    reports those kept visits (:data:`EARLIER`, only where some were kept), and the strip
    adds them to the iterations in so many words (``800`` and ``209``: the position's 1,009
    visits). Fields of other searches
    (no iteration count out of a total) and other fields are unchanged. Without ``notes`` (a
    race's narrow column) the kept visits are left out.
    """
    counted = any(
        isinstance(f.value, int) and f.of is not None and f.name in ("iterations", "iteration")
        for f in fields
    )
    if not counted:
        return fields
    kept = next((f.value for f in fields if f.name == EARLIER and isinstance(f.value, int)), 0)
    shown: list[Field] = []
    for field in fields:
        value = field.value
        if field.name == EARLIER:
            continue
        if field.name in ("iterations", "iteration") and field.of is not None:
            shown.append(field)
            if notes and kept:
                shown.append(Field("", KEPT_VISITS.format(kept)))
            continue
        if field.name != "visits" or field.unit or not isinstance(value, int | None):
            shown.append(field)
            continue
        unit = "visit" if value == 1 else "visits"
        shown.append(Field(LEADER, value, unit=unit if value is not None else ""))
    return tuple(shown)


def named_win_rate(
    fields: Sequence[Field], describe_value: Callable[[float], str | None] | None
) -> Sequence[Field]:
    """``fields`` with a two-player search's ``win rate`` named for the player it belongs
    to, in the domain's words for its values (``describe_value``: the words before `` wins``
    of value 1, ``first player's win rate 51%``, ``X's win rate 60%``), and how a draw
    counts (``(draw = half)``). The search gives the first player's rate (player 0's, on the
    scale of the game's values) on every frame, whoever moves, so it is shown as is: one
    player's rate throughout does not swap sides from move to move. Without such words
    (None, or no `` wins``) the fields are unchanged."""
    if describe_value is None or not any(f.name == "win rate" for f in fields):
        return fields
    words = describe_value(1.0)
    if not isinstance(words, str) or not words.endswith(" wins"):
        return fields
    name = f"{words.removesuffix(' wins')}'s win rate"
    half = describe_value(0.5)
    # the mean reward counts a draw as half a win: "win rate 50%" after draws only reads
    # as false unless the strip says how a draw counts
    note = f"({half} = half)" if isinstance(half, str) and not half.endswith(" wins") else ""
    return [
        replace(f, name=name, unit=note if f.value is not None else f.unit)
        if f.name == "win rate"
        else f
        for f in fields
    ]


ALL_SEARCHES = "in all searches:"
"""What the strip calls the run's node counters on the frames of a game played move by move
(``in all searches: nodes searched 91, transpositions 0, cut-offs 32``): each move played
is searched again, unseen, so they count every search so far, not the tree on screen."""

RUN_COUNTERS = ("nodes searched", "transpositions", "cut-offs")
"""Counters a game-tree search keeps over all its searches (minimax's), in its order."""


def all_searches(fields: Sequence[Field]) -> Sequence[Field]:
    """``fields`` with the run's counters (:data:`RUN_COUNTERS`) said as one text where
    the first stood, under :data:`ALL_SEARCHES`, so that a reader does not take them for
    the counts of the tree on screen. A count of a part of a counter that follows it (a
    whole number in a phrase: ``40 before the first move``, ``of them in the top 3 plies:
    84``) goes in brackets after it. Without such counters
    the fields are unchanged."""
    at = [i for i, f in enumerate(fields) if f.name in RUN_COUNTERS and isinstance(f.value, int)]
    if not at:
        return fields
    parts: list[str] = []
    grouped: set[int] = set()
    for i in at:
        text = fields[i].text()
        following = fields[i + 1] if i + 1 < len(fields) else None
        if following is not None and i + 1 not in at and _part_count(following):
            text += f" ({following.text()})"
            grouped.add(i + 1)
        parts.append(text)
        grouped.add(i)
    group = Field(ALL_SEARCHES, ", ".join(parts))
    shown = [
        group if i == at[0] else f for i, f in enumerate(fields) if i == at[0] or i not in grouped
    ]
    return tuple(shown)


def _part_count(field: Field) -> bool:
    """Whether ``field`` counts a part of the counter before it: a whole number in a
    phrase (``40 before the first move``, ``of them in the top 3 plies: 84``), not another
    quantity (``alpha 1``)."""
    value = field.value
    worded = field.prefix or field.name.endswith(":")  # a phrase, not a quantity's name
    plain = field.of is None and not field.unit and not field.percent
    return worded and plain and isinstance(value, int) and not isinstance(value, bool)
