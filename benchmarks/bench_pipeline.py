"""The whole MP4 pipeline against ffmpeg alone (issue 22, item 2).

The frames of a shipped scene are captured once as raw yuv420p (the frames the render pipes
to ffmpeg, the last one's hold included); then, in interleaved runs, ffmpeg alone encodes
that file with the render's own command line (:meth:`Mp4Encoder.command`, input from the
file instead of the pipe), and the whole render (search, strip, canvas, encode) runs in a
fresh interpreter, so no cache of an earlier run helps it. Each run's wall and CPU time
(user + system, ffmpeg's included) is kept; the ratio is of medians, ffmpeg alone's time over
the pipeline's: 1.0x means the pipeline adds nothing to the encoder's own time. Target:
>= 0.95x of wall time. The machine has 2 cores and may be shared: the CPU ratio, which other
processes' load barely moves, is printed beside it.
"""

from __future__ import annotations

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


def whole_render(out: Path, scene: str = SCENE, frames: int = FRAMES) -> tuple[float, float]:
    """Wall and CPU seconds of the render call (search to MP4) in a fresh interpreter."""
    code = _CHILD.format(scene=scene, frames=frames, target=out.as_posix())
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
    """

    size: tuple[int, int]
    encoded: int
    alone: list[tuple[float, float]]
    pipeline: list[tuple[float, float]]


def measure(folder: Path, scene: str = SCENE, frames: int = FRAMES, rounds: int = ROUNDS) -> Runs:
    """Interleaved runs of ffmpeg alone and the whole render, ``rounds`` of each."""
    raw = folder / "frames.yuv"
    width, height, fps, count = capture(
        searchvid.load_scene(scene).with_overrides(frames=frames), raw
    )
    command = encoder_command(raw, folder / "alone.mp4", width, height, fps)
    runs = Runs((width, height), count, [], [])
    for _ in range(rounds):
        runs.alone.append(ffmpeg_alone(command))
        runs.pipeline.append(whole_render(folder / "pipeline.mp4", scene, frames))
    raw.unlink()
    return runs


def benchmarks() -> Iterator[Row]:
    """The pipeline's speed as a ratio of ffmpeg alone's, wall and CPU."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = measure(Path(tmp))
    each = {"alone": runs.alone, "pipeline": runs.pipeline}
    wall = {name: statistics.median(w for w, _ in pairs) for name, pairs in each.items()}
    cpu = {name: statistics.median(c for _, c in pairs) for name, pairs in each.items()}
    label = f"{SCENE} {FRAMES} fr, {runs.size[0]}x{runs.size[1]}"
    yield Row(
        TOPIC,
        f"ffmpeg alone, raw yuv420p file, {runs.encoded} fr",
        f"{wall['alone']:.2f} s, cpu {cpu['alone']:.2f}",
    )
    yield Row(
        TOPIC, f"whole mp4 render, {label}", f"{wall['pipeline']:.2f} s, cpu {cpu['pipeline']:.2f}"
    )
    ratio = wall["alone"] / wall["pipeline"]
    cpu_ratio = cpu["alone"] / cpu["pipeline"]
    yield Row(
        TOPIC,
        f"mp4 pipeline / ffmpeg alone (median of {ROUNDS})",
        f"{ratio:.2f}x, cpu {cpu_ratio:.2f}x",
        f">= {TARGET}x",
        ratio >= TARGET,
    )


if __name__ == "__main__":
    for row in benchmarks():
        print(row, file=sys.stderr)
