"""Breaking a strip's texts into lines: at spaces or between phrases, and the parts a text
too long for its lines can lose whole (its asides in brackets, its last comma clauses).

Every function takes the text's width as a ``measure`` (pixels a string takes when set as a
whole), so that the lines are those of the strip's own font.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Measure = Callable[[str], int]
"""Pixels a string takes when set as a whole (kerning included)."""


def wrap_words(text: str, width: int, measure: Measure) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` pixels (a word wider than
    that stays whole, to be cut when drawn). A number stays on the line of the name before
    it (``cut-offs 88``, not ``cut-offs`` then ``88``)."""
    lines: list[str] = []
    words: list[str] = []
    for word in text.split():
        if words and word[0].isdigit() and words[-1][-1].isalpha():
            words[-1] = f"{words[-1]} {word}"
        else:
            words.append(word)
    for word in words:
        if lines and measure(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def wrap_phrases(text: str, width: int, measure: Measure) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels between its phrases (after a
    comma, before a bracket) where that takes no more lines than breaking at any space
    (:func:`wrap_words`), so that a list of settings reads a setting to a line-end
    (``expectimax (looks 2 moves ahead, value: scaled score,`` then ``averages 3 sampled
    outcomes per roll)``) rather than one split in two; at spaces otherwise."""
    plain = wrap_words(text, width, measure)
    if len(plain) <= 1:
        return plain
    lines: list[str] = []
    for phrase in _phrases(text):
        if lines and measure(f"{lines[-1]} {phrase}") <= width:
            lines[-1] = f"{lines[-1]} {phrase}"
        elif measure(phrase) <= width:
            lines.append(phrase)
        else:  # a phrase wider than a line: its words fill the current line, then more
            rest = f"{lines.pop()} {phrase}" if lines else phrase
            lines.extend(wrap_words(rest, width, measure))
    return lines if len(lines) <= len(plain) else plain


def _phrases(text: str) -> list[str]:
    """``text``'s phrases, in order, joined by single spaces: each ends at a ``", "`` (its
    comma kept) or where a bracket opens after a space."""
    phrases: list[str] = []
    start = 0
    for at, char in enumerate(text):
        if char == "," and text[at + 1 : at + 2] == " ":
            phrases.append(text[start : at + 1])
            start = at + 2
        elif char == "(" and at > start and text[at - 1] == " ":
            phrases.append(text[start : at - 1])
            start = at
    phrases.append(text[start:])
    return [phrase for phrase in phrases if phrase]


def shortened(text: str, width: int, measure: Measure, lines: int = 1) -> str:
    """``text`` without its asides, where it takes more than ``lines`` lines of ``width``
    pixels (:func:`wrap_phrases`; one line: wider than ``width``): the parenthesised parts
    (a closing caption's settings, which the opening card states), last first, until it
    fits; then its last comma-separated parts outside brackets (``MCTS, 800 playouts per
    move, exploration 0.2``: the settings listed after the algorithm's name, where they
    hold brackets of their own), last first, down to the first, so that a whole phrase goes
    rather than a word cut in two."""

    def fits(candidate: str) -> bool:
        if lines <= 1:
            return measure(candidate) <= width
        return len(wrap_phrases(candidate, width, measure)) <= lines

    while not fits(text):
        aside = last_aside(text) or last_clause(text)
        if aside is None:
            break
        text = text[: aside[0]] + text[aside[1] :]
    return text


def last_aside(text: str) -> tuple[int, int] | None:
    """Where the last parenthesised part of ``text`` stands, with the space before it:
    ``(start, end)`` to cut out (nested parentheses kept whole); None where there is none
    or its parentheses do not match."""
    end = text.rfind(")")
    depth = 0
    for at in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(text[at], 0)
        if depth == 0:
            start = at - 1 if at > 0 and text[at - 1] == " " else at
            return start, end + 1
    return None


def last_clause(text: str) -> tuple[int, int] | None:
    """Where the last comma-separated part of ``text`` outside brackets stands, with the
    ``", "`` before it: ``(start, end)`` to cut out; None where there is no such comma."""
    depth = 0
    for at in range(len(text) - 1, 0, -1):
        depth += {")": 1, "(": -1}.get(text[at], 0)
        if depth == 0 and text[at : at + 2] == ", ":
            return at, len(text)
    return None


def greedy(slots: Sequence[int], measure: int, gap: int) -> list[list[int]]:
    """Indices of ``slots`` per line, each line filled while the next slot fits ``measure``
    (a slot wider than ``measure`` gets a line of its own)."""
    rows: list[list[int]] = []
    used = 0
    for i, slot in enumerate(slots):
        if rows and used + gap + slot <= measure:
            rows[-1].append(i)
            used += gap + slot
        else:
            rows.append([i])
            used = slot
    return rows
