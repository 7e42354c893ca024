"""Edges of the command line found in the adversarial round (issue 18): races in ``run``,
output paths, out-of-range numbers, a closed or full standard output, snapshots left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import searchvid
from searchvid.cli import main
from searchvid.signals import Terminated

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /dev/full")
TREE = """\
title = "A small tree"

[domain]
name = "tree"
root = "R"
children = { A = { A1 = {}, A2 = {} }, B = {} }

[search]
algorithm = "backtracking"

[video]
tile_size = 20
hold_last = 0
"""
RACE = """\
title = "A race on a small tree"

[domain]
name = "tree"
root = "R"
children = { A = { A1 = {}, A2 = {} }, B = {} }

[[search]]
algorithm = "backtracking"

[[search]]
algorithm = "breadth-first"

[video]
tile_size = 20
hold_last = 0
"""
FAILING = '''\
"""An algorithm that fails after two events."""

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
        yield Event(EventKind.ENTER, root, depth=0, step=1)
        raise ValueError("the third event is broken")
'''


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def invoke(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


# --- run on races ------------------------------------------------------------------------------


def test_run_prints_a_race_then_each_search(tmp_path: Path) -> None:
    code, out, err = invoke("run", write(tmp_path, "race.toml", RACE))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1] == "race      backtracking vs breadth-first on tree, seed 0"
    assert lines[2] == "events    20"  # 10 + 10: the two searches' events
    assert lines[3] == "frames    9"  # the longest search's
    assert lines[6] == "best      'R', value 0, depth 0 (search[0], backtracking)"
    assert lines[7] == "solved    n/a (no goal)"
    assert lines[8] == "ended     complete (the search ran to its end)"
    assert lines[9] == "search[0] backtracking"
    assert lines[10:12] == ["  events    10", "  frames    9"]
    assert lines[16] == "  ended     complete (the search ran to its end)"
    assert lines[17] == "search[1] breadth-first"
    assert lines[18:20] == ["  events    10", "  frames    5"]
    assert len(lines) == 25


def test_run_json_of_a_race_has_the_documented_shape(tmp_path: Path) -> None:
    code, out, _ = invoke("run", write(tmp_path, "race.toml", RACE), "--json")
    assert code == 0
    stats = json.loads(out)
    race_keys = {"scene", "title", "domain", "algorithm", "seed", "events", "frames", "seconds"}
    race_keys |= {"peak_rss_mb", "best", "solved", "max_events_reached", "failed", "searches"}
    assert set(stats) == race_keys | {"ended"}
    assert stats["ended"] == "complete"
    assert stats["algorithm"] == "backtracking vs breadth-first"
    assert stats["best"] == {"label": "R", "value": 0.0, "depth": 0, "search": 0}
    assert stats["solved"] is None
    assert stats["failed"] == []
    assert stats["max_events_reached"] is False
    assert [s["algorithm"] for s in stats["searches"]] == ["backtracking", "breadth-first"]
    assert [(s["events"], s["frames"]) for s in stats["searches"]] == [(10, 9), (10, 5)]
    assert (stats["events"], stats["frames"]) == (20, 9)


def test_the_best_of_a_race_prefers_a_goal_then_value_then_depth() -> None:
    puzzle: dict[str, Any] = {
        "domain": {"name": "watersort", "tubes": [[1, 2], [2, 1], []], "capacity": 2},
        "search": [
            {"algorithm": "backtracking"},  # finds a longer solution first
            {"algorithm": "breadth-first"},  # the shortest
        ],
        "video": {"tile_size": 16, "hold_last": 0, "frames": "all"},
    }
    stats = searchvid.scene_from_dict(puzzle, name="sort").run()
    depths = [one["best"]["depth"] for one in stats["searches"]]
    assert stats["solved"] is True
    assert all(one["solved"] for one in stats["searches"])
    assert stats["best"]["depth"] == min(depths)
    assert stats["best"]["search"] == depths.index(min(depths))


def test_a_failing_search_in_a_race_is_a_row_with_its_error(tmp_path: Path) -> None:
    write(tmp_path, "failing.py", FAILING)
    race = RACE.replace('algorithm = "breadth-first"', 'algorithm = "failing:Failing"')
    scene = write(tmp_path, "race.toml", race)
    code, out, err = invoke("run", scene, "--json")
    assert code == 1
    stats = json.loads(out)
    assert stats["failed"] == [1]
    broken = stats["searches"][1]
    assert broken["events"] == 2
    assert stats["searches"][0]["events"] == 10  # the other search ran to its end
    assert stats["best"]["search"] == 0
    where = tmp_path / "failing.py"  # outside the current folder: shown whole
    assert broken["error"] == (
        f"{where}:20 in Failing._traverse(): ValueError: the third event is broken"
    )
    assert err.splitlines() == [f"Error: search[1]: {broken['error']}"]
    code, out, err = invoke("run", scene)
    assert code == 1
    assert out.splitlines()[-2:] == ["  events    2", f"  error     {broken['error']}"]
    assert len(err.splitlines()) == 1
    code, out, err = invoke("render", scene, "-o", tmp_path / "race.gif", "-q")
    assert code == 1
    hint = "(SEARCHVID_DEBUG=1 shows the traceback)"
    assert err.splitlines() == [f"Error: search[1]: {broken['error']} {hint}"]
    assert not (tmp_path / "race.gif").exists()


# --- numbers and keys --------------------------------------------------------------------------


def test_integers_beyond_tomls_range_are_refused_with_the_range(tmp_path: Path) -> None:
    scene = write(tmp_path, "big.toml", TREE + "max_events = 99999999999999999999\n")
    code, _, err = invoke("run", scene)
    assert code == 2
    assert err == (
        f"Error: {scene}: video.max_events: must be from 1 to 9223372036854775807, "
        "got 99999999999999999999\n"
    )
    code, _, err = invoke("run", write(tmp_path, "t.toml", TREE), "--frames", str(2**64))
    assert code == 2
    assert err == f"Error: --frames: must be from 1 to 9223372036854775807, got {2**64}\n"


def test_an_empty_search_array_table_names_its_index(tmp_path: Path) -> None:
    text = TREE.replace('[search]\nalgorithm = "backtracking"\n', "[[search]]\n")
    code, _, err = invoke("run", write(tmp_path, "empty.toml", text))
    assert code == 2
    assert err.startswith(f"Error: {tmp_path / 'empty.toml'}: search[0].algorithm: is required")


# --- output paths ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["render", "preview"])
def test_a_name_too_long_for_the_folder_is_bad_usage(tmp_path: Path, command: str) -> None:
    scene = write(tmp_path, "t.toml", TREE)
    out = tmp_path / "out"
    out.mkdir()
    target = out / ("n" * 252 + (".gif" if command == "render" else ".png"))
    quiet = ["-q"] if command == "render" else []
    code, _, err = invoke(command, scene, "-o", target, *quiet)
    assert code == 2
    limit = f"{out} takes names of at most 255 bytes"
    assert err == f"Error: {target}: the file name is 256 bytes long; {limit}\n"
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("target", [".", "..", "./"])
def test_the_current_folder_is_refused_as_a_frames_folder_before_any_work(
    tmp_path: Path, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = write(tmp_path, "t.toml", TREE)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    code, _, err = invoke("render", scene, "-o", target, "-q")
    assert code == 2
    shown = Path(target)  # "./" is "."
    assert err.startswith(f"Error: {shown}: a folder of frames cannot be the current folder")
    assert list(here.iterdir()) == []


def test_the_widest_output_the_reference_allows_renders(tmp_path: Path) -> None:
    scene = searchvid.load_scene(write(tmp_path, "t.toml", TREE)).with_overrides(width=16384)
    assert scene.video.width == 16384
    image = scene.preview(0)
    assert image.width == 16384
    assert image.width * image.height <= 64_000_000


def test_the_largest_tree_panel_the_reference_allows_renders(tmp_path: Path) -> None:
    text = TREE.replace(
        "hold_last = 0", "hold_last = 0\ntree = true\ntree_width = 4096\ntree_height = 4096\n"
    )
    scene = searchvid.load_scene(write(tmp_path, "t.toml", text))
    assert scene.preview(0).height >= 4096
    code, _, err = invoke("run", write(tmp_path, "u.toml", text.replace("4096", "4098")))
    assert code == 2
    assert "video.tree_width: must be from 0 to 4096, got 4098" in err


# --- standard output ---------------------------------------------------------------------------


def test_a_reader_that_goes_away_ends_trace_quietly(tmp_path: Path) -> None:
    railroad = '[domain]\nname = "railroad"\n[search]\nalgorithm = "random-walk"\nrestarts = 200\n'
    scene = write(tmp_path, "r.toml", railroad)
    env = {**os.environ, "CI": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "searchvid", "trace", str(scene)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `head -1` does
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141  # SIGPIPE's code, as a Unix tool's
    assert json.loads(first)["step"] == 0
    assert err == b""


@LINUX
@pytest.mark.parametrize("command", ["render", "trace", "run"])
def test_a_full_standard_output_is_one_error_and_leaves_no_video(
    tmp_path: Path, command: str
) -> None:
    scene = write(tmp_path, "t.toml", TREE)
    target = tmp_path / "out.gif"
    args = [str(scene)] + (["-o", str(target), "-q"] if command == "render" else [])
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "searchvid", command, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "CI": "1"},
            timeout=60,
        )
    assert proc.returncode == 1
    assert proc.stderr == "Error: cannot write to standard output: No space left on device\n"
    assert not target.exists()


# --- snapshots ---------------------------------------------------------------------------------


def test_snapshots_are_removed_when_the_render_is_interrupted(tmp_path: Path) -> None:
    railroad = (
        '[domain]\nname = "railroad"\n[search]\nalgorithm = "random-walk"\nrestarts = 20\n'
        "[video]\ntile_size = 16\nhold_last = 0\n"
    )
    scene = searchvid.load_scene(write(tmp_path, "r.toml", railroad))
    shots = tmp_path / "shots" / "deep"
    seen: list[int] = []

    def stop_after_snapshots(done: int) -> None:
        seen.append(done)
        if shots.is_dir() and len(list(shots.iterdir())) >= 2:
            raise Terminated(15)

    with pytest.raises(Terminated):
        scene.render(tmp_path / "v.gif", progress=stop_after_snapshots, snapshots=shots)
    assert seen  # it did render frames, and wrote snapshots, before the interruption
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.toml"]


def test_a_race_cut_by_max_events_says_so(tmp_path: Path) -> None:
    scene = write(tmp_path, "race.toml", RACE + "max_events = 4\n")
    code, out, _ = invoke("run", scene, "--json")
    assert code == 0
    stats = json.loads(out)
    assert [one["events"] for one in stats["searches"]] == [4, 4]
    assert [one["max_events_reached"] for one in stats["searches"]] == [True, True]
    assert stats["max_events_reached"] is True
    code, out, _ = invoke("run", scene)
    assert out.splitlines()[8] == "cut       by max_events (a search that goes on may do better)"


def test_a_gif_faster_than_browsers_play_is_refused_before_any_work(tmp_path: Path) -> None:
    scene = write(tmp_path, "t.toml", TREE)
    code, _, err = invoke("render", scene, "-o", tmp_path / "fast.gif", "--fps", "60", "-q")
    assert code == 2
    assert err == (
        f"Error: {scene}: video.fps: a GIF plays at most 50 frames a second in a browser (a "
        "delay under 2 centiseconds is played as 10), got 60; use fps = 50 or less, or an MP4\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]
    code, _, _ = invoke("render", scene, "-o", tmp_path / "fast.mp4", "--fps", "60", "-q")
    assert code == 0
