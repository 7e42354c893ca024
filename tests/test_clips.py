"""``render --start/--end`` (a clip) and ``preview --step`` (the frame of a trace step)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
from click.testing import CliRunner, Result
from PIL import Image

from searchvid.cli import main
from searchvid.errors import UsageError
from searchvid.render.clip import ClipTime, parse_time

SCENE = str(Path(__file__).resolve().parent / "golden" / "seed-tree.toml")
"""The seed's tree searched depth first: 15 frames at 2 fps, an opening card held 2 s, a
closing 3.5 s."""
RACE = "tree-bfs-vs-dfs"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole render of SCENE as a PNG folder."""
    folder = tmp_path_factory.mktemp("whole") / "frames"
    done = invoke("render", SCENE, "-o", str(folder), "-q")
    assert done.exit_code == 0, done.output
    return folder


def frame_bytes(folder: Path) -> list[bytes]:
    return [path.read_bytes() for path in sorted(folder.glob("frame_*.png"))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("120", ClipTime("120", frame=120)),
        ("0", ClipTime("0", frame=0)),
        ("12.5s", ClipTime("12.5s", seconds=Fraction(25, 2))),
        ("3s", ClipTime("3s", seconds=Fraction(3))),
        ("0:12.5", ClipTime("0:12.5", seconds=Fraction(25, 2))),
        ("2:03", ClipTime("2:03", seconds=Fraction(123))),
        ("1:02:03.5", ClipTime("1:02:03.5", seconds=Fraction(7447, 2))),
    ],
)
def test_times_are_frames_or_seconds(text: str, expected: ClipTime) -> None:
    assert parse_time(text, "--start") == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12.5", "--start: '12.5' is ambiguous; write 12.5s for seconds, or a whole frame number"),
        (
            "-3",
            "--start: expected a frame number (120), seconds (12.5s) or minutes:seconds "
            "(0:12.5), got '-3'",
        ),
        ("0:75", "--start: '0:75': minutes and seconds are below 60"),
        ("1:75:00", "--start: '1:75:00': minutes and seconds are below 60"),
        (
            "12 s",
            "--start: expected a frame number (120), seconds (12.5s) or minutes:seconds "
            "(0:12.5), got '12 s'",
        ),
    ],
)
def test_other_times_are_refused(text: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_time(text, "--start")
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("start", "end", "first", "stop"),
    [
        ("3", "9", 3, 9),
        ("0", "1", 0, 1),
        ("14", None, 14, 15),
        (None, "4", 0, 4),
        # frame 1 is on screen from 2 s to 2.5 s; frame 9 appears at 6 s, so it is left out
        ("2.2s", "0:06", 1, 9),
        ("6s", "6.1s", 9, 10),
        ("8.5s", "12s", 14, 15),  # the closing card, on screen from 8.5 s to 12 s
    ],
)
def test_a_clip_is_those_frames_of_the_whole_render_byte_for_byte(
    tmp_path: Path, whole: Path, start: str | None, end: str | None, first: int, stop: int
) -> None:
    out = tmp_path / "clip"
    flags = [*(["--start", start] if start else []), *(["--end", end] if end else [])]
    done = invoke("render", SCENE, "-o", str(out), "-q", *flags)
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"{stop - first} frames in ")
    assert frame_bytes(out) == frame_bytes(whole)[first:stop]


def test_a_race_clip_is_those_frames_of_the_race(tmp_path: Path) -> None:
    full, part = tmp_path / "full", tmp_path / "part"
    assert invoke("render", RACE, "-o", str(full), "-q").exit_code == 0
    done = invoke("render", RACE, "-o", str(part), "-q", "--start", "4", "--end", "11")
    assert done.exit_code == 0, done.output
    assert frame_bytes(part) == frame_bytes(full)[4:11]


def decoded_count(path: Path) -> tuple[int, float]:
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    return sum(1 for _ in reader), float(meta["fps"])


