"""The command line, through click's CliRunner: every command, exit codes, one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import imageio_ffmpeg
import numpy as np
import pytest
from click.testing import CliRunner, Result
from PIL import Image

from searchvid.cli import main
from searchvid.domains.tree.view import BACKGROUND, FILL, HIGHLIGHT, LINE, NodeState, TreeView

ROOT = Path(__file__).resolve().parent.parent
SCENES = ROOT / "scenes"
TREE = Path(__file__).resolve().parent / "golden" / "seed-tree.toml"
"""The tree domain's default tree (seed 000's), searched depth first as the seed did."""
BROKEN = Path(__file__).resolve().parent / "scenes_broken"
SEED_ORDER = (
    (Path(__file__).resolve().parent / "golden" / "seed_backtracking.txt").read_text().splitlines()
)
"""Seed 000's test: the nodes observed by backtracking over its "Algorithms" tree."""
SHIPPED_ORDER = [
    *("Search", "Single-agent", "Uninformed", "Breadth-First", "Uninformed", "Depth-First"),
    *("Backtracking", "Depth-First", "Uninformed", "Single-agent", "Informed", "A*"),
    *("Informed", "Beam Search", "Informed", "Single-agent", "Search", "Adversarial"),
    *("Minimax", "Adversarial", "Search"),
]
"""scenes/tree-backtracking.toml's frames: depth first, one per node on top of the stack."""
SMALL_TREE = """\
title = "A small tree"
seed = 1

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
SMALL_RAILROAD = """\
title = "Railroad Ink, small and fast"
seed = 5

[domain]
name = "railroad"

[search]
algorithm = "random-walk"
restarts = 3

[video]
fps = 24
tile_size = 24
max_frames = 40
hold_last = 0
"""
WATERSORT = """\
title = "A tiny Water Sort"
seed = 2

[domain]
name = "watersort"
tubes = [[1, 2, 1, 2], [2, 1, 2, 1], [], []]

[search]
algorithm = "astar"

[video]
tile_size = 20
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str | Path) -> Result:
    return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def lines(result: Result) -> list[str]:
    return result.output.splitlines()


def assert_one_error_line(result: Result, code: int) -> str:
    assert result.exit_code == code, result.output
    output = lines(result)
    assert len(output) == 1, result.output
    assert output[0].startswith("Error: ")
    assert "Traceback" not in result.output
    return output[0]


def pixels(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def trace(runner: CliRunner, *args: str | Path) -> list[dict[str, Any]]:
    result = invoke(runner, "trace", *args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in lines(result)]


# --- global options --------------------------------------------------------------------------


def test_version(runner: CliRunner) -> None:
    result = invoke(runner, "--version")
    assert result.exit_code == 0
    assert result.output.startswith("searchvid, version ")


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "searchvid", "--version"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("searchvid, version ")


def test_help_lists_every_command(runner: CliRunner) -> None:
    result = invoke(runner, "--help")
    assert result.exit_code == 0
    for command in ("render", "preview", "trace", "run", "scenes"):
        assert command in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["render"],
        ["bogus-command"],
        ["render", str(TREE), "--no-such-option"],
        ["render", str(TREE), "--frames", "0"],
        ["render", str(TREE), "--fps", "many"],
        ["run", str(TREE), "--seed", "-1"],
        ["trace", str(TREE), "--limit", "-1"],
        ["preview", str(TREE), "--frame", "x"],
    ],
)
def test_click_usage_errors_are_one_line(runner: CliRunner, args: list[str]) -> None:
    assert_one_error_line(invoke(runner, *args), 2)


# --- scene lookup ----------------------------------------------------------------------------


