"""MCTS in the strip's words: a random playout's state is not shown as the search's
position, and a two-player win rate names the player it belongs to."""

from __future__ import annotations

from typing import Any

import searchvid
from searchvid.render.hud import HudText
from searchvid.search.events import Event, EventKind


def frames(s: searchvid.Scene, column: int = 0) -> list[tuple[Event, HudText]]:
    out = []
    for shown in s.strip_texts():
        item = shown[column]
        assert item is not None
        out.append(item)
    return out


def test_a_playout_frame_says_it_is_a_playout_not_a_move_played() -> None:
    s = searchvid.scene_from_dict(
        {
            "title": "Water Sort MCTS",
            "seed": 2,
            "domain": {"name": "watersort"},
            "search": {
                "algorithm": "mcts",
                "mode": "plan",
                "iterations": 5,
                "avoid_cycles": True,
                "commit_solution": False,
                "reward": "progress",
                "max_moves": 2,
            },
            "video": {"fps": 4, "tile_size": 20, "frames": "all", "opening": 0, "closing": 0},
        },
        name="playouts",
    )
    shown = frames(s)
    ends = [(e, t) for e, t in shown if e.kind is EventKind.LEAF]
    assert ends  # every iteration ends a playout: there are such frames
    for event, text in ends:
        assert event.id is None  # a state off the tree, where the playout ended
        assert text.phase == "MCTS playout, not played"
    others = [t.phase for e, t in shown if e.kind not in (EventKind.LEAF, EventKind.MOVE)]
    assert others
    assert set(others) == {"MCTS searching"}
    moves = [t.phase for e, t in shown[:-1] if e.kind is EventKind.MOVE]
    assert moves
    assert set(moves) == {"MCTS playing"}
    assert shown[-1][1].phase == "search complete: 11 nodes"  # max_moves ends the plan


def test_the_shipped_race_shows_its_mcts_playout_as_one() -> None:
    shown = frames(searchvid.load_scene("watersort-race").with_overrides(frames=40), column=2)
    event, text = shown[26]  # the reader's frame: a solved board at move 1
    assert event.kind is EventKind.LEAF
    assert event.id is None
    assert text.phase == "MCTS playout, not played"


def win_rates(s: searchvid.Scene) -> list[tuple[Any, str]]:
    """Each frame's node and its win-rate field's text."""
    out = []
    for event, text in frames(s):
        rate = [f.text() for f in text.fields if "win rate" in f.name]
        if rate:
            out.append((event.node, rate[0]))
    return out


def test_quarto_win_rates_are_the_first_players_throughout() -> None:
    s = searchvid.load_scene("quarto-mcts")
    shown = frames(s)
    moves = [(e, t) for e, t in shown if e.kind is EventKind.MOVE and e.depth > 0]
    assert len(moves) == 15
    for _, text in moves:
        rate = [f for f in text.fields if f.name.endswith("win rate")]
        assert len(rate) == 1
        # one player's rate on every frame, not that of whoever chose the move
        assert rate[0].name == "player 0's win rate"
    twelfth = next(t for e, t in moves if e.depth == 12)
    words = [f.text() for f in twelfth.fields]
    # player 1 chose this move, rated 1% for player 1 by the search: 99% for player 0
    assert "player 0's win rate 99% (draw = half)" in words
    assert "player 0 to place" in words


def test_tic_tac_toe_names_its_players_x_and_o() -> None:
    s = searchvid.load_scene("tictactoe-mcts-tree")
    rates = {rate.split("'s ")[0] for _, rate in win_rates(s)}
    assert rates == {"X"}  # the first player's rate throughout
