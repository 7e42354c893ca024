"""Connectivity and scoring: networks of tiles and exits, cluster sizes, the game's score.

Networks follow connection groups (seed 001): two neighbouring cells are joined when both
sides of their common edge carry the same transport, and inside a cell only the sides of one
group are joined, so an overpass keeps its road and its rail apart while a station joins
them. Networks are found with a union-find over ``(cell, group)`` nodes, not by enumerating
paths, so a board costs one pass over its 112 inner edges.

The game's score (the real game's scoring, played with unlimited tiles):

- each network scores by the number of exits it joins: 2->4, 3->8, 4->12, ... 11->40,
  12->45;
- the longest road and the longest rail: 1 point per cell of the longest path that never
  visits a cell twice (stations do not interrupt a route);
- 1 point per occupied cell of the 3x3 centre;
- -1 per *error*: a route end that leads nowhere. As in the real rules, an end on the outer
  edge of the board is never an error, whether an exit is there or not. An end that leads
  into an empty interior cell is one; so is an end against a blank side or against the other
  transport, which the placement rules never allow but hand-made boards may hold.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from searchvid.domains.railroad.grid import (
    CENTRE,
    EXIT_CELLS,
    FACING,
    INTERIOR,
    NEIGHBOURS,
    OFFSETS,
    SIZE,
)
from searchvid.domains.railroad.tiles import CODE_COUNT, EMPTY, Transport, code_groups

__all__ = [
    "EXIT_POINTS",
    "Network",
    "Score",
    "cluster_sizes",
    "error_ends",
    "exit_roots",
    "game_score",
    "largest_network",
    "longest_route",
    "networks",
    "open_ends",
]

EXIT_POINTS: tuple[int, ...] = (0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45)
"""Points of a network by the number of exits it joins (index = exits)."""

_NODES = SIZE * SIZE * 2  # two groups at most per cell


def _group_table() -> tuple[tuple[int, int, int, int], ...]:
    """``GROUP[code][side]``: index of the group holding ``side``, or -1."""
    table = []
    for code in range(CODE_COUNT):
        row = [-1, -1, -1, -1]
        for index, group in enumerate(code_groups(code)):
            for side, _ in group:
                row[side] = index
        table.append((row[0], row[1], row[2], row[3]))
    return tuple(table)


GROUP: tuple[tuple[int, int, int, int], ...] = _group_table()


def _transport_table() -> tuple[tuple[int, int, int, int], ...]:
    table = []
    for code in range(CODE_COUNT):
        row = [0, 0, 0, 0]
        for group in code_groups(code):
            for side, transport in group:
                row[side] = int(transport)
        table.append((row[0], row[1], row[2], row[3]))
    return tuple(table)


SIDES: tuple[tuple[int, int, int, int], ...] = _transport_table()
"""``SIDES[code]``: transport per side N, E, S, W (0 none, 1 road, 2 rail)."""


def _link_table(side: int) -> tuple[tuple[int, int] | None, ...]:
    """``LINK[a * CODE_COUNT + b]``: the joined group pair when ``b`` lies across ``side`` of
    ``a`` and both carry the same transport over the common edge, else None."""
    opposite = (side + 2) % 4
    table: list[tuple[int, int] | None] = []
    for a in range(CODE_COUNT):
        for b in range(CODE_COUNT):
            ta, tb = SIDES[a][side], SIDES[b][opposite]
            joined = ta != 0 and ta == tb
            table.append((GROUP[a][side], GROUP[b][opposite]) if joined else None)
    return tuple(table)


_LINK_E = _link_table(1)
_LINK_S = _link_table(2)


_Links = tuple[tuple[tuple[int, int] | None, ...], ...]
"""``links[a][b]``: a link table split into one row per code ``a`` (one index less per edge)."""


def _rows(table: tuple[tuple[int, int] | None, ...]) -> _Links:
    return tuple(table[a * CODE_COUNT : (a + 1) * CODE_COUNT] for a in range(CODE_COUNT))


_ROWS_E = _rows(_LINK_E)
_ROWS_S = _rows(_LINK_S)


def _edges_from() -> tuple[tuple[int, int, int, int, int, int], ...]:
    """Per cell with an inner edge to its east or south neighbour, row-major: the cell, its
    first node, then the east neighbour and its first node, then the south one's (-1 where
    there is no such edge). Inner edges have an interior cell on at least one side."""
    result = []
    for r in range(SIZE):
        for c in range(SIZE):
            a = r * SIZE + c
            east = a + 1 if 1 <= r <= SIZE - 2 and c <= SIZE - 2 else -1
            south = a + SIZE if 1 <= c <= SIZE - 2 and r <= SIZE - 2 else -1
            if east >= 0 or south >= 0:
                result.append((a, a * 2, east, east * 2, south, south * 2))
    return tuple(result)


_EDGES_FROM = _edges_from()
_ALONE = list(range(_NODES))
"""Every node its own root (copied: cheaper than building it again)."""


def _union_find(cells: bytes) -> list[int]:
    """Parent array over ``cell * 2 + group`` nodes, fully linked.

    The smaller root wins each union, so a network's root is its smallest node.
    """
    parent = _ALONE.copy()
    rows_e, rows_s = _ROWS_E, _ROWS_S
    for a, a_node, east, east_node, south, south_node in _EDGES_FROM:
        code = cells[a]
        if not code:
            continue
        if east >= 0 and (link := rows_e[code][cells[east]]) is not None:
            # the roots, halving the paths on the way
            x = a_node + link[0]
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]
            y = east_node + link[1]
            while parent[y] != y:
                parent[y] = y = parent[parent[y]]
            if x < y:
                parent[y] = x
            elif y < x:
                parent[x] = y
        if south >= 0 and (link := rows_s[code][cells[south]]) is not None:
            x = a_node + link[0]
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]
            # Row-major, nothing has linked the cell below yet: its node is a root, and
            # larger than this cell's root.
            parent[south_node + link[1]] = x
    return parent


_EXIT_NODES: tuple[int, ...] = tuple(cell * 2 for cell in EXIT_CELLS)


def exit_roots(cells: bytes) -> tuple[int, ...]:
    """For each exit (in :data:`grid.EXIT_CELLS` order), an id of the network it belongs to.

    Two exits share an id exactly when a network joins them.
    """
    parent = _union_find(cells)
    roots = []
    for x in _EXIT_NODES:
        while parent[x] != x:
            x = parent[x]
        roots.append(x)
    return tuple(roots)


def cluster_sizes(cells: bytes) -> list[int]:
    """Exits per network, for networks joining at least two exits, largest first (seed 001)."""
    counts: dict[int, int] = {}
    for root in exit_roots(cells):
        counts[root] = counts.get(root, 0) + 1
    return sorted((n for n in counts.values() if n >= 2), reverse=True)


def largest_network(cells: bytes) -> int:
    """Exits in the largest network, or 0 when no network joins two exits."""
    parent = _union_find(cells)
    exits = [0] * _NODES  # per root
    best = 1
    for x in _EXIT_NODES:
        while parent[x] != x:
            x = parent[x]
        count = exits[x] + 1
        exits[x] = count
        if count > best:
            best = count
    return best if best >= 2 else 0


@dataclass(frozen=True, slots=True)
class Network:
    """A network holding at least one exit, seen from the search's point of view.

    Attributes:
        exits: Indices (into :data:`grid.EXIT_CELLS`) of the exits it joins, ascending.
        open_cells: Empty interior cells its routes lead into where some tile still fits,
            ascending: the places it can grow.
        dead_ends: Route ends leading into empty cells that no tile fits any more.
    """

    exits: tuple[int, ...]
    open_cells: tuple[int, ...]
    dead_ends: int

    @property
    def alive(self) -> bool:
        """Whether the network can still grow."""
        return bool(self.open_cells)


def networks(cells: bytes, choices: Sequence[Sequence[int]]) -> list[Network]:
    """The networks that hold an exit, ordered by their first exit.

    Args:
        cells: The board's bytes.
        choices: The tile set's table of fitting tiles per constraint key, which tells open
            cells that can still be filled from those that cannot.
    """
    parent = _union_find(cells)
    exits: dict[int, list[int]] = {}
    for index, cell in enumerate(EXIT_CELLS):
        x = cell * 2
        while parent[x] != x:
            x = parent[x]
        exits.setdefault(x, []).append(index)
    open_cells: dict[int, set[int]] = {root: set() for root in exits}
    dead: dict[int, int] = dict.fromkeys(exits, 0)
    f0, f1, f2, f3 = FACING
    for c, n, e, s, w in NEIGHBOURS:
        if cells[c]:
            continue
        key = f0[cells[n]] | f1[cells[e]] | f2[cells[s]] | f3[cells[w]]
        leading_in = _ROUTE_SIDES[key]
        if not leading_in:
            continue
        fillable = bool(choices[key])
        around = (n, e, s, w)
        for d in leading_in:
            other = around[d]
            x = other * 2 + _FACING_GROUP[d][cells[other]]
            while parent[x] != x:
                x = parent[x]
            if x not in exits:
                continue  # a floating route (the far side of an overpass)
            if fillable:
                open_cells[x].add(c)
            else:
                dead[x] += 1
    return [Network(tuple(exits[r]), tuple(sorted(open_cells[r])), dead[r]) for r in exits]


_ROUTE_SIDES: tuple[tuple[int, ...], ...] = tuple(
    tuple(d for d in range(4) if (key >> (2 * d)) & 3 in (1, 2)) for key in range(256)
)
"""Sides of a cell with constraint ``key`` across which a route leads in."""

_FACING_GROUP: tuple[tuple[int, ...], ...] = tuple(
    tuple(max(GROUP[code][(d + 2) % 4], 0) for code in range(CODE_COUNT)) for d in range(4)
)
"""``_FACING_GROUP[d][code]``: group of a neighbour across side ``d`` that faces the cell."""


_INTERIOR_SET = frozenset(INTERIOR)

_Steps = tuple[tuple[tuple[int, tuple[bool, ...]], ...] | None, ...]


@functools.cache  # built when first scored, not at import (start-up)
def _route_steps(transport: int) -> dict[int, _Steps]:
    """Per interior cell, per cell byte on it: None when the byte carries no ``transport``,
    else for each side carrying it towards an interior neighbour, in side order N, E, S, W,
    that neighbour and, per its cell byte, whether the side facing back carries it too."""
    carries = tuple(
        tuple(SIDES[code][side] == transport for code in range(CODE_COUNT)) for side in range(4)
    )
    sides = [
        [d for d in range(4) if SIDES[code][d] == transport] if transport in SIDES[code] else None
        for code in range(CODE_COUNT)
    ]
    return {
        cell: tuple(
            None
            if out is None
            else tuple(
                (cell + OFFSETS[d], carries[(d + 2) % 4])
                for d in out
                if cell + OFFSETS[d] in _INTERIOR_SET
            )
            for out in sides
        )
        for cell in INTERIOR
    }


def _route_graph(cells: bytes, transport: int) -> dict[int, list[int]]:
    """Adjacency of interior cells joined by ``transport`` across their common edges.

    Keys are the interior cells carrying ``transport``, ascending; each list holds the
    neighbours in side order N, E, S, W.
    """
    graph: dict[int, list[int]] = {}
    steps = _route_steps(transport)
    for c in INTERIOR:
        out = steps[c][cells[c]]
        if out is not None:
            graph[c] = [other for other, back in out if back[cells[other]]]
    return graph


_BIT: tuple[int, ...] = tuple(1 << c for c in range(SIZE * SIZE))


def longest_route(cells: bytes, transport: Transport, *, budget: int = 200_000) -> int:
    """Cells on the longest path of one transport that visits no cell twice.

    Defined by an exhaustive depth-first search: from each cell carrying the transport,
    ascending, every path that visits no cell twice, one step per path. Longest path is hard
    in general, so that search stops after ``budget`` steps and returns the longest path found
    so far (a lower bound); boards from play stay far below the budget.

    The same answer is found faster. Each connected part of the routes is looked at alone:
    a part without a loop (a tree) of ``n`` cells has ``n * n`` such paths (one per ordered
    pair of cells), and its longest runs from a cell farthest from any cell to the cell
    farthest from that one (two breadth-first searches); a part with a
    loop is searched exhaustively. Only when the steps of all parts would pass ``budget`` is
    the whole search run in its defining order, stopping where it stops.
    """
    graph = _route_graph(cells, int(transport))
    best = 0
    steps = 0  # the defining search's steps, part by part
    seen: set[int] = set()
    for start in graph:
        if start in seen:
            continue
        if not graph[start]:  # a cell alone: one path
            steps += 1
            length = 1
            if steps > budget:
                return _budgeted_search(graph, budget)
            best = max(best, length)
            continue
        # the part holding it, breadth-first: the last cell found is one farthest from start
        depth = {start: 0}
        part = [start]
        ends = 0  # link ends: twice the links
        for cell in part:  # grows while read
            links = graph[cell]
            ends += len(links)
            d = depth[cell] + 1
            for other in links:
                if other not in depth:
                    depth[other] = d
                    part.append(other)
        seen.update(part)
        size = len(part)
        if ends == 2 * (size - 1):  # a tree: its longest path starts at a farthest cell
            steps += size * size
            length = _farthest(graph, part[-1])[1] + 1 if steps <= budget else 0
        else:
            length, taken = _longest_path(graph, part, budget - steps + 1)
            steps += taken
        if steps > budget:
            return _budgeted_search(graph, budget)
        if length > best:
            best = length
    return best


def _farthest(graph: dict[int, list[int]], start: int) -> tuple[int, int]:
    """A cell farthest from ``start`` (breadth-first) and its distance in links."""
    depth = {start: 0}
    queue = [start]
    for cell in queue:
        d = depth[cell] + 1
        for other in graph[cell]:
            if other not in depth:
                depth[other] = d
                queue.append(other)
    last = queue[-1]
    return last, depth[last]


def _longest_path(graph: dict[int, list[int]], part: list[int], room: int) -> tuple[int, int]:
    """The longest path within ``part`` by the exhaustive search, and its steps; it stops
    after ``room`` steps (the caller then runs the whole search)."""
    bit = _BIT
    best = 0
    steps = 0
    for start in part:
        stack: list[tuple[int, int, int]] = [(start, bit[start], 1)]
        pop, push = stack.pop, stack.append
        while stack:
            cell, seen, length = pop()
            if length > best:
                best = length
            steps += 1
            if steps >= room:
                return best, steps
            for other in graph[cell]:
                if not seen & bit[other]:
                    push((other, seen | bit[other], length + 1))
    return best, steps


def _budgeted_search(graph: dict[int, list[int]], budget: int) -> int:
    """:func:`longest_route`'s defining search, stopped after ``budget`` steps: from every
    cell in ascending order, as :func:`_longest_path` searches a part."""
    return _longest_path(graph, list(graph), budget)[0]


@dataclass(frozen=True, slots=True)
class Score:
    """The game's score of a board, part by part.

    Attributes:
        exits: Points for exits joined, summed over networks.
        longest_road: Cells on the longest road.
        longest_rail: Cells on the longest rail.
        centre: Occupied cells of the 3x3 centre.
        errors: Route ends that lead nowhere.
    """

    exits: int
    longest_road: int
    longest_rail: int
    centre: int
    errors: int

    @property
    def total(self) -> int:
        """The final score."""
        return self.exits + self.longest_road + self.longest_rail + self.centre - self.errors


_ENDS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((OFFSETS[d], (d + 2) % 4, SIDES[code][d]) for d in range(4) if SIDES[code][d])
    for code in range(CODE_COUNT)
)
"""``_ENDS[code]``: for each side carrying a route, in side order N, E, S, W: its index
offset, the side of the neighbour facing it, and the transport."""


def _error_ends(cells: bytes) -> Iterator[int]:
    """Every route end that counts as an error: the empty interior cell it leads into, or -1
    where it faces a blank side or the other transport (the outer edge is never an error)."""
    interior = _INTERIOR_SET
    for c in INTERIOR:
        for offset, facing, transport in _ENDS[cells[c]]:
            other = c + offset
            code = cells[other]
            if code == EMPTY:
                if other in interior:
                    yield other
            elif SIDES[code][facing] != transport:
                yield -1


def error_ends(cells: bytes) -> Iterator[tuple[int, int]]:
    """Every route end that :attr:`Score.errors` counts, as ``(cell, side)``: the interior
    cell whose route ends there and the side it ends on (0 to 3: N, E, S, W), in cell
    order, then side order. One pair per error, so their number is the board's errors."""
    interior = _INTERIOR_SET
    for c in INTERIOR:
        for offset, facing, transport in _ENDS[cells[c]]:
            other = c + offset
            code = cells[other]
            if (code == EMPTY and other in interior) or (
                code != EMPTY and SIDES[code][facing] != transport
            ):
                yield c, (facing + 2) % 4


