"""The ``watersort`` domain: pour coloured liquid between tubes until each holds one colour."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.domains.base import Domain
from searchvid.domains.watersort.rules import (
    MAX_COLOUR,
    ProgressValue,
    RunsHeuristic,
    SpreadHeuristic,
    WaterState,
    sorted_fraction,
)
from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.render.view import View
from searchvid.search.status import Field
from searchvid.search.values import Heuristic, ValueFunction

SEED_TUBES: tuple[tuple[int, ...], ...] = (
    (),
    (),
    (4, 3, 2, 1),
    (2, 6, 1, 5),
    (1, 8, 6, 7),
    (4, 9, 2, 7),
    (10, 5, 3, 4),
    (10, 7, 4, 10),
    (9, 8, 11, 3),
    (5, 12, 3, 9),
    (11, 6, 5, 12),
    (12, 11, 2, 6),
    (10, 9, 12, 1),
    (11, 8, 8, 7),
)
"""Seed 004's 14-tube, 12-colour puzzle (optimal solution: 39 pours)."""


@dataclass(frozen=True, kw_only=True)
class WaterSortOptions:
    """Options of the ``watersort`` domain."""

    tubes: tuple[tuple[int, ...], ...] = option(
        SEED_TUBES,
        doc="The tubes, each a list of colour ids (1..16) from the bottom up; [] is empty.",
    )
    capacity: int = option(4, doc="Cells per tube.", minimum=1, maximum=16)

    def __post_init__(self) -> None:
        if not self.tubes:
            raise OptionError("tubes", "needs at least one tube")
        for index, tube in enumerate(self.tubes):
            if len(tube) > self.capacity:
                raise OptionError(
                    f"tubes[{index}]",
                    f"tube {index} holds {len(tube)} cells, more than the capacity {self.capacity}",
                )
            for colour in tube:
                if not 1 <= colour <= MAX_COLOUR:
                    raise OptionError(
                        f"tubes[{index}]",
                        f"colour {colour} in tube {index} is out of range 1..{MAX_COLOUR}",
                    )
        counts = Counter(colour for tube in self.tubes for colour in tube)
        for colour in sorted(counts):
            if counts[colour] != self.capacity:
                raise OptionError(
                    "tubes",
                    f"colour {colour} appears {counts[colour]} times; every colour must "
                    f"appear exactly capacity = {self.capacity} times",
                )


RUNS_WORDS = (
    "pours still needed (at least)",
    "one per colour run past the first, one per colour on no tube's bottom",
)
"""The ``runs`` heuristic in a reader's words: what it estimates, and how it counts."""

SPREAD_WORDS = (
    "pours still needed (a lower guess)",
    "one per tube a colour lies in, past the first",
)
"""The ``spread`` heuristic in a reader's words (weaker than ``runs``)."""


