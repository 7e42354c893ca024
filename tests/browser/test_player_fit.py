"""The HTML player fits the frame to the window, shows it 1:1 with panning, and works on a
390-px-wide phone screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_player import IDLE_AT, PALETTE, canvas_pixels

from searchvid.render.canvas import Rect
from searchvid.render.html import HtmlEncoder

pytestmark = pytest.mark.browser

BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height]; };
  const stage = document.getElementById("stage");
  return { canvas: box(document.getElementById("screen")), stage: box(stage),
    scroll: [stage.scrollLeft, stage.scrollTop, stage.scrollWidth, stage.scrollHeight,
             stage.clientWidth, stage.clientHeight],
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    buttons: [...document.querySelectorAll(".controls button, .controls select, #scrub")]
      .map(box) };
}"""


def frames_of(width: int, height: int, count: int) -> list[np.ndarray]:
    """Frames of flat colour with a block moving along a diagonal (cheap to store)."""
    frames = []
    for k in range(count):
        frame = np.full((height, width), 4, dtype=np.uint8)
        frame[: height // 2, : width // 2] = 3
        y, x = k * (height - 40) // count, k * (width - 40) // count
        frame[y : y + 40, x : x + 40] = 1 + k % 3
        frames.append(frame)
    return frames


def player(path: Path, frames: list[np.ndarray]) -> Path:
    height, width = frames[0].shape
    with HtmlEncoder(path, width=width, height=height, palette=PALETTE, fps=10) as encoder:
        for k, frame in enumerate(frames):
            encoder.annotate({"step": k})
            encoder.write(frame, None if k == 0 else Rect(0, 0, height, width))
    return path


def opened(page: Any, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_function(IDLE_AT, arg=0, timeout=10_000)


def test_a_large_frame_fits_the_window_then_shows_1_to_1_and_pans(
    page: Any, tmp_path: Path
) -> None:
    frames = frames_of(1400, 900, 4)
    opened(page, player(tmp_path / "big.html", frames))
    boxes = page.evaluate(BOXES)
    left, top, width, height = boxes["canvas"]
    s_left, s_top, s_width, s_height = boxes["stage"]
    assert width < 1400  # shrunk to fit, whole and centred in the stage
    assert width / height == pytest.approx(1400 / 900, rel=0.01)
    assert s_left <= left
    assert left + width <= s_left + s_width + 0.5
    assert s_top <= top
    assert top + height <= s_top + s_height + 0.5
    assert max(width - s_width, height - s_height) > -1.5  # touches two sides
    assert page.get_attribute("#zoom", "aria-pressed") == "false"

    page.click("#zoom")  # 1:1, centred on the frame's middle
    assert page.evaluate("searchvidPlayer.zoomed")
    assert page.get_attribute("#zoom", "aria-pressed") == "true"
    boxes = page.evaluate(BOXES)
    assert boxes["canvas"][2:] == [1400, 900]
    x, y, scroll_width, scroll_height, client_width, client_height = boxes["scroll"]
    assert (scroll_width, scroll_height) == (1400, 900)
    assert x == pytest.approx((1400 - client_width) / 2, abs=1)
    assert y == pytest.approx((900 - client_height) / 2, abs=1)
    assert np.array_equal(canvas_pixels(page), PALETTE[frames[0]])

    middle = (s_left + s_width / 2, s_top + s_height / 2)
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] + 120, middle[1] + 50, steps=4)  # drag right and down
    page.mouse.up()
    after = page.evaluate(BOXES)["scroll"]
    assert after[0] == pytest.approx(x - 120, abs=1)
    assert after[1] == pytest.approx(y - 50, abs=1)

    page.keyboard.press("z")  # back to fit
    assert not page.evaluate("searchvidPlayer.zoomed")
    boxes = page.evaluate(BOXES)
    assert boxes["canvas"][2] == pytest.approx(width, abs=1)
    assert boxes["scroll"][:2] == [0, 0]

    # a double-click zooms in on the point clicked: the frame's top-left quarter
    page.mouse.dblclick(left + width / 4, top + height / 4)
    assert page.evaluate("searchvidPlayer.zoomed")
    x, y, *_, client_width, client_height = page.evaluate(BOXES)["scroll"]
    assert x == pytest.approx(max(0, 350 - client_width / 2), abs=2)
    assert y == pytest.approx(max(0, 225 - client_height / 2), abs=2)
    page.keyboard.press("ArrowRight")  # stepping still works while zoomed
    page.wait_for_function(IDLE_AT, arg=1, timeout=10_000)
    assert np.array_equal(canvas_pixels(page), PALETTE[frames[1]])


def test_the_player_is_usable_on_a_390_px_phone(phone: Any, tmp_path: Path) -> None:
    frames = frames_of(720, 490, 5)  # a blog-width render
    opened(phone, player(tmp_path / "blog.html", frames))
    boxes = phone.evaluate(BOXES)
    page_width, viewport = boxes["page"]
    assert viewport == 390
    assert page_width <= 390  # nothing sticks out sideways
    left, _, width, height = boxes["canvas"]
    _, _, s_width, s_height = boxes["stage"]
    assert width == pytest.approx(s_width, abs=1)  # the frame takes the page's width
    assert left >= 0
    assert left + width <= 390
    assert width >= 360
    assert height == pytest.approx(width * 490 / 720, abs=1)
    assert s_height == pytest.approx(height, abs=1)  # no empty band under it
    for b_left, _, b_width, b_height in boxes["buttons"]:
        assert b_left >= 0
        assert b_left + b_width <= 390
        assert b_height >= 28  # big enough for a finger
    assert all(b[2] >= 40 and b[3] >= 40 for b in boxes["buttons"][:6])  # the buttons

    phone.tap("#forward")
    phone.wait_for_function(IDLE_AT, arg=1, timeout=10_000)
    assert phone.inner_text("#counter") == "frame 2 / 5"
    assert np.array_equal(canvas_pixels(phone), PALETTE[frames[1]])
    assert phone.inner_text('dd[data-key="step"]') == "1"
    assert phone.is_visible("#meta")

    phone.tap("#zoom")  # 1:1: the stage scrolls, the page does not
    boxes = phone.evaluate(BOXES)
    assert boxes["canvas"][2:] == [720, 490]
    scroll_width, client_width = boxes["scroll"][2], boxes["scroll"][4]
    assert scroll_width == 720
    assert client_width < 720
    assert phone.evaluate("getComputedStyle(document.getElementById('stage')).overflowX") == "auto"
    assert boxes["page"][0] <= 390
