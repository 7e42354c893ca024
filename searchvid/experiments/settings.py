"""``--set KEY=VALUE``: a scene-file key replaced by a value, for ``run`` and ``sweep``.

KEY is a dotted path into the scene file's table: ``search.iterations``, ``domain.size``,
``video.max_frames``, ``title``; in a race (several ``[[search]]`` tables) ``search[1].width``
names the second search. VALUE is written as in TOML (``400``, ``0.5``, ``true``,
``"greedy"``, ``[1, 2]``); a bare word that is not TOML is taken as a string, so
``search.algorithm=beam`` works. ``sweep`` takes several values separated by commas
(``search.iterations=100,400,1600``); commas inside brackets or quotes do not separate.

A scene with settings is built from its table (the file's, or the one given in code) with
those keys replaced, through :func:`searchvid.scene_from_dict`, so a bad value is the same
``FILE: KEY: what is wrong`` error a bad file gives.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from searchvid.errors import UsageError

_STEP = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+)\])?$")
_TOP_KEYS = ("title", "domain", "search", "video")


@dataclass(frozen=True)
class Setting:
    """One ``--set`` option: a key and the values it takes.

    Attributes:
        key: The dotted key, as written (``search.iterations``).
        values: The values, parsed (``(100, 400, 1600)``).
        texts: The values as written, stripped: the cells of the key's column.
    """

    key: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]


def parse_setting(text: str, *, several: bool = True) -> Setting:
    """Read one ``KEY=VALUE[,VALUE...]`` option.

    Args:
        text: The option's text.
        several: Whether commas separate several values (``sweep``); else the whole text
            after ``=`` is one value (``run``).

    Raises:
        UsageError: No ``=``, a key that is not a scene key, or no value.
    """
    key, equals, rest = text.partition("=")
    key = key.strip()
    if not equals or not key:
        raise UsageError(f"--set {text!r}: write KEY=VALUE, e.g. search.iterations=400")
    check_key(key)
    texts = tuple(part.strip() for part in (_split(rest) if several else [rest]))
    if any(not part for part in texts):
        raise UsageError(f"--set {key}: a value is empty")
    if len(set(texts)) != len(texts):
        raise UsageError(f"--set {key}: a value is repeated")
    return Setting(key, tuple(parse_value(part) for part in texts), texts)


def check_key(key: str) -> None:
    """Refuse a key that cannot name a scene-file key (``seed`` has options of its own).

    Raises:
        UsageError: Naming the key and what is allowed.
    """
    steps = key.split(".")
    first = _STEP.match(steps[0])
    top = first.group(1) if first else steps[0]
    if top == "seed":
        raise UsageError("--set seed: the seed has its own option (--seed, or --seeds in sweep)")
    if top not in _TOP_KEYS or any(_STEP.match(step) is None for step in steps):
        allowed = ", ".join(f"{name}.KEY" if name != "title" else name for name in _TOP_KEYS)
        raise UsageError(f"--set {key}: not a scene key; allowed: {allowed}, search[i].KEY")
    if top in ("domain", "search", "video") and len(steps) < 2:
        raise UsageError(f"--set {key}: name a key inside [{top}], e.g. {top}.KEY")


def parse_value(text: str) -> Any:
    """A value written as in TOML; a bare word that TOML refuses is a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _split(text: str) -> list[str]:
    """``text`` cut at its commas outside brackets, braces and quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def apply_settings(table: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a scene table with the keys of ``values`` (dotted) replaced.

    Raises:
        UsageError: A key that goes through something that is not a table (``search.X``
            in a race, ``search[3].X`` with two searches).
    """
    result = copy.deepcopy(dict(table))
    for key, value in values.items():
        check_key(key)
        _put(result, key, value)
    return result


