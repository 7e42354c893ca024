"""Start-up (issue 22, item 6): ``--version`` and ``--help`` load neither numpy, Pillow nor
``importlib.metadata``, and a built-in name is resolved without looking at the installed
packages. What is imported is checked, never how long it took (the time is a bench row)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import searchvid

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "PIL", "importlib.metadata")
"""Modules whose import costs tens of milliseconds, and which neither command needs."""


def imported_by(*args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules ``python -X importtime -m searchvid ARGS`` imports, and the process."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "searchvid", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    # Lines read "import time: <self us> | <cumulative us> | <indent><module>".
    names = {
        line.rpartition("|")[2].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }
    names.discard("imported package")  # the header line's last column
    return names, done


def heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize(
    ("args", "first_line"), [(("--version",), "searchvid, version "), (("--help",), "Usage: ")]
)
def test_version_and_help_import_nothing_heavy(args: tuple[str, ...], first_line: str) -> None:
    names, done = imported_by(*args)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith(first_line)
    assert "searchvid.cli" in names  # the listing is real: the command line was imported
    assert heavy(names) == []


def test_the_importtime_listing_sees_a_heavy_import() -> None:
    # The check above can fail: a command that draws a frame does import numpy and Pillow.
    names, done = imported_by("preview", "no-such-scene-h8", "-o", "/nonexistent/x.png")
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr.splitlines()[-1].startswith("Error: ")
    assert "numpy" in heavy(names)


def test_version_is_the_pyproject_version() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        expected = tomllib.load(file)["project"]["version"]
    assert searchvid.__version__ == expected
    _, done = imported_by("--version")
    assert done.stdout == f"searchvid, version {expected}\n"


PROBE = """
import sys
from searchvid.domains import DOMAINS, domain_class
domain_class("tictactoe")
print("importlib.metadata" in sys.modules)
DOMAINS.names()
print("importlib.metadata" in sys.modules)
"""


def test_a_built_in_name_does_not_look_at_installed_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, cwd=ROOT
    )
    # Resolving "tictactoe" leaves importlib.metadata alone; listing every name loads it.
    assert done.stdout.split() == ["False", "True"]
