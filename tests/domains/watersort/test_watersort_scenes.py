"""The Water Sort scenes load, solve the seed puzzle, and bad puzzles fail in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from searchvid.cli import main
from searchvid.scene import load_scene
from searchvid.search.events import EventKind

SCENES = Path(__file__).resolve().parents[3] / "scenes"


@pytest.mark.parametrize(
    ("stem", "algorithm", "frames"),
    [
        ("watersort-astar", "astar", "all"),
        ("watersort-bfs", "breadth-first", "all"),
        ("watersort-mcts", "mcts", "all"),
    ],
)
def test_scenes_load(stem: str, algorithm: str, frames: str) -> None:
    scene = load_scene(SCENES / f"{stem}.toml")
    assert scene.domain_name == "watersort"
    assert scene.algorithm == algorithm
    assert scene.video.frames == frames


def test_astar_scene_plays_out_the_39_pours() -> None:
    scene = load_scene(SCENES / "watersort-astar.toml")
    moves = [e for e in scene.events() if e.kind is EventKind.MOVE]
    assert len(moves) == 40  # the root, then 39 pours
    assert scene.label(moves[-1].node) == "39 pours, 12/12 tubes sorted"


def test_run_reports_the_optimal_solution() -> None:
    result = CliRunner().invoke(main, ["run", str(SCENES / "watersort-astar.toml"), "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["solved"] is True
    assert stats["best"]["depth"] == 39
    assert stats["frames"] == 103 + 40  # the states A* expands, then the root and 39 pours


BAD_SCENE = """\
title = "A bad puzzle"

[domain]
name = "watersort"
tubes = [[1, 1, 1], [2, 2, 2, 2], [1, 2]]

[search]
algorithm = "astar"
"""


def test_a_bad_puzzle_fails_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BAD_SCENE)
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines == [
        f"Error: {path}: domain.tubes: colour 2 appears 5 times; every colour must appear "
        "exactly capacity = 4 times"
    ]


def test_an_overfull_tube_fails_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "overfull.toml"
    path.write_text(BAD_SCENE.replace("[[1, 1, 1], [2, 2, 2, 2], [1, 2]]", "[[1, 1, 1, 1, 2]]"))
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: {path}: domain.tubes[0]: tube 0 holds 5 cells, more than the capacity 4"
    ]
