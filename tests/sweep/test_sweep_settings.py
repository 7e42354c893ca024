"""``--set KEY=VALUE``: parsing, applying to a scene's table, and ``run --set``."""

from __future__ import annotations

import json

import pytest
from sweep_helpers import invoke

from searchvid.errors import UsageError
from searchvid.experiments.grid import make_grid, parse_seeds, settings_from_mapping
from searchvid.experiments.settings import Setting, apply_settings, parse_setting


def test_values_are_toml_or_bare_words() -> None:
    found = parse_setting('search.x=100, 0.5,true,"a,b",[1, 2],beam')
    assert found == Setting(
        "search.x",
        (100, 0.5, True, "a,b", [1, 2], "beam"),
        ("100", "0.5", "true", '"a,b"', "[1, 2]", "beam"),
    )
    assert parse_setting("domain.tubes=[[1,2],[3]]", several=False).values == ([[1, 2], [3]],)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "search.iterations",
            "--set 'search.iterations': write KEY=VALUE, e.g. search.iterations=400",
        ),
        ("search.iterations=1,,2", "--set search.iterations: a value is empty"),
        ("search.iterations=1,1", "--set search.iterations: a value is repeated"),
        ("search=1", "--set search: name a key inside [search], e.g. search.KEY"),
        ("seed=3", "--set seed: the seed has its own option (--seed, or --seeds in sweep)"),
        (
            "search.it er=3",
            "--set search.it er: not a scene key; allowed: title, domain.KEY, "
            "search.KEY, video.KEY, search[i].KEY",
        ),
    ],
)
def test_bad_settings_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_setting(text)
    assert str(caught.value) == message


def test_apply_settings_copies_and_reaches_into_races() -> None:
    table = {"domain": {"name": "tree"}, "search": [{"algorithm": "a"}, {"algorithm": "b"}]}
    changed = apply_settings(table, {"search[1].width": 3, "video.fps": 4, "domain.size": 5})
    assert changed == {
        "domain": {"name": "tree", "size": 5},
        "search": [{"algorithm": "a"}, {"algorithm": "b", "width": 3}],
        "video": {"fps": 4},
    }
    assert table == {"domain": {"name": "tree"}, "search": [{"algorithm": "a"}, {"algorithm": "b"}]}
    with pytest.raises(UsageError, match=r"the scene has 2 \[\[search\]\] tables; name one: "):
        apply_settings(table, {"search.width": 3})
    with pytest.raises(UsageError, match=r"--set search\[2\].width: the scene has 2 search"):
        apply_settings(table, {"search[2].width": 3})


def test_the_grid_varies_the_first_setting_slowest() -> None:
    settings = [parse_setting("search.a=1,2"), parse_setting("video.fps=3,4")]
    assert [task.run for task in make_grid(settings, [0, 7])] == [
        "search.a=1 video.fps=3 seed=0",
        "search.a=1 video.fps=3 seed=7",
        "search.a=1 video.fps=4 seed=0",
        "search.a=1 video.fps=4 seed=7",
        "search.a=2 video.fps=3 seed=0",
        "search.a=2 video.fps=3 seed=7",
        "search.a=2 video.fps=4 seed=0",
        "search.a=2 video.fps=4 seed=7",
    ]
    with pytest.raises(UsageError, match=r"--set search\.a: the key is given twice"):
        make_grid([settings[0], settings[0]], [0])


def test_seeds_ranges_and_lists() -> None:
    assert parse_seeds("0..3") == [0, 1, 2, 3]
    assert parse_seeds("7") == [7]
    assert parse_seeds("1, 5..6,9") == [1, 5, 6, 9]
    with pytest.raises(UsageError, match="a seed is repeated"):
        parse_seeds("0..3,2")


def test_api_settings_are_written_as_toml_writes_them() -> None:
    (found,) = settings_from_mapping({"search.x": [1, 0.25, True, "greedy"]})
    assert found.texts == ("1", "0.25", "true", "greedy")


def test_run_set_changes_the_scene() -> None:
    plain = json.loads(invoke("run", "tree-backtracking", "--json").stdout)
    cut = invoke("run", "tree-backtracking", "--json", "--set", "video.max_frames=3")
    assert cut.exit_code == 0, cut.output
    assert (plain["frames"], json.loads(cut.stdout)["frames"]) == (21, 3)
    bad = invoke("run", "tree-backtracking", "--set", "video.max_frames=0")
    assert bad.exit_code == 2
    assert bad.stderr.endswith("tree-backtracking.toml: video.max_frames: must be >= 1, got 0\n")
