"""A progress bar on stderr for long renders (click's), behind a frames-done callback."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click


@contextmanager
def progress_bar(total: int, *, label: str = "rendering") -> Iterator[Callable[[int], None]]:
    """A callback taking the frames done so far, drawing a bar on stderr while the block runs.

    ``total`` is an upper bound (``max_frames``; searches often end sooner), so the bar shows
    the frame count rather than a time estimate, and closes on the frames actually done.
    """
    with click.progressbar(
        length=max(total, 1), label=label, file=sys.stderr, show_eta=False, show_pos=True
    ) as bar:

        def advance(done: int) -> None:
            bar.update(done - bar.pos)

        yield advance
        bar.length = max(bar.pos, 1)  # the cap was only an upper bound
        bar.render_progress()


def wants_progress_bar(*, quiet: bool) -> bool:
    """Whether a command should draw a bar: not ``--quiet``, stderr a terminal, not in CI."""
    return not quiet and sys.stderr.isatty() and not os.environ.get("CI")
