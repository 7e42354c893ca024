"""A second search the closing card compares with (the scene's ``[compare]`` table).

A video of one search ends on its own result ("solved in 49 pours"), which says nothing of
how good that is. A scene may name another search, an A* say, to run once from the same
start; the closing card then states what that search found and what it cost, in the
domain's own words: ``A*: solved in 39 pours after 103 expansions``. Nothing is written per
scene: the words come from the comparison's own run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from searchvid.render.voice import Narrator
from searchvid.search.algorithm import Algorithm
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field, format_number


@dataclass(frozen=True)
class Found:
    """What a comparison search found, as its run ended.

    Attributes:
        node: Its result: the first goal it reached, else its latest best (None: neither).
        value: The result's value where the search reported one.
        work: The units of work its whole run did (its algorithm's ``work_kinds``).
        unit: The name of a unit of work, singular and plural.
        complete: Whether it ran to its end (False: cut by its work or event budget).
    """

    node: Any
    value: float | None
    work: int
    unit: tuple[str, str]
    complete: bool


@dataclass(eq=False)
class Comparison:
    """The search a closing card compares with: run once, when first asked.

    Args:
        name: The algorithm as readers name it ("A*").
        events: Starts the seeded search from the scene's start; the stream may answer
            ``work_kinds``, ``work_unit`` and ``budget_spent`` (a scene's traversals do).
        goal: The domain's goal test (None: the domain has no goal; the best is kept).
        narrator: The domain's words for the result (None: numbers only).
        max_events: The most events read: the comparison is bounded like the search.
    """

    name: str
    events: Callable[[], Iterable[Event]]
    goal: Callable[[Any], bool] | None
    narrator: Narrator | None
    max_events: int
    _found: Found | None = field(default=None, init=False, repr=False)

    def found(self) -> Found:
        """Run the search (the first time only) and return what it found."""
        if self._found is None:
            self._found = self._run()
        return self._found

    def fields(self) -> tuple[Field, ...]:
        """The closing card's words: ``A*: solved in 39 pours after 103 expansions``, or
        ``A*: stopped after 5,000 expansions`` when it was cut short before a result."""
        return (Field(f"{self.name}:", self.words()),)

    def words(self) -> str:
        """What the comparison found and its cost, without its name: its goal or, when it ran
        to its end without one, its best; only its cost when it was cut short first."""
        found = self.found()
        work = found.unit[0] if found.work == 1 else found.unit[1]
        cost = f"{format_number(found.work)} {work}"
        reached = found.node is not None and self.goal is not None and self.goal(found.node)
        if not found.complete and not reached:  # a best so far is no result of the search
            return f"stopped after {cost}"
        result = self._result(found)
        return f"{result} after {cost}" if result is not None else f"nothing found in {cost}"

    def _result(self, found: Found) -> str | None:
        """The result in the domain's words (``solved in 39 pours``), else its value."""
        if found.node is None:
            return None
        narrator = self.narrator
        words = narrator.describe_end(found.node) if narrator is not None else None
        if words:
            return words
        if found.value is None:
            return None
        named = narrator.describe_value(found.value) if narrator is not None else None
        return f"best {named or format_number(found.value)}"

    def _run(self) -> Found:
        stream = self.events()
        kinds: frozenset[EventKind] = getattr(stream, "work_kinds", Algorithm.work_kinds)
        unit: tuple[str, str] = getattr(stream, "work_unit", Algorithm.work_unit)
        goal, work, read = self.goal, 0, 0
        best: tuple[Any, float | None] | None = None
        reached: Any = None
        for event in stream:
            read += 1
            kind = event.kind
            if kind in kinds:
                work += 1
            if kind is EventKind.IMPROVE:
                best = (event.node, event.value)
            elif reached is None and goal is not None and kind.shows_state and goal(event.node):
                reached = event.node
            if read >= self.max_events:
                break
        complete = read < self.max_events and not getattr(stream, "budget_spent", False)
        if reached is not None:
            value = best[1] if best is not None and best[0] is reached else None
            return Found(reached, value, work, unit, complete)
        node, value = best if best is not None else (None, None)
        return Found(node, value, work, unit, complete)
