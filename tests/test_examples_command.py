"""``searchvid examples DIR`` copies the examples out of the package, byte for byte."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from searchvid.cli import main
from searchvid.resources import examples_dir

REPO_EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_examples_are_copied_byte_for_byte(tmp_path: Path) -> None:
    target = tmp_path / "mine" / "examples"
    result = CliRunner().invoke(main, ["examples", str(target)])
    assert result.exit_code == 0, result.output
    expected = {p.name: p.read_bytes() for p in REPO_EXAMPLES.iterdir() if p.is_file()}
    assert {p.name: p.read_bytes() for p in target.iterdir()} == expected
    assert result.stdout.splitlines()[0] == (
        f"copied {len(expected)} files to {target}: " + ", ".join(sorted(expected))
    )
    assert examples_dir().resolve() == REPO_EXAMPLES  # a checkout finds its own folder


def test_nothing_is_overwritten(tmp_path: Path) -> None:
    (tmp_path / "own_loop.py").write_text("mine\n")
    result = CliRunner().invoke(main, ["examples", str(tmp_path)])
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {tmp_path / 'own_loop.py'}: exists already; choose an empty DIR\n",
    )
    assert [p.name for p in tmp_path.iterdir()] == ["own_loop.py"]


def test_a_file_is_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    result = CliRunner().invoke(main, ["examples", str(tmp_path / "a-file")])
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: DIR: {tmp_path / 'a-file'} is a file, not a folder\n",
    )
