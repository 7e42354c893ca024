"""The tidy tables of a sweep: ``runs.csv`` (one row per run) and ``timings.csv``.

A row of ``runs.csv`` is ``run`` (the run's id: its settings and seed), the settings' columns
(named by their keys), ``seed``, then the keys of ``searchvid run --json`` flattened with dots
(``best.value``, ``score.total``; a race's searches as ``searches.0.events``), then ``error``.
Its cells are the same bytes whatever executor ran the sweep and however many workers: the
rows are in the grid's order, not the order the runs finished in. What varies from one run to
the next (``seconds``, ``peak_rss_mb`` and the worker's ``wall_seconds``) is in
``timings.csv``, one row per run, keyed by ``run``.

While a sweep runs, each finished row is appended to both files and flushed, so that a sweep
stopped half-way leaves valid CSV files holding every finished run; when it ends (or stops)
the files are rewritten in the grid's order.

Cells: an empty cell is a missing value (JSON's null); ``true`` and ``false`` are booleans;
numbers are written as Python writes them (floats round-trip exactly); a list is JSON.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from searchvid.errors import RunError, UsageError

TIMING_KEYS = ("seconds", "peak_rss_mb", "wall_seconds")
"""Keys that vary from run to run (``run --json``'s, and the worker's ``wall_seconds``):
they go to ``timings.csv``."""

RUN_KEYS = (
    "scene",
    "title",
    "domain",
    "algorithm",
    "events",
    "frames",
    "best.label",
    "best.value",
    "best.depth",
    "solved",
    "ended",
    "max_events_reached",
)
"""The keys of every ``run --json`` object, flattened, in the order of ``runs.csv``."""

RUNS_FILE = "runs.csv"
TIMINGS_FILE = "timings.csv"


def flatten(stats: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A ``run --json`` object with its nested objects and lists of objects flattened:
    ``{"best": {"value": 1}}`` gives ``{"best.value": 1}``; a missing ``best`` (null) gives
    null ``best.label``, ``best.value`` and ``best.depth``."""
    flat: dict[str, Any] = {}
    for key, value in stats.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, f"{name}."))
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for i, item in enumerate(value):
                flat.update(flatten(item, f"{name}.{i}."))
        elif key == "best" and value is None:
            flat.update(dict.fromkeys((f"{name}.label", f"{name}.value", f"{name}.depth")))
        else:
            flat[name] = value
    return flat


def is_timing(key: str) -> bool:
    """Whether a flattened key is a timing (``seconds``, ``searches.0.peak_rss_mb``)."""
    return key.rpartition(".")[2] in TIMING_KEYS


def run_columns(report: Iterable[str], searches: int) -> list[str]:
    """The columns of ``run --json``'s keys in ``runs.csv``, timings left out.

    Args:
        report: The flattened keys the domain adds (``score.total``, ``rounds``).
        searches: How many searches the scene has (a race has several).
    """
    reported = list(report)
    if searches == 1:
        return [*RUN_KEYS, *reported]
    columns = [*RUN_KEYS[:9], "best.search", *RUN_KEYS[9:], "failed"]
    for i in range(searches):
        each = (*RUN_KEYS[:4], "seed", *RUN_KEYS[4:], *reported, "error")
        columns += [f"searches.{i}.{key}" for key in each]
    return columns


def cell(value: Any) -> str:
    """A value as a CSV cell (see the module's description)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def number(text: str) -> float | None:
    """A cell as a number (None when empty or not a number)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value else None


