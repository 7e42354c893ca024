"""Every shipped scene's status strip tells the truth about the frame it is on.

The strips are read without drawing a pixel (:meth:`searchvid.Scene.strip_texts`: the same
events, frame policy and words as a render) and checked against the search itself: the
numbers describe the node on screen, "best" is never worse than a value already shown, an
unfinished game is undecided, each quantity has one name, the algorithm has its own name,
and the last frame says what happened.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import searchvid
from searchvid.domains import make_domain
from searchvid.options import option_docs
from searchvid.render.hud import HudText
from searchvid.render.narration import NONE_YET, SEARCHED_DOING
from searchvid.render.setting_words import (
    FRAMES_KEY,
    GOAL_KEY,
    describe_goal,
    describe_order,
    describe_reach,
    describe_setting,
    unset_said,
)
from searchvid.render.voice import SAME_PROBLEM
from searchvid.resources import builtin_scenes_dir
from searchvid.search import Event, EventKind
from searchvid.search.node import Capability, capabilities_of
from searchvid.search.status import Field

SCENES = sorted(path.stem for path in builtin_scenes_dir().glob("*.toml"))
K = EventKind


@dataclass(frozen=True)
class Column:
    """One search of a scene: its frames after the opening card, each its event and its
    strip, and the opening card's (checked on its own: it shows no step)."""

    scene: searchvid.Scene
    index: int
    frames: list[tuple[Event, HudText]]
    opening: tuple[Event, HudText] | None = None

    @property
    def root(self) -> Any:
        return self.scene.root()

    @property
    def algorithm(self) -> str:
        # as the strip names it: random play (a single random walk) is no search
        return self.scene.render_job(self.index).algorithm


@functools.cache
def columns(name: str) -> list[Column]:
    """Each search's distinct frames (a search that has ended holds its last one)."""
    scene = searchvid.load_scene(name)
    kept: list[list[tuple[Event, HudText]]] = [[] for _ in scene.searches]
    for shown in scene.strip_texts():
        for frames, item in zip(kept, shown, strict=True):
            if item is not None and (not frames or frames[-1][0] is not item[0]):
                frames.append(item)
    opening = scene.video.hud and scene.video.opening > 0
    return [
        Column(scene, i, frames[1:], frames[0])
        if opening and len(frames) > 1
        else Column(scene, i, frames)
        for i, frames in enumerate(kept)
    ]


@pytest.mark.parametrize("name", SCENES)
def test_the_opening_card_states_the_problem_over_the_start(name: str) -> None:
    for column in columns(name):
        assert column.opening is not None  # every shipped scene opens with a card
        event, text = column.opening
        domain = column.scene.domain
        assert event.depth == 0
        assert domain.label(event.node) == domain.label(column.root)
        # a race states its problem once, in its first column
        problem = domain.describe_problem(column.root) if column.index == 0 else SAME_PROBLEM
        assert text.phase == problem
        assert text.fields[0] == Field("search:", column.algorithm)
        table = column.scene.searches[column.index].options
        frames = column.scene.video.frames  # what the card may promise to show
        described = getattr(domain, "describe_value_function", lambda name: None)
        algorithm_type = column.scene.searches[column.index].algorithm_type
        algorithm = algorithm_type.name
        # with no goal, what the search does instead comes first: "visits every node"
        aim = describe_goal(algorithm, {**table, GOAL_KEY: domain.has_goal})
        expected = [aim] if aim is not None else []
        # what decides how much of a game is searched is said even where left at its default
        defaults = {key: default for key, _, default in option_docs(algorithm_type.options_type)}
        caps = capabilities_of(column.root)
        if Capability.CHANCE in caps and Capability.TO_MOVE not in caps:
            defaults.pop("alpha_beta", None)  # cuts nothing as a rule there: not promised
        said = {**unset_said(algorithm, table, defaults), **table}
        for key, value in said.items():  # a switch reads as words: "no commit solution"
            words = key.replace("_", " ")
            known = {**table, FRAMES_KEY: frames}
            phrase = describe_setting(algorithm, key, value, known, domain)
            if phrase is not None:  # a reader's phrase: "remembers positions already solved"
                expected += [phrase] if phrase else []
            elif key != "algorithm":
                if isinstance(value, str) and described(value) is not None:
                    words += ":"  # "reward: share of exits joined", not "reward partial"
                expected.append(
                    words if value is True else f"no {words}" if value is False else words
                )
        order = describe_order(algorithm, domain)  # the order the domain offers moves in
        expected += [order] if order is not None else []
        job = column.scene.render_job(column.index)
        # a goal the domain proves out of the depth limit's reach, and what is kept instead
        bound = column.scene.goal_moves_bound()
        value = job.value_name if job.values else None
        expected += [f.text() for f in describe_reach(algorithm, table, bound, domain, value)]
        for field in domain.status(column.root):  # what a field of the domain counts
            counts = described(field.name)
            if counts is not None and counts[0] == field.name:
                expected.append(f"{field.name}:")
        meaning = described(job.value_name) if job.values and job.value_name else None
        if meaning is not None:  # what the strip's value measures, said once
            expected.append(f"{meaning[0]}:")
        assert [f.text() if not f.name else f.name for f in text.fields[1:]] == expected


