"""Signals as exceptions, and cleanup that a second signal cannot cut short.

The command line runs inside :func:`terminate_on_signals`: SIGINT, SIGTERM and SIGHUP raise
:class:`Terminated`, so every ``with`` block and ``finally`` clause on the way out runs, just
as for Ctrl-C. The encoders run their cleanup through :func:`run_to_completion`, which holds
back the signals for the few milliseconds the cleanup takes.

Nothing here changes a process's signal handlers for longer than a ``with`` block (unless
the command line asks, with ``ignore_after_signal``, as it exits after a signal): a library
user's own handlers are restored on the way out, and a signal that arrived meanwhile is then
handed to them.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = [
    "Terminated",
    "defer_signals",
    "handled_signals",
    "run_to_completion",
    "terminate_on_signals",
]

_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


def handled_signals() -> tuple[signal.Signals, ...]:
    """The signals that end a render: SIGINT, SIGTERM and, where it exists, SIGHUP."""
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    return tuple(getattr(signal.Signals, name) for name in names if hasattr(signal, name))


class Terminated(BaseException):
    """The process was asked to stop by a signal (raised by :func:`terminate_on_signals`).

    A ``BaseException`` like ``KeyboardInterrupt``, so ``except Exception`` does not swallow
    it and cleanup code runs on the way out.

    Attributes:
        signum: The signal's number.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name, e.g. ``"SIGTERM"``."""
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"

    @property
    def exit_code(self) -> int:
        """The shell's code for a process ended by this signal: 128 + its number."""
        return 128 + self.signum

    def __str__(self) -> str:
        return f"interrupted ({self.name})"


class _Raiser:
    """A handler that raises :class:`Terminated` once; repeats soon after are ignored.

    A second Ctrl-C a moment after the first would otherwise land in the middle of the
    cleanup or of the error message that the first one started.
    """

    def __init__(self, grace: float) -> None:
        self._grace = grace
        self._first: float | None = None

    @property
    def fired(self) -> bool:
        """Whether a signal has raised :class:`Terminated` yet."""
        return self._first is not None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if self._first is not None and now - self._first < self._grace:
            return
        self._first = now
        raise Terminated(signum)


@contextmanager
def terminate_on_signals(
    signums: tuple[int, ...] | None = None,
    *,
    grace: float = 5.0,
    ignore_after_signal: bool = False,
) -> Iterator[None]:
    """Within the block, each of ``signums`` raises :class:`Terminated`; handlers are restored
    on the way out.

    A signal that arrives less than ``grace`` seconds after the one that raised is ignored:
    the process is already on its way out. Signals that were ignored on entry (``nohup``, a
    background job of a non-interactive shell) stay ignored. Outside the main thread, where
    Python cannot set handlers, the block runs unchanged.

    Args:
        signums: The signals to catch (default :func:`handled_signals`).
        grace: Seconds during which repeats of a signal are ignored.
        ignore_after_signal: When a signal has ended the block, ignore ``signums`` from then
            on instead of restoring their handlers, so that a repeat cannot cut short the
            exit that follows (for a program's entry point, which ends the process next;
            Python's own shutdown resets handlers but leaves ignored signals ignored).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raiser = _Raiser(grace)
    previous: dict[int, _Handler] = {}
    try:
        _install(signums, raiser, previous)
        yield
    finally:
        if ignore_after_signal and raiser.fired:
            _restore(dict.fromkeys(previous, signal.SIG_IGN))
        else:
            _restore(previous)


@contextmanager
def defer_signals(signums: tuple[int, ...] | None = None) -> Iterator[None]:
    """Hold back ``signums`` (default :func:`handled_signals`) for the length of the block.

    A signal that arrives meanwhile is recorded and handed, once the previous handlers are
    back, to whatever handler was in place (which may raise, or end the process). Outside the
    main thread the block runs unchanged: Python runs signal handlers in the main thread only,
    so nothing can interrupt the block there.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    previous: dict[int, _Handler] = {}
    try:
        _install(signums, record, previous)
        yield
    finally:
        _restore(previous)
        for signum in dict.fromkeys(arrived):
            _deliver(signum, previous[signum])


def _install(
    signums: tuple[int, ...] | None, handler: _Handler, previous: dict[int, _Handler]
) -> None:
    """Set ``handler`` for each signal, noting the old handlers in ``previous`` as it goes.

    Signals that are ignored, or whose handler was set outside Python, are left alone.
    """
    for signum in signums if signums is not None else handled_signals():
        old = signal.getsignal(signum)
        if old is None or old == signal.SIG_IGN:
            continue
        previous[signum] = old
        signal.signal(signum, handler)


def _restore(previous: dict[int, _Handler]) -> None:
    """Put back every handler in ``previous``, even if a pending signal's handler raises on
    the way (it is re-raised once all are back)."""
    error: BaseException | None = None
    for signum, old in previous.items():
        for _ in range(3):  # a raising handler runs before the swap; a few tries suffice
            try:
                signal.signal(signum, old)
                break
            except BaseException as exc:
                error = error or exc
    if error is not None:
        raise error


def _deliver(signum: int, handler: _Handler) -> None:
    """Hand a held-back signal to ``handler`` as if it had just arrived."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # the default action: usually the end of the process


def run_to_completion(cleanup: Callable[[], None]) -> None:
    """Run an idempotent ``cleanup`` with signals deferred (see :func:`defer_signals`).

    A signal that was already on its way when the cleanup began can still interrupt at the
    edge of the deferred section, before the cleanup ran; the cleanup is then run once more
    before that interruption goes on. A held-back signal is delivered once the cleanup is
    done.
    """
    done = False
    try:
        with defer_signals():
            cleanup()
            done = True
    except BaseException:
        if not done:
            with defer_signals():
                cleanup()
        raise
