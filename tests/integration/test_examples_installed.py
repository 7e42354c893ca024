"""examples/ against the installed wheel: a user's own folder, nothing of the checkout.

The example files are copied into an empty folder first, so that neither the checkout nor
its ``scenes/`` can be found: the user's domain comes from the scene's own folder and the
shipped scenes from the installed package.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image

pytestmark = pytest.mark.integration

RunInstalled = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def user_folder(run_installed: RunInstalled, repo_root: Path, tmp_path: Path) -> Path:
    """The examples as a user gets them, `searchvid examples DIR` from the installed wheel,
    in an otherwise empty folder (the same files as the checkout's examples/)."""
    folder = tmp_path / "mine"
    succeeded(run_installed("searchvid", "examples", folder, cwd=tmp_path))
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(p.name for p in (repo_root / "examples").iterdir() if p.is_file())
    return folder


def succeeded(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_eight_puzzle_scene_names_a_domain_of_the_users_folder(
    run_installed: RunInstalled, user_folder: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    scene = user_folder / "eight-puzzle-astar.toml"
    stats = json.loads(succeeded(run_installed("searchvid", "run", scene, "--json", cwd=elsewhere)))
    assert (stats["solved"], stats["best"]["depth"]) == (True, 20)
    succeeded(run_installed("searchvid", "render", scene, "-o", "eight.mp4", cwd=elsewhere))
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(elsewhere / "eight.mp4"))
    assert frames > stats["frames"]
    check = run_installed("searchvid", "check", "eight_puzzle:EightPuzzle", cwd=user_folder)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "checks passed" in check.stdout


def test_api_render_and_own_loop_scripts(run_installed: RunInstalled, user_folder: Path) -> None:
    out = succeeded(run_installed("python", user_folder / "api_render.py", "out", cwd=user_folder))
    assert "refused: broken: video.fps" in out
    frames, _ = imageio_ffmpeg.count_frames_and_secs(
        str(user_folder / "out" / "railroad-random-short.mp4")
    )
    assert frames >= 120
    succeeded(run_installed("python", user_folder / "own_loop.py", "q.gif", cwd=user_folder))
    with Image.open(user_folder / "q.gif") as image:
        assert image.n_frames == 57


def test_a_new_game_from_an_empty_folder(run_installed: RunInstalled, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    succeeded(run_installed("searchvid", "new", "mygame", "--players", "2", cwd=folder))
    check = succeeded(run_installed("searchvid", "check", "mygame:Mygame", cwd=folder))
    assert check.strip().endswith("checks passed")
    succeeded(run_installed("searchvid", "render", "mygame.toml", "-o", "x.gif", cwd=folder))
    with Image.open(folder / "x.gif") as gif:
        assert gif.n_frames > 10
