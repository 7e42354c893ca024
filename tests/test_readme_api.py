"""The README's "Python API" example runs as written, from an empty folder."""

from __future__ import annotations

import re
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(section: str) -> list[str]:
    """The ```python blocks of the README section headed ``## {section}``."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"## {section}\n")
    end = readme.find("\n## ", start + 1)
    body = readme[start : end if end != -1 else None]
    return re.findall(r"```python\n(.*?)```", body, flags=re.DOTALL)


def test_the_python_api_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (example,) = python_blocks("Python API")
    exec(compile(example, "README.md (Python API)", "exec"), {"__name__": "readme"})
    with Image.open(tmp_path / "tree.gif") as image:
        assert image.n_frames == 21  # its 11 nodes entered, 10 returns to a parent
    with Image.open(tmp_path / "last.png") as image:
        assert image.mode == "RGB"
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(tmp_path / "midgame.mp4"))
    assert frames > 1
    with Image.open(tmp_path / "count.gif") as image:
        assert image.n_frames == 16
