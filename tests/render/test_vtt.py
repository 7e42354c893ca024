"""WebVTT captions and chapters: exact syntax, cue times equal to the frames' times in the
MP4 and the GIF, runs of one caption, phases, atomic output."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image
from render_fakes import FakeView

from searchvid import VideoWriter, scene_from_dict
from searchvid.cli import main
from searchvid.errors import UsageError
from searchvid.render.encode import ffmpeg_exe
from searchvid.render.timeline import FrameTime, Phase, Timeline, chapters, frame_times
from searchvid.render.vtt import captions_text, chapters_path, chapters_text, cue_time
from searchvid.scene import Scene
from searchvid.search.events import EventKind

FPS = 4


def _table(*, captions: bool = True, hold_last: float = 1.0) -> dict[str, Any]:
    """A tiny Water Sort solved by breadth-first search: a search, then the solution played
    out, with new bests held 0.75 s and pours 0.5 s (17 frames)."""
    return {
        "title": "tiny",
        "seed": 0,
        "domain": {"name": "watersort", "tubes": [[1, 2, 1], [2, 1, 2], []], "capacity": 3},
        "search": {"algorithm": "breadth-first"},
        "video": {
            "fps": FPS,
            "tile_size": 32,
            "captions": captions,
            "hold_moves": 0.5,
            "hold_improvements": 0.75,
            "hold_last": hold_last,
        },
    }


def _scene(**options: Any) -> Scene:
    return scene_from_dict(_table(**options), name="tiny")


_TIME = r"(\d\d):([0-5]\d):([0-5]\d)\.(\d{3})"
_CUE = re.compile(rf"^{_TIME} --> {_TIME}\n((?:[^\n]+\n?)+)$")


def _parse(text: str) -> list[tuple[int, int, str]]:
    """Cues ``(start ms, end ms, text)`` of a WebVTT file, checking its syntax strictly: the
    header line, blocks separated by one blank line, timestamps HH:MM:SS.mmm, a final
    line break and no blank line inside a cue."""
    assert text.startswith("WEBVTT\n\n"), text[:20]
    assert text.endswith("\n")
    assert not text.endswith("\n\n")
    assert "\r" not in text
    cues = []
    for block in text[len("WEBVTT\n\n") :].rstrip("\n").split("\n\n"):
        match = _CUE.match(block)
        assert match is not None, block
        h1, m1, s1, ms1, h2, m2, s2, ms2 = (int(g) for g in match.groups()[:8])
        start = ((h1 * 60 + m1) * 60 + s1) * 1000 + ms1
        end = ((h2 * 60 + m2) * 60 + s2) * 1000 + ms2
        assert start < end
        cues.append((start, end, match.group(9)))
    return cues


def _gif_starts(path: Path) -> tuple[list[int], int]:
    """Each GIF image's start in ms (from the delays written), and the GIF's length."""
    starts, total = [], 0
    with Image.open(path) as gif:
        for index in range(getattr(gif, "n_frames", 1)):
            gif.seek(index)
            starts.append(total)
            total += int(gif.info["duration"])
    return starts, total


def _mp4_frames(path: Path, width: int, height: int) -> np.ndarray:
    """The MP4's decoded frames, ``(n, height, width, 3)``."""
    raw = subprocess.run(
        [ffmpeg_exe(), "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        check=True,
        capture_output=True,
    ).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, height, width, 3)


def _caption_runs(scene: Scene) -> list[tuple[int, str]]:
    """(first frame, caption) of each run of frames with one caption, from the strips."""
    runs: list[tuple[int, str]] = []
    for index, columns in enumerate(scene.strip_texts()):
        item = columns[0]
        assert item is not None
        assert item[1].caption is not None
        caption = item[1].caption
        if not runs or runs[-1][1] != caption:
            runs.append((index, caption))
    return runs


