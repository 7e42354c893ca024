"""The domain base class: rules, view, labels and value functions of one game or puzzle."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from searchvid.options import check_bounds
from searchvid.render.view import View
from searchvid.search.status import Field
from searchvid.search.values import Heuristic, ValueFunction


class Domain(ABC):
    """One game or puzzle, configured by its options.

    Subclasses set the class attributes and implement :meth:`root` and :meth:`view`.

    Attributes:
        name: Registered name, as written in scene files.
        aliases: Other accepted names.
        summary: One line for ``searchvid scenes`` and the README.
        options_type: Keyword-only options dataclass (see :mod:`searchvid.options`); it may
            raise :class:`~searchvid.errors.OptionError` from ``__post_init__``.
        has_goal: Whether :meth:`is_goal` means something (``run --json`` reports
            ``solved`` only for such domains).
        transpositions: Whether a position is fully shown by the view's grid (and
            ``to_move``), so that ``searchvid check`` may require two move orders that reach
            one board to reach equal nodes. False for a game whose state holds more than its
            board shows (move history, a hidden hand).
        default_value: Name of the value function algorithms use when a scene names none.
        default_heuristic: Name of the heuristic A* / best-first use when none is named.
        move_count: Name of a :meth:`status` field that counts the moves from the start,
            always the node's depth (Water Sort's ``"pours"``): the strip then shows it
            alone, not ``depth`` beside it saying the same number (None: no such field).
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    options_type: ClassVar[type[Any]]
    has_goal: ClassVar[bool] = False
    transpositions: ClassVar[bool] = True
    default_value: ClassVar[str | None] = None
    default_heuristic: ClassVar[str | None] = None
    move_count: ClassVar[str | None] = None

    def __init__(self, options: Any) -> None:
        check_bounds(options)  # options built in Python keep their declared bounds too
        self.options = options

    @abstractmethod
    def root(self) -> Any:
        """The initial node."""

    @abstractmethod
    def view(self) -> View:
        """The view that draws this domain's nodes."""

    def label(self, node: Any) -> str:
        """A short human-readable label of ``node`` for traces."""
        return str(node)

    def values(self) -> Mapping[str, ValueFunction]:
        """Value functions offered by name (higher is better)."""
        return {}

    def heuristics(self) -> Mapping[str, Heuristic]:
        """Heuristics offered by name (estimated moves to a goal)."""
        return {}

    def is_goal(self, node: Any) -> bool:
        """Whether ``node`` reaches the domain's goal (see :attr:`has_goal`)."""
        return False

    def report(self, node: Any) -> Mapping[str, Any]:
        """Extra keys ``run --json`` adds for the final node (default: none).

        Values must be JSON-serialisable (numbers, strings, None, lists and mappings of them),
        for example a game's score broken down by part.
        """
        return {}

    def status(self, node: Any) -> Sequence[Field]:
        """What the status strip says about ``node``, in the domain's words (default: nothing).

        For example Railroad Ink ``exits joined 7/12`` and ``score 34``; Water Sort ``tubes
        done 5/12``; tic-tac-toe ``X to move``. Keep it to a few short fields; it is called
        once per frame.
        """
        return ()

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """The move from ``parent`` to its child ``child`` in plain words, for captions
        ("pour tube 3 into tube 7", "X at b3", "rail curve at C4"); None where it cannot say."""
        return None

    def describe_value(self, value: float) -> str | None:
        """A value of this domain's value functions in words ("draw", "X wins", "9 of 12
        exits joined"), for captions and the strip; None to show the number."""
        return None

    def describe_node_value(self, node: Any, value: float) -> str | None:
        """``value``, given by a value function to ``node`` itself (not proved by a search),
        in words; None to show the number. Default: :meth:`describe_value`.

        Override where words right for a proved value are wrong for a position's own value:
        a game's ``outcome`` of 0.5 is a draw once proved, but "undecided" before the end.
        """
        return self.describe_value(value)

    def describe_problem(self, node: Any) -> str | None:
        """The puzzle or game that starts at ``node``, in one line, for a video's opening
        card (``"14 tubes of 4, 12 colours: sort each colour into a tube of its own"``,
        ``"3x3 tic-tac-toe, three in a row wins; X to move"``); None where there is nothing
        to say beyond the title (the card then names the start position with
        :meth:`label`)."""
        return None

    def describe_end(self, node: Any) -> str | None:
        """What happened, when a video ends on ``node`` and it ends the puzzle or the game
        (``"solved in 39 pours"``, ``"game over: 52 points"``, ``"game over: draw"``); None
        where it ends nothing (the strip then says why the video ended there: the search
        was complete, or was cut)."""
        return None
