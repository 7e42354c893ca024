from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image
from render_fakes import FakeView, walk

from searchvid.errors import RunError, UsageError
from searchvid.render.atlas import TileAtlas
from searchvid.render.indexstrip import Canvas
from searchvid.render.pipeline import RenderJob, render, render_frame
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event, EventKind

SHAPE = (3, 4)
TILE = 16
NO_CARDS = {"opening": 0, "closing": 0}  # the frames and holds as the search makes them


def job(**video: object) -> RenderJob:
    options = {
        "tile_size": TILE,
        "fps": 10,
        "max_frames": 40,
        "hold_last": 0.5,
        **NO_CARDS,
        **video,
    }
    return RenderJob(FakeView(SHAPE), VideoOptions(**options), "walk · fake")  # type: ignore[arg-type]


def png_frames(folder: Path) -> list[np.ndarray]:
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"frame_{i:06d}.png" for i in range(len(names))]
    return [np.asarray(Image.open(folder / name)) for name in names]


def board(grid_node: tuple[int, ...]) -> np.ndarray:
    canvas = Canvas(TileAtlas(FakeView(SHAPE).tileset, TILE), SHAPE)
    canvas.update(FakeView(SHAPE).grid(grid_node))
    return canvas.frame


def test_png_folder_frames_equal_previews_of_the_same_index(tmp_path: Path) -> None:
    result = render(walk(200, SHAPE), job(), tmp_path / "frames")
    frames = png_frames(tmp_path / "frames")
    assert len(frames) == result.frames == 40
    for index in (0, 1, 7, 23, 39, -1, -2, -40):
        assert np.array_equal(render_frame(walk(200, SHAPE), job(), index), frames[index]), index


def test_frames_show_the_selected_nodes_above_the_hud(tmp_path: Path) -> None:
    render(walk(60, SHAPE), job(hud=False, frames="leaves"), tmp_path / "frames")
    leaves = [e.node for e in walk(60, SHAPE) if e.kind is EventKind.LEAF]
    frames = png_frames(tmp_path / "frames")
    assert len(frames) == len(leaves)
    for frame, node in zip(frames, leaves, strict=True):
        assert np.array_equal(frame, board(node))


def test_the_hud_sits_under_the_board_and_changes_with_the_step(tmp_path: Path) -> None:
    with_hud = render_frame(walk(50, SHAPE), job(), 3)
    without = render_frame(walk(50, SHAPE), job(hud=False), 3)
    assert without.shape == (SHAPE[0] * TILE, SHAPE[1] * TILE, 3)
    assert with_hud.shape[0] > without.shape[0]
    assert with_hud.shape[0] % 2 == 0
    assert np.array_equal(with_hud[: without.shape[0]], without)
    later = render_frame(walk(50, SHAPE), job(), 4)
    assert not np.array_equal(with_hud[without.shape[0] :], later[without.shape[0] :])


def test_gif_decodes_to_exactly_the_png_folder_frames(tmp_path: Path) -> None:
    # every GIF frame carries its own strip, as the PNG folder's does
    render(walk(200, SHAPE), job(fps=1), tmp_path / "frames")
    result = render(walk(200, SHAPE), job(fps=1), tmp_path / "v.gif")
    assert result.encoded_frames == result.frames == 40
    expected = png_frames(tmp_path / "frames")
    with Image.open(tmp_path / "v.gif") as gif:
        assert getattr(gif, "n_frames", 1) == 40
        for i, frame in enumerate(expected):
            gif.seek(i)
            assert np.array_equal(np.asarray(gif.convert("RGB")), frame), i
        assert gif.info["duration"] == 1000 + 500


def test_mp4_has_the_frames_plus_the_held_last_frame(tmp_path: Path) -> None:
    # jumps off: the walk's restarts would be held too (tests/render/test_jumps.py)
    result = render(walk(200, SHAPE), job(max_jumps=0), tmp_path / "v.mp4")
    assert (result.frames, result.encoded_frames) == (40, 45)
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "v.mp4"))
    meta = next(reader)
    assert meta["codec"] == "h264"
    height = render_frame(walk(200, SHAPE), job(), 0).shape[0]
    assert meta["size"] == (SHAPE[1] * TILE, height)
    assert sum(1 for _ in reader) == 45