def fields(text: HudText) -> dict[str, Field]:
    """The strip's fields by name (a name put into words ends with ":" on screen)."""
    return {field.name.rstrip(":"): field for field in text.fields}


def number(text: HudText, name: str) -> float | None:
    value = fields(text)[name].value
    assert value is None or isinstance(value, int | float), (name, value)
    return value


def doings(column: Column) -> set[str]:
    """What a frame other than the last may say the search is doing."""
    phase = column.scene.searches[column.index].algorithm_type.move_phase
    # a random playout's state is not the search's position, and says so; random play (a
    # single random walk) is "in progress", not searching
    own = column.scene.render_job(column.index).doing
    doing = (own, phase, "rolling the dice", "playout, not played", SEARCHED_DOING)
    return {f"{column.algorithm} {words}" for words in doing}


@pytest.mark.parametrize("name", SCENES)
def test_the_last_frame_says_what_happened_and_no_other_does(name: str) -> None:
    for column in columns(name):
        *before, (event, last) = column.frames
        assert {text.phase for _, text in before} <= doings(column)
        end = column.scene.domain.describe_end(event.node)
        if shows_best(last):  # the closing card over the search's best board
            assert end is None or f": {end}, " in last.phase, last.phase
        elif end is not None:
            assert last.phase == end
        else:
            assert last.phase.startswith(("search complete", "stopped at")), last.phase


def test_the_last_frames_name_the_result() -> None:
    astar = columns("watersort-astar")[0].frames[-1]
    assert astar[1].phase == f"solved in {astar[0].depth} pours"
    assert astar[0].depth == 39  # the optimal solution the title promises
    game = columns("railroad-game-mcts")[0]
    event, text = game.frames[-1]
    assert event.node.is_terminal()
    points = game.scene.domain.report(event.node)["score"]["total"]
    assert text.phase == f"game over: {points} points"
    tree = columns("tree-backtracking")[0]
    ids = {event.id for event, _ in tree.frames}
    assert tree.frames[-1][1].phase == f"search complete: {len(ids)} nodes"
    walk = columns("railroad-random")[0]
    event, text = walk.frames[-1]
    assert len(walk.frames) + 1 < walk.scene.video.max_frames  # all 12 walks: not cut
    # the closing card shows the best walk's board, not where the last walk got stuck
    best = re.fullmatch(r"best of 12 walks: (.+), walk (\d+)", text.phase)
    assert best is not None, text.phase
    assert (
        best[1]
        == walk.scene.domain.describe_end(event.node)
        == (f"all 12 exits joined with {event.depth} tiles")
    )


@pytest.mark.parametrize("name", SCENES)
def test_the_algorithm_is_named_for_what_it_searches(name: str) -> None:
    for column in columns(name):
        chance = Capability.CHANCE in capabilities_of(column.root)
        kind = column.scene.searches[column.index].algorithm_type.name
        if kind == "minimax":
            assert column.algorithm == ("expectimax" if chance else "minimax")
        *before, _ = column.frames  # the last frame says what happened instead
        assert all(text.phase.startswith(column.algorithm) for _, text in before)


@pytest.mark.parametrize("name", SCENES)
def test_the_domains_fields_describe_the_node_on_screen(name: str) -> None:
    for column in columns(name):
        domain = column.scene.domain
        # the latest ENTER on screen: the node a frontier search expands (from the start
        # position the opening card shows)
        entered = column.opening[0] if column.opening is not None else None
        entered = entered if entered is not None and entered.kind is EventKind.ENTER else None
        for event, text in column.frames:
            shown = text.status_texts()
            if event.kind is EventKind.ENTER:
                entered = event
            elif event.kind is EventKind.EXPAND and entered is not None:
                # a child it queues: the strip stays on the node being expanded, and names
                # the child queued
                assert event.parent == entered.id
                assert f"queues {domain.label(event.node)}" in shown
                event = entered
            # the depth is on the strip, once: as a field, or in the phase (``found Minimax
            # at depth 2``), or as the domain's count of the moves (``pours 2``), which
            # then no field repeats
            depth = f"depth {event.depth}"
            stated = re.search(rf"\b{depth}\b", text.phase) is not None
            counted = f"{domain.move_count} {event.depth}" in shown
            assert (depth in shown) is not (stated or counted)
            # a field the strip states in other words is said once: "draw" beside "value:
            # draw", "X wins" under "game over: X wins"
            said = {f.value for f in text.fields if f.name.endswith(":")}
            for f in domain.status(event.node):
                words = f.text()
                assert (
                    words in shown
                    or words in said
                    or text.phase.endswith(f": {words}")
                    or text.phase.startswith(f"{words}: ")  # "game over: 37 points"
                )


