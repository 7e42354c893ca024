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

KEPT_VISITS = "(some from earlier moves)"
"""Said after the most visited move's visits when they outnumber the iterations run for the
current move: a field of its own, so a narrow strip wraps it instead of cutting it."""


def kept_visits(fields: Sequence[Field], notes: bool = True) -> Sequence[Field]:
    """``fields``, with an iteration block's ``visits`` named for the move they count and
    explained where they outnumber the iterations run so far for the current move:
    ``most visited move 491 visits``, then ``(some from earlier moves)``.

    A search that thinks in iterations (``iterations 120/300``, ``iteration 121/300``:
    MCTS) shows the ``visits`` of its leading move, the one with the most visits at the
    block's root; a heat map beside it sums the visits of all moves on a cell, so the
    strip names whose count it is. A search that keeps its tree after committing a move
    (MCTS in plan mode) starts the next move with the visits the kept subtree already had,
    so 491 visits can stand beside ``iterations 300/300``; each iteration adds at most one
    visit to a node, so visits above the iterations counted (``iterations 300``, or
    ``iteration 121`` with 120 done) can only come from earlier moves' iterations. Fields
    of other searches (no iteration count out of a total) and other fields are unchanged.
    Without ``notes`` (a race's narrow column) the explanation is left out.
    """
    done: int | None = None
    for field in fields:
        if isinstance(field.value, int) and field.of is not None:
            if field.name == "iterations":
                done = field.value
            elif field.name == "iteration":
                done = field.value - 1  # the one under way has not backed up yet
    if done is None:
        return fields
    shown: list[Field] = []
    for field in fields:
        value = field.value
        if field.name != "visits" or field.unit or not isinstance(value, int | None):
            shown.append(field)
            continue
        unit = "visit" if value == 1 else "visits"
        shown.append(Field(LEADER, value, unit=unit if value is not None else ""))
        if notes and value is not None and value > done:
            shown.append(Field("", KEPT_VISITS))
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