def moves_then_search() -> Iterator[Event]:
    """Four search frames, then three MOVE frames (a played-out solution)."""
    kinds = [EventKind.ENTER] * 4 + [EventKind.MOVE] * 3
    for step, kind in enumerate(kinds):
        yield Event(kind, tuple([step % 6] * (SHAPE[0] * SHAPE[1])), step, step)


def test_hold_moves_keeps_each_move_on_screen_in_mp4_and_gif(tmp_path: Path) -> None:
    # 10 fps: each MOVE lasts 5 frame durations (jumps off: every frame replaces the board)
    held = job(hold_moves=0.5, hold_last=0.0, max_jumps=0)
    result = render(moves_then_search(), held, tmp_path / "v.mp4")
    assert (result.frames, result.encoded_frames) == (7, 4 + 3 * 5)
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "v.mp4"))
    next(reader)
    assert sum(1 for _ in reader) == 19
    render(moves_then_search(), held, tmp_path / "v.gif")
    with Image.open(tmp_path / "v.gif") as gif:
        delays = []
        for i in range(getattr(gif, "n_frames", 1)):
            gif.seek(i)
            delays.append(gif.info["duration"])
    assert delays == [100] * 4 + [500] * 3
    # A PNG folder holds the frames once each, so frame N is the same picture everywhere.
    render(moves_then_search(), held, tmp_path / "frames")
    assert len(png_frames(tmp_path / "frames")) == 7


def test_result_counts_events_up_to_the_cut(tmp_path: Path) -> None:
    pulled: list[int] = []

    def search() -> Iterator[Event]:
        for event in walk(500, SHAPE):
            pulled.append(event.step)
            yield event

    result = render(search(), job(max_frames=10), tmp_path / "frames")
    # steps 0..12: three IMPROVE annotations (4, 9, ...) are not frames
    assert result.events == 12
    assert pulled == list(range(12))
    assert result.frames == 10
    assert result.path == tmp_path / "frames"
    assert result.seconds > 0


def test_progress_reports_every_frame(tmp_path: Path) -> None:
    seen: list[int] = []
    render(walk(30, SHAPE), job(), tmp_path / "v.gif", progress=seen.append)
    assert seen == list(range(1, 25))  # 30 events, 6 of them IMPROVE annotations


def test_preview_draws_only_the_chosen_frame() -> None:
    view = FakeView(SHAPE)
    calls: list[tuple[int, ...]] = []
    original = view.grid

    def counting_grid(node: tuple[int, ...]) -> np.ndarray:
        calls.append(node)
        return original(node)

    view.grid = counting_grid  # type: ignore[method-assign]
    pulled: list[int] = []

    def search() -> Iterator[Event]:
        for event in walk(500, SHAPE):
            pulled.append(event.step)
            yield event

    the_job = RenderJob(view, VideoOptions(tile_size=TILE, max_frames=300), "t")
    render_frame(search(), the_job, 5)
    assert len(calls) == 1
    # frame 5 is step 6; the events are read on to the next frame (step 8), to know that
    # frame 5 is not the last one (and, on the way, whether the next event calls it a new best)
    assert pulled == list(range(9))
    calls.clear()
    render_frame(walk(500, SHAPE), the_job, -1)
    assert len(calls) == 1


@pytest.mark.parametrize("index", [40, 1000, -41])
def test_a_preview_out_of_range_is_a_usage_error(index: int) -> None:
    with pytest.raises(UsageError, match=f"frame {index} is out of range: the video has 40"):
        render_frame(walk(200, SHAPE), job(), index)


def test_the_hud_best_is_tracked_the_same_in_preview_and_render(tmp_path: Path) -> None:
    # only improvements as frames: each frame's best is its own value
    render(walk(200, SHAPE), job(frames="improvements"), tmp_path / "frames")
    frames = png_frames(tmp_path / "frames")
    assert len(frames) == 40
    assert np.array_equal(
        render_frame(walk(200, SHAPE), job(frames="improvements"), 17), frames[17]
    )


