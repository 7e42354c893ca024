"""searchvid as a user installs it: the built wheel in a fresh venv, run from an empty folder.

The fixtures (``tests/integration/conftest.py``) build the wheel once per session and install
it with its dependencies from PyPI. Every command runs in an empty temporary folder, so bare
scene names and tile art can only come from the installed package.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image

import searchvid
from searchvid.render.timeline import timeline

pytestmark = pytest.mark.integration

RunInstalled = Callable[..., subprocess.CompletedProcess[str]]

REPO = Path(__file__).resolve().parents[2]
SCENES = sorted(path.stem for path in (REPO / "scenes").glob("*.toml"))
SUMMARY = re.compile(r"^(\d+) frames in ", re.MULTILINE)
"""The summary line of ``render``: frames, seconds, path."""


def scene_table(name: str) -> dict[str, object]:
    """The repository's ``scenes/<name>.toml``, parsed."""
    with (REPO / "scenes" / f"{name}.toml").open("rb") as file:
        return tomllib.load(file)


def succeeded(result: subprocess.CompletedProcess[str]) -> str:
    """The stdout of a command that must have exited 0 (else its output is the failure)."""
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def summary_frames(result: subprocess.CompletedProcess[str]) -> int:
    """The frame count of ``render``'s summary line."""
    match = SUMMARY.search(result.stdout + result.stderr)
    assert match, f"no summary line in {result.stdout!r} {result.stderr!r}"
    return int(match.group(1))


def installed_data(run_installed: RunInstalled, cwd: Path) -> dict[str, Path]:
    """Where the installed package looks for its data (and where it is itself)."""
    code = (
        "import json, searchvid, searchvid.resources as r;"
        "print(json.dumps({'package': searchvid.__file__,"
        " 'tile_assets': str(r.tile_assets_dir()), 'scenes': str(r.builtin_scenes_dir())}))"
    )
    found = json.loads(succeeded(run_installed("python", "-c", code, cwd=cwd)))
    return {key: Path(value) for key, value in found.items()}


def files_under(folder: Path, pattern: str) -> dict[str, bytes]:
    """``{relative path: content}`` of the files matching ``pattern`` under ``folder``."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.glob(pattern))
        if path.is_file()
    }


def test_wheel_holds_the_package_tile_art_and_scenes_only(built_wheel: Path) -> None:
    with zipfile.ZipFile(built_wheel) as wheel:
        names = set(wheel.namelist())
    art = files_under(REPO / "tile_assets", "**/*.png")
    tiles = {f"searchvid/tile_assets/{name}" for name in art}
    scenes = {f"searchvid/scenes/{name}.toml" for name in SCENES}
    modules = {
        path.relative_to(REPO).as_posix()
        for path in (REPO / "searchvid").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert tiles, "no tile art in the repository?"
    assert not tiles - names, "tile art missing from the wheel"
    assert not scenes - names, "scenes missing from the wheel"
    assert not modules - names, "modules missing from the wheel (pyproject's package list?)"
    assert "searchvid/py.typed" in names
    tops = {name.split("/")[0] for name in names}
    assert tops == {"searchvid", built_wheel.name.split("-py")[0] + ".dist-info"}, tops


def test_installed_version_is_pyproject_version(
    run_installed: RunInstalled, tmp_path: Path
) -> None:
    with (REPO / "pyproject.toml").open("rb") as file:
        expected = tomllib.load(file)["project"]["version"]
    code = "import searchvid; print(searchvid.__version__)"
    assert succeeded(run_installed("python", "-c", code, cwd=tmp_path)).strip() == expected
    assert (
        succeeded(run_installed("searchvid", "--version", cwd=tmp_path)).strip().endswith(expected)
    )


def test_installed_package_finds_its_own_copy_of_the_data(
    run_installed: RunInstalled, installed_bin: Path, tmp_path: Path
) -> None:
    found = installed_data(run_installed, tmp_path)
    package = found["package"].parent
    assert package.is_relative_to(installed_bin.parent), f"not the installed copy: {package}"
    assert found["tile_assets"] == package / "tile_assets"
    assert found["scenes"] == package / "scenes"
    assert files_under(found["tile_assets"], "**/*.png") == files_under(
        REPO / "tile_assets", "**/*.png"
    )
    assert files_under(found["scenes"], "*.toml") == files_under(REPO / "scenes", "*.toml")


def test_scenes_lists_every_shipped_scene(run_installed: RunInstalled, tmp_path: Path) -> None:
    out = succeeded(run_installed("searchvid", "scenes", cwd=tmp_path))
    listed = {Path(name).stem for name in re.findall(r"[\w./-]+\.toml", out)}
    assert listed == set(SCENES), out
    assert "invalid" not in out, out
    assert list(tmp_path.iterdir()) == []


def test_render_railroad_random_mp4_by_bare_name(
    run_installed: RunInstalled, tmp_path: Path
) -> None:
    result = run_installed(
        "searchvid", "render", "railroad-random", "-o", "x.mp4", "--frames", "60", cwd=tmp_path
    )
    succeeded(result)
    assert summary_frames(result) == 60
    # the frames, each for its own time: the opening card's, jumps held, the closing card's
    # (the timeline the source tree computes for the same scene: installed == developed)
    scene = searchvid.load_scene("railroad-random").with_overrides(frames=60)
    ticks = timeline(scene.sources(), scene.render_jobs()).ticks
    assert ticks > 60
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.mp4"]
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "x.mp4"))
    meta = next(reader)
    assert meta["codec"] == "h264"
    assert sum(1 for _ in reader) == ticks


def test_render_tictactoe_minimax_gif_by_bare_name(
    run_installed: RunInstalled, tmp_path: Path
) -> None:
    result = run_installed("searchvid", "render", "tictactoe-minimax", "-o", "x.gif", cwd=tmp_path)
    succeeded(result)
    frames = summary_frames(result)
    assert frames > 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.gif"]
    with Image.open(tmp_path / "x.gif") as gif:
        assert gif.format == "GIF"
        assert getattr(gif, "n_frames", 1) == frames


def test_preview_quarto_mcts_by_bare_name(run_installed: RunInstalled, tmp_path: Path) -> None:
    succeeded(run_installed("searchvid", "preview", "quarto-mcts", "-o", "p.png", cwd=tmp_path))
    with Image.open(tmp_path / "p.png") as image:
        assert image.format == "PNG"
        assert min(image.size) >= 100


@pytest.mark.parametrize("scene", SCENES)
def test_every_shipped_scene_draws_its_first_frames(
    run_installed: RunInstalled, tmp_path: Path, scene: str
) -> None:
    """Each scene's domain finds its tile art (railroad, tictactoe, quarto, watersort, ...)."""
    result = run_installed(
        "searchvid", "render", scene, "-o", "frames", "--frames", "3", cwd=tmp_path
    )
    succeeded(result)
    pngs = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert 1 <= len(pngs) <= 3, pngs
    with Image.open(pngs[-1]) as image:
        assert min(image.size) >= 8
