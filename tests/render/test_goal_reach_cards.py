"""The cards of a depth-limited search whose limit no goal lies within (issue 20 item 6, fifth
round, railroad-backtracking): said up front, and at the end, only from the domain's proved
``goal_moves_bound``, never from the search; nothing changes without the hook."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import searchvid
from searchvid.cli import main
from searchvid.conformance import run_check
from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.render.cards import card_lines, opening_texts
from searchvid.render.hud import Hud, StripContent, expected_status
from searchvid.render.narration import Narration
from searchvid.render.setting_words import OutOfReach, describe_reach, out_of_reach
from searchvid.search.status import Field

_RAILROAD = RailroadDomain(RailroadOptions())

_MODULE = '''\
from typing import Any

from searchvid.domains.railroad import RailroadDomain


class Far(RailroadDomain):
    """Railroad Ink without its words for a goal and its moves."""

    terms: dict[str, str] = {}

    def goal_moves_bound(self, node: Any) -> int | None:
        return 5


class Bad(RailroadDomain):
    def goal_moves_bound(self, node: Any) -> Any:
        return 2.5
'''


@pytest.fixture(autouse=True)
def _fresh_module() -> Iterator[None]:
    """Each test imports the domains' module from its own folder."""
    yield
    sys.modules.pop("far_rail_mod", None)


def _texts(fields: tuple[Field, ...]) -> list[str]:
    return [field.text() for field in fields]


def _scene(tmp_path: Path, domain: str, **search: object) -> searchvid.Scene:
    (tmp_path / "far_rail_mod.py").write_text(_MODULE)
    table = {
        "title": "t",
        "domain": {"name": domain},
        "search": {"algorithm": "backtracking", **search},
    }
    return searchvid.scene_from_dict(table, folder=tmp_path)


def test_railroad_says_in_its_words_that_two_tiles_cannot_join_twelve_exits() -> None:
    fields = describe_reach("backtracking", {"max_depth": 2}, 12, _RAILROAD, "network")
    assert _texts(fields) == [
        "joining all 12 exits needs at least 12 tiles: out of reach in 2 moves",
        "the search keeps the best by closeness to goal",
    ]
    assert out_of_reach(fields) == Field(
        "", "joining all 12 exits needs at least 12 tiles: impossible within 2 moves"
    )
    # the strip is sized for a whole line more for each
    assert card_lines(fields) == 2
    hud = Hud(720, contents=[StripContent("t", ("phase",))])
    taller = Hud(720, contents=[StripContent("t", ("phase",), card_lines(fields))])
    assert (hud.status_lines, taller.status_lines) == (1, 3)


def test_without_the_domains_words_a_goal_needs_moves() -> None:
    fields = describe_reach("breadth-first", {"max_depth": 1}, 3, object())
    assert _texts(fields) == ["a goal needs at least 3 moves: out of reach in 1 move"]
    assert out_of_reach(fields) == Field(
        "", "a goal needs at least 3 moves: impossible within 1 move"
    )
    kept = describe_reach("astar", {"max_depth": 2}, 3, object(), "progress")
    assert _texts(kept)[1] == "the search keeps the best by progress"


@pytest.mark.parametrize(
    ("algorithm", "options", "bound"),
    [
        ("backtracking", {"max_depth": 2}, None),  # the domain knows no bound
        ("backtracking", {"max_depth": 2}, 2),  # a goal may lie at the limit
        ("backtracking", {"max_depth": 12}, 3),
        ("backtracking", {}, 12),  # no depth limit: every goal is in reach
        ("backtracking", {"max_depth": 0}, 12),
        ("mcts", {"max_depth": 2}, 12),  # not a depth limit of the shipped kind
        ("minimax", {"depth": 2}, 12),
    ],
)
def test_nothing_is_said_unless_the_bound_exceeds_a_depth_limit(
    algorithm: str, options: dict[str, object], bound: int | None
) -> None:
    assert describe_reach(algorithm, options, bound, _RAILROAD, "network") == ()
    assert out_of_reach(()) is None
    assert card_lines((Field("", "goes at most 2 moves deep"),)) == 0


def test_the_scene_asks_the_domain_for_the_bound_of_the_start(tmp_path: Path) -> None:
    settings = _scene(tmp_path, "far_rail_mod:Far", max_depth=2).render_job().settings
    assert _texts(settings) == [
        "goes at most 2 moves deep",
        "a goal needs at least 5 moves: out of reach in 2 moves",
        "the search keeps the best by closeness to goal",
    ]
    assert isinstance(settings[1], OutOfReach)
    deeper = _scene(tmp_path, "far_rail_mod:Far", max_depth=5).render_job().settings
    assert _texts(deeper) == ["goes at most 5 moves deep"]


def test_a_domain_without_the_hook_keeps_its_cards() -> None:
    table = {
        "title": "t",
        "domain": {"name": "watersort"},
        "search": {"algorithm": "backtracking", "max_depth": 2},
    }
    settings = searchvid.scene_from_dict(table).render_job().settings
    assert _texts(settings) == ["goes at most 2 moves deep"]
    assert card_lines(settings) == 0


def test_the_shipped_railroad_scene_says_it_up_front() -> None:
    settings = searchvid.load_scene("railroad-backtracking").render_job().settings
    assert _texts(settings) == [
        "goes at most 2 moves deep",
        "never revisits a position",
        "joining all 12 exits needs at least 12 tiles: out of reach in 2 moves",
        "the search keeps the best by closeness to goal",
    ]


def test_a_bound_that_is_no_int_is_the_users_one_line_error(tmp_path: Path) -> None:
    scene = tmp_path / "bad.toml"
    scene.write_text(
        textwrap.dedent(
            """\
            title = "bad"
            [domain]
            name = "far_rail_mod:Bad"
            [search]
            algorithm = "backtracking"
            max_depth = 2
            """
        )
    )
    (tmp_path / "far_rail_mod.py").write_text(_MODULE)
    out = tmp_path / "frame.png"
    result = CliRunner().invoke(main, ["preview", str(scene), "-f", "0", "-o", str(out)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("Error: ")
    assert lines[0].endswith(
        "far_rail_mod.py:16 in Bad.goal_moves_bound(): returned 2.5; it must return an int "
        ">= 0 or None"
    )
    assert not out.exists()


def test_check_insists_on_an_int_bound(tmp_path: Path) -> None:
    scene = _scene(tmp_path, "far_rail_mod:Bad", max_depth=2)
    assert [failure.message for failure in run_check(scene.domain, "goal")] == [
        "goal_moves_bound() returned 2.5 for the root; it must be an int >= 0 (a lower bound "
        "on the moves to a goal) or None"
    ]
    assert run_check(_RAILROAD, "goal") == []


@pytest.mark.parametrize("width", [720, 900])
def test_the_railroad_opening_card_fits_its_strip_uncut(width: int) -> None:
    scene = searchvid.load_scene("railroad-backtracking")
    voice = scene.render_job().voice()
    start = next(iter(scene.events()))
    opening = Narration(voice).opening(start).status_texts()
    # the strip sized as a frame sizes it: the usual texts, the card's lines, and the card
    sized = expected_status("backtracking", values=True, narrated=True)
    assert opening_texts(voice) == opening
    content = StripContent(voice.title, sized, card_lines(voice.settings), opening)
    hud = Hud(width, contents=[content])
    laid = hud._fitted(opening)
    assert hud._fits(laid)
    assert all(hud._measure(text) <= hud._usable for text in laid)
    assert " ".join(laid) == " ".join(opening)  # every word kept
    assert "joining all 12 exits needs at least 12 tiles: out of reach in 2 moves" in laid
