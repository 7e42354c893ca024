"""The scripts in examples/ run as a user runs them: a new process, from another folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import imageio_ffmpeg
from PIL import Image

import searchvid
from searchvid.render.timeline import timeline

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def decoded_frames(path: Path) -> int:
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(path))
    return int(frames)


def test_api_render_writes_its_videos(tmp_path: Path) -> None:
    out = run(sys.executable, EXAMPLES / "api_render.py", tmp_path / "out", cwd=tmp_path)
    scene = searchvid.load_scene("railroad-random").with_overrides(frames=120, seed=3)
    # 120 frames, each held as the timeline says: the opening card `opening` seconds, the
    # walk's restarts (jumps) 1/max_jumps seconds, the closing card max(hold_last, closing)
    ticks = timeline(scene.sources(), scene.render_jobs()).ticks
    assert len(timeline(scene.sources(), scene.render_jobs()).frames) == 120
    assert decoded_frames(tmp_path / "out" / "railroad-random-short.mp4") == ticks
    with Image.open(tmp_path / "out" / "tictactoe-midgame.gif") as image:
        assert image.n_frames > 1
    assert (tmp_path / "out" / "tictactoe-midgame-last.png").is_file()
    assert "refused: broken: video.fps: must be" in out


def test_own_loop_films_a_recursive_search(tmp_path: Path) -> None:
    out = run(sys.executable, EXAMPLES / "own_loop.py", tmp_path / "queens.gif", cwd=tmp_path)
    with Image.open(tmp_path / "queens.gif") as image:
        frames = image.n_frames
    assert out.startswith(f"{frames} frames in ")
    assert frames == 57  # every board the 6-queens backtracker looks at, down and back


def test_eight_puzzle_scene_renders_astars_optimal_solution(tmp_path: Path) -> None:
    cli = [sys.executable, "-m", "searchvid"]
    scene = EXAMPLES / "eight-puzzle-astar.toml"
    stats = json.loads(run(*cli, "run", scene, "--json", cwd=tmp_path))
    assert stats["solved"] is True
    assert stats["best"] == {"label": "1 2 3 / 4 5 6 / 7 8 _", "value": 1.0, "depth": 20}
    run(*cli, "render", scene, "-o", tmp_path / "eight.mp4", cwd=tmp_path)
    assert decoded_frames(tmp_path / "eight.mp4") > stats["frames"]  # moves and the end held
