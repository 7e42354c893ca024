from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.render.canvas import Rect
from searchvid.render.palette import PLAYER_COLORS, UNDONE
from searchvid.render.textink import MIN_TEXT, ramp
from searchvid.render.treelayout import (
    ITEM_AGGREGATE,
    ITEM_NODE,
    TreeCensus,
    TreeLayout,
    TreeRecord,
)
from searchvid.render.treemarks import BASE_COLORS, DASH, INK_BLENDS, NO_VALUE
from searchvid.render.treepanel import (
    BACKGROUND,
    COLORS,
    CROSS,
    DIVERGING,
    EDGE,
    FRONTIER,
    PATH,
    PLAYED,
    PRUNED,
    SEQUENTIAL,
    TEXT,
    VISITED,
    Label,
    Thumbnail,
    TreePanel,
)
from searchvid.search.events import Event, EventKind

K = EventKind


def ev(kind: EventKind, nid: int | None, parent: int | None, value: float | None = None) -> Event:
    """An event about tree node ``nid`` (the panel never looks at ``node`` or ``depth``)."""
    return Event(kind, f"n{nid}", 0, 0, value, nid, parent)


# The seed's picture: 0 -> (1 -> (2, 3), 4 -> (5, 6)), searched depth first.
BACKTRACKING = [
    ev(K.ENTER, 0, None),
    ev(K.ENTER, 1, 0),
    ev(K.LEAF, 2, 1),
    ev(K.BACKTRACK, 1, 0),
    ev(K.LEAF, 3, 1),
    ev(K.BACKTRACK, 1, 0),
    ev(K.BACKTRACK, 0, None),
    ev(K.ENTER, 4, 0),
    ev(K.LEAF, 5, 4),
    ev(K.BACKTRACK, 4, 0),
    ev(K.LEAF, 6, 4),
    ev(K.BACKTRACK, 4, 0),
    ev(K.BACKTRACK, 0, None),
]
PARENTS = {0: None, 1: 0, 2: 1, 3: 1, 4: 0, 5: 4, 6: 4}

BFS = [
    ev(K.ENTER, 0, None),
    ev(K.FRONTIER, 1, 0),
    ev(K.FRONTIER, 2, 0),
    ev(K.ENTER, 1, 0),
    ev(K.FRONTIER, 3, 1),
    ev(K.LEAF, 2, 0),
    ev(K.LEAF, 3, 1),
]


def panel_of(
    events: Sequence[Event],
    width: int = 240,
    height: int = 200,
    *,
    thumbnail: Thumbnail | None = None,
    label: Label | None = None,
) -> TreePanel:
    return TreePanel(
        width, height, events_for_layout=iter(events), thumbnail=thumbnail, label=label
    )


def colour(panel: TreePanel, row: int, col: int) -> tuple[int, int, int]:
    r, g, b = panel.pixels[row, col].tolist()
    return (r, g, b)


def colours_in(pixels: np.ndarray) -> set[tuple[int, int, int]]:
    flat = np.unique(pixels.reshape(-1, 3), axis=0)
    return {(int(r), int(g), int(b)) for r, g, b in flat}


def inside(rect: Rect, row: int, col: int) -> bool:
    return rect.top <= row < rect.bottom and rect.left <= col < rect.right


def board(node: object) -> np.ndarray:
    """A 3x3 board picture whose colour tells node ``n<id>`` apart (ids mod 12)."""
    shade = int(str(node)[1:]) % 12 * 20 + 5
    picture = np.zeros((3, 3, 3), dtype=np.uint8)
    picture[:] = (shade, 120, 200)
    picture[1, 1] = (250, 250, 250)
    return picture


def random_tree_events(rng: random.Random, nodes: int) -> list[Event]:
    """A frontier search over a random recursive tree: FRONTIER for each node, then ENTERs."""
    events = [ev(K.ENTER, 0, None)]
    parents = [None] + [rng.randrange(i) for i in range(1, nodes)]
    events += [ev(K.FRONTIER, i, parents[i]) for i in range(1, nodes)]
    return events


def mcts_events(rng: random.Random, iterations: int) -> Iterator[Event]:
    """A small synthetic MCTS stream: SELECT, EXPAND, the playout's LEAF, BACKUP."""
    kids: list[list[int]] = [[]]
    parent: list[int | None] = [None]
    for _ in range(iterations):
        v = 0
        while kids[v] and rng.random() < 0.7:
            v = rng.choice(kids[v])
        yield ev(K.SELECT, v, parent[v])
        child = len(parent)
        parent.append(v)
        kids.append([])
        kids[v].append(child)
        yield ev(K.EXPAND, child, v)
        reward = rng.choice((0.0, 0.5, 1.0, 1.0))
        yield ev(K.LEAF, None, child, reward)
        yield ev(K.BACKUP, child, v, reward)


def plan_events(rng: random.Random, blocks: int, iterations: int) -> Iterator[Event]:
    """A synthetic MCTS stream in plan mode: MOVE for the root, then ``blocks`` times
    ``iterations`` iterations below the current root and a MOVE committing its most visited
    child (the tree is re-rooted there, keeping that child's subtree and its ids)."""
    kids: list[list[int]] = [[]]
    parent: list[int | None] = [None]
    visits = [0]
    root = 0
    yield ev(K.MOVE, 0, None)
    for _ in range(blocks):
        for _ in range(iterations):
            v = root
            while kids[v] and rng.random() < 0.6:
                v = rng.choice(kids[v])
            yield ev(K.SELECT, v, parent[v])
            child = len(parent)
            parent.append(v)
            kids.append([])
            visits.append(0)
            kids[v].append(child)
            yield ev(K.EXPAND, child, v)
            reward = rng.choice((0.0, 0.5, 1.0))
            yield ev(K.LEAF, None, child, reward)
            yield ev(K.BACKUP, child, v, reward)
            w: int | None = child
            while w is not None:
                visits[w] += 1
                w = None if w == root else parent[w]
        root = max(kids[root], key=lambda c: visits[c])
        yield ev(K.MOVE, root, parent[root], 0.5)


