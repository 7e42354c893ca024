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
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from searchvid.domains import DOMAINS, Domain, make_domain
from searchvid.errors import CapabilityError, OptionError, SceneError, UsageError
from searchvid.memory import peak_rss_mb
from searchvid.options import build_options, option
from searchvid.plugins import PluginRegistry
from searchvid.render.encode import OutputKind, check_frame_size, output_kind
from searchvid.render.pipeline import RenderJob, RenderResult, frame_size, render, render_frame
from searchvid.render.policy import assign_frames
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.resources import builtin_scenes_dir
from searchvid.search.algorithm import ALGORITHMS, Algorithm, make_algorithm
from searchvid.search.events import Event, EventKind
from searchvid.search.values import Heuristic, ValueFunction, terminal_reward, zero_heuristic

GENERIC_VALUES: Mapping[str, ValueFunction] = {"reward": terminal_reward}
"""Value functions every domain offers besides its own (its own win on a name clash)."""

GENERIC_HEURISTICS: Mapping[str, Heuristic] = {"zero": zero_heuristic}
"""Heuristics every domain offers besides its own."""

ProgressCallback = Callable[[int], None]
"""Called with the number of frames rendered so far."""

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_MAX_NAME = 255  # longest scene name or file name looked up

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
    search: Mapping[str, Any] = option(
        doc="The search: `algorithm` plus the algorithm's options (see the algorithm tables)."
    )
    video: Mapping[str, Any] = option({}, doc="Video settings (see the [video] table).")


