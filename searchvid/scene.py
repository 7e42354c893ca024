"""Scene files: TOML (stdlib ``tomllib``) into a validated, frozen :class:`Scene`.

A scene names a domain, a search algorithm and video settings::

    title = "Railroad Ink: a random walk"
    seed = 7

    [domain]
    name = "railroad"          # other keys are the domain's options

    [search]
    algorithm = "random-walk"  # other keys are the algorithm's options
    restarts = 10

    [video]
    fps = 12

Every section is validated by its owner (the domain, the algorithm, :class:`VideoOptions`)
when the scene is loaded, and every problem becomes one :class:`~searchvid.errors.SceneError`
``FILE: KEY: what is wrong``. A loaded scene builds a fresh, seeded search for each run.
"""

from __future__ import annotations

import dataclasses
import random
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from searchvid.domains import Domain, domain_names, make_domain
from searchvid.errors import CapabilityError, OptionError, SceneError, UsageError
from searchvid.options import build_options, option
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.search.algorithm import Algorithm, algorithm_class, algorithm_names, make_algorithm
from searchvid.search.events import Event
from searchvid.search.values import Heuristic, ValueFunction, terminal_reward, zero_heuristic

GENERIC_VALUES: Mapping[str, ValueFunction] = {"reward": terminal_reward}
"""Value functions every domain offers besides its own (its own win on a name clash)."""

GENERIC_HEURISTICS: Mapping[str, Heuristic] = {"zero": zero_heuristic}
"""Heuristics every domain offers besides its own."""

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


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
    """A validated scene.

    Attributes:
        path: The scene file, as given.
        title: Title of the video.
        seed: Seed of the search's random source.
        domain_name: Registered name of the domain.
        domain: The domain, built from its options.
        algorithm: Registered name of the search algorithm.
        search_options: The ``[search]`` table (validated; ``algorithm`` included).
        video: The ``[video]`` settings.
    """

    path: Path
    title: str
    seed: int
    domain_name: str
    domain: Domain
    algorithm: str
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
            self.domain, self.algorithm, self.search_options, random.Random(self.seed)
        )

    def events(self) -> Iterator[Event]:
        """The event stream of a fresh search from the domain's root."""
        return self.search().traverse(self.root())

    def score(self) -> Callable[[Any], float] | None:
        """The value shown in the HUD: the one the scene's search ranks by, else the domain's
        default value function, else None."""
        field = algorithm_class(self.algorithm).value_option
        chosen = self.search_options.get(field) if field is not None else None
        name = chosen if isinstance(chosen, str) else self.domain.default_value
        return _values(self.domain).get(name) if name is not None else None

    def is_goal(self, node: Any) -> bool | None:
        """Whether ``node`` solves the domain; None for domains without a goal."""
        return bool(self.domain.is_goal(node)) if self.domain.has_goal else None

    def with_overrides(
        self,
        *,
        seed: int | None = None,
        max_frames: int | None = None,
        fps: int | None = None,
    ) -> Scene:
        """The same scene with command-line overrides applied (None: keep).

        Raises:
            UsageError: An override out of range, naming its command-line option.
        """
        table = {f.name: getattr(self.video, f.name) for f in dataclasses.fields(self.video)}
        flags = {"max_frames": ("--frames", max_frames), "fps": ("--fps", fps)}
        for key, (_, value) in flags.items():
            if value is not None:
                table[key] = value
        try:
            video = build_options(VideoOptions, table)
        except OptionError as error:
            flag = flags[error.key][0] if error.key in flags else error.key
            raise UsageError(f"{flag}: {error.message}") from None
        return dataclasses.replace(self, seed=self.seed if seed is None else seed, video=video)


def load_scene(path: Path | str) -> Scene:
    """Read and validate a scene file.

    Raises:
        SceneError: ``FILE: KEY: what is wrong`` for any problem, including unreadable files
            and TOML syntax errors (with the line).
    """
    path = Path(path)
    file = str(path)
    table = _read_toml(path)
    try:
        top = build_options(SceneFile, table)
    except OptionError as error:
        raise SceneError(file, error.key, error.message) from None
    domain = _load_domain(file, top.domain)
    algorithm = _load_search(file, domain, top.search, top.seed)
    try:
        video = build_options(VideoOptions, top.video)
    except OptionError as error:
        raise SceneError(file, f"video.{error.key}", error.message) from None
    return Scene(
        path=path,
        title=top.title or path.stem,
        seed=top.seed,
        domain_name=domain.name,
        domain=domain,
        algorithm=algorithm,
        search_options=dict(top.search),
        video=video,
    )


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
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = _TOML_POSITION.search(message)
        if match is None:
            raise SceneError(file, "", f"invalid TOML: {message}") from None
        line, column = match.groups()
        what = message[: match.start()]
        raise SceneError(file, f"line {line}", f"invalid TOML: {what} (column {column})") from None


def _registered_name(
    file: str, table: Mapping[str, Any], key: str, what: str, known: list[str]
) -> str:
    """The ``key`` of a section naming a registered ``what`` ("domain", "algorithm")."""
    name = table.get(key.partition(".")[2])
    listed = f"known {what}s: {', '.join(known)}"
    if name is None:
        raise SceneError(file, key, f"is required; {listed}")
    if not isinstance(name, str):
        raise SceneError(file, key, f"must be a string; {listed}")
    return name


def _load_domain(file: str, table: Mapping[str, Any]) -> Domain:
    name = _registered_name(file, table, "domain.name", "domain", domain_names())
    try:
        return make_domain(name, table)
    except OptionError as error:
        raise SceneError(file, f"domain.{error.key}", error.message) from None


def _load_search(file: str, domain: Domain, table: Mapping[str, Any], seed: int) -> str:
    """Validate the ``[search]`` table by building the search once; return its name."""
    name = _registered_name(file, table, "search.algorithm", "algorithm", algorithm_names())
    try:
        search = _build_search(domain, name, table, random.Random(seed))
        search.check(domain.root())
    except OptionError as error:
        raise SceneError(file, f"search.{error.key}", error.message) from None
    except CapabilityError as error:
        raise SceneError(file, "search.algorithm", f"{error} (domain '{domain.name}')") from None
    return search.name


def _values(domain: Domain) -> dict[str, ValueFunction]:
    return {**GENERIC_VALUES, **domain.values()}


def _build_search(
    domain: Domain, name: str, table: Mapping[str, Any], rng: random.Random
) -> Algorithm[Any]:
    return make_algorithm(
        name,
        table,
        rng=rng,
        values=_values(domain),
        heuristics={**GENERIC_HEURISTICS, **domain.heuristics()},
        default_value=domain.default_value,
        default_heuristic=domain.default_heuristic,
        goal=domain.is_goal if domain.has_goal else None,
    )
