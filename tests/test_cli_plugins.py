"""`searchvid check`, `domains` and `algorithms` on built-in and user-written domains."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from searchvid.cli import main
from searchvid.domains import domain_names

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BROKEN_GAME = """
from dataclasses import dataclass

from PIL import Image

from searchvid import Domain, TileSet, option


@dataclass(frozen=True)
class Node:
    n: int

    def children(self):
        return [Node(self.n + 1)] if self.n < 3 else []


class ListNode(list):
    __hash__ = None

    def children(self):
        return []


class View:
    tileset = TileSet(("a",), draw=lambda name, size: Image.new("RGB", (size, size)))
    shape = (1, 1)

    def grid(self, node):
        import numpy as np

        return np.zeros((1, 1), dtype=np.int16)


@dataclass(frozen=True, kw_only=True)
class Options:
    pass


class OutOfRange(Domain):
    name = "out-of-range"
    summary = "A value function returning 1.5."
    options_type = Options

    def root(self):
        return Node(0)

    def view(self):
        return View()

    def values(self):
        return {"score": lambda node: 1.5}


class Unhashable(OutOfRange):
    name = "unhashable"
    summary = "A node that is a list."

    def root(self):
        return ListNode([1])

    def values(self):
        return {}
"""


@pytest.fixture
def user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "brokengame.py").write_text(BROKEN_GAME)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("brokengame", None)
    sys.modules.pop("eight_puzzle", None)


@pytest.mark.parametrize("name", domain_names())
def test_check_passes_on_every_registered_domain(name: str) -> None:
    result = CliRunner().invoke(main, ["check", name])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{name}: ")
    assert "checks passed" in result.output


def test_check_passes_on_the_example_by_import_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(EXAMPLES)
    result = CliRunner().invoke(main, ["check", "eight_puzzle:EightPuzzle"])
    assert result.exit_code == 0, result.output
    assert "eight-puzzle: " in result.output
    scene = CliRunner().invoke(main, ["check", str(EXAMPLES / "eight-puzzle-astar.toml")])
    assert scene.exit_code == 0, scene.output
    sys.modules.pop("eight_puzzle", None)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("brokengame:OutOfRange", "value function 'score' returned 1.5"),
        ("brokengame:Unhashable", "not hashable"),
    ],
)
def test_check_names_the_failure_and_exits_1(user_folder: Path, name: str, words: str) -> None:
    result = CliRunner().invoke(main, ["check", name])
    assert result.exit_code == 1, result.output
    assert "checks failed" in result.output
    assert words in result.output


def test_check_of_an_unknown_name_is_a_usage_error(user_folder: Path) -> None:
    result = CliRunner().invoke(main, ["check", "nosuchmodule:Game"])
    assert result.exit_code == 2
    assert "no module named 'nosuchmodule'" in result.output


def test_domains_and_algorithms_list_every_registered_name() -> None:
    from searchvid.search.algorithm import algorithm_names

    domains = CliRunner().invoke(main, ["domains"])
    assert domains.exit_code == 0
    assert all(name in domains.output for name in domain_names())
    algorithms = CliRunner().invoke(main, ["algorithms", "mcts"])
    assert algorithms.exit_code == 0
    assert "exploration" in algorithms.output
    assert all(
        name in CliRunner().invoke(main, ["algorithms"]).output for name in algorithm_names()
    )
    unknown = CliRunner().invoke(main, ["domains", "nope"])
    assert unknown.exit_code == 2


def test_domains_shows_a_users_domain_by_import_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)
    result = CliRunner().invoke(main, ["domains", "eight_puzzle:EightPuzzle"])
    sys.modules.pop("eight_puzzle", None)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("eight_puzzle:EightPuzzle")
    assert "start" in result.output  # its option
    assert "manhattan" in result.output  # its heuristic
