"""The ``tictactoe`` domain: n x n tic-tac-toe with k in a row (seed 002)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from searchvid.domains.base import Domain
from searchvid.domains.tictactoe.rules import (
    DRAW,
    O_WON,
    ONGOING,
    X_WON,
    Board,
    X,
    geometry,
    lines_value,
    outcome_value,
)
from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.render.domainterms import SOLVED
from searchvid.render.view import View
from searchvid.search.status import Field
from searchvid.search.values import ValueFunction

_MARKS = ("X", "O")  # by player: X is player 0
_STATUS: dict[int, Field | None] = {  # by Board.status; None while the game goes on
    ONGOING: None,
    X_WON: Field("wins", "X", prefix=True),
    O_WON: Field("wins", "O", prefix=True),
    DRAW: Field("", "draw"),
}
_VALUE_WORDS: dict[float, str] = {1.0: "X wins", 0.5: "draw", 0.0: "O wins"}
_SYMMETRIC_TERMS: Mapping[str, str] = MappingProxyType(
    {SOLVED: f"{SOLVED}, also turned or mirrored"}
)
"""The cards' phrases in this domain's words where its keys identify a board's 8 symmetries:
a table of solved positions answers for a board's turns and mirror images too."""


@dataclass(frozen=True, kw_only=True)
class TicTacToeOptions:
    """Options of the ``tictactoe`` domain."""

    size: int = option(3, doc="Cells per side of the board.", minimum=3, maximum=8)
    k: int | None = option(None, doc="Marks in a row that win (default: size).", minimum=3)
    symmetric: bool = option(True, doc="Transposition keys identify the 8 symmetries of the board.")
    position: str | None = option(
        None,
        doc="Start from this position: rows of X, O and '.' joined by '/' (default: empty).",
    )

    def __post_init__(self) -> None:
        if self.k is not None and self.k > self.size:
            raise OptionError("k", f"must be <= size ({self.size}), got {self.k}")
        if self.position is not None:
            try:
                Board.parse(self.position, geometry(self.size, self.line))
            except ValueError as exc:
                raise OptionError("position", str(exc)) from None

    @property
    def line(self) -> int:
        """The line length that wins (``k``, or ``size`` when not given)."""
        return self.size if self.k is None else self.k


class TicTacToeDomain(Domain):
    """Tic-tac-toe on an n x n board, k in a row wins; X (player 0) moves first."""

    name = "tictactoe"
    aliases = ("tic-tac-toe",)
    summary = (
        "Tic-tac-toe on an n x n board with k in a row; X moves first. The board shows the "
        "coordinates moves are named by: columns a, b, ... from the left, rows 1, 2, ... "
        "from the bottom (X at b3)."
    )
    options_type = TicTacToeOptions
    default_value = "outcome"

    move_order = "tries winning moves first, then blocks, then cells on the most lines"
    """The order :meth:`~searchvid.domains.tictactoe.rules.Board.children` offers moves in,
    as the opening card of a search that tries them in that order says it: moves that
    complete a line, then moves that stop the opponent's, then the empty cells by how many
    winning lines pass through them (the centre's ties broken nearest the centre)."""

    node_names = "names: rows top to bottom (. empty), then the last move (X:a2 = X at a2)"
    """How to read :meth:`label` (``XOX/XOO/.X. X:a2``), in the tree panel's legend
    wherever it writes labels under the nodes."""

    def __init__(self, options: TicTacToeOptions) -> None:
        super().__init__(options)
        self.geometry = geometry(options.size, options.line, symmetric=options.symmetric)

    @property
    def terms(self) -> Mapping[str, str]:
        """The cards' phrases in this domain's words
        (:data:`~searchvid.render.domainterms.TERMS`): with symmetric keys (the option
        ``symmetric``), "remembers positions already solved, also turned or mirrored", as a
        board's rotations and mirror images share its key; none otherwise."""
        return _SYMMETRIC_TERMS if self.options.symmetric else MappingProxyType({})

    def root(self) -> Board:
        """The empty board (or the scene's ``position``), X to move."""
        if self.options.position is not None:
            return Board.parse(self.options.position, self.geometry)
        return Board.start(self.geometry)

    def view(self) -> View:
        """One tile per cell."""
        from searchvid.domains.tictactoe.view import TicTacToeView

        return TicTacToeView(self.options.size)

    def label(self, node: Any) -> str:
        """The board as rows joined by ``/``, then the last move, e.g. ``X../.O./... O:b2``."""
        board: Board = node
        if board.last < 0:
            return board.text()
        mover = "O" if board.to_move == 0 else "X"
        return f"{board.text()} {mover}:{board.cell_name(board.last)}"

    def values(self) -> Mapping[str, ValueFunction]:
        """``outcome`` (0.5 until the game ends) and ``lines`` (a guess from open lines)."""
        return {"outcome": outcome_value, "lines": lines_value}

    def status(self, node: Any) -> Sequence[Field]:
        """``X to move`` while the game goes on, then ``X wins``, ``O wins`` or ``draw``."""
        board: Board = node
        return (_STATUS[board.status] or Field("to move", _MARKS[board.to_move], prefix=True),)

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """``"X at b3"``: the mark, then the cell as drawn (columns a.. from the left, rows
        1.. from the bottom, like a chess board); None when ``child`` is not one move on."""
        before: Board = parent
        after: Board = child
        cell = after.last
        if before.status != ONGOING or not 0 <= cell < before.geo.cells:
            return None
        bit = 1 << cell
        if before.to_move == X:
            marked = after.x == before.x | bit and after.o == before.o
        else:
            marked = after.o == before.o | bit and after.x == before.x
        if (before.x | before.o) & bit or not marked:
            return None
        return f"{_MARKS[before.to_move]} at {after.cell_name(cell)}"

    def describe_value(self, value: float) -> str | None:
        """X's outcome in words: 1 ``"X wins"``, 0.5 ``"draw"``, 0 ``"O wins"``; else None.

        These are the values minimax backs up from the end of the game (``outcome`` and
        ``lines`` give the same at a finished game). Before the end ``outcome`` is 0.5 too,
        meaning "not over yet", and an MCTS mean of exactly 0.5 is not a proven draw either:
        the words are right for what searches prove, a guess for the rest.
        """
        return _VALUE_WORDS.get(value)

    def describe_node_value(self, node: Any, value: float) -> str | None:
        """As :meth:`describe_value` at the end of the game; before it a position's own
        value proves nothing (``outcome`` is 0.5 until the end): ``"undecided"`` for 0.5,
        the number otherwise."""
        board: Board = node
        if board.status != ONGOING:
            return self.describe_value(value)
        return "undecided" if value == 0.5 else None

    def describe_problem(self, node: Any) -> str | None:
        """``"3x3 tic-tac-toe, 3 in a row wins; X to move"``."""
        g = self.geometry
        return f"{g.size}x{g.size} tic-tac-toe, {g.k} in a row wins; {_MARKS[node.to_move]} to move"

    def describe_end(self, node: Any) -> str | None:
        """``"game over: X wins"``, ``"game over: O wins"`` or ``"game over: draw"`` at the
        end of the game; None before it."""
        result = _STATUS[node.status]
        return None if result is None else f"game over: {result.text()}"


__all__ = ["Board", "TicTacToeDomain", "TicTacToeOptions"]
