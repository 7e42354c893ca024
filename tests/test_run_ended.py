"""``ended`` in ``run``'s statistics and in a render's result; every shipped scene ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from searchvid import Scene, load_scene, scene_from_dict
from searchvid.cli import main
from searchvid.scene import scene_names


def tree_table(searches: list[str], **video: Any) -> dict[str, Any]:
    """A tree R(A(A1, A2), B): backtracking makes 9 frames from 10 events, breadth-first
    5 frames from 10 events."""
    return {
        "title": "A small tree",
        "domain": {
            "name": "tree",
            "root": "R",
            "children": {"A": {"A1": {}, "A2": {}}, "B": {}},
        },
        "search": [{"algorithm": name} for name in searches],
        "video": {"tile_size": 20, "hold_last": 0.0, **video},
    }


def tree(*searches: str, **video: Any) -> Scene:
    return scene_from_dict(tree_table(list(searches), **video))


def test_run_says_complete_when_the_search_ends() -> None:
    stats = tree("backtracking").run()
    assert (stats["frames"], stats["ended"], stats["max_events_reached"]) == (9, "complete", False)
    # a video exactly as long as the search: nothing was cut
    stats = tree("backtracking", max_frames=9).run()
    assert (stats["frames"], stats["ended"]) == (9, "complete")


def test_run_says_max_frames_when_the_video_filled_up() -> None:
    stats = tree("backtracking", max_frames=8).run()
    assert (stats["frames"], stats["ended"], stats["max_events_reached"]) == (
        8,
        "max_frames",
        False,
    )


def test_run_says_max_events_when_the_budget_was_spent() -> None:
    stats = tree("backtracking", max_events=3).run()
    assert (stats["events"], stats["ended"], stats["max_events_reached"]) == (
        3,
        "max_events",
        True,
    )


def test_a_race_ends_per_search_and_as_a_whole() -> None:
    stats = tree("backtracking", "breadth-first", max_frames=5).run()
    # backtracking still had steps to show; breadth-first's 5 frames were all it had
    assert [one["ended"] for one in stats["searches"]] == ["max_frames", "complete"]
    assert stats["ended"] == "max_frames"
    stats = tree("backtracking", "breadth-first").run()
    assert [one["ended"] for one in stats["searches"]] == ["complete", "complete"]
    assert stats["ended"] == "complete"
    stats = tree("backtracking", "breadth-first", max_events=3).run()
    assert [one["ended"] for one in stats["searches"]] == ["max_events", "max_events"]
    assert stats["ended"] == "max_events"


def invoke(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def write_scene(tmp_path: Path, searches: list[str], video: str = "") -> Path:
    lines = [
        'title = "A small tree"',
        "[domain]",
        'name = "tree"',
        'root = "R"',
        "children = { A = { A1 = {}, A2 = {} }, B = {} }",
    ]
    for name in searches:
        lines += ["[[search]]", f'algorithm = "{name}"']
    lines += ["[video]", "tile_size = 20", "hold_last = 0", video]
    path = tmp_path / "tree.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_run_json_and_text_say_how_the_run_ended(tmp_path: Path) -> None:
    scene = write_scene(tmp_path, ["backtracking"])
    code, out, _ = invoke("run", scene, "--json", "--frames", "4")
    assert (code, json.loads(out)["ended"]) == (0, "max_frames")
    code, out, _ = invoke("run", scene)
    assert code == 0
    assert out.splitlines()[-1] == "ended     complete (the search ran to its end)"
    code, out, _ = invoke("run", scene, "--frames", "4")
    assert out.splitlines()[-1] == (
        "ended     at max_frames (the video filled up; the search was cut)"
    )


def test_run_text_says_how_each_search_of_a_race_ended(tmp_path: Path) -> None:
    scene = write_scene(tmp_path, ["backtracking", "breadth-first"], "max_frames = 5")
    code, out, _ = invoke("run", scene)
    assert code == 0
    ended = [line.strip() for line in out.splitlines() if line.strip().startswith("ended")]
    assert ended == [
        "ended     at max_frames (the video filled up; the search was cut)",
        "ended     at max_frames (the video filled up; the search was cut)",
        "ended     complete (the search ran to its end)",
    ]


def test_the_render_summary_says_when_the_video_was_cut(tmp_path: Path) -> None:
    scene = write_scene(tmp_path, ["backtracking"])
    out = tmp_path / "v.gif"
    code, text, err = invoke("render", scene, "-o", out, "--frames", "4", "-q")
    assert (code, err) == (0, "")
    assert text.endswith(f"-> {out} (cut at max_frames: the search did not end)\n")
    code, text, err = invoke("render", scene, "-o", out, "-q")
    assert (code, err) == (0, "")
    assert text.endswith(f"-> {out}\n")


def test_a_render_result_says_how_the_video_ended(tmp_path: Path) -> None:
    assert tree("backtracking").render(tmp_path / "a.gif").ended == "complete"
    assert tree("backtracking", max_frames=9).render(tmp_path / "b.gif").ended == "complete"
    cut = tree("backtracking", max_frames=5).render(tmp_path / "c.gif")
    assert (cut.frames, cut.ended) == (5, "max_frames")
    spent = tree("backtracking", max_events=3).render(tmp_path / "d.gif")
    assert spent.ended == "max_events"
    race = tree("backtracking", "breadth-first", max_frames=5).render(tmp_path / "e.gif")
    assert race.ended == "max_frames"
    race = tree("backtracking", "breadth-first").render(tmp_path / "f.gif")
    assert (race.frames, race.ended) == (9, "complete")


# Shipped scenes whose run takes more than about two seconds on the development machine
# (the search, twice where the scene paces itself with duration). Together they take about
# 25 s, the others about 5 s.
SLOW = {
    "railroad-backtracking",
    "railroad-game-expectimax",
    "railroad-game-mcts",
    "railroad-mcts",
    "railroad-mcts-tree",
    "watersort-race",
}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=[pytest.mark.slow] * (name in SLOW)) for name in scene_names()],
)
def test_every_shipped_scene_shows_its_search_to_the_end(name: str) -> None:
    stats = load_scene(name).run()
    assert stats["ended"] == "complete", stats
    for one in stats.get("searches", []):
        assert one["ended"] == "complete", one
