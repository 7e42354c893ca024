"""GIF bytes and time of railroad-random (issue 22, item 5): the writer before issue 22 and
now, side by side.

The writer before issue 22 is the same encoder with ``GifEncoder.OPAQUE_GAP = 0`` (every
unchanged pixel of a frame's box transparent); now, short runs of unchanged pixels between
two changes of a row are written as their colours. Each render runs in a fresh interpreter,
as ``searchvid render railroad-random -o NAME.gif`` does, the two writers in turn
:data:`RUNS` times; the time is the median of each. Targets (issue 22): at most 0.85x the
bytes and at most 1.2x the time, with the same pixels (``tests/render/test_gif_equals_png.py``,
``tests/render/test_gif_gaps.py``).

Where ``gifsicle`` is installed (it is no dependency of searchvid), a last row says how far
its strongest lossless optimisation (``-O3``, the same pixels) takes today's GIF: the room
left for any writer that codes one image per frame with a plain LZW.
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from common import Row

TOPIC = "gif"
SCENE = "railroad-random"
RUNS = 5
BYTES_TARGET = 0.85
TIME_TARGET = 1.2

RENDER = """
import sys
from searchvid.render.gif import GifEncoder
if {before}:
    GifEncoder.OPAQUE_GAP = 0
from searchvid._launch import main
sys.argv = ["searchvid", "render", {scene!r}, "-q", "-o", {out!r}]
main()
"""


def _render(before: bool, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, which other processes' load barely changes)."""
    code = RENDER.format(before=before, scene=SCENE, out=str(out))
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    wall = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (now.ru_utime + now.ru_stime) - (used.ru_utime + used.ru_stime)


def optimised(gif: Path) -> int | None:
    """Bytes of ``gif`` after ``gifsicle -O3`` (None: no gifsicle here)."""
    exe = shutil.which("gifsicle")
    if exe is None:
        return None
    out = gif.with_suffix(".O3.gif")
    subprocess.run([exe, "-O3", str(gif), "-o", str(out)], capture_output=True, check=True)
    return out.stat().st_size


def measure(folder: Path, runs: int = RUNS) -> dict[bool, tuple[int, float, float]]:
    """Bytes, median wall seconds and median CPU seconds of the GIF, keyed by ``before``
    (the writer before issue 22); the GIFs are left in ``folder`` as ``True.gif`` (before)
    and ``False.gif`` (now)."""
    seconds: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    sizes: dict[bool, int] = {}
    for _ in range(runs):
        for before in (True, False):
            out = folder / f"{before}.gif"
            seconds[before].append(_render(before, out))
            sizes[before] = out.stat().st_size
    return {
        b: (
            sizes[b],
            statistics.median(w for w, _ in seconds[b]),
            statistics.median(c for _, c in seconds[b]),
        )
        for b in (True, False)
    }


def benchmarks() -> Iterator[Row]:
    """Bytes before / now, and time before / now, each with its ratio; then gifsicle's."""
    with tempfile.TemporaryDirectory() as tmp:
        found = measure(Path(tmp))
        squeezed = optimised(Path(tmp) / "False.gif")
    (old_bytes, old_time, old_cpu), (new_bytes, new_time, new_cpu) = found[True], found[False]
    ratio = new_bytes / old_bytes
    yield Row(
        TOPIC,
        f"GIF bytes {SCENE}: now / before issue 22",
        f"{new_bytes / 1e6:.2f}/{old_bytes / 1e6:.2f} MB={ratio:.3f}x",
        f"<= {BYTES_TARGET}x",
        ratio <= BYTES_TARGET,
    )
    ratio = new_time / old_time
    yield Row(
        TOPIC,
        f"GIF time {SCENE}: now / before, median of {RUNS}",
        f"{new_time:.1f}/{old_time:.1f} s={ratio:.2f}x, cpu {new_cpu / old_cpu:.2f}x",
        f"<= {TIME_TARGET}x",
        ratio <= TIME_TARGET,
    )
    if squeezed is not None:
        ratio = squeezed / old_bytes
        yield Row(
            TOPIC,
            f"GIF bytes {SCENE}: gifsicle -O3 of now / before",
            f"{squeezed / 1e6:.2f}/{old_bytes / 1e6:.2f} MB={ratio:.3f}x",
        )


if __name__ == "__main__":
    for row in benchmarks():
        print(row)
