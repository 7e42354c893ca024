"""The ``quarto`` domain: Quarto with seed 003's shortcuts as options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.domains.base import Domain
from searchvid.domains.quarto.rules import (
    DRAW,
    P0_WON,
    P1_WON,
    PIECES,
    QuartoState,
    cell_name,
    line_name,
    outcome_value,
    parse_piece,
    piece_name,
    piece_words,
    shortcuts,
    traits,
)
from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.render.view import View
from searchvid.search.status import Field
from searchvid.search.values import ValueFunction

PLAYERS = ("first player", "second player")
"""Player 0 and player 1 as the strip names them: Quarto's players have no names of their
own, and a blog reader counts from one ("player 0" is a programmer's word)."""
_VALUE_WORDS: dict[float, str] = {1.0: "first player wins", 0.5: "draw", 0.0: "second player wins"}
_OUTCOMES: dict[int, float] = {P0_WON: 1.0, DRAW: 0.5, P1_WON: 0.0}
"""Player 0's outcome by the status of a finished game."""


@dataclass(frozen=True, kw_only=True)
class QuartoOptions:
    """Options of the ``quarto`` domain.

    Playing strength is the search's business: with MCTS, ``iterations`` (playouts per
    move) is the difficulty setting.
    """

    win_at_once: bool = option(True, doc="Agents consider only winning placements when one exists.")
    safe_handover: bool = option(
        True, doc="Agents never hand over a piece that wins at once while a safe one exists."
    )
    first_piece: int | str | None = option(
        None,
        doc="Piece in player 0's hand at the start (0-15 or a name such as 'TDRH'); "
        "default: player 0 opens by choosing the piece player 1 places first.",
    )

    def __post_init__(self) -> None:
        self.piece()  # raises OptionError for a bad first_piece

    def piece(self) -> int | None:
        """``first_piece`` as a piece number (None when not given).

        Raises:
            OptionError: Not a piece number or name.
        """
        value = self.first_piece
        if value is None:
            return None
        if isinstance(value, int):
            if not 0 <= value < PIECES:
                raise OptionError("first_piece", f"must be 0-15 or a piece name, got {value}")
            return value
        try:
            return parse_piece(value)
        except ValueError as exc:
            raise OptionError("first_piece", str(exc)) from None


class QuartoDomain(Domain):
    """Quarto: place the piece you were given, then choose the one your opponent places."""

    name = "quarto"
    summary = "Quarto: four in a line sharing an attribute wins; you choose your rival's piece."
    options_type = QuartoOptions
    default_value = "outcome"

    def __init__(self, options: QuartoOptions) -> None:
        super().__init__(options)
        self.shortcuts = shortcuts(options.win_at_once, options.safe_handover)

    def root(self) -> QuartoState:
        """The empty board, player 0 to move (to choose, or to place ``first_piece``)."""
        return QuartoState.start(self.options.piece(), self.shortcuts)

    def view(self) -> View:
        """The board, the hand slot and the reserve (4 x 9 tiles)."""
        from searchvid.domains.quarto.view import QuartoView

        return QuartoView()

    def label(self, node: Any) -> str:
        """The last move, e.g. ``TDRH@b3 give SLQF``, ``TDRH@b3 wins`` or ``give SLQF``."""
        state: QuartoState = node
        hand = piece_name(state.hand) if state.hand >= 0 else ""
        if state.last < 0:
            return f"give {hand}" if hand else "start"
        placed = f"{piece_name(state.piece_at(state.last))}@{cell_name(state.last)}"
        if state.is_terminal():
            return f"{placed} {'draws' if state.reward() == 0.5 else 'wins'}"
        return f"{placed} give {hand}"

    def values(self) -> Mapping[str, ValueFunction]:
        """``outcome``: the result at the end of the game, 0.5 before it."""
        return {"outcome": outcome_value}

    def status(self, node: Any) -> Sequence[Field]:
        """Whose turn and what for, then the pieces not yet on the board.

        ``second player to place`` (a move places the piece in hand, then gives the other
        player theirs), ``first player to choose`` at the opening (a piece only), ``first
        player wins`` or ``draw`` at the end (:data:`PLAYERS`); then ``pieces left 11`` (in
        hand or in the reserve).
        """
        state: QuartoState = node
        if state.status == DRAW:
            turn = Field("", "draw")
        elif state.status in (P0_WON, P1_WON):
            turn = Field("wins", PLAYERS[state.status - P0_WON], prefix=True)
        elif state.hand < 0:
            turn = Field("to choose", PLAYERS[state.to_move], prefix=True)
        else:
            turn = Field("to place", PLAYERS[state.to_move], prefix=True)
        return (turn, Field("pieces left", state.empty.bit_count()))

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """The move in words: ``"second player places the tall dark round hollow piece at
        b3, gives the short light square solid piece"``; the opening ``"first player gives
        the ... piece (pick only: nothing to place yet)"``; a placement that ends the game
        hands nothing over. Cells are named as drawn (columns a-d from the left, rows 1-4
        from the bottom). None when ``child`` is not one move on from ``parent``."""
        before: QuartoState = parent
        after: QuartoState = child
        if before.status:
            return None
        gives = None
        if after.hand >= 0:
            if not before.pool >> after.hand & 1 or after.pool != before.pool ^ 1 << after.hand:
                return None
            gives = f"gives the {piece_words(after.hand)} piece"
        elif after.pool != before.pool:
            return None
        player = PLAYERS[before.to_move]
        if before.hand < 0:  # the opening: a piece chosen, nothing placed
            if not gives or after.cells != before.cells:
                return None
            # a move that marks a pool piece and no cell reads as a half move unless it
            # says why: no piece is in hand yet
            return f"{player} {gives} (pick only: nothing to place yet)"
        cell = after.last
        if not 0 <= cell < PIECES or after.empty != before.empty ^ 1 << cell:
            return None
        if not before.empty >> cell & 1 or after.piece_at(cell) != before.hand:
            return None
        placed = f"{player} places the {piece_words(before.hand)} piece at {cell_name(cell)}"
        return f"{placed}, {gives}" if gives else placed

    def describe_value(self, value: float) -> str | None:
        """Player 0's outcome in words: 1 ``"first player wins"``, 0.5 ``"draw"``, 0
        ``"second player wins"``; else None. As for tic-tac-toe, 0.5 before the end means
        "not over yet" to ``outcome``: the words are right for values a search proved."""
        return _VALUE_WORDS.get(value)

    def describe_node_value(self, node: Any, value: float) -> str | None:
        """As :meth:`describe_value` at the end of the game; before it a position's own
        ``outcome`` is 0.5 and proves nothing: ``"undecided"``."""
        state: QuartoState = node
        if state.is_terminal():
            return self.describe_value(value)
        return "undecided" if value == 0.5 else None

    def describe_problem(self, node: Any) -> str | None:
        """What Quarto is, in one line: a move is two acts (place, then pick), so that a frame
        marking a board cell and a pool piece as one move reads as it should."""
        return (
            "a move: place the piece in hand, then pick the opponent's from the pool;"
            " 4 in a line sharing a trait wins"
        )

    def describe_end(self, node: Any) -> str | None:
        """The end of the game: a win with the line that made it and the trait its pieces
        share, ``"first player wins: 4 hollow pieces on the a1-d4 diagonal"`` (``4 tall
        dark pieces on row 3``; two lines completed at once are both named, ``and``), or
        ``"game over: draw"``; None before the end."""
        state: QuartoState = node
        if not state.is_terminal():
            return None
        result = _VALUE_WORDS[_OUTCOMES[state.status]]
        lines = state.completed_lines()
        if not lines:
            return f"game over: {result}"
        # a reader sees four pieces highlighted but not at once what they share: say it in
        # the trait words of the legend and the moves
        said = [f"4 {' '.join(traits(shared))} pieces on {line_name(i)}" for i, shared in lines]
        return f"{result}: {' and '.join(said)}"


__all__ = ["QuartoDomain", "QuartoOptions", "QuartoState"]