def test_a_score_function_changes_the_hud(tmp_path: Path) -> None:
    plain = job()
    scored = RenderJob(plain.view, plain.video, plain.title, score=lambda node: float(sum(node)))
    a = render_frame(walk(50, SHAPE), plain, 3)
    b = render_frame(walk(50, SHAPE), scored, 3)
    rows = SHAPE[0] * TILE
    assert np.array_equal(a[:rows], b[:rows])
    assert not np.array_equal(a[rows:], b[rows:])
    render(walk(50, SHAPE), scored, tmp_path / "frames")
    assert np.array_equal(png_frames(tmp_path / "frames")[3], b)


def test_snapshots_of_strictly_better_improvements(tmp_path: Path) -> None:
    events = [
        Event(EventKind.ENTER, (0,) * 12, 0, 0),
        Event(EventKind.IMPROVE, (1,) * 12, 1, 1, 0.5),
        Event(EventKind.ENTER, (2,) * 12, 1, 2),
        Event(EventKind.IMPROVE, (2,) * 12, 1, 3, 0.5),  # not strictly better
        Event(EventKind.IMPROVE, (3,) * 12, 2, 4, 0.7),
        Event(EventKind.IMPROVE, (4,) * 12, 2, 5, 0.6),  # worse
        Event(EventKind.IMPROVE, (5,) * 12, 3, 6, 0.9),
    ]
    shots = tmp_path / "shots"
    render(events, job(), tmp_path / "v.gif", snapshots=shots)
    assert sorted(p.name for p in shots.iterdir()) == [
        "improve_0000.png",
        "improve_0001.png",
        "improve_0002.png",
    ]
    rows = SHAPE[0] * TILE
    for k, tile in enumerate((1, 3, 5)):
        image = np.asarray(Image.open(shots / f"improve_{k:04d}.png"))
        assert image.shape[0] > rows  # HUD included
        assert np.array_equal(image[:rows], board((tile,) * 12))
    # the HUD of a snapshot shows the same text as a frame of that event would (one that is
    # not the last: the last frame's strip says how the search ended)
    only = job(frames="improvements")
    snap = np.asarray(Image.open(shots / "improve_0001.png"))
    assert np.array_equal(snap, render_frame(events, only, 2))


def test_no_selected_event_is_a_run_error_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="no frames"):
        render(walk(20, SHAPE), job(frames="moves"), tmp_path / "v.mp4")
    assert list(tmp_path.iterdir()) == []


def test_an_unsupported_output_fails_before_the_search_runs(tmp_path: Path) -> None:
    started: list[bool] = []

    def search() -> Iterator[Event]:
        started.append(True)
        yield from walk(5, SHAPE)

    with pytest.raises(UsageError, match=r"unsupported output '\.avi'"):
        render(search(), job(), tmp_path / "v.avi")
    assert started == []


@pytest.mark.parametrize("error", [RuntimeError("search crashed"), KeyboardInterrupt()])
@pytest.mark.parametrize("name", ["v.mp4", "v.gif", "frames"])
def test_an_exception_mid_render_leaves_no_output(
    tmp_path: Path, name: str, error: BaseException
) -> None:
    def search() -> Iterator[Event]:
        yield from walk(15, SHAPE)
        raise error

    with pytest.raises(type(error)):
        render(search(), job(), tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_an_old_output_survives_a_failed_render(tmp_path: Path) -> None:
    target = tmp_path / "v.mp4"
    target.write_bytes(b"previous video")

    def search() -> Iterator[Event]:
        yield from walk(15, SHAPE)
        raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        render(search(), job(), target)
    assert target.read_bytes() == b"previous video"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.mp4"]


def test_a_failing_encoder_is_a_run_error_and_leaves_no_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: "/bin/false")
    with pytest.raises(RunError, match="ffmpeg failed"):
        render(walk(200, SHAPE), job(), tmp_path / "v.mp4")
    assert list(tmp_path.iterdir()) == []


def test_output_folders_are_created(tmp_path: Path) -> None:
    render(walk(20, SHAPE), job(), tmp_path / "a" / "b" / "v.gif")
    assert (tmp_path / "a" / "b" / "v.gif").is_file()
