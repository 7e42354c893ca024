"""The fifth fair reader's complaints about the strip's words: a played game's counters
that count every search said so, and one number said once."""

from __future__ import annotations

import copy
import re

import pytest

import searchvid
from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.watersort import WaterSortDomain
from searchvid.render.canvas import PixelFormat
from searchvid.render.cards import card_of
from searchvid.render.fieldwords import ALL_SEARCHES, all_searches
from searchvid.render.hud import Hud, HudText, StripContent
from searchvid.render.narration import Narration
from searchvid.render.pipeline import frame_painter, normalise
from searchvid.render.slotroom import VALUE_ROOM, room_for, sized_rooms
from searchvid.render.stepping import Run
from searchvid.render.voice import SAME_PROBLEM, Voice
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field


def test_the_runs_counters_are_said_together_as_all_searches() -> None:
    fields = (
        Field("nodes searched", 1234),
        Field("before the first move", 40, prefix=True),
        Field("transpositions", 0),
        Field("cut-offs", 32),
        Field("alpha", 1),
    )
    shown = all_searches(fields)
    assert [f.text() for f in shown] == [
        "in all searches: nodes searched 1,234 (40 before the first move), transpositions 0,"
        " cut-offs 32",
        "alpha 1",  # another quantity, not a part of the count before it
    ]
    assert shown[0].name == ALL_SEARCHES


def test_a_part_count_in_words_goes_in_brackets_and_other_fields_keep_their_places() -> None:
    fields = (
        Field("depth", 3),
        Field("nodes searched", 84),
        Field("of them in the top 3 plies:", 20),
        Field("transpositions", 5),
        Field("score", 7),
    )
    assert [f.text() for f in all_searches(fields)] == [
        "depth 3",
        "in all searches: nodes searched 84 (of them in the top 3 plies: 20), transpositions 5",
        "score 7",
    ]


def test_fields_without_the_runs_counters_are_unchanged() -> None:
    fields = (Field("frontier", 12), Field("nodes searched", "many"))
    assert all_searches(fields) is fields


class _TubesAsMoves(WaterSortDomain):
    move_count = "tubes done"  # not a count of the pours: check says so


def test_check_confirms_a_move_count_counts_the_moves() -> None:
    domain = make_domain("watersort", {})
    assert domain.move_count == "pours"
    assert check_domain(domain) == []
    wrong = _TubesAsMoves(domain.options)
    failures = [f for f in check_domain(wrong) if f.check == "labels"]
    assert len(failures) == 1
    assert failures[0].message.startswith("move_count names 'tubes done', but status() of ")
    assert "1 moves from the root, gives 0 (an int); it must count the moves" in (
        failures[0].message
    )


def test_the_depth_is_not_said_beside_the_domains_count_of_the_same_moves() -> None:
    voice = Voice("Water Sort", "breadth-first", narrator=make_domain("watersort", {}))
    narration = Narration(voice)
    root = voice.narrator.root() if voice.narrator is not None else None
    start = Event(EventKind.ENTER, root, 0, 0, id=0)
    narration.observe(start)
    names = [f.name for f in narration.text(start, None, False, (Field("level", 0),)).fields]
    # pours 0 says the depth: one number said once ("level" is the search's own count)
    assert names[:3] == ["step", "level", "pours"]
    assert "depth" not in names
    # a domain without such a field keeps the depth
    plain = Narration(Voice("Tree", "breadth-first", narrator=make_domain("tree", {})))
    tree_root = make_domain("tree", {}).root()
    event = Event(EventKind.ENTER, tree_root, 0, 0, id=0)
    plain.observe(event)
    assert [f.name for f in plain.text(event, None, False).fields][:2] == ["step", "depth"]


def test_a_short_value_leaves_no_four_digit_hole_where_the_strip_expects_a_short_one() -> None:
    texts = [HudText("t", "p", (Field("depth", d), Field("frontier", 7))) for d in (2, 9, 10)]
    # sized as a search's strip is before it runs: "depth 00" (two digits), "frontier 0,000"
    hud = Hud(900, 900, contents=[StripContent("t", ("p", "depth 00", "frontier 0,000"))])
    wide = Hud(900, 900, contents=[StripContent("t", ("p", "depth 0,000", "frontier 0,000"))])
    slots = [hud._slots(t.status_texts()) for t in texts]
    # the depth's slot has room for two digits, not four: no hole after "depth 2"
    assert slots[0][1] == hud._measure("depth 00") < wide._slots(texts[0].status_texts())[1]
    # and keeps one place from 2 to 10: the frontier after it does not move
    assert slots[0] == slots[1] == slots[2]
    # a counter not written in zeros keeps the room of four digits
    assert slots[0][2] == hud._measure("frontier 0,000")
    example = Hud(900, 900, contents=[StripContent("t", ("p", "depth 9"))])
    assert example._slots(texts[0].status_texts())[1] == example._measure("depth 0,000")


