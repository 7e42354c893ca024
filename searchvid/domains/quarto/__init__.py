"""The ``quarto`` domain: Quarto with seed 003's shortcuts as options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from searchvid.domains.base import Domain
from searchvid.domains.quarto.rules import (
    PIECES,
    QuartoState,
    cell_name,
    outcome_value,
    parse_piece,
    piece_name,
    shortcuts,
)
from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.render.view import View
from searchvid.search.values import ValueFunction


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


__all__ = ["QuartoDomain", "QuartoOptions", "QuartoState"]
