"""Conformance of every domain's committed tile art (any tile set loaded from a folder).

The PNGs in ``tile_assets/<folder>/`` are exactly the view's tiles, equal pixel for pixel to
what the domain's ``art`` module draws now (so art and assets never drift), all distinct,
with colour edges on even pixels (yuv420p keeps them sharp), and ``python -m
searchvid.domains.<name>.art OUTDIR`` writes every one of them.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from searchvid.domains import domain_class, domain_names, make_domain
from searchvid.render.view import TileSet

REPO = Path(__file__).resolve().parent.parent.parent
ASSETS = REPO / "tile_assets"
TILE_SIZE = 100


def _package(domain: str) -> str:
    """The package of a domain's class (``searchvid.domains.<name>`` for built-in ones)."""
    return ".".join(domain_class(domain).__module__.split(".")[:3])


def _art_domains() -> list[str]:
    """The built-in domains whose tiles are committed art (plugins bring their own)."""
    names = []
    for name in domain_names():
        builtin = _package(name).startswith("searchvid.domains.")
        if builtin and make_domain(name, {}).view().tileset.folder is not None:
            names.append(name)
    return names


ART_DOMAINS = _art_domains()


def _tileset(domain: str) -> TileSet:
    return make_domain(domain, {}).view().tileset


def _art_module(domain: str) -> str:
    return f"{_package(domain)}.art"


def _art(domain: str) -> ModuleType:
    return importlib.import_module(_art_module(domain))


def _pixels(image: Image.Image) -> npt.NDArray[np.uint8]:
    return np.asarray(image.convert("RGB"))


def _makefile_tile_domains() -> list[str]:
    found = re.search(r"^TILE_DOMAINS\s*:?=(.*)$", (REPO / "Makefile").read_text(), re.M)
    assert found is not None, "the Makefile defines no TILE_DOMAINS"
    return found.group(1).split()


def test_every_art_folder_belongs_to_a_domain_and_make_tiles_redraws_it() -> None:
    assert ART_DOMAINS, "no built-in domain loads its tiles from a folder"
    folders = {domain: _tileset(domain).folder for domain in ART_DOMAINS}
    on_disk = sorted(path.name for path in ASSETS.iterdir() if path.is_dir())
    assert on_disk == sorted(str(folder) for folder in folders.values())
    # `make tiles` runs `python -m searchvid.domains.$d.art tile_assets/$d` for each $d
    for domain, folder in folders.items():
        assert _package(domain) == f"searchvid.domains.{folder}", domain
        assert callable(_art(domain).draw_tile), domain
    assert sorted(_makefile_tile_domains()) == sorted(str(f) for f in folders.values())


@pytest.mark.parametrize("domain", ART_DOMAINS)
def test_the_folder_holds_exactly_the_view_tiles(domain: str) -> None:
    tiles = _tileset(domain)
    assert tiles.folder is not None
    on_disk = sorted(p.stem for p in (ASSETS / tiles.folder).glob("*.png"))
    assert on_disk == sorted(tiles.names)


@pytest.mark.parametrize("domain", ART_DOMAINS)
def test_committed_tiles_are_what_the_art_draws_now(domain: str) -> None:
    tiles, art = _tileset(domain), _art(domain)
    assert tiles.folder is not None
    for name in tiles.names:
        with Image.open(ASSETS / tiles.folder / f"{name}.png") as stored:
            assert stored.size == (TILE_SIZE, TILE_SIZE), name
            drawn = _pixels(art.draw_tile(name))
            assert np.array_equal(_pixels(stored), drawn), name


@pytest.mark.parametrize("domain", ART_DOMAINS)
def test_no_two_tiles_draw_identically(domain: str) -> None:
    art, seen = _art(domain), {}
    for name in _tileset(domain).names:
        data = _pixels(art.draw_tile(name)).tobytes()
        assert data not in seen, f"{name} draws exactly like {seen.get(data)}"
        seen[data] = name


@pytest.mark.parametrize("domain", ART_DOMAINS)
def test_colour_edges_lie_on_even_pixels(domain: str) -> None:
    art = _art(domain)
    for name in _tileset(domain).names:
        array = _pixels(art.draw_tile(name))
        blocks = array.reshape(TILE_SIZE // 2, 2, TILE_SIZE // 2, 2, 3)
        assert (blocks == blocks[:, :1, :, :1, :]).all(), name


@pytest.mark.parametrize("domain", ART_DOMAINS)
def test_the_art_command_writes_every_tile(domain: str, tmp_path: Path) -> None:
    tiles = _tileset(domain)
    module = _art_module(domain)
    done = subprocess.run([sys.executable, "-m", module, str(tmp_path)], check=False)
    assert done.returncode == 0
    assert sorted(p.stem for p in tmp_path.glob("*.png")) == sorted(tiles.names)
    usage = subprocess.run([sys.executable, "-m", module], capture_output=True, text=True)
    assert usage.returncode == 2
    assert f"usage: python -m {module} OUTDIR" in usage.stderr
