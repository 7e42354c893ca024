"""Scenes: a domain, a search and video settings, validated once, rendered many ways.

A scene is a TOML file (stdlib ``tomllib``) or a table built in code::

    title = "Railroad Ink: a random walk"
    seed = 7

    [domain]
    name = "railroad"          # or "mygame:MyDomain", a class by import path

    [search]
    algorithm = "random-walk"  # other keys are the algorithm's options
    restarts = 10

    [video]
    fps = 12

Every section is validated by its owner (the domain, the algorithm, :class:`VideoOptions`)
when the scene is loaded, and every problem becomes one :class:`~searchvid.errors.SceneError`
``FILE: KEY: what is wrong``. A loaded :class:`Scene` renders (:meth:`Scene.render`), draws
one frame (:meth:`Scene.preview`), traces (:meth:`Scene.trace`) and runs (:meth:`Scene.run`);
each builds a fresh search seeded with the scene's seed, so the same scene gives the same
events and pixels every time.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import re
import sys
import time
import tomllib
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.domains import DOMAINS, Domain, make_domain
from searchvid.errors import (
    CapabilityError,
    OptionError,
    SceneError,
    UsageError,
    UserCodeError,
)
from searchvid.memory import peak_rss_mb
from searchvid.options import build_options, option, option_docs
from searchvid.plugins import PluginRegistry
from searchvid.render.atlas import TileAtlas
from searchvid.render.choices import Choices, count_children
from searchvid.render.comparison import Comparison
from searchvid.render.encode import GIF_MAX_FPS, OutputKind, check_frame_size, check_target
from searchvid.render.fitting import fit_width
from searchvid.render.hud import HudText
from searchvid.render.jumppace import paced_for_jumps
from searchvid.render.pipeline import (
    RenderJob,
    RenderResult,
    render,
    render_frame,
    strip_texts,
)
from searchvid.render.policy import (
    FINAL_FRAME_LOOKAHEAD,
    Ended,
    FrameTally,
    assign_frames,
    ended_together,
    ending,
    pace,
    selects,
)
from searchvid.render.setting_words import (
    FRAMES_KEY,
    GOAL_KEY,
    describe_goal,
    describe_order,
    describe_reach,
    describe_setting,
    goal_bound,
    unset_said,
)
from searchvid.render.settings import VideoOptions
from searchvid.render.sharedrun import SharedRun
from searchvid.render.stepping import race_frames
from searchvid.render.tracks import Boards
from searchvid.render.view import CheckedView, View
from searchvid.render.window import WINDOWED, reports_window
from searchvid.resources import builtin_scenes_dir
from searchvid.search.algorithm import ALGORITHMS, Algorithm, Quiet, make_algorithm
from searchvid.search.events import Event, EventKind
from searchvid.search.memo import NodeMemo
from searchvid.search.node import Capability, capabilities_of, check_node
from searchvid.search.status import Field
from searchvid.search.values import Heuristic, ValueFunction, terminal_reward, zero_heuristic
from searchvid.usercode import (
    Location,
    checked_functions,
    describe_failure,
    is_user_class,
    method_location,
    safe_label,
    shown,
)

GENERIC_VALUES: Mapping[str, ValueFunction] = {"reward": terminal_reward}
"""Value functions every domain offers besides its own (its own win on a name clash)."""

GENERIC_HEURISTICS: Mapping[str, Heuristic] = {"zero": zero_heuristic}
"""Heuristics every domain offers besides its own."""

ProgressCallback = Callable[[int], None]
"""Called with the number of frames rendered so far."""

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_MAX_NAME = 255  # longest scene name or file name looked up
_PACED: dict[tuple[Any, ...], VideoOptions] = {}  # Scene.paced_video, by Scene._pacing_key
_PACED_KEPT = 64
_WARNED: set[str] = set()  # the warnings this process has written (_warn_once)


def _warn_once(message: str) -> None:
    """Write one line ``Warning: message`` on stderr, once per process (a session that
    previews, then renders, one scene is told once). Not an error: the render goes on. The
    worker processes of a split render (``--jobs``) each say it once, when they draw a
    panel; Dask workers' stderr is their own."""
    if message not in _WARNED:
        _WARNED.add(message)
        sys.stderr.write(f"Warning: {message}\n")


MAX_FRAME_PIXELS = 64_000_000
"""The largest frame any output takes (8,000 x 8,000 px): a frame is held in memory several
times over (canvas, tiles, the encoder's copy), so larger ones are refused when a scene loads."""


@dataclass(frozen=True, kw_only=True)
class SceneFile:
    """The top level of a scene file."""

    title: str = option("", doc="Title of the video (default: the file's name).")
    seed: int = option(0, doc="Seed of the search's random source.", minimum=0)
    domain: Mapping[str, Any] = option(
        doc="The domain: `name` plus the domain's options (see the domain tables)."
    )
    search: Mapping[str, Any] | tuple[Mapping[str, Any], ...] = option(
        doc="The search: `algorithm` plus the algorithm's options (see the algorithm tables); "
        "several `[[search]]` tables race side by side on the same domain."
    )
    video: Mapping[str, Any] = option({}, doc="Video settings (see the [video] table).")
    compare: Mapping[str, Any] = option(
        {},
        doc="A search to compare with on the closing card: `algorithm` plus its options, as "
        "in `[search]`. It runs once from the same start (bounded by `max_events`); the card "
        "states what it found and its work (`A*: solved in 39 pours after 103 expansions`). "
        "Empty: none. One search only (a race compares its own searches).",
    )


@dataclass(frozen=True)
class SearchSpec:
    """One search of a scene: its algorithm and the validated ``[search]`` table.

    Attributes:
        algorithm: The algorithm's name (its class's ``name``).
        algorithm_type: The algorithm's class.
        options: The ``[search]`` table (``algorithm`` included).
    """

    algorithm: str
    algorithm_type: type[Algorithm[Any]]
    options: Mapping[str, Any]