@dataclass(frozen=True, eq=False)
class Scene:
    """A validated scene: what to search, how, and how to film it.

    Build one with :func:`load_scene` (a file or a shipped scene's name) or
    :func:`scene_from_dict` (a table built in code); both validate everything at once.

    Attributes:
        path: The scene file, as given (for a scene built in code, its ``name``).
        title: Title of the video.
        seed: Seed of the search's random source.
        domain_name: The domain's name (its class's ``name``).
        domain: The domain, built from its options.
        algorithm: The search algorithm's name (its class's ``name``).
        algorithm_type: The search algorithm's class.
        search_options: The ``[search]`` table (validated; ``algorithm`` included).
        video: The ``[video]`` settings.
    """

    path: Path
    title: str
    seed: int
    domain_name: str
    domain: Domain
    algorithm: str
    algorithm_type: type[Algorithm[Any]]
    search_options: Mapping[str, Any]
    video: VideoOptions

    @property
    def stem(self) -> str:
        """The file name without ``.toml``: the default name of renders."""
        return self.path.stem

    @property
    def hud_title(self) -> str:
        """The title shown in the video's status strip, e.g. ``random-walk · railroad``."""
        return f"{self.algorithm} · {self.domain_name}"

    def root(self) -> Any:
        """The domain's initial node."""
        return self.domain.root()

    def view(self) -> View:
        """The domain's view."""
        return self.domain.view()

    def label(self, node: Any) -> str:
        """The domain's label of ``node``."""
        return self.domain.label(node)

    def search(self) -> Algorithm[Any]:
        """A fresh search with its own ``random.Random(seed)``: same scene, same events."""
        return _build_search(
            self.domain, self.algorithm_type, self.search_options, random.Random(self.seed)
        )

    def events(self) -> Iterator[Event]:
        """The event stream of a fresh search from the domain's root (not cut at max_frames)."""
        return self.search().traverse(self.root())

    def score(self) -> Callable[[Any], float] | None:
        """The value shown in the HUD: the one the scene's search ranks by, else the domain's
        default value function, else None."""
        field = self.algorithm_type.value_option
        chosen = self.search_options.get(field) if field is not None else None
        name = chosen if isinstance(chosen, str) else self.domain.default_value
        return _values(self.domain).get(name) if name is not None else None

    def is_goal(self, node: Any) -> bool | None:
        """Whether ``node`` solves the domain; None for domains without a goal."""
        return bool(self.domain.is_goal(node)) if self.domain.has_goal else None

    def render_job(self) -> RenderJob:
        """What the renderer needs: the view, the video options and the HUD's content."""
        score = self.score()
        return RenderJob(
            view=self.view(),
            video=self.video,
            title=self.hud_title,
            score=score,
            values=score is not None,
        )

    def check_frames(self, kind: OutputKind) -> None:
        """Refuse, before any work, frames that the output ``kind`` cannot hold.

        Raises:
            SceneError: Naming the scene, ``video.tile_size``, the limit, and the largest
                tile size that fits.
        """
        _check_frames(str(self.path), self.view().shape, self.video, kind)

    def with_overrides(
        self,
        *,
        seed: int | None = None,
        frames: int | None = None,
        fps: int | None = None,
    ) -> Scene:
        """The same scene with some settings replaced (None: keep).

        Args:
            seed: The search's seed (>= 0).
            frames: ``[video] max_frames``.
            fps: ``[video] fps``.

        Raises:
            UsageError: A value out of range, naming the matching command-line option.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise UsageError(f"--seed: must be an integer >= 0, got {seed!r}")
        table = {f.name: getattr(self.video, f.name) for f in dataclasses.fields(self.video)}
        flags = {"max_frames": ("--frames", frames), "fps": ("--fps", fps)}
        for key, (_, value) in flags.items():
            if value is not None:
                table[key] = value
        try:
            video = build_options(VideoOptions, table)
        except OptionError as error:
            flag = flags[error.key][0] if error.key in flags else error.key
            raise UsageError(f"{flag}: {error.message}") from None
        return dataclasses.replace(self, seed=self.seed if seed is None else seed, video=video)

    def render(
        self,
        out: str | os.PathLike[str] | None = None,
        *,
        progress: bool | ProgressCallback = False,
        snapshots: str | os.PathLike[str] | None = None,
    ) -> RenderResult:
        """Render the scene to a video.

        Args:
            out: ``NAME.mp4``, ``NAME.gif`` or a folder (one ``frame_000000.png`` per frame);
                default ``renders/<stem>.mp4``. Written under a temporary name and renamed
                when complete: on an error or interrupt nothing is left at ``out``.
            progress: True draws a progress bar on stderr; a callable receives the number of
                frames done after each frame.
            snapshots: Also write ``improve_NNNN.png`` into this folder whenever the best
                value improves.

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
        self.check_frames(output_kind(target))
        job = self.render_job()
        if progress is True:
            from searchvid.progress import progress_bar

            with progress_bar(self.video.max_frames) as advance:
                return render(self.events(), job, target, progress=advance, snapshots=folder)
        callback = progress if callable(progress) else None
        return render(self.events(), job, target, progress=callback, snapshots=folder)

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
        pixels = render_frame(self.events(), self.render_job(), frame)
        return Image.fromarray(pixels, mode="RGB")

    def trace(self, limit: int | None = None) -> Iterator[dict[str, Any]]:
        """The event stream as records ``{"step", "kind", "depth", "label", "value", "frame"}``.

        ``frame`` is the index of the video frame the event becomes, or None; values that are
        not finite numbers are None (JSON has no infinities). The stream is cut where the video
        is full, as in :meth:`render`.

        Args:
            limit: Yield at most this many records (None: all).
        """
        pairs = assign_frames(self.events(), self.video)
        for count, (event, frame) in enumerate(pairs):
            if limit is not None and count >= limit:
                return
            yield {
                "step": event.step,
                "kind": event.kind.value,
                "depth": event.depth,
                "label": self.label(event.node),
                "value": _finite(event.value),
                "frame": frame,
            }

    def run(self) -> dict[str, Any]:
        """Run the search up to the video's frame limit, without drawing; its statistics.

        Returns:
            The object ``searchvid run --json`` prints: ``scene``, ``title``, ``domain``,
            ``algorithm``, ``seed``, ``events``, ``frames``, ``seconds``, ``peak_rss_mb``,
            ``best`` (``{"label", "value", "depth"}`` or None) and ``solved`` (None for a
            domain without a goal). Where the search reached a goal, ``best`` is that goal
            (the best-valued one reported, else the first reached) and ``solved`` is true.
        """
        outcome = _Outcome(self)
        events = frames = 0
        start = time.perf_counter()
        for event, frame in assign_frames(self.events(), self.video):
            outcome.see(event)
            events += 1
            frames += frame is not None
        seconds = time.perf_counter() - start
        return {
            "scene": str(self.path),
            "title": self.title,
            "domain": self.domain_name,
            "algorithm": self.algorithm,
            "seed": self.seed,
            "events": events,
            "frames": frames,
            "seconds": round(seconds, 6),
            "peak_rss_mb": peak_rss_mb(),
            "best": outcome.best_record(),
            "solved": outcome.solved(),
        }


