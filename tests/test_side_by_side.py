"""Several searches on one domain, side by side: `[[search]]` scenes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

import searchvid
from searchvid.cli import main
from searchvid.render.framelayout import FrameLayout

RACE: dict[str, Any] = {
    "title": "two searches",
    "domain": {"name": "tree", "root": "R", "children": {"A": {"A1": {}, "A2": {}}, "B": {}}},
    "search": [{"algorithm": "backtracking"}, {"algorithm": "breadth-first"}],
    "video": {"tile_size": 20, "hold_last": 0},
}


def frames_of(folder: Path) -> list[np.ndarray]:
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(folder.glob("frame_*.png"))]


def single(index: int) -> searchvid.Scene:
    table = {**RACE, "search": RACE["search"][index]}
    return searchvid.scene_from_dict(table, name="one")


def test_each_search_gets_a_column_and_they_advance_by_work(tmp_path: Path) -> None:
    race = searchvid.scene_from_dict(RACE, name="race")
    assert [s.algorithm for s in race.searches] == ["backtracking", "breadth-first"]
    assert [single(i).run()["frames"] for i in range(2)] == [9, 5]
    frames = frames_of(race.render(tmp_path / "race").path)
    # depth-first: R A A1 <A A2 <A <R B <R; breadth-first: R A B A1 A2. Each expands the
    # 5 nodes; aligned on nodes expanded, breadth-first waits while depth-first backtracks
    # (which expands nothing), and its last frame waits for the work of its whole stream
    mine = [0, 1, 2, 2, 3, 3, 3, 4, 4]  # breadth-first's own frame on each video frame
    assert len(frames) == 9
    dfs = frames_of(single(0).render(tmp_path / "dfs").path)
    bfs = frames_of(single(1).render(tmp_path / "bfs").path)
    width = dfs[0].shape[1]
    gap = frames[0].shape[1] - 2 * width
    assert gap > 0
    rows = race.view().shape[0] * race.video.tile_size
    head = FrameLayout([race.view().shape] * 2, race.video, [False, False]).title_height
    assert head > 0  # one title bar over both searches
    board = slice(head, head + rows)
    for k, frame in enumerate(frames):  # the boards are each search's own, aligned
        assert np.array_equal(frame[board, :width], dfs[k][:rows])
        assert np.array_equal(frame[board, width + gap :], bfs[mine[k]][:rows])
    right = [f[:, width + gap :] for f in frames]
    assert np.array_equal(right[3], right[2])  # waiting: nothing on it changes
    assert np.array_equal(right[6], right[5])
    # the closing card: the board stays, the strip states its place, the title the winner
    assert not np.array_equal(right[-1][head + rows :], right[-2][head + rows :])


def test_preview_equals_the_rendered_frames_and_renders_repeat(tmp_path: Path) -> None:
    race = searchvid.scene_from_dict(RACE, name="race")
    frames = frames_of(race.render(tmp_path / "a").path)
    again = frames_of(race.render(tmp_path / "b").path)
    assert all(np.array_equal(x, y) for x, y in zip(frames, again, strict=True))
    for index in (0, 4, -1, -3):
        assert np.array_equal(np.asarray(race.preview(index)), frames[index])


def test_trace_and_run_name_the_search(tmp_path: Path) -> None:
    race = searchvid.scene_from_dict(RACE, name="race")
    records = list(race.trace())
    assert {r["search"] for r in records} == {0, 1}
    first = [r for r in records if r["search"] == 0]
    assert [{k: v for k, v in r.items() if k != "search"} for r in first] == list(single(0).trace())
    stats = race.run()
    assert [s["algorithm"] for s in stats["searches"]] == ["backtracking", "breadth-first"]
    assert stats["frames"] == 9
    assert stats["events"] == sum(s["events"] for s in stats["searches"])
    path = tmp_path / "race.toml"
    path.write_text(
        '[domain]\nname = "tree"\n[[search]]\nalgorithm = "backtracking"\n'
        '[[search]]\nalgorithm = "breadth-first"\n'
    )
    printed = json.loads(CliRunner().invoke(main, ["run", str(path), "--json"]).output)
    assert len(printed["searches"]) == 2


def test_a_bad_search_among_several_names_its_index() -> None:
    table = {**RACE, "search": [{"algorithm": "backtracking"}, {"algorithm": "nope"}]}
    with pytest.raises(searchvid.SceneError, match=r"^race: search\[1\]\.algorithm: unknown"):
        searchvid.scene_from_dict(table, name="race")
    table = {**RACE, "search": [{"algorithm": "beam", "width": 0}, {"algorithm": "beam"}]}
    with pytest.raises(searchvid.SceneError, match=r"^race: search\[0\]\.width: must be"):
        searchvid.scene_from_dict(table, name="race")
    with pytest.raises(searchvid.SceneError, match="at least one search"):
        searchvid.scene_from_dict({**RACE, "search": []}, name="race")
