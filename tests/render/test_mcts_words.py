"""MCTS in the strip's words: a random playout's state is not shown as the search's
position, and a two-player win rate names the player it belongs to."""

from __future__ import annotations

from typing import Any

import searchvid
from searchvid.render.fieldwords import named_win_rate
from searchvid.render.hud import HudText
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field


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
    # once a move is played, a board ahead of the game's says what it is
    assert set(others) == {"MCTS searching", "MCTS searched position (not played)"}
    assert others[0] == "MCTS searching"  # the first search is from the game's own start
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


def first_players_rates(s: searchvid.Scene) -> dict[int, str]:
    """By hand from the search's events, for every step: the first player's win rate the
    strip should show there, ``51%`` (``-`` before any playout). It is the mean of player
    0's rewards (each BACKUP's value) over every playout through the decision's position:
    the node of the latest MOVE that a search began from (its first SELECT), the visits kept
    from earlier moves included; a frame's numbers are those before its own event's backup.
    A MOVE's own frame still shows the decision that chose it, and so does a random
    opponent's move, which no search made."""
    parents: dict[int, int | None] = {}
    visits: dict[int, int] = {}
    wins: dict[int, float] = {}
    root: int | None = None
    last_move: int | None = None
    expected: dict[int, str] = {}
    for e in s.events(0):
        if e.id is not None:
            parents.setdefault(e.id, e.parent)
        if e.kind is EventKind.MOVE:
            last_move = e.id
        elif e.kind is EventKind.SELECT and root != last_move:
            root = last_move  # a new decision's first iteration
        n = visits.get(root, 0) if root is not None else 0
        expected[e.step] = f"{100 * wins[root] / n:.0f}%" if root is not None and n else "-"
        if e.kind is EventKind.BACKUP:
            assert e.id is not None
            assert e.value is not None
            node: int | None = e.id
            while node is not None:  # up to the current root: the playout's path
                visits[node] = visits.get(node, 0) + 1
                wins[node] = wins.get(node, 0.0) + e.value
                node = None if node == root else parents[node]
    return expected


def rates_shown(s: searchvid.Scene) -> list[tuple[Event, str, str]]:
    """Each frame's event, its win-rate field's name and the rate it shows."""
    out = []
    for event, text in frames(s):
        rate = [f for f in text.fields if f.name.endswith("win rate")]
        if rate:
            assert len(rate) == 1
            out.append((event, rate[0].name, rate[0].value_text()))
    return out


def test_quarto_win_rates_are_the_first_players_over_the_decision_s_playouts() -> None:
    s = searchvid.load_scene("quarto-mcts")
    expected = first_players_rates(s)
    shown = rates_shown(s)
    moves = [(e, name, rate) for e, name, rate in shown if e.depth > 0]
    assert len(moves) == 15
    assert {name for _, name, _ in moves} == {"first player's win rate"}
    for event, _, rate in moves:
        assert rate == f"{expected[event.step]} (draw = half)"
    percents = [int(rate.split("%")[0]) for _, _, rate in moves]
    # an even game for ten moves, read from a thousand playouts each: no 14% -> 100% -> 9%
    # swings (the most visited of 240 moves, on 7 playouts, was shown before)
    assert max(percents[:10]) - min(percents[:10]) <= 5
    # the first player's win found at move 11: its rate stays high whoever moves next
    assert all(p >= 87 for p in percents[10:])
    assert {e.node.to_move for e, _, _ in moves[10:]} == {0, 1}
    last = frames(s)[-1][1]
    assert last.phase == "first player wins: 4 hollow pieces on the a1-d4 diagonal"
    assert "first player's win rate 100% (draw = half)" in [f.text() for f in last.fields]


def test_quarto_names_its_players_first_and_second_not_0_and_1() -> None:
    s = searchvid.load_scene("quarto-mcts")
    words = [t for _, text in frames(s) for t in (text.phase, *(f.text() for f in text.fields))]
    assert not [t for t in words if "player 0" in t or "player 1" in t]
    twelfth = frames(s)[12][1]
    assert "first player to place" in [f.text() for f in twelfth.fields]


def test_tic_tac_toe_win_rates_are_x_s_over_the_decision_s_playouts() -> None:
    s = searchvid.load_scene("tictactoe-mcts-tree")
    expected = first_players_rates(s)
    shown = rates_shown(s)
    assert len(shown) > 100  # a frame of every event: searching and playing
    assert {name for _, name, _ in shown} == {"X's win rate"}
    for event, _, rate in shown:
        by_hand = expected[event.step]
        assert rate == (f"{by_hand} (draw = half)" if by_hand != "-" else "-")
    # the game is drawn: the last decision's playouts say so, whoever moved
    assert shown[-1][2] == "50% (draw = half)"


def test_tic_tac_toe_names_its_players_x_and_o() -> None:
    s = searchvid.load_scene("tictactoe-mcts-tree")
    rates = {rate.split("'s ")[0] for _, rate in win_rates(s)}
    assert rates == {"X"}  # the first player's rate throughout


def test_a_random_opponent_s_move_keeps_the_last_decision_s_rate_for_the_first_player() -> None:
    # O moves at random: nobody searches there, and the rate on O's frames is still the
    # latest search's (X's decision), as X's, not turned over for the player who moved
    s = searchvid.scene_from_dict(
        {
            "title": "random O",
            "seed": 5,
            "domain": {"name": "tictactoe"},
            "search": {
                "algorithm": "mcts",
                "mode": "plan",
                "iterations": 60,
                "opponent": "random",
            },
            "video": {"fps": 4, "tile_size": 20, "frames": "moves", "opening": 0, "closing": 0},
        },
        name="random-o",
    )
    expected = first_players_rates(s)
    shown = rates_shown(s)
    moves = [(e, rate) for e, _, rate in shown if e.depth > 0]
    assert {e.node.to_move for e, _ in moves} == {0, 1}  # after X's moves and after O's
    assert {name for _, name, _ in shown} == {"X's win rate"}
    for event, rate in moves:
        assert rate == f"{expected[event.step]} (draw = half)"
    after_o = [rate for e, rate in moves if e.node.to_move == 0]  # O just moved at random
    after_x = [rate for e, rate in moves if e.node.to_move == 1]
    assert after_o == after_x[: len(after_o)]  # each O frame repeats X's decision before it


def test_a_win_rate_is_named_for_its_player_and_never_turned_over() -> None:
    words = {1.0: "X wins", 0.5: "draw", 0.0: "O wins"}
    fields = (Field("visits", 7), Field("win rate", 0.25, percent=True))
    named = named_win_rate(fields, words.get)
    assert [f.text() for f in named] == ["visits 7", "X's win rate 25% (draw = half)"]
    # no words for a win (a one-player value, or none): the field stays as the search says
    assert named_win_rate(fields, {1.0: "all 12 exits joined"}.get) == fields
    assert named_win_rate(fields, None) == fields
    unknown = named_win_rate((Field("win rate", None, percent=True),), words.get)
    assert [f.text() for f in unknown] == ["X's win rate -"]