@dataclass(frozen=True, eq=False)
class Scene:
    """A validated scene: what to search, how, and how to film it.

    Build one with :func:`load_scene` (a file or a shipped scene's name) or
    :func:`scene_from_dict` (a table built in code); both validate everything at once.
    A scene holds one search, or several (``[[search]]``) that race side by side on the
    same domain; methods that take ``index`` pick one (default the first).

    Attributes:
        path: The scene file, as given (for a scene built in code, its ``name``).
        title: Title of the video.
        seed: Seed of the searches' random sources.
        domain_name: The domain's name (its class's ``name``).
        domain: The domain, built from its options.
        searches: The searches, in column order.
        video: The ``[video]`` settings in effect (with ``width``, the tile size that fits).
        written_video: The ``[video]`` settings as written, before fitting ``width``.
        compare: The search the closing card compares with (``[compare]``; None: none).
    """

    path: Path
    title: str
    seed: int
    domain_name: str
    domain: Domain
    searches: tuple[SearchSpec, ...]
    video: VideoOptions
    written_video: VideoOptions | None = field(default=None, repr=False)
    compare: SearchSpec | None = None

    @property
    def algorithm(self) -> str:
        """The first search's algorithm name (``" vs ".join`` of all for several)."""
        return " vs ".join(spec.algorithm for spec in self.searches)

    @property
    def algorithm_type(self) -> type[Algorithm[Any]]:
        """The first search's algorithm class."""
        return self.searches[0].algorithm_type

    @property
    def search_options(self) -> Mapping[str, Any]:
        """The first search's ``[search]`` table."""
        return self.searches[0].options

    @property
    def stem(self) -> str:
        """The file name without ``.toml``: the default name of renders."""
        return self.path.stem

    @property
    def hud_title(self) -> str:
        """The title shown in the first search's status strip, e.g. ``random-walk · railroad``."""
        return self.strip_title(0)

    def strip_title(self, index: int = 0) -> str:
        """The title of search ``index``'s status strip."""
        return f"{self.searches[index].algorithm} · {self.domain_name}"

    def root(self) -> Any:
        """The domain's initial node."""
        return self.domain.root()

    def view(self) -> View:
        """A fresh instance of the domain's view (checked, for a domain of the user's), told
        through its optional hook ``show_frontier`` whether a search of the scene reports
        frontier nodes (its legend then names no mark the run never draws)."""
        view = _domain_view(self.domain)
        show = getattr(view, "show_frontier", None)
        if callable(show):
            show(any(getattr(s.algorithm_type, "reports_frontier", False) for s in self.searches))
        return view

    def label(self, node: Any) -> str:
        """The domain's label of ``node``."""
        return self.domain.label(node)

    def search(self, index: int = 0) -> Algorithm[Any]:
        """A fresh search with its own ``random.Random(seed)``: same scene, same events.

        Its work budget (:attr:`~searchvid.Algorithm.work_limit`) is ``max_events``, so that
        work between events (nodes below minimax's ``event_depth``, MCTS rollouts, children
        that are generated but never shown) ends a search too.
        """
        return self._search(index, self._value_functions())

    def _search(self, index: int, values: Mapping[str, ValueFunction]) -> Algorithm[Any]:
        """:meth:`search`, ranking by ``values`` (the domain's value functions by name)."""
        spec = self.searches[index]
        search = _build_search(
            self.domain, spec.algorithm_type, spec.options, random.Random(self.seed), values=values
        )
        search.work_limit = self.video.max_events
        return search

    def events(self, index: int = 0, *, framed: bool = False) -> Iterator[Event]:
        """The event stream of a fresh search from the domain's root (not cut at max_frames).

        The iterator also answers ``status()``: the search's own fields at this moment (its
        :meth:`~searchvid.Algorithm.status`); with ``framed``, also ``status_of(event)``:
        its fields for the frame of an event the video's ``frames`` may select, as they
        were when the search made it (:meth:`~searchvid.Algorithm.status_of`), which the
        status strip shows.
        """
        frames = self.video.frames
        keep = frozenset(k for k in EventKind if selects(frames, k)) if framed else frozenset()
        traversal = self._traversal(self.search(index), keep)
        if framed and self.video.keep_depth and traversal.backtracks:
            # the strip counts the shallow choices (searchvid.render.choices)
            deepest = self.video.keep_depth + 1
            traversal.choices = Choices(self._choice_totals(index), deepest)
        return traversal

    def _choice_totals(self, index: int) -> Mapping[int, int]:
        """How many children search ``index`` visits below each of its shallow nodes
        (``[video] keep_depth``): a silent pass over the search, once per scene."""
        totals = self._choice_counts.get(index)
        if totals is None:
            events = islice(self._traversal(self.search(index)).plain(), self.video.max_events)
            totals = count_children(events, self.video.keep_depth + 1)
            self._choice_counts[index] = totals
        return totals

    @cached_property
    def _choice_counts(self) -> dict[int, Mapping[int, int]]:
        return {}

    def _traversal(
        self, search: Algorithm[Any], keep: frozenset[EventKind] = frozenset()
    ) -> _Traversal:
        """``search``'s traversal from the domain's root, checked for a domain of the user's."""
        if is_user_class(type(self.domain)):
            return _CheckedTraversal(search, self.root(), self.domain.label, keep)
        return _Traversal(search, self.root(), keep)

    def score(self, index: int = 0) -> Callable[[Any], float] | None:
        """The value shown in the HUD: the one the search ranks by, else the domain's
        default value function, else None (also for searches whose events carry the values
        to show, such as minimax's proved values)."""
        if self.searches[index].algorithm_type.reports_values:
            return None
        name = self._value_name(index)
        return self._value_functions().get(name) if name is not None else None

    def _value_functions(self) -> Mapping[str, ValueFunction]:
        """The domain's value functions, one set shared by this scene's searches and its
        strip: each of the domain's own remembers its values for the latest nodes
        (:class:`~searchvid.search.memo.NodeMemo`), so a frame's value is the one its search
        computed for that node, not computed again."""
        shared = _SHARED_VALUES.get(self)
        if shared is None:
            shared = _SHARED_VALUES[self] = {
                name: function if function is terminal_reward else NodeMemo(function)
                for name, function in _values(self.domain).items()
            }
        return shared

    def is_goal(self, node: Any) -> bool | None:
        """Whether ``node`` solves the domain; None for domains without a goal."""
        return bool(self.domain.is_goal(node)) if self.domain.has_goal else None

    def render_job(self, index: int = 0) -> RenderJob:
        """What the renderer needs for search ``index``: a fresh view, the video options, the
        strip's words and, with ``[video] tree``, the tree panel."""
        spec = self.searches[index]
        score = self.score(index)
        several = len(self.searches) > 1
        root = self.root()  # one start for the name, the cards' words and the strip's size
        algorithm = spec.algorithm_type.display_name_for(root)
        # a single random walk is narrated as the random player it is (random_walk.py)
        narrated = getattr(spec.algorithm_type, "narrated_as", None)
        words = narrated(spec.options) if narrated is not None else None
        algorithm, doing = words or (algorithm, "searching")
        shows_values = score is not None or spec.algorithm_type.reports_values
        return RenderJob(
            view=self.view(),
            video=self.paced_video,
            title=f"{index + 1} · {algorithm}" if several else self.title,
            score=score,
            values=shows_values,
            panel=self._panel_factory() if self.video.tree else None,
            label=self.label,
            narrator=self.domain,
            algorithm=algorithm,
            value_name=self._value_name(index),
            move_phase=spec.algorithm_type.move_phase,
            settings=_settings(
                spec.options,
                spec.algorithm_type.name,
                self.video.frames,
                self.domain.has_goal,
                self.domain,
                self._stated_defaults(spec, root),
            )
            + describe_reach(
                spec.algorithm_type.name,
                spec.options,
                self.goal_moves_bound(root),
                self.domain,
                self._value_name(index) if shows_values else None,
            ),
            best_name=_best_name(spec.algorithm_type, spec.options),
            doing=doing,
            backtracks=self.video.undo_mark and getattr(spec.algorithm_type, "backtracks", False),
            heat=_thinks_in_iterations(spec),
            compare=self._comparison() if not several else None,
            start=root,
        )

    def _comparison(self) -> Callable[[], Sequence[Field]] | None:
        """The closing card's words on the ``[compare]`` search: it runs once per scene, when
        a card first asks (None: no ``[compare]``)."""
        spec = self.compare
        if spec is None:
            return None
        made = _COMPARISONS.get(self)
        if made is None:
            made = _COMPARISONS[self] = Comparison(
                name=spec.algorithm_type.display_name_for(self.root()),
                events=partial(self._compare_events, spec),
                goal=self.domain.is_goal if self.domain.has_goal else None,
                narrator=self.domain,
                max_events=self.video.max_events,
            )
        return made.fields

    def _compare_events(self, spec: SearchSpec) -> Iterable[Event]:
        """The ``[compare]`` search's events, seeded and bounded as the scene's own."""
        search = _build_search(
            self.domain,
            spec.algorithm_type,
            spec.options,
            random.Random(self.seed),
            values=self._value_functions(),
        )
        search.work_limit = self.video.max_events
        return self._traversal(search)

    def _stated_defaults(self, spec: SearchSpec, root: Any) -> dict[str, Any]:
        """The options of ``spec``'s algorithm with their defaults, for the opening card to
        state those the scene leaves unset (:func:`~searchvid.render.setting_words.unset_said`):
        but alpha-beta where it cannot cut off as a rule, a one-player game of chance (the
        window closes only on a value at the top of the scale: expectimax of the dice game),
        where "skips moves that cannot change the result" would promise what never happens."""
        defaults = {
            key: default for key, _, default in option_docs(spec.algorithm_type.options_type)
        }
        caps = capabilities_of(root)
        if Capability.CHANCE in caps and Capability.TO_MOVE not in caps:
            defaults.pop("alpha_beta", None)
        return defaults

    def goal_moves_bound(self, start: Any = None) -> int | None:
        """The domain's lower bound on the moves any goal needs from the start (its optional
        hook ``goal_moves_bound``); None without a goal, the hook, or a bound. ``start``: the
        domain's root if the caller made one already (None: made here).

        Raises:
            UserCodeError: A domain of the user's returned something other than an int >= 0
                or None.
        """
        if not self.domain.has_goal:
            return None
        bound = goal_bound(self.domain, self.root() if start is None else start)
        if bound is None or (isinstance(bound, int) and not isinstance(bound, bool) and bound >= 0):
            return bound
        where = method_location(self.domain, "goal_moves_bound")
        problem = f"returned {shown(bound)}; it must return an int >= 0 or None"
        raise UserCodeError(str(where), problem)

    def _value_name(self, index: int) -> str | None:
        """The name of the value search ``index`` shows: the one it ranks by, else the
        domain's default. A search whose events carry their own values (minimax) shows
        "value", or the value function that scores its leaves where the scene names one
        (expectimax's ``value = "score"``): its values are on that function's scale."""
        spec = self.searches[index]
        field = spec.algorithm_type.value_option
        chosen = spec.options.get(field) if field is not None else None
        if spec.algorithm_type.reports_values:
            return chosen if isinstance(chosen, str) else "value"
        return chosen if isinstance(chosen, str) else self.domain.default_value

    def _panel_factory(self) -> Callable[[int, int, Iterable[Event]], Any]:
        from searchvid.render.treepanel import TreePanel

        thumbnail = self._thumbnail if self.video.tree_thumbnails else None
        label = None if thumbnail is not None else self.label  # pictures say it better
        outcomes = self._outcome_words()
        # the scale's middle in the game's words ("draw"), named in the panel's legend
        said = self.domain.describe_value(0.5) if outcomes is not None else None
        middle = said.strip() if isinstance(said, str) and said.strip() else None
        # how to read the labels under the nodes, in the domain's words (legend)
        own = getattr(self.domain, "node_names", None)
        names = own.strip() if isinstance(own, str) and own.strip() else None

        def make(width: int, height: int, events: Iterable[Event]) -> Any:
            panel = TreePanel(
                width,
                height,
                events_for_layout=events,
                thumbnail=thumbnail,
                label=label,
                outcomes=outcomes,
                middle=middle,
                names=names,
                undo_mark=self.video.undo_mark,
                changes_only=True,  # frames keep the panel's last picture: copy what changed
            )
            if panel.thumbnail_warning is not None:  # asked for, but not drawn: say so
                _warn_once(panel.thumbnail_warning)
            return panel

        return make

    def _outcome_words(self) -> tuple[str, str] | None:
        """For a two-player game (a root with ``to_move``), the words for value 0 and value 1
        (player 0's value: the domain's, else "player 1 wins" and "player 0 wins"), so that
        the tree panel's value scale runs between the players' colours; None for one player.

        Raises:
            UserCodeError: The domain's ``describe_value`` returned neither text nor None.
        """
        if Capability.TO_MOVE not in capabilities_of(self.root()):
            return None
        ends: list[str] = []
        for value, default in ((0.0, "player 1 wins"), (1.0, "player 0 wins")):
            words: object = self.domain.describe_value(value)  # a user's may return anything
            if words is not None and not isinstance(words, str):
                where = method_location(self.domain, "describe_value")
                problem = f"returned {shown(words)} for {value}; it must return a str or None"
                raise UserCodeError(str(where), problem)
            ends.append(words.strip() if words and words.strip() else default)
        return ends[0], ends[1]

    def _thumbnail(self, node: Any) -> npt.NDArray[np.uint8]:
        """A picture of ``node``'s board in the video's tile colours (the panel shrinks it)."""
        view, atlas = self._thumbnail_tools
        grid = view.grid(node)
        rows, cols = grid.shape
        size = atlas.size
        tiles = atlas.tiles[grid]  # (rows, cols, size, size, 3)
        picture: npt.NDArray[np.uint8] = tiles.swapaxes(1, 2).reshape(rows * size, cols * size, 3)
        return picture

    @cached_property
    def _thumbnail_tools(self) -> tuple[View, TileAtlas]:
        view = self.view()
        return view, TileAtlas(view.tileset, self.video.tile_size)

    @cached_property
    def paced_video(self) -> VideoOptions:
        """The ``[video]`` settings every command uses: with ``duration``, ``every`` chosen by
        a first, silent pass over the searches (see :func:`~searchvid.render.policy.pace`)."""
        if not self.video.duration and not self.video.after_best:
            return self.video
        key = self._pacing_key()
        known = _PACED.get(key)
        if known is not None:
            return known
        # every silent pass reads one run of each search, kept in memory (SharedRun)
        sources = [SharedRun(partial(self.events, i)) for i in range(len(self.searches))]
        paced = pace([source() for source in sources], self.video)
        # jumps held, dead stretches played fast, duration kept
        paced = paced_for_jumps(sources, self.view, paced, least_every=self.video.every)
        if len(_PACED) >= _PACED_KEPT:
            _PACED.pop(next(iter(_PACED)))
        _PACED[key] = paced
        return paced

    def _pacing_key(self) -> tuple[Any, ...]:
        """What pacing depends on: the domain (class and options), each search (class and
        table), the seed and the ``[video]`` settings. Pacing runs whole searches silently,
        so scenes loaded again in one process (a notebook, the tests) reuse it."""
        searches = tuple(
            (spec.algorithm_type, repr(sorted(spec.options.items()))) for spec in self.searches
        )
        options = repr(getattr(self.domain, "options", None))
        return (type(self.domain), options, searches, self.seed, self.video)

    def sources(self) -> list[Callable[[], Iterable[Event]]]:
        """One replayable event source per search (keeping the fields of its frames for the
        status strip, where there is one, and for the recording a tree panel's first pass
        makes: :mod:`searchvid.render.treereplay`)."""
        framed = self.video.hud or self.video.tree
        return [partial(self.events, i, framed=framed) for i in range(len(self.searches))]

    def strip_texts(self) -> Iterator[list[tuple[Event, HudText] | None]]:
        """For every video frame, each search's event and what its status strip says,
        without drawing a pixel (None: a search with no frame yet)."""
        return strip_texts(self.sources(), self.render_jobs())

    def render_jobs(self) -> list[RenderJob]:
        """One render job per search."""
        return [self.render_job(i) for i in range(len(self.searches))]

    def check_frames(self, kind: OutputKind) -> None:
        """Refuse, before any work, frames that the output ``kind`` cannot hold.

        Raises:
            SceneError: Naming the scene, ``video.tile_size``, the limit, and the largest
                tile size that fits.
        """
        heat = any(_thinks_in_iterations(s) for s in self.searches)
        boards = Boards.of(
            self.view(),
            len(self.searches),
            heat=heat,
            backtracks=self.video.undo_mark and _backtracks(self.searches),
        )
        _check_frames(str(self.path), boards, self.video, kind)

    def with_overrides(
        self,
        *,
        seed: int | None = None,
        frames: int | None = None,
        fps: int | None = None,
        tile_size: int | None = None,
        every: int | None = None,
        hud: bool | None = None,
        quality: str | None = None,
        width: int | None = None,
    ) -> Scene:
        """The same scene with some settings replaced (None: keep).

        Args:
            seed: The searches' seed (>= 0).
            frames: ``[video] max_frames``.
            fps: ``[video] fps``.
            tile_size: ``[video] tile_size`` (even).
            every: ``[video] every``.
            hud: ``[video] hud``.
            quality: ``[video] quality``.
            width: ``[video] width``: the output this many pixels wide, at the largest tile
                size that fits.

        Raises:
            UsageError: A value out of range, naming the matching command-line option.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise UsageError(f"--seed: must be an integer >= 0, got {seed!r}")
        written = self.written_video or self.video
        table = {f.name: getattr(written, f.name) for f in dataclasses.fields(written)}
        flags: dict[str, tuple[str, Any]] = {
            "max_frames": ("--frames", frames),
            "fps": ("--fps", fps),
            "tile_size": ("--tile-size", tile_size),
            "every": ("--every", every),
            "hud": ("--no-hud", hud),
            "quality": ("--quality", quality),
            "width": ("--width", width),
        }
        for key, (_, value) in flags.items():
            if value is not None:
                table[key] = value
        if tile_size is not None and width is None:
            table["width"] = 0  # an explicit tile size wins over the scene's width
        try:
            written = build_options(VideoOptions, table)
            heat = any(_thinks_in_iterations(s) for s in self.searches)
            boards = Boards.of(
                self.view(),
                len(self.searches),
                heat=heat,
                backtracks=written.undo_mark and _backtracks(self.searches),
            )
            video = _fit_width(written, boards)
        except OptionError as error:
            flag = flags[error.key][0] if error.key in flags else error.key
            raise UsageError(f"{flag}: {error.message}") from None
        return dataclasses.replace(
            self, seed=self.seed if seed is None else seed, video=video, written_video=written
        )

    def render(
        self,
        out: str | os.PathLike[str] | None = None,
        *,
        progress: bool | ProgressCallback = False,
        snapshots: str | os.PathLike[str] | None = None,
        jobs: int | None = None,
        scheduler: str | None = None,
        start: int | str | None = None,
        end: int | str | None = None,
    ) -> RenderResult:
        """Render the scene to a video, or a clip of it.

        Args:
            out: ``NAME.mp4``, ``NAME.webm`` (VP9, where ffmpeg has libvpx-vp9),
                ``NAME.gif``, ``NAME.html`` (an interactive player: play,
                pause, step, scrub, the trace of each frame) or a folder (one
                ``frame_000000.png`` per frame); default ``renders/<stem>.mp4``. Written
                under a temporary name and renamed when complete: on an error or interrupt
                nothing is left at ``out``.
            progress: True draws a progress bar on stderr; a callable receives the number of
                frames done after each frame.
            snapshots: Also write ``improve_NNNN.png`` into this folder whenever the best
                value improves.
            jobs: Split the render into segments of about 10 s of video drawn by this
                many worker processes, then join them (:mod:`searchvid.render.segments`):
                an MP4 or a PNG folder only; the MP4's bytes are the same for any number.
            scheduler: Draw the segments on Dask instead: ``"local"`` (a LocalCluster of
                ``jobs`` processes, default one per core) or ``"tcp://HOST:PORT"``.
            start: A clip from this frame (``120``) or moment (``"12.5s"``, ``"0:12.5"``):
                see :mod:`searchvid.render.clip`. None: from the start.
            end: A clip up to this frame or moment, not included. None: to the end. A clip's
                frames are those of the whole render, held as long; it is rendered whole
                (not with ``jobs`` or ``snapshots``).

        Returns:
            Frames, seconds and the path written.

        Raises:
            UsageError: An unsupported output path.
            RunError: The encoder failed (disk full, ffmpeg died) or no event became a frame.
        """
        target = Path(out) if out is not None else Path("renders") / f"{self.stem}.mp4"
        if not os.fspath(target).strip():
            raise UsageError("the output path is empty")
        folder = Path(snapshots) if snapshots is not None else None
        if folder is not None and _inside(folder, target):
            raise UsageError(f"--snapshots {folder} is inside the output {target}")
        kind = check_target(target)
        if start is not None or end is not None:
            return self._render_clip(target, kind, start, end, jobs, scheduler, folder, progress)
        split = _split_workers(jobs, scheduler, kind, folder)
        self.check_frames(kind)
        if split is not None:
            return self._render_split(target, split, scheduler, progress)
        jobs_ = self.render_jobs()
        return self._with_progress(
            progress, lambda advance: self._render(target, jobs_, advance, folder)
        )

    def _render_clip(
        self,
        target: Path,
        kind: OutputKind,
        start: int | str | None,
        end: int | str | None,
        jobs: int | None,
        scheduler: str | None,
        snapshots: Path | None,
        progress: bool | ProgressCallback,
    ) -> RenderResult:
        """:meth:`render` of the clip from ``start`` to ``end``, checked before any work."""
        from searchvid.render.clip import parse_time
        from searchvid.render.cliprender import render_clip

        first = parse_time(start, "--start") if start is not None else None
        last = parse_time(end, "--end") if end is not None else None
        if jobs is not None or scheduler is not None:
            option = "--scheduler" if scheduler is not None else "--jobs"
            raise UsageError(f"{option}: a clip (--start/--end) is rendered whole; drop one")
        if snapshots is not None:
            raise UsageError("--snapshots comes from a whole render, not a clip (--start/--end)")
        self.check_frames(kind)
        opened: list[list[_Traversal]] = [[] for _ in self.searches]
        sources = [partial(_opening, source, opened[i]) for i, source in enumerate(self.sources())]

        def clip(advance: ProgressCallback | None) -> RenderResult:
            result = render_clip(
                sources,
                self.render_jobs,
                target,
                start=first,
                end=last,
                progress=advance,
                title=self.title,
            )
            endings = [self._ending_of(streams) for streams in opened]
            return dataclasses.replace(result, ended=ended_together(endings))

        return self._with_progress(progress, clip)

    def _render_split(
        self,
        target: Path,
        workers: int,
        scheduler: str | None,
        progress: bool | ProgressCallback,
    ) -> RenderResult:
        """:meth:`render` in segments drawn by workers (see :func:`_split_workers`)."""
        from searchvid.render.segments import render_split

        opened: list[list[_Traversal]] = [[] for _ in self.searches]
        timing = [partial(_opening, source, opened[i]) for i, source in enumerate(self.sources())]
        option = "--scheduler" if scheduler is not None else "--jobs"

        def split(advance: ProgressCallback | None) -> RenderResult:
            result = render_split(
                self,
                target,
                workers=workers,
                scheduler=scheduler,
                option=option,
                progress=advance,
                timing=timing,
            )
            endings = [self._ending_of(streams) for streams in opened]
            return dataclasses.replace(result, ended=ended_together(endings))

        return self._with_progress(progress, split)

    def _with_progress(
        self,
        progress: bool | ProgressCallback,
        body: Callable[[ProgressCallback | None], RenderResult],
    ) -> RenderResult:
        """``body`` called with the progress callback ``progress`` asks for: a terminal bar
        over the video's frames (True), the caller's own callback, or none."""
        if progress is True:
            from searchvid.progress import progress_bar

            with progress_bar(self.video.max_frames) as advance:
                return body(advance)
        return body(progress if callable(progress) else None)

    def _render(
        self,
        target: Path,
        jobs: list[RenderJob],
        progress: ProgressCallback | None,
        snapshots: Path | None,
    ) -> RenderResult:
        opened: list[list[_Traversal]] = [[] for _ in self.searches]
        sources = [partial(_opening, source, opened[i]) for i, source in enumerate(self.sources())]
        result = render(
            sources, jobs, target, progress=progress, snapshots=snapshots, title=self.title
        )
        endings = [self._ending_of(streams) for streams in opened]
        return dataclasses.replace(result, ended=ended_together(endings))

    def _ending_of(self, streams: Sequence[_Traversal]) -> Ended:
        """Why a search's video ended, from the streams a render opened of it: the one read
        furthest is the video's own (another may be a first pass read only in part)."""
        if not streams:
            return "complete"
        stream = max(streams, key=lambda one: one.read)
        return ending(stream, stream.read, self.paced_video)

    def preview(self, frame: int = -1) -> Image.Image:
        """Frame ``frame`` of the video as an RGB image, without drawing the frames before it.

        It is pixel-identical to that frame of a render to a PNG folder.

        Args:
            frame: Index from 0; negative counts from the end (-1, the default, is the last).

        Raises:
            UsageError: ``frame`` is out of range (the message gives the frame count).
        """
        if isinstance(frame, bool) or not isinstance(frame, int):
            raise UsageError(f"frame must be an integer, got {frame!r}")
        if abs(frame) > self.video.max_frames:
            what = f"the video has at most {self.video.max_frames} frames (max_frames)"
            raise UsageError(f"frame {frame} is out of range: {what}")
        self.check_frames(OutputKind.FOLDER)
        pixels = render_frame(self.sources(), self.render_jobs(), frame, title=self.title)
        return Image.fromarray(pixels, mode="RGB")

    def frame_of_step(self, step: int) -> int:
        """The index of the video frame on screen at step ``step`` of the search (the
        ``step`` of :meth:`trace`): the frame that step becomes, or for a step that becomes
        none, the latest frame before it. Only the events up to ``step`` run.

        Raises:
            UsageError: ``step`` is negative, before the first frame or past the video's
                end, or the scene races several searches (their steps are numbered apart).
        """
        from searchvid.render.clip import frame_of_step

        if len(self.searches) > 1:
            raise UsageError(
                "--step: a race numbers each search's steps apart; pick a frame with --frame "
                "(searchvid trace gives each step's frame)"
            )
        return frame_of_step(self.events(0), self.paced_video, step)

    def trace(self, limit: int | None = None) -> Iterator[dict[str, Any]]:
        """The event stream as records ``{"step", "kind", "depth", "label", "value", "frame",
        "id", "parent"}`` (plus ``"search"``, its index, when the scene has several).

        ``frame`` is the index of the video frame the event becomes, or None; ``id`` and
        ``parent`` name the search-tree node the event is about (None where it is about no
        tree node); values that are not finite numbers are None (JSON has no infinities). The
        stream is cut where the video is full, as in :meth:`render`; several searches are
        traced one after the other, each event's ``frame`` the video frame of the race
        (aligned on work: :class:`~searchvid.render.stepping.Run`) that first shows it.

        Args:
            limit: Yield at most this many records (None: all).
        """
        count = 0
        several = len(self.searches) > 1
        shown_at: list[list[int]] | None = None
        if several:
            sources = [partial(self.events, i) for i in range(len(self.searches))]
            shown_at = race_frames(sources, self.render_jobs())
        for index in range(len(self.searches)):
            for event, frame in assign_frames(self.events(index), self.paced_video):
                if frame is not None and shown_at is not None:
                    frame = shown_at[index][frame]
                if limit is not None and count >= limit:
                    return
                count += 1
                record: dict[str, Any] = {"search": index} if several else {}
                record |= {
                    "step": event.step,
                    "kind": event.kind.value,
                    "depth": event.depth,
                    "label": self.label(event.node),
                    "value": _finite(event.value),
                    "frame": frame,
                    "id": event.id,
                    "parent": event.parent,
                }
                yield record

    def run(self) -> dict[str, Any]:
        """Run the searches up to the video's frame limit, without drawing; their statistics.

        Returns:
            For one search, the object ``searchvid run --json`` prints: ``scene``, ``title``,
            ``domain``, ``algorithm``, ``seed``, ``events``, ``frames``, ``seconds``,
            ``peak_rss_mb``, ``best`` (``{"label", "value", "depth"}`` or None) and ``solved``
            (None for a domain without a goal). Where the search reached a goal, ``best`` is
            that goal (the best-valued one reported, else the first reached) and ``solved`` is
            true. ``ended`` says why the run stopped: ``"complete"`` (the search ran to its
            natural end), ``"max_frames"`` (the video filled up and the search was cut) or
            ``"max_events"`` (the event budget was spent: that many events, or that many
            units of work between them, see :attr:`~searchvid.Algorithm.work_limit`);
            ``max_events_reached`` is true in that last case. The domain may add keys about
            the last frame's node (its ``report``: Railroad Ink adds ``score`` and ``rounds``).

            For several searches (a race), the same keys for the race as a whole, and
            ``searches``, one such object per search in the scene's order:

            - ``algorithm``: the searches' algorithms joined by ``" vs "``;
            - ``events`` (the sum), ``frames`` (the video's, its searches aligned on work;
              the longest search's where one failed), ``seconds`` and ``peak_rss_mb`` of
              the whole run;
            - ``best``: the best of the searches' ``best`` records (a goal before a non-goal,
              then the higher value, then the shallower depth, then the earlier search),
              with ``search``, the index of the search that found it; None if none did;
            - ``solved``: whether any search reached a goal (None without a goal);
            - ``ended``: ``"complete"`` when every search ran to its end, else
              ``"max_frames"`` when the video filled up before one of them ended, else
              ``"max_events"``; each search's own ``ended`` says which was cut (None for a
              search that failed);
            - ``max_events_reached``: whether ``max_events`` cut any of the searches;
            - ``failed``: the indices of the searches that raised an error. Such a search's
              object has an ``error`` key (one line) and counts up to the failure; the other
              searches run to their end.

        Raises:
            Exception: With a single search, whatever the search raised.
        """
        start = time.perf_counter()
        if len(self.searches) == 1:
            return self._run_one(0)
        each = [self._run_one(i, keep_errors=True) for i in range(len(self.searches))]
        best = _best_of(each)
        solved = [one["solved"] for one in each if "error" not in one]
        return {
            "scene": str(self.path),
            "title": self.title,
            "domain": self.domain_name,
            "algorithm": " vs ".join(spec.algorithm for spec in self.searches),
            "seed": self.seed,
            "events": sum(one["events"] for one in each),
            "frames": self._race_length(each),
            "seconds": round(time.perf_counter() - start, 6),
            "peak_rss_mb": peak_rss_mb(),
            "best": best,
            "solved": None if not self.domain.has_goal else any(solved),
            "ended": ended_together(one["ended"] for one in each),
            "max_events_reached": any(one["max_events_reached"] for one in each),
            "failed": [i for i, one in enumerate(each) if "error" in one],
            "searches": each,
        }

    def _quiet(self, search: Algorithm[Any], tally: FrameTally, outcome: _Outcome) -> Quiet | None:
        """The limits of a quiet pass of ``search`` (:meth:`~searchvid.Algorithm.quiet`)
        for :meth:`_run_one`, where one gives the same totals as its full stream: the
        algorithm has one, the frame policy can count (:meth:`FrameTally.quiet`), the
        outcome watches only IMPROVE (no goal to look for at every state), and the domain
        is built in (a user's domain has its stream checked event by event)."""
        if not search.counts_quietly or outcome.watch != _IMPROVE_WATCH:
            return None
        if is_user_class(type(self.domain)):
            return None
        return tally.quiet(outcome.watch)

    def _race_length(self, each: Sequence[dict[str, Any]]) -> int:
        """The frames of the race's video (its searches aligned on work), given each
        search's :meth:`_run_one`; where a search failed, the longest search's frames."""
        if any("error" in one for one in each):
            return max(int(one["frames"]) for one in each)
        sources = [partial(self.events, i) for i in range(len(self.searches))]
        shown_at = race_frames(sources, self.render_jobs())
        return max((frames[-1] + 1 for frames in shown_at if frames), default=0)

    def _run_one(self, index: int, *, keep_errors: bool = False) -> dict[str, Any]:
        outcome = _Outcome(self, index)
        start = time.perf_counter()
        error: str | None = None
        ended: Ended | None = None
        video = self.paced_video
        # the plain value functions: no strip shares a search's values here (the memo of
        # search() would cost more than a cheap value function saves)
        search = self._search(index, _values(self.domain))
        # counted as assign_frames frames them, without pairing each event with its frame
        tally = FrameTally(video)
        quiet = self._quiet(search, tally, outcome)
        stream = self._traversal(search) if quiet is None else None
        try:
            if stream is not None:
                tally.read(stream.plain(), outcome.see, outcome.watch)
                ended = ending(stream, tally.events, video)
            elif quiet is not None:
                ended = _count_quietly(search, self.root(), tally, quiet, outcome.see)
        except Exception as exc:
            if not keep_errors:
                raise
            error = describe_failure(exc, hint=False)
        seconds = time.perf_counter() - start
        events, frames = tally.events, tally.frames
        if quiet is not None:
            last = quiet.last if quiet.marks else self.root()
        else:
            last = tally.last.node if tally.last is not None else self.root()
        record = {
            "scene": str(self.path),
            "title": self.title,
            "domain": self.domain_name,
            "algorithm": self.searches[index].algorithm,
            "seed": self.seed,
            "events": events,
            "frames": frames,
            "seconds": round(seconds, 6),
            "peak_rss_mb": peak_rss_mb(),
            "ended": ended,
            # cut by max_events: as many events, or as much work between them
            "max_events_reached": ended == "max_events" or (ended is None and search.budget_spent),
        }
        if error is not None:
            return record | {"best": None, "solved": None, "error": error}
        return record | {
            "best": outcome.best_record(),
            "solved": outcome.solved(),
            **self.domain.report(last),
        }


