"""Exception types shared by every layer.

The CLI turns these into one-line messages and exit codes: :class:`UsageError` (and its
subclasses) exit with 2, :class:`RunError` with 1. Library code never prints.
"""

from __future__ import annotations


class SearchvidError(Exception):
    """Base class of every error searchvid raises on purpose."""


class UsageError(SearchvidError):
    """Bad input from the user: a bad scene file, option or command-line value (exit code 2)."""


class OptionError(UsageError):
    """A bad option value.

    Args:
        key: Dotted key of the offending option, relative to where it was read
            (``"width"``, or ``"search.width"`` once the section is known).
        message: What is wrong and what is allowed, e.g. ``"must be an integer >= 1, got 0"``.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message

    def within(self, section: str) -> OptionError:
        """Return the same error with its key prefixed by ``section``."""
        return OptionError(f"{section}.{self.key}" if section else self.key, self.message)


class SceneError(UsageError):
    """A scene file that cannot be used; the message is ``FILE: KEY: what is wrong``."""

    def __init__(self, file: str, key: str, message: str) -> None:
        text = f"{file}: {key}: {message}" if key else f"{file}: {message}"
        super().__init__(text)
        self.file = file
        self.key = key
        self.message = message


class CapabilityError(UsageError):
    """An algorithm was given a domain whose nodes lack a capability it needs."""


class RunError(SearchvidError):
    """A failure while running or rendering: encoder died, disk full (exit code 1)."""


class UserCodeError(RunError):
    """Code outside searchvid (a domain, view or algorithm of the user's) raised, or returned
    something searchvid cannot use (exit code 1).

    The message is ``WHERE: PROBLEM``, e.g. ``connect4.py:88 in ConnectFour.children():
    IndexError: list index out of range`` or ``game.py:14 in Board.children(): returned None,
    not an iterable of nodes (node 'n=2')``.

    Attributes:
        where: The user's code: ``file.py:LINE in Qualified.name()`` (see
            :mod:`searchvid.usercode`).
        problem: What it raised (``IndexError: ...``) or what is wrong with what it returned.
        node: The node the code was given, where known (a search names it by its label).
        position: The label of that node, once known.
        raised: Whether the code raised (so a traceback exists to show), rather than returned
            a bad value.
    """

    def __init__(
        self,
        where: str,
        problem: str,
        *,
        node: object = None,
        position: str | None = None,
        raised: bool = False,
    ) -> None:
        at = f" (node {position!r})" if position is not None else ""
        super().__init__(f"{where}: {problem}{at}")
        self.where = where
        self.problem = problem
        self.node = node
        self.position = position
        self.raised = raised

    def at(self, position: str) -> UserCodeError:
        """The same error naming the node by its label ``position``."""
        return type(self)(
            self.where, self.problem, node=self.node, position=position, raised=self.raised
        )
