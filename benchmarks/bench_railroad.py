"""Railroad Ink (issue 3): children per second, MCTS memory, and joining all twelve exits;
the dice game (issue 14): final scores of random play, MCTS and expectimax.

Targets (DESIGN.md): MCTS with 10,000 iterations on the empty board (seed 001's partial
reward) stays <= 250 MB peak RSS, measured in a fresh interpreter (the seed ran out of 4 GB
after about 500 steps); a search finds a network joining all twelve exits (the seed's best
joined 10) and the row prints how long it took. Children per second, playouts per second and
value evaluations per second are informational.

The dice game (``rules = "game"``): each shipped ``railroad-game-*`` scene is played to the
end with seeds 0 to 49 (``Scene.run``: the scene's own search, no drawing), and the final
scores' mean and standard deviation are printed with the seconds per game. Target (issue
22): MCTS reaches a mean of at least 45 points at no more than 1 s of search per round,
judged by CPU time (the machine is shared; the wall time is printed beside it). These rows
take about 20 minutes, MCTS most of it: run them alone with
``python benchmarks/run.py railroad``.

Issue 22 (Railroad Ink rollouts): MCTS iterations per second with the railroad-mcts scene's
search, against the same search as it was before the issue: over :class:`RescanBoard`
(every open position found by a rescan of all 49 cells at each move, a node opened by
listing its children, a playout made move by move) scored by :func:`old_partial` (the
network scoring of that time). Both searches commit the same boards (checked). The two run
interleaved, three times each, timed by CPU time (others share the machine), and the row
prints the ratio of the medians. Target: >= 4x.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from common import Row, run_isolated, timed

from searchvid import load_scene
from searchvid.domains import make_domain
from searchvid.domains.railroad import RailroadDomain
from searchvid.domains.railroad.game import ROUNDS
from searchvid.domains.railroad.grid import EXIT_CELLS, FACING, NEIGHBOURS, SIZE
from searchvid.domains.railroad.network import GROUP, SIDES
from searchvid.domains.railroad.rules import Board, TileSetName
from searchvid.domains.railroad.tiles import CODE_COUNT
from searchvid.domains.railroad.values import _largest_network
from searchvid.search.algorithm import make_algorithm
from searchvid.search.events import EventKind
from searchvid.search.values import ValueFunction

TOPIC = "railroad"
MID_GAME = 20  # tiles placed in a "mid-game" state
STATES = 200
MCTS_ITERATIONS = 10_000
MCTS_LIMIT_MB = 250.0
BEAM = {"width": 6, "value": "network"}  # the railroad-beam scene's search
BEAM_SEED = 1
GAMES = 50  # seeds 0 .. 49 of each dice-game scene
GAME_SCENES = ("railroad-game-random", "railroad-game-mcts", "railroad-game-expectimax")
GAME_TARGET = 45.0  # MCTS's mean final score, points ...
ROUND_SECONDS = 1.0  # ... at no more than this much search per round
PLAN = {"mode": "plan", "reward": "partial", "iterations": 300, "commit_solution": False}
"""The railroad-mcts scene's search (seed 1)."""
SPEED_TARGET = 4.0
MOVES = 10_000  # more moves than any playout makes (at most one a cell)
SCENES = Path(__file__).resolve().parent.parent / "scenes"

_MCTS_CODE = """
import json, random, time
from searchvid import load_scene
from searchvid.domains import make_domain
from searchvid.domains.railroad.game import ROUNDS
from searchvid.memory import peak_rss_mb
from searchvid.search.algorithm import make_algorithm
from searchvid.search.values import ValueFunction
domain = make_domain("railroad", {{"tiles": "{tiles}"}})
algo = make_algorithm(
    "mcts", {{"iterations": {iterations}, "reward": "partial"}}, rng=random.Random(1),
    values=domain.values(), default_value=domain.default_value, goal=domain.is_goal,
)
start = time.perf_counter()
best = 0.0
for event in algo.traverse(domain.root()):
    if event.kind.value == "improve" and event.value is not None:
        best = max(best, event.value)
seconds = time.perf_counter() - start
peak = peak_rss_mb()
print(json.dumps({{"seconds": seconds, "peak_mb": peak, "best": best}}))
"""


