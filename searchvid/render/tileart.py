"""Writing a domain's tile art to ``tile_assets/<domain>/`` (what ``make tiles`` runs).

Each domain's ``art.py`` draws its tiles by name; this module saves them and provides the
``python -m searchvid.domains.<name>.art OUTDIR`` entry point, so the art on disk is always
exactly what the drawing code makes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from PIL import Image


def write_tile_pngs(
    names: Iterable[str], draw: Callable[[str], Image.Image], folder: Path
) -> list[Path]:
    """Draw every named tile to ``folder/<name>.png`` (folder created if needed).

    Returns:
        The paths written, in the order of ``names``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        path = folder / f"{name}.png"
        draw(name).save(path, format="PNG", optimize=True)
        paths.append(path)
    return paths


def tile_art_main(
    module: str,
    write: Callable[[Path], list[Path]],
    argv: Sequence[str] | None = None,
) -> int:
    """Command-line entry point of a domain's ``art`` module: write the tiles into OUTDIR.

    Args:
        module: The module's dotted name, for the usage line.
        write: The module's ``write_tiles(folder)``.
        argv: Arguments (default ``sys.argv[1:]``).

    Returns:
        The exit code: 0, or 2 for bad usage.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write(f"usage: python -m {module} OUTDIR\n")
        return 2
    write(Path(args[0]))
    return 0
