"""The scene loader: TOML into a validated Scene, one-line errors naming file and key."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchvid.errors import SceneError, UsageError
from searchvid.render.settings import VideoOptions
from searchvid.scene import Scene, load_scene, scene_from_dict

ROOT = Path(__file__).resolve().parent.parent
SCENES = ROOT / "scenes"
BROKEN = Path(__file__).resolve().parent / "scenes_broken"
SEED_ORDER = (
    (Path(__file__).resolve().parent / "golden" / "seed_backtracking.txt").read_text().splitlines()
)
"""Seed 000's test: the nodes observed by backtracking over its "Algorithms" tree."""
TREE_SCENE = """\
title = "A tree"
seed = 3

[domain]
name = "tree"
root = "R"
children = {{ A = {{ A1 = {{}}, A2 = {{}} }}, B = {{}} }}

[search]
algorithm = "{algorithm}"
{search}
[video]
{video}
"""


def write_scene(
    tmp_path: Path, algorithm: str = "backtracking", search: str = "", video: str = ""
) -> Path:
    path = tmp_path / "scene.toml"
    path.write_text(TREE_SCENE.format(algorithm=algorithm, search=search, video=video))
    return path


def broken_files() -> list[Path]:
    return sorted(BROKEN.glob("*.toml"))


def expected_key(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    match = re.fullmatch(r"# expect: (.+)", first)
    assert match, f"{path.name} must start with '# expect: KEY'"
    return match.group(1)


def test_tree_scene_loads_with_its_values() -> None:
    scene = load_scene(SCENES / "tree-backtracking.toml")
    assert scene.title == "Backtracking through a tree of search algorithms"
    assert (scene.seed, scene.domain_name, scene.algorithm) == (0, "tree", "backtracking")
    assert scene.video.fps == 2
    assert scene.video.frames == "all"
    assert scene.stem == "tree-backtracking"
    assert scene.hud_title == "backtracking · tree"
    assert scene.score() is None
    assert scene.is_goal(scene.root()) is None


def test_the_default_tree_searched_depth_first_follows_the_seed_order() -> None:
    # the tree domain's default tree is seed 000's; the shipped scenes use a tree of their own
    table = {"domain": {"name": "tree"}, "search": {"algorithm": "backtracking"}}
    scene = scene_from_dict(table, name="seed.toml")
    shown = [scene.label(e.node) for e in scene.events() if e.kind.shows_state]
    assert shown == SEED_ORDER


def test_defaults_and_aliases(tmp_path: Path) -> None:
    path = tmp_path / "minimal.toml"
    path.write_text('[domain]\nname = "tree"\n[search]\nalgorithm = "depth-first"\n')
    scene = load_scene(path)
    assert scene.title == "minimal"  # the file's name when no title is given
    assert scene.seed == 0
    assert scene.algorithm == "backtracking"
    assert scene.video == VideoOptions()


def test_each_search_is_fresh_and_seeded(tmp_path: Path) -> None:
    scene = load_scene(write_scene(tmp_path, "random-walk", "restarts = 5\n"))
    first, second = scene.search(), scene.search()
    assert first is not second
    assert first.rng is not second.rng
    assert first.rng.getstate() == random.Random(3).getstate()
    labels = [[scene.label(e.node) for e in scene.events()] for _ in range(2)]
    assert labels[0] == labels[1]
    assert len(labels[0]) > 5


def test_overrides_replace_seed_frames_and_fps(tmp_path: Path) -> None:
    scene = load_scene(write_scene(tmp_path, video="fps = 10\nmax_frames = 50\n"))
    changed = scene.with_overrides(seed=9, frames=7, fps=30)
    assert (changed.seed, changed.video.max_frames, changed.video.fps) == (9, 7, 30)
    assert (scene.seed, scene.video.max_frames, scene.video.fps) == (3, 50, 10)
    assert scene.with_overrides().video == scene.video


@pytest.mark.parametrize(
    ("overrides", "flag"),
    [({"frames": 0}, "--frames"), ({"fps": 500}, "--fps"), ({"seed": -1}, "--seed")],
)
def test_bad_override_names_the_flag(tmp_path: Path, overrides: dict[str, int], flag: str) -> None:
    scene = load_scene(write_scene(tmp_path))
    with pytest.raises(UsageError, match=f"^{flag}: must be"):
        scene.with_overrides(**overrides)


def test_value_function_of_the_search_is_the_hud_score(tmp_path: Path) -> None:
    scene = load_scene(write_scene(tmp_path, "beam", 'value = "reward"\n'))
    score = scene.score()
    assert score is not None
    assert score(scene.root()) == 0.5  # terminal_reward: unknown away from terminal nodes


def test_missing_file_is_a_scene_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(SceneError, match=r"nope\.toml: cannot read the scene file"):
        load_scene(path)


def test_binary_file_is_a_scene_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00title")
    with pytest.raises(SceneError, match="not a UTF-8 text file"):
        load_scene(path)


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('title = "x"\n\n[domain]\nname = \n')
    with pytest.raises(SceneError) as info:
        load_scene(path)
    assert info.value.key == "line 4"
    assert str(info.value).startswith(f"{path}: line 4: invalid TOML: ")


def test_unknown_domain_lists_the_known_ones(tmp_path: Path) -> None:
    path = tmp_path / "chess.toml"
    path.write_text('[domain]\nname = "chess"\n[search]\nalgorithm = "backtracking"\n')
    with pytest.raises(SceneError) as info:
        load_scene(path)
    assert info.value.key == "domain.name"
    assert "known: quarto, railroad, tictactoe, tree, watersort" in info.value.message


def test_unknown_algorithm_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(SceneError) as info:
        load_scene(write_scene(tmp_path, "dijkstra"))
    assert info.value.key == "search.algorithm"
    assert "astar, backtracking, beam, best-first, breadth-first, mcts, minimax, random-walk" in (
        info.value.message
    )


def test_capability_mismatch_names_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(SceneError) as info:
        load_scene(write_scene(tmp_path, "minimax"))
    assert info.value.key == "search.algorithm"
    assert "minimax" in info.value.message
    assert "domain 'tree'" in info.value.message


def test_the_broken_corpus_is_large_enough() -> None:
    assert len(broken_files()) >= 25


@pytest.mark.parametrize("path", broken_files(), ids=lambda p: p.stem)
def test_broken_scene_names_file_and_key(path: Path) -> None:
    key = expected_key(path)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    error = info.value
    assert error.key == key
    assert str(error) == f"{path}: {key}: {error.message}"
    assert "\n" not in str(error)
    assert error.message


_VIDEO_TABLES = st.fixed_dictionaries(
    {},
    optional={
        "fps": st.integers(1, 120),
        "tile_size": st.integers(4, 256).map(lambda n: 2 * n),
        "max_frames": st.integers(1, 10**6),
        "frames": st.sampled_from(["all", "leaves", "improvements", "moves"]),
        "every": st.integers(1, 50),
        "hold_last": st.floats(0, 60, allow_nan=False).map(lambda x: round(x, 3)),
        "hud": st.booleans(),
        "quality": st.sampled_from(["draft", "default", "final"]),
    },
)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


@settings(max_examples=40, deadline=None)
@given(table=_VIDEO_TABLES, seed=st.integers(0, 2**31))
def test_a_scene_written_and_read_back_is_equal(
    tmp_path_factory: pytest.TempPathFactory, table: dict[str, object], seed: int
) -> None:
    folder = tmp_path_factory.mktemp("roundtrip")
    video = "".join(f"{key} = {_toml_value(value)}\n" for key, value in table.items())
    path = folder / "scene.toml"
    path.write_text(
        TREE_SCENE.format(algorithm="backtracking", search="", video=video).replace(
            "seed = 3", f"seed = {seed}"
        )
    )
    scene = load_scene(path)
    assert scene.seed == seed
    assert scene.video == VideoOptions(**table)  # type: ignore[arg-type]
    assert isinstance(scene, Scene)
