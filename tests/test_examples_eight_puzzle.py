"""The 8-puzzle example (``examples/eight_puzzle.py``): a domain written outside the package.

Optimal solution lengths and true distances come from a plain breadth-first search over the
whole puzzle written here, independently of the example's move generator.
"""

from __future__ import annotations

import importlib
import itertools
import random
import sys
import tomllib
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from searchvid.conformance import check_domain
from searchvid.errors import OptionError
from searchvid.options import build_options
from searchvid.render.gridview import GridView
from searchvid.render.settings import VideoOptions
from searchvid.search.algorithm import make_algorithm
from searchvid.search.events import Event, EventKind

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
SIDE = 3


@pytest.fixture(scope="module")
def puzzle() -> Iterator[ModuleType]:
    """The example module, imported by path; sys.path and sys.modules restored afterwards."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("eight_puzzle")
    finally:
        sys.path.remove(str(EXAMPLES))
        sys.modules.pop("eight_puzzle", None)


def slides(tiles: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every position one slide away (any order)."""
    blank = tiles.index(0)
    row, col = divmod(blank, SIDE)
    result = []
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < SIDE and 0 <= c < SIDE:
            moved = list(tiles)
            moved[blank], moved[r * SIDE + c] = moved[r * SIDE + c], 0
            result.append(tuple(moved))
    return result


@pytest.fixture(scope="module")
def distance() -> dict[tuple[int, ...], int]:
    """Slides from every solvable position to the goal (slides are reversible)."""
    seen = {GOAL: 0}
    queue = deque([GOAL])
    while queue:
        tiles = queue.popleft()
        for child in slides(tiles):
            if child not in seen:
                seen[child] = seen[tiles] + 1
                queue.append(child)
    return seen


def astar_events(puzzle: ModuleType, start: tuple[int, ...]) -> list[Event]:
    """The events of the example's A* (its defaults: Manhattan distance) from ``start``."""
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions(start=start))
    algorithm = make_algorithm(
        "astar",
        {},
        rng=random.Random(0),
        values=domain.values(),
        heuristics=domain.heuristics(),
        default_value=domain.default_value,
        default_heuristic=domain.default_heuristic,
        goal=domain.is_goal,
    )
    return list(algorithm.traverse(domain.root()))


