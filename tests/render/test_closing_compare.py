"""``[compare]``: the closing card states what another search finds from the same start,
with its work, in the domain's words; the key is validated like ``[search]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import searchvid
from searchvid.cli import main
from searchvid.render.hud import HudText
from searchvid.search.events import EventKind
from searchvid.search.status import Field

TREE: dict[str, Any] = {
    "title": "Depth-first to a goal",
    "domain": {
        "name": "tree",
        "root": "Root",
        "goal": "Goal",
        "children": {"A": {"A1": {}, "A2": {}}, "B": {"B1": {}}, "Goal": {}},
    },
    "search": {"algorithm": "backtracking"},
    "compare": {"algorithm": "breadth-first", "expand_events": True},
    "video": {"fps": 4, "tile_size": 40, "captions": True},
}


def scene(**table: Any) -> searchvid.Scene:
    return searchvid.scene_from_dict({**TREE, **table}, name="compare")


def strips(s: searchvid.Scene) -> list[HudText]:
    out = []
    for shown in s.strip_texts():
        item = shown[0]
        assert item is not None
        out.append(item[1])
    return out


def expansions(s: searchvid.Scene) -> int:
    """Nodes the scene's own search expands (ENTER and LEAF), counted from its events."""
    return sum(e.kind in (EventKind.ENTER, EventKind.LEAF) for e in s.events())


def test_the_closing_card_states_what_the_other_search_found_and_its_work() -> None:
    texts = strips(scene())
    # the same search as the comparison, filmed on its own: what the card must say
    alone = scene(search=TREE["compare"], compare={})
    work = expansions(alone)
    assert work == 4  # Root, A, B, Goal: breadth-first stops at the shallow goal
    last = texts[-1]
    assert last.phase == "found Goal at depth 1"  # depth-first's own result, first
    words = f"found Goal at depth 1 after {work} expansions"
    assert last.fields[0] == Field("breadth-first:", words)
    # said once, on the strip's fields: the caption names the search that got this result
    assert last.caption == "backtracking"
    # only the closing card compares
    assert all(not f.name.startswith("breadth-first") for t in texts[:-1] for f in t.fields)


def test_without_compare_the_card_is_unchanged() -> None:
    plain = strips(scene(compare={}))
    texts = strips(scene())
    assert plain[:-1] == texts[:-1]
    assert texts[-1].fields[1:] == plain[-1].fields


def test_a_comparison_cut_by_max_events_says_it_stopped() -> None:
    s = scene(
        search={"algorithm": "breadth-first", "expand_events": True},
        compare={"algorithm": "backtracking"},
        video={**TREE["video"], "max_events": 3},
    )
    last = strips(s)[-1]
    compared = last.fields[0]
    assert compared.name == "backtracking:"
    # cut before its goal: no best so far passed off as its result, only its cost
    assert compared.value == "stopped after 2 expansions"
    assert last.caption == "breadth-first (children shown as they are queued)"


def test_watersort_mcts_closes_on_its_pours_against_a_star() -> None:
    s = searchvid.load_scene("watersort-mcts")
    last = strips(s)[-1]
    # the reference, run as a scene of its own: its solution's length and its work
    astar = searchvid.scene_from_dict(
        {"domain": {"name": "watersort"}, "search": dict(s.compare.options)}, name="astar"
    )
    best = astar.run()["best"]
    assert best is not None
    pours = best["depth"]
    assert pours == 39  # the optimal length DESIGN.md gives for seed 004's puzzle
    # the same run as watersort-race's MCTS column (same seed and settings): same pours
    assert last.phase == "solved in 45 pours"
    assert last.fields[0] == Field(
        "A*:", f"solved in {pours} pours after {expansions(astar):,} expansions"
    )


def test_watersort_mcts_is_the_race_s_mcts_column() -> None:
    # two scenes that state an MCTS pour count for one puzzle must state the same one
    alone, race = searchvid.load_scene("watersort-mcts"), searchvid.load_scene("watersort-race")
    column = [i for i, spec in enumerate(race.searches) if spec.algorithm == "mcts"]
    assert len(column) == 1
    assert (alone.seed, alone.searches[0].options) == (race.seed, race.searches[column[0]].options)
    assert list(alone.events()) == list(race.events(column[0]))


@pytest.mark.parametrize(
    ("compare", "key", "words"),
    [
        ({"algorithm": "nope"}, "compare.algorithm", "unknown"),
        ({"algorithm": "beam", "width": 0}, "compare.width", "must be"),
        ({"algorithm": "backtracking", "colour": 1}, "compare.colour", ""),
    ],
)
def test_a_bad_compare_table_is_refused_by_key(compare: Any, key: str, words: str) -> None:
    with pytest.raises(searchvid.SceneError, match=rf"{key}: .*{words}"):
        scene(compare=compare)


def test_a_race_refuses_compare() -> None:
    race = {"search": [{"algorithm": "backtracking"}, {"algorithm": "breadth-first"}]}
    with pytest.raises(searchvid.SceneError, match=r"compare: only for one search"):
        scene(**race)


def test_the_cli_refuses_a_bad_compare_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        '[domain]\nname = "tree"\n[search]\nalgorithm = "backtracking"\n'
        '[compare]\nalgorithm = "nope"\n'
    )
    out = tmp_path / "out.gif"
    result = CliRunner().invoke(main, ["render", str(path), "-o", str(out)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("Error: ")
    assert "compare.algorithm" in lines[0]
    assert not out.exists()