def _card_strips(name: str, width: int | None) -> dict[int, list[Hud]]:
    """The strips of the opening (0) and the closing (-1) card of shipped race ``name``,
    drawn frame after frame as a render draws them (``width``: None, its own)."""
    scene = searchvid.load_scene(name)
    if width is not None:
        scene = scene.with_overrides(width=width)
    sources, jobs = normalise(scene.sources(), scene.render_jobs())
    painter = frame_painter(sources, jobs, scene.title)
    run = Run(sources, jobs, painter, None)
    painter.open(PixelFormat.RGB24)
    strips: dict[int, list[Hud]] = {}
    index, last = -1, None
    for index, frame in enumerate(run.frames()):
        if index == 0:
            run.draw(frame, card_of(jobs[0].video, index, frame))
            strips[0] = [copy.deepcopy(h) for h in painter.huds if h is not None]
        last = frame
    assert last is not None
    run.draw(last, card_of(jobs[0].video, index, last))  # the last frame, drawn last
    strips[-1] = [copy.deepcopy(h) for h in painter.huds if h is not None]
    return strips


def _whole(text: str) -> str:
    return re.sub(r" ?\([^()]*\)", "", text)


@pytest.mark.parametrize("width", [None, 720])
@pytest.mark.parametrize("name", ["watersort-race", "tree-bfs-vs-dfs"])
def test_a_races_cards_show_every_text_whole_in_every_column(name: str, width: int | None) -> None:
    for card, huds in _card_strips(name, width).items():
        for column, hud in enumerate(huds):
            drawn = [text for row in hud._rows for text, _, _ in row]
            assert not any(text.endswith("…") for text in drawn), (card, column, drawn)
            said = _whole(" ".join(drawn))
            # every text is drawn, at most without its asides (brackets)
            for text in hud._shown[1]:
                assert _whole(text) in said, (card, column, text, drawn)
            if card == 0:  # the problem is stated once, in the first column
                assert (hud._shown[1][0] == SAME_PROBLEM) == (column > 0)


@pytest.mark.parametrize("name", ["tictactoe-minimax", "watersort-bfs"])
def test_a_scenes_own_width_writes_its_strip_no_smaller_than_a_blogs_720_px(name: str) -> None:
    # the strip's text is a fiftieth of the frame's width: a frame under 720 px wide would
    # write it smaller at its own size than a blog's 720-px column does (9 px capitals)
    scene = searchvid.load_scene(name)
    native = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    blog = scene.with_overrides(width=720)
    at_720 = frame_painter(blog.sources(), blog.render_jobs(), blog.title)
    assert native.width >= 720
    assert native.text_heights["strip"] >= at_720.text_heights["strip"]


def test_a_count_out_of_a_total_keeps_room_for_its_totals_digits_only() -> None:
    assert room_for("3/12") == "00/12"
    assert room_for("100/1,000") == "0,000/1,000"
    assert room_for("2", "00") == "00"
    assert room_for("2", "00,000") == VALUE_ROOM  # a longer room than four digits: four
    assert room_for("draw") == VALUE_ROOM
    assert sized_rooms(["p", "depth 00", "step 9", "frontier 0,000", "depth 0"]) == {
        "depth": "00",
        "frontier": "0,000",
    }
    hud = Hud(900, 900)
    texts = ("p", "round 1/7", "exits joined 3/12")
    assert hud._slots(texts)[1:] == [hud._measure("round 0/7"), hud._measure("exits joined 00/12")]


def test_a_folded_text_keeps_each_number_on_the_line_of_its_name() -> None:
    text = "in all searches: nodes searched 280 (235 before), transpositions 105, cut-offs 88"
    broken = 0
    for width in range(240, 900, 6):
        lines = Hud(width, 720)._wrap_words(text)
        assert " ".join(lines) == text
        assert not any(line[0].isdigit() for line in lines[1:]), lines
        broken += len(lines) > 1
    assert broken > 10  # the widths do break it, at many places