def check_heuristic(column: Column) -> None:
    """A* and best-first show the g, h and f of the node on screen, whatever the event."""
    heuristic = column.scene.search(column.index).heuristic
    for event, text in column.frames:
        h = heuristic(event.node)
        assert number(text, "h") == h
        if "g" in fields(text):
            assert number(text, "g") == event.depth
            assert number(text, "f") == event.depth + h


def check_mcts(column: Column) -> None:
    """Live counts: an iteration on screen is counted, a committed move follows its whole
    block, and a roll of the dice shows only the moves played (no decision's numbers)."""
    options = column.scene.search(column.index).options
    total = options.iterations
    moves = 0
    for event, text in column.frames:
        named = fields(text)
        if event.kind is K.ROLL:
            assert [f.name for f in text.fields[:3]] == ["step", "depth", "move"]
            for name in ("iterations", "iteration", "visits", "mean reward", "win rate"):
                assert name not in named
        elif event.kind is K.MOVE and event.depth > 0:
            moves += 1
            assert named["iterations"].value_text() == f"{total:,}/{total:,}"
        elif event.kind is not K.MOVE:
            count = named["iteration"].value
            assert isinstance(count, int)
            assert 1 <= count <= total
        if options.mode == "plan":  # the move played, else the one being searched for
            played = event.kind is K.MOVE or event.kind is K.ROLL
            assert number(text, "move") == (moves if played else moves + 1)


def shows_best(text: HudText) -> bool:
    """Whether a strip is the closing card over the search's best board (shown where the
    search ended elsewhere): that frame's fields, not the last's."""
    return any(words in text.phase for words in ("best of ", "best found: "))


def check_counters(column: Column, names: tuple[str, ...]) -> None:
    """Counters of the whole search never go down from one frame to the next (but on the
    closing card over the best board, which is that earlier frame's)."""
    last = [-math.inf] * len(names)
    for _, text in column.frames:
        if shows_best(text):
            continue
        # a counter that only some runs can move shows from its first count on (no dead
        # "cut-offs 0"): absent, it is 0
        now = [counter(text, name) for name in names]
        assert all(a >= b for a, b in zip(now, last, strict=True)), now
        last = now


def counter(text: HudText, name: str) -> float:
    """The count of counter ``name`` on a strip, a field of its own or one of the run's
    counters said together (``in all searches: nodes searched 91, cut-offs 32``); absent, 0."""
    together = fields(text).get("in all searches")
    if together is not None:
        found = re.search(rf"(?:^|, ){re.escape(name)} ([\d,]+)", str(together.value))
        if found is not None:
            return int(found.group(1).replace(",", ""))
    return number(text, name) or 0 if name in fields(text) else 0


def check_walks(column: Column) -> None:
    """Several walks count them and never go back; a single one (random play) counts no
    walk and keeps no best: a search's words on a random baseline would be false."""
    if column.scene.searches[column.index].options.get("restarts", 1) > 1:
        check_counters(column, ("walk",))
        return
    for _, text in column.frames:
        assert not {"walk", "best"} & set(fields(text)), text


CHECKS: dict[str, Callable[[Column], None]] = {
    "astar": check_heuristic,
    "best-first": check_heuristic,
    "mcts": check_mcts,
    "minimax": lambda c: check_counters(c, ("nodes searched", "transpositions", "cut-offs")),
    "backtracking": lambda c: check_counters(c, ("visited",)),
    "random-walk": check_walks,
}


@pytest.mark.parametrize("name", SCENES)
def test_the_algorithms_fields_describe_the_node_on_screen(name: str) -> None:
    for column in columns(name):
        check = CHECKS.get(column.scene.searches[column.index].algorithm_type.name)
        if check is not None:
            check(column)


def as_number(column: Column, field: Field) -> float | None:
    """A value or best as a number, reading the domain's words back."""
    value = field.value
    if not isinstance(value, str) or value == NONE_YET:  # "best: none yet"
        return None if value == NONE_YET else value
    domain = column.scene.domain
    words = {domain.describe_value(v): v for v in (0.0, 0.5, 1.0)}
    assert value in words, value
    return words[value]


