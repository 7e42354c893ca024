"""Opening and closing cards: the first frame states the problem and the search, the last
the result and what it cost; both held on screen, both switched off with their keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

import searchvid
from searchvid.render.hud import HudText
from searchvid.search.status import Field
from tests.render.browser_gif import read_gif

TREE = {
    "title": "A small tree",
    "seed": 1,
    "domain": {"name": "tree"},
    "search": {"algorithm": "backtracking"},
    "video": {"fps": 10, "tile_size": 40, "captions": True},
}


def scene(video: dict[str, Any] | None = None, **table: Any) -> searchvid.Scene:
    data = {**TREE, **table}
    data["video"] = {**TREE["video"], **(video or {})}
    return searchvid.scene_from_dict(data, name="cards")


def strips(s: searchvid.Scene) -> list[HudText]:
    out = []
    for shown in s.strip_texts():
        item = shown[0]
        assert item is not None
        out.append(item[1])
    return out


def test_the_opening_card_states_the_problem_and_the_search() -> None:
    texts = strips(scene())
    first = texts[0]
    assert first.title == "A small tree"
    assert first.phase == "a tree of 8 nodes, from Root"  # TreeDomain.describe_problem
    # no goal: the card says what the search is for instead
    assert first.fields == (
        Field("search:", "backtracking"),
        Field("", "no goal: visits every node"),
    )
    assert first.caption == "the root"  # the tree's word for the start position
    assert texts[1].phase == "backtracking searching"  # the frames after it show their steps


def test_the_opening_card_lists_the_settings_the_scene_gives() -> None:
    s = scene(search={"algorithm": "beam", "width": 2, "value": "reward"})
    fields = strips(s)[0].fields
    assert fields[0] == Field("search:", s.render_job().algorithm)
    # beam's width in a reader's phrase; a value function the domain has no words for by
    # its name
    assert fields[1:] == (Field("", "keeps the best 2 of each level"), Field("value", "reward"))


def test_the_closing_card_states_the_result() -> None:
    texts = strips(scene())
    last = texts[-1]
    assert last.phase == "search complete: 8 nodes"
    # the result is said once, on the phase line: the caption names who got it
    assert last.caption == "backtracking (no goal: visits every node)"


def test_cards_switched_off_leave_the_frames_their_own_steps() -> None:
    on, off = strips(scene()), strips(scene({"opening": 0, "closing": 0}))
    assert len(on) == len(off)
    assert off[0].phase == "backtracking searching"
    assert off[0].fields[:2] == (Field("step", 0), Field("depth", 0))
    assert off[-1].caption == "backtrack to depth 0"  # the step's own caption
    assert on[1:-1] == off[1:-1]


def test_a_race_names_its_finishing_order_and_its_winner() -> None:
    data = {**TREE, "title": "Race"}
    del data["search"]
    data["search"] = [
        {"algorithm": "breadth-first", "expand_events": True},
        {"algorithm": "backtracking"},
    ]
    race = searchvid.scene_from_dict(data, name="race")
    last = list(race.strip_texts())[-1]
    places = {}
    for item in last:
        assert item is not None
        race_field = item[1].fields[0]
        assert race_field.name == "race:"
        places[item[1].title] = race_field.value
    # the seed's tree, no goal: both searches expand its 8 nodes (breadth-first ends a few
    # frames earlier, while depth-first backs up to the root, which is no work)
    assert places == {
        "1 · breadth-first": "tied 1st of 2 by work",
        "2 · backtracking": "tied 1st of 2 by work",
    }


def test_cards_are_held_and_every_format_shows_them(tmp_path: Path) -> None:
    s = scene({"hold_last": 1.0})
    gif = tmp_path / "v.gif"
    folder = tmp_path / "frames"
    s.render(gif)
    s.render(folder)
    images = read_gif(gif).images
    assert images[0].delay == 200  # opening = 2 s
    assert images[-1].delay == 10 + 300  # one frame, then max(hold_last, closing) = 3 s
    pngs = sorted(folder.glob("frame_*.png"))
    assert len(pngs) == len(images)
    first = np.asarray(Image.open(pngs[0]).convert("RGB"))
    assert np.array_equal(first, np.asarray(s.preview(0)))
    assert np.array_equal(
        np.asarray(Image.open(pngs[-1]).convert("RGB")), np.asarray(s.preview(-1))
    )
    plain = scene({"hold_last": 1.0, "opening": 0, "closing": 0})
    plain_gif = tmp_path / "plain.gif"
    plain.render(plain_gif)
    held = read_gif(plain_gif).images
    assert held[0].delay == 10
    assert held[-1].delay == 10 + 100


def test_a_race_crowns_its_winner_in_the_title_bar() -> None:
    race = searchvid.load_scene("tree-bfs-vs-dfs")
    before = np.asarray(race.preview(-2))
    last = np.asarray(race.preview(-1))
    rows = np.flatnonzero((before != last).any(axis=(1, 2)))
    assert rows.size
    assert rows[0] < 40


@pytest.mark.parametrize("key", ["opening", "closing"])
def test_a_card_key_out_of_range_is_refused(key: str) -> None:
    with pytest.raises(searchvid.SceneError, match=f"video.{key}"):
        scene({key: -1})


def test_the_search_with_the_least_work_wins_and_the_others_place_after_it() -> None:
    data = {**TREE, "video": {**TREE["video"]}}
    del data["search"]
    data["search"] = [
        {"algorithm": "backtracking"},
        {"algorithm": "beam", "width": 1, "value": "reward"},
    ]
    race = searchvid.scene_from_dict(data, name="race")
    frames = list(race.strip_texts())
    last = frames[-1]
    assert last[0] is not None
    assert last[1] is not None
    assert last[0][1].fields[0] == Field("race:", "2nd of 2 by work")
    assert last[1][1].fields[0] == Field("race:", "1st of 2 by work")
    # each with its cost: backtracking visits the tree's 8 nodes, a beam of 1 only a path
    assert Field("work", 8, unit="expansions") in last[0][1].fields
    assert Field("work", 3, unit="expansions") in last[1][1].fields
    ended = [
        i for i, shown in enumerate(frames) if shown[1] is not None and shown[1][0] is last[1][0]
    ]
    assert ended[0] < len(frames) - 1  # the beam ended first and held its last frame


@pytest.mark.parametrize("name", ["tree-bfs-vs-dfs", "watersort-race"])
def test_a_race_cut_at_max_frames_says_so_on_its_closing_card(name: str) -> None:
    race = searchvid.load_scene(name).with_overrides(frames=3)
    frames = list(race.strip_texts())
    assert len(frames) == 3  # max_frames bounds the video, not each column
    for item in frames[-1]:
        assert item is not None
        assert item[1].phase == "stopped at max_frames"
        assert item[1].fields[0].name == "race:"
