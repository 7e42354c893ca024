"""The checks that play the game (:mod:`searchvid.conformance.play`): one position reached by
two lines of play is one node, and a finished game offers no moves."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from searchvid import Capability, Domain, OptionError, TileSet, View, option
from searchvid.conformance import check_domain, run_check

CELLS = 3


@dataclass(frozen=True, kw_only=True)
class LineOptions:
    """Options of the one-row games below."""

    cells: int = option(CELLS, doc="Cells in the row.", minimum=2)


def _draw(name: str, size: int) -> Image.Image:
    shade = {"empty": 0, "mark": 255, "token": 128}[name]
    return Image.new("RGB", (size, size), (shade, shade, shade))


class RowView:
    """One row of cells: empty, marked, or holding the token."""

    tileset = TileSet(names=("empty", "mark", "token"), draw=_draw)
    shape = (1, CELLS)

    def grid(self, node: Any) -> npt.NDArray[np.int16]:
        return np.array([node.tiles()], dtype=np.int16)


@dataclass(frozen=True)
class Marks:
    """Marks placed one by one in any empty cell; ``last`` (the last cell marked) is part of
    ``==``, as a last-move marker wrongly kept in the state would be."""

    cells: tuple[bool, ...] = (False,) * CELLS
    last: int = -1

    def children(self) -> list[Marks]:
        return [
            Marks((*self.cells[:i], True, *self.cells[i + 1 :]), i)
            for i, marked in enumerate(self.cells)
            if not marked
        ]

    def tiles(self) -> list[int]:
        return [1 if marked else 0 for marked in self.cells]

    def label(self) -> str:
        return "".join("x" if marked else "." for marked in self.cells)


@dataclass(frozen=True)
class FairMarks(Marks):
    """The last-move marker kept out of ``==`` and ``hash``: the correct way."""

    last: int = field(default=-1, compare=False)

    def children(self) -> list[Marks]:
        return [FairMarks(kid.cells, kid.last) for kid in super().children()]


@dataclass(frozen=True)
class KeyedMarks(FairMarks):
    """Equal by state, but a transposition key that includes the last move."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})

    def children(self) -> list[Marks]:
        return [KeyedMarks(kid.cells, kid.last) for kid in super().children()]

    def key(self) -> tuple[tuple[bool, ...], int]:
        return self.cells, self.last


@dataclass(frozen=True)
class Token:
    """A token stepping left or right along the row; ``moves`` (a move counter) is part of
    ``==``, so stepping right and back left is not the start again."""

    at: int = 0
    moves: int = 0

    def children(self) -> list[Token]:
        steps = [step for step in (-1, 1) if 0 <= self.at + step < CELLS]
        return [Token(self.at + step, self.moves + 1) for step in steps]

    def tiles(self) -> list[int]:
        return [2 if i == self.at else 0 for i in range(CELLS)]

    def label(self) -> str:
        return f"token at {self.at}"


@dataclass(frozen=True)
class WonMarks(FairMarks):
    """Marking cell 0 wins, but children() goes on listing moves after the win."""

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.TERMINAL, Capability.REWARD}
    )

    def children(self) -> list[Marks]:
        return [WonMarks(kid.cells, kid.last) for kid in super().children()]

    def is_terminal(self) -> bool:
        return self.cells[0] or all(self.cells)

    def reward(self) -> float:
        return 1.0 if self.cells[0] else 0.0


class RowDomain(Domain):
    """A one-row game whose node class each test picks."""

    name = "row"
    summary = "Marks or a token on one row."
    options_type: ClassVar[type[Any]] = LineOptions
    node_type: ClassVar[type[Any]] = FairMarks

    def root(self) -> Any:
        return self.node_type()

    def view(self) -> View:
        return RowView()

    def label(self, node: Any) -> str:
        return str(node.label())

    def describe_move(self, parent: Any, child: Any) -> str | None:
        if isinstance(child, Token):
            return "right" if child.at > parent.at else "left"
        return f"mark {child.last}"


def _domain(node_type: type[Any], **attributes: Any) -> Domain:
    kind = type(f"{node_type.__name__}Domain", (RowDomain,), {"node_type": node_type, **attributes})
    return kind(LineOptions())


def _messages(node_type: type[Any], check: str, **attributes: Any) -> list[str]:
    return [failure.message for failure in run_check(_domain(node_type, **attributes), check)]


ADVICE = (
    "does == include the move history or a move counter? One position must be one node, or "
    "duplicate detection and transposition tables miss it (if the positions really differ in a "
    "way the board does not show, set transpositions = False on the domain)"
)


def test_a_last_move_marker_in_equality_fails_naming_the_two_orders() -> None:
    assert _messages(Marks, "transpositions") == [
        "from the root, 'mark 0' then 'mark 1' and 'mark 1' then 'mark 0' reach the same "
        f"position (board and label), but the two nodes compare unequal (==): {ADVICE}"
    ]


def test_a_move_counter_in_equality_fails_when_a_move_is_undone() -> None:
    assert _messages(Token, "transpositions") == [
        "from the root, staying put and 'right' then 'left' reach the same position (board "
        f"and label), but the two nodes compare unequal (==): {ADVICE}"
    ]


def test_a_key_that_holds_the_last_move_fails() -> None:
    assert _messages(KeyedMarks, "transpositions") == [
        "from the root, 'mark 0' then 'mark 1' and 'mark 1' then 'mark 0' reach the same "
        f"position (board and label), but the two nodes compare equal but have different "
        f"key(): {ADVICE}"
    ]


def test_state_only_equality_passes_every_check() -> None:
    assert check_domain(_domain(FairMarks)) == []


def test_a_domain_may_declare_that_its_board_does_not_show_everything() -> None:
    assert _messages(Marks, "transpositions", transpositions=False) == []
    assert RowDomain.transpositions is True  # the default: the check runs


def test_a_won_position_with_children_fails_naming_it() -> None:
    assert _messages(WonMarks, "terminal") == [
        "node 'x..' is terminal (is_terminal() is True) but children() gives 2 children, the "
        "first node 'xx.': a finished game must offer no moves, or searches play on after it "
        "ends"
    ]


def test_a_won_position_without_children_passes() -> None:
    @dataclass(frozen=True)
    class FinishedMarks(WonMarks):
        def children(self) -> list[Marks]:
            if self.is_terminal():
                return []
            return [FinishedMarks(kid.cells, kid.last) for kid in super().children()]

    assert run_check(_domain(FinishedMarks), "terminal") == []


def test_options_built_in_python_keep_their_bounds() -> None:
    with pytest.raises(OptionError) as raised:
        RowDomain(LineOptions(cells=1))
    assert str(raised.value) == "cells: must be >= 2, got 1"
    assert RowDomain(LineOptions(cells=2)).options.cells == 2


def test_algorithm_options_built_in_python_keep_their_bounds() -> None:
    from searchvid.search.algorithms.frontier import BeamOptions, BeamSearch

    with pytest.raises(OptionError) as raised:
        BeamSearch(BeamOptions(width=0), rng=random.Random(0))
    assert str(raised.value) == "width: must be >= 1, got 0"
