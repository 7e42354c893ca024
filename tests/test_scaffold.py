"""``searchvid new``: the game it writes passes ``check``, runs, renders and tests green; bad
names, grids and existing files are refused in one line with nothing written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from searchvid.cli import main
from searchvid.scaffold import class_name, project

# A subprocess per command: each game's module is imported afresh from its own folder.
SEARCHVID = [sys.executable, "-m", "searchvid"]


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SEARCHVID, *args], cwd=folder, capture_output=True, text=True, timeout=120
    )


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.parametrize(
    ("name", "players", "grid", "solved"),
    [("lights", "1", "3x3", True), ("mygame", "2", "3x3", None), ("wide_game", "2", "3x4", None)],
)
def test_the_new_game_passes_check_runs_renders_and_tests(
    tmp_path: Path, name: str, players: str, grid: str, solved: bool | None
) -> None:
    out = _ok(_run(tmp_path, "new", name, "--players", players, "--grid", grid))
    cls = class_name(name)
    assert out.splitlines() == [
        f"wrote {name}.py",
        f"wrote {name}.toml",
        f"wrote test_{name}.py",
        f"next: searchvid check {name}:{cls}",
        f"      searchvid render {name}.toml -o {name}.gif",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"{name}.py", f"{name}.toml", f"test_{name}.py"]
    )
    assert _ok(_run(tmp_path, "check", f"{name}:{cls}")).strip().endswith("checks passed")
    stats = json.loads(_ok(_run(tmp_path, "run", f"{name}.toml", "--json", "--frames", "40")))
    assert stats["solved"] is solved
    _ok(_run(tmp_path, "render", f"{name}.toml", "-o", "frames/", "--frames", "6", "--quiet"))
    assert len(list((tmp_path / "frames").glob("*.png"))) == 6
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"test_{name}.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert tests.returncode == 0, tests.stdout
    assert " passed" in tests.stdout.splitlines()[-1]


def test_the_puzzle_is_solved_optimally_by_its_scene(tmp_path: Path) -> None:
    _ok(_run(tmp_path, "new", "lights"))
    stats = json.loads(_ok(_run(tmp_path, "run", "lights.toml", "--json")))
    # presses 0, 4 and 8 from all lights off: three presses undo them, and no fewer can
    assert (stats["solved"], stats["best"]["depth"], stats["ended"]) == (True, 3, "complete")


def test_a_big_board_gets_mcts_instead_of_a_full_minimax() -> None:
    files = project("big", players=2, grid=(4, 4)).files
    assert 'algorithm = "mcts"' in files["big.toml"]
    assert "minimax" not in files["big.toml"]
    assert "k: int = option(3," in files["big.py"]
    small = project("small", players=2, grid=(3, 3)).files
    assert 'algorithm = "minimax"' in small["small.toml"]


def test_class_names() -> None:
    assert [class_name(n) for n in ("mygame", "my_game", "connect4")] == [
        "Mygame",
        "MyGame",
        "Connect4",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["2fast"],
            "NAME: '2fast' is not a Python module name: use letters, digits and _, "
            "not starting with a digit (for example mygame)",
        ),
        (["random"], "NAME: 'random' would hide Python's own module of that name: choose another"),
        (["game", "--grid", "3by3"], "--grid: '3by3' is not ROWSxCOLS (for example 3x3)"),
        (["game", "--grid", "0x3"], "--grid: rows and columns must be from 1 to 26, got 0x3"),
        (
            ["game", "--players", "2", "--grid", "1x1"],
            "--grid: a two-player game needs a row or a column of 2 cells",
        ),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", *args])
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.toml").write_text("mine\n")
    result = CliRunner().invoke(main, ["new", "game"])
    expected = (
        f"Error: {tmp_path / 'game.toml'}: exists already; move it away or choose another NAME\n"
    )
    assert (result.exit_code, result.stderr) == (2, expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml"]
    assert (tmp_path / "game.toml").read_text() == "mine\n"