@pytest.mark.parametrize(
    ("flags", "ticks"),
    [
        # frames 10 to 14 at 2 fps: four of 0.5 s, then the closing card held 3.5 s
        (["--start", "10"], 4 + 7),
        # frames 10 to 13: the video's last frame is left out, and so is its hold
        (["--start", "10", "--end", "14"], 4),
        # the opening card (held 2 s) and frame 1
        (["--end", "2"], 4 + 1),
    ],
)
def test_an_mp4_clip_keeps_the_holds_of_the_whole_video(
    tmp_path: Path, flags: list[str], ticks: int
) -> None:
    out = tmp_path / "clip.mp4"
    done = invoke("render", SCENE, "-o", str(out), "-q", *flags)
    assert done.exit_code == 0, done.output
    assert decoded_count(out) == (ticks, 2.0)


def gif_durations(path: Path) -> list[int]:
    with Image.open(path) as image:
        durations = []
        for index in range(image.n_frames):
            image.seek(index)
            durations.append(int(image.info["duration"]))
    return durations


def test_a_gif_clip_lasts_as_long_as_its_frames_do_in_the_whole_gif(tmp_path: Path) -> None:
    out = tmp_path / "clip.gif"
    done = invoke("render", SCENE, "-o", str(out), "-q", "--end", "3")
    assert done.exit_code == 0, done.output
    # the opening card held 2 s, then two frames of 0.5 s
    assert sum(gif_durations(out)) == 3000


def test_an_html_clip_holds_the_clips_frames(tmp_path: Path) -> None:
    out = tmp_path / "clip.html"
    done = invoke("render", SCENE, "-o", str(out), "-q", "--start", "5", "--end", "8")
    assert done.exit_code == 0, done.output
    assert done.output.startswith("3 frames in ")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_clips_captions_are_its_own_timed_from_zero(tmp_path: Path) -> None:
    out = tmp_path / "clip.vtt"
    done = invoke("render", SCENE, "-o", str(out), "-q", "--start", "2.6s", "--end", "0:04")
    assert done.exit_code == 0, done.output
    assert out.read_text(encoding="utf-8") == (
        "WEBVTT\n\n"
        "00:00:00.000 --> 00:00:00.500\ngo to Breadth-First: leaf\n\n"
        "00:00:00.500 --> 00:00:01.000\nbacktrack to depth 1\n\n"
        "00:00:01.000 --> 00:00:01.500\ngo to Depth-First\n"
    )
    chapters = tmp_path / "clip.chapters.vtt"
    assert chapters.read_text(encoding="utf-8") == (
        "WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nSearch: backtracking\n"
    )


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--start", "5", "--end", "5"],
            "Error: --start 5 must come before --end 5: the clip "
            "would hold no frame (it starts at frame 5, and frame 5 is the first one left out)",
        ),
        (
            ["--start", "9", "--end", "3"],
            "Error: --start 9 must come before --end 3: the clip "
            "would hold no frame (it starts at frame 9, and frame 3 is the first one left out)",
        ),
        (
            ["--start", "15"],
            "Error: --start 15 is past the end: the video has 15 frames (0 to 14) and lasts 12 s",
        ),
        (
            ["--start", "12s"],
            "Error: --start 12s is past the end: the video has 15 frames (0 to 14) and lasts 12 s",
        ),
        (
            ["--end", "16"],
            "Error: --end 16 is past the end: the video has 15 frames (0 to 14) "
            "and lasts 12 s; --end 15 (or no --end) ends the clip with the last frame",
        ),
        (
            ["--end", "0:13"],
            "Error: --end 0:13 is past the end: the video has 15 frames (0 to 14) and lasts 12 s",
        ),
        (
            ["--start", "1.5"],
            "Error: --start: '1.5' is ambiguous; write 1.5s for seconds, or a whole frame number",
        ),
        (
            ["--start", "2", "--jobs", "2"],
            "Error: --jobs: a clip (--start/--end) is rendered whole; drop one",
        ),
    ],
)
@pytest.mark.parametrize("suffix", [".mp4", ".gif", ".vtt", ""])
def test_a_bad_clip_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, flags: list[str], message: str, suffix: str
) -> None:
    out = tmp_path / f"clip{suffix}"
    done = invoke("render", SCENE, "-o", str(out), "-q", *flags)
    assert (done.exit_code, done.output.strip()) == (2, message)
    assert list(tmp_path.iterdir()) == []


