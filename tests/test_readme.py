"""The README's scene-file reference is the one generated from the option docs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_reference_matches_the_option_docs() -> None:
    generated = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "scene_reference.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    reference = generated[generated.index("### Top level") :].strip()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert reference in readme, (
        "README.md is out of date: paste the output of scripts/scene_reference.py "
        "under '## Scene-file reference'"
    )


def test_readme_shows_the_two_setup_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make railroad-random.mp4" in readme
    assert "make test" in readme
