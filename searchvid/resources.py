"""Where searchvid's data lives: the tile art, the shipped scenes and the examples.

In the repository they are the top-level folders ``tile_assets/`` and ``scenes/``. A built wheel
(and so ``pip install .``) carries them inside the package as ``searchvid/tile_assets`` and
``searchvid/scenes`` (``pyproject.toml`` maps them there). An editable install and a plain
source tree have only the top-level folders, beside the ``searchvid`` package. The functions here
return the installed copy when there is one, else the checkout's, so the same code works in a
wheel install, an editable install and a source tree.
"""

from __future__ import annotations

import os
from pathlib import Path

TILE_ASSETS_ENV = "SEARCHVID_TILE_ASSETS"
"""Environment variable naming another ``tile_assets`` folder (tests, custom art)."""

_PACKAGE = Path(__file__).resolve().parent


def tile_assets_dir() -> Path:
    """The folder holding ``<tile set folder>/<tile name>.png`` for the built-in domains.

    ``$SEARCHVID_TILE_ASSETS`` when it is set and not empty; else the art installed with the
    package (``searchvid/tile_assets``); else the source checkout's top-level ``tile_assets/``.
    The folder is not required to exist: loading a tile from it reports the missing file.
    """
    override = os.environ.get(TILE_ASSETS_ENV)
    if override:
        return Path(override)
    return _data_dir("tile_assets")


def builtin_scenes_dir() -> Path:
    """The folder of the scenes shipped with searchvid (``*.toml``), looked up by bare name.

    The scenes installed with the package (``searchvid/scenes``), else the source checkout's
    top-level ``scenes/``. The folder is not required to exist.
    """
    return _data_dir("scenes")


def examples_dir() -> Path:
    """The folder of the examples (a domain written outside searchvid, its scene, a render from
    Python, your own loop): installed as ``searchvid/examples``, else the checkout's
    ``examples/``. ``searchvid examples DIR`` copies them out."""
    return _data_dir("examples")


def _data_dir(name: str) -> Path:
    """``searchvid/<name>`` if installed there, else ``<checkout>/<name>`` if that exists.

    When neither exists the installed location is returned, so that an error names the place a
    correct installation would hold the file.
    """
    installed = _PACKAGE / name
    checkout = _PACKAGE.parent / name
    if not installed.is_dir() and checkout.is_dir():
        return checkout
    return installed
