"""The whole MP4 pipeline against ffmpeg alone (issue 22, item 2).

The frames of a shipped scene are captured once as raw yuv420p (the frames the render pipes
to ffmpeg, the last one's hold included); then, in interleaved runs, ffmpeg alone encodes
that file with the render's own command line (:meth:`Mp4Encoder.command`, input from the
file instead of the pipe), and the whole render (search, strip, canvas, encode) runs in a
fresh interpreter, so no cache of an earlier run helps it: as it is now, and as it was before
issue 22 (``Mp4Encoder.AHEAD = 0``: each frame piped by the drawing thread itself, into
Linux's default 64 KiB pipe). Each run's wall and CPU time (user + system, ffmpeg's
included) is kept; the ratio is of medians, ffmpeg alone's time over the pipeline's: 1.0x
means the pipeline adds nothing to the encoder's own time. Target: >= 0.95x of wall time.
The machine has 2 cores and may be shared: the CPU ratio, which other processes' load barely
moves, is printed beside it; wall time under load measures the load as much as the pipeline.
The MP4s of both pipelines must be byte-identical (checked, or the row fails).
"""

from __future__ import annotations

import hashlib
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from common import Row

import searchvid
import searchvid.render.pipeline as pipeline
from searchvid.render.canvas import PixelFormat
from searchvid.render.encode import Mp4Encoder

TOPIC = "pipeline"
SCENE = "railroad-random"
FRAMES = 1000
ROUNDS = 5
TARGET = 0.95

_CHILD = """
import json, resource, sys, time
import searchvid
import searchvid.render.mp4 as mp4
if {before}:  # the pipeline before issue 22: no feeding thread, the default pipe buffer
    mp4.Mp4Encoder.AHEAD = 0
    mp4._widen = lambda pipe: None
scene = searchvid.load_scene({scene!r}).with_overrides(frames={frames})
def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
start, used = time.perf_counter(), cpu()
scene.render({target!r})
print(json.dumps([time.perf_counter() - start, cpu() - used]))
"""


class _RawCapture:
    """An encoder that appends each yuv420p frame (and its held copies) to a file."""

    def __init__(self, path: Path, size: dict[str, Any]) -> None:
        self._file = path.open("wb")
        self.size = size
        self.encoded_frames = 0
        self._last: bytes = b""

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.YUV420P

    def write(self, frame: Any, dirty: Any = None, *, hold: int = 0) -> None:
        self._last = frame.tobytes()
        for _ in range(1 + hold):
            self._file.write(self._last)
        self.encoded_frames += 1 + hold

    def __enter__(self) -> _RawCapture:
        return self

    def __exit__(self, *exc: object) -> None:
        hold = self.size["hold"]  # Mp4Encoder._finish repeats the last frame this often
        for _ in range(hold):
            self._file.write(self._last)
        self.encoded_frames += hold
        self._file.close()


def capture(scene: searchvid.Scene, raw: Path) -> tuple[int, int, int, int]:
    """Write the frames ``scene`` renders to MP4 into ``raw``; ``(width, height, fps,
    frames)`` of what ffmpeg encodes."""
    sizes: dict[str, Any] = {}
    made: list[_RawCapture] = []

    def opened(path: Path, **kwargs: Any) -> _RawCapture:
        video = kwargs["video"]
        sizes.update(kwargs, fps=video.fps, hold=round(video.hold_last * video.fps))
        made.append(_RawCapture(raw, sizes))
        return made[0]

    with mock.patch.object(pipeline, "open_encoder", opened):
        scene.render(raw.with_suffix(".mp4"))
    return sizes["width"], sizes["height"], sizes["fps"], made[0].encoded_frames


