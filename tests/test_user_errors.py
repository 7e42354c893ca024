"""Errors in the user's own code are located (issue 18): a domain written outside searchvid
that raises, or returns what searchvid cannot use, at any hook.

Every case runs a scene naming ``usergame:Game`` (a module written to ``tmp_path``) through
the command line and asserts the exact one line on stderr, the exit code, and that no
output was written. Lines are found by ``# <marker>`` comments in the module's source, so
the messages are asserted whole without hard-coding line numbers.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from searchvid.cli import main
from searchvid.errors import UserCodeError
from searchvid.render.gridview import CellError, GridView
from searchvid.render.view import grid_problem
from searchvid.usercode import Location, blame, culprit, exception_text

HINT = "(SEARCHVID_DEBUG=1 shows the traceback)"

USERGAME = '''\
"""A small game of the user's; the option ``broken`` picks the hook that misbehaves."""

import json
import math
import sys
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from PIL import Image

from searchvid import Capability, Domain, GridView, TileSet, option


@dataclass(frozen=True)
class Count:
    n: int

    def children(self):
        return [type(self)(self.n + step) for step in (1, 2) if self.n + step <= 4]


class RaisingChildren(Count):
    def children(self):
        if self.n == 2:
            return [][1]  # <children-raises>
        return super().children()


class NoneChildren(Count):
    def children(self):  # <children-none>
        if self.n == 2:
            return None
        return super().children()


class NumberChildren(Count):
    def children(self):  # <children-number>
        return 3 if self.n == 2 else super().children()


class ExitingChildren(Count):
    def children(self):
        if self.n == 2:
            sys.exit(4)  # <children-exits>
        return super().children()


class ParsingChildren(Count):
    def children(self):
        if self.n == 2:
            json.loads("{")  # <children-stdlib>
        return super().children()


class BadEq(Count):
    def __eq__(self, other):
        raise RuntimeError("no comparing")  # <eq-raises>

    __hash__ = Count.__hash__


class BadHash(Count):
    def __hash__(self):
        raise RuntimeError("no hashing")  # <hash-raises>


class ListNode(list):  # <unhashable>
    def children(self):
        return []


@dataclass(frozen=True)
class Duel:
    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.TERMINAL, Capability.TO_MOVE, Capability.REWARD}
    )
    n: int

    @property
    def to_move(self):
        return self.n % 2

    def children(self):
        return [type(self)(self.n + 1), type(self)(self.n + 2)] if self.n < 4 else []

    def is_terminal(self):
        return self.n >= 4

    def reward(self):
        return 0.5


class NoneDuel(Duel):
    def children(self):  # <duel-children-none>
        return None if self.n == 2 else super().children()


class NanDuel(Duel):
    def reward(self):  # <duel-reward-nan>
        return math.nan


NODES = {
    "children-raises": RaisingChildren,
    "children-none": NoneChildren,
    "children-number": NumberChildren,
    "children-exits": ExitingChildren,
    "children-stdlib": ParsingChildren,
    "eq-raises": BadEq,
    "hash-raises": BadHash,
    "duel": Duel,
    "duel-children-none": NoneDuel,
    "duel-reward-nan": NanDuel,
}


def _tile(name, size):
    return Image.new("RGB", (size, size), (0, 0, 0) if name == "a" else (255, 255, 255))


class View:
    tileset = TileSet(("a", "b"), draw=_tile)
    shape = (1, 2)

    def __init__(self, broken):
        self.broken = broken

    def grid(self, node):  # <grid>
        answer = GRIDS.get(self.broken)
        if self.broken == "grid-raises":
            raise KeyError("cell")  # <grid-raises>
        if answer is not None:
            return answer()
        return np.array([[node.n % 2, 1]], dtype=np.int16)


GRIDS = {
    "grid-none": lambda: None,
    "grid-list": lambda: [[0, 1]],
    "grid-floats": lambda: np.array([[0.0, 1.0]]),
    "grid-32768": lambda: np.array([[0, 32768]]),
    "grid-70000": lambda: np.array([[0, 70000]]),
    "grid-negative": lambda: np.array([[0, -1]]),
    "grid-shape": lambda: np.zeros((2, 2), dtype=np.int16),
    "grid-int64": lambda: np.array([[1, 0]], dtype=np.int64),
}


@dataclass(frozen=True, kw_only=True)
class Options:
    broken: str = option("", doc="The hook that misbehaves.")