class _Outcome:
    """What a run found: the best node reported, and whether (and where) a goal was reached."""

    def __init__(self, scene: Scene) -> None:
        self._scene = scene
        self._goal_test = scene.domain.is_goal if scene.domain.has_goal else None
        self._best: tuple[Any, float | None, int] | None = None  # latest IMPROVE
        self._best_goal: tuple[Any, float | None, int] | None = None  # best IMPROVE at a goal
        self._first_goal: tuple[Any, float | None, int] | None = None  # first goal shown
        self._checked: set[int] = set()

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
            score = self._scene.score()
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
    algorithm = _load_search(file, domain, top.search, top.seed, folder)
    try:
        video = build_options(VideoOptions, top.video)
    except OptionError as error:
        raise SceneError(file, f"video.{error.key}", error.message) from None
    _check_frames(file, domain.view().shape, video, None)
    return Scene(
        path=path,
        title=top.title or path.stem,
        seed=top.seed,
        domain_name=domain.name,
        domain=domain,
        algorithm=algorithm.name,
        algorithm_type=algorithm,
        search_options=dict(top.search),
        video=video,
    )


def _check_frames(
    file: str, shape: tuple[int, int], video: VideoOptions, kind: OutputKind | None
) -> None:
    """Refuse frames too large for ``kind`` (None: for any output), suggesting a tile size."""

    def fits(options: VideoOptions) -> str | None:
        width, height = frame_size(shape, options)
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
    smaller = (
        size
        for size in range(video.tile_size - 2, 7, -2)
        if fits(dataclasses.replace(video, tile_size=size)) is None
    )
    best = next(smaller, None)
    hint = f"use tile_size = {best} or less" if best is not None else "the board is too large"
    raise SceneError(file, "video.tile_size", f"{problem}; {hint}")


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
    name = table.get(key.partition(".")[2])
    listed = f"known {registry.what}s: {', '.join(registry.names())}"
    if name is None:
        raise SceneError(file, key, f"is required; {listed}")
    if isinstance(name, type):
        if not issubclass(name, registry.base):
            raise SceneError(file, key, f"{name.__name__} is not a {registry.what} class")
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
        return make_domain(cls, table)
    except OptionError as error:
        raise SceneError(file, f"domain.{error.key}", error.message) from None


def _load_search(
    file: str, domain: Domain, table: Mapping[str, Any], seed: int, folder: Path
) -> type[Algorithm[Any]]:
    """Validate the ``[search]`` table by building the search once; return its class."""
    cls = _plugin(file, table, "search.algorithm", ALGORITHMS, folder)
    try:
        search = _build_search(domain, cls, table, random.Random(seed))
        search.check(domain.root())
    except OptionError as error:
        raise SceneError(file, f"search.{error.key}", error.message) from None
    except CapabilityError as error:
        raise SceneError(file, "search.algorithm", f"{error} (domain '{domain.name}')") from None
    return cls


def _values(domain: Domain) -> dict[str, ValueFunction]:
    return {**GENERIC_VALUES, **domain.values()}


def _build_search(
    domain: Domain, cls: type[Algorithm[Any]], table: Mapping[str, Any], rng: random.Random
) -> Algorithm[Any]:
    return make_algorithm(
        cls,
        table,
        rng=rng,
        values=_values(domain),
        heuristics={**GENERIC_HEURISTICS, **domain.heuristics()},
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