class SweepFiles:
    """``runs.csv`` and ``timings.csv`` in a sweep's folder, written as runs finish.

    Args:
        folder: The sweep's folder (created if missing).
        columns: ``runs.csv``'s header.
        timing_columns: ``timings.csv``'s header.
        resume: Keep the rows already in ``runs.csv`` (its header must be ``columns``);
            otherwise an existing ``runs.csv`` is refused.

    Raises:
        UsageError: ``runs.csv`` exists without ``resume``, or has other columns.
    """

    def __init__(
        self,
        folder: Path,
        columns: Sequence[str],
        timing_columns: Sequence[str],
        *,
        resume: bool,
    ) -> None:
        self.folder = folder
        self.columns = list(columns)
        self.timing_columns = list(timing_columns)
        self.rows: dict[str, dict[str, str]] = {}
        self.timings: dict[str, dict[str, str]] = {}
        runs = folder / RUNS_FILE
        if runs.exists() and not resume:
            raise UsageError(
                f"{runs} exists: pass --resume to go on with that sweep, or choose another -o"
            )
        if resume and runs.exists():
            self.rows = _read_rows(runs, self.columns)
            timings = folder / TIMINGS_FILE
            if timings.exists():
                self.timings = _read_rows(timings, self.timing_columns, strict=False)
        self._runs: IO[str] | None = None
        self._times: IO[str] | None = None

    def __enter__(self) -> SweepFiles:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RunError(f"{self.folder}: cannot create the folder: {error.strerror}") from None
        self._runs = _appender(self.folder / RUNS_FILE, self.columns, self.rows)
        self._times = _appender(self.folder / TIMINGS_FILE, self.timing_columns, self.timings)
        return self

    def __exit__(self, *exc: object) -> None:
        for stream in (self._runs, self._times):
            if stream is not None:
                stream.close()
        self._runs = self._times = None

    def add(self, row: Mapping[str, str], timing: Mapping[str, str]) -> None:
        """Append one finished run to both files, flushed."""
        assert self._runs is not None, "use inside `with`"
        assert self._times is not None
        run = row["run"]
        self.rows[run] = dict(row)
        self.timings[run] = dict(timing)
        _append(self._runs, self.columns, row)
        _append(self._times, self.timing_columns, timing)

    def rewrite(self, order: Sequence[str]) -> None:
        """Rewrite both files with the runs in ``order`` first, then any others in the order
        they were read (rows of an earlier sweep in the folder that this grid lacks)."""
        rank = {run: i for i, run in enumerate(order)}
        runs = sorted(self.rows, key=lambda run: rank.get(run, len(rank)))
        write_csv(self.folder / RUNS_FILE, self.columns, [self.rows[r] for r in runs])
        timed = [self.timings[r] for r in runs if r in self.timings]
        write_csv(self.folder / TIMINGS_FILE, self.timing_columns, timed)


def _read_rows(
    path: Path, columns: Sequence[str], *, strict: bool = True
) -> dict[str, dict[str, str]]:
    """The complete rows of ``path`` by run id (a last line cut short by a crash is dropped).

    Raises:
        UsageError: The header is not ``columns`` (with ``strict``).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RunError(f"{path}: cannot read: {error.strerror}") from None
    reader = csv.reader(io.StringIO(text))
    header = next(reader, [])
    if header != list(columns):
        if not strict:
            return {}
        raise UsageError(
            f"{path}: written by another sweep (its columns differ from this one's: "
            "other settings, scene or domain); choose another -o, or delete it"
        )
    rows: dict[str, dict[str, str]] = {}
    for values in reader:
        if len(values) == len(columns):
            row = dict(zip(columns, values, strict=True))
            rows[row["run"]] = row
    return rows


def _appender(path: Path, columns: Sequence[str], rows: Mapping[str, Mapping[str, str]]) -> IO[str]:
    """``path`` rewritten with ``rows`` and left open for appending."""
    write_csv(path, columns, list(rows.values()))
    try:
        return path.open("a", encoding="utf-8", newline="")
    except OSError as error:
        raise RunError(f"{path}: cannot write: {error.strerror}") from None


def _append(stream: IO[str], columns: Sequence[str], row: Mapping[str, str]) -> None:
    try:
        csv.writer(stream, lineterminator="\n").writerow([row.get(c, "") for c in columns])
        stream.flush()
    except OSError as error:
        raise RunError(f"{stream.name}: cannot write: {error.strerror}") from None


def write_csv(path: Path, columns: Sequence[str], rows: Iterable[Mapping[str, str]]) -> None:
    """Write a CSV file whole (``columns``, then ``rows``), under a temporary name renamed
    into place."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([row.get(c, "") for c in columns] for row in rows)
    write_atomically(path, buffer.getvalue().encode("utf-8"))


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` under a temporary name beside it, then rename it into place.

    Raises:
        RunError: The folder is not writable or the disk is full (nothing is left behind).
    """
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise RunError(f"{path}: cannot write: {error.strerror or error}") from None


def read_csv(path: Path) -> Iterator[dict[str, str]]:
    """The rows of a CSV file written here, as dicts."""
    with path.open(encoding="utf-8", newline="") as stream:
        yield from csv.DictReader(stream)
