"""The README's "Experiments" section: its Python example runs, its pictures exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def section(name: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"## {name}\n")
    end = readme.find("\n## ", start + 1)
    return readme[start:end]


def test_the_experiments_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (example,) = re.findall(r"```python\n(.*?)```", section("Experiments"), flags=re.DOTALL)
    exec(compile(example, "README.md (Experiments)", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out
    claimed = re.search(r"# e\.g\. (.*)$", example, flags=re.MULTILINE)
    assert claimed is not None
    assert printed == claimed.group(1) + "\n"


def test_the_pictures_of_the_section_exist() -> None:
    pictures = re.findall(r"!\[\]\((docs/[^)]+)\)", section("Experiments"))
    assert pictures == ["docs/sweep-iterations.png", "docs/sweep-distribution.png"]
    assert all((ROOT / picture).stat().st_size > 10_000 for picture in pictures)
