"""The public Python API: every name in ``searchvid.__all__``, used as a user would."""

from __future__ import annotations

import inspect
import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import imageio_ffmpeg
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

import searchvid
from searchvid.cli import main
from searchvid.errors import RunError, UsageError

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "scenes_broken"
SMALL_TREE: dict[str, Any] = {
    "title": "A small tree",
    "seed": 1,
    "domain": {"name": "tree", "root": "R", "children": {"A": {"A1": {}, "A2": {}}, "B": {}}},
    "search": {"algorithm": "backtracking"},
    # no holds at all (jumps off too: most frames of so small a tree move its boxes), so an
    # MP4 has one picture per frame
    "video": {"tile_size": 20, "hold_last": 0, "opening": 0, "closing": 0, "max_jumps": 0},
}
QUEENS_MODULE = '''
"""N-Queens as a user writes it outside searchvid: a goal, no value function."""

from dataclasses import dataclass

from PIL import Image

from searchvid import Domain, TileSet, option

COLOURS = {"empty": (240, 236, 220), "queen": (30, 60, 120)}


@dataclass(frozen=True)
class Board:
    n: int
    queens: tuple[int, ...] = ()

    def children(self):
        row = len(self.queens)
        if row == self.n:
            return []
        return [
            Board(self.n, (*self.queens, c))
            for c in range(self.n)
            if all(q != c and abs(q - c) != row - r for r, q in enumerate(self.queens))
        ]


class QueensView:
    def __init__(self, n):
        self.n = n
        self.tileset = TileSet(("empty", "queen"), draw=self.draw)
        self.shape = (n, n)

    @staticmethod
    def draw(name, size):
        return Image.new("RGB", (size, size), COLOURS[name])

    def grid(self, board):
        import numpy as np

        grid = np.zeros(self.shape, dtype=np.int16)
        for row, column in enumerate(board.queens):
            grid[row, column] = 1
        return grid


@dataclass(frozen=True, kw_only=True)
class QueensOptions:
    n: int = option(6, doc="Board size.", minimum=4, maximum=10)


class Queens(Domain):
    name = "queens"
    summary = "Place n queens that attack no other."
    options_type = QueensOptions
    has_goal = True

    def root(self):
        return Board(self.options.n)

    def view(self):
        return QueensView(self.options.n)

    def label(self, board):
        return "".join(str(q) for q in board.queens) or "empty"

    def is_goal(self, board):
        return len(board.queens) == board.n
'''
QUEENS_SCENE = """\
title = "Six queens, by backtracking"

[domain]
name = "{module}:Queens"

[search]
algorithm = "backtracking"

[video]
tile_size = 16
hold_last = 0
"""


@pytest.fixture
def user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user's own folder holding ``queens_<test>.py`` and a scene naming it; the current
    folder is elsewhere, so only the scene's folder can make the import work."""
    module = f"user_queens_{abs(hash(tmp_path)) % 10**8}"
    folder = tmp_path / "mygames"
    folder.mkdir()
    (folder / f"{module}.py").write_text(QUEENS_MODULE)
    (folder / "queens.toml").write_text(QUEENS_SCENE.format(module=module))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    yield folder
    sys.modules.pop(module, None)


def decoded_frames(path: Path) -> int:
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(path))
    return int(frames)


def frame_pixels(folder: Path) -> list[np.ndarray]:
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(folder.glob("frame_*.png"))]


# --- the namespace ---------------------------------------------------------------------------


def test_every_public_name_exists_and_is_documented() -> None:
    for name in searchvid.__all__:
        obj = getattr(searchvid, name)
        if name == "__version__":
            assert isinstance(obj, str)
            continue
        assert inspect.getdoc(obj), f"searchvid.{name} has no docstring"


def test_public_api_names_of_the_library_contract() -> None:
    promised = {
        "load_scene",
        "scene_from_dict",
        "Scene",
        "RenderResult",
        "VideoWriter",
        "Domain",
        "View",
        "TileSet",
        "option",
        "Capability",
        "Event",
        "EventKind",
        "SceneError",
    }
    assert promised <= set(searchvid.__all__)


# --- load_scene and Scene ----------------------------------------------------------------------


