"""preview and storyboard take render's sizing flags: what is previewed is what is rendered."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from searchvid.cli import main

FLAGS = [
    ["--width", "720"],
    ["--tile-size", "40", "--no-hud"],
    ["--every", "2", "--fps", "3"],
]


@pytest.mark.parametrize("flags", FLAGS, ids=lambda flags: " ".join(flags))
def test_preview_equals_the_render_with_the_same_flags(tmp_path: Path, flags: list[str]) -> None:
    runner = CliRunner()
    folder = tmp_path / "frames"
    done = runner.invoke(main, ["render", "tree-backtracking", "-o", f"{folder}/", "-q", *flags])
    assert done.exit_code == 0, done.output
    rendered = sorted(folder.glob("*.png"))
    for index in (0, len(rendered) // 2, len(rendered) - 1):
        target = tmp_path / f"preview{index}.png"
        shown = runner.invoke(
            main, ["preview", "tree-backtracking", "-f", str(index), "-o", str(target), *flags]
        )
        assert shown.exit_code == 0, shown.output
        with Image.open(target) as a, Image.open(rendered[index]) as b:
            assert np.array_equal(np.asarray(a), np.asarray(b)), (flags, index)
    if flags[0] == "--width":
        with Image.open(rendered[0]) as first:
            assert first.width == 720


def test_storyboard_takes_the_flags_too(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.png"
    done = CliRunner().invoke(
        main,
        ["storyboard", "tree-backtracking", "-o", str(sheet), "-q", "--no-hud", "--width", "360"],
    )
    assert done.exit_code == 0, done.output
    assert sheet.exists()
