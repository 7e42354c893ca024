"""Signals: one handler records the first, and the work stops where stopping is safe.

Inside :func:`terminate_on_signals`, SIGINT, SIGTERM and SIGHUP end the work with
:class:`Terminated`, so every ``with`` block and ``finally`` clause on the way out runs, as for
Ctrl-C. What keeps that deterministic, whatever arrives and whenever:

- **One handler, which records.** The block installs one handler (a nested block adds none).
  The first signal to arrive is recorded and decides the end: :attr:`Terminated.exit_code`
  (130, 143 or 129) and the message. Arrival order is read from the wakeup file descriptor
  (:func:`signal.set_wakeup_fd`), written by Python's C-level handler the moment each signal
  lands; Python runs the pending handlers themselves in signal-number order, which would
  report the SIGINT of a SIGTERM followed 1 ms later by a SIGINT. Signals that are pending
  *at once* before the process runs at all (it was stopped, or waiting for a CPU) have no
  order: the kernel keeps a set, not a queue. The one whose C-level handler the kernel runs
  first is taken then (on Linux, with one thread receiving them, the higher-numbered).
- **It raises once, where raising is safe.** Not inside an import (module locks, ``compile``,
  a module's own code), a finalizer (``__del__``, a generator being closed, a weak-reference
  callback), ``__set_name__`` or ``__init_subclass__``, the standard library's threading,
  logging, multiprocessing, concurrent.futures, queue and contextlib code, nor inside
  :func:`defer_signals`: an exception raised there is swallowed, printed as ``Exception
  ignored``, wrapped, breaks a lock, or skips the exit of a ``with`` statement being
  entered. There the handler only records, and a helper thread runs it again every few
  milliseconds until the main thread is somewhere it can raise (a held-back signal is raised
  when :func:`defer_signals` ends). Later signals are absorbed: they cannot cut the cleanup
  short.
- **Checkpoints.** Code that catches too much does not lose the signal: the render loop calls
  :func:`checkpoint` for every frame, the encoders call it before they rename an output into
  place, and the command line when its command ends
  (:meth:`SignalWatch.final_checkpoint`).

The command line's entry point (:mod:`searchvid._launch`) holds the block from its first
statement, and leaves the signals ignored when the block ends: the process exits next, and
nothing (logging's or multiprocessing's ``atexit`` hooks included) can be interrupted then.
Before that first statement (Python's own start-up, then the imports of the ``searchvid``
package, :mod:`searchvid._launch` and this module: some 30 to 100 ms after the process
starts), Python's defaults apply: SIGTERM and SIGHUP end the process by the signal itself,
with nothing written and nothing made; SIGINT raises Python's ``KeyboardInterrupt``, which
prints a traceback.

A library user's own handlers are back when a block ends, and a signal the block recorded but
did not raise is then handed to them. Outside the main thread, where Python cannot set
handlers, the blocks run unchanged.
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

__all__ = [
    "SignalWatch",
    "Terminated",
    "checkpoint",
    "defer_signals",
    "handled_signals",
    "run_to_completion",
    "terminate_on_signals",
]

_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

_RETRY_SECONDS = 0.005
"""How often the helper thread runs the handler again while the main thread cannot raise."""

_FRAGILE_MODULES = frozenset(
    {
        "_weakrefset",
        "concurrent",
        "contextlib",
        "importlib",
        "logging",
        "multiprocessing",
        "queue",
        "threading",
        "weakref",
    }
)
"""Modules (top-level names) whose code, anywhere on the stack, must not be interrupted:
their locks and bookkeeping are not written to survive an exception at any instruction (and
an exception in a ``with`` statement's entering skips its exit)."""

_IMPORT_SYSTEM = ("<frozen importlib", "<frozen zipimport")
"""How the import system's own frames name their file."""

_HOOKS = frozenset({"__del__", "__set_name__", "__init_subclass__"})
"""Functions Python calls for its own purposes; it prints or wraps what they raise."""

_ACTIVE: SignalWatch | None = None
"""The watch of the process's outermost :func:`terminate_on_signals` block."""

_FORK_HOOKED = False


def handled_signals() -> tuple[signal.Signals, ...]:
    """The signals that end a render: SIGINT, SIGTERM and, where it exists, SIGHUP."""
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    return tuple(getattr(signal.Signals, name) for name in names if hasattr(signal, name))


class Terminated(BaseException):
    """The process was asked to stop by a signal (raised inside :func:`terminate_on_signals`).

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


class SignalWatch:
    """The one handler of a :func:`terminate_on_signals` block, and what it has recorded.

    Called by Python for each signal: it records the first (in arrival order), and raises
    :class:`Terminated` for it once, as soon as the main thread is somewhere raising is safe
    (see the module's description). A watch made outside a block (or outside the main
    thread) is inert: it never records anything.
    """

    def __init__(self, signums: Iterable[int] = ()) -> None:
        self._signums = tuple(dict.fromkeys(int(signum) for signum in signums))
        self._first: int | None = None
        self._raised = False  # Terminated was raised (it may have been swallowed since)
        self._settled = False  # the outcome is decided: signals are recorded, never raised
        self._ended = False  # the block is over
        self._holding = 0  # depth of defer_signals blocks in the main thread
        self._busy = False  # the handler is running
        self._previous: dict[int, _Handler] = {}
        self._pipe: tuple[int, int] | None = None
        self._retry: _thread.LockType | None = None  # held while the helper thread runs

    @property
    def first(self) -> int | None:
        """The number of the first signal that arrived, or None."""
        return self._first

    def checkpoint(self) -> None:
        """Raise :class:`Terminated` for the first signal if one has arrived (until the
        outcome is settled by :meth:`final_checkpoint`), even if it was raised before."""
        first = self._first
        if first is not None and not self._settled:
            self._raised = True
            raise Terminated(first)

    @contextmanager
    def final_checkpoint(self) -> Iterator[None]:
        """The block decides the outcome: when it ends, however it ends, a signal that arrived
        is raised as :class:`Terminated` (in place of any other exception, which it may have
        caused); from then on signals are only recorded, never raised. Inside a block that
        is already settled it does nothing."""
        if self._settled:
            yield
            return
        try:
            yield
        finally:
            self._settled = True  # first: a handler that runs from here on only records
            if self._first is not None:
                self._raised = True
                raise Terminated(self._first)

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self._busy:
            # A signal that lands while this handler runs (Python runs handlers inside
            # handlers) is later than the one being handled: its byte waits in the pipe. Were
            # it read here, it could be recorded before the bytes the outer call has read.
            return
        self._busy = True
        try:
            arrived = self._read_wakeups()
            if self._first is None:
                self._first = next((s for s in arrived if s in self._signums), signum)
            if self._raised or self._settled or self._ended or self._holding:
                return
            if not _interruptible(frame):
                self._retry_soon()
                return
            self._raised = True
        finally:
            self._busy = False
        raise Terminated(self._first)

    def _release_held(self) -> None:
        """At the end of the outermost :func:`defer_signals`: raise what arrived meanwhile."""
        first = self._first
        if first is not None and not (self._raised or self._settled or self._ended):
            self._raised = True
            raise Terminated(first)

    def _install(self) -> None:
        self._open_wakeups()
        for signum in self._signums:
            old = signal.getsignal(signum)
            if old is None or old == signal.SIG_IGN:
                continue  # ignored on entry (nohup, a background job), or set outside Python
            self._previous[signum] = old
            signal.signal(signum, self)

    def _end(self, *, ignore: bool) -> None:
        """Put the old handlers back (or ignore the signals); the record is final after."""
        self._ended = True
        retry = self._retry
        if retry is not None:  # the helper thread stops within one period
            retry.acquire()
            retry.release()
        # Setting a handler first runs the pending ones: ours records (and no longer raises).
        _set_handlers(dict.fromkeys(self._previous, signal.SIG_IGN) if ignore else self._previous)
        self._close_wakeups()

    def _hand_on(self) -> None:
        """Give a signal that was recorded but never raised to the handler now in place."""
        first = self._first
        if first is not None and not self._raised and first in self._previous:
            _deliver(first, self._previous[first])

    def _forget(self) -> None:
        """In a child made by ``fork``: Python's defaults again, as in any new process."""
        self._ended = True
        try:
            _set_handlers(self._previous)
            if self._pipe is not None:
                signal.set_wakeup_fd(-1)
        except (ValueError, OSError):  # a fork from another thread: nothing can be set
            pass
        self._close_fds()

    def _open_wakeups(self) -> None:
        """Have the C-level handler write each signal's number to a pipe, in arrival order.

        A wakeup descriptor already in place (an asyncio loop's) is left alone; then the
        order is the one in which Python runs the handlers.
        """
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        try:
            old = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        except (ValueError, OSError):
            old = None
        if old is not None and old != -1:  # somebody else's: put it back, go without
            signal.set_wakeup_fd(old)
        if old != -1:
            os.close(read)
            os.close(write)
            return
        self._pipe = (read, write)

    def _close_wakeups(self) -> None:
        if self._pipe is None:
            return
        with suppress(ValueError, OSError):
            signal.set_wakeup_fd(-1)
        self._close_fds()

    def _close_fds(self) -> None:
        pipe, self._pipe = self._pipe, None
        for fd in pipe or ():
            with suppress(OSError):
                os.close(fd)

    def _read_wakeups(self) -> bytes:
        """The signal numbers written to the pipe since the last read, oldest first."""
        pipe = self._pipe
        if pipe is None:
            return b""
        chunks = []
        while True:
            try:
                chunk = os.read(pipe[0], 512)
            except OSError:  # BlockingIOError: nothing more
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def _retry_soon(self) -> None:
        """Start the helper thread that runs the handler again until it can raise."""
        if self._retry is not None:
            return
        running = _thread.allocate_lock()
        running.acquire()
        self._retry = running
        try:
            # The low-level module: threading's locks may be held by the code interrupted.
            _thread.start_new_thread(self._retry_loop, (running,))
        except RuntimeError:  # no new threads (the interpreter is shutting down)
            self._retry = None
            running.release()

    def _retry_loop(self, running: _thread.LockType) -> None:
        try:
            while not (self._raised or self._settled or self._ended):
                time.sleep(_RETRY_SECONDS)
                first = self._first
                if first is not None and not (
                    self._raised or self._settled or self._ended or self._holding
                ):
                    # Runs the handler in the main thread at its next instruction; does
                    # nothing once the handler is no longer a Python function.
                    _thread.interrupt_main(signal.Signals(first))
        finally:
            running.release()


def _interruptible(frame: FrameType | None) -> bool:
    """Whether raising in ``frame`` (the code the handler interrupted) is safe."""
    if frame is None or sys.is_finalizing():
        return False
    if isinstance(sys.exc_info()[1], GeneratorExit):  # a generator being closed, maybe by GC
        return False
    while frame is not None:
        code = frame.f_code
        if code.co_name in _HOOKS or code.co_filename.startswith(_IMPORT_SYSTEM):
            return False
        module = frame.f_globals.get("__name__")
        if isinstance(module, str) and module.partition(".")[0] in _FRAGILE_MODULES:
            return False
        if module == __name__:
            return False
        frame = frame.f_back
    return True


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def terminate_on_signals(
    signums: tuple[int, ...] | None = None, *, ignore_afterwards: bool = False
) -> Iterator[SignalWatch]:
    """Within the block, the first of ``signums`` to arrive raises :class:`Terminated` once.

    The signal is raised as soon as the code running can be interrupted safely, and again by
    every :func:`checkpoint` (in case the code it hit swallowed it); later signals are
    absorbed. Signals that were ignored on entry (``nohup``, a background job of a
    non-interactive shell) stay ignored. A nested block adds nothing: it yields the
    enclosing block's watch. Outside the main thread the block runs unchanged (its watch is
    inert).

    When the block ends the old handlers are back, and a signal that arrived but was never
    raised (because the block ended first) is handed to them.

    Args:
        signums: The signals to catch (default :func:`handled_signals`).
        ignore_afterwards: Leave ``signums`` ignored when the block ends, and hand nothing
            on: for a program's entry point, which ends the process next and must not be
            cut short. Read :attr:`SignalWatch.first` after the block: a signal in its last
            moments is recorded, not raised.

    Yields:
        The block's :class:`SignalWatch`.
    """
    global _ACTIVE
    if not _in_main_thread():
        yield SignalWatch()
        return
    if _ACTIVE is not None:
        yield _ACTIVE
        return
    _hook_fork()
    watch = SignalWatch(signums if signums is not None else handled_signals())
    _ACTIVE = watch
    try:
        watch._install()
        yield watch
    finally:
        _ACTIVE = None
        watch._end(ignore=ignore_afterwards)
        if not ignore_afterwards:
            watch._hand_on()


def checkpoint() -> None:
    """Raise :class:`Terminated` if a signal has arrived in the process's
    :func:`terminate_on_signals` block (see :meth:`SignalWatch.checkpoint`); else nothing.

    Cheap enough for every frame; safe in any thread (a worker stops too).
    """
    watch = _ACTIVE
    if watch is not None:
        watch.checkpoint()


@contextmanager
def defer_signals(signums: tuple[int, ...] | None = None) -> Iterator[None]:
    """Hold back ``signums`` (default :func:`handled_signals`) for the length of the block.

    Inside :func:`terminate_on_signals` (whose signals are then the ones held back), a signal
    that arrives meanwhile is recorded and raised as :class:`Terminated` when the outermost
    such block ends normally. Otherwise it is recorded, and handed, once the previous
    handlers are back, to whatever handler was in place (which may raise, or end the
    process). Outside the main thread the block runs unchanged: Python runs signal handlers
    in the main thread only, so nothing can interrupt the block there.
    """
    if not _in_main_thread():
        yield
        return
    watch = _ACTIVE
    if watch is not None:
        watch._holding += 1
        try:
            yield
        finally:
            watch._holding -= 1
        if not watch._holding:
            watch._release_held()
        return
    arrived: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    previous: dict[int, _Handler] = {}
    try:
        for signum in signums if signums is not None else handled_signals():
            old = signal.getsignal(signum)
            if old is None or old == signal.SIG_IGN:
                continue
            previous[signum] = old
            signal.signal(signum, record)
        yield
    finally:
        _set_handlers(previous)
        for signum in dict.fromkeys(arrived):
            _deliver(signum, previous[signum])


def _set_handlers(handlers: dict[int, _Handler]) -> None:
    """Set every handler in ``handlers``, even if a pending signal's handler raises on the
    way (it is re-raised once all are set).

    A signal that lands while its Python handler is being swapped for ``SIG_IGN`` or
    ``SIG_DFL`` is dropped by Python, which reports it on stderr as ``Signal N ignored due to
    race condition``. Such a signal arrived as the handlers changed hands and is meant to be
    dropped (ignored, or after the block): its report is not shown. A second pass runs what
    the first left pending while that report is still held back.
    """
    error: BaseException | None = None
    shown = sys.unraisablehook
    races = {f"Signal {signum} ignored due to race condition" for signum in handlers}

    def hold_back_races(unraisable: sys.UnraisableHookArgs) -> None:
        if not (isinstance(unraisable.exc_value, OSError) and str(unraisable.exc_value) in races):
            shown(unraisable)

    sys.unraisablehook = hold_back_races
    try:
        for signum, handler in [*handlers.items(), *handlers.items()]:
            for _ in range(3):  # a raising handler runs before the swap; a few tries suffice
                try:
                    signal.signal(signum, handler)
                    break
                except BaseException as exc:
                    error = error or exc
    finally:
        sys.unraisablehook = shown
    if error is not None:
        raise error


def _deliver(signum: int, handler: _Handler) -> None:
    """Hand a held-back signal to ``handler`` as if it had just arrived."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # the default action: usually the end of the process


def _hook_fork() -> None:
    """Once: a child made by ``os.fork`` (a process pool's worker) forgets the parent's
    watch, so that it handles signals as any Python process does."""
    global _FORK_HOOKED
    if not _FORK_HOOKED and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_forget_in_child)
        _FORK_HOOKED = True


def _forget_in_child() -> None:
    global _ACTIVE
    watch, _ACTIVE = _ACTIVE, None
    if watch is not None:
        watch._forget()


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