def test_cue_times_are_the_frames_times_in_the_mp4_and_the_gif(tmp_path: Path) -> None:
    scene = _scene()
    scene.render(tmp_path / "v.vtt")
    scene.render(tmp_path / "v.gif")
    scene.render(tmp_path / "v.mp4")
    scene.render(tmp_path / "frames")
    cues = _parse((tmp_path / "v.vtt").read_text(encoding="utf-8"))
    runs = _caption_runs(scene)
    assert [text for _, _, text in cues] == [caption for _, caption in runs]
    # cues follow each other with no gap: each ends where the next begins
    assert all(a[1] == b[0] for a, b in itertools.pairwise(cues))

    # GIF: one image per frame; its start (whole centiseconds) is within 5 ms of the cue's
    starts, length = _gif_starts(tmp_path / "v.gif")
    for (start, _, _), (first, _) in zip(cues, runs, strict=True):
        assert abs(start - starts[first]) <= 5, (first, start, starts[first])
    assert cues[-1][1] == length  # hold_last is a whole number of frames: both end together

    # MP4: its frames are 1/fps each; which frame of the PNG folder each one shows (the
    # nearest) gives the caption on screen, and each caption starts where its cue does
    pngs = sorted((tmp_path / "frames").iterdir())
    truth = np.stack([np.asarray(Image.open(p).convert("RGB")) for p in pngs]).astype(np.int32)
    video = _mp4_frames(tmp_path / "v.mp4", truth.shape[2], truth.shape[1]).astype(np.int32)
    assert len(video) * 1000 // FPS == cues[-1][1]
    caption_of = dict(runs)
    shown = []
    for picture in video:
        nearest = int(np.argmin(((truth - picture) ** 2).mean(axis=(1, 2, 3))))
        run_start = max(first for first in caption_of if first <= nearest)
        shown.append(caption_of[run_start])
    mp4_cues = [k for k in range(len(shown)) if k == 0 or shown[k] != shown[k - 1]]
    assert [round(k * 1000 / FPS) for k in mp4_cues] == [start for start, _, _ in cues]
    assert [shown[k] for k in mp4_cues] == [text for _, _, text in cues]


def test_chapters_are_the_cards_the_search_and_the_solution(tmp_path: Path) -> None:
    scene = _scene()
    scene.render(tmp_path / "v.vtt")
    scene.render(tmp_path / "v.gif")
    kinds = [columns[0][0].kind for columns in scene.strip_texts() if columns[0] is not None]
    first_move = kinds.index(EventKind.MOVE)
    assert first_move > 1
    assert set(kinds[first_move:]) == {EventKind.MOVE}
    starts, length = _gif_starts(tmp_path / "v.gif")
    text = (tmp_path / "v.chapters.vtt").read_text(encoding="utf-8")
    # the first frame is the opening card, the last the closing card
    assert _parse(text) == [
        (0, starts[1], "Opening"),
        (starts[1], starts[first_move], "Search: breadth-first"),
        (starts[first_move], starts[-1], "Solution"),
        (starts[-1], length, "Closing"),
    ]


def test_without_cards_there_are_no_card_chapters(tmp_path: Path) -> None:
    table = _table()
    table["video"] |= {"opening": 0, "closing": 0}
    scene = scene_from_dict(table, name="tiny")
    scene.render(tmp_path / "v.vtt")
    cues = _parse((tmp_path / "v.chapters.vtt").read_text(encoding="utf-8"))
    assert [text for _, _, text in cues] == ["Search: breadth-first", "Solution"]


def test_a_scene_without_captions_gets_the_words_its_caption_line_would_say(
    tmp_path: Path,
) -> None:
    _scene(captions=False).render(tmp_path / "off.vtt")
    _scene(captions=True).render(tmp_path / "on.vtt")
    off = (tmp_path / "off.vtt").read_text(encoding="utf-8")
    assert off == (tmp_path / "on.vtt").read_text(encoding="utf-8")
    assert "pour tube" in off


def test_the_webvtt_text_is_exact() -> None:
    def frame(index: int, start: int, length: int, phase: Phase, *words: str | None) -> FrameTime:
        return FrameTime(index, Fraction(start, 12), Fraction(length, 12), phase, words)

    line = Timeline(
        fps=12,
        frames=(
            frame(0, 0, 1, Phase.SEARCH, "the start", "the start"),
            frame(1, 1, 3, Phase.SEARCH, "a <b> & c", None),
            frame(2, 4, 1, Phase.SEARCH, "a <b> & c", None),
            frame(3, 5, 1, Phase.SOLUTION, "", "line\nbreak"),
            frame(4, 6, 30_000, Phase.SOLUTION, "", ""),
        ),
        titles=("1 · A*", "2 · BFS"),
        algorithms=("A*", "breadth-first"),
    )
    assert captions_text(line) == (
        "WEBVTT\n"
        "\n"
        "00:00:00.000 --> 00:00:00.083\n"
        "1 · A*: the start\n"
        "2 · BFS: the start\n"
        "\n"
        "00:00:00.083 --> 00:00:00.417\n"
        "1 · A*: a &lt;b&gt; &amp; c\n"
        "\n"
        "00:00:00.417 --> 00:00:00.500\n"
        "2 · BFS: line break\n"
    )
    assert chapters_text(line) == (
        "WEBVTT\n"
        "\n"
        "00:00:00.000 --> 00:00:00.417\n"
        "Search: A* vs breadth-first\n"
        "\n"
        "00:00:00.417 --> 00:41:40.500\n"
        "Solution\n"
    )
    assert [(c.first, c.last) for c in chapters(line)] == [(0, 2), (3, 4)]


