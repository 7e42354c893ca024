"""The push-style writer: any loop becomes a video, one :meth:`VideoWriter.observe` a frame.

A loop's length is unknown until it ends, so the writer buffers what it observes and
renders when the ``with`` block ends, through the same pipeline as a scene
(:func:`~searchvid.render.pipeline.render`): ``every``, ``duration`` and ``max_frames``
thin the frames there, the tree panel is laid out from the whole run, and the last frame
knows it is the last.

What is kept of each observation: its board as the view drew it *at the call* (so a loop
may change its node in place afterwards), as the bytes of an ``int16`` tile grid, shared
with the observation before when equal; its depth, value and tree ids in compact arrays;
its caption and status fields. Memory is bounded by :data:`GRID_BUDGET`: when the boards
kept pass it, every other kept board is dropped (the stride doubles) and the video is then
thinned by a multiple of that stride, so each frame it shows still has its own board.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from searchvid.errors import OptionError, RunError, UsageError, UserCodeError
from searchvid.render.job import RenderJob, RenderResult
from searchvid.render.output import OutputKind, check_target
from searchvid.render.settings import VideoOptions
from searchvid.render.shots import FINISHED, ReplayView, Shots
from searchvid.render.view import CheckedView, TileGrid, View
from searchvid.render.voice import Voice
from searchvid.search.events import Event, EventKind
from searchvid.search.status import Field
from searchvid.usercode import blame

StatusValue = float | int | str | bool | None | Field
"""A value of ``observe(status=...)``: shown as ``name value``; a :class:`Field` as it is."""


class VideoWriter:
    """Turns any loop into a video: call :meth:`observe` with each state it visits.

    The push-style counterpart of a scene's render. Use it as a context manager; each
    :meth:`observe` draws its node's board at once (the view is asked then, so the loop may
    change the node afterwards) and keeps it; the video is rendered when the block ends
    without an error, through a scene's pipeline, and :attr:`result` then holds the
    :class:`RenderResult`::

        with VideoWriter("walk.mp4", MyDomain(options).view(), fps=12, every=2) as video:
            for node in my_search(root):
                video.observe(node, caption="tried the left branch")
        print(video.result)

    Thinning: the loop's length is only known at its end, so every observation is kept and
    the frames are chosen then, as a scene chooses them: every ``every``-th observation, the
    first and the last always; ``duration`` raises ``every`` until the video lasts about that
    long (a new best, an observation whose ``value`` beats all before it, is always kept,
    and boards that jump are held as in a scene); ``max_frames`` raises it until the frames
    fit. The writer never cuts the loop short: its end is always the last frame, whose strip
    says ``done``. Memory is bounded: see :data:`GRID_BUDGET` (past it, every other board
    kept is dropped and ``every`` becomes a multiple of the boards' stride).

    Tree panel (``tree=True``): each node is a tree node named by its ``id`` (the ``id=``
    of :meth:`observe`, else the node itself, which must then be hashable) and placed under
    its ``parent`` (an id observed before; None only for the first node, the root). A node
    observed again is a step back to it. Its parent is the one given when first observed.

    Args:
        out: ``NAME.mp4``, ``NAME.gif``, ``NAME.html`` (a player) or a folder of PNG frames.
        view: Draws the nodes (a domain's ``view()``, or a :class:`~searchvid.GridView`).
        fps: Frames per second, 1 to 120.
        tile_size: Pixels per tile edge (even, 8 to 512).
        hud: Draw the status strip (title, phase, step, depth, the fields, value and best).
        title: The strip's first line.
        algorithm: The strip's name for the loop ("backtracking": the phase reads
            ``backtracking searching``, then ``done`` on the last frame).
        hold_last: Seconds the last frame stays on screen.
        quality: MP4 encoder preset: ``"draft"``, ``"default"`` or ``"final"``.
        every: Keep every k-th observation (k >= 1).
        duration: Fit the video into about this many seconds (0: off).
        max_frames: At most this many frames (>= 2: the first and the last); the
            observations are thinned to fit, never cut.
        tree: Draw the search tree beside the board, from the ids and parents observed.

    Raises:
        UsageError: A bad setting (naming it and what is allowed) or output path.
    """

    def __init__(
        self,
        out: str | os.PathLike[str],
        view: View,
        *,
        fps: int = 12,
        tile_size: int = 100,
        hud: bool = True,
        title: str = "",
        algorithm: str = "",
        hold_last: float = 2.0,
        quality: str = "default",
        every: int = 1,
        duration: float = 0.0,
        max_frames: int = 1000,
        tree: bool = False,
    ) -> None:
        from searchvid.options import build_options

        settings: dict[str, Any] = {"fps": fps, "tile_size": tile_size, "hud": hud}
        settings |= {"hold_last": hold_last, "quality": quality, "every": every}
        settings |= {"duration": duration, "max_frames": max_frames, "tree": tree}
        # no opening or closing card: a loop of the user's has no problem statement or
        # settings for them to state; its last frame says "done" instead
        settings |= {"opening": 0.0, "closing": 0.0}
        try:
            video = build_options(VideoOptions, settings)
        except OptionError as error:
            raise UsageError(f"VideoWriter: {error}") from None
        if video.max_frames < 2:
            raise UsageError(
                f"VideoWriter: max_frames: must be an integer >= 2 (the first and the last "
                f"observation), got {video.max_frames}"
            )
        for name, text in (("title", title), ("algorithm", algorithm)):
            if not isinstance(text, str):
                raise UsageError(f"VideoWriter: {name}: must be a string, got {text!r}")
        self.path = Path(out)
        if not os.fspath(self.path).strip():
            raise UsageError("VideoWriter: the output path is empty")
        if check_target(self.path) is OutputKind.VTT:  # fails before any work
            raise UsageError(
                f"{self.path}: captions (.vtt) come from a scene's render, not from frames"
            )
        self._view = _checked(view)
        self._user_view = view
        self._video = video
        self._title = title
        self._algorithm = algorithm
        self._shots = Shots(self._view.shape)
        self._ids: dict[Hashable, int] = {}  # the user's node ids -> tree ids, from 0
        self._entered = False
        self._closed = False
        self._start = 0.0
        self.result: RenderResult | None = None
        """The render's result once the ``with`` block has ended without an error."""

    @property
    def observed(self) -> int:
        """Nodes observed so far (each a candidate frame)."""
        return len(self._shots)

    @property
    def frames(self) -> int:
        """The same as :attr:`observed` (the video's own count is ``result.frames``)."""
        return len(self._shots)

    def __enter__(self) -> VideoWriter:
        if self._entered:
            raise RuntimeError("a VideoWriter writes one video; make a new one")
        self._entered = True
        self._start = time.perf_counter()
        return self

    def observe(
        self,
        node: Any,
        *,
        depth: int | None = None,
        value: float | None = None,
        caption: str | None = None,
        status: Mapping[str, StatusValue] | None = None,
        parent: Hashable | None = None,
        id: Hashable | None = None,  # the name the tree's events use
    ) -> None:
        """Add one frame showing ``node``.

        Args:
            node: A state the view can draw (drawn now: it may change after the call).
            depth: Shown in the status strip (None: 0).
            value: The node's value, shown with the best value so far (None: none); a value
                above every one before is a new best (kept and noted when thinning).
            caption: The frame's caption line (None: the strip's own words, such as
                ``backtrack to depth 2``, once any observation gives a caption).
            status: Named fields for the strip, in order: ``{"queens": 5}`` shows
                ``queens 5`` (values: numbers, short texts, None, or a :class:`Field`).
            parent: The id of the node's parent in the tree (``tree=True``): an id
                observed before; None for the root.
            id: The node's own id in the tree (None: the node itself).

        Raises:
            RuntimeError: Called outside the ``with`` block.
            ValueError: A bad ``depth``, ``value``, ``caption``, ``status``, ``parent`` or
                ``id``, naming it and what is allowed.
            UserCodeError: The view failed on ``node`` or drew a bad grid (naming its line).
        """
        if not self._entered or self._closed:
            raise RuntimeError("observe() is called inside `with VideoWriter(...) as video:`")
        shown_depth = _depth(depth)
        shown_value = _value(value)
        if caption is not None and not isinstance(caption, str):
            raise ValueError(f"observe(): caption must be a string or None, got {caption!r}")
        fields = _fields(status)
        tree_id, tree_parent, again = self._tree(node, id, parent)
        index = len(self._shots)
        kind = EventKind.BACKTRACK if again else EventKind.ENTER
        event = Event(kind, node, shown_depth, index, shown_value, tree_id, tree_parent)
        grid = self._grid(event)
        self._shots.add(
            grid,
            kind=kind,
            depth=shown_depth,
            value=shown_value,
            tree=(tree_id, tree_parent),
            caption=" ".join(caption.split()) if caption else None,
            fields=fields,
        )

    def _tree(
        self, node: Any, id: Hashable | None, parent: Hashable | None
    ) -> tuple[int | None, int | None, bool]:
        """The tree ids of an observation (None without ``tree``, ``id`` or ``parent``) and
        whether the node was observed before."""
        if not (self._video.tree or id is not None or parent is not None):
            return None, None, False
        key = node if id is None else id
        try:
            known = self._ids.get(key)
        except TypeError:
            what = "id" if id is not None else "node (no id= given)"
            raise ValueError(
                f"observe(): the tree names a node by a hashable id; the {what} is "
                f"{type(key).__name__}, unhashable: give id=, e.g. a tuple"
            ) from None
        if known is not None:
            up = self._shots.parent_of(known)
            return known, up, True
        if parent is None:
            if self._ids:
                raise ValueError(
                    "observe(): parent: only the first node (the root) has parent None; "
                    "give the id of this node's parent"
                )
            up = None
        else:
            try:
                up = self._ids.get(parent)
            except TypeError:
                raise ValueError(
                    f"observe(): parent must be a hashable id, got {type(parent).__name__}"
                ) from None
            if up is None:
                raise ValueError(
                    f"observe(): parent {_short(parent)} was never observed; observe a node "
                    "before its children"
                )
        made = len(self._ids)
        self._ids[key] = made
        self._shots.remember_parent(made, up)
        return made, up, False

    def _grid(self, event: Event) -> TileGrid:
        """The board of ``event``'s node as the view draws it now (its history fed first)."""
        try:
            observe = getattr(self._user_view, "observe", None)
            if callable(observe):  # a view that remembers what it saw (a tree view)
                observe(event)
            return self._view.grid(event.node)
        except UserCodeError:
            raise
        except Exception as error:  # the user's view: name its line
            found = blame(error)
            if found is None:
                raise
            raise found from error

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: object,
    ) -> None:
        if self._closed:
            return
        self._closed = True
        if exc_type is not None:
            return  # nothing was written: the output appears only after a clean block
        if not self._shots:
            raise RunError(f"no frames: observe() was never called, so {self.path} was not written")
        from searchvid.render.pipeline import render

        shots = self._shots
        video = self._paced()
        job = _WriterJob(
            view=ReplayView(self._view, shots),
            video=video,
            title=self._title,
            values=shots.any_value,
            panel=_panel(video) if video.tree else None,
            label=shots.label,
            algorithm=self._algorithm,
            caption_of=shots.caption_of,
            expected=shots.expected(self._algorithm),
        )
        done = render(shots.source, job, self.path, title=self._title)
        self.result = RenderResult(
            frames=done.frames,
            encoded_frames=done.encoded_frames,
            events=len(shots),
            seconds=time.perf_counter() - self._start,
            path=self.path,
        )

    def _paced(self) -> VideoOptions:
        """The video options of the render: ``every`` chosen for ``duration`` and
        ``max_frames`` (a multiple of the boards' stride), never cut."""
        from searchvid.render.jumppace import paced_for_jumps
        from searchvid.render.policy import pace

        shots, video = self._shots, self._video
        captions = shots.any_caption
        video = replace(video, captions=captions, max_events=shots.events + 1)
        stride = shots.stride
        if video.duration:
            video = pace([shots.source()], video)
            if stride == 1:  # dead stretches and jumps are measured on every board
                least = self._video.every
                replay = partial(ReplayView, self._view, shots)
                video = paced_for_jumps([shots.source], replay, video, least_every=least)
            every = video.every  # pacing fitted max_frames too
        else:
            every = _fitting_every(len(shots), video.max_frames, video.every)
        every = stride * -(-every // stride)
        # frames are counted here, so the render never cuts (a cut would say "stopped")
        return replace(video, every=every, max_frames=len(shots) + 2)


def _fitting_every(count: int, limit: int, every: int) -> int:
    """The smallest ``every`` (at least ``every``) whose frames of ``count`` observations,
    the first, every ``every``-th and the last, are at most ``limit``."""
    if count <= limit:
        return every
    every = max(every, -(-count // limit))
    while -(-count // every) + ((count - 1) % every != 0) > limit:
        every += 1
    return every


@dataclass(frozen=True)
class _WriterJob(RenderJob):
    """A writer's render job: its strip gives each frame its own caption and ends as
    :data:`FINISHED`."""

    caption_of: Callable[[Event], str | None] | None = None
    expected: tuple[str, ...] = ()

    def voice(self) -> Voice:
        voice = super().voice()
        return replace(voice, caption=self.caption_of, finished=FINISHED, expected=self.expected)


def _panel(video: VideoOptions) -> Callable[[int, int, Any], Any]:
    """The tree panel's factory (as a scene's, without labels or pictures of boards)."""
    from searchvid.render.treepanel import TreePanel

    def make(width: int, height: int, events: Any) -> Any:
        return TreePanel(width, height, events_for_layout=events, undo_mark=video.undo_mark)

    return make


def _checked(view: Any) -> CheckedView:
    """``view``, its grids checked; a usage error when it is not a view."""
    missing = [name for name in ("tileset", "shape", "grid") if not hasattr(view, name)]
    if missing:
        raise UsageError(
            f"VideoWriter: view must be a view (tileset, shape and grid(node)), got "
            f"{type(view).__name__} without {', '.join(missing)}"
        )
    return CheckedView(view, source=view, label=repr)


def _depth(depth: object) -> int:
    if depth is None:
        return 0
    if isinstance(depth, bool) or not isinstance(depth, int | np.integer) or depth < 0:
        raise ValueError(f"observe(): depth must be an integer >= 0 or None, got {depth!r}")
    return int(depth)


def _value(value: object) -> float | None:
    if value is None:
        return None
    ok = isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool)
    if not ok or not math.isfinite(float(value)):  # type: ignore[arg-type]
        raise ValueError(f"observe(): value must be a finite number or None, got {value!r}")
    return float(value)  # type: ignore[arg-type]


def _fields(status: object) -> tuple[Field, ...]:
    if status is None:
        return ()
    if not isinstance(status, Mapping):
        raise ValueError(
            f"observe(): status must be a mapping of names to values, e.g. {{'queens': 5}}, "
            f"got {type(status).__name__}"
        )
    fields: list[Field] = []
    item: tuple[object, object]
    for item in status.items():
        name, value = item
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"observe(): status: names must be non-empty strings, got {name!r}")
        if isinstance(value, Field):
            fields.append(value)
        elif value is None or isinstance(value, str | bool | int | float):
            if isinstance(value, float) and math.isnan(value):
                value = None
            fields.append(Field(name, value))
        elif isinstance(value, np.integer | np.floating):
            fields.append(Field(name, value.item()))
        else:
            raise ValueError(
                f"observe(): status[{name!r}] must be a number, a string, None or a Field, "
                f"got {type(value).__name__}"
            )
    return tuple(fields)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
