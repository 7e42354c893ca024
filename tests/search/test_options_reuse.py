"""make_algorithm remembers the options it built from a table of plain values (a scene builds
a search per run), without changing what a table means or which tables are refused."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.search.algorithm import Algorithm, make_algorithm
from searchvid.search.algorithms.backtracking import BacktrackingOptions
from searchvid.search.events import Event


def _options(table: dict[str, Any], name: str | type[Algorithm[Any]] = "backtracking") -> Any:
    return make_algorithm(name, table, rng=random.Random(0)).options


def test_the_same_plain_table_gives_the_same_frozen_options() -> None:
    first = _options({"max_depth": 3, "repeats": "path"})
    again = _options({"repeats": "path", "max_depth": 3})  # the order of the keys is free
    assert again is first
    assert first == BacktrackingOptions(max_depth=3, repeats="path")
    assert _options({"max_depth": 4}) == BacktrackingOptions(max_depth=4)


def test_values_equal_across_types_are_told_apart() -> None:
    """True == 1 in Python: a remembered true must not let an integer through."""
    assert _options({"stop_at_goal": True}).stop_at_goal is True
    with pytest.raises(OptionError, match="stop_at_goal: must be true or false, got an integer 1"):
        _options({"stop_at_goal": 1})


@dataclass(kw_only=True)  # not frozen: a search could change it, so never shared
class LooseOptions:
    depth: int = option(1, doc="A depth.", minimum=0)


class Loose(Algorithm[LooseOptions]):
    name: ClassVar[str] = "loose"
    options_type = LooseOptions

    def _traverse(self, root: Any) -> Iterator[Event]:
        return iter(())


def test_options_that_can_change_are_built_afresh() -> None:
    first = _options({"depth": 2}, Loose)
    again = _options({"depth": 2}, Loose)
    assert again == first == LooseOptions(depth=2)
    assert again is not first
