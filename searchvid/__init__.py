"""searchvid: turn tree searches on board games and puzzles into videos.

The public API is the names in ``__all__``; everything else is importable but private.

- Scenes: :func:`load_scene` (a TOML file or a shipped scene's name), :func:`scene_from_dict`
  (a scene built in code), :class:`Scene` (``render``, ``preview``, ``trace``, ``run``,
  ``with_overrides``) and :class:`RenderResult`.
- Your own loop: :class:`VideoWriter`, whose ``observe(node)`` adds a frame.
- Your own game: :class:`Domain`, :func:`option`, :class:`Capability`, a :class:`View` (tile
  art through a :class:`TileSet`) or the art-free :class:`GridView`.
- Your own search: :class:`Algorithm`, :class:`Event`, :class:`EventKind`.
"""

from importlib.metadata import PackageNotFoundError, version

from searchvid.domains.base import Domain
from searchvid.errors import OptionError, SceneError
from searchvid.options import option
from searchvid.render.gridview import GridView
from searchvid.render.pipeline import RenderResult, VideoWriter
from searchvid.render.view import TileSet, View
from searchvid.scene import Scene, load_scene, scene_from_dict
from searchvid.search.algorithm import Algorithm
from searchvid.search.events import Event, EventKind
from searchvid.search.node import Capability

try:
    __version__ = version("searchvid")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = [
    "Algorithm",
    "Capability",
    "Domain",
    "Event",
    "EventKind",
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
]
