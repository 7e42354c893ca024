"""Helpers of the sweep tests: a user's domain that fails on purpose, and CSV readers."""

from __future__ import annotations

import csv
import io
import json
import textwrap
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from searchvid.cli import main
from searchvid.experiments.table import cell, flatten, is_timing

SCENE = "railroad-game-random"
"""A shipped scene whose runs take milliseconds and differ from seed to seed."""

FLAKY = textwrap.dedent(
    '''\
    """A user's domain: a path of numbered nodes whose children() fails at node ``bad``."""

    from dataclasses import dataclass

    from searchvid import Domain, GridView, option


    @dataclass(frozen=True)
    class Step:
        n: int
        bad: int

        def children(self):
            if self.n == self.bad:
                return [][1]  # <raises>
            return [Step(self.n + k, self.bad) for k in (1, 2) if self.n + k <= 6]


    @dataclass(frozen=True, kw_only=True)
    class Options:
        bad: int = option(-1, doc="The node whose children() raises (-1: none).")


    class Flaky(Domain):
        name = "flaky"
        summary = "A path of numbered nodes whose children() may fail."
        options_type = Options
        has_goal = True
        default_value = "score"

        def root(self):
            return Step(0, self.options.bad)

        def view(self):
            return GridView((1, 1), colors={0: "#ffffff", 1: "#000000"}, cells=lambda s: [s.n % 2])

        def label(self, node):
            return f"n={node.n}"

        def is_goal(self, node):
            return node.n == 6

        def values(self):
            return {"score": lambda node: node.n / 6}
    '''
)

FLAKY_SCENE = textwrap.dedent(
    """\
    title = "A flaky domain"
    [domain]
    name = "flaky:Flaky"
    [search]
    algorithm = "random-walk"
    restarts = 2
    [video]
    tile_size = 8
    """
)


def write_flaky(folder: Path) -> Path:
    """``flaky.py`` and ``flaky.toml`` in ``folder``; the scene's path."""
    (folder / "flaky.py").write_text(FLAKY, encoding="utf-8")
    scene = folder / "flaky.toml"
    scene.write_text(FLAKY_SCENE, encoding="utf-8")
    return scene


def line_of(marker: str) -> int:
    """The line of ``flaky.py`` marked ``# <marker>``."""
    return next(i for i, line in enumerate(FLAKY.splitlines(), 1) if f"# <{marker}>" in line)


def rows(path: Path) -> list[dict[str, str]]:
    """A CSV file's rows as dicts."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def invoke(*args: str) -> Any:
    """``searchvid ARGS`` in this process; click's result."""
    return CliRunner().invoke(main, list(args))


def run_json_cells(scene: str, seed: int, *settings: str) -> dict[str, str]:
    """``searchvid run SCENE --seed S --set ... --json``, flattened as the cells of a row of
    runs.csv (timings left out)."""
    sets = [item for setting in settings for item in ("--set", setting)]
    result = invoke("run", scene, "--seed", str(seed), *sets, "--json")
    assert result.exit_code == 0, result.output
    flat = flatten(json.loads(result.stdout))
    return {key: cell(value) for key, value in flat.items() if not is_timing(key)}
