"""The tree panel's cost on a whole render (issue 22, item 1): railroad-mcts with and without
``[video] tree``, side by side.

Each render runs in a fresh interpreter (a clean peak memory), the two kinds interleaved
(board only, panel, board only, panel, ...) so that the load of a shared machine falls on both
alike; the figures are medians. Speed is the ratio of wall times (board only / panel), as a
user waits for it; CPU times are given too, this process's and ffmpeg's (a busy machine
stretches wall times, not CPU times). Peak memory is ``VmHWM``
(:func:`searchvid.memory.peak_rss_mb`). The panel's first pass is recorded and replayed
(:mod:`searchvid.render.treereplay`), so the panel adds no search of its own; the last row
counts the searches each way (pacing reads the search too), and those (and the wall time)
of a panel render that does not record, as before issue 22.

Where a panel render's extra time goes (issue 22's profile, railroad-mcts as paced now: 149
panel pictures, 43 of them new decisions drawn whole; CPU, load ~8 on 2 cores): ffmpeg
encodes a frame twice as wide (about 6.5 s of ffmpeg CPU against 2.8 s, in its own process);
in Python, copying the panel's changes into the frame as yuv420p (0.25-0.28 s since its
tens of small changed boxes a frame are converted packed side by side in one call, in place
and with integer 2x2 sums, against 0.46-0.49 s one box a call, CPU of the same renders to a
null encoder under load ~9; 0.72 s when each redrawn slot was converted whole), drawing the
panel (0.56 s; its drawing alone, replayed outside a render, took 0.86 s before the
row-broadcast fills and the cached legend),
following its 51,821 events (about 0.2 s) and recording the first pass (about 0.15 s). The
fourth row gives the first two, as measured here.

Targets: panel speed >= 0.8x board only, peak memory <= 1.5x.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Iterator
from pathlib import Path

from common import Row, run_isolated

TOPIC = "panel"
SCENE = "railroad-mcts"
PAIRS = 3

_CHILD = """
import json, resource, time, tomllib
from pathlib import Path
import searchvid
from searchvid.memory import peak_rss_mb
from searchvid.render import treereplay
from searchvid.render.canvas import RgbPanel
from searchvid.render.treepanel import TreePanel
from searchvid.scene import Scene

path = Path({scenes!r}) / "{scene}.toml"
table = tomllib.loads(path.read_text(encoding="utf-8"))
table.setdefault("video", {{}})["tree"] = {tree}
if not {record}:
    treereplay.RECORD_LIMIT = 0
scene = searchvid.scene_from_dict(table, name=str(path), folder=path.parent)
searches = 0
events = Scene.events

def counted(self, index=0, *, framed=False):
    global searches
    searches += 1
    return events(self, index, framed=framed)

Scene.events = counted
spent = dict(draw=0.0, show=0.0)

def timed(owner, name, key):  # a few calls per frame: the clock costs nothing here
    method = getattr(owner, name)

    def run(*args, **kwargs):
        start = time.process_time()
        try:
            return method(*args, **kwargs)
        finally:
            spent[key] += time.process_time() - start

    setattr(owner, name, run)

timed(TreePanel, "draw", "draw")
timed(RgbPanel, "show", "show")
start, cpu = time.perf_counter(), time.process_time()
scene.render(Path({folder!r}) / "out.mp4")
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
child = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps(dict(wall=wall, cpu=cpu, ffmpeg=child.ru_utime + child.ru_stime,
                      peak=peak_rss_mb(), searches=searches, **spent)))
"""


def _render(folder: Path, *, tree: bool, record: bool = True) -> dict[str, float]:
    scenes = str(Path(__file__).resolve().parent.parent / "scenes")
    code = _CHILD.format(scenes=scenes, scene=SCENE, tree=tree, record=record, folder=str(folder))
    figures: dict[str, float] = json.loads(run_isolated(code))
    return figures


def benchmarks() -> Iterator[Row]:
    """Interleaved renders of railroad-mcts, board only and with the panel."""
    runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(PAIRS):
            for tree in (False, True):
                runs[tree].append(_render(Path(tmp), tree=tree))
        old = _render(Path(tmp), tree=True, record=False)

    def median(tree: bool, key: str) -> float:
        return statistics.median(run[key] for run in runs[tree])

    board, panel = median(False, "wall"), median(True, "wall")
    speed = board / panel
    yield Row(
        TOPIC,
        f"{SCENE}: panel/board-only speed, wall, {PAIRS} pairs",
        f"{board:.1f}/{panel:.1f} s={speed:.2f}x",
        ">= 0.8x",
        speed >= 0.8,
    )
    cpu_board, cpu_panel = median(False, "cpu"), median(True, "cpu")
    yield Row(
        TOPIC,
        f"{SCENE}: panel/board-only speed, python CPU",
        f"{cpu_board:.2f}/{cpu_panel:.2f} s={cpu_board / cpu_panel:.2f}x",
    )
    ff_board, ff_panel = median(False, "ffmpeg"), median(True, "ffmpeg")
    yield Row(
        TOPIC,
        f"{SCENE}: ffmpeg CPU, board only/panel",
        f"{ff_board:.2f}/{ff_panel:.2f} s",
    )
    yield Row(
        TOPIC,
        f"{SCENE}: panel draw, copy into frame (CPU)",
        f"{median(True, 'draw'):.2f}, {median(True, 'show'):.2f} s",
    )
    peak_board, peak_panel = median(False, "peak"), median(True, "peak")
    ratio = peak_panel / peak_board
    yield Row(
        TOPIC,
        f"{SCENE}: peak RSS, panel/board only",
        f"{peak_panel:.0f}/{peak_board:.0f} MB={ratio:.2f}x",
        "<= 1.5x",
        ratio <= 1.5,
    )
    yield Row(
        TOPIC,
        f"{SCENE}: searches: board, panel (unrecorded)",
        f"{median(False, 'searches'):.0f}, {median(True, 'searches'):.0f} "
        f"({old['searches']:.0f}: {old['wall']:.1f} s)",
    )