def test_snapshots_are_not_taken_of_a_clip(tmp_path: Path) -> None:
    done = invoke(
        "render",
        SCENE,
        "-o",
        str(tmp_path / "c.mp4"),
        "--start",
        "2",
        "--snapshots",
        str(tmp_path / "snaps"),
    )
    assert (done.exit_code, done.output.strip()) == (
        2,
        "Error: --snapshots comes from a whole render, not a clip (--start/--end)",
    )
    assert list(tmp_path.iterdir()) == []


def trace_frames() -> list[tuple[int, int | None]]:
    done = invoke("trace", SCENE)
    assert done.exit_code == 0, done.output
    return [(r["step"], r["frame"]) for r in map(json.loads, done.output.splitlines())]


def test_preview_step_draws_the_frame_on_screen_at_that_step(tmp_path: Path, whole: Path) -> None:
    latest = None
    shown: dict[int, int] = {}
    for step, frame in trace_frames():
        latest = frame if frame is not None else latest
        assert latest is not None
        shown[step] = latest
    assert shown[1] == 0  # step 1 (an improve) makes no frame: frame 0 is still on screen
    for step in (0, 1, 6, 15):
        target = tmp_path / f"step{step}.png"
        done = invoke("preview", SCENE, "--step", str(step), "-o", str(target))
        assert done.exit_code == 0, done.output
        assert done.output == f"step {step}: frame {shown[step]} -> {target}\n"
        with Image.open(target) as a, Image.open(whole / f"frame_{shown[step]:06d}.png") as b:
            assert np.array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--step", "16"],
            "Error: --step 16 is past the end: the video's events are steps 0 "
            "to 15 (searchvid trace lists them)",
        ),
        (
            ["--step", "3", "--frame", "2"],
            "Error: --step and --frame name the frame twice; give one of them",
        ),
    ],
)
def test_preview_step_errors(tmp_path: Path, flags: list[str], message: str) -> None:
    target = tmp_path / "p.png"
    done = invoke("preview", SCENE, "-o", str(target), *flags)
    assert (done.exit_code, done.output.strip()) == (2, message)
    assert not target.exists()


def test_preview_step_before_the_first_frame_names_the_first_frames_step(
    tmp_path: Path,
) -> None:
    scene = tmp_path / "leaves.toml"
    scene.write_text(
        'title = "t"\n[domain]\nname = "tree"\nroot = "R"\n'
        "[domain.children.A]\nB = {}\nC = {}\n"
        '[search]\nalgorithm = "backtracking"\n[video]\nframes = "leaves"\n',
        encoding="utf-8",
    )
    framed = [
        r
        for r in map(json.loads, invoke("trace", str(scene)).output.splitlines())
        if r["frame"] is not None
    ]
    first = framed[0]["step"]
    assert first > 0
    done = invoke("preview", str(scene), "--step", "0", "-o", str(tmp_path / "p.png"))
    assert (done.exit_code, done.output.strip()) == (
        2,
        f"Error: --step 0 comes before the video's first frame, which step {first} makes",
    )


def test_preview_step_is_refused_for_a_race(tmp_path: Path) -> None:
    done = invoke("preview", RACE, "--step", "2", "-o", str(tmp_path / "p.png"))
    assert done.exit_code == 2
    assert done.output.startswith("Error: --step: a race numbers each search's steps apart")
