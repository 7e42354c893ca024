"""The console entry point: the one signal handler is in place before the command line loads.

Importing numpy, Pillow and the rest takes a few tenths of a second; a Ctrl-C or SIGTERM in
that time must end in the same one ``Error:`` line and exit code as one during a render. This
module imports only the standard library and :mod:`searchvid.signals`, and its
:func:`main` installs the handler as its first statement (see :mod:`searchvid.signals` for
what comes before).
"""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

from searchvid.signals import SignalWatch, Terminated, terminate_on_signals


def main() -> NoReturn:
    """Run ``searchvid``'s command line (``searchvid.cli.main``) under the process's one
    signal handler, and exit.

    The first signal to arrive, whenever it arrives, decides the exit code (128 + its number)
    and the one ``Error: interrupted (SIG...)`` line, unless the command had already failed
    and said so. The signals stay ignored from the end of the command to the end of the
    process.
    """
    try:
        with terminate_on_signals(ignore_afterwards=True) as watch:
            code = _command_line(watch)
    except Terminated as stop:  # raised before the command line's own try began
        code = _report(stop)
    except KeyboardInterrupt:  # Python's own handler, in the instant before ours was set
        code = _report(Terminated(signal.SIGINT))
    else:
        # The record is final: the signals are ignored from here on.
        if watch.first is not None and code == 0:  # it came after the command, before exit
            code = _report(Terminated(watch.first))
    sys.exit(code)


def _command_line(watch: SignalWatch) -> int:
    """Run the command line; its exit code (the ``Error:`` line, if any, is written)."""
    try:
        from searchvid.cli import main as command_line

        watch.checkpoint()  # a signal during the imports was held back until they were done
        command_line()
    except SystemExit as done:
        return _exit_code(done.code)
    except Terminated as stop:
        return _report(stop)
    return 0  # the command line always exits itself; not reached


def _exit_code(code: object) -> int:
    """An exit code as :func:`sys.exit` turns its argument into one."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    _write(f"{code}\n")
    return 1


def _report(stop: Terminated) -> int:
    _write(f"Error: {stop}\n")
    return stop.exit_code


def _write(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):  # no stderr to write to: the exit code still says it
        pass