def test_bare_names_resolve_in_scenes(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenes").mkdir()
    write(tmp_path / "scenes", "mine.toml", SMALL_TREE)
    assert trace(runner, "mine")[0]["label"] == "R"
    # names not found here fall back to the project's own scenes/: its tree of search
    # algorithms, each node entered and returned to
    framed = [r["label"] for r in trace(runner, "tree-backtracking") if r["frame"] is not None]
    assert framed == SHIPPED_ORDER


def test_unknown_scene_name_lists_the_known_ones(runner: CliRunner) -> None:
    line = assert_one_error_line(invoke(runner, "run", "no-such-scene"), 2)
    assert "no-such-scene" in line
    assert "tree-backtracking" in line


def test_missing_scene_path(runner: CliRunner, tmp_path: Path) -> None:
    line = assert_one_error_line(invoke(runner, "run", tmp_path / "gone.toml"), 2)
    assert "gone.toml: cannot read the scene file: No such file or directory" in line


# --- trace -----------------------------------------------------------------------------------


def test_trace_reproduces_the_seed_order(runner: CliRunner) -> None:
    records = trace(runner, TREE)
    framed = [r for r in records if r["frame"] is not None]
    assert [r["label"] for r in framed] == SEED_ORDER
    assert [r["frame"] for r in framed] == list(range(15))
    keys = {"step", "kind", "depth", "label", "value", "frame", "id", "parent"}
    assert all(set(r) == keys for r in records)
    assert [r["step"] for r in records] == list(range(len(records)))
    assert [r["depth"] for r in framed][:6] == [0, 1, 2, 1, 2, 3]


def test_trace_limit_and_frame_cut(runner: CliRunner) -> None:
    assert len(trace(runner, TREE, "--limit", "4")) == 4
    cut = trace(runner, TREE, "--frames", "5")
    assert [r["frame"] for r in cut if r["frame"] is not None] == [0, 1, 2, 3, 4]
    assert cut[-1]["frame"] == 4  # stops right after the event that made the last frame


def test_seed_override_changes_a_random_search(runner: CliRunner, tmp_path: Path) -> None:
    scene = write(tmp_path, "rail.toml", SMALL_RAILROAD)
    first = trace(runner, scene)
    assert trace(runner, scene) == first
    assert trace(runner, scene, "--seed", "6") != first


# --- run -------------------------------------------------------------------------------------


def test_run_json_has_the_documented_keys(runner: CliRunner) -> None:
    result = invoke(runner, "run", TREE, "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert {"events", "frames", "seconds", "peak_rss_mb", "best", "solved"} <= set(stats)
    assert stats["frames"] == 15
    assert stats["events"] >= 15
    assert stats["solved"] is None  # the tree domain has no goal
    assert stats["peak_rss_mb"] > 0
    assert stats["seconds"] >= 0


def test_run_json_reports_best_and_solved(runner: CliRunner, tmp_path: Path) -> None:
    scene = write(tmp_path, "water.toml", WATERSORT)
    stats = json.loads(invoke(runner, "run", scene, "--json").output)
    assert stats["solved"] is True
    assert set(stats["best"]) == {"label", "value", "depth"}
    assert isinstance(stats["best"]["label"], str)
    assert stats["best"]["depth"] > 0


def test_run_prints_statistics(runner: CliRunner) -> None:
    result = invoke(runner, "run", TREE)
    assert result.exit_code == 0
    assert "frames    15" in result.output
    assert "solved    n/a" in result.output


# --- scenes ----------------------------------------------------------------------------------


def test_scenes_lists_the_project_scenes(runner: CliRunner) -> None:
    result = invoke(runner, "scenes", SCENES)
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in lines(result)[1:]}
    expected = {
        "tree-backtracking": ("tree", "backtracking"),
        "railroad-backtracking": ("railroad", "backtracking"),
        "railroad-random": ("railroad", "random-walk"),
        "railroad-mcts": ("railroad", "mcts"),
        "railroad-beam": ("railroad", "beam"),
    }
    for stem, (domain, algorithm) in expected.items():
        row = rows[str(SCENES / f"{stem}.toml")]
        assert row.split()[-2:] == [domain, algorithm]
        assert "invalid" not in row


def test_scenes_marks_broken_files(runner: CliRunner) -> None:
    result = invoke(runner, "scenes", BROKEN)
    assert result.exit_code == 0
    assert "(invalid: video.fps:" in result.output


def test_scenes_missing_folder(runner: CliRunner, tmp_path: Path) -> None:
    assert_one_error_line(invoke(runner, "scenes", tmp_path / "none"), 2)


# --- render and preview ----------------------------------------------------------------------


def render_folder(runner: CliRunner, scene: Path, folder: Path, *args: str) -> list[Path]:
    result = invoke(runner, "render", scene, "-o", folder, *args)
    assert result.exit_code == 0, result.output
    assert len(lines(result)) == 1  # no progress bar off a terminal: just the summary
    return sorted(folder.glob("frame_*.png"))


def test_render_png_folder_of_the_tree(runner: CliRunner, tmp_path: Path) -> None:
    frames = render_folder(runner, TREE, tmp_path / "frames")
    assert [f.name for f in frames] == [f"frame_{i:06d}.png" for i in range(15)]
    first, last = pixels(frames[0]), pixels(frames[-1])
    assert first.shape[0] > 7 * 64 - 1  # 7 rows of 64-pixel tiles, plus a HUD strip
    assert first.shape[1] == 15 * 64
    assert not np.array_equal(first[: 7 * 64], pixels(frames[1])[: 7 * 64])
    # Both show the root alone on the stack; the last one shows the whole tree visited.
    assert not np.array_equal(first[: 7 * 64], last[: 7 * 64])


def test_render_summary_line(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "tree.gif"
    result = invoke(runner, "render", TREE, "-o", target)
    assert result.exit_code == 0, result.output
    assert len(lines(result)) == 1
    assert re.fullmatch(rf"15 frames in \d+\.\d s -> {re.escape(str(target))}", lines(result)[0])
    assert target.stat().st_size > 0


def test_render_default_output_is_renders_stem_mp4(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(runner, "render", TREE, "--quiet")
    assert result.exit_code == 0, result.output
    video = tmp_path / "renders" / "seed-tree.mp4"
    assert sorted(p.name for p in video.parent.iterdir()) == ["seed-tree.mp4"]
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(video))
    assert frames >= 15


TREE_BOXES = {
    "Root": (6, 0),
    "Algorithms": (6, 2),
    "Breadth-First": (0, 4),
    "Depth-First": (6, 4),
    "Other": (12, 4),
    "Backtracking": (4, 6),
    "Beam Search": (8, 6),
    "Monte Carlo Tree Search": (12, 6),
}
"""(column, row) of the first tile of each node box in the tree scene (64-pixel tiles)."""


def tree_states(frame: np.ndarray) -> dict[str, NodeState]:
    """Each node box's look, read from its fill just inside the border (above the label)."""
    looks = {colour: state for state, colour in FILL.items()}
    states = {}
    for label, (col, row) in TREE_BOXES.items():
        # 64 px tiles: the box 10 px in (margin 8 and a border), its border 2 px wide
        red, green, blue = (int(v) for v in frame[row * 64 + 13, col * 64 + 13])
        states[label] = looks[red, green, blue]
    return states


def test_tree_frame_shows_current_stack_visited_and_path(runner: CliRunner, tmp_path: Path) -> None:
    """Frame 5 of the tree scene: Backtracking is current (64-pixel tiles, 15 x 7)."""
    frames = render_folder(runner, TREE, tmp_path / "frames")
    frame = pixels(frames[5])

    def at(col: int, row: int, dx: int = 20, dy: int = 32) -> tuple[int, ...]:
        return tuple(int(v) for v in frame[row * 64 + dy, col * 64 + dx])

    assert at(4, 6) == FILL[NodeState.CURRENT]  # Backtracking
    assert at(6, 4) == FILL[NodeState.STACK]  # Depth-First
    assert at(6, 0) == FILL[NodeState.STACK]  # Root
    assert at(0, 4) == FILL[NodeState.VISITED]  # Breadth-First
    assert at(12, 4) == FILL[NodeState.UNVISITED]  # Other
    assert at(8, 6) == FILL[NodeState.UNVISITED]  # Beam Search
    assert at(6, 5, dx=0, dy=31) == HIGHLIGHT  # Depth-First -> Backtracking
    assert at(9, 5, dx=31, dy=50) == LINE  # Depth-First -> Beam Search
    assert at(10, 5) == BACKGROUND
    # Marks follow the events: back at Algorithms (frame 9) the nodes below Depth-First stay
    # visited, and on returning to the root (the last frame) the whole tree is.
    back = tree_states(pixels(frames[9]))
    assert (back["Algorithms"], back["Root"]) == (NodeState.CURRENT, NodeState.STACK)
    below = {back[label] for label in ("Depth-First", "Backtracking", "Beam Search")}
    assert below == {NodeState.VISITED}
    assert {back["Other"], back["Monte Carlo Tree Search"]} == {NodeState.UNVISITED}
    last = tree_states(pixels(frames[-1]))
    assert last.pop("Root") is NodeState.CURRENT
    assert set(last.values()) == {NodeState.VISITED}


@pytest.mark.parametrize("index", [0, 1, 6, 14, -1, -2, -15])
def test_preview_equals_the_rendered_frame(runner: CliRunner, tmp_path: Path, index: int) -> None:
    frames = render_folder(runner, TREE, tmp_path / "frames")
    target = tmp_path / "preview.png"
    result = invoke(runner, "preview", TREE, "--frame", str(index), "-o", target)
    assert result.exit_code == 0, result.output
    assert np.array_equal(pixels(target), pixels(frames[index]))


def test_preview_equals_rendered_frames_on_railroad(runner: CliRunner, tmp_path: Path) -> None:
    scene = write(tmp_path, "rail.toml", SMALL_RAILROAD)
    frames = render_folder(runner, scene, tmp_path / "frames")
    assert len(frames) == 40
    for index in (0, 9, 25, -1):
        target = tmp_path / f"preview{index}.png"
        result = invoke(runner, "preview", scene, f"--frame={index}", "-o", target)
        assert result.exit_code == 0, result.output
        assert np.array_equal(pixels(target), pixels(frames[index])), index


def test_preview_default_output(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(runner, "preview", TREE)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "renders" / "seed-tree.png").is_file()


@pytest.mark.parametrize("index", ["15", "-16", "1000"])
def test_preview_out_of_range_frame(runner: CliRunner, tmp_path: Path, index: str) -> None:
    target = tmp_path / "p.png"
    assert_one_error_line(invoke(runner, "preview", TREE, "--frame", index, "-o", target), 2)
    assert not target.exists()


def test_same_scene_and_seed_give_identical_frames(runner: CliRunner, tmp_path: Path) -> None:
    scene = write(tmp_path, "rail.toml", SMALL_RAILROAD)
    first = render_folder(runner, scene, tmp_path / "a")
    second = render_folder(runner, scene, tmp_path / "b")
    assert len(first) == len(second) == 40
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(first, second, strict=True))
    other = render_folder(runner, scene, tmp_path / "c", "--seed", "99")
    assert any(a.read_bytes() != c.read_bytes() for a, c in zip(first, other, strict=True))


def test_frames_and_fps_overrides(runner: CliRunner, tmp_path: Path) -> None:
    frames = render_folder(runner, TREE, tmp_path / "frames", "--frames", "4", "--fps", "30")
    assert len(frames) == 4


def test_snapshots_written_when_the_best_improves(runner: CliRunner, tmp_path: Path) -> None:
    scene = write(tmp_path, "rail.toml", SMALL_RAILROAD)
    shots = tmp_path / "shots"
    result = invoke(runner, "render", scene, "-o", tmp_path / "out.gif", "--snapshots", shots)
    assert result.exit_code == 0, result.output
    assert len(list(shots.glob("*.png"))) >= 1


def test_unknown_output_format(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "out.avi"
    line = assert_one_error_line(invoke(runner, "render", TREE, "-o", target), 2)
    assert "out.avi" in line
    assert not target.exists()


def test_unwritable_output_is_a_runtime_error(runner: CliRunner, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert_one_error_line(invoke(runner, "render", TREE, "-o", blocker / "out.mp4"), 1)


def test_interrupt_leaves_no_output(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = 0
    grid = TreeView.grid

    def interrupted(self: TreeView, node: Any) -> Any:
        nonlocal drawn
        drawn += 1
        if drawn == 5:
            raise KeyboardInterrupt
        return grid(self, node)

    monkeypatch.setattr(TreeView, "grid", interrupted)
    target = tmp_path / "out.mp4"
    result = runner.invoke(main, ["render", str(TREE), "-o", str(target)])
    assert result.exit_code == 130
    assert lines(result)[-1] == "Error: interrupted"
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


# --- the broken-scene corpus -----------------------------------------------------------------


def broken_files() -> list[Path]:
    return sorted(BROKEN.glob("*.toml"))


def test_the_corpus_has_at_least_25_scenes() -> None:
    assert len(broken_files()) >= 25


@pytest.mark.parametrize("path", broken_files(), ids=lambda p: p.stem)
def test_broken_scene_exits_2_with_one_line(runner: CliRunner, tmp_path: Path, path: Path) -> None:
    key = path.read_text().splitlines()[0].removeprefix("# expect: ")
    target = tmp_path / "out.mp4"
    line = assert_one_error_line(invoke(runner, "render", path, "-o", target), 2)
    assert line.startswith(f"Error: {path}: {key}: ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["preview", "trace", "run"])
def test_every_command_rejects_a_broken_scene(
    runner: CliRunner, tmp_path: Path, command: str
) -> None:
    path = BROKEN / "video_tile_size_odd.toml"
    line = assert_one_error_line(invoke(runner, command, path), 2)
    assert line == f"Error: {path}: video.tile_size: must be even, got 33"


# --- absurd inputs: one line, exit 2, nothing written (issue 11) -------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["preview", str(TREE), "--frame", "-10000000000000000000"], "out of range"),
        (["render", str(TREE), "-o", ""], "output path is empty"),
        (["run", "a" * 5000], "the name is too long"),
        (["render", "b" * 300], "the name is too long"),
    ],
)
def test_absurd_command_line_values_are_usage_errors(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    line = assert_one_error_line(invoke(runner, *args), 2)
    assert words in line
    assert list(tmp_path.iterdir()) == []


def test_rendering_into_a_folder_of_other_files_is_refused(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    line = assert_one_error_line(invoke(runner, "render", TREE, "-o", "mine"), 2)
    assert "holds files other than frames" in line
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]


def test_deeply_nested_toml_is_one_scene_error_and_spares_the_listing(
    runner: CliRunner, tmp_path: Path
) -> None:
    deep = write(tmp_path, "deep.toml", "x = " + "[" * 400 + "]" * 400 + "\n")
    write(tmp_path, "small.toml", SMALL_TREE)
    deeper = "children = " + "{ a = " * 400 + "{}" + " }" * 400
    nested = write(tmp_path, "nested.toml", f'[domain]\nname = "tree"\n{deeper}\n')
    assert "deep.toml" in assert_one_error_line(invoke(runner, "run", deep), 2)
    assert "nested too deeply" in assert_one_error_line(invoke(runner, "run", nested), 2)
    listing = invoke(runner, "scenes", tmp_path)
    assert listing.exit_code == 0
    assert "A small tree" in listing.output
    assert "(invalid: invalid TOML: nested too deeply)" in listing.output


# --- sizing from the command line (issue 13) ---------------------------------------------------


def first_frame_size(path: Path) -> tuple[int, int]:
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    reader.close()
    return meta["size"]


def test_width_fits_the_tile_size_and_pads_to_exactly_that_width(
    runner: CliRunner, tmp_path: Path
) -> None:
    scene = write(tmp_path, "rail.toml", SMALL_RAILROAD)
    for width in (720, 500):
        target = tmp_path / f"w{width}.mp4"
        result = invoke(runner, "render", scene, "-o", target, "--width", str(width))
        assert result.exit_code == 0, result.output
        assert first_frame_size(target)[0] == width
    frames = render_folder(runner, scene, tmp_path / "f", "--width", "500", "--frames", "2")
    board = pixels(frames[0])
    assert board.shape[1] == 500
    # 9 columns of 54-px tiles (486 px) fit in 500; the 14 px left over are background,
    # split either side of the board (centred, even edges): 6 px left, 8 px right
    assert len({tuple(p) for p in board[0, :6]} | {tuple(p) for p in board[0, 492:]}) == 1
    assert tuple(board[0, 6]) != tuple(board[0, 0])
    assert tuple(board[0, 491]) != tuple(board[0, 0])


def test_tile_size_every_no_hud_and_quality(runner: CliRunner, tmp_path: Path) -> None:
    scene = write(tmp_path, "rail.toml", SMALL_RAILROAD)
    plain = render_folder(runner, scene, tmp_path / "a", "--tile-size", "20", "--no-hud")
    assert pixels(plain[0]).shape == (9 * 20, 9 * 20, 3)
    every = render_folder(runner, scene, tmp_path / "b", "--every", "4", "--quality", "draft")
    candidates = json.loads(invoke(runner, "run", scene, "--json", "--frames", "9999").output)
    total = candidates["frames"]  # every selected event, uncut
    last_kept = (total - 1) % 4 == 0  # else the last one is added: a video ends on the end
    assert len(every) == len(range(0, total, 4)) + (0 if last_kept else 1)
    for args, flag in (
        (["--tile-size", "33"], "--tile-size"),
        (["--width", "20"], "--width"),
        (["--every", "0"], "--every"),
        (["--quality", "best"], "--quality"),
    ):
        line = assert_one_error_line(invoke(runner, "render", scene, *args), 2)
        assert flag in line
