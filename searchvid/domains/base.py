"""The domain base class: rules, view, labels and value functions of one game or puzzle."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from searchvid.render.view import View
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
        default_value: Name of the value function algorithms use when a scene names none.
        default_heuristic: Name of the heuristic A* / best-first use when none is named.
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    options_type: ClassVar[type[Any]]
    has_goal: ClassVar[bool] = False
    default_value: ClassVar[str | None] = None
    default_heuristic: ClassVar[str | None] = None

    def __init__(self, options: Any) -> None:
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
