"""What a :class:`~searchvid.render.writer.VideoWriter` keeps of its observations, and their
replay as a scene's event stream and view: boards as ``int16`` tile-grid bytes (shared with
the observation before when equal), depths, values and tree ids in compact arrays, captions
and status fields, within :data:`GRID_BUDGET` bytes of boards."""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from searchvid.errors import RunError
from searchvid.render.view import CheckedView, TileGrid, TileSet
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field, format_number

GRID_BUDGET = 64 * 1024 * 1024
"""Bytes of boards a :class:`~searchvid.render.writer.VideoWriter` keeps before it drops every
other one."""

FINISHED = "done"
"""The phase of a writer's last frame: the loop ended (the writer cannot tell how)."""

NO_VALUE = math.nan
"""A value array's "None"."""

NO_ID = -1
"""An id array's "None"."""


class Shot:
    """The node of a replayed observation: its index (the board is kept by index)."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __repr__(self) -> str:
        return f"observation {self.index}"


class Shots:
    """What a writer keeps of its observations (see the module docstring)."""

    def __init__(self, shape: tuple[int, int]) -> None:
        self.shape = shape
        self.kinds = bytearray()  # 0: ENTER, 1: BACKTRACK
        self.depths = array("q")
        self.values = array("d")
        self.ids = array("q")
        self.parents = array("q")
        self.grids: list[bytes | None] = []
        self.words: dict[int, tuple[str | None, tuple[Field, ...]]] = {}  # caption, fields
        self.improving: set[int] = set()  # new bests whose board is kept
        self.tree_parents = array("q")  # by tree id
        self.stride = 1
        self.kept_bytes = 0
        self._anchor: bytes | None = None  # the latest board kept before the last one
        self.best: float | None = None
        self.any_value = False
        self.any_caption = False
        self.deepest = 0
        self.widest: dict[str, str] = {}  # the longest text of each status field
        self.widest_value = "0.000"
        self.events = 0  # events of the replay: observations and their IMPROVEs

    def __len__(self) -> int:
        return len(self.grids)

    def add(
        self,
        grid: TileGrid,
        *,
        kind: EventKind,
        depth: int,
        value: float | None,
        tree: tuple[int | None, int | None],
        caption: str | None,
        fields: tuple[Field, ...],
    ) -> None:
        index = len(self.grids)
        data = np.ascontiguousarray(grid, dtype=np.int16).tobytes()
        latest = self.grids[index - 1] if index else None
        if latest is not None and latest == data:
            data = latest  # one board for a run of equal ones
        else:
            self.kept_bytes += len(data)
        if latest is not None:  # the latest board is no longer the last: kept if on stride
            if self._kept(index - 1):
                self._anchor = latest
            else:
                self.grids[index - 1] = None
                self.words.pop(index - 1, None)
                if latest is not self._anchor and latest is not data:
                    self.kept_bytes -= len(latest)
        self.grids.append(data)
        self.kinds.append(kind is EventKind.BACKTRACK)
        self.depths.append(depth)
        self.values.append(NO_VALUE if value is None else value)
        self.ids.append(NO_ID if tree[0] is None else tree[0])
        self.parents.append(NO_ID if tree[1] is None else tree[1])
        self.events += 1
        self.deepest = max(self.deepest, depth)
        for field in fields:
            text = field.text()
            if len(text) > len(self.widest.get(field.name, "")):
                self.widest[field.name] = text
        if caption or fields:
            self.words[index] = (caption, fields)
            self.any_caption = self.any_caption or bool(caption)
        if value is not None:
            self.any_value = True
            shown = format_number(value)
            if len(shown) > len(self.widest_value):
                self.widest_value = shown
            if self.best is None or value > self.best:
                self.best = value
                self.events += 1
                if len(self.improving) < len(self.grids) // self.stride + 64:  # bounded too
                    self.improving.add(index)
        while self.kept_bytes > GRID_BUDGET and self.stride < len(self.grids):
            self._thin()

    def expected(self, algorithm: str) -> tuple[str, ...]:
        """Status texts as long as the longest the strip will show (to size it)."""
        searching = f"{algorithm} searching" if algorithm else "searching"
        texts = [max(searching, FINISHED, key=len)]
        texts += [f"step {format_number(len(self) - 1)}", f"depth {format_number(self.deepest)}"]
        texts += self.widest.values()
        if self.any_value:
            texts += [f"value {self.widest_value}", f"best {self.widest_value}"]
        return tuple(texts)

    def _kept(self, index: int) -> bool:
        return index % self.stride == 0 or index in self.improving

    def _thin(self) -> None:
        """Double the stride: drop the boards off it (new bests and the latest stay, new
        bests only while they are not more than the boards on the stride)."""
        self.stride *= 2
        last = len(self.grids) - 1
        if len(self.improving) > last // self.stride + 64:
            self.improving = {i for i in self.improving if i % self.stride == 0}
        for index in range(last):
            if self.grids[index] is not None and not self._kept(index):
                self.grids[index] = None
                self.words.pop(index, None)
        kept = {id(data): len(data) for data in self.grids if data is not None}
        self.kept_bytes = sum(kept.values())
        self._anchor = next((d for d in reversed(self.grids[:last]) if d is not None), None)

    def remember_parent(self, tree_id: int, parent: int | None) -> None:
        assert tree_id == len(self.tree_parents)
        self.tree_parents.append(NO_ID if parent is None else parent)

    def parent_of(self, tree_id: int) -> int | None:
        parent = self.tree_parents[tree_id]
        return None if parent == NO_ID else parent

    def grid(self, shot: Shot) -> TileGrid:
        data = self.grids[shot.index]
        if data is None:  # the pacing chose a multiple of the stride: never reached
            raise RunError(f"internal error: observation {shot.index}'s board was not kept")
        grid: TileGrid = np.frombuffer(data, dtype=np.int16).reshape(self.shape)
        return grid

    @property
    def source(self) -> ShotSource:
        """The observations as a replayable event source."""
        return ShotSource(self)

    def caption_of(self, event: Event) -> str | None:
        node = event.node
        words = self.words.get(node.index) if isinstance(node, Shot) else None
        return words[0] if words is not None else None

    def fields_of(self, event: Event) -> Sequence[Field]:
        node = event.node
        words = self.words.get(node.index) if isinstance(node, Shot) else None
        return words[1] if words is not None else ()

    def label(self, node: Any) -> str:
        caption = self.caption_of(Event(EventKind.ENTER, node, 0, 0))
        return caption or repr(node)


class ShotSource:
    """The observations as a scene's replayable event source: each call a fresh stream.

    No weak references (``__slots__``): a tree panel's first pass then does not record the
    events (:mod:`searchvid.render.treereplay`), which the writer keeps already."""

    __slots__ = ("_shots",)

    def __init__(self, shots: Shots) -> None:
        self._shots = shots

    def __call__(self) -> ReplayEvents:
        return ReplayEvents(self._shots)


class ReplayEvents(Iterator[Event]):
    """The observations as one event stream, with the fields of each for the strip
    (``status_of``)."""

    def __init__(self, shots: Shots) -> None:
        self._events = shot_events(shots)
        self.status_of = shots.fields_of

    def __next__(self) -> Event:
        return next(self._events)


def shot_events(shots: Shots) -> Iterator[Event]:
    """Each observation's event, and an ``IMPROVE`` after each new best."""
    best: float | None = None
    kinds = (EventKind.ENTER, EventKind.BACKTRACK)
    for index in range(len(shots)):
        node = Shot(index)
        value: float | None = shots.values[index]
        value = None if value is None or math.isnan(value) else value
        tree_id, parent = shots.ids[index], shots.parents[index]
        yield Event(
            kinds[shots.kinds[index]],
            node,
            shots.depths[index],
            index,
            value,
            None if tree_id == NO_ID else tree_id,
            None if parent == NO_ID else parent,
        )
        if value is not None and (best is None or value > best):
            best = value
            # a new best: the same node when its board is kept (a moment to keep and hold),
            # else another one (the best so far still shown, nothing kept)
            shown = node if index in shots.improving else Shot(index)
            yield Event(EventKind.IMPROVE, shown, shots.depths[index], index, value)


class ReplayView:
    """The view of a replay: each observation's board as the user's view drew it."""

    def __init__(self, view: CheckedView, shots: Shots) -> None:
        self._view = view
        self._shots = shots
        marks = getattr(view, "marks", None)
        if marks is not None:
            self.marks = marks
        label_size = getattr(view, "label_size", None)
        if callable(label_size):
            self.label_size = label_size

    @property
    def tileset(self) -> TileSet:
        """The user's view's tiles."""
        return self._view.tileset

    @property
    def shape(self) -> tuple[int, int]:
        """The user's view's ``(rows, cols)``."""
        return self._view.shape

    def grid(self, node: Shot) -> TileGrid:
        """The board kept for an observation."""
        return self._shots.grid(node)
