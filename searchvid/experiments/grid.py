"""The runs of a sweep: every combination of the settings' values, times every seed.

The order is the grid's: the first setting varies slowest, the seeds fastest. It is the
order of the rows of ``runs.csv``, whatever order the runs finish in.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.errors import UsageError
from searchvid.experiments.settings import Setting

_SEEDS = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$")
MAX_RUNS = 1_000_000
"""The most runs one sweep takes (a typo such as ``0..9999999`` is refused)."""


@dataclass(frozen=True)
class Task:
    """One run of a sweep.

    Attributes:
        index: Its place in the grid's order.
        run: Its id: the settings and the seed, ``search.iterations=400 seed=3``.
        values: The settings' values, by dotted key.
        texts: The same values as written (the cells of the settings' columns).
        seed: The seed.
    """

    index: int
    run: str
    values: Mapping[str, Any]
    texts: Mapping[str, str]
    seed: int


def parse_seeds(text: str) -> list[int]:
    """``0..49`` (both ends included), ``7``, or a comma-separated list of those.

    Raises:
        UsageError: Anything else, an empty range or a seed repeated.
    """
    seeds: list[int] = []
    for part in text.split(","):
        found = _SEEDS.match(part)
        if found is None:
            raise UsageError(f"--seeds {text!r}: write FIRST..LAST (e.g. 0..49) or a list: 1,5,9")
        first = int(found.group(1))
        last = int(found.group(2)) if found.group(2) is not None else first
        if last < first:
            raise UsageError(f"--seeds {part.strip()}: the range is empty (LAST < FIRST)")
        if last - first >= MAX_RUNS:
            raise UsageError(f"--seeds {part.strip()}: more than {MAX_RUNS:,} seeds")
        seeds.extend(range(first, last + 1))
    if len(set(seeds)) != len(seeds):
        raise UsageError(f"--seeds {text!r}: a seed is repeated")
    return seeds


def run_id(texts: Mapping[str, str], seed: int) -> str:
    """A run's id: ``KEY=VALUE`` for each setting, then ``seed=S``, separated by spaces."""
    return " ".join([*(f"{key}={text}" for key, text in texts.items()), f"seed={seed}"])


def make_grid(settings: Sequence[Setting], seeds: Iterable[int]) -> list[Task]:
    """Every combination of the settings' values (the first slowest), each with every seed.

    Raises:
        UsageError: A key given twice, no seed, or more than :data:`MAX_RUNS` runs.
    """
    keys = [one.key for one in settings]
    if len(set(keys)) != len(keys):
        raise UsageError(f"--set {_repeated(keys)}: the key is given twice")
    seed_list = list(seeds)
    if not seed_list:
        raise UsageError("--seeds: no seed to run")
    total = len(seed_list)
    for one in settings:
        total *= len(one.values)
    if total > MAX_RUNS:
        raise UsageError(f"the sweep has {total:,} runs; at most {MAX_RUNS:,}")
    tasks: list[Task] = []
    choices = [list(zip(one.values, one.texts, strict=True)) for one in settings]
    for combination in itertools.product(*choices):
        values = {key: value for key, (value, _) in zip(keys, combination, strict=True)}
        texts = {key: text for key, (_, text) in zip(keys, combination, strict=True)}
        for seed in seed_list:
            tasks.append(Task(len(tasks), run_id(texts, seed), values, texts, seed))
    return tasks


def settings_from_mapping(settings: Mapping[str, Sequence[Any]] | None) -> list[Setting]:
    """The API's ``settings={"search.iterations": [100, 400]}`` as :class:`Setting`\\ s.

    A value's text (its column's cell) is how TOML writes it: ``400``, ``0.5``, ``true``,
    ``"greedy"`` (a string's text is the string itself).

    Raises:
        UsageError: A bad key, or a key without values.
    """
    from searchvid.experiments.settings import check_key

    found: list[Setting] = []
    for key, values in (settings or {}).items():
        check_key(key)
        listed = [values] if isinstance(values, str) else list(values)
        if not listed:
            raise UsageError(f"settings[{key!r}]: no value")
        texts = tuple(_text(value) for value in listed)
        if len(set(texts)) != len(texts):
            raise UsageError(f"settings[{key!r}]: a value is repeated")
        found.append(Setting(key, tuple(listed), texts))
    return found


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return repr(value) if isinstance(value, float) else str(value)


def _repeated(keys: Sequence[str]) -> str:
    return next(key for i, key in enumerate(keys) if key in keys[:i])
