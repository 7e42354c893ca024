"""The HTML player in a real headless Chromium: its controls, its details, its exact pixels."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from searchvid.render.canvas import Rect
from searchvid.render.html import HtmlEncoder

pytestmark = pytest.mark.browser

PALETTE = np.array(
    [(0, 0, 0), (255, 0, 0), (0, 200, 0), (20, 40, 250), (250, 250, 250), (250, 160, 20)],
    np.uint8,
)
W, H = 64, 48
COUNT = 30
INTERVAL = 8  # keyframes at 0, 8, 16, 24: seeks and steps back cross them

READ_PIXELS = """() => {
  const canvas = document.getElementById("screen");
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let text = "";
  for (let i = 0; i < data.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
  }
  return btoa(text);
}"""

SIZE = """() => [document.getElementById("screen").width,
  document.getElementById("screen").height]"""

IDLE_AT = """(k) => window.searchvidPlayer !== undefined && searchvidPlayer.frame === k
  && !searchvidPlayer.busy"""

RECORD_FRAMES = """() => {
  window.seenFrames = [];
  new MutationObserver(() => seenFrames.push(Number(document.body.dataset.frame)))
    .observe(document.body, { attributes: true, attributeFilter: ["data-frame"] });
}"""


def small_frames() -> list[np.ndarray]:
    """Frames of 64x48: a block changes on the board, a counter in the strip under it."""
    rng = np.random.default_rng(3)
    frame = rng.integers(0, len(PALETTE), (H, W), dtype=np.uint8)
    frame[40:] = 4
    frames = [frame.copy()]
    for i in range(1, COUNT):
        top, left = int(rng.integers(0, 28)), int(rng.integers(0, W - 6))
        frame[top : top + 6, left : left + 6] = i % len(PALETTE)
        frame[42:46, 2 * i : 2 * i + 2] = 0
        frames.append(frame.copy())
    return frames


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[np.ndarray]]:
    """A 30-frame player at 20 fps; each frame's details name it, every 4th has a caption."""
    frames = small_frames()
    path = tmp_path_factory.mktemp("player") / "small.html"
    encoder = HtmlEncoder(
        path,
        width=W,
        height=H,
        palette=PALETTE,
        fps=20,
        title="Small <test> player",
        keyframe_interval=INTERVAL,
    )
    with encoder:
        for k, frame in enumerate(frames):
            meta: dict[str, Any] = {"step": 100 + k, "kind": "enter", "depth": k % 4}
            meta |= {"label": f"node {k}", "value": k / 8}
            if k % 4 == 0:
                meta["caption"] = f"frame {k} says hello"
            encoder.annotate(meta)
            encoder.write(frame, None if k == 0 else Rect(0, 0, H, W))
    return path, frames


def open_player(page: Any, path: Path) -> None:
    page.goto(path.as_uri())
    wait_idle(page, 0)


def wait_idle(page: Any, k: int) -> None:
    """Wait until frame ``k`` is drawn and nothing more is being drawn."""
    page.wait_for_function(IDLE_AT, arg=k, timeout=10_000)


def canvas_pixels(page: Any) -> np.ndarray:
    """The canvas read back with getImageData, as (height, width, 3) RGB."""
    width, height = page.evaluate(SIZE)
    rgba = np.frombuffer(base64.b64decode(page.evaluate(READ_PIXELS)), np.uint8)
    rgba = rgba.reshape(height, width, 4)
    assert (rgba[..., 3] == 255).all()
    return rgba[..., :3]


def assert_shows(
    page: Any, frames: Mapping[int, np.ndarray] | list[np.ndarray], k: int, count: int = COUNT
) -> None:
    """The page shows frame ``k`` of ``count``: counter, scrubber, details and every pixel."""
    wait_idle(page, k)
    assert page.inner_text("#counter") == f"frame {k + 1} / {count}"
    assert page.input_value("#scrub") == str(k)
    assert page.inner_text('dd[data-key="step"]') == str(100 + k)
    assert page.inner_text('dd[data-key="label"]') == f"node {k}"
    assert np.array_equal(canvas_pixels(page), PALETTE[frames[k]]), f"pixels of frame {k}"


def test_the_page_opens_on_the_first_frame_with_its_details(page: Any, small: Any) -> None:
    path, frames = small
    open_player(page, path)
    assert page.title() == "Small <test> player"
    assert page.inner_text("h1") == "Small <test> player"
    assert_shows(page, frames, 0)
    assert page.inner_text('dd[data-key="kind"]') == "enter"
    assert page.inner_text('dd[data-key="depth"]') == "0"
    assert page.inner_text('dd[data-key="value"]') == "0"
    assert page.inner_text('dd[data-key="caption"]') == "frame 0 says hello"
    terms = page.locator("#meta dt").all_inner_texts()
    assert terms == ["step", "kind", "depth", "label", "value", "caption"]
    for label in ("Play", "Previous frame", "Next frame", "First frame", "Last frame"):
        assert page.get_by_role("button", name=label).count() == 1
    assert page.get_by_role("slider", name="Frame").count() == 1
    assert page.get_by_role("combobox", name="Playback speed").count() == 1


def test_right_and_left_keys_step_exactly_one_frame(page: Any, small: Any) -> None:
    path, frames = small
    open_player(page, path)
    page.keyboard.press("ArrowRight")
    assert_shows(page, frames, 1)
    time.sleep(0.3)  # and nothing more happens
    assert_shows(page, frames, 1)
    for k in range(2, 11):  # across the keyframe at 8
        page.keyboard.press("ArrowRight")
        assert_shows(page, frames, k)
    for k in range(9, 5, -1):  # back across it: rebuilt from the keyframe at 0
        page.keyboard.press("ArrowLeft")
        assert_shows(page, frames, k)
    assert page.inner_text('dd[data-key="value"]') == "0.75"
    assert page.locator('dd[data-key="caption"]').count() == 0  # frame 6 has none