def mid_game_states(tiles: TileSetName, count: int = STATES, seed: int = 0) -> list[Board]:
    """Boards after ``MID_GAME`` random placements (or fewer when a walk ends sooner)."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        board = Board.start(tiles)
        for _ in range(MID_GAME):
            child = board.random_child(rng)
            if child is None:
                break
            board = child
        states.append(board)
    return states


_F0, _F1, _F2, _F3 = FACING


class RescanBoard(Board):
    """The board before issue 22, for the speed comparison only: every open position is
    found by a rescan of the 49 cells, at every move (the definitions of that time). MCTS
    scores its playouts with :func:`old_partial`, the network scoring of that time."""

    __slots__ = ()

    # that board had neither of MCTS's shortcuts: a node was opened by listing its children,
    # and a rollout called random_child at each move
    SEARCHVID_FAST_ROLLOUTS = False

    def _rescan(self) -> list[tuple[int, tuple[int, ...]]]:
        cells = self.cells
        choices = self.rules.choices
        result = []
        for c, n, e, s, w in NEIGHBOURS:
            if cells[c]:
                continue
            fitting = choices[_F0[cells[n]] | _F1[cells[e]] | _F2[cells[s]] | _F3[cells[w]]]
            if fitting:
                result.append((c, fitting))
        return result

    def _made(self, cells: bytes) -> RescanBoard:
        # without the length check of __init__, as the boards of that time were made
        board: RescanBoard = object.__new__(RescanBoard)
        object.__setattr__(board, "_cells", cells)
        object.__setattr__(board, "_rules", self.rules)
        return board

    def place(self, cell: int, code: int) -> RescanBoard:
        cells = self.cells
        return self._made(cells[:cell] + bytes((code,)) + cells[cell + 1 :])

    def children(self) -> Iterator[RescanBoard]:
        cells = self.cells
        for c, fitting in self._rescan():
            head, tail = cells[:c], cells[c + 1 :]
            for code in fitting:
                yield self._made(head + bytes((code,)) + tail)

    def random_child(self, rng: random.Random) -> RescanBoard | None:
        options = self._rescan()
        total = sum(len(fitting) for _, fitting in options)
        if total == 0:
            return None
        index = rng.randrange(total)
        for c, fitting in options:
            if index < len(fitting):
                return self.place(c, fitting[index])
            index -= len(fitting)
        raise AssertionError("unreachable: index within total")

    def is_terminal(self) -> bool:
        cells = self.cells
        choices = self.rules.choices
        for c, n, e, s, w in NEIGHBOURS:
            if (
                not cells[c]
                and choices[_F0[cells[n]] | _F1[cells[e]] | _F2[cells[s]] | _F3[cells[w]]]
            ):
                return False
        return True


def _old_links(side: int) -> tuple[tuple[int, int] | None, ...]:
    """The link table of that time: joined groups when ``b`` lies across ``side`` of ``a``."""
    opposite = (side + 2) % 4
    table: list[tuple[int, int] | None] = []
    for a in range(CODE_COUNT):
        for b in range(CODE_COUNT):
            ta, tb = SIDES[a][side], SIDES[b][opposite]
            joined = ta != 0 and ta == tb
            table.append((GROUP[a][side], GROUP[b][opposite]) if joined else None)
    return tuple(table)


def _old_edges() -> list[tuple[int, list[tuple[int, tuple[tuple[int, int] | None, ...]]]]]:
    east, south = _old_links(1), _old_links(2)
    result = []
    for r in range(SIZE):
        for c in range(SIZE):
            edges = []
            if 1 <= r <= SIZE - 2 and c <= SIZE - 2:
                edges.append((r * SIZE + c + 1, east))
            if 1 <= c <= SIZE - 2 and r <= SIZE - 2:
                edges.append(((r + 1) * SIZE + c, south))
            if edges:
                result.append((r * SIZE + c, edges))
    return result


_OLD_EDGES = _old_edges()
_OLD_EXIT_NODES = tuple(cell * 2 for cell in EXIT_CELLS)


def old_partial(node: Any) -> float:
    """The ``partial`` value of that time: a union-find over the board, then the exits per
    network sorted by size, as ``largest_network`` found them before issue 22."""
    cells = node.cells
    parent = list(range(SIZE * SIZE * 2))
    k = CODE_COUNT
    for a, edges in _OLD_EDGES:
        code = cells[a]
        if not code:
            continue
        row = code * k
        for b, table in edges:
            link = table[row + cells[b]]
            if link is None:
                continue
            x, y = a * 2 + link[0], b * 2 + link[1]
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            while parent[y] != y:
                parent[y] = parent[parent[y]]
                y = parent[y]
            if x < y:
                parent[y] = x
            elif y < x:
                parent[x] = y
    roots = []
    for x in _OLD_EXIT_NODES:
        while parent[x] != x:
            x = parent[x]
        roots.append(x)
    counts: dict[int, int] = {}
    for root in roots:
        counts[root] = counts.get(root, 0) + 1
    sizes = sorted((n for n in counts.values() if n >= 2), reverse=True)
    return (sizes[0] if sizes else 0) / len(EXIT_CELLS)


def mcts_rate(root: Board) -> tuple[float, int, bytes]:
    """The railroad-mcts scene's search from ``root``: CPU seconds, iterations, and the key
    of its last committed board (equal for both boards: the same search). A
    :class:`RescanBoard` is scored by :func:`old_partial`, as it was."""
    domain = make_domain("railroad", {})
    values = dict(domain.values())
    if isinstance(root, RescanBoard):
        values["partial"] = old_partial
    algo = make_algorithm(
        "mcts",
        PLAN,
        rng=random.Random(1),
        values=values,
        default_value=domain.default_value,
        goal=domain.is_goal,
    )
    iterations = 0
    last = root
    _largest_network.cache_clear()  # each run starts cold, as the first one does
    start = time.process_time()
    for event in algo.traverse(root):
        kind = event.kind
        if kind is EventKind.SELECT:
            iterations += 1
        elif kind is EventKind.MOVE:
            last = event.node
    return time.process_time() - start, iterations, last.key()


def _mcts_speed() -> Iterator[Row]:
    new_root = Board.start("basic")
    old_root = RescanBoard(new_root.cells, new_root.rules)
    old, new = [], []
    for _ in range(3):
        seconds, count, old_end = mcts_rate(old_root)
        old.append(count / seconds)
        seconds, count, new_end = mcts_rate(new_root)
        new.append(count / seconds)
        if old_end != new_end:
            raise RuntimeError("the two boards led MCTS to different boards")
    before, after = statistics.median(old), statistics.median(new)
    ratio = after / before
    yield Row(
        TOPIC,
        "MCTS iterations/s (railroad-mcts search), CPU time",
        f"{after:,.0f} vs {before:,.0f} before = {ratio:.2f}x",
        f">= {SPEED_TARGET:.0f}x",
        ratio >= SPEED_TARGET,
    )


def _children_rate(tiles: TileSetName) -> Iterator[Row]:
    states = mid_game_states(tiles)

    def run() -> int:
        return sum(sum(1 for _ in s.children()) for s in states)

    seconds, count = timed(run, repeat=3)
    yield Row(
        TOPIC,
        f"children/s from mid-game states ({tiles} tiles)",
        f"{count / seconds / 1000:.0f} k/s ({count // len(states)}/state)",
    )


def _playouts() -> Iterator[Row]:
    rng = random.Random(2)
    root = Board.start("basic")

    def run() -> int:
        moves = 0
        for _ in range(200):
            board: Board | None = root
            while board is not None:
                board = board.random_child(rng)
                moves += 1
        return moves

    seconds, moves = timed(run)
    yield Row(
        TOPIC,
        "random playouts from the empty board (basic)",
        f"{200 / seconds:.0f}/s ({moves / seconds / 1000:.0f} k moves/s)",
    )

    def whole() -> int:
        return sum(root.random_playout(rng, MOVES)[1] for _ in range(200))

    seconds, moves = timed(whole)
    yield Row(
        TOPIC,
        "  the same, each in one random_playout call (MCTS's rollouts)",
        f"{200 / seconds:.0f}/s ({moves / seconds / 1000:.0f} k moves/s)",
    )
    domain = make_domain("railroad", {})
    states = mid_game_states("basic")
    for name, value in domain.values().items():
        seconds = _per_state(value, states)
        yield Row(
            TOPIC,
            f"value '{name}' on mid-game states",
            f"{seconds * 1e6:.0f} us each",
        )


def _per_state(value: ValueFunction, states: list[Board]) -> float:
    """Best mean seconds per call of ``value`` over ``states``, each run without the boards
    ``partial`` remembered from the run before."""

    def run() -> None:
        _largest_network.cache_clear()
        for state in states:
            value(state)

    seconds, _ = timed(run, repeat=3)
    return seconds / len(states)


def _mcts_memory(tiles: TileSetName) -> Iterator[Row]:
    out = run_isolated(_MCTS_CODE.format(tiles=tiles, iterations=MCTS_ITERATIONS))
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    peak = float(result["peak_mb"])
    yield Row(
        TOPIC,
        f"MCTS {MCTS_ITERATIONS:,} iterations ({tiles}, partial): peak RSS",
        f"{peak:.0f} MB ({result['seconds']:.0f} s, best {result['best'] * 12:.0f}/12)",
        f"<= {MCTS_LIMIT_MB:.0f} MB",
        peak <= MCTS_LIMIT_MB,
    )


def beam_search(tiles: TileSetName) -> tuple[bool, float, int, str]:
    """Run the railroad-beam search; returns (goal found, seconds, events, final label)."""
    domain = make_domain("railroad", {"tiles": tiles})
    assert isinstance(domain, RailroadDomain)
    algo = make_algorithm(
        "beam",
        BEAM,
        rng=random.Random(BEAM_SEED),
        values=domain.values(),
        default_value=domain.default_value,
        goal=domain.is_goal,
    )
    start = time.perf_counter()
    events = 0
    found = None
    for event in algo.traverse(domain.root()):
        events += 1
        if domain.is_goal(event.node):
            found = event.node
    seconds = time.perf_counter() - start
    label = domain.label(found) if found is not None else "-"
    return found is not None, seconds, events, label


def _beam(tiles: TileSetName) -> Iterator[Row]:
    found, seconds, _, label = beam_search(tiles)
    yield Row(
        TOPIC,
        f"beam width {BEAM['width']} ({tiles}, {BEAM['value']}) joins 12 exits",
        f"{'found' if found else 'NOT found'} in {seconds:.1f} s, {label.split(',')[0]}",
        "found",
        found,
    )


def play_games(
    scene_name: str, games: int = GAMES, cpu: list[float] | None = None
) -> tuple[list[int], list[float]]:
    """The final score and search seconds of the scene's game for seeds 0 .. games - 1;
    each game's CPU seconds are appended to ``cpu`` when given."""
    scene = load_scene(SCENES / f"{scene_name}.toml")
    scores: list[int] = []
    seconds: list[float] = []
    for seed in range(games):
        start = time.process_time()
        result = scene.with_overrides(seed=seed).run()
        if cpu is not None:
            cpu.append(time.process_time() - start)
        if result["rounds"] != ROUNDS:
            raise RuntimeError(f"{scene_name} seed {seed}: the game stopped early")
        scores.append(int(result["score"]["total"]))
        seconds.append(float(result["seconds"]))
    return scores, seconds


