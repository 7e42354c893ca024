"""The search-tree panel (issue 12): a 100,000-node MCTS tree drawn as it grows.

The stream is a synthetic MCTS run, one iteration per new tree node: ``SELECT`` (the node the
tree policy stops at), ``EXPAND`` (its new child), the playout's ``LEAF`` (id None) and
``BACKUP`` (the reward, backed up to the root). The descent prefers older (more visited)
children, so visits concentrate on a few lines as in a real search. The panel (600 x 900)
is laid out from a first pass over the same stream, then fed every event with ``draw()``
after every 20th: one panel update per 20 events, about five iterations. Targets (issue 12):
>= 50 panel updates per second with <= 300 MB peak memory.

The same is measured in plan mode: a ``MOVE`` after every 1,000 iterations commits the root's
most visited child and the search goes on below it, so the panel lays out 100 decisions
and switches (a full redraw) at each.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

from common import Row, run_isolated

from searchvid.search.events import Event, EventKind

TOPIC = "treepanel"
NODES = 100_000
PER_DECISION = 1_000
EVENTS_PER_DRAW = 20
WIDTH, HEIGHT = 600, 900

_SELECT, _EXPAND, _LEAF, _BACKUP, _MOVE = (
    EventKind.SELECT,
    EventKind.EXPAND,
    EventKind.LEAF,
    EventKind.BACKUP,
    EventKind.MOVE,
)


def mcts_events(nodes: int, seed: int = 0, per_decision: int = 0) -> Iterator[Event]:
    """A synthetic MCTS stream that grows a tree of ``nodes`` tree nodes (same seed, same
    events); with ``per_decision``, in plan mode: a MOVE commits the root's most visited
    child after every ``per_decision`` iterations."""
    rng = random.Random(seed)
    parent: list[int] = [-1]
    kids: list[list[int]] = [[]]
    quality: list[float] = [0.5]
    visits: list[int] = [0]
    root = step = 0
    if per_decision:
        yield Event(_MOVE, None, 0, step, None, 0, None)
        step += 1
    while len(parent) < nodes:
        if per_decision and len(parent) % per_decision == 0 and kids[root]:
            root = max(kids[root], key=visits.__getitem__)
            yield Event(_MOVE, None, 0, step, None, root, parent[root])
            step += 1
        v, depth = root, 0
        while kids[v] and rng.random() > 1.0 / (1 + len(kids[v])):  # widen as it is visited
            options = kids[v]
            v = options[min(len(options) - 1, int(rng.expovariate(0.7)))]
            depth += 1
        up = parent[v] if parent[v] >= 0 else None
        yield Event(_SELECT, None, depth, step, None, v, up)
        child = len(parent)
        parent.append(v)
        kids.append([])
        kids[v].append(child)
        quality.append(min(1.0, max(0.0, quality[v] + rng.gauss(0.0, 0.2))))
        visits.append(0)
        yield Event(_EXPAND, None, depth + 1, step + 1, None, child, v)
        reward = 1.0 if rng.random() < quality[child] else 0.0
        yield Event(_LEAF, None, depth + 8, step + 2, reward, None, child)
        yield Event(_BACKUP, None, depth + 1, step + 3, reward, child, v)
        step += 4
        if per_decision:
            w = child
            while w != root:
                visits[w] += 1
                w = parent[w]


def panel_child(nodes: int, per_decision: int = 0) -> None:
    """Run in a fresh interpreter: lay out, observe and draw; print the figures as JSON."""
    from searchvid.memory import peak_rss_mb
    from searchvid.render.treepanel import TreePanel

    start = time.perf_counter()
    for _ in mcts_events(nodes, per_decision=per_decision):
        pass
    generate = time.perf_counter() - start

    start = time.perf_counter()
    panel = TreePanel(
        WIDTH, HEIGHT, events_for_layout=mcts_events(nodes, per_decision=per_decision)
    )
    layout = time.perf_counter() - start - generate

    draws = events = changed = 0
    start = time.perf_counter()
    panel.draw()
    for event in mcts_events(nodes, per_decision=per_decision):
        panel.observe(event)
        events += 1
        if events % EVENTS_PER_DRAW == 0:
            changed += len(panel.draw())
            draws += 1
    update = time.perf_counter() - start - generate
    figures = {
        "events": events,
        "draws": draws,
        "decisions": panel.decisions,
        "items": max(layout.items for layout in panel.layouts),
        "rects": changed / max(1, draws),
        "layout_s": layout,
        "update_s": update,
        "updates_per_s": draws / update,
        "peak_mb": peak_rss_mb(),
    }
    print(json.dumps(figures))


def benchmarks() -> Iterator[Row]:
    """The panel's figures, measured in fresh interpreters (for a clean peak memory)."""
    here = str(Path(__file__).parent)
    for per_decision, mode in ((0, "search mode"), (PER_DECISION, "plan mode")):
        code = (
            f"import sys; sys.path.insert(0, {here!r}); import bench_treepanel; "
            f"bench_treepanel.panel_child({NODES}, {per_decision})"
        )
        yield from _rows(json.loads(run_isolated(code)), mode)


def _rows(figures: dict[str, float], mode: str) -> Iterator[Row]:
    rate, peak = figures["updates_per_s"], figures["peak_mb"]
    decisions = int(figures["decisions"])
    laid_out = f"{decisions} layouts" if decisions > 1 else "1 layout"
    yield Row(
        TOPIC,
        f"layout (first pass), {NODES:,}-node MCTS stream, {mode}: {laid_out}",
        f"{figures['layout_s']:.2f} s",
    )
    yield Row(
        TOPIC,
        f"panel updates, 1 per {EVENTS_PER_DRAW} events, {NODES:,} nodes, {mode}",
        f"{rate:,.0f} updates/s",
        ">= 50/s",
        rate >= 50,
    )
    yield Row(
        TOPIC,
        f"items drawn ({figures['events']:,} events), rects per update, {mode}",
        f"{figures['items']:,} items, {figures['rects']:.1f} rects",
    )
    yield Row(
        TOPIC,
        f"peak RSS, {NODES:,} nodes {WIDTH}x{HEIGHT} (fresh process), {mode}",
        "n/a" if peak is None else f"{peak:.0f} MB",
        "<= 300 MB",
        None if peak is None else peak <= 300,
    )
