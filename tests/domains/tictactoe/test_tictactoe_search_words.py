"""What the tic-tac-toe minimax scenes tell a reader who checks their numbers: a node's value
before the search gave it one is said in words, not as a dash, and the opening card says what
makes the search small (alpha-beta, a table of solved boards that also answers for the
board turned or mirrored, the order moves are tried in), in the domain's own words."""

from __future__ import annotations

import pytest

import searchvid
from searchvid.render.cards import opening_texts
from searchvid.render.hud import Hud, StripContent
from searchvid.render.setting_words import describe_order, describe_setting, unset_said
from searchvid.search import EventKind
from tests.render.strips import strips, texts

ALPHA_BETA = "alpha-beta: skips moves that cannot change the result"
SOLVED_TURNED = "remembers positions already solved, also turned or mirrored"
ORDER = "tries winning moves first, then blocks, then cells on the most lines"


def _opening(name: str) -> list[str]:
    event, text = strips(name)[0]
    assert event.depth == 0
    return texts(text)


def test_the_4x4_card_says_what_makes_22592_nodes_enough() -> None:
    # alpha-beta and the table are minimax's defaults, left unset by the scene: said anyway
    assert _opening("tictactoe4-solve") == [
        "search: minimax",
        ALPHA_BETA,
        SOLVED_TURNED,
        "showing the top 3 plies of the search",
        "then plays the best line",
        ORDER,
    ]


def test_the_3x3_card_says_the_table_answers_for_turned_boards_too() -> None:
    assert _opening("tictactoe-minimax") == [
        "search: minimax",
        ALPHA_BETA,
        SOLVED_TURNED,
        "then plays the best line",
        ORDER,
    ]


def test_the_tree_scene_without_a_table_says_so_plainly() -> None:
    assert _opening("tictactoe-minimax-tree") == [
        "search: minimax",
        ALPHA_BETA,
        "solves each position anew, even if seen",
        "then plays the best line",
        ORDER,
    ]


def test_turns_and_mirrors_are_claimed_only_where_the_keys_identify_them() -> None:
    plain = searchvid.scene_from_dict(
        {
            "title": "t",
            "domain": {"name": "tictactoe", "symmetric": False},
            "search": {"algorithm": "minimax"},
        },
        name="plain",
    )
    assert texts(next(iter(plain.strip_texts()))[0][1])[1:3] == [
        ALPHA_BETA,
        "remembers positions already solved",
    ]
    domain = plain.domain
    assert describe_setting("minimax", "transposition", True, {}, domain) == (
        "remembers positions already solved"
    )
    symmetric = searchvid.scene_from_dict(
        {"title": "t", "domain": {"name": "tictactoe"}, "search": {"algorithm": "minimax"}},
        name="symmetric",
    ).domain
    assert describe_setting("minimax", "transposition", True, {}, symmetric) == SOLVED_TURNED
    # the table switched off says nothing of turns
    assert describe_setting("minimax", "transposition", False, {}, symmetric) == (
        "solves each position anew, even if seen"
    )


def test_the_move_order_is_said_only_for_searches_that_try_moves_in_it() -> None:
    domain = searchvid.scene_from_dict(
        {"title": "t", "domain": {"name": "tictactoe"}, "search": {"algorithm": "minimax"}},
        name="order",
    ).domain
    assert describe_order("minimax", domain) == ORDER
    assert describe_order("mcts", domain) is None  # random playouts: no order to speak of
    assert describe_order("minimax", object()) is None  # a domain that says none


def test_defaults_are_said_only_where_the_scene_leaves_them_unset() -> None:
    defaults = {"alpha_beta": True, "transposition": True, "depth": 0}
    assert unset_said("minimax", {}, defaults) == {"alpha_beta": True, "transposition": True}
    assert unset_said("minimax", {"alpha_beta": False}, defaults) == {"transposition": True}
    assert unset_said("mcts", {}, defaults) == {}


@pytest.mark.parametrize(
    ("name", "frames"), [("tictactoe-minimax", 37), ("tictactoe-minimax-tree", 39)]
)
def test_a_node_entered_says_it_has_no_value_yet_in_words(name: str, frames: int) -> None:
    shown = strips(name)
    cards = ("search:",)  # the opening card's frames show the start, with no value field
    entered = [
        text
        for event, text in shown
        if event.kind is EventKind.ENTER and text.fields[0].name not in cards
    ]
    assert entered
    for text in entered:  # minimax enters a node before any of its moves gave it a value
        assert "value: none yet" in texts(text), texts(text)
        assert not any(t.endswith(" -") for t in texts(text))
    event, text = shown[frames]  # a frame the reader named: "value -"
    assert event.kind is EventKind.ENTER
    assert "value: none yet" in texts(text)


def test_the_strip_is_tall_enough_for_the_whole_opening_card() -> None:
    scene = searchvid.load_scene("tictactoe4-solve")
    voice = scene.render_job().voice()
    card = opening_texts(voice)
    assert card[0] == "4x4 tic-tac-toe, 4 in a row wins; X to move"
    assert card[-1] == ORDER
    status = ("minimax searching", "step 000", "depth 0")  # a short running strip
    short = Hud(720, contents=[StripContent("t", status)])
    tall = Hud(720, contents=[StripContent("t", status, card=card)])
    assert short.status_lines == 1
    # each card text is on a line: none cut off the strip (the card takes 5 lines at 720 px)
    assert tall.status_lines == 5
    assert tall._fits(card)
    assert not short._fits(card)