def test_home_end_and_the_buttons_move_through_the_frames(page: Any, small: Any) -> None:
    path, frames = small
    open_player(page, path)
    page.keyboard.press("End")
    assert_shows(page, frames, COUNT - 1)
    page.get_by_role("button", name="Previous frame").click()
    assert_shows(page, frames, COUNT - 2)
    page.keyboard.press("Home")
    assert_shows(page, frames, 0)
    page.get_by_role("button", name="Next frame").click()
    assert_shows(page, frames, 1)
    page.get_by_role("button", name="Last frame").click()
    assert_shows(page, frames, COUNT - 1)
    page.get_by_role("button", name="First frame").click()
    assert_shows(page, frames, 0)
    page.keyboard.press("ArrowLeft")  # nothing before the first frame
    assert_shows(page, frames, 0)


def test_the_scrubber_seeks(page: Any, small: Any) -> None:
    path, frames = small
    open_player(page, path)
    for k in (21, 3, 29, 16, 15):
        page.locator("#scrub").fill(str(k))
        assert_shows(page, frames, k)
    page.locator("#scrub").focus()
    page.keyboard.press("ArrowRight")  # the slider's own step: still exactly one frame
    assert_shows(page, frames, 16)
    box = page.locator("#scrub").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    assert_shows(page, frames, COUNT - 1)


def test_play_advances_frame_by_frame_and_pause_stops(page: Any, small: Any) -> None:
    path, frames = small
    open_player(page, path)
    page.evaluate(RECORD_FRAMES)
    page.get_by_role("button", name="Play").click()
    assert page.get_by_role("button", name="Pause").count() == 1
    page.wait_for_function("() => searchvidPlayer.frame >= 5", timeout=10_000)
    page.keyboard.press(" ")
    assert page.get_by_role("button", name="Play").count() == 1
    stopped = page.evaluate("() => searchvidPlayer.playing ? -1 : searchvidPlayer.frame")
    assert stopped >= 5
    assert_shows(page, frames, stopped)
    time.sleep(0.4)  # eight frame durations at 20 fps: nothing moves
    assert_shows(page, frames, stopped)
    assert page.evaluate("() => seenFrames") == list(range(1, stopped + 1))  # none skipped
    page.keyboard.press(" ")  # and space plays again
    page.wait_for_function(f"() => searchvidPlayer.frame > {stopped}", timeout=10_000)
    page.keyboard.press(" ")


def test_play_stops_on_the_last_frame_and_starts_over_from_there(page: Any, small: Any) -> None:
    path, frames = small
    open_player(page, path)
    page.locator("#scrub").fill("26")
    wait_idle(page, 26)
    page.keyboard.press(" ")
    page.wait_for_function("() => !searchvidPlayer.playing", timeout=10_000)
    assert_shows(page, frames, COUNT - 1)
    page.keyboard.press(" ")
    page.wait_for_function("() => searchvidPlayer.frame < 5", timeout=10_000)
    page.keyboard.press(" ")


def test_plus_and_minus_change_the_speed(page: Any, small: Any) -> None:
    path, _ = small
    open_player(page, path)
    speed = page.locator("#speed")
    assert speed.input_value() == "1"
    page.keyboard.press("+")
    assert speed.input_value() == "1.5"
    for _ in range(6):
        page.keyboard.press("+")
    assert speed.input_value() == "4"
    for _ in range(9):
        page.keyboard.press("-")
    assert speed.input_value() == "0.25"
    speed.select_option("2")
    assert speed.input_value() == "2"


def board_frames(count: int, keep: set[int]) -> Iterator[tuple[np.ndarray, Rect | None]]:
    """Frames of a 900x962 board (9x9 tiles of 100 px, a 62-px strip) with the changed
    rectangle; a copy of each frame in ``keep`` is added to :data:`BOARD`."""
    rng = np.random.default_rng(11)
    tiles = rng.integers(0, len(PALETTE), (7, 10, 10), dtype=np.uint8).repeat(10, 1).repeat(10, 2)
    frame = np.full((962, 900), 4, np.uint8)
    for r in range(9):
        for c in range(9):
            frame[100 * r : 100 * r + 100, 100 * c : 100 * c + 100] = tiles[(r + c) % 7]
    for k in range(count):
        r, c = (int(v) for v in rng.integers(0, 9, 2))
        frame[100 * r : 100 * r + 100, 100 * c : 100 * c + 100] = tiles[k % 7]
        frame[920:940, 10 * (k % 80) : 10 * (k % 80) + 8] = k % len(PALETTE)
        if k in keep:
            BOARD[k] = frame.copy()
        yield frame, None if k == 0 else Rect(100 * r, 0, 962, 900)


BOARD: dict[int, np.ndarray] = {}


def test_a_full_size_board_is_exact_after_seeks(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "board.html"
    with HtmlEncoder(path, width=900, height=962, palette=PALETTE, fps=12) as encoder:
        for k, (frame, dirty) in enumerate(board_frames(120, {0, 76, 77, 119})):
            encoder.annotate({"step": 100 + k, "label": f"node {k}"})
            encoder.write(frame, dirty)
    open_player(page, path)
    page.keyboard.press("End")
    assert_shows(page, BOARD, 119, 120)
    page.locator("#scrub").fill("77")  # the keyframe at 50, then 27 changes
    assert_shows(page, BOARD, 77, 120)
    page.keyboard.press("ArrowLeft")
    assert_shows(page, BOARD, 76, 120)
    page.keyboard.press("Home")
    assert_shows(page, BOARD, 0, 120)
