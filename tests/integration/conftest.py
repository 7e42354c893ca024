"""Fixtures for tests of searchvid as a user installs it: the built wheel in a fresh venv.

Tests here are marked ``@pytest.mark.integration``; ``make test`` leaves them out and
``make test-integration`` runs only them. The session builds the wheel once (from a clean copy
of the working tree), installs it with its dependencies from PyPI into a new virtual
environment (not the project's ``.venv``) and removes that environment at the end.

Fixtures for other tests:
    ``repo_root``: the repository's root folder.
    ``built_wheel``: the path of the ``.whl`` built from the working tree.
    ``installed_bin``: the fresh venv's ``bin`` folder (``searchvid``, ``python``, ``pip``).
    ``run_installed``: runs a program of that ``bin`` folder in a clean environment (no
    ``PYTHONPATH``, no ``SEARCHVID_*`` variables), so nothing of the checkout can leak in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

_NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "renders",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    ".*.partial*",
)
"""What a build of a fresh clone would not see: caches, outputs and earlier build folders."""

_LEAKY_ENV = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__")

RunInstalled = Callable[..., subprocess.CompletedProcess[str]]
"""``run(program, *args, cwd=folder, timeout=600)``: a program of the installed venv's bin."""


def _pip(python: Path | str, *args: str) -> None:
    subprocess.run(
        [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
        check=True,
        timeout=900,
    )


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder (``pyproject.toml``, ``scenes/``, ``tile_assets/``)."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built by ``pip wheel`` from a clean copy of the working tree.

    The copy keeps the checkout's own ``build/`` folder (stale files would slip into the wheel)
    and egg-info out of the build, and the build from writing into the checkout.
    """
    source = tmp_path_factory.mktemp("source") / "searchvid"
    shutil.copytree(REPO_ROOT, source, ignore=_NOT_COPIED)
    out = tmp_path_factory.mktemp("wheel")
    _pip(sys.executable, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(source))
    shutil.rmtree(source.parent)
    (wheel,) = out.glob("searchvid-*.whl")
    return wheel


@pytest.fixture(scope="session")
def installed_bin(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The ``bin`` folder of a new venv holding the built wheel and its dependencies."""
    venv = tmp_path_factory.mktemp("venv")
    # ``python -m venv`` run from any venv builds on the base interpreter, so this is a fresh
    # environment of the same Python version, sharing nothing with the project's .venv.
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    _pip(bin_dir / "python", "install", "--quiet", str(built_wheel))
    yield bin_dir
    shutil.rmtree(venv, ignore_errors=True)  # ~150 MB of numpy, Pillow and ffmpeg


@pytest.fixture(scope="session")
def installed_env(installed_bin: Path) -> dict[str, str]:
    """The environment for programs of the installed venv: its ``bin`` first, nothing leaking."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in _LEAKY_ENV and not key.startswith("SEARCHVID_")
    }
    env["PATH"] = os.pathsep.join([str(installed_bin), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(installed_bin.parent)
    env["PYTHONNOUSERSITE"] = "1"
    env["CI"] = "1"  # no progress bar
    return env


@pytest.fixture(scope="session")
def run_installed(installed_bin: Path, installed_env: dict[str, str]) -> RunInstalled:
    """A function running ``installed_bin / program`` with ``args`` in the folder ``cwd``.

    It returns the :class:`subprocess.CompletedProcess` (text output captured) and does not
    check the exit code, so a test can assert on it and show stderr.
    """

    def run(
        program: str, *args: str | os.PathLike[str], cwd: Path, timeout: float = 600
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(installed_bin / program), *map(str, args)],
            cwd=cwd,
            env=installed_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run
