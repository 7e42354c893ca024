"""pyproject.toml packages every package of searchvid and maps the data folders into it.

A fast check, run by ``make test``: the package list is explicit (a mapped folder cannot be
found by setuptools' ``packages.find``), so a new package must be added to it by hand.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = {
    "searchvid.examples": "examples",
    "searchvid.scenes": "scenes",
    "searchvid.tile_assets": "tile_assets",
}
"""Packages of the wheel built from top-level folders (data, and the examples' files that
``searchvid examples`` copies out), and those folders."""


def setuptools_table() -> dict[str, object]:
    with (REPO / "pyproject.toml").open("rb") as file:
        table = tomllib.load(file)["tool"]["setuptools"]
    assert isinstance(table, dict)
    return table


def test_every_python_package_is_listed_in_pyproject() -> None:
    on_disk = {
        ".".join(folder.relative_to(REPO).parts)
        for folder in (REPO / "searchvid").rglob("*")
        if folder.is_dir() and "__pycache__" not in folder.parts and any(folder.glob("*.py"))
    } | {"searchvid"}
    listed = setuptools_table()["packages"]
    assert isinstance(listed, list)
    expected = on_disk | DATA.keys()
    assert sorted(listed) == sorted(expected), (
        "pyproject.toml [tool.setuptools] packages must list exactly these: "
        f"missing {sorted(expected - set(listed))}, not packages {sorted(set(listed) - expected)}"
    )


def test_data_packages_are_mapped_from_the_top_level_folders() -> None:
    table = setuptools_table()
    assert table["package-dir"] == DATA
    for folder in DATA.values():
        assert (REPO / folder).is_dir()
        assert not (REPO / "searchvid" / folder).exists()  # would shadow the mapped copy