def _count_quietly(
    search: Algorithm[Any],
    root: Any,
    tally: FrameTally,
    quiet: Quiet,
    see: Callable[[Event], object],
) -> Ended:
    """Run ``search``'s quiet pass from ``root`` with ``quiet``'s limits, showing ``see``
    the events it yields; the totals go to ``tally``, as :meth:`FrameTally.read` and
    :func:`ending` would have counted them from the full stream. Why the search ended."""
    try:
        for event in search.quiet(root, quiet):
            see(event)
    except Exception:
        if not quiet.cut:
            tally.counted(quiet, budget_spent=False)  # the events made before the failure
            raise
        quiet.more = True  # a failure past the cut: the search had more to do (as ending())
    return tally.counted(quiet, budget_spent=search.budget_spent)


def _best_of(each: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The best of several searches' ``best`` records, with the index of its ``search``.

    A goal reached comes first, then the higher value (a missing value is lowest), then
    the shallower depth, then the earlier search.
    """

    def rank(index: int) -> tuple[bool, float, int, int]:
        one = each[index]
        best = one["best"]
        value = best["value"]
        return (
            bool(one["solved"]),
            -math.inf if value is None else value,
            -best["depth"],
            -index,
        )

    found = [i for i, one in enumerate(each) if one["best"] is not None]
    if not found:
        return None
    winner = max(found, key=rank)
    return {**each[winner]["best"], "search": winner}


def _split_workers(
    jobs: int | None, scheduler: str | None, kind: OutputKind, snapshots: Path | None
) -> int | None:
    """How many workers a render is split across (None: rendered whole), checked before
    any work: ``jobs`` >= 1, a format a split render writes, no snapshots.

    Raises:
        UsageError: Naming the option and what is allowed.
    """
    if jobs is None and scheduler is None:
        return None
    option = "--scheduler" if scheduler is not None else "--jobs"
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UsageError(f"--jobs: must be an integer >= 1, got {jobs!r}")
    from searchvid.render.segments import SPLIT_FORMATS, check_scheduler, check_splittable

    if kind is OutputKind.WEBM:
        raise UsageError(
            f"{option}: a split render writes {SPLIT_FORMATS}, not a WebM; render it whole "
            "(without --jobs and --scheduler)"
        )
    check_splittable(kind, option)
    if scheduler is not None:
        check_scheduler(scheduler)
    if snapshots is not None:
        raise UsageError(f"{option}: --snapshots comes from a whole render; drop one of them")
    return jobs if jobs is not None else max(1, os.cpu_count() or 1)


def _opening(source: Callable[[], Iterable[Event]], opened: list[_Traversal]) -> Iterable[Event]:
    """A fresh stream of ``source``, remembered in ``opened`` when it is a traversal (to
    tell afterwards why the render ended)."""
    stream = source()
    if isinstance(stream, _Traversal):
        opened.append(stream)
    return stream


_KEPT_STATUSES = 3 * FINAL_FRAME_LOOKAHEAD + 16
"""Most fields a traversal keeps for events not drawn yet: the frame policy and the last
frame's lookahead each read at most :data:`FINAL_FRAME_LOOKAHEAD` events past a frame, and
a race reads each search one frame further ahead (to know that frame's work)."""


class _Traversal(Iterator[Event]):
    """A search's event stream that can also tell the search's own numbers: now
    (``status``), or as they were when it made an event that may become a frame
    (``status_of``), since the renderer reads on past a frame before drawing it."""

    def __init__(
        self, search: Algorithm[Any], root: Any, keep: frozenset[EventKind] = frozenset()
    ) -> None:
        self._search = search
        self._events = search.traverse(root)
        self._keep = keep
        self._kept: deque[tuple[Event, Sequence[Field]]] = deque(maxlen=_KEPT_STATUSES)
        self.read = 0
        """Events read so far."""
        self.choices: Choices | None = None
        """Counts the shallow choices for the frames' fields (``[video] keep_depth``)."""

    def __next__(self) -> Event:
        event = self._next()
        self.read += 1
        choices = self.choices
        if choices is not None:
            choices.observe(event)
        if event.kind in self._keep:
            fields = self._search.status_of(event)
            if choices is not None:  # before the search's own fields
                fields = (*choices.fields(event), *fields)
            self._kept.append((event, fields))
        return event

    @property
    def backtracks(self) -> bool:
        """Whether the search is depth-first (:attr:`~searchvid.Algorithm.backtracks`)."""
        return self._search.backtracks

    @property
    def counts_work(self) -> bool:
        """Whether a strip of the search alone counts its work in place of its steps (a
        frontier search's ``counts_work``: its own fields count none)."""
        return bool(getattr(self._search, "counts_work", False))

    def _next(self) -> Event:
        return next(self._events)

    def plain(self) -> Iterator[Event]:
        """The events still to come, for a reader that asks neither ``read`` nor
        ``status_of``: the search's own generator where this class adds nothing else to
        each event, so that reading costs no Python call per event."""
        return self if self._keep or self.choices is not None else self._events

    def status(self) -> Sequence[Field]:
        """The search's fields at this moment."""
        return self._search.status()

    def status_of(self, event: Event) -> Sequence[Field]:
        """The search's fields for a frame showing ``event``: as they were when the search
        made it, where kept (events that may become frames), else as they are now. Frames
        are drawn in order, so the fields kept for earlier events are dropped."""
        kept = self._kept
        if any(entry[0] is event for entry in kept):
            while kept[0][0] is not event:
                kept.popleft()
            return kept[0][1]
        return self._search.status_of(event)

    @property
    def budget_spent(self) -> bool:
        """Whether the search ended because its work budget (``max_events``) ran out."""
        return self._search.budget_spent

    @property
    def work_kinds(self) -> frozenset[EventKind]:
        """The kinds of event that each count one step of the search's work in a race
        (:attr:`~searchvid.Algorithm.work_kinds`)."""
        return self._search.work_kinds

    @property
    def work_unit(self) -> tuple[str, str]:
        """That step's name, singular and plural (:attr:`~searchvid.Algorithm.work_unit`)."""
        return self._search.work_unit


class _CheckedTraversal(_Traversal):
    """The event stream of a search on a domain of the user's: errors of the domain's code
    name the node by its label, and a value that is not a number (nan from a ``reward()``)
    stops the search before a frame shows it."""

    def __init__(
        self,
        search: Algorithm[Any],
        root: Any,
        label: Callable[[Any], str],
        keep: frozenset[EventKind] = frozenset(),
    ) -> None:
        super().__init__(search, root, keep)
        self._label = label

    def plain(self) -> Iterator[Event]:
        """Itself: each event is checked (see the class)."""
        return self

    def _next(self) -> Event:
        try:
            event = next(self._events)
        except UserCodeError as error:
            if error.position is not None or error.node is None:
                raise
            raise error.at(safe_label(self._label, error.node)) from error
        value = event.value
        if value is not None and value != value:  # nan: comparisons with it rank nothing
            self._refuse_nan(event.node)
        return event

    def _refuse_nan(self, node: Any) -> None:
        # value functions are checked where they are called; a nan here came from reward()
        if hasattr(node, "reward"):
            where = method_location(node, "reward")
            problem = "gave the search the value nan; a reward must be a finite number"
        else:
            where = method_location(self._search, "traverse")
            problem = "reported the value nan"
        raise UserCodeError(str(where), problem, position=safe_label(self._label, node))


_IMPROVE_WATCH = frozenset({EventKind.IMPROVE})
_GOAL_WATCH = frozenset(kind for kind in EventKind if kind.shows_state) | _IMPROVE_WATCH


class _Outcome:
    """What a run found: the best node reported, and whether (and where) a goal was reached."""

    def __init__(self, scene: Scene, index: int = 0) -> None:
        self._scene = scene
        self._index = index
        self._goal_test = scene.domain.is_goal if scene.domain.has_goal else None
        self._best: tuple[Any, float | None, int] | None = None  # latest IMPROVE
        self._best_goal: tuple[Any, float | None, int] | None = None  # best IMPROVE at a goal
        self._first_goal: tuple[Any, float | None, int] | None = None  # first goal shown
        self.watch = _GOAL_WATCH if self._goal_test is not None else _IMPROVE_WATCH
        """The kinds of event :meth:`see` needs (it ignores the others): IMPROVE, and with a
        goal each kind that shows a state."""

    def see(self, event: Event) -> None:
        is_goal = self._goal_test
        if event.kind is EventKind.IMPROVE and event.value is not None:
            self._best = (event.node, event.value, event.depth)
            if is_goal is not None and is_goal(event.node):
                self._best_goal = self._best
        elif (
            is_goal is not None
            and self._first_goal is None
            and event.kind.shows_state
            and is_goal(event.node)
        ):
            self._first_goal = (event.node, None, event.depth)

    def _chosen(self) -> tuple[Any, float | None, int] | None:
        if self._best_goal is not None:
            return self._best_goal
        if self._first_goal is not None:
            node, _, depth = self._first_goal
            score = self._scene.score(self._index)
            return node, score(node) if score is not None else None, depth
        return self._best

    def best_record(self) -> dict[str, Any] | None:
        chosen = self._chosen()
        if chosen is None:
            return None
        node, value, depth = chosen
        return {"label": self._scene.label(node), "value": _finite(value), "depth": depth}

    def solved(self) -> bool | None:
        if self._goal_test is None:
            return None
        if self._best_goal is not None or self._first_goal is not None:
            return True
        return bool(self._goal_test(self._scene.root()))


def load_scene(path_or_name: str | os.PathLike[str]) -> Scene:
    """Read and validate a scene file, or a shipped scene by its bare name.

    Args:
        path_or_name: A path to a ``.toml`` file, or a bare name such as
            ``"railroad-random"`` looked up in ``./scenes`` and then in the scenes that
            come with searchvid.

    Raises:
        SceneError: ``FILE: KEY: what is wrong`` for any problem, including unreadable files
            and TOML syntax errors (with the line).
        UsageError: No such file or scene name (listing the known names).
    """
    path = resolve_scene(path_or_name)
    table = _read_toml(path)
    return _scene_from_table(table, file=str(path), path=path, folder=path.parent)


def scene_from_dict(
    table: Mapping[str, Any],
    *,
    name: str = "scene",
    folder: str | os.PathLike[str] | None = None,
) -> Scene:
    """Build a scene from a table shaped like a scene file, with the same validation.

    Errors are the same :class:`~searchvid.errors.SceneError` a TOML file gives, with
    ``name`` in place of the file name. Besides what TOML can hold, ``[domain] name`` may be
    a :class:`~searchvid.Domain` subclass and ``[search] algorithm`` an algorithm class.

    Args:
        table: ``{"title": ..., "seed": ..., "domain": {...}, "search": {...}, "video": {...}}``.
        name: The scene's name: used in error messages and as the default output's stem.
        folder: Searched first for ``"module:Class"`` names (default: the current folder).

    Raises:
        SceneError: ``NAME: KEY: what is wrong``.
    """
    if not isinstance(table, Mapping):
        raise SceneError(name, "", f"a scene must be a table (dict), got {type(table).__name__}")
    base = Path(folder) if folder is not None else Path.cwd()
    return _scene_from_table(dict(table), file=name, path=Path(name), folder=base)


def scene_dirs() -> list[Path]:
    """Where bare scene names are looked up: ``./scenes``, then the shipped scenes."""
    here = Path("scenes")
    shipped = builtin_scenes_dir()
    found = [here]
    if not here.is_dir() or here.resolve() != shipped.resolve():
        found.append(shipped)
    return found


def scene_names() -> list[str]:
    """The bare names :func:`load_scene` knows (the stems in :func:`scene_dirs`), sorted."""
    folders = [folder for folder in scene_dirs() if folder.is_dir()]
    return sorted({p.stem for folder in folders for p in folder.glob("*.toml")})


def resolve_scene(text: str | os.PathLike[str]) -> Path:
    """The scene file named by ``text``: a path to a ``.toml`` file, or a bare name.

    Raises:
        UsageError: No such file, or no scene of that name (listing the known ones).
    """
    raw = os.fspath(text)
    if not raw.strip():
        raise UsageError("the scene name is empty")
    shown = raw if len(raw) <= 80 else raw[:77] + "..."
    if len(raw) > 4096 or any(len(part) > _MAX_NAME for part in Path(raw).parts):
        raise UsageError(f"{shown}: no such scene file (the name is too long)")
    path = Path(raw)
    if path.suffix == ".toml" or len(path.parts) > 1 or path.exists():
        return path  # a path: reading it reports what is wrong
    for folder in scene_dirs():
        candidate = folder / f"{raw}.toml"
        if candidate.is_file():
            return candidate
    listed = ", ".join(scene_names()) or "none"
    raise UsageError(f"{shown}: no such scene file or scene name; known scenes: {listed}")


def _scene_from_table(table: dict[str, Any], *, file: str, path: Path, folder: Path) -> Scene:
    try:
        return _validate(table, file=file, path=path, folder=folder)
    except RecursionError:
        raise SceneError(file, "", "nested too deeply to be a scene") from None


def _validate(table: dict[str, Any], *, file: str, path: Path, folder: Path) -> Scene:
    try:
        top = build_options(SceneFile, table)
    except OptionError as error:
        raise SceneError(file, error.key, error.message) from None
    domain = _load_domain(file, top.domain, folder)
    listed = not isinstance(top.search, Mapping)  # [[search]]: keys are search[i].KEY
    tables = [top.search] if isinstance(top.search, Mapping) else list(top.search)
    if not tables:
        raise SceneError(file, "search", "needs at least one search")
    searches = tuple(
        _load_search(file, domain, table, top.seed, folder, f"search[{i}]" if listed else "search")
        for i, table in enumerate(tables)
    )
    compare = None
    if top.compare:
        if len(tables) > 1:
            raise SceneError(file, "compare", "only for one search (a race compares its own)")
        compare = _load_search(file, domain, top.compare, top.seed, folder, "compare")
    try:
        video = build_options(VideoOptions, top.video)
    except OptionError as error:
        raise SceneError(file, f"video.{error.key}", error.message) from None
    if video.window_gauge and not all(reports_window(s.algorithm, s.options) for s in searches):
        raise SceneError(file, "video.window_gauge", WINDOWED)
    heat = any(_thinks_in_iterations(s) for s in searches)
    boards = Boards.of(
        _domain_view(domain),
        len(searches),
        heat=heat,
        backtracks=video.undo_mark and _backtracks(searches),
    )
    written = video
    try:
        video = _fit_width(video, boards)
    except OptionError as error:
        raise SceneError(file, f"video.{error.key}", error.message) from None
    _check_frames(file, boards, video, None)
    scene = Scene(
        path=path,
        title=top.title or path.stem,
        seed=top.seed,
        domain_name=domain.name,
        domain=domain,
        searches=searches,
        video=video,
        written_video=written,
        compare=compare,
    )
    return scene


def _thinks_in_iterations(spec: SearchSpec) -> bool:
    """Whether the search's unit of work is an iteration from the root (a ``SELECT``: MCTS),
    so that its board may show a heat map of the root's moves."""
    return EventKind.SELECT in spec.algorithm_type.work_kinds


def _backtracks(searches: Sequence[SearchSpec]) -> bool:
    """Whether one of ``searches`` steps back (its algorithm's ``backtracks``): the board
    legend then names the "undone" mark."""
    return any(getattr(s.algorithm_type, "backtracks", False) for s in searches)


def _fit_width(video: VideoOptions, boards: Boards) -> VideoOptions:
    """With ``[video] width``, the largest even tile size whose frame fits that width (and
    searchvid's largest frame, :data:`MAX_FRAME_PIXELS`, once padded to the width); tree
    panels shrink and columns may stack to fit (see
    :func:`~searchvid.render.fitting.fit_width`).

    Raises:
        OptionError: Key ``width``: not even 8-pixel tiles fit.
    """
    return fit_width(video, boards, max_pixels=MAX_FRAME_PIXELS)


def _check_frames(file: str, boards: Boards, video: VideoOptions, kind: OutputKind | None) -> None:
    """Refuse frames too large for ``kind`` (None: for any output), suggesting a tile size,
    and a GIF faster than browsers play it."""
    if kind is OutputKind.GIF and video.fps > GIF_MAX_FPS:
        raise SceneError(
            file,
            "video.fps",
            f"a GIF plays at most {GIF_MAX_FPS} frames a second in a browser (a delay under 2 "
            f"centiseconds is played as 10), got {video.fps}; use fps = {GIF_MAX_FPS} or less, "
            "or an MP4",
        )

    def fits(options: VideoOptions) -> str | None:
        width, height = boards.layout(options).size
        if width * height > MAX_FRAME_PIXELS:
            return (
                f"a frame of {width:,}x{height:,} px is larger than the {MAX_FRAME_PIXELS:,} "
                "px searchvid renders"
            )
        try:
            check_frame_size(kind if kind is not None else OutputKind.FOLDER, width, height)
        except UsageError as error:
            return str(error)
        return None

    problem = fits(video)
    if problem is None:
        return
    key, hint = _frame_hint(video, boards, fits)
    raise SceneError(file, f"video.{key}", f"{problem}; {hint}")


def _frame_hint(
    video: VideoOptions,
    boards: Boards,
    fits: Callable[[VideoOptions], str | None],
) -> tuple[str, str]:
    """The setting to change for a frame that is too large, and a value of it that fits.

    The tile size where it decides the frame's size (no ``width``), else the output width,
    else the tree panel's size: the first of these that can make the frame fit.
    """
    if not video.width:
        for size in range(video.tile_size - 2, 7, -2):
            if fits(dataclasses.replace(video, tile_size=size)) is None:
                return "tile_size", f"use tile_size = {size} or less"
    else:
        low, high = 0, video.width  # the widest fitting width, by bisection on even widths
        while high - low > 2:
            middle = (low + high) // 4 * 2
            try:
                narrower = _fit_width(dataclasses.replace(video, width=middle), boards)
            except OptionError:
                narrower = None
            if narrower is not None and fits(narrower) is None:
                low = middle
            else:
                high = middle
        if low:
            return "width", f"use width = {low} or less"
    if video.tree and (video.tree_width or video.tree_height):
        return "tree_width", "use a smaller tree_width and tree_height (0: the board's size)"
    return "tile_size", "the board is too large"


def _read_toml(path: Path) -> dict[str, Any]:
    file = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SceneError(file, "", f"cannot read the scene file: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SceneError(file, "", "not a UTF-8 text file") from None
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise SceneError(file, "", "invalid TOML: nested too deeply") from None
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = _TOML_POSITION.search(message)
        if match is None:
            raise SceneError(file, "", f"invalid TOML: {message}") from None
        line, column = match.groups()
        what = message[: match.start()]
        raise SceneError(file, f"line {line}", f"invalid TOML: {what} (column {column})") from None


def _plugin(
    file: str,
    table: Mapping[str, Any],
    key: str,
    registry: PluginRegistry[Any],
    folder: Path,
) -> type[Any]:
    """The class named by the section key ``key`` ("domain.name", "search.algorithm")."""
    name = table.get(key.rpartition(".")[2])
    listed = f"known {registry.what}s: {', '.join(registry.names())}"
    if name is None:
        raise SceneError(file, key, f"is required; {listed}")
    if isinstance(name, type):
        if not issubclass(name, registry.base):
            raise SceneError(file, key, f"{name.__name__} is not a {registry.what} class")
        try:
            registry.check_class(name)
        except OptionError as error:
            raise SceneError(file, key, error.message) from None
        return name
    if not isinstance(name, str):
        raise SceneError(file, key, f"must be a string; {listed}")
    try:
        return registry.resolve(name, folder=folder)
    except OptionError as error:
        raise SceneError(file, key, error.message) from None


def _load_domain(file: str, table: Mapping[str, Any], folder: Path) -> Domain:
    cls = _plugin(file, table, "domain.name", DOMAINS, folder)
    try:
        domain = make_domain(cls, table)
    except OptionError as error:
        raise SceneError(file, f"domain.{error.key}", error.message) from None
    if is_user_class(cls):  # searches keep nodes in sets: a node that cannot be fails now
        check_node(domain.root())
    return domain


def _load_search(
    file: str,
    domain: Domain,
    table: Mapping[str, Any],
    seed: int,
    folder: Path,
    section: str = "search",
) -> SearchSpec:
    """Validate a ``[search]`` table (key prefix ``section``) by building the search once."""
    cls = _plugin(file, table, f"{section}.algorithm", ALGORITHMS, folder)
    try:
        search = _build_search(domain, cls, table, random.Random(seed))
        search.check(domain.root())
    except OptionError as error:
        raise SceneError(file, f"{section}.{error.key}", error.message) from None
    except CapabilityError as error:
        raise SceneError(
            file, f"{section}.algorithm", f"{error} (domain '{domain.name}')"
        ) from None
    return SearchSpec(algorithm=cls.name, algorithm_type=cls, options=dict(table))


_COMPARISONS: weakref.WeakKeyDictionary[Scene, Comparison] = weakref.WeakKeyDictionary()
"""Each scene's ``[compare]`` search (:meth:`Scene._comparison`), run at most once."""

_SHARED_VALUES: weakref.WeakKeyDictionary[Scene, Mapping[str, ValueFunction]] = (
    weakref.WeakKeyDictionary()
)
"""Each scene's value functions (:meth:`Scene._value_functions`), gone with the scene."""


def _values(domain: Domain) -> dict[str, ValueFunction]:
    if not is_user_class(type(domain)):
        return {**GENERIC_VALUES, **domain.values()}
    # the user's values are checked where they enter: a nan must not rank nodes or reach a frame
    own = _offered(domain, "values")
    return {
        **checked_functions(
            GENERIC_VALUES, what="value function", label=domain.label, source=_reward_of
        ),
        **checked_functions(own, what="value function", label=domain.label),
    }


def _heuristics(domain: Domain) -> dict[str, Heuristic]:
    if not is_user_class(type(domain)):
        return {**GENERIC_HEURISTICS, **domain.heuristics()}
    own = checked_functions(_offered(domain, "heuristics"), what="heuristic", label=domain.label)
    return {**GENERIC_HEURISTICS, **own}


def _offered(domain: Domain, method: str) -> Mapping[str, Any]:
    """The user domain's ``values()`` or ``heuristics()``, refused unless a mapping of names
    to functions."""
    offered = getattr(domain, method)()
    if isinstance(offered, Mapping) and all(callable(f) for f in offered.values()):
        return offered
    raise UserCodeError(
        str(method_location(domain, method)),
        f"returned {shown(offered)}; it must return a mapping of names to functions",
    )


def _reward_of(node: Any) -> Location:
    return method_location(node, "reward")


def _domain_view(domain: Domain) -> View:
    """``domain.view()``; a view of the user's is checked (:class:`CheckedView`)."""
    view = domain.view()
    if not is_user_class(type(domain)):
        return view
    return CheckedView(view, source=domain, label=domain.label)


def _build_search(
    domain: Domain,
    cls: type[Algorithm[Any]],
    table: Mapping[str, Any],
    rng: random.Random,
    *,
    values: Mapping[str, ValueFunction] | None = None,
) -> Algorithm[Any]:
    return make_algorithm(
        cls,
        table,
        rng=rng,
        values=values if values is not None else _values(domain),
        heuristics=_heuristics(domain),
        default_value=domain.default_value,
        default_heuristic=domain.default_heuristic,
        goal=domain.is_goal if domain.has_goal else None,
    )


def _finite(value: float | None) -> float | None:
    """JSON has no infinities or NaN: those become None."""
    return value if value is not None and math.isfinite(value) else None


def _inside(inner: Path, outer: Path) -> bool:
    """Whether ``inner`` is ``outer`` or lies below it (paths need not exist)."""
    a, b = inner.resolve(), outer.resolve()
    return a == b or b in a.parents


def _best_name(cls: type[Algorithm[Any]], options: Mapping[str, Any]) -> str:
    """What the strip calls ``cls``'s best so far under the scene's ``options``: its
    ``best_name_for(options)`` where it has one (MCTS: ``best playout (not played)`` when
    a solving playout is not committed), else its :attr:`~searchvid.Algorithm.best_name`."""
    named = getattr(cls, "best_name_for", None)
    return str(named(options)) if named is not None else cls.best_name


def _settings(
    options: Mapping[str, Any],
    algorithm: str = "",
    frames: str = "all",
    has_goal: bool = True,
    narrator: Any = None,
    defaults: Mapping[str, Any] | None = None,
) -> tuple[Field, ...]:
    """A ``[search]`` table's settings as fields for the cards: every key the scene sets
    but the algorithm's name, in a reader's phrase where ``algorithm`` (its registry name)
    has one (:func:`~searchvid.render.setting_words.describe_setting`: ``transposition``
    reads ``remembers positions already solved``), else ``iterations 300``,
    ``heuristic runs``, a switch by its words alone: ``alpha beta``, ``no commit
    solution``. ``frames`` is the video's frame selection, for the phrases that say what
    the video shows of the search (``event_depth``). Where the domain has no goal
    (``has_goal`` false), the first field says what the search does instead
    (:func:`~searchvid.render.setting_words.describe_goal`: ``no goal: visits every node``).
    The options that decide how much of a game the search visits come first even where the
    scene leaves them at their ``defaults`` (the algorithm's;
    :func:`~searchvid.render.setting_words.unset_said`), in the words of the domain
    ``narrator``'s ``terms``, and the order the domain offers moves in ends the list
    (:func:`~searchvid.render.setting_words.describe_order`)."""
    fields = []
    known = {**options, FRAMES_KEY: frames, GOAL_KEY: has_goal}
    aim = describe_goal(algorithm, known)
    if aim is not None:
        fields.append(Field("", aim))
    unset = unset_said(algorithm, options, defaults or {})
    for key, value in {**unset, **options}.items():
        if key == "algorithm":
            continue
        phrase = describe_setting(algorithm, key, value, known, narrator)
        if phrase is not None:
            if phrase:  # "": another option's phrase says it
                fields.append(Field("", phrase))
            continue
        words = key.replace("_", " ")
        if isinstance(value, bool):  # "alpha beta on" reads as settings, not words
            fields.append(Field("", words if value else f"no {words}"))
            continue
        if not isinstance(value, int | float | str):
            value = str(value)
        fields.append(Field(words, value))
    order = describe_order(algorithm, narrator)
    if order is not None:
        fields.append(Field("", order))
    return tuple(fields)
