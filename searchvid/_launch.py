"""The console entry point: signals are caught before the command line's heavy imports.

Importing numpy, Pillow and the rest takes a few tenths of a second; a Ctrl-C or SIGTERM in
that time must end in the same one ``Error:`` line and exit code as one during a render.
This module imports only the standard library and :mod:`searchvid.signals`.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from searchvid.signals import Terminated, terminate_on_signals


def main() -> NoReturn:
    """Run ``searchvid``'s command line (``searchvid.cli.main``) with signals caught early."""
    try:
        with terminate_on_signals(ignore_after_signal=True):
            from searchvid.cli import main as command_line

            command_line()
    except Terminated as stop:
        _fail(str(stop), stop.exit_code)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    sys.exit(0)  # the command line always exits itself; this is never reached


def _fail(message: str, code: int) -> NoReturn:
    sys.stderr.write(f"Error: {message}\n")
    sys.exit(code)