def encoder_command(raw: Path, out: Path, width: int, height: int, fps: int) -> list[str]:
    """The render's ffmpeg command line, reading ``raw`` instead of the pipe."""
    encoder = Mp4Encoder(out, width=width, height=height, fps=fps)
    return [raw.as_posix() if arg == "pipe:0" else arg for arg in encoder.command()]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ffmpeg_alone(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ffmpeg encoding the raw file."""
    used, start = _children_cpu(), time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start, _children_cpu() - used


def whole_render(
    out: Path, scene: str = SCENE, frames: int = FRAMES, *, before: bool = False
) -> tuple[float, float]:
    """Wall and CPU seconds of the render call (search to MP4) in a fresh interpreter
    (``before``: with the pipeline as it was before issue 22)."""
    code = _CHILD.format(scene=scene, frames=frames, target=out.as_posix(), before=before)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, cpu = json.loads(proc.stdout.strip().splitlines()[-1])
    return float(wall), float(cpu)


@dataclass(frozen=True)
class Runs:
    """What :func:`measure` found.

    Attributes:
        size: ``(width, height)`` of the frames.
        encoded: Frames ffmpeg encodes (held copies included).
        alone: ``(wall, cpu)`` seconds of each run of ffmpeg alone.
        pipeline: ``(wall, cpu)`` seconds of each whole render.
        before: ``(wall, cpu)`` seconds of each whole render with the pipeline before
            issue 22.
        same: Whether both pipelines wrote the same MP4 bytes.
    """

    size: tuple[int, int]
    encoded: int
    alone: list[tuple[float, float]]
    pipeline: list[tuple[float, float]]
    before: list[tuple[float, float]]
    same: bool = True


def measure(folder: Path, scene: str = SCENE, frames: int = FRAMES, rounds: int = ROUNDS) -> Runs:
    """Interleaved runs of ffmpeg alone, the whole render before issue 22 and now,
    ``rounds`` of each."""
    raw = folder / "frames.yuv"
    width, height, fps, count = capture(
        searchvid.load_scene(scene).with_overrides(frames=frames), raw
    )
    command = encoder_command(raw, folder / "alone.mp4", width, height, fps)
    runs = Runs((width, height), count, [], [], [])
    now, before = folder / "pipeline.mp4", folder / "before.mp4"
    for _ in range(rounds):
        runs.alone.append(ffmpeg_alone(command))
        runs.before.append(whole_render(before, scene, frames, before=True))
        runs.pipeline.append(whole_render(now, scene, frames))
    raw.unlink()
    same = _digest(now) == _digest(before)
    return Runs(runs.size, count, runs.alone, runs.pipeline, runs.before, same)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def benchmarks() -> Iterator[Row]:
    """The pipeline's speed as a ratio of ffmpeg alone's, wall and CPU."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = measure(Path(tmp))
    each = {"alone": runs.alone, "pipeline": runs.pipeline, "before": runs.before}
    wall = {name: statistics.median(w for w, _ in pairs) for name, pairs in each.items()}
    cpu = {name: statistics.median(c for _, c in pairs) for name, pairs in each.items()}
    label = f"{SCENE} (<= {FRAMES} fr), {runs.size[0]}x{runs.size[1]}"
    yield Row(
        TOPIC,
        f"ffmpeg alone, raw yuv420p file, {runs.encoded} fr",
        f"{wall['alone']:.2f} s, cpu {cpu['alone']:.2f}",
    )
    yield Row(
        TOPIC,
        f"whole mp4 render before issue 22, {label}",
        f"{wall['before']:.2f} s, cpu {cpu['before']:.2f}",
    )
    yield Row(
        TOPIC, f"whole mp4 render, {label}", f"{wall['pipeline']:.2f} s, cpu {cpu['pipeline']:.2f}"
    )
    yield Row(
        TOPIC,
        "mp4 bytes: before issue 22 = now",
        "same" if runs.same else "DIFFERENT",
        "same",
        runs.same,
    )
    for name in ("before", "pipeline"):
        ratio = wall["alone"] / wall[name]
        cpu_ratio = cpu["alone"] / cpu[name]
        yield Row(
            TOPIC,
            f"mp4 pipeline{' before issue 22' if name == 'before' else ''} / ffmpeg alone "
            f"(median of {ROUNDS})",
            f"{ratio:.2f}x, cpu {cpu_ratio:.2f}x",
            f">= {TARGET}x" if name == "pipeline" else "",
            ratio >= TARGET if name == "pipeline" else None,
        )


if __name__ == "__main__":
    for row in benchmarks():
        print(row, file=sys.stderr)