class Game(Domain):
    name = "usergame"
    summary = "Counts to 4, with one hook broken."
    options_type = Options
    has_goal = True
    default_value = "score"
    default_heuristic = "left"

    def root(self):
        if self.options.broken == "root-exits":
            sys.exit(5)  # <root-exits>
        if self.options.broken == "unhashable":
            return ListNode([0])
        return NODES.get(self.options.broken, Count)(0)

    def view(self):
        if self.options.broken == "view-gridview":
            return GridView((1, 2), colors={0: "nonsense"})  # <view-gridview>
        return View(self.options.broken)

    def label(self, node):
        if self.options.broken == "label-raises" and node.n == 3:
            raise ValueError("no label for 3")  # <label-raises>
        return f"n={node.n}"

    def is_goal(self, node):
        if self.options.broken == "goal-raises" and node.n == 3:
            raise ZeroDivisionError("goal")  # <goal-raises>
        return False

    def values(self):  # <values>
        if self.options.broken == "values-list":
            return [self._score]
        return {"score": self._score}

    def heuristics(self):
        return {"left": self._left}

    def _left(self, node):  # <left>
        return math.nan if self.options.broken == "heuristic-nan" else float(4 - node.n)

    def _score(self, node):  # <score>
        broken = self.options.broken
        if broken == "value-raises" and node.n == 3:
            raise ArithmeticError("no score for 3")  # <value-raises>
        if broken == "value-nan":
            return math.nan
        if broken == "value-inf":
            return math.inf
        if broken == "value-none":
            return None
        return node.n / 4


class Abstract(Domain):  # <abstract>
    name = "abstract"
    options_type = Options

    def root(self):
        return Count(0)


class Plain:
    pass


class PlainOptions(Game):
    options_type = Plain


class Endless(Game):
    def root(self):
        return Forever(0)


@dataclass(frozen=True)
class Forever:
    n: int

    def children(self):
        n = self.n
        while True:
            n += 1
            yield Forever(n)
