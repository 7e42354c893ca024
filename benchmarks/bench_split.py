"""Renders split across workers (issue 21): ``render --jobs 2`` against ``--jobs 1``.

The scene is tictactoe-minimax-tree (a tree panel: drawing is the heavy part), rendered to an
MP4 at its default size. Both runs split the video into the same segments (about 10 s of
video each) and join them without re-encoding, so they write the same bytes; the whole
render (no ``--jobs``) is shown for comparison. Target (issue 21): ``--jobs 2`` at least
1.4x as fast as ``--jobs 1``.

This machine has 2 cores, so the figures for more cores are an estimate, from costs measured
here one by one: the timing pass (every frame's hold, nothing drawn), each segment drawn by
a fresh worker (laying the tree panel out, replaying to its first frame, drawing and
encoding it) and by a worker that is already there, and the join. With at least as many
workers as segments, each segment goes to a fresh worker, so the estimate is the timing
pass, plus the slowest fresh segment, plus the join.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from common import Row, timed

from searchvid import load_scene
from searchvid.render import segments as split
from searchvid.render.cards import held_last
from searchvid.render.output import OutputKind

TOPIC = "split"
SCENE = "tictactoe-minimax-tree"
TARGET = 1.4

T = TypeVar("T")


def benchmarks() -> Iterator[Row]:
    scene = load_scene(SCENE)
    scene.render_jobs()  # pacing, fonts and tiles ready before any clock starts
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        whole, whole_cpu, _ = _measured(lambda: scene.render(out / "whole.mp4"))
        one, one_cpu, result = _measured(lambda: scene.render(out / "one.mp4", jobs=1))
        two, two_cpu, _ = _measured(lambda: scene.render(out / "two.mp4", jobs=2))
        same = (out / "one.mp4").read_bytes() == (out / "two.mp4").read_bytes()
        name = f"{SCENE}: {result.frames} frames, MP4"
        yield Row(TOPIC, f"{name}, whole render", f"{whole:.2f} s, CPU {whole_cpu:.2f} s")
        yield Row(TOPIC, f"{name}, --jobs 1", f"{one:.2f} s, CPU {one_cpu:.2f} s")
        yield Row(TOPIC, f"{name}, --jobs 2", f"{two:.2f} s, CPU {two_cpu:.2f} s")
        yield Row(TOPIC, "--jobs 1 and --jobs 2 write the same bytes", str(same), "True", same)
        ratio = one / two
        target = f">= {TARGET}x"
        yield Row(
            TOPIC, "--jobs 2 speed-up over --jobs 1", f"{ratio:.2f}x", target, ratio >= TARGET
        )
        yield Row(TOPIC, "--jobs 2 speed-up over the whole render", f"{whole / two:.2f}x")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        yield Row(TOPIC, "load average (1 min) after the renders", f"{load:.1f}")
        size = (out / "whole.mp4").stat().st_size, (out / "two.mp4").stat().st_size
        yield Row(
            TOPIC,
            "split MP4 bytes / whole MP4 bytes (a keyframe per segment)",
            f"{size[1] / size[0]:.2f}x",
        )
        yield from _costs(scene, out)
    yield Row(TOPIC, "cores on this machine", str(os.cpu_count()))


def _measured(fn: Callable[[], T]) -> tuple[float, float, T]:
    """Wall seconds of ``fn()``, its CPU seconds (this process, and the workers and ffmpegs
    it waited for), and its result."""
    before, start = os.times(), time.perf_counter()
    result = fn()
    wall, after = time.perf_counter() - start, os.times()
    cpu = sum(
        getattr(after, field) - getattr(before, field)
        for field in ("user", "system", "children_user", "children_system")
    )
    return wall, cpu, result


def _costs(scene: split.Splittable, out: Path) -> Iterator[Row]:
    """The pieces of a split render, each measured alone, and the 16-core estimate."""
    jobs = scene.render_jobs()
    video = jobs[0].video
    start = time.perf_counter()
    holds, _events = split._timing(scene.sources(), jobs)
    timing = time.perf_counter() - start
    segments = split.plan_segments(holds, video.fps)
    hold_last = held_last(video).hold_last

    def task(key: str, segment: split.Segment) -> split._Task:
        return split._Task(
            key, scene, segment, OutputKind.MP4, video.fps, video.quality, hold_last, None
        )

    fresh: list[float] = []
    for segment in segments:  # a new key each time: a fresh worker, replaying from the start
        seconds, _ = timed(lambda s=segment: split._render_segment(task(f"fresh{s.index}", s)))
        fresh.append(seconds)
    kept: list[float] = []
    for segment in segments:  # one key: the worker goes on from where it was
        seconds, done = timed(lambda s=segment: split._render_segment(task("kept", s)))
        kept.append(seconds)
        (out / f"segment_{segment.index:05d}.mp4").write_bytes(done.files[0])
    joined = split._JoinedMp4(out / "joined.mp4")
    with joined:
        join, _ = timed(lambda: joined.join(segments, str(out)))
    yield Row(TOPIC, f"timing pass ({len(holds)} frames, nothing drawn)", f"{timing:.2f} s")
    yield Row(
        TOPIC,
        f"segments: {len(segments)} of ~{split.SEGMENT_SECONDS} s video",
        " ".join(f"{f.stop - f.first}" for f in segments) + " frames",
    )
    yield Row(TOPIC, "a segment, fresh worker (layout + replay + draw + encode)", _spread(fresh))
    yield Row(TOPIC, "a segment, worker already in place (draw + encode)", _spread(kept))
    yield Row(TOPIC, "join (concat demuxer, no re-encoding)", f"{join:.3f} s")
    estimate = timing + max(fresh) + join
    yield Row(
        TOPIC,
        "16 cores, ESTIMATE: timing + slowest fresh segment + join",
        f"{estimate:.2f} s (est.)",
    )


def _spread(seconds: list[float]) -> str:
    return f"{min(seconds):.2f}-{max(seconds):.2f} s"