def test_cue_times_round_to_the_nearest_millisecond() -> None:
    assert cue_time(Fraction(0)) == "00:00:00.000"
    assert cue_time(Fraction(1, 12)) == "00:00:00.083"
    assert cue_time(Fraction(2, 3)) == "00:00:00.667"
    assert cue_time(Fraction(1, 2000)) == "00:00:00.001"  # half a millisecond rounds up
    assert cue_time(Fraction(36_000_000 * 3 + 1, 1000)) == "30:00:00.001"


def test_frame_times_add_holds_and_hold_last_in_whole_frames() -> None:
    times = frame_times([0, 2, 0, 1], 12, 0.5)
    assert times == [
        (Fraction(0), Fraction(1, 12)),
        (Fraction(1, 12), Fraction(3, 12)),
        (Fraction(4, 12), Fraction(1, 12)),
        (Fraction(5, 12), Fraction(2 + 6, 12)),
    ]
    assert frame_times([], 12, 2.0) == []


def test_chapters_go_beside_the_captions() -> None:
    assert chapters_path(Path("out/a.b.vtt")) == Path("out/a.b.chapters.vtt")
    assert chapters_path(Path("A.VTT")) == Path("A.chapters.VTT")


def test_an_interrupted_render_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "new" / "v.vtt"

    def stop(frames: int) -> None:
        if frames == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _scene().render(target, progress=stop)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_leaves_neither_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renamed: list[str] = []
    real = os.replace

    def replace(source: Any, target: Any) -> None:
        if renamed:
            raise OSError(28, "No space left on device")
        real(source, target)
        renamed.append(str(target))

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError, match="No space left on device"):
        _scene().render(tmp_path / "v.vtt")
    assert renamed == [str(tmp_path / "v.chapters.vtt")]
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_writes_both_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["render", "tree-backtracking", "-o", str(tmp_path / "t.vtt"), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    line = result.output.strip()
    assert re.fullmatch(
        rf"21 frames in \d+\.\d s -> {re.escape(str(tmp_path / 't.vtt'))}, chapters -> "
        + re.escape(str(tmp_path / "t.chapters.vtt")),
        line,
    ), line
    gif = CliRunner().invoke(
        main, ["render", "tree-backtracking", "-o", str(tmp_path / "t.gif"), "--quiet"]
    )
    assert gif.exit_code == 0, gif.output
    starts, length = _gif_starts(tmp_path / "t.gif")
    cues = _parse((tmp_path / "t.vtt").read_text(encoding="utf-8"))
    assert [start for start, _, _ in cues] == starts  # every caption differs from the last
    assert cues[-1][1] == length
    chapters = _parse((tmp_path / "t.chapters.vtt").read_text(encoding="utf-8"))
    assert [text for _, _, text in chapters] == ["Opening", "Search: backtracking", "Closing"]
    assert (chapters[0][0], chapters[-1][1]) == (0, length)


def test_snapshots_are_refused_for_captions(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["render", "tree-backtracking", "-o", str(tmp_path / "t.vtt"), "--snapshots", "s"],
    )
    assert result.exit_code == 2
    assert result.output == (
        "Error: --snapshots writes pictures of frames; captions (.vtt) draw none\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_video_writer_refuses_captions(tmp_path: Path) -> None:
    refused = pytest.raises(UsageError, match=r"captions \(\.vtt\) come from a scene's render")
    with refused, VideoWriter(tmp_path / "w.vtt", FakeView((2, 2))):
        pass
    assert list(tmp_path.iterdir()) == []