def astar(puzzle: ModuleType, start: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The boards of the solution A* plays out from ``start`` (its MOVE events)."""
    moves = [e for e in astar_events(puzzle, start) if e.kind is EventKind.MOVE]
    assert [event.depth for event in moves] == list(range(len(moves)))
    return [event.node.tiles for event in moves]


def sample(distance: dict[tuple[int, ...], int], count: int, seed: int) -> list[tuple[int, ...]]:
    return random.Random(seed).sample(sorted(distance), count)


def test_the_whole_puzzle_has_181440_solvable_positions(distance: dict[Any, int]) -> None:
    assert len(distance) == 181_440  # 9! / 2: the other half has the wrong parity
    assert max(distance.values()) == 31


def test_astar_finds_an_optimal_solution_from_the_default_start(
    puzzle: ModuleType, distance: dict[tuple[int, ...], int]
) -> None:
    start = puzzle.EightPuzzleOptions().tiles
    assert distance[start] == 20
    path = astar(puzzle, start)
    assert path[0] == start
    assert path[-1] == GOAL
    assert len(path) - 1 == distance[start]
    for before, after in itertools.pairwise(path):
        assert after in slides(before)


def test_astar_is_optimal_on_a_sample_of_starts(
    puzzle: ModuleType, distance: dict[tuple[int, ...], int]
) -> None:
    for start in sample(distance, 12, seed=3):
        path = astar(puzzle, start)
        assert len(path) - 1 == distance[start], start
        assert path[-1] == GOAL


def test_manhattan_is_admissible_and_consistent(
    puzzle: ModuleType, distance: dict[tuple[int, ...], int]
) -> None:
    manhattan = puzzle.EightPuzzle(puzzle.EightPuzzleOptions()).heuristics()["manhattan"]
    assert manhattan(puzzle.Board(GOAL)) == 0.0
    for tiles in sample(distance, 3000, seed=1):
        board = puzzle.Board(tiles)
        h = manhattan(board)
        assert isinstance(h, float)
        assert 0 <= h <= distance[tiles], tiles
        assert h % 2 == distance[tiles] % 2  # every slide changes it by exactly one
        for child in board.children():
            assert abs(manhattan(child) - h) == 1


def test_children_are_the_slides_in_a_fixed_order(puzzle: ModuleType) -> None:
    board = puzzle.Board((1, 2, 3, 4, 0, 5, 6, 7, 8))
    kids = [child.tiles for child in board.children()]
    assert kids == [  # the blank moves up, down, left, right
        (1, 0, 3, 4, 2, 5, 6, 7, 8),
        (1, 2, 3, 4, 7, 5, 6, 0, 8),
        (1, 2, 3, 0, 4, 5, 6, 7, 8),
        (1, 2, 3, 4, 5, 0, 6, 7, 8),
    ]
    assert [c.tiles for c in board.children()] == kids
    corner = puzzle.Board(GOAL)
    assert sorted(c.tiles for c in corner.children()) == sorted(slides(GOAL))


def test_boards_are_immutable_values(puzzle: ModuleType) -> None:
    a, b = puzzle.Board(GOAL), puzzle.Board(tuple(GOAL))
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.tiles = GOAL
    assert not puzzle.Board.CAPABILITIES  # A* needs only children()


def test_the_domain(puzzle: ModuleType) -> None:
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions())
    root = domain.root()
    assert domain.name == "eight-puzzle"
    assert domain.summary
    assert domain.has_goal
    assert not domain.is_goal(root)
    assert domain.is_goal(puzzle.Board(GOAL))
    assert domain.label(root) == "6 2 8 / 3 _ 1 / 4 5 7"
    assert domain.default_heuristic in domain.heuristics()
    assert domain.default_value in domain.values()
    in_place = domain.values()["in_place"]
    assert in_place(puzzle.Board(GOAL)) == 1.0
    assert in_place(root) == 1 / 8  # only the 5
    assert in_place(puzzle.Board((8, 7, 6, 5, 4, 3, 2, 1, 0))) == 0.0


def test_the_view_draws_the_goal(puzzle: ModuleType) -> None:
    view = puzzle.EightPuzzle(puzzle.EightPuzzleOptions()).view()
    assert isinstance(view, GridView)
    assert view.shape == (3, 3)
    grid = view.grid(puzzle.Board(GOAL))
    assert grid.dtype == np.int16
    assert np.array(view.values)[grid].tolist() == [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    assert len(set(view.tileset.names)) == 9


@pytest.mark.parametrize(
    "start",
    [
        "1 2 3 / 4 5 6 / 7 8 _",
        "1 2 3 4 5 6 7 8 0",
        " 1 2 3/4 5 6/7 8 _ ",
        (1, 2, 3, 4, 5, 6, 7, 8, 0),
    ],
)
def test_start_positions_as_text_or_numbers(puzzle: ModuleType, start: Any) -> None:
    assert puzzle.EightPuzzleOptions(start=start).tiles == GOAL


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ("1 2 3 / 4 5 6 / 7 8", "needs 9 cells .* got 8"),
        ((1, 2, 3, 4, 5, 6, 7, 8, 0, 0), "needs 9 cells .* got 10"),
        ("1 2 3 / 4 5 6 / 7 7 _", "7 appears more than once"),
        ("1 2 3 / 4 5 6 / 7 9 _", "a number is not 0-8"),
        ("1 2 3 / 4 5 6 / 7 x _", "write the rows with the numbers 1-8 and _"),
        ("2 1 3 / 4 5 6 / 7 8 _", "2 1 3 / 4 5 6 / 7 8 _ cannot be solved"),
        ("8 1 2 / _ 4 3 / 7 6 5", "cannot be solved"),
    ],
)
def test_bad_start_positions_are_option_errors(
    puzzle: ModuleType, start: Any, message: str
) -> None:
    with pytest.raises(OptionError, match=message) as error:
        puzzle.EightPuzzleOptions(start=start)
    assert error.value.key == "start"
    # the same through the scene loader's option builder
    with pytest.raises(OptionError, match=message) as built:
        build_options(puzzle.EightPuzzleOptions, {"start": start})
    assert built.value.key == "start"


def test_solvability_agrees_with_the_breadth_first_search(
    puzzle: ModuleType, distance: dict[tuple[int, ...], int]
) -> None:
    rng = random.Random(5)
    for _ in range(200):
        tiles = tuple(rng.sample(range(9), 9))
        try:
            puzzle.EightPuzzleOptions(start=tiles)
        except OptionError:
            assert tiles not in distance
        else:
            assert tiles in distance


def test_the_scene_file_builds_valid_options(puzzle: ModuleType) -> None:
    with (EXAMPLES / "eight-puzzle-astar.toml").open("rb") as file:
        scene = tomllib.load(file)
    assert scene["domain"]["name"] == "eight_puzzle:EightPuzzle"
    options = build_options(puzzle.EightPuzzleOptions, scene["domain"], ignore=("name",))
    assert options == puzzle.EightPuzzleOptions()
    assert scene["search"]["algorithm"] == "astar"
    video = build_options(VideoOptions, scene["video"])
    assert video.frames == "all"
    assert video.hold_moves > 0
    # the whole search and the whole solution fit in the video
    events = astar_events(puzzle, options.tiles)
    frames = sum(1 for event in events if event.kind.shows_state)
    assert 200 <= frames <= video.max_frames
    assert sum(1 for event in events if event.kind is EventKind.MOVE) == 21


# --- the status strip and the captions in the puzzle's words -----------------------------------

DIRECTION = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def test_status_counts_the_tiles_in_place(puzzle: ModuleType) -> None:
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions())
    texts = [field.text() for field in domain.status(domain.root())]
    assert texts == ["tiles in place 1/8"]  # only the 5
    goal = [field.text() for field in domain.status(puzzle.Board(GOAL))]
    assert goal == ["tiles in place 8/8"]


def test_a_move_is_the_tile_that_slides_and_where(puzzle: ModuleType) -> None:
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions())
    centre = puzzle.Board((1, 2, 3, 4, 0, 5, 6, 7, 8))
    words = [domain.describe_move(centre, child) for child in centre.children()]
    # the blank moves up, down, left, right: the tile beside it slides the other way
    assert words == ["slide 2 down", "slide 7 up", "slide 4 right", "slide 5 left"]
    goal = puzzle.Board(GOAL)
    assert sorted(domain.describe_move(goal, child) for child in goal.children()) == [
        "slide 6 down",
        "slide 8 right",
    ]


def test_what_is_not_one_slide_has_no_words(puzzle: ModuleType) -> None:
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions())
    centre = puzzle.Board((1, 2, 3, 4, 0, 5, 6, 7, 8))
    assert domain.describe_move(centre, centre) is None
    assert domain.describe_move(centre, puzzle.Board((0, 2, 3, 4, 1, 5, 6, 7, 8))) is None
    two = puzzle.Board((0, 1, 3, 4, 2, 5, 6, 7, 8))  # 2 down, then 1 right
    assert domain.describe_move(centre, two) is None
    swapped = puzzle.Board((2, 1, 3, 4, 0, 5, 6, 7, 8))  # two tiles swapped, blank still
    assert domain.describe_move(centre, swapped) is None


def test_captions_match_the_picture(
    puzzle: ModuleType, distance: dict[tuple[int, ...], int]
) -> None:
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions())
    view = domain.view()
    shown = np.array(view.values)
    for tiles in sample(distance, 50, seed=7):
        board = puzzle.Board(tiles)
        before = shown[view.grid(board)]
        for child in board.children():
            text = domain.describe_move(board, child)
            assert text is not None
            _, number, way = text.split()
            after = shown[view.grid(child)]
            (row, col), (new_row, new_col) = (
                tuple(int(i) for i in np.argwhere(grid == int(number))[0])
                for grid in (before, after)
            )
            assert (new_row - row, new_col - col) == DIRECTION[way]
            assert after[row, col] == 0  # the blank is where the tile was


def test_in_place_values_in_words(puzzle: ModuleType) -> None:
    domain = puzzle.EightPuzzle(puzzle.EightPuzzleOptions())
    in_place = domain.values()["in_place"]
    assert domain.describe_value(in_place(domain.root())) == "1 of 8 tiles in place"
    assert domain.describe_value(0.75) == "6 of 8 tiles in place"
    assert domain.describe_value(1.0) == "8 of 8 tiles in place"
    for value in (0.3, -0.125, 1.125):
        assert domain.describe_value(value) is None


def test_the_example_passes_the_conformance_checks(puzzle: ModuleType) -> None:
    assert check_domain(puzzle.EightPuzzle(puzzle.EightPuzzleOptions())) == []
