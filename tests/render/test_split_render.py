"""Renders split across workers (issue 21, item 4): ``render --jobs N`` / ``--scheduler``.

The video is cut into segments of about 10 s of video time; every worker replays the seeded
events silently to its segment's start, then draws and encodes its frames; the segments are
joined without re-encoding. The MP4's bytes must not depend on the number of workers, every
segment must start on a keyframe, the frames must keep their times across the joins, and
the decoded frames must be the PNG folder's (as close as the lossy H.264 allows: the PNG
folder split the same way is compared byte for byte).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner
from PIL import Image

from searchvid import load_scene
from searchvid.cli import main
from searchvid.render.segments import Segment, plan_segments
from searchvid.render.stepping import timed_strips
from searchvid.render.timeline import timeline

SCENE = "tictactoe-minimax-tree"  # a tree panel: the state most at risk at a cut
WIDTH = "720"  # small frames keep the test short; the panel and its legend stay

ROOT = Path(__file__).resolve().parents[2]
SHOWINFO = ("-vf", "showinfo", "-f", "null", "-")  # every decoded frame: pts, keyframe flag


def _cli(*args: str, tmp: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line in a process of its own, with its temporary folder in
    ``tmp`` (so that what it leaves there can be checked)."""
    env = {**os.environ, "TMPDIR": str(tmp), "CI": "1"}
    return subprocess.run(
        [sys.executable, "-m", "searchvid", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def renders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The scene rendered whole to a PNG folder, and split to MP4s and a PNG folder."""
    out = tmp_path_factory.mktemp("split")
    tmp = tmp_path_factory.mktemp("tmp")
    wanted = {
        "png": ("png", ()),
        "jobs1": ("jobs1.mp4", ("--jobs", "1")),
        "jobs2": ("jobs2.mp4", ("--jobs", "2")),
        "png2": ("png2", ("--jobs", "2")),
    }
    made: dict[str, Path] = {}
    for key, (name, extra) in wanted.items():
        done = _cli("render", SCENE, "--width", WIDTH, "-q", "-o", str(out / name), *extra, tmp=tmp)
        assert done.returncode == 0, done.stderr
        # at 720 px the scene's board pictures do not fit its tree panel: each process that
        # draws the panel says so once (the whole render once, each worker once)
        assert all(
            line.startswith("Warning: tree_thumbnails: ") for line in done.stderr.splitlines()
        ), done.stderr
        assert re.fullmatch(
            rf"85 frames in \d+\.\d s -> {re.escape(str(out / name))}\n", done.stdout
        )
        made[key] = out / name
    assert list(tmp.iterdir()) == []  # no segment left in the temporary folder
    return made


def _segments() -> tuple[list[Segment], int, int]:
    """The scene's segments, its fps, and the MP4's length in frame durations."""
    scene = load_scene(SCENE).with_overrides(width=int(WIDTH))
    holds = [
        hold for _shown, _texts, hold, _card in timed_strips(scene.sources(), scene.render_jobs())
    ]
    line = timeline(scene.sources(), scene.render_jobs())
    return plan_segments(holds, line.fps), line.fps, line.ticks


def _shown_at(ticks: int) -> list[int]:
    """For each frame duration of the MP4, the index of the frame on screen."""
    scene = load_scene(SCENE).with_overrides(width=int(WIDTH))
    line = timeline(scene.sources(), scene.render_jobs())
    shown: list[int] = []
    for frame in line.frames:
        shown += [frame.index] * round(frame.duration * line.fps)
    assert len(shown) == ticks
    return shown


def _decoded(path: Path) -> list[npt.NDArray[np.uint8]]:
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = reader.__next__()
    width, height = meta["size"]
    return [np.frombuffer(data, np.uint8).reshape(height, width, 3) for data in reader]


def _psnr(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]) -> float:
    diff = a.astype(np.int64) - b
    mse = float(np.einsum("ijk,ijk->", diff, diff)) / diff.size
    return 99.0 if mse == 0 else 10 * float(np.log10(255**2 / mse))


def test_segments_are_cut_at_frame_boundaries_by_video_time() -> None:
    holds = [0, 3, 0, 0, 5, 0, 0]
    cut = plan_segments(holds, 2, seconds=2)  # 4 frame durations a segment at least
    assert [(s.first, s.stop, s.holds, s.last) for s in cut] == [
        (0, 2, (0, 3), False),
        (2, 5, (0, 0, 5), False),
        (5, 7, (0, 0), True),
    ]
    assert [s.ticks for s in cut] == [5, 8, 2]
    assert [(s.first, s.stop) for s in plan_segments([0] * 25, 12)] == [(0, 25)]  # < 10 s
    assert [(s.first, s.stop) for s in plan_segments([0] * 250, 12)] == [
        (0, 120),
        (120, 240),
        (240, 250),
    ]


def test_jobs_1_and_2_write_the_same_mp4_that_decodes_to_the_png_frames(
    renders: dict[str, Path],
) -> None:
    assert renders["jobs1"].read_bytes() == renders["jobs2"].read_bytes()
    segments, _fps, ticks = _segments()
    assert len(segments) >= 4
    shown = _shown_at(ticks)
    pngs = sorted(renders["png"].iterdir())
    assert len(pngs) == 85
    frames = [np.asarray(Image.open(path).convert("RGB")) for path in pngs]
    decoded = _decoded(renders["jobs2"])
    assert len(decoded) == ticks  # no frame lost or doubled at a join; the last one held
    for tick, (picture, index) in enumerate(zip(decoded, shown, strict=True)):
        own = _psnr(picture, frames[index])
        assert own >= 30, (tick, index, own)
        for other in (index - 1, index + 1):  # not a neighbour shown early or late
            if 0 <= other < len(frames) and not np.array_equal(frames[other], frames[index]):
                assert _psnr(picture, frames[other]) < own, (tick, index, other)


def test_every_segment_starts_on_a_keyframe_and_frames_keep_their_times(
    renders: dict[str, Path],
) -> None:
    segments, fps, ticks = _segments()
    done = subprocess.run(
        [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-i", str(renders["jobs2"]), *SHOWINFO],
        capture_output=True,
        text=True,
        check=True,
    )
    shown = re.findall(r" n:\s*(\d+) pts:\s*(\d+) pts_time:(\S+).*? iskey:(\d)", done.stderr)
    assert len(shown) == ticks
    times = [float(pts_time) for _n, _pts, pts_time, _key in shown]
    assert times == pytest.approx([tick / fps for tick in range(ticks)], abs=1e-6)
    keys = [int(n) for n, _pts, _time, key in shown if key == "1"]
    starts, tick = [], 0
    for segment in segments:
        starts.append(tick)
        tick += segment.ticks
    assert keys == starts


def test_a_split_png_folder_equals_the_whole_render_byte_for_byte(
    renders: dict[str, Path],
) -> None:
    whole = sorted(renders["png"].iterdir())
    split = sorted(renders["png2"].iterdir())
    assert [p.name for p in split] == [p.name for p in whole]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(whole, split, strict=True))


@pytest.mark.parametrize(
    ("name", "option", "what"),
    [
        ("out.gif", ("--jobs", "2"), "--jobs: a split render writes an MP4 (.mp4) or a folder "
         "of PNG frames, not a GIF; render it whole (without --jobs and --scheduler)"),
        ("out.html", ("--scheduler", "local"), "--scheduler: a split render writes an MP4 "
         "(.mp4) or a folder of PNG frames, not an HTML player; render it whole (without "
         "--jobs and --scheduler)"),
        ("out.vtt", ("--jobs", "1"), "--jobs: a split render writes an MP4 (.mp4) or a folder "
         "of PNG frames, not captions; render it whole (without --jobs and --scheduler)"),
    ],
)  # fmt: skip
def test_formats_rendered_whole_are_refused_before_any_work(
    tmp_path: Path, name: str, option: tuple[str, str], what: str
) -> None:
    result = CliRunner().invoke(main, ["render", SCENE, "-o", str(tmp_path / name), *option])
    assert result.exit_code == 2
    assert result.output == f"Error: {what}\n"
    assert list(tmp_path.iterdir()) == []


def test_scheduler_without_dask_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    out = tmp_path / "out.mp4"
    result = CliRunner().invoke(main, ["render", SCENE, "-o", str(out), "--scheduler", "local"])
    assert result.exit_code == 2
    assert result.output == "Error: --scheduler needs Dask: pip install 'searchvid[dask]'\n"
    assert list(tmp_path.iterdir()) == []


BOOM = '''\
"""The 8-puzzle, whose view fails in a render worker (never in the main process)."""

import os

from eight_puzzle import BLANK, BLANK_COLOR, CELLS, SIDE, TILE_COLORS, EightPuzzle
from searchvid import GridView

MAIN = os.getpid()  # imported by the main process first; a forked worker keeps the value


class Boom(EightPuzzle):
    name = "boom"

    def view(self):
        colors = {BLANK: BLANK_COLOR, **dict(enumerate(TILE_COLORS, start=1))}
        labels = {tile: str(tile) for tile in range(1, CELLS)}
        return GridView((SIDE, SIDE), colors=colors, labels=labels, cells=self.cells)

    def cells(self, board):
        if os.getpid() != MAIN and board.is_solved():
            {how}
        return board.tiles
'''

SCENE_TOML = """\
title = "boom"
seed = 0
[domain]
name = "boom:Boom"
start = "6 2 8 / 3 _ 1 / 4 5 7"
[search]
algorithm = "astar"
heuristic = "manhattan"
[video]
fps = 15
tile_size = 32
hold_moves = 0.5
"""


def _boom(tmp_path: Path, how: str) -> Path:
    folder = tmp_path / "scene"
    folder.mkdir()
    (folder / "eight_puzzle.py").write_text((ROOT / "examples" / "eight_puzzle.py").read_text())
    (folder / "boom.py").write_text(BOOM.replace("{how}", how))
    (folder / "boom.toml").write_text(SCENE_TOML)
    return folder


@pytest.mark.parametrize(
    ("how", "line"),
    [
        (
            "raise ValueError('no goal here')",
            r"Error: boom\.py:\d+ in Boom\.cells\(\): ValueError: no goal here "
            r"\(SEARCHVID_DEBUG=1 shows the traceback\)",
        ),
        (
            "os._exit(3)",
            r"Error: a render worker died before segment \d+ \(frames \d+ to \d+\) was done; "
            "nothing was written",
        ),
    ],
)
def test_a_failing_or_dying_worker_ends_the_render_with_one_line(
    tmp_path: Path, how: str, line: str
) -> None:
    folder = _boom(tmp_path, how)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    done = _cli("render", "boom.toml", "-o", "out.mp4", "--jobs", "2", tmp=tmp, cwd=folder)
    assert done.returncode == 1, done.stderr
    assert re.fullmatch(line + "\n", done.stderr), done.stderr
    assert done.stdout == ""
    assert sorted(p.name for p in folder.iterdir() if p.suffix != ".py") == ["boom.toml"]
    assert list(tmp.iterdir()) == []


def _children(pid: int) -> Iterator[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            yield int(stat.parent.name)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_sigterm_during_a_split_render_leaves_nothing(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = tmp_path / "out.mp4"
    env = {**os.environ, "TMPDIR": str(tmp), "CI": "1"}
    command = [sys.executable, "-m", "searchvid", "render", SCENE, "-o", str(out), "--jobs", "2"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    # the workers are drawing once one of them has made its segment's folder
    while not any(p.name.startswith("searchvid-segment-") for p in tmp.glob("*/*")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    workers = list(_children(process.pid))
    assert workers
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 143
    assert stderr == "Error: interrupted (SIGTERM)\n"
    assert stdout == ""
    assert list(tmp_path.iterdir()) == [tmp]
    assert list(tmp.iterdir()) == []
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