def _game(scene_name: str) -> Iterator[Row]:
    cpu: list[float] = []
    scores, seconds = play_games(scene_name, cpu=cpu)
    mean, spread = statistics.mean(scores), statistics.pstdev(scores)
    per_game = statistics.mean(seconds)
    figure = f"{mean:.1f} +- {spread:.1f} pts, {per_game:.1f} s/game"
    name = f"{scene_name}: final score, {GAMES} seeds"
    if scene_name != "railroad-game-mcts":
        yield Row(TOPIC, name, figure)
        return
    per_round = per_game / ROUNDS
    cpu_round = statistics.mean(cpu) / ROUNDS  # what the search alone costs on a busy machine
    yield Row(
        TOPIC,
        name,
        f"{figure} (CPU {cpu_round:.2f} s/round, wall {per_round:.2f} s/round)",
        f">= {GAME_TARGET:.0f} pts, <= {ROUND_SECONDS:.0f} s/round CPU",
        mean >= GAME_TARGET and cpu_round <= ROUND_SECONDS,
    )


def benchmarks() -> Iterator[Row]:
    """All Railroad Ink rows."""
    yield from _children_rate("basic")
    yield from _children_rate("all")
    yield from _playouts()
    yield from _beam("basic")
    yield from _beam("all")
    yield from _mcts_speed()
    yield from _mcts_memory("basic")
    for scene_name in GAME_SCENES:
        yield from _game(scene_name)
