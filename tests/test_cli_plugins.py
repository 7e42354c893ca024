"""`searchvid check`, `domains` and `algorithms` on built-in and user-written domains."""

from __future__ import annotations

import subprocess
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


# --- broken plugins: check and scenes name the user's line and go on (issue 18) ----------

PLUGIN_GAME = """
import itertools
import subprocess
import sys
from dataclasses import dataclass

import numpy as np
from PIL import Image

from searchvid import Domain, TileSet, option


@dataclass(frozen=True)
class Node:
    n: int

    def children(self):
        if self.n == 2:
            return [][1]  # <children-raises>
        return [Node(self.n + 1), Node(self.n + 2)] if self.n < 4 else []


@dataclass(frozen=True)
class Forever:
    n: int

    def children(self):
        return (Forever(self.n + k) for k in itertools.count(1))


class View:
    tileset = TileSet(("a",), draw=lambda name, size: Image.new("RGB", (size, size)))
    shape = (1, 1)

    def grid(self, node):
        return np.zeros((1, 1), dtype=np.int16)


@dataclass(frozen=True, kw_only=True)
class Options:
    pass


class Game(Domain):
    name = "plugin-game"
    summary = "Counts to 4; children() of 2 raises."
    options_type = Options

    def root(self):
        return Node(0)

    def view(self):
        return View()

    def label(self, node):
        return f"n={node.n}"


class Endless(Game):
    name = "endless"

    def root(self):
        return Forever(0)


class ExitingRoot(Game):
    def root(self):
        sys.exit(7)  # <root-exits>


class Abstract(Domain):
    name = "abstract"
    options_type = Options


class PlainOptions(Game):
    options_type = dict
"""

PLUGIN_MODULES = {
    "plugingame": PLUGIN_GAME,
    "exits": "import sys\n\nsys.exit(3)  # <import>\n",
    "basex": "class Stop(BaseException):\n    pass\n\n\nraise Stop('at import')  # <import>\n",
}


def _line(source: str, marker: str) -> int:
    lines = source.splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.endswith(f"# <{marker}>"))


@pytest.fixture
def plugin_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name, source in PLUGIN_MODULES.items():
        (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in PLUGIN_MODULES:
        sys.modules.pop(name, None)


def test_check_names_the_users_line_and_the_node(plugin_folder: Path) -> None:
    result = CliRunner().invoke(main, ["check", "plugingame:Game"])
    assert result.exit_code == 1, result.output
    line = _line(PLUGIN_GAME, "children-raises")
    assert result.stdout == (
        "plugin-game: 4 of 19 checks failed:\n"
        "  children, capabilities, transpositions, random-walks: children() of node 'n=2' "
        f"raised IndexError: list index out of range (at plugingame.py:{line} in "
        "Node.children())\n"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "exits:Game",
            "cannot load domain 'exits:Game': importing 'exits' failed: exits.py:3: SystemExit(3)",
        ),
        (
            "basex:Game",
            "cannot load domain 'basex:Game': importing 'basex' failed: basex.py:5: "
            "Stop: at import",
        ),
        (
            "plugingame:Abstract",
            "Abstract is an abstract class: it does not implement root(), view() (a domain "
            "implements every abstract method of Domain)",
        ),
        (
            "plugingame:PlainOptions",
            "PlainOptions.options_type must be a dataclass (@dataclass(frozen=True, "
            "kw_only=True)), got the class dict, which is not one",
        ),
    ],
)
def test_check_of_a_plugin_that_cannot_load_is_one_line_exit_2(
    plugin_folder: Path, name: str, message: str
) -> None:
    result = CliRunner().invoke(main, ["check", name])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {name}: {message}\n"


def test_check_of_a_root_that_exits_reports_it_and_does_not_exit(plugin_folder: Path) -> None:
    result = CliRunner().invoke(main, ["check", "plugingame:ExitingRoot"])
    assert result.exit_code == 1, result.output
    line = _line(PLUGIN_GAME, "root-exits")
    assert result.stdout == (
        "plugin-game: 14 of 19 checks failed:\n"
        "  root, has-children, children, equality, capabilities, turns, rewards, terminal, "
        "transpositions, chance, random-walks, labels, goal, view: root() raised SystemExit(7) "
        f"(at plugingame.py:{line} in ExitingRoot.root())\n"
    )


def test_check_on_endless_children_ends_in_bounded_memory(plugin_folder: Path) -> None:
    # a process of its own with its address space capped: pulling the endless generator into
    # a list would die of MemoryError (or eat the machine) instead of reporting the cut
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))\n"
        "from searchvid.cli import main\n"
        "main(['check', 'plugingame:Endless'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=plugin_folder
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout == (
        "endless: 6 of 19 checks failed:\n"
        "  has-children, children, equality, capabilities, transpositions, random-walks: "
        "children() of the "
        "root gave more than 100,000 children (is it endless?)\n"
    )


def test_scenes_lists_the_valid_scenes_and_marks_each_broken_plugin(plugin_folder: Path) -> None:
    names = {
        "a-good": "plugingame:Game",
        "b-exits": "exits:Game",
        "c-basex": "basex:Game",
        "d-abstract": "plugingame:Abstract",
        "e-plain": "plugingame:PlainOptions",
        "f-root-exits": "plugingame:ExitingRoot",
    }
    for stem, domain in names.items():
        text = f'[domain]\nname = "{domain}"\n[search]\nalgorithm = "backtracking"\n'
        (plugin_folder / f"{stem}.toml").write_text(text)
    result = CliRunner().invoke(main, ["scenes", "."])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: " ".join(line.split()[1:]) for line in result.stdout.splitlines()}
    root_line = _line(PLUGIN_GAME, "root-exits")
    assert rows == {
        "FILE": "TITLE DOMAIN ALGORITHM",
        "a-good.toml": "a-good plugin-game backtracking",
        "b-exits.toml": "(invalid: domain.name: cannot load domain 'exits:Game': importing "
        "'exits' failed: exits.py:3: SystemExit(3)) - -",
        "c-basex.toml": "(invalid: domain.name: cannot load domain 'basex:Game': importing "
        "'basex' failed: basex.py:5: Stop: at import) - -",
        "d-abstract.toml": "(invalid: domain.name: Abstract is an abstract class: it does not "
        "implement root(), view() (a domain implements every abstract method of Domain)) - -",
        "e-plain.toml": "(invalid: domain.name: PlainOptions.options_type must be a dataclass "
        "(@dataclass(frozen=True, kw_only=True)), got the class dict, which is not one) - -",
        "f-root-exits.toml": f"(invalid: plugingame.py:{root_line} in ExitingRoot.root(): "
        "SystemExit(7)) - -",
    }