def test_load_scene_by_bare_name_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scene = searchvid.load_scene("tree-backtracking")
    assert scene.domain_name == "tree"
    assert scene.stem == "tree-backtracking"
    again = searchvid.load_scene(ROOT / "scenes" / "tree-backtracking.toml")
    assert list(scene.trace()) == list(again.trace())


def test_render_to_each_format(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict(SMALL_TREE, name="small")
    mp4 = scene.render(tmp_path / "small.mp4")
    assert isinstance(mp4, searchvid.RenderResult)
    assert (mp4.frames, mp4.path) == (9, tmp_path / "small.mp4")
    assert decoded_frames(mp4.path) == 9
    assert mp4.seconds > 0
    gif = scene.render(str(tmp_path / "small.gif"))
    with Image.open(gif.path) as image:
        assert image.n_frames == 9
    folder = scene.render(tmp_path / "frames")
    assert len(frame_pixels(folder.path)) == 9


def test_render_default_output_is_renders_stem_mp4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = searchvid.scene_from_dict(SMALL_TREE, name="small").render()
    assert result.path == Path("renders") / "small.mp4"
    assert (tmp_path / "renders" / "small.mp4").is_file()


def test_render_reports_progress_to_a_callback(tmp_path: Path) -> None:
    seen: list[int] = []
    searchvid.scene_from_dict(SMALL_TREE).render(tmp_path / "f", progress=seen.append)
    assert seen == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_snapshots_inside_the_png_target_are_refused_before_work(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict(SMALL_TREE)
    with pytest.raises(UsageError, match="inside the output"):
        scene.render(tmp_path / "frames", snapshots=tmp_path / "frames" / "best")
    assert not (tmp_path / "frames").exists()


def test_preview_equals_the_rendered_frame(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict(SMALL_TREE)
    frames = frame_pixels(scene.render(tmp_path / "f").path)
    for index in (0, 3, 8, -1, -9):
        image = scene.preview(index)
        assert image.mode == "RGB"
        assert np.array_equal(np.asarray(image), frames[index])


@pytest.mark.parametrize("index", [9, -10, 10**20, -(10**20)])
def test_preview_out_of_range(index: int) -> None:
    with pytest.raises(UsageError, match="out of range"):
        searchvid.scene_from_dict(SMALL_TREE).preview(index)


def test_trace_and_run_match_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_text(
        'title = "A small tree"\nseed = 1\n[domain]\nname = "tree"\nroot = "R"\n'
        "children = { A = { A1 = {}, A2 = {} }, B = {} }\n"
        '[search]\nalgorithm = "backtracking"\n[video]\ntile_size = 20\nhold_last = 0\n'
    )
    scene = searchvid.load_scene(path)
    runner = CliRunner()
    cli_trace = runner.invoke(main, ["trace", str(path), "--limit", "5"]).output
    assert [json.loads(line) for line in cli_trace.splitlines()] == list(scene.trace(limit=5))
    framed = [r["label"] for r in scene.trace() if r["frame"] is not None]
    assert framed == ["R", "A", "A1", "A", "A2", "A", "R", "B", "R"]
    stats = json.loads(runner.invoke(main, ["run", str(path), "--json"]).output)
    ours = scene.run()
    assert set(ours) == set(stats)
    for key in ("events", "frames", "best", "solved", "domain", "algorithm", "seed"):
        assert ours[key] == stats[key]


def test_with_overrides(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict(SMALL_TREE)
    changed = scene.with_overrides(seed=4, frames=3, fps=30)
    assert (changed.seed, changed.video.max_frames, changed.video.fps) == (4, 3, 30)
    assert scene.video.max_frames == 1000
    assert changed.render(tmp_path / "f").frames == 3
    with pytest.raises(UsageError, match="--fps"):
        scene.with_overrides(fps=0)


# --- scene_from_dict ---------------------------------------------------------------------------


def test_scene_from_dict_equals_the_same_toml_file(tmp_path: Path) -> None:
    built = searchvid.scene_from_dict(SMALL_TREE, name="small")
    assert built.title == "A small tree"
    assert built.path == Path("small")
    assert [r["label"] for r in built.trace()][:3] == ["R", "R", "A"]


def _valid_toml(path: Path) -> bool:
    try:
        tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError:
        return False  # only a file can carry this mistake
    return True


@pytest.mark.parametrize(
    "path", [p for p in sorted(BROKEN.glob("*.toml")) if _valid_toml(p)], ids=lambda p: p.stem
)
def test_scene_from_dict_has_the_messages_of_a_toml_file(path: Path) -> None:
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(searchvid.SceneError) as from_file:
        searchvid.load_scene(path)
    with pytest.raises(searchvid.SceneError) as from_dict:
        searchvid.scene_from_dict(table, name=str(path))
    assert str(from_dict.value) == str(from_file.value)


def test_scene_from_dict_takes_classes_as_names() -> None:
    from searchvid.domains.tree import TreeDomain
    from searchvid.search.algorithms.backtracking import Backtracking

    table = {**SMALL_TREE, "domain": {**SMALL_TREE["domain"], "name": TreeDomain}}
    table["search"] = {"algorithm": Backtracking}
    scene = searchvid.scene_from_dict(table)
    assert (scene.domain_name, scene.algorithm) == ("tree", "backtracking")
    with pytest.raises(searchvid.SceneError, match=r"^scene: domain.name: int is not a domain"):
        searchvid.scene_from_dict({**table, "domain": {"name": int}})


def test_scene_from_dict_rejects_a_non_table() -> None:
    with pytest.raises(searchvid.SceneError, match="must be a table"):
        searchvid.scene_from_dict([1, 2], name="x")  # type: ignore[arg-type]


# --- a user's own domain, by import path -------------------------------------------------------


def test_domain_by_import_path_from_the_scenes_folder(user_folder: Path, tmp_path: Path) -> None:
    scene = searchvid.load_scene(user_folder / "queens.toml")
    assert scene.domain_name == "queens"
    result = scene.render(tmp_path / "queens.gif")
    with Image.open(result.path) as image:
        assert image.n_frames == result.frames > 6


def test_a_goal_without_a_value_function_is_reported_solved(user_folder: Path) -> None:
    stats = searchvid.load_scene(user_folder / "queens.toml").run()
    assert stats["solved"] is True
    # the first six-queens solution in backtracking's order (columns by row)
    assert stats["best"]["label"] == "135024"
    assert stats["best"]["depth"] == 6


def test_domain_by_import_path_from_the_command_line(user_folder: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(user_folder / "queens.toml"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["solved"] is True


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "no_such_module_xyz:Game",
            "cannot load domain 'no_such_module_xyz:Game': no module named",
        ),
        ("json:Nothing", "module 'json' has no attribute 'Nothing'"),
        ("json:JSONDecoder", "'json:JSONDecoder' is not a domain: it must be a subclass of"),
        ("nonsense", "unknown domain 'nonsense'; known: "),
    ],
)
def test_bad_import_paths_are_one_line_scene_errors(name: str, message: str) -> None:
    table = {**SMALL_TREE, "domain": {"name": name}}
    with pytest.raises(searchvid.SceneError) as caught:
        searchvid.scene_from_dict(table, name="mine.toml")
    assert str(caught.value).startswith("mine.toml: domain.name: ")
    assert message in str(caught.value)


def test_a_module_failing_on_import_is_reported(tmp_path: Path) -> None:
    (tmp_path / "crashing_game_mod.py").write_text("raise RuntimeError('boom')\n")
    table = {**SMALL_TREE, "domain": {"name": "crashing_game_mod:Game"}}
    with pytest.raises(searchvid.SceneError, match="RuntimeError: boom"):
        searchvid.scene_from_dict(table, folder=tmp_path)
    assert str(tmp_path) not in sys.path


def test_entry_point_plugins_are_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from searchvid.domains import domain_names

    (tmp_path / "plugin_tree_mod.py").write_text(
        "from searchvid.domains.tree import TreeDomain\n\n"
        "class PluginTree(TreeDomain):\n    name = 'plugin-tree'\n"
    )
    info = tmp_path / "plugin_tree-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-tree\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[searchvid.domains]\nplugin-tree = plugin_tree_mod:PluginTree\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "plugin-tree" in domain_names()
    table = {**SMALL_TREE, "domain": {**SMALL_TREE["domain"], "name": "plugin-tree"}}
    assert searchvid.scene_from_dict(table).domain_name == "plugin-tree"
    sys.modules.pop("plugin_tree_mod", None)


# --- VideoWriter -------------------------------------------------------------------------------


def _tree_walk() -> tuple[Any, list[Any]]:
    scene = searchvid.scene_from_dict(SMALL_TREE)
    nodes = [e.node for e in scene.events() if e.kind.shows_state]
    return scene, nodes


def test_video_writer_frames_equal_the_scenes_frames(tmp_path: Path) -> None:
    scene, nodes = _tree_walk()
    no_hud = scene.with_overrides()
    # a writer fed nodes cannot tell a step back (no events): the scene's mark is off too
    table = {**SMALL_TREE, "video": {**SMALL_TREE["video"], "hud": False, "undo_mark": False}}
    no_hud = searchvid.scene_from_dict(table)
    expected = frame_pixels(no_hud.render(tmp_path / "scene").path)
    with searchvid.VideoWriter(tmp_path / "own", scene.view(), tile_size=20, hud=False) as video:
        for node in nodes:
            video.observe(node)
    assert video.result is not None
    assert video.result.frames == len(nodes) == len(expected)
    ours = frame_pixels(tmp_path / "own")
    assert all(np.array_equal(a, b) for a, b in zip(ours, expected, strict=True))


def test_video_writer_mp4_and_gif(tmp_path: Path) -> None:
    scene, nodes = _tree_walk()
    for name in ("own.mp4", "own.gif"):
        with searchvid.VideoWriter(
            tmp_path / name, scene.view(), fps=10, tile_size=20, title="mine", hold_last=0
        ) as video:
            for depth, node in enumerate(nodes):
                video.observe(node, depth=depth, value=depth / 10)
        assert video.result is not None
        assert video.result.path == tmp_path / name
        assert video.result.frames == len(nodes)
        if name.endswith(".mp4"):
            encoded = video.result.encoded_frames
    # as in a scene, a board that jumps is held (max_jumps): the MP4 repeats it, the GIF
    # lengthens its delay
    assert decoded_frames(tmp_path / "own.mp4") == encoded > len(nodes)
    with Image.open(tmp_path / "own.gif") as image:
        assert image.n_frames == len(nodes)


def test_video_writer_leaves_no_file_when_the_loop_fails(tmp_path: Path) -> None:
    scene, nodes = _tree_walk()
    target = tmp_path / "own.mp4"
    video = searchvid.VideoWriter(target, scene.view(), tile_size=20)

    def failing_loop() -> None:
        with video:
            video.observe(nodes[0])
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        failing_loop()
    assert video.result is None
    assert list(tmp_path.iterdir()) == []


def test_video_writer_without_frames_is_an_error(tmp_path: Path) -> None:
    scene, _ = _tree_walk()
    video = searchvid.VideoWriter(tmp_path / "x.gif", scene.view(), tile_size=20)
    with pytest.raises(RunError, match="observe"), video:
        pass
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("settings", "message"),
    [({"fps": 0}, "fps"), ({"tile_size": 33}, "tile_size"), ({"quality": "best"}, "quality")],
)
def test_video_writer_bad_settings(tmp_path: Path, settings: dict[str, Any], message: str) -> None:
    scene, _ = _tree_walk()
    with pytest.raises(UsageError, match=message):
        searchvid.VideoWriter(tmp_path / "x.mp4", scene.view(), **settings)


def test_video_writer_observe_outside_the_block(tmp_path: Path) -> None:
    scene, nodes = _tree_walk()
    writer = searchvid.VideoWriter(tmp_path / "x.mp4", scene.view())
    with pytest.raises(RuntimeError, match="inside"):
        writer.observe(nodes[0])


# --- RenderResult in a notebook ------------------------------------------------------------------


def test_render_result_shows_itself_as_html(tmp_path: Path) -> None:
    scene = searchvid.scene_from_dict(SMALL_TREE)
    mp4 = scene.render(tmp_path / "a.mp4")._repr_html_()
    assert mp4.startswith("<video ")
    assert 'src="data:video/mp4;base64,' in mp4
    gif = scene.render(tmp_path / "a.gif")._repr_html_()
    assert gif.startswith("<img ")
    assert 'src="data:image/gif;base64,R0lGOD' in gif  # "GIF8" in base64
    folder = scene.render(tmp_path / "frames")._repr_html_()
    assert folder.startswith("<p>")
    assert "9 frames" in folder


def test_a_search_that_never_makes_a_frame_ends_with_a_clear_error(tmp_path: Path) -> None:
    table = {
        "domain": {"name": "tictactoe", "size": 5, "k": 4},
        "search": {"algorithm": "minimax"},
        "video": {"frames": "moves", "max_events": 2000},
    }
    scene = searchvid.scene_from_dict(table, name="endless")
    assert scene.run()["events"] == 2000
    with pytest.raises(RunError, match="max_events = 2000 events"):
        scene.render(tmp_path / "x.mp4")
    assert list(tmp_path.iterdir()) == []


def _wide_tree(leaves: int, **video: Any) -> searchvid.Scene:
    table = {
        "domain": {"name": "tree", "children": {f"n{i}": {} for i in range(leaves)}},
        "search": {"algorithm": "backtracking"},
        "video": video,
    }
    return searchvid.scene_from_dict(table, name="wide.toml")


def test_frames_no_mp4_can_hold_are_refused_before_any_work(tmp_path: Path) -> None:
    scene = _wide_tree(101)  # 40,300 px wide at 100 px a tile: libx264 takes 16,384
    with pytest.raises(searchvid.SceneError) as caught:
        scene.render(tmp_path / "wide.mp4")
    message = str(caught.value)
    assert message.startswith("wide.toml: video.tile_size: an MP4 frame is at most 16,384 px")
    assert message.endswith("use tile_size = 40 or less")
    assert list(tmp_path.iterdir()) == []
    fitted = _wide_tree(
        101, tile_size=40, max_frames=2, hold_last=0, opening=0, closing=0, max_jumps=0
    )
    assert decoded_frames(fitted.render(tmp_path / "wide.mp4").path) == 2


def test_frames_too_large_for_any_output_are_refused_when_the_scene_loads() -> None:
    with pytest.raises(searchvid.SceneError, match=r"^wide.toml: video.tile_size: a frame of"):
        _wide_tree(1000)


def test_new_bests_are_held_on_screen(tmp_path: Path) -> None:
    table = {
        "seed": 5,
        "domain": {"name": "railroad"},
        "search": {"algorithm": "random-walk", "restarts": 3},
        "video": {
            "fps": 10,
            "tile_size": 16,
            "max_frames": 60,
            "hold_last": 0,
            "opening": 0,
            "closing": 0,
        },
    }
    plain = searchvid.scene_from_dict(table).render(tmp_path / "a.mp4")
    held_table = {**table, "video": {**table["video"], "hold_improvements": 0.5}}
    held = searchvid.scene_from_dict(held_table).render(tmp_path / "b.mp4")
    bests = sum(
        1
        for a, b in zip(
            list(searchvid.scene_from_dict(table).trace()),
            list(searchvid.scene_from_dict(table).trace())[1:],
            strict=False,
        )
        if a["frame"] is not None and b["kind"] == "improve"
    )
    assert bests > 0
    assert held.frames == plain.frames
    assert held.encoded_frames == plain.encoded_frames + 4 * bests  # 5 frame durations each
    assert decoded_frames(held.path) == held.encoded_frames


def test_run_adds_the_domains_report_of_the_last_frame() -> None:
    table = {
        "seed": 2,
        "domain": {"name": "railroad", "rules": "game"},
        "search": {"algorithm": "random-walk"},
        "video": {"tile_size": 16},
    }
    stats = searchvid.scene_from_dict(table).run()
    score = stats["score"]
    assert set(score) == {"total", "exits", "road", "rail", "centre", "errors"}
    assert score["total"] == (
        score["exits"] + score["road"] + score["rail"] + score["centre"] - score["errors"]
    )
    assert stats["rounds"] == 7
    puzzle = searchvid.scene_from_dict({**table, "domain": {"name": "railroad"}}).run()
    assert puzzle["rounds"] is None
    tree = searchvid.scene_from_dict(SMALL_TREE).run()
    assert "score" not in tree