def _errors(cells: bytes) -> int:
    errors = 0
    interior = _INTERIOR_SET
    for c in INTERIOR:
        for offset, facing, transport in _ENDS[cells[c]]:
            other = c + offset
            code = cells[other]
            if code == EMPTY:
                errors += other in interior
            elif SIDES[code][facing] != transport:
                errors += 1
    return errors


def open_ends(cells: bytes, choices: Sequence[Sequence[int]]) -> tuple[int, int]:
    """The route ends that lead nowhere yet, as ``(live, dead)``.

    A live end leads into an empty interior cell that some tile still fits (``choices`` of
    its constraint key), so it may yet be continued; a dead end can never be: it faces a
    blank side, the other transport, or an empty cell no tile fits. ``live + dead`` is the
    board's :attr:`Score.errors`.
    """
    live = dead = 0
    f0, f1, f2, f3 = FACING
    for other in _error_ends(cells):
        if other >= 0:
            n, e, s, w = other - SIZE, other + 1, other + SIZE, other - 1
            if choices[f0[cells[n]] | f1[cells[e]] | f2[cells[s]] | f3[cells[w]]]:
                live += 1
                continue
        dead += 1
    return live, dead


def game_score(cells: bytes, *, sizes: Sequence[int] | None = None) -> Score:
    """The game's score of a board (see the module docstring for the rules).

    Args:
        cells: The board's bytes.
        sizes: :func:`cluster_sizes` of the board, when the caller has them already.
    """
    if sizes is None:
        sizes = cluster_sizes(cells)
    return Score(
        exits=sum(EXIT_POINTS[n] for n in sizes),
        longest_road=longest_route(cells, Transport.ROAD),
        longest_rail=longest_route(cells, Transport.RAIL),
        centre=sum(1 for c in CENTRE if cells[c]),
        errors=_errors(cells),
    )
