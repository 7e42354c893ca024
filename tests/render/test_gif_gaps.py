"""The GIF writer's short gaps (issue 22, item 5): unchanged pixels between two changed pixels
of a row, at most ``GifEncoder.OPAQUE_GAP`` of them, are written as their colours rather
than as the transparent index; the frames a browser shows stay the same."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from browser_gif import frames_as_browsers_show, read_gif

from searchvid.render.gif import GifEncoder, short_gaps

PALETTE = np.array([(0, 0, 0), (255, 0, 0), (0, 200, 0), (20, 40, 250), (250, 250, 250)], np.uint8)


def marked(changed: np.ndarray, most: int) -> np.ndarray:
    """``short_gaps`` as a mask of ``changed``'s shape."""
    mask = np.zeros_like(changed)
    mask[short_gaps(changed, most)] = True
    return mask


def mask(*rows: str) -> np.ndarray:
    return np.array([[ch == "x" for ch in row] for row in rows])


def test_only_runs_between_two_changes_of_one_row_up_to_the_limit() -> None:
    changed = mask(
        "x..x.....x",  # a gap of 2 (marked) and one of 5 (longer than 3: not marked)
        "..x.x.....",  # a gap of 1 (marked); the runs at the row's edges never are
        "x........x",  # a gap of 8
        "x.........",  # this row's last x and the next row's first are not one gap
        ".........x",
    )
    assert (
        marked(changed, 3).tolist()
        == mask(
            ".xx.......",
            "...x......",
            "..........",
            "..........",
            "..........",
        ).tolist()
    )
    assert marked(changed, 8)[2].tolist() == mask(".xxxxxxxx.")[0].tolist()
    assert marked(changed, 8)[3:].any() == False  # noqa: E712 - across rows: never


def test_the_busy_rows_given_give_the_same_gaps() -> None:
    rng = np.random.default_rng(7)
    changed = rng.random((40, 60)) < 0.1
    changed[10:20] = False  # rows without a change, as in the band above the strip
    busy = np.flatnonzero(changed.any(axis=1))
    assert all(
        np.array_equal(a, b)
        for a, b in zip(short_gaps(changed, 4, busy), short_gaps(changed, 4), strict=True)
    )
    assert marked(changed, 4).sum() > 0


def bars(count: int) -> list[np.ndarray]:
    """A noisy board, then frames that each draw a bar of one colour across it (a rail over
    the cells): where the noise already had the bar's colour the pixel does not change, and
    the bar would be broken by transparent pixels."""
    rng = np.random.default_rng(3)
    frame = rng.integers(0, len(PALETTE), (60, 80), dtype=np.uint8)
    frames = [frame.copy()]
    for i in range(1, count):
        frame[(i * 7) % 56 : (i * 7) % 56 + 4, 2:78] = 1 + i % 4
        frame[56:60, 70:76] = i % 5  # a counter in the strip
        frames.append(frame.copy())
    return frames


def write(path: Path, frames: list[np.ndarray], palette: np.ndarray) -> None:
    height, width = frames[0].shape
    with GifEncoder(path, width=width, height=height, palette=palette, fps=10) as encoder:
        for frame in frames:
            encoder.write(frame)


@pytest.mark.parametrize("palette_size", [5, 256])
def test_gaps_written_as_colours_shrink_the_file_and_show_the_same_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, palette_size: int
) -> None:
    ramp = np.arange(256, dtype=np.uint8)
    palette = PALETTE if palette_size == 5 else np.stack([ramp, 255 - ramp, ramp // 3], axis=1)
    frames = bars(16)
    most = GifEncoder.OPAQUE_GAP
    write(tmp_path / "gaps.gif", frames, palette)
    monkeypatch.setattr(GifEncoder, "OPAQUE_GAP", 0)  # the writer before issue 22
    write(tmp_path / "before.gif", frames, palette)
    for name in ("gaps.gif", "before.gif"):
        shown = [s.rgb.copy() for s in frames_as_browsers_show(read_gif(tmp_path / name))]
        assert [np.array_equal(s, palette[f]) for s, f in zip(shown, frames, strict=True)] == [
            True
        ] * 16
    assert (tmp_path / "gaps.gif").stat().st_size < (tmp_path / "before.gif").stat().st_size
    # What the second image holds: the changed pixels and the short gaps between them as
    # their colours, everything else (the rows between the bar and the counter, the runs at
    # a row's ends) as the transparent index.
    image = read_gif(tmp_path / "gaps.gif").images[1]
    assert (image.top, image.left, image.height, image.width) == (7, 2, 53, 76)
    new, old = frames[1][7:60, 2:78], frames[0][7:60, 2:78]
    changed = new != old
    gaps = marked(changed, most)
    assert gaps[:4].sum() > 20  # the bar had the noise's 2s in it
    assert not gaps[4:49].any()  # the rows between the bar and the counter
    assert image.transparent == (5 if palette_size == 5 else 0)  # 0: no change uses it
    written = image.indices()
    assert np.array_equal(written, np.where(changed | gaps, new, image.transparent))


def test_a_gap_pixel_may_hold_the_chosen_transparent_index(tmp_path: Path) -> None:
    # A full palette: the changes use only index 1, so the transparent index is 0, and the
    # unchanged pixel between them is 0 too: written as 0 it leaves the 0 under it on screen.
    ramp = np.arange(256, dtype=np.uint8)
    palette = np.stack([ramp, ramp, ramp], axis=1)
    before = np.zeros((4, 8), np.uint8)
    after = before.copy()
    after[1, [2, 3, 5, 6]] = 1
    write(tmp_path / "v.gif", [before, after], palette)
    gif = read_gif(tmp_path / "v.gif")
    assert gif.images[1].transparent == 0
    assert gif.images[1].indices().tolist() == [[1, 1, 0, 1, 1]]
    shown = [s.rgb.copy() for s in frames_as_browsers_show(gif)]
    assert np.array_equal(shown[1], palette[after])


def row_by_row(changed: np.ndarray, most: int) -> np.ndarray:
    """The gaps found the slow, obvious way: each row, each pair of neighbouring changes."""
    found = np.zeros_like(changed)
    for row in range(changed.shape[0]):
        cols = np.flatnonzero(changed[row])
        for a, b in itertools.pairwise(cols):
            if 0 < b - a - 1 <= most:
                found[row, a + 1 : b] = True
    return found


def test_random_masks_agree_with_a_row_by_row_search() -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):  # narrow and wide rows, gaps longer than a row, all or no changes
        shape = (int(rng.integers(1, 12)), int(rng.integers(1, 20)))
        changed = rng.random(shape) < rng.random()
        most = int(rng.integers(1, 25))
        assert np.array_equal(marked(changed, most), row_by_row(changed, most)), (changed, most)