def _put(table: dict[str, Any], key: str, value: Any) -> None:
    steps = key.split(".")
    here: Any = table
    for depth, step in enumerate(steps):
        found = _STEP.match(step)
        assert found is not None  # check_key matched every step
        name, index = found.group(1), found.group(2)
        last = depth == len(steps) - 1 and index is None
        if last:
            here[name] = value
            return
        inner = here.get(name)
        if inner is None:
            inner = here[name] = {}
        if index is not None:
            inner = _item(key, name, inner, int(index))
        elif isinstance(inner, list):
            raise UsageError(
                f"--set {key}: the scene has {len(inner)} [[{name}]] tables; "
                f"name one: {name}[0].{'.'.join(steps[depth + 1 :])}"
            )
        elif not isinstance(inner, dict):
            raise UsageError(f"--set {key}: {name} is a value, not a table")
        if depth == len(steps) - 1:  # `search[1]` alone: the whole table is replaced
            raise UsageError(f"--set {key}: name a key inside it, e.g. {key}.KEY")
        here = inner


def _item(key: str, name: str, inner: Any, index: int) -> dict[str, Any]:
    tables = [inner] if isinstance(inner, dict) else inner
    if not isinstance(tables, list) or not 0 <= index < len(tables):
        count = len(tables) if isinstance(tables, list) else 0
        raise UsageError(f"--set {key}: the scene has {count} {name} table(s)")
    found = tables[index]
    if not isinstance(found, dict):
        raise UsageError(f"--set {key}: {name}[{index}] is not a table")
    return found


@dataclass(frozen=True)
class SceneSource:
    """What a worker needs to build a scene: the scene file's table, its name and folder.

    A scene travels to workers (other processes, other machines) as this plain data rather
    than as a pickled :class:`~searchvid.Scene`, whose domain may be a class of the user's.

    Attributes:
        table: The scene's table, as read from its file (or given in code).
        name: The scene's name: its path as given, as ``run --json`` prints it.
        folder: Where ``"module:Class"`` names are looked up first.
        digest: A hash of the three: what the source is compared and hashed by.
    """

    table: Mapping[str, Any] = field(compare=False, hash=False)
    name: str
    folder: str
    digest: str = ""

    @classmethod
    def of(cls, table: Mapping[str, Any], name: str, folder: str) -> SceneSource:
        """A source, with its digest."""
        text = json.dumps([table, name, folder], sort_keys=True, default=repr)
        return cls(table, name, folder, hashlib.sha256(text.encode()).hexdigest())

    def scene(self, values: Mapping[str, Any] | None = None) -> Any:
        """The scene with ``values`` (dotted keys) set: a :class:`~searchvid.Scene`."""
        from searchvid.scene import scene_from_dict

        table = apply_settings(self.table, values or {})
        return scene_from_dict(table, name=self.name, folder=self.folder)


def source_of(
    scene: str | os.PathLike[str] | Mapping[str, Any], *, name: str = "scene"
) -> SceneSource:
    """The :class:`SceneSource` of a scene file (path or shipped name) or table.

    The file is validated first (:func:`searchvid.load_scene`), so a bad file gives its
    usual error, with its line.

    Raises:
        UsageError: No such scene; SceneError: a bad scene.
    """
    if isinstance(scene, Mapping):
        from searchvid.scene import scene_from_dict

        scene_from_dict(scene, name=name)  # validated here, once
        return SceneSource.of(copy.deepcopy(dict(scene)), name, str(Path.cwd()))
    if not isinstance(scene, str | os.PathLike):
        raise TypeError(
            f"a scene to sweep is a scene file's path, a shipped scene's name or a table "
            f"(dict), not {type(scene).__name__}: workers build it from that source"
        )
    from searchvid.scene import load_scene, resolve_scene

    path = resolve_scene(scene)
    load_scene(path)
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    return SceneSource.of(table, str(path), str(path.parent))


def load_with_settings(text: str, settings: Sequence[str]) -> Any:
    """``run --set``: the scene named by ``text`` with each ``KEY=VALUE`` of ``settings``.

    Raises:
        UsageError: A bad option; SceneError: a bad value for the key.
    """
    from searchvid.scene import load_scene

    if not settings:
        return load_scene(text)
    parsed = [parse_setting(item, several=False) for item in settings]
    return source_of(text).scene({one.key: one.values[0] for one in parsed})
