"""searchvid: turn tree searches on board games and puzzles into videos.

The public API is the names in ``__all__``; everything else is importable but private.

- Scenes: :func:`load_scene` (a TOML file or a shipped scene's name), :func:`scene_from_dict`
  (a scene built in code), :class:`Scene` (``render``, ``preview``, ``trace``, ``run``,
  ``with_overrides``) and :class:`RenderResult`.
- Your own loop: :class:`VideoWriter`, whose ``observe(node)`` adds a frame.
- Your own game: :class:`Domain`, :func:`option`, :class:`OptionError`, :class:`Capability`,
  a :class:`View` (tile art through a :class:`TileSet`) or the art-free :class:`GridView`,
  and :class:`Field` for the status strip.
- Your own search: :class:`Algorithm`, :class:`Event`, :class:`EventKind`.
- Many runs: :func:`sweep` (settings x seeds on any executor, one row per run) and
  :func:`to_pandas` (those rows as a DataFrame, where pandas is installed).

The names are imported on first use, so that ``import searchvid`` (and the command line's
start, which must catch Ctrl-C at once) stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from searchvid.domains.base import Domain
    from searchvid.errors import OptionError, SceneError
    from searchvid.experiments.api import sweep, to_pandas
    from searchvid.options import option
    from searchvid.render.gridview import GridView
    from searchvid.render.pipeline import RenderResult
    from searchvid.render.view import TileSet, View
    from searchvid.render.writer import VideoWriter
    from searchvid.scene import Scene, load_scene, scene_from_dict
    from searchvid.search.algorithm import Algorithm
    from searchvid.search.events import Event, EventKind
    from searchvid.search.node import Capability
    from searchvid.search.status import Field

_HOMES: dict[str, str] = {
    "Algorithm": "searchvid.search.algorithm",
    "Capability": "searchvid.search.node",
    "Domain": "searchvid.domains.base",
    "Event": "searchvid.search.events",
    "EventKind": "searchvid.search.events",
    "Field": "searchvid.search.status",
    "GridView": "searchvid.render.gridview",
    "OptionError": "searchvid.errors",
    "RenderResult": "searchvid.render.pipeline",
    "Scene": "searchvid.scene",
    "SceneError": "searchvid.errors",
    "TileSet": "searchvid.render.view",
    "VideoWriter": "searchvid.render.writer",
    "View": "searchvid.render.view",
    "load_scene": "searchvid.scene",
    "option": "searchvid.options",
    "scene_from_dict": "searchvid.scene",
    "sweep": "searchvid.experiments.api",
    "to_pandas": "searchvid.experiments.api",
}

__version__ = "0.1.0"
"""The installed version: pyproject.toml's ``[project] version``, which a test keeps equal.
A constant, not ``importlib.metadata``: importing that alone took 35 ms of the 0.15 s
that ``searchvid --version`` may take (issue 22)."""

__all__ = [
    "Algorithm",
    "Capability",
    "Domain",
    "Event",
    "EventKind",
    "Field",
    "GridView",
    "OptionError",
    "RenderResult",
    "Scene",
    "SceneError",
    "TileSet",
    "VideoWriter",
    "View",
    "__version__",
    "load_scene",
    "option",
    "scene_from_dict",
    "sweep",
    "to_pandas",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    if name in _HOMES:
        found = getattr(importlib.import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'searchvid' has no attribute {name!r}")
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted(__all__)