@pytest.mark.parametrize("name", SCENES)
def test_best_is_never_worse_than_a_value_shown(name: str) -> None:
    for column in columns(name):
        score = column.scene.score(column.index)
        if score is None:  # values a search proved (minimax): "best" is the root's best move
            continue
        highest = -math.inf
        for event, text in column.frames:
            *_, _value, best = text.fields
            highest = max(highest, score(event.node))
            if not best.name.startswith("best"):  # a played game's last frame: no best
                continue
            shown = as_number(column, best)
            assert shown is None or shown >= highest - 1e-12, (event.step, shown, highest)


@pytest.mark.parametrize("name", SCENES)
def test_an_unfinished_game_is_undecided(name: str) -> None:
    for column in columns(name):
        if Capability.TO_MOVE not in capabilities_of(column.root):
            continue
        own = column.scene.score(column.index) is not None
        for event, text in column.frames:
            value = text.fields[-2]
            if own and not event.node.is_terminal():
                assert value.value == "undecided", value.text()
            else:
                assert value.value != "undecided"


@pytest.mark.parametrize("name", SCENES)
def test_each_quantity_has_one_name(name: str) -> None:
    for column in columns(name):
        for _, text in column.frames:
            names = [field.name.rstrip(":") for field in text.fields if field.name]
            assert len(names) == len(set(names)), names
            # "exits 24" beside "exits joined 5/12" reads as one quantity twice; a value
            # function named like a domain field is shown as "<name> value" on purpose
            for a, b in itertools.combinations(names, 2):
                if b != f"{a} value" and a != f"{b} value":
                    assert a.split()[0] != b.split()[0], names


@pytest.mark.parametrize("name", SCENES)
def test_players_are_named_only_in_two_player_games(name: str) -> None:
    for column in columns(name):
        if Capability.TO_MOVE in capabilities_of(column.root):
            continue
        for _, text in column.frames:
            words = " ".join((*text.status_texts(), text.caption or ""))
            assert "player" not in words


def last_phase(table: dict[str, Any]) -> str:
    scene = searchvid.scene_from_dict(table, name="cut")
    *_, last = scene.strip_texts()
    item = last[0]
    assert item is not None
    return item[1].phase


@pytest.mark.parametrize(
    ("video", "phase"),
    [
        ({}, "search complete: 8 nodes"),
        ({"max_frames": 4}, "stopped at max_frames"),
        ({"max_events": 6}, "stopped at max_events"),
    ],
)
def test_a_last_frame_that_ends_nothing_says_why_the_video_ends(
    video: dict[str, int], phase: str
) -> None:
    table = {"domain": {"name": "tree"}, "search": {"algorithm": "backtracking"}, "video": video}
    assert last_phase(table) == phase


def test_words_for_ends_and_for_a_positions_own_value() -> None:
    ttt = make_domain("tictactoe", {})
    start = ttt.root()
    assert ttt.describe_end(start) is None
    assert ttt.describe_node_value(start, 0.5) == "undecided"
    assert ttt.describe_value(0.5) == "draw"  # a value a search proved
    won = make_domain("tictactoe", {"position": "XXX/OO./..."}).root()
    assert won.is_terminal()
    assert ttt.describe_end(won) == "game over: X wins"
    assert ttt.describe_node_value(won, 1.0) == "X wins"
    quarto = make_domain("quarto", {})
    assert quarto.describe_node_value(quarto.root(), 0.5) == "undecided"
    assert quarto.describe_end(quarto.root()) is None


def test_mcts_names_its_best_the_best_playout() -> None:
    """MCTS's best is the best end a random playout reached: in a game it is no result of the
    game ("best: X wins" beside "game over: draw" would contradict the picture)."""
    game = columns("tictactoe-mcts-tree")[0]
    _, middle = game.frames[len(game.frames) // 2]
    assert middle.fields[-1].name == "best playout:"
    assert "best" not in fields(middle)
    _, last = game.frames[-1]
    assert last.phase == "game over: draw"
    # the played game's result closes the video: no simulated line beside it
    assert [f.name for f in last.fields if f.name.startswith("best")] == []
    astar = columns("watersort-astar")[0].frames[-1][1]
    # a node A* found, its words already in the phase ("solved in 39 pours"): not repeated
    assert astar.phase.startswith("solved in ")
    assert [f.name for f in astar.fields if f.name.startswith("best")] == []
    middle_astar = columns("watersort-astar")[0].frames[-40][1]
    assert middle_astar.fields[-1].name.startswith("best")  # on the others it is shown