# -- layout ---------------------------------------------------------------------------------


def test_tidy_layout_puts_leaves_left_to_right_and_parents_over_their_children() -> None:
    panel = panel_of(BACKTRACKING)
    x = {i: panel.centre(i)[1] for i in PARENTS}  # type: ignore[index]
    y = {i: panel.centre(i)[0] for i in PARENTS}  # type: ignore[index]
    assert x[2] < x[3] < x[5] < x[6]
    assert x[2] < x[1] < x[3]
    assert x[5] < x[4] < x[6]
    assert x[1] < x[0] < x[4]
    assert y[0] < y[1] == y[4] < y[2] == y[3] == y[5] == y[6]
    assert all(c % 2 == 1 for c in x.values())  # centres between an even and an odd pixel


def test_positions_come_from_the_first_pass_and_never_move() -> None:
    panel = panel_of(BACKTRACKING)
    before = {i: (panel.item_rect(i), panel.centre(i)) for i in PARENTS}
    for event in BACKTRACKING:
        panel.observe(event)
        panel.draw()
        assert {i: (panel.item_rect(i), panel.centre(i)) for i in PARENTS} == before


def test_a_node_draws_only_inside_its_own_rectangle() -> None:
    panel = panel_of(BACKTRACKING)
    panel.observe(BACKTRACKING[0])
    panel.draw()
    before = panel.pixels.copy()
    panel.observe(ev(K.ENTER, 1, 0))  # node 1 appears and becomes current
    panel.draw()
    changed = np.argwhere((panel.pixels != before).any(axis=2))
    own, root = panel.item_rect(1), panel.item_rect(0)
    assert own is not None
    assert root is not None
    assert changed.size
    for row, col in changed.tolist():  # its slot, the root's slot, the edges between them
        assert inside(own, row, col) or inside(root, row, col) or root.bottom <= row < own.top


def test_item_rectangles_do_not_overlap() -> None:
    rng = random.Random(3)
    panel = panel_of(random_tree_events(rng, 300), 400, 300)
    rects = {panel.item_rect(i) for i in range(300)}
    canvas = np.zeros((300, 400), dtype=np.int32)
    for rect in rects:
        assert rect is not None
        canvas[max(0, rect.top) : rect.bottom, max(0, rect.left) : rect.right] += 1
    assert canvas.max() == 1


def test_unknown_and_unconnected_ids_are_ignored() -> None:
    events = [*BACKTRACKING, ev(K.ENTER, 20, 19)]  # parent 19 never seen: not placed
    panel = panel_of(events)
    assert panel.item_rect(20) is None
    assert panel.item_rect(99) is None
    for event in [*events, ev(K.ENTER, 99, 0), ev(K.BACKUP, 50, 0, 1.0)]:
        panel.observe(event)
    panel.draw()


# -- pixels ---------------------------------------------------------------------------------


