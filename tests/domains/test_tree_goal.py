"""The tree domain's optional goal: validated against the tree's labels, searches stop
there, the tree view flags it, and a race to it names its winner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import searchvid
from searchvid.cli import main
from searchvid.domains.tree.view import GOAL_KEY
from searchvid.render.cards import card_of
from searchvid.render.stepping import Run, _Strips
from searchvid.search.events import EventKind

TREE = {
    "title": "goal",
    "seed": 0,
    "domain": {
        "name": "tree",
        "goal": "C",
        "children": {"A": {"A1": {}, "A2": {}}, "B": {}, "C": {}},
    },
    "search": {"algorithm": "backtracking"},
}


def _scene(algorithm: str, goal: str | None = "C") -> searchvid.Scene:
    domain = {**TREE["domain"], "goal": goal}  # type: ignore[dict-item]
    if goal is None:
        del domain["goal"]
    return searchvid.scene_from_dict(
        {**TREE, "domain": domain, "search": {"algorithm": algorithm}}, name="goal"
    )


def test_a_goal_that_is_no_label_of_the_tree_is_one_line_naming_the_labels(
    tmp_path: Path,
) -> None:
    scene = tmp_path / "bad.toml"
    scene.write_text(
        '[domain]\nname = "tree"\ngoal = "Z"\n[domain.children]\nA = {}\nB = {}\n'
        '[search]\nalgorithm = "backtracking"\n'
    )
    result = CliRunner().invoke(main, ["run", str(scene)])
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {scene}: domain.goal: must be the label of a node of the tree: 'Root', 'A', 'B'\n"
    )


@pytest.mark.parametrize(
    ("algorithm", "labels"),
    [
        ("backtracking", ["Root", "A", "A1", "A2", "B", "C"]),
        ("breadth-first", ["Root", "A", "B", "C"]),
    ],
)
def test_searches_stop_at_the_goal(algorithm: str, labels: list[str]) -> None:
    scene = _scene(algorithm)
    shown = [e for e in scene.events() if e.kind in (EventKind.ENTER, EventKind.LEAF)]
    assert [e.node.label for e in shown] == labels
    assert scene.run()["solved"] is True


def test_without_a_goal_every_node_is_searched_and_nothing_is_solved() -> None:
    scene = _scene("backtracking", goal=None)
    shown = [e for e in scene.events() if e.kind in (EventKind.ENTER, EventKind.LEAF)]
    assert len(shown) == 6  # Root, A, A1, A2, B, C
    assert scene.run()["solved"] is None
    assert all(mark.tile != GOAL_KEY for mark in scene.view().marks)


def test_the_tree_view_flags_the_goal_and_its_legend_says_so() -> None:
    view = _scene("backtracking").view()
    assert any(mark.tile == GOAL_KEY and "goal" in mark.text for mark in view.marks)


def test_the_race_to_the_goal_names_breadth_first_the_winner() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    last = list(race.strip_texts())[-1]
    texts = [item[1] for item in last if item is not None]
    assert [t.phase for t in texts] == ["found Minimax at depth 2"] * 2
    places = [next(f.value for f in t.fields if f.name == "race:") for t in texts]
    assert places == ["1st of 2 by work", "2nd of 2 by work"]
    work = [next(f.value for f in t.fields if f.name == "work") for t in texts]
    assert work == [6, 11]  # breadth-first reaches the shallow goal with less work
    result = race.run()
    assert result["solved"] is True
    assert [s["best"]["label"] for s in result["searches"]] == ["Minimax"] * 2


def test_the_closing_card_of_the_race_crowns_breadth_first() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    jobs = race.render_jobs()
    strips = _Strips(jobs)
    run = Run(race.sources(), jobs, strips, None)
    for index, shown in enumerate(run.frames()):
        run.draw(shown, card_of(jobs[0].video, index, shown))
    assert strips.winners == ("1 · breadth-first",)
