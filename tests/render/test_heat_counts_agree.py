"""The strip's MCTS counts agree with the counts a reader adds up (issue 20, item 6):
``iterations 800/800`` and ``(+209 from earlier moves)`` are every visit of the decision's
position (a tree panel's root count), and ``most visited move 610 visits`` is the highest
count of one of its moves."""

from __future__ import annotations

import re

import searchvid
from searchvid.search.events import EventKind


def quarto(iterations: int) -> searchvid.Scene:
    return searchvid.scene_from_dict(
        {
            "title": "Quarto",
            "seed": 4,
            "domain": {"name": "quarto", "win_at_once": True, "safe_handover": True},
            "search": {
                "algorithm": "mcts",
                "mode": "plan",
                "iterations": iterations,
                "filter_moves": True,
                "opponent": "mcts",
            },
            "video": {"frames": "moves", "tile_size": 40},
        }
    )


def test_the_iterations_and_the_kept_visits_add_up_to_the_positions_visits() -> None:
    scene = quarto(60)
    parents: dict[int, int | None] = {}
    visits: dict[int, int] = {}
    at_move: dict[int, tuple[int, int]] = {}  # a MOVE's step: its position's visits, top
    for e in scene.events():
        if e.id is not None:
            parents.setdefault(e.id, e.parent)
        if e.kind is EventKind.BACKUP:
            node = e.id
            while node is not None:
                visits[node] = visits.get(node, 0) + 1
                node = parents.get(node)
        if e.kind is EventKind.MOVE and e.parent is not None:
            kids = [visits.get(k, 0) for k, p in parents.items() if p == e.parent]
            at_move[e.step] = (visits.get(e.parent, 0), max(kids))
    kept_seen = 0
    checked = 0
    for shown in scene.strip_texts():
        item = shown[0]
        if item is None:
            continue
        event, text = item
        if event.kind is not EventKind.MOVE or event.step not in at_move:
            continue
        words = [f.text() for f in text.fields]
        done = next(int(w.split()[1].split("/")[0]) for w in words if w.startswith("iterations "))
        notes = [w for w in words if w.endswith("from earlier moves)")]
        kept = int(re.sub(r"\D", "", notes[0])) if notes else 0
        leader = next(w for w in words if w.startswith("most visited move "))
        total, top = at_move[event.step]
        if done == 0:  # a forced move (one choice, no search): nothing to add up
            continue
        checked += 1
        assert done + kept == total, (event.step, words)
        assert leader == f"most visited move {top:,} visit{'s' if top != 1 else ''}"
        kept_seen += bool(notes)
        assert len(notes) <= 1
    assert checked >= 5
    assert kept_seen >= 3  # the tree is kept from move to move: said where it happened