def test_backtracking_colours_after_each_event() -> None:
    panel = panel_of(BACKTRACKING)
    height, width = panel.box_size
    assert height == width >= 18  # disks with room for the current node's ring
    body = width - 8
    seen: set[int] = set()
    left: int | None = None  # the node a step back leaves: ringed in the "undone" colour
    left_node: int | None = None  # the node of the event before
    for event in BACKTRACKING:
        panel.observe(event)
        panel.draw()
        assert event.id is not None
        left = left_node if event.kind is EventKind.BACKTRACK else None
        left_node = event.id
        seen.add(event.id)
        path = {event.id}
        up = PARENTS[event.id]
        while up is not None:
            path.add(up)
            up = PARENTS[up]
        for node in PARENTS:
            row, col = panel.centre(node)  # type: ignore[misc]
            ring = colour(panel, row, col - width // 2)
            outline = colour(panel, row, col - body // 2)
            if node not in seen:
                assert colour(panel, row, col) == BACKGROUND
                continue
            assert colour(panel, row, col) == VISITED, (event, node)
            want = PATH if node == event.id else UNDONE if node == left else BACKGROUND
            assert ring == want, (event, node)
            assert outline == (PATH if node in path else VISITED), (event, node)


def test_first_draw_is_the_whole_panel_then_only_changes() -> None:
    panel = panel_of(BACKTRACKING)
    assert panel.draw() == [Rect(0, 0, panel.height, panel.width)]
    assert panel.draw() == []
    panel.observe(BACKTRACKING[0])
    rects = panel.draw()
    assert rects
    assert all(r.bottom - r.top < panel.height for r in rects)


def test_changed_pixels_lie_in_the_returned_rectangles() -> None:
    events = list(mcts_events(random.Random(5), 150))
    panel = panel_of(events, 300, 260)
    panel.draw()
    for event in events:
        before = panel.pixels.copy()
        panel.observe(event)
        rects = panel.draw()
        changed = (panel.pixels != before).any(axis=2)
        for rect in rects:
            changed[max(0, rect.top) : rect.bottom, max(0, rect.left) : rect.right] = False
        assert not changed.any()


def test_only_the_panel_colours_are_drawn() -> None:
    for events in (BACKTRACKING, BFS, list(mcts_events(random.Random(1), 200))):
        panel = panel_of(events, 300, 240)
        for event in events:
            panel.observe(event)
        panel.draw()
        assert colours_in(panel.pixels) <= set(panel.colors)
    # 13 base colours, two 9-colour scales and 4 blends for each of 3 text colours: a
    # panel takes at most 34 of a GIF palette's 256
    assert len(set(COLORS)) == len(COLORS) <= 43


def test_same_events_same_bytes() -> None:
    events = list(mcts_events(random.Random(2), 300))
    shots = []
    for _ in range(2):
        panel = panel_of(events, 300, 260)
        rects = []
        for k, event in enumerate(events):
            panel.observe(event)
            if k % 7 == 0:
                rects.append(panel.draw())
        shots.append((panel.pixels.tobytes(), rects))
    assert shots[0] == shots[1]


KINDS = [
    K.ENTER,
    K.BACKTRACK,
    K.LEAF,
    K.RESTART,
    K.EXPAND,
    K.SELECT,
    K.ROLLOUT,
    K.MOVE,
    K.IMPROVE,
    K.FRONTIER,
    K.DROP,
    K.PRUNE,
    K.BACKUP,
]


@st.composite
def streams(draw: st.DrawFn) -> list[Event]:
    """Random well-formed streams over a random tree: a new id's first event names its parent."""
    steps = draw(
        st.lists(
            st.tuples(
                st.sampled_from(KINDS),
                st.integers(0, 1000),
                st.booleans(),
                st.sampled_from([None, 0.0, 0.25, 0.5, 1.0, 2.0]),
            ),
            min_size=1,
            max_size=60,
        )
    )
    events = [ev(K.ENTER, 0, None)]
    parents: list[int | None] = [None]
    for kind, pick, new, value in steps:
        if kind is K.RESTART:
            events.append(ev(kind, 0, None))
            continue
        if new and kind is not K.BACKUP and kind is not K.PRUNE:
            parent = pick % len(parents)
            parents.append(parent)
            events.append(ev(kind, len(parents) - 1, parent, value))
        elif kind is K.ROLLOUT or (kind is K.LEAF and new):
            events.append(ev(kind, None, pick % len(parents), value))
        else:
            node = pick % len(parents)
            events.append(ev(kind, node, parents[node], value))
    return events


@settings(max_examples=60, deadline=None)
@given(
    streams(),
    st.lists(st.booleans(), min_size=1, max_size=61),
    st.sampled_from([1, 2, 4]),
    st.booleans(),
    st.booleans(),
)
def test_incremental_drawing_equals_drawing_from_scratch(
    events: list[Event], draws: list[bool], scale: int, thumbnails: bool, labels: bool
) -> None:
    size = (60 * scale, 50 * scale)
    thumbnail = board if thumbnails else None
    label: Label | None = str if labels else None
    panel = panel_of(events, *size, thumbnail=thumbnail, label=label)
    panel.draw()
    for k, event in enumerate(events):
        before = panel.pixels.copy()
        panel.observe(event)
        if draws[k % len(draws)] or k == len(events) - 1:
            rects = panel.draw()  # pixels change only here: `before` is the previous picture
            outside = (panel.pixels != before).any(axis=2)
            for rect in rects:
                outside[max(0, rect.top) : rect.bottom, max(0, rect.left) : rect.right] = False
            assert not outside.any(), k
            fresh = panel_of(events, *size, thumbnail=thumbnail, label=label)
            for earlier in events[: k + 1]:
                fresh.observe(earlier)
            fresh.draw()
            assert np.array_equal(panel.pixels, fresh.pixels), k


# -- what it shows --------------------------------------------------------------------------


def test_mcts_colours_and_sizes_follow_the_backup_sums() -> None:
    rng = random.Random(7)
    events = list(mcts_events(rng, 60))
    events.append(ev(K.SELECT, 0, None))  # the path is the root alone at the end
    panel = TreePanel(400, 400, events_for_layout=iter(events), min_spacing=16)
    parents: dict[int, int | None] = {}
    visits: dict[int, int] = {}
    total: dict[int, float] = {}
    for event in events:
        panel.observe(event)
        if event.id is not None:
            parents.setdefault(event.id, event.parent)
        if event.kind is K.BACKUP:
            node: int | None = event.id
            while node is not None:
                visits[node] = visits.get(node, 0) + 1
                total[node] = total.get(node, 0.0) + (event.value or 0.0)
                node = parents[node]
    panel.draw()
    layout = panel.layout
    drawn = [n for n in parents if n and layout.node[layout.rep[n]] == n]
    assert len(drawn) > 10
    heights = {}
    for node in drawn:
        row, col = panel.centre(node)  # type: ignore[misc]
        expected = SEQUENTIAL[min(8, int(total[node] / visits[node] * 9))]
        rect = panel.item_rect(node)
        assert rect is not None
        column = panel.pixels[rect.top : rect.bottom, col]
        heights[node] = int((column == expected).all(axis=1).sum())
        assert heights[node] >= 2, node
        bottom = panel.pixels[row + panel.box_size[0] // 2 - 5, col]  # bars stand on a line
        assert tuple(bottom.tolist()) == expected, node
    by_visits = sorted(heights, key=lambda n: visits[n])
    assert [heights[n] for n in by_visits] == sorted(heights[n] for n in by_visits)
    assert heights[by_visits[-1]] > heights[by_visits[0]]


def test_minimax_values_colour_nodes_and_pruned_children_are_marked() -> None:
    events = [
        ev(K.ENTER, 0, None),
        ev(K.LEAF, 1, 0, 1.0),
        ev(K.BACKTRACK, 0, None, 1.0),
        ev(K.ENTER, 2, 0),
        ev(K.LEAF, 3, 2, 0.0),
        ev(K.BACKTRACK, 2, 0, 0.0),
        ev(K.PRUNE, 2, 0, 2.0),
        ev(K.BACKTRACK, 0, None, 1.0),
    ]
    panel = panel_of(events, 300, 240)
    marker = panel.marker_rect(2)
    assert marker is not None
    assert panel.marker_rect(0) is None
    for event in events[:-2]:
        panel.observe(event)
    panel.draw()
    assert PRUNED not in colours_in(panel.pixels[: marker.bottom])
    panel.observe(events[-2])
    panel.draw()
    box = panel.pixels[marker.top : marker.bottom, max(0, marker.left) : marker.right]
    assert PRUNED in colours_in(box)
    panel.observe(events[-1])
    panel.draw()
    for node, value in ((1, 1.0), (3, 0.0), (0, 1.0)):
        row, col = panel.centre(node)  # type: ignore[misc]
        assert colour(panel, row, col) == SEQUENTIAL[min(8, int(value * 9))], node
    assert "pruned (count)" in panel.legend
    assert "value" in panel.legend  # one player: no "player 0"
    assert "no value yet" in panel.legend  # grey before a value: the middle grey is a draw
    assert panel.scale_ends == ("0", "1")


def test_beam_dropped_children_are_crossed_and_frontier_nodes_hollow() -> None:
    events = [
        ev(K.ENTER, 0, None),
        ev(K.FRONTIER, 1, 0),
        ev(K.DROP, 2, 0),
        ev(K.FRONTIER, 3, 0),
        ev(K.ENTER, 1, 0),
    ]
    panel = panel_of(events, 300, 240)
    for event in events:
        panel.observe(event)
    panel.draw()

    def box(node: int) -> set[tuple[int, int, int]]:
        rect = panel.item_rect(node)
        assert rect is not None
        return colours_in(panel.pixels[rect.top : rect.bottom, max(0, rect.left) : rect.right])

    assert CROSS in box(2)
    assert CROSS not in box(1) | box(3)
    row, col = panel.centre(3)  # type: ignore[misc]
    assert colour(panel, row, col) == BACKGROUND
    assert FRONTIER in box(3)
    assert colour(panel, *panel.centre(1)) == VISITED  # type: ignore[misc]
    assert panel.legend[:3] == ("current", "frontier", "expanded")
    assert "dropped" in panel.legend


def test_legend_lists_only_the_states_the_run_uses() -> None:
    assert panel_of(BACKTRACKING).legend == ("current", "undone", "visited", "leaf / dead end")
    assert panel_of(BFS).legend == ("current", "frontier", "expanded", "leaf / dead end")
    mcts = panel_of(list(mcts_events(random.Random(0), 12)), 400, 300)
    assert mcts.legend == ("current", "most visits", "mean reward", "height, number: visits done")
    walks = panel_of([*BACKTRACKING, ev(K.RESTART, 0, None)])
    assert "frontier" not in walks.legend
    assert "pruned" not in walks.legend


def test_legend_is_drawn_once_at_the_bottom() -> None:
    panel = panel_of(BFS)
    legend_rows = np.flatnonzero((panel.pixels != BACKGROUND).any(axis=(1, 2)))
    assert legend_rows.size
    assert legend_rows.min() > panel.height * 3 // 4
    bottom = panel.pixels[legend_rows.min() :].copy()
    for event in BFS:
        panel.observe(event)
        panel.draw()
    assert np.array_equal(panel.pixels[legend_rows.min() :], bottom)


def test_random_walk_restarts_are_counted() -> None:
    events = [
        ev(K.ENTER, 0, None),
        ev(K.LEAF, 1, 0),
        ev(K.RESTART, 0, None),
        ev(K.ENTER, 2, 0),
        ev(K.LEAF, 3, 2),
    ]
    panel = panel_of(events)
    panel.draw()
    top = panel.pixels[:20].copy()
    for event in events:
        panel.observe(event)
    rects = panel.draw()
    assert not np.array_equal(panel.pixels[:20], top)  # "walk 1" became "walk 2"
    assert any(r.top < 20 for r in rects)


# -- scale ----------------------------------------------------------------------------------


def test_aggregation_bounds_what_is_drawn_for_100000_nodes() -> None:
    rng = random.Random(11)
    events = random_tree_events(rng, 100_000)
    panel = panel_of(events, 600, 800)
    layout = panel.layout
    assert layout.columns <= 600 // 8
    assert layout.items <= layout.columns * layout.rows
    assert layout.aggregates > 0
    assert sum(layout.hidden) + layout.drawn_nodes == 100_000
    assert all(panel.item_rect(i) is not None for i in range(0, 100_000, 997))
    for event in events[:5000]:
        panel.observe(event)
    panel.draw()
    # too many nodes for numbers beside them: the fold's mark is named without its "+k"
    assert not panel._notes
    assert "more nodes" in panel.legend


def test_deep_trees_are_cut_by_depth() -> None:
    chain = [ev(K.ENTER, 0, None)] + [ev(K.ENTER, i, i - 1) for i in range(1, 3000)]
    layout = TreeLayout(TreeCensus.of(chain), left=0, top=0, width=200, height=300)
    assert layout.depth_cap is not None
    assert layout.rows <= 300 // 10
    deepest = max(range(layout.items), key=lambda v: layout.row[v])
    assert layout.kind[deepest] == ITEM_AGGREGATE
    assert layout.hidden[deepest] == 3000 - layout.drawn_nodes


def test_most_visited_children_are_kept_and_the_rest_aggregated() -> None:
    events = [ev(K.SELECT, 0, None)]
    for child in range(1, 21):
        events.append(ev(K.EXPAND, child, 0))
        events += [ev(K.BACKUP, child, 0, 1.0)] * child  # child k gets k visits
    census = TreeCensus.of(events)
    layout = TreeLayout(census, left=0, top=0, width=400, height=200, max_children=8)
    kept = sorted(layout.node[v] for v in layout.children[0] if layout.node[v] >= 0)
    assert kept == list(range(13, 21))  # the 8 most visited
    assert layout.hidden[layout.children[0][-1]] == 12


# -- thumbnails -----------------------------------------------------------------------------


def test_small_trees_are_drawn_as_thumbnails() -> None:
    panel = panel_of(BACKTRACKING, 400, 320, thumbnail=board)
    assert panel.thumbnails
    for event in BACKTRACKING:
        panel.observe(event)
    panel.draw()
    expected = set(COLORS) | {(250, 250, 250)}
    for node in PARENTS:
        rect = panel.item_rect(node)
        assert rect is not None
        own = (node * 20 + 5, 120, 200)
        assert own in colours_in(panel.pixels[rect.top : rect.bottom, rect.left : rect.right])
        expected.add(own)
    assert colours_in(panel.pixels) <= expected
    edges = colours_in(panel.pixels)
    assert EDGE in edges
    assert PATH in edges


def test_large_trees_are_not_drawn_as_thumbnails() -> None:
    events = random_tree_events(random.Random(0), 200)
    assert not panel_of(events, 400, 320, thumbnail=board).thumbnails


@pytest.mark.parametrize(("width", "height"), [(31, 100), (100, 31), (20, 20)])
def test_odd_or_tiny_panels_are_refused(width: int, height: int) -> None:
    with pytest.raises(ValueError, match="even-sized"):
        TreePanel(width, height, events_for_layout=iter(BACKTRACKING))


# -- decisions (MCTS in plan mode) ----------------------------------------------------------

PLAN = list(plan_events(random.Random(4), blocks=4, iterations=40))


def decision_starts(events: Sequence[Event]) -> list[int]:
    """Indices of the events that start decisions 1, 2, ...: the first after each commit."""
    return [
        k + 1
        for k, event in enumerate(events[:-1])
        if event.kind is K.MOVE and event.parent is not None and events[k + 1].kind is not K.MOVE
    ]


def test_a_plan_mode_stream_is_laid_out_one_decision_at_a_time() -> None:
    record = TreeRecord.of(iter(PLAN))
    assert len(record.decisions) == 4
    moves = [e.id for e in PLAN if e.kind is K.MOVE]
    assert [c.root for c in record.decisions] == moves[:4]
    panel = panel_of(PLAN, 400, 300)
    assert panel.decisions == 4
    for census in record.decisions[1:]:  # each a subtree of the node committed before it
        assert census.parents[0] == -1
        assert (census.parents[1:] >= 0).all()
        assert (census.depths[1:] == census.depths[census.parents[1:]] + 1).all()
    search_only = list(mcts_events(random.Random(4), 160))
    assert panel_of(search_only, 400, 300).decisions == 1
    assert TreeRecord.of(iter(PLAN), split=False).decisions[0].nodes == 161


def test_the_weights_of_a_decision_are_its_final_visits_and_the_priors_its_first() -> None:
    parents: dict[int, int | None] = {}
    visits: dict[int, int] = {}
    snapshots: list[dict[int, int]] = []
    root = 0
    for k, event in enumerate(PLAN):
        if event.id is not None:
            parents.setdefault(event.id, event.parent)
        if k in decision_starts(PLAN):
            snapshots.append(dict(visits))
        if event.kind is K.MOVE:
            root = event.id  # type: ignore[assignment]
        if event.kind is K.BACKUP:
            node: int | None = event.id
            while node is not None:
                visits[node] = visits.get(node, 0) + 1
                node = None if node == root else parents[node]
    snapshots.append(dict(visits))
    record = TreeRecord.of(iter(PLAN))
    for k, census in enumerate(record.decisions):
        ids = census.ids.tolist()
        assert census.weights.tolist() == [snapshots[k].get(i, 0) for i in ids]
        before = snapshots[k - 1] if k else {}
        assert census.prior_visits.tolist() == [before.get(i, 0) for i in ids]


def test_only_the_current_decision_is_drawn_and_its_layout_stays_still() -> None:
    panel = panel_of(PLAN, 400, 300)
    panel.draw()
    starts = decision_starts(PLAN)
    members = set(panel.census.ids.tolist())
    places = {i: (panel.item_rect(i), panel.centre(i)) for i in members}
    for k, event in enumerate(PLAN):
        panel.observe(event)
        rects = panel.draw()
        current = sum(k >= start for start in starts)
        assert panel.decision == current
        members = set(panel.census.ids.tolist())
        if k in starts:  # a new decision: the whole panel is redrawn
            assert rects == [Rect(0, 0, panel.height, panel.width)]
            places = {i: (panel.item_rect(i), panel.centre(i)) for i in members}
        else:
            assert rects != [Rect(0, 0, panel.height, panel.width)], k
            assert {i: (panel.item_rect(i), panel.centre(i)) for i in members} == places, k
        for i in range(0, 200, 3):
            assert (panel.item_rect(i) is not None) == (i in members), (k, i)


def test_the_commit_shows_in_the_old_tree_then_the_new_one_starts_from_it() -> None:
    panel = panel_of(PLAN, 400, 300)
    start = decision_starts(PLAN)[0]
    for event in PLAN[:start]:
        panel.observe(event)
    panel.draw()
    committed = PLAN[start - 1].id
    assert committed is not None
    assert panel.decision == 0
    rect = panel.item_rect(committed)
    assert rect is not None
    box = panel.pixels[rect.top : rect.bottom, max(0, rect.left) : rect.right]
    assert {PLAYED, PATH} <= colours_in(box)  # played, and the current node
    header = panel.pixels[:20].copy()
    panel.observe(PLAN[start])
    panel.draw()
    assert panel.decision == 1
    assert panel.census.root == committed
    assert not np.array_equal(panel.pixels[:20], header)  # "move 2 of 4"
    root = panel.item_rect(committed)
    assert root is not None
    box = panel.pixels[root.top : root.bottom, max(0, root.left) : root.right]
    assert PLAYED in colours_in(box)
    bound = max(e.id for e in PLAN[:start] if e.id is not None) + 1
    kept = [i for i in panel.census.ids.tolist()[1:] if i < bound]
    assert kept  # the subtree kept from decision 0 is there from the start
    for i in kept:
        rect = panel.item_rect(i)
        assert rect is not None
        assert colours_in(panel.pixels[rect.top : rect.bottom, max(0, rect.left) : rect.right]) - {
            BACKGROUND,
            EDGE,
        }


def test_plan_mode_drawing_is_incremental_and_deterministic() -> None:
    shots = []
    for _ in range(2):
        panel = panel_of(PLAN, 300, 240)
        panel.draw()
        for k, event in enumerate(PLAN):
            before = panel.pixels.copy()
            panel.observe(event)
            rects = panel.draw()
            outside = (panel.pixels != before).any(axis=2)
            for rect in rects:
                outside[max(0, rect.top) : rect.bottom, max(0, rect.left) : rect.right] = False
            assert not outside.any(), k
            if k % 37 == 0 or k == len(PLAN) - 1:
                fresh = panel_of(PLAN, 300, 240)
                for earlier in PLAN[: k + 1]:
                    fresh.observe(earlier)
                fresh.draw()
                assert np.array_equal(panel.pixels, fresh.pixels), k
        assert colours_in(panel.pixels) <= set(COLORS)
        shots.append(panel.pixels.tobytes())
    assert shots[0] == shots[1]


def test_a_move_line_after_the_search_keeps_one_layout() -> None:
    replay = [*BFS, ev(K.MOVE, 0, None), ev(K.MOVE, 1, 0), ev(K.MOVE, 3, 1)]
    assert panel_of(replay).decisions == 1
    forced = TreePanel(240, 200, events_for_layout=iter(replay), decisions=True)
    assert forced.decisions == 1  # nothing is searched after the MOVEs
    unsplit = TreePanel(300, 240, events_for_layout=iter(PLAN), decisions=False)
    assert unsplit.decisions == 1


def test_the_played_line_is_always_drawn() -> None:
    # a wide first level and a deep solution below its last node, replayed by MOVEs
    events = [ev(K.ENTER, 0, None)]
    events += [ev(K.FRONTIER, i, 0) for i in range(1, 200)]
    line = [0, 199]
    for _ in range(10):
        nid = len(events)
        events.append(ev(K.FRONTIER, nid, line[-1]))
        line.append(nid)
    events += [ev(K.MOVE, i, None if i == 0 else line[k - 1]) for k, i in enumerate(line)]
    layout = panel_of(events, 120, 300).layout
    assert layout.aggregates
    for i in line:
        v = layout.rep[int(np.searchsorted(layout.census.ids, i))]
        assert layout.kind[v] == ITEM_NODE
        assert layout.node[v] == i


# -- wide fan-outs --------------------------------------------------------------------------


def test_a_wide_fan_out_keeps_the_most_visited_children_big() -> None:
    rng = random.Random(8)
    events = [ev(K.SELECT, 0, None)]
    share = {}
    for child in range(1, 151):  # 150 children; visits from 1 to 40
        events.append(ev(K.EXPAND, child, 0))
        share[child] = rng.randint(1, 40) if child % 3 else 1
        events += [ev(K.BACKUP, child, 0, rng.random())] * share[child]
    panel = panel_of(events, 600, 400)
    layout = panel.layout
    drawn = [layout.node[v] for v in layout.children[0] if layout.kind[v] == ITEM_NODE]
    assert 8 <= len(drawn) < 150
    heaviest = sorted(share, key=lambda c: (-share[c], c))[: len(drawn)]
    assert sorted(drawn) == sorted(heaviest)
    assert panel.box_size[1] >= 14  # bars at least 10 px wide inside their box
    assert sum(layout.hidden) + layout.drawn_nodes == 151
    for event in events:
        panel.observe(event)
    panel.draw()
    aggregate = layout.children[0][-1]
    assert layout.kind[aggregate] == ITEM_AGGREGATE
    assert panel.item_rect(1) is not None


def test_light_nodes_fill_the_columns_after_the_heavier_ones() -> None:
    small = list(mcts_events(random.Random(0), 12))
    assert panel_of(small, 400, 300).layout.aggregates == 0  # every node has room
    wide = [ev(K.SELECT, 0, None)]
    for child in range(1, 120):
        wide += [ev(K.EXPAND, child, 0), ev(K.BACKUP, child, 0, 1.0)]
    wide += [ev(K.BACKUP, 7, 0, 1.0)]  # node 7 has 2 visits, every other child 1
    layout = panel_of(wide, 400, 300).layout
    # 392 px at 40 px a column (room for "+1.2k" under a bar): 9 columns, the last two for
    # the "+k" of the other 112 nodes and its lane (where a folded node being searched shows)
    assert layout.columns == 9
    drawn = [layout.node[v] for v in layout.children[0] if layout.kind[v] == ITEM_NODE]
    assert drawn == [7, 1, 2, 3, 4, 5, 6]
    assert layout.hidden[layout.children[0][-1]] == 119 - 7
    # asked for, light nodes are left to the "+k" item where the tree does not fit
    only = TreePanel(400, 300, events_for_layout=iter(wide), min_visits=2).layout
    assert [only.node[v] for v in only.children[0] if only.kind[v] == ITEM_NODE] == [7]


# -- labels ---------------------------------------------------------------------------------


def test_labels_are_written_under_their_nodes_in_palette_colours() -> None:
    calls: list[object] = []

    def name(node: object) -> str:
        calls.append(node)
        return str(node).upper()

    panel = panel_of(BACKTRACKING, 400, 320, label=name)
    assert panel.labelled
    panel.draw()
    rect = panel.item_rect(1)
    assert rect is not None
    row = panel.centre(1)[0] + panel.box_size[0] // 2  # type: ignore[index]
    under = panel.pixels[row : rect.bottom, max(0, rect.left) : rect.right]
    assert colours_in(under) == {BACKGROUND}
    for event in BACKTRACKING[:2]:  # node 1 appears and is the current node: yellow text
        panel.observe(event)
    panel.draw()
    under = panel.pixels[row : rect.bottom, max(0, rect.left) : rect.right]
    assert PATH in colours_in(under)
    for event in BACKTRACKING[2:]:
        panel.observe(event)
    panel.draw()
    under = panel.pixels[row : rect.bottom, max(0, rect.left) : rect.right]
    assert TEXT in colours_in(under)
    assert colours_in(panel.pixels) <= set(COLORS)
    assert sorted(map(str, calls)) == sorted(f"n{i}" for i in PARENTS)  # once per node


def test_long_labels_are_cut_to_their_column() -> None:
    long = panel_of(BACKTRACKING, 400, 320, label=lambda node: "Monte Carlo " * 9)
    short = panel_of(BACKTRACKING, 400, 320, label=lambda node: "M")
    for panel in (long, short):
        panel.draw()
        before = panel.pixels.copy()
        for event in BACKTRACKING[:2]:
            panel.observe(event)
        panel.draw()
        changed = np.argwhere((panel.pixels != before).any(axis=2))
        own, root = panel.item_rect(1), panel.item_rect(0)
        assert own is not None
        assert root is not None
        for r, c in changed.tolist():
            assert inside(own, r, c) or inside(root, r, c) or root.bottom <= r < own.top
    # too long for its column: its last whole words that fit, after "…" (never a word cut)
    assert long._name(long._rep[1]) == "…Monte Carlo "
    rect = long.item_rect(1)
    assert rect is not None
    below = long.centre(1)[0] + long.box_size[0] // 2  # type: ignore[index]
    text = long.pixels[below : rect.bottom, rect.left : rect.right]
    inked = np.zeros(text.shape[:2], dtype=bool)
    for shade in ramp(PATH, BACKGROUND)[1:]:  # current: yellow, anti-aliased on the panel
        inked |= (text == shade).all(axis=2)
    columns = np.flatnonzero(inked.any(axis=0))
    width = rect.right - rect.left
    assert columns[0] >= 2  # inside the column, a gap each side
    assert columns[-1] < width - 2
    drawn = long._text.width("…Monte Carlo")  # the trailing space has no ink
    assert abs(columns[-1] + 1 - columns[0] - drawn) <= 2


def test_no_labels_where_there_is_no_room_or_a_picture() -> None:
    name: Label = str
    assert not panel_of(random_tree_events(random.Random(1), 300), 300, 240, label=name).labelled
    assert not panel_of(BACKTRACKING, 400, 320, thumbnail=board, label=name).labelled
    assert not panel_of(BACKTRACKING, 400, 320).labelled


def test_labels_follow_the_decisions() -> None:
    panel = panel_of(PLAN, 600, 400, label=lambda node: f"<{node}>")
    start = decision_starts(PLAN)[0]
    for event in PLAN[: start + 1]:
        panel.observe(event)
    panel.draw()
    fresh = panel_of(PLAN, 600, 400, label=lambda node: f"<{node}>")
    for event in PLAN[: start + 1]:
        fresh.observe(event)
    fresh.draw()
    assert np.array_equal(panel.pixels, fresh.pixels)


# -- marks that do not rely on colour alone, text a reader can read ------------------------

MINIMAX = [
    ev(K.ENTER, 0, None),
    ev(K.LEAF, 1, 0, 1.0),
    ev(K.BACKTRACK, 0, None, 1.0),
    ev(K.ENTER, 2, 0),
    ev(K.LEAF, 3, 2, 0.0),
    ev(K.BACKTRACK, 2, 0, 0.0),
    ev(K.PRUNE, 2, 0, 2.0),
    ev(K.BACKTRACK, 0, None, 1.0),
]


def runs(flags: np.ndarray) -> list[int]:
    """Lengths of the runs of True in a 1-D boolean array."""
    padded = np.concatenate([[False], flags, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return (edges[1::2] - edges[::2]).tolist()


def test_two_player_values_take_the_players_colours_and_name_the_ends() -> None:
    panel = TreePanel(300, 240, events_for_layout=iter(MINIMAX), outcomes=("O wins", "X wins"))
    for event in MINIMAX:
        panel.observe(event)
    panel.draw()
    assert colour(panel, *panel.centre(1)) == PLAYER_COLORS[0]  # type: ignore[misc]
    assert colour(panel, *panel.centre(3)) == PLAYER_COLORS[1]  # type: ignore[misc]
    assert panel.scale_ends == ("O wins", "X wins")
    # no value yet is darker than a visited node's grey: a draw is the scale's light grey
    base = (set(BASE_COLORS) - {VISITED}) | {NO_VALUE}
    assert set(panel.colors) == base | set(DIVERGING) | set(INK_BLENDS)
    one_player = panel_of(MINIMAX, 300, 240)
    assert set(one_player.colors) == set(BASE_COLORS) | set(SEQUENTIAL) | set(INK_BLENDS)
    for legend in (panel.legend, one_player.legend):
        assert not any("player" in text for text in legend)


def test_pruned_edges_are_dashed_and_dropped_crosses_thin() -> None:
    panel = panel_of(MINIMAX, 300, 240)
    for event in MINIMAX:
        panel.observe(event)
    panel.draw()
    marker = panel.layout.marker_of[panel.layout.rep[2]]
    x = panel.layout.x[marker]
    column = panel.pixels[:, x]
    dashes = runs((column == PRUNED).all(axis=1))
    assert dashes.count(DASH) >= 2, dashes  # a solid edge would be one long run
    rect = panel.marker_rect(2)
    assert rect is not None
    cross_rows = (panel.pixels[rect.top : rect.bottom, rect.left : rect.right] == PRUNED).all(
        axis=2
    )
    assert max(max(runs(row)) for row in cross_rows if row.any()) >= 4  # bold: 4 px strokes


def test_the_edge_down_to_a_played_node_is_heavy() -> None:
    events = [
        ev(K.ENTER, 0, None),
        ev(K.LEAF, 1, 0),
        ev(K.BACKTRACK, 0, None),
        ev(K.LEAF, 2, 0),
        ev(K.BACKTRACK, 0, None),
        ev(K.MOVE, 0, None),
        ev(K.MOVE, 2, 0),
        ev(K.SELECT, 0, None),  # the path back at the root: edges in their own colours
    ]
    panel = panel_of(events, 300, 240)
    for event in events:
        panel.observe(event)
    panel.draw()
    for node, heavy in ((2, True), (1, False)):
        rect = panel.item_rect(node)
        assert rect is not None
        x = panel.layout.x[panel.layout.rep[node]]
        row = panel.pixels[rect.top + 1, x - 2 : x + 2]
        wanted = [PLAYED] * 4 if heavy else [BACKGROUND, BACKGROUND, EDGE, EDGE]  # 4 px, 2 px
        assert [tuple(p) for p in row.tolist()] == wanted, node
    assert "played" in panel.legend


@pytest.mark.parametrize("width", [240, 320, 400, 720, 1100])
def test_every_text_is_at_least_12_px(width: int) -> None:
    for events in (BACKTRACKING, MINIMAX, list(mcts_events(random.Random(1), 40))):
        panel = panel_of(events, width, 240)
        assert min(panel.text_sizes) >= MIN_TEXT
        assert min(panel.text_heights) >= MIN_TEXT


def test_pictures_are_explained_by_their_frames() -> None:
    pictures = panel_of(BACKTRACKING, 400, 300, thumbnail=board)
    assert pictures.thumbnails
    assert pictures.legend == ("current", "undone", "visited")  # a picture has no leaf shape
    dots = panel_of(BACKTRACKING, 400, 300)
    assert dots.legend == ("current", "undone", "visited", "leaf / dead end")


def test_the_current_decision_is_a_taller_mark_in_the_header() -> None:
    events = list(plan_events(random.Random(2), 3, 12))
    panel = panel_of(events, 400, 300)
    starts = decision_starts(events)
    for event in events[: starts[1] + 1]:
        panel.observe(event)
    panel.draw()
    assert panel.decision == 2
    header = panel.pixels[: panel.height // 8]

    def tallest(color: tuple[int, int, int]) -> int:
        return max(
            max(runs((header[:, c] == color).all(axis=1)), default=0) for c in range(panel.width)
        )

    assert tallest(PLAYED) == 6  # decisions played: small squares
    assert tallest(PATH) == 12  # the current one: twice as tall


def test_the_header_names_the_position_on_the_board() -> None:
    """Each decision's header names the position it decides from, as the one before the
    move (the board may show a deeper node); after the last move, which no decision
    follows, it names the position that move left on the board, as the one after it."""
    events = list(plan_events(random.Random(2), 3, 12))
    panel = panel_of(events, 400, 300, label=lambda node: f"position {node}")
    moves = [e for e in events if e.kind is K.MOVE]
    for event in events:
        panel.observe(event)
        if event.kind is K.MOVE and event is not moves[-1]:
            before = panel._root_name
            # the decision this MOVE ends, by its number (no decision here is forced)
            assert before.startswith(f"root, before move {panel.decision + 1}: position ")
    panel.draw()
    assert panel.decision == panel.decisions - 1
    assert panel._root_name == f"after move {panel.decisions}: position {moves[-1].node}"
    assert before != panel._root_name