'''

USERALGO = """\
from dataclasses import dataclass

from searchvid import Algorithm, Event, EventKind


@dataclass(frozen=True, kw_only=True)
class Options:
    pass


class Failing(Algorithm[Options]):
    name = "failing"
    options_type = Options

    def _traverse(self, root):
        yield Event(EventKind.ENTER, root, depth=0, step=0)
        raise ValueError("the second event is broken")  # <algorithm-raises>
"""

IMPORT_FAILURES = {
    "exits": "import sys\n\nsys.exit(3)  # <import>\n",
    "basex": "class Stop(BaseException):\n    pass\n\n\nraise Stop('at import')  # <import>\n",
    "valerr": "COUNT = 1\nraise ValueError('broken at import')  # <import>\n",
}


def line_of(marker: str, source: str = USERGAME) -> int:
    """The line of ``source`` holding ``# <marker>``."""
    for number, line in enumerate(source.splitlines(), start=1):
        if line.rstrip().endswith(f"# <{marker}>"):
            return number
    raise AssertionError(f"no marker {marker!r}")


def scene(domain: str = "usergame:Game", algorithm: str = "backtracking", **options: str) -> str:
    """A scene naming ``domain`` with ``[domain]`` options, small and quick to render."""
    lines = [f'name = "{domain}"', *(f'{key} = "{value}"' for key, value in options.items())]
    return textwrap.dedent(
        f"""\
        title = "user game"
        [domain]
        {chr(10).join(lines)}
        [search]
        algorithm = "{algorithm}"
        [video]
        tile_size = 8
        hold_last = 0
        max_frames = 60
        """
    )


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``tmp_path`` as the current folder, holding ``usergame.py`` and the import failures."""
    (tmp_path / "usergame.py").write_text(USERGAME)
    (tmp_path / "useralgo.py").write_text(USERALGO)
    for name, source in IMPORT_FAILURES.items():
        (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in ("usergame", "useralgo", *IMPORT_FAILURES):
        sys.modules.pop(name, None)


def run_cli(folder: Path, *args: str, text: str | None = None) -> Result:
    """Run ``searchvid ARGS`` on ``scene.toml`` (written from ``text``)."""
    if text is not None:
        (folder / "scene.toml").write_text(text)
    return CliRunner().invoke(main, list(args))


def render(folder: Path, text: str) -> Result:
    """Render ``text`` to the folder ``out``; assert nothing is left behind on failure."""
    (folder / "scene.toml").write_text(text)
    before = set(folder.iterdir())
    result = run_cli(folder, "render", "scene.toml", "-o", "out", "-q")
    if result.exit_code != 0:
        left = {p.name for p in set(folder.iterdir()) - before} - {"__pycache__"}
        assert left == set(), f"left behind: {left}"
    return result


def test_a_well_behaved_user_domain_renders(folder: Path) -> None:
    result = render(folder, scene())
    assert result.exit_code == 0, result.output
    assert len(list((folder / "out").glob("frame_*.png"))) > 1


def test_a_view_answering_int64_in_range_renders(folder: Path) -> None:
    result = render(folder, scene(broken="grid-int64"))
    assert result.exit_code == 0, result.output


# --- the user's code raises --------------------------------------------------------------


@pytest.mark.parametrize(
    ("broken", "where", "what"),
    [
        (
            "children-raises",
            "RaisingChildren.children()",
            "IndexError: list index out of range",
        ),
        ("goal-raises", "Game.is_goal()", "ZeroDivisionError: goal"),
        ("value-raises", "Game._score()", "ArithmeticError: no score for 3"),
        ("grid-raises", "View.grid()", "KeyError: 'cell'"),
        ("children-exits", "ExitingChildren.children()", "SystemExit(4)"),
        ("children-stdlib", "ParsingChildren.children()", "JSONDecodeError: "),
        ("view-gridview", "Game.view()", "ValueError: bad colour 'nonsense': expected"),
    ],
)
def test_an_error_in_the_users_code_names_file_line_and_method(
    folder: Path, broken: str, where: str, what: str
) -> None:
    result = render(folder, scene(broken=broken))
    assert result.exit_code == 1, result.output
    line = line_of(broken)
    head = f"Error: usergame.py:{line} in {where}: {what}"
    assert result.stderr.startswith(head), result.stderr
    assert result.stderr.endswith(f" {HINT}\n")
    assert result.stderr.count("\n") == 1


def test_the_installed_command_names_the_line_of_a_raising_children(folder: Path) -> None:
    (folder / "scene.toml").write_text(scene(broken="children-raises"))
    done = subprocess.run(
        [sys.executable, "-m", "searchvid", "render", "scene.toml", "-o", "out.mp4", "-q"],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    line = line_of("children-raises")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"Error: usergame.py:{line} in RaisingChildren.children(): IndexError: list index out "
        f"of range {HINT}\n"
    )
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("out")) == []


def test_an_error_in_the_users_algorithm_names_its_line(folder: Path) -> None:
    result = render(folder, scene(algorithm="useralgo:Failing"))
    assert result.exit_code == 1, result.output
    line = line_of("algorithm-raises", USERALGO)
    assert result.stderr == (
        f"Error: useralgo.py:{line} in Failing._traverse(): ValueError: the second event is "
        f"broken {HINT}\n"
    )


def test_the_stdlib_error_is_named_at_the_users_line(folder: Path) -> None:
    result = render(folder, scene(broken="children-stdlib"))
    line = line_of("children-stdlib")
    assert result.stderr == (
        f"Error: usergame.py:{line} in ParsingChildren.children(): JSONDecodeError: Expecting "
        f"property name enclosed in double quotes: line 1 column 2 (char 1) {HINT}\n"
    )


def test_a_label_that_raises_is_named_by_trace(folder: Path) -> None:
    result = run_cli(folder, "trace", "scene.toml", text=scene(broken="label-raises"))
    assert result.exit_code == 1
    line = line_of("label-raises")
    assert result.stderr == (
        f"Error: usergame.py:{line} in Game.label(): ValueError: no label for 3 {HINT}\n"
    )


@pytest.mark.parametrize(
    ("broken", "marker", "where", "what"),
    [
        ("eq-raises", "eq-raises", "BadEq.__eq__()", f"RuntimeError: no comparing {HINT}"),
        ("hash-raises", "hash-raises", "BadHash.__hash__()", f"RuntimeError: no hashing {HINT}"),
    ],
)
def test_eq_and_hash_that_raise_fail_before_any_frame(
    folder: Path, broken: str, marker: str, where: str, what: str
) -> None:
    # backtracking never compares nodes: without the check at load this rendered, exit 0
    result = render(folder, scene(broken=broken))
    assert result.exit_code == 1
    assert result.stderr == f"Error: usergame.py:{line_of(marker)} in {where}: {what}\n"
    assert not (folder / "out").exists()


def test_an_unhashable_node_is_named(folder: Path) -> None:
    result = run_cli(folder, "run", "scene.toml", text=scene(broken="unhashable"))
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: usergame.py in ListNode.__hash__: ListNode nodes are not hashable: make the "
        "node a frozen dataclass, or define __eq__ and __hash__ on its state\n"
    )


def test_debug_shows_the_users_exception_with_its_traceback(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SEARCHVID_DEBUG", "1")
    result = run_cli(folder, "run", "scene.toml", text=scene(broken="children-raises"))
    assert isinstance(result.exception, IndexError)


# --- the user's code returns what searchvid cannot use -----------------------------------


ALGORITHMS = ["backtracking", "breadth-first", "best-first", "astar", "beam", "random-walk"]


@pytest.mark.parametrize("algorithm", [*ALGORITHMS, "mcts"])
def test_children_returning_none_is_caught_by_every_algorithm(folder: Path, algorithm: str) -> None:
    result = render(folder, scene(algorithm=algorithm, broken="children-none"))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: usergame.py:{line_of('children-none')} in NoneChildren.children(): returned "
        "None, not an iterable of nodes: return a list or a tuple, or yield the children "
        "(node 'n=2')\n"
    )


def test_children_returning_none_is_caught_by_minimax(folder: Path) -> None:
    text = scene(algorithm="minimax", broken="duel-children-none")
    result = render(folder, text)
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: usergame.py:{line_of('duel-children-none')} in NoneDuel.children(): returned "
        "None, not an iterable of nodes: return a list or a tuple, or yield the children "
        "(node 'n=2')\n"
    )


def test_children_returning_a_number_is_caught(folder: Path) -> None:
    result = run_cli(folder, "run", "scene.toml", text=scene(broken="children-number"))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: usergame.py:{line_of('children-number')} in NumberChildren.children(): "
        "returned 3 (an int), not an iterable of nodes: return a list or a tuple, or yield "
        "the children (node 'n=2')\n"
    )


GRID = f"usergame.py:{line_of('grid')} in View.grid()"


@pytest.mark.parametrize(
    ("broken", "problem"),
    [
        ("grid-none", "returned None, not a numpy array of tile ids"),
        ("grid-list", "returned [[0, 1]] (a list), not a numpy array of tile ids"),
        ("grid-floats", "returned a grid of dtype float64; tile ids must be integers, dtype int16"),
        (
            "grid-32768",
            "returned tile id 32768 at cell (0, 1); the tile set has 2 tiles (ids 0 to 1)",
        ),
        (
            "grid-70000",
            "returned tile id 70000 at cell (0, 1); the tile set has 2 tiles (ids 0 to 1)",
        ),
        (
            "grid-negative",
            "returned tile id -1 at cell (0, 1); the tile set has 2 tiles (ids 0 to 1)",
        ),
        ("grid-shape", "returned a grid of shape (2, 2), expected (1, 2) (the view's shape)"),
    ],
)
@pytest.mark.parametrize("out", ["out", "out.gif"])
def test_a_bad_grid_is_refused_before_any_frame_is_written(
    folder: Path, broken: str, problem: str, out: str
) -> None:
    before = set(folder.iterdir())
    text = scene(broken=broken)
    result = run_cli(folder, "render", "scene.toml", "-o", out, "-q", text=text)
    assert result.exit_code == 1, result.output
    assert result.stderr == f"Error: {GRID}: {problem} (node 'n=0')\n"
    assert {p.name for p in set(folder.iterdir()) - before} <= {"__pycache__", "scene.toml"}


@pytest.mark.parametrize(
    ("broken", "shown"), [("value-nan", "nan"), ("value-inf", "inf"), ("value-none", "None")]
)
def test_a_value_that_is_not_a_finite_number_is_refused(
    folder: Path, broken: str, shown: str
) -> None:
    result = render(folder, scene(broken=broken))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: usergame.py:{line_of('score')} in Game._score(): value function 'score' "
        f"returned {shown}; it must return a finite number (node 'n=0')\n"
    )


def test_a_heuristic_that_is_not_finite_is_refused_under_astar(folder: Path) -> None:
    result = render(folder, scene(algorithm="astar", broken="heuristic-nan"))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: usergame.py:{line_of('left')} in Game._left(): heuristic 'left' returned nan; "
        "it must return a finite number (node 'n=0')\n"
    )


def test_values_that_are_not_a_mapping_are_refused(folder: Path) -> None:
    result = run_cli(folder, "run", "scene.toml", text=scene(broken="values-list"))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: usergame.py:{line_of('values')} in Game.values(): returned [<bound method "
        "Game._score of <userga... (a list); it must return a mapping of names to "
        "functions\n"
    )


def test_a_nan_reward_under_minimax_is_refused(folder: Path) -> None:
    result = render(folder, scene(algorithm="minimax", broken="duel-reward-nan"))
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(
        f"Error: usergame.py:{line_of('duel-reward-nan')} in NanDuel.reward(): gave the search "
        "the value nan; a reward must be a finite number (node 'n="
    ), result.stderr


def test_a_nan_reward_under_mcts_is_named_by_the_reward_value(folder: Path) -> None:
    result = render(folder, scene(algorithm="mcts", broken="duel-reward-nan"))
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(
        f"Error: usergame.py:{line_of('duel-reward-nan')} in NanDuel.reward(): "
    ), result.stderr


# --- classes and modules that cannot be loaded -------------------------------------------


@pytest.mark.parametrize(
    ("domain", "message"),
    [
        (
            "usergame:Abstract",
            "Abstract is an abstract class: it does not implement view() (a domain implements "
            "every abstract method of Domain)",
        ),
        (
            "usergame:PlainOptions",
            "PlainOptions.options_type must be a dataclass (@dataclass(frozen=True, "
            "kw_only=True)), got the class Plain, which is not one",
        ),
        (
            "exits:Game",
            "cannot load domain 'exits:Game': importing 'exits' failed: exits.py:{line}: "
            "SystemExit(3)",
        ),
        (
            "basex:Game",
            "cannot load domain 'basex:Game': importing 'basex' failed: basex.py:{line}: "
            "Stop: at import",
        ),
        (
            "valerr:Game",
            "cannot load domain 'valerr:Game': importing 'valerr' failed: valerr.py:{line}: "
            "ValueError: broken at import",
        ),
    ],
)
def test_a_domain_that_cannot_be_loaded_names_the_class_and_the_key(
    folder: Path, domain: str, message: str
) -> None:
    module = domain.partition(":")[0]
    if module in IMPORT_FAILURES:
        message = message.format(line=line_of("import", IMPORT_FAILURES[module]))
    result = render(folder, scene(domain=domain))
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: scene.toml: domain.name: {message}\n"


def test_a_root_that_exits_is_named(folder: Path) -> None:
    result = run_cli(folder, "run", "scene.toml", text=scene(broken="root-exits"))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: usergame.py:{line_of('root-exits')} in Game.root(): SystemExit(5) {HINT}\n"
    )


# --- the locator itself -------------------------------------------------------------------


def test_culprit_names_only_code_that_searchvid_called() -> None:
    def users_script() -> None:
        GridView((1, 1), colors={0: "nonsense"})

    with pytest.raises(ValueError, match="bad colour") as caught:
        users_script()  # the caller's own frames, above any searchvid frame: not searchvid's run
    assert culprit(caught.value) is None
    assert blame(caught.value) is None


def test_exception_text_and_location_formats() -> None:
    assert exception_text(SystemExit(3)) == "SystemExit(3)"
    assert exception_text(SystemExit()) == "SystemExit()"
    assert exception_text(KeyError("x")) == "KeyError: 'x'"
    assert exception_text(IndexError()) == "IndexError"
    assert str(Location("game.py", 88, "ConnectFour.children")) == (
        "game.py:88 in ConnectFour.children()"
    )
    assert str(Location("game.py", 3, None)) == "game.py:3"
    assert str(Location("game.py", None, "View.shape", call=False)) == "game.py in View.shape"


def test_grid_problem_checks_ids_before_any_cast() -> None:
    shape = (1, 2)
    assert grid_problem(np.array([[0, 1]], dtype=np.int64), shape, 2) is None
    wrapped = np.array([[0, 65536 + 1]], dtype=np.int64)  # int16 would make this a 1
    assert grid_problem(wrapped, shape, 2) == (
        "returned tile id 65537 at cell (0, 1); the tile set has 2 tiles (ids 0 to 1)"
    )
    huge = np.array([[0, 2**64 - 1]], dtype=np.uint64)
    assert grid_problem(huge, shape, 2) == (
        f"returned tile id {2**64 - 1} at cell (0, 1); the tile set has 2 tiles (ids 0 to 1)"
    )


def test_a_gridview_refuses_values_that_would_wrap() -> None:
    view = GridView((1, 2), colors={0: "#000000", 1: "#ffffff"})
    with pytest.raises(CellError) as caught:
        view.grid(np.array([0, 2**64 - 1], dtype=np.uint64))
    assert str(caught.value) == (
        f"GridView.grid(): value {2**64 - 1} at cell (0, 1) has no colour; known values: 0, 1"
    )
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, UserCodeError)


def test_a_standard_library_module_named_by_a_scene_never_becomes_the_users(
    folder: Path,
) -> None:
    from searchvid.usercode import remember_plugin

    remember_plugin("json")  # as a scene naming "json:JSONDecoder" does, earlier in a process
    result = render(folder, scene(broken="children-stdlib"))
    line = line_of("children-stdlib")
    assert result.stderr.startswith(
        f"Error: usergame.py:{line} in ParsingChildren.children(): JSONDecodeError: "
    )