class WaterSortDomain(Domain):
    """Water Sort (seed 004): by default the seed's 14-tube puzzle.

    Heuristics: ``runs`` (admissible and consistent; exact on the seed puzzle's root) and
    ``spread`` (admissible, weaker). Value functions in [0, 1]: ``progress`` (1 - runs / max)
    and ``sorted`` (fraction of colours sorted into their own tube).
    """

    name = "watersort"
    aliases = ("water-sort",)
    summary = "Water Sort: pour coloured liquid until every tube holds one colour."
    options_type = WaterSortOptions
    has_goal = True
    default_value = "progress"
    default_heuristic = "runs"
    move_count = "pours"  # a state carries its pours from the start: its depth

    def __init__(self, options: WaterSortOptions) -> None:
        super().__init__(options)
        self.colours = len({c for tube in options.tubes for c in tube})

    def root(self) -> WaterState:
        return WaterState.from_lists(self.options.tubes, self.options.capacity)

    def view(self) -> View:
        from searchvid.domains.watersort.view import WaterSortView

        return WaterSortView(len(self.options.tubes), self.options.capacity)

    def label(self, node: Any) -> str:
        pours = "1 pour" if node.pours == 1 else f"{node.pours} pours"
        return f"{pours}, {node.sorted_tubes()}/{self.colours} tubes sorted"

    def values(self) -> Mapping[str, ValueFunction]:
        return {"progress": ProgressValue(), "sorted": sorted_fraction}

    def heuristics(self) -> Mapping[str, Heuristic]:
        return {"runs": RunsHeuristic(), "spread": SpreadHeuristic()}

    def is_goal(self, node: Any) -> bool:
        return bool(node.is_solved())

    def status(self, node: Any) -> Sequence[Field]:
        """``pours 12`` (pours from the start to this state, which the state carries) and
        ``tubes done 5/12`` (tubes full of one colour, of one per colour)."""
        return (
            Field("pours", node.pours),
            Field("tubes done", node.sorted_tubes(), of=self.colours),
        )

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """``"pour tube 3 into tube 7"``: tubes numbered from 1, left to right as drawn.

        States keep their tubes in the order the view draws them (only :meth:`WaterState.key`
        sorts them), so the numbers are the columns on screen. None when ``child`` is not
        ``parent`` after the pour it records.
        """
        pour = child.pour
        if pour is None or not parent.is_legal(pour) or parent.after(pour).tubes != child.tubes:
            return None
        source, target = pour
        return f"pour tube {source + 1} into tube {target + 1}"

    def describe_value(self, value: float) -> str | None:
        """``"solved"`` for 1.0, else None (the number is shown).

        1.0 means solved under every value function offered (``progress``, ``sorted`` and the
        generic ``reward``); other numbers mean different things under each (``progress``
        0.75 and ``sorted`` 0.75 are not the same state), so they are left as numbers.
        """
        return "solved" if value == 1.0 else None

    def describe_value_function(self, name: str) -> tuple[str, str] | None:
        """What the strip calls value function or heuristic ``name`` and what it measures,
        in words a reader can check on the board: ``progress`` is ``("closeness to goal",
        "1 - pours still needed (at least) / 48 (its most: 12 colours x 4)")`` (the ``runs``
        estimate of the pours left, over its largest possible value: colours x capacity;
        both asides in brackets, so that a narrow strip that drops them keeps a whole
        sentence, not "/ 48, its most"),
        ``sorted`` is ``("share of tubes sorted", "tubes of one colour / 12")``; the
        heuristics are estimates of the pours left that never overestimate: ``runs`` is
        ``("pours still needed (at least)", ...)``, ``spread`` a weaker one. None for
        others."""
        if name == "progress":
            colours, capacity = self.colours, self.options.capacity
            return "closeness to goal", (
                f"1 - pours still needed (at least) / {colours * capacity} "
                f"(its most: {colours} colours x {capacity})"
            )
        if name == "sorted":
            return "share of tubes sorted", f"tubes of one colour / {self.colours}"
        if name == "runs":
            return RUNS_WORDS
        if name == "spread":
            return SPREAD_WORDS
        return None

    def describe_problem(self, node: Any) -> str | None:
        """``"14 tubes of 4, 12 colours: sort each colour into a tube of its own"``."""
        colours = len({c for tube in node.tubes for c in tube})
        return (
            f"{len(node.tubes)} tubes of {node.capacity}, {colours} colours: "
            "sort each colour into a tube of its own"
        )

    def describe_end(self, node: Any) -> str | None:
        """``"solved in 39 pours"``, or ``"stuck after 12 pours"`` where no useful pour is
        left; None otherwise."""
        pours = "1 pour" if node.pours == 1 else f"{node.pours} pours"
        if node.is_solved():
            return f"solved in {pours}"
        if node.is_terminal():
            return f"stuck after {pours}"
        return None


__all__ = ["SEED_TUBES", "WaterSortDomain", "WaterSortOptions", "WaterState"]
