"""``searchvid new``: a game of your own to start from, with every hook in place.

:func:`write_project` writes three files into a folder: a domain module whose every hook is
present and commented (a one-player puzzle, Lights Out, or a two-player game, k in a row),
a scene that names it by import path, and a pytest file that runs the conformance checks on
it. What it writes passes ``searchvid check`` and renders at once; the templates beside this
module are the text, with ``$name`` placeholders (:class:`string.Template`).
"""

from __future__ import annotations

import keyword
import os
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from searchvid.errors import UsageError

MAX_SIDE = 26
"""Most rows or columns (cells are named by a letter and a number)."""

BOARD_PIXELS = 480
"""About how wide the scene's board is drawn: the tile size is this over the longer side."""

MINIMAX_CELLS = 9
"""Boards up to this many cells get an alpha-beta minimax scene (it solves 3x3 at once);
bigger ones an MCTS scene (a full minimax of 4x4 takes minutes)."""


@dataclass(frozen=True)
class Project:
    """What ``searchvid new`` writes: the file names and the text of each."""

    files: dict[str, str]


def class_name(module: str) -> str:
    """``Mygame`` for ``mygame``, ``MyGame`` for ``my_game``: the domain class's name."""
    return "".join(part[:1].upper() + part[1:] for part in module.split("_") if part)


def check_name(name: str) -> None:
    """Refuse a module name that Python cannot import, or that would hide another module.

    Raises:
        UsageError: Naming the problem and what is allowed.
    """
    if not name.isidentifier() or not name.isascii():
        raise UsageError(
            f"NAME: {name!r} is not a Python module name: use letters, digits and _, "
            "not starting with a digit (for example mygame)"
        )
    if keyword.iskeyword(name) or name in sys.stdlib_module_names or name == "searchvid":
        raise UsageError(
            f"NAME: {name!r} would hide Python's own module of that name: choose another"
        )
    if not class_name(name):
        raise UsageError(f"NAME: {name!r} needs a letter or a digit besides _")


def parse_grid(text: str) -> tuple[int, int]:
    """``"4x5"`` -> ``(4, 5)``: rows and columns, each 1 to :data:`MAX_SIDE`.

    Raises:
        UsageError: Not ROWSxCOLS, or a side out of range.
    """
    rows, sep, cols = text.lower().partition("x")
    if not sep or not rows.isdigit() or not cols.isdigit():
        raise UsageError(f"--grid: {text!r} is not ROWSxCOLS (for example 3x3)")
    size = int(rows), int(cols)
    if not all(1 <= side <= MAX_SIDE for side in size):
        raise UsageError(f"--grid: rows and columns must be from 1 to {MAX_SIDE}, got {text}")
    return size


def project(name: str, *, players: int = 1, grid: tuple[int, int] = (3, 3)) -> Project:
    """The files of a new game called ``name``: ``NAME.py``, ``NAME.toml``, ``test_NAME.py``.

    Args:
        name: The module's name (:func:`check_name`); the class is :func:`class_name`.
        players: 1 for a puzzle (Lights Out), 2 for a game (k in a row).
        grid: Rows and columns of the board.

    Raises:
        UsageError: A bad name, or a board too small for two players.
    """
    check_name(name)
    rows, cols = grid
    cells = rows * cols
    values = {
        "module": name,
        "cls": class_name(name),
        "title": class_name(name),
        "rows": str(rows),
        "cols": str(cols),
        "tile": str(_tile_size(rows, cols)),
    }
    if players == 1:
        presses = sorted({0, cells // 2, cells - 1})
        values["presses"] = (
            "(" + ", ".join(map(str, presses)) + ("," if len(presses) == 1 else "") + ")"
        )
        kind = "puzzle"
        scene = _text("puzzle.toml.tmpl", values)
    else:
        if max(rows, cols) < 2:
            raise UsageError("--grid: a two-player game needs a row or a column of 2 cells")
        values["k"] = str(min(3, max(rows, cols)))
        kind = "game"
        scene = _text("game.toml.tmpl", values)
        if cells > MINIMAX_CELLS:
            scene = _mcts_scene(scene)
    return Project(
        {
            f"{name}.py": _text(f"{kind}.py.tmpl", values),
            f"{name}.toml": scene,
            f"test_{name}.py": _text("test.py.tmpl", values),
        }
    )


def write_project(project: Project, folder: Path) -> list[Path]:
    """Write ``project``'s files into ``folder``, refusing to overwrite any file.

    Nothing is written when one of the files exists already; each file is written whole
    (a temporary file renamed into place).

    Raises:
        UsageError: A file exists, or the folder is missing.
    """
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder")
    paths = [folder / file for file in project.files]
    for path in paths:
        if path.exists():
            raise UsageError(f"{path}: exists already; move it away or choose another NAME")
    for path, text in zip(paths, project.files.values(), strict=True):
        partial = path.with_name(f".{path.name}.part")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    return paths


def _tile_size(rows: int, cols: int) -> int:
    """An even tile size near :data:`BOARD_PIXELS` over the longer side, 24 to 128 px."""
    return max(24, min(128, BOARD_PIXELS // max(rows, cols) // 2 * 2))


def _text(template: str, values: dict[str, str]) -> str:
    source = resources.files(__name__).joinpath(template).read_text(encoding="utf-8")
    return Template(source).substitute(values)


def _mcts_scene(scene: str) -> str:
    """The game scene with MCTS, which plays a board too big to solve, in place of minimax."""
    start, end = scene.index("[search]"), scene.index("[video]")
    search = (
        "[search]\n"
        'algorithm = "mcts"         # a board too big to solve at once: MCTS plays each move\n'
        'mode = "plan"              # think, then commit a move, for both players\n'
        "iterations = 300           # playouts per move\n"
        'opponent = "mcts"\n\n'
    )
    scene = scene[:start] + search + scene[end:]
    return scene.replace(
        "alpha-beta minimax solves the game, then plays it", "MCTS plays both sides"
    ).replace("alpha-beta minimax, then the best game", "MCTS plays both sides")
