"""The README's scene-file reference is the one generated from the option docs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from searchvid.errors import UsageError
from searchvid.reference import (
    END_MARKER,
    START_MARKER,
    readme_reference,
    scene_reference,
    update_readme,
)

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_readme_reference_matches_the_option_docs(tmp_path: Path) -> None:
    readme = README.read_text(encoding="utf-8")
    assert readme_reference(readme) == scene_reference(), "README.md is stale: run `make reference`"
    copy = tmp_path / "README.md"
    shutil.copyfile(README, copy)
    assert not update_readme(copy), "README.md is stale: run `make reference`"


def test_update_readme_rewrites_a_stale_block_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(
        f"# Title\n\nBefore.\n\n{START_MARKER}\nold table\n{END_MARKER}\n\nAfter.\n",
        encoding="utf-8",
    )
    assert update_readme(path, check=True)
    assert "old table" in path.read_text(encoding="utf-8"), "check must not write"
    assert update_readme(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nBefore.\n\n")
    assert text.endswith(f"{END_MARKER}\n\nAfter.\n")
    assert "old table" not in text
    assert readme_reference(text) == scene_reference()
    assert not update_readme(path)
    assert path.read_text(encoding="utf-8") == text


def test_update_readme_without_markers_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text("# No reference here\n", encoding="utf-8")
    with pytest.raises(UsageError, match="reference: start"):
        update_readme(path)
    assert path.read_text(encoding="utf-8") == "# No reference here\n"


def test_readme_shows_the_two_setup_commands() -> None:
    readme = README.read_text(encoding="utf-8")
    assert "make railroad-random.mp4" in readme
    assert "make test" in readme
