"""The faster yuv420p paths (issue 22) give the very bytes of the plain conversion: in-place
float32 arithmetic with integer block sums, several blocks converted packed side by side,
and a one-colour fill converted once."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from searchvid.render.canvas import FrameBuffer, PixelFormat, Rect, RgbPanel
from searchvid.render.yuv import rgb_to_yuv420

Planes = tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]

_M = np.array(
    [[65.481, 128.553, 24.966], [-37.797, -74.203, 112.0], [112.0, -93.786, -18.214]],
    dtype=np.float32,
) / np.float32(255.0)
_OFF = np.array([16.0, 128.0, 128.0], dtype=np.float32)


def textbook(rgb: npt.NDArray[np.uint8]) -> Planes:
    """BT.601 limited range in float32, written out plainly (the conversion before issue 22):
    ``offset + (r*m0 + g*m1 + b*m2)`` rounded and clipped, chroma of the 2x2 mean."""
    full = rgb.astype(np.float32)

    def row(k: int, x: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
        value = _OFF[k] + (x[..., 0] * _M[k][0] + x[..., 1] * _M[k][1] + x[..., 2] * _M[k][2])
        return np.clip(np.rint(value), 0, 255).astype(np.uint8)

    mean = (full[..., 0::2, 0::2, :] + full[..., 0::2, 1::2, :]) + (
        full[..., 1::2, 0::2, :] + full[..., 1::2, 1::2, :]
    )
    mean *= np.float32(0.25)
    return row(0, full), row(1, mean), row(2, mean)


def same(a: Planes, b: Planes) -> bool:
    return all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_colours_convert_as_the_textbook_formula() -> None:
    # every 7th colour code (7 is prime to 256: each channel takes all 256 values)
    codes = np.arange(0, 1 << 24, 7, dtype=np.uint32)[: 1170 * 2048]
    channels = [(codes >> shift) & 255 for shift in (16, 8, 0)]
    sample = np.stack(channels, axis=-1).astype(np.uint8).reshape(1170, 2048, 3)
    assert same(rgb_to_yuv420(sample), textbook(sample))  # banded: 128 rows at a time
    shuffled = np.random.default_rng(3).permutation(sample.reshape(-1, 3))[: 1 << 20]
    mixed = shuffled.reshape(1024, 1024, 3)  # 2x2 blocks of unrelated colours
    assert same(rgb_to_yuv420(mixed), textbook(mixed))


def test_batches_strided_views_and_odd_band_ends() -> None:
    rng = np.random.default_rng(11)
    batch = rng.integers(0, 256, size=(5, 6, 10, 3), dtype=np.uint8)
    assert same(rgb_to_yuv420(batch), textbook(batch))
    tall = rng.integers(0, 256, size=(262, 40, 3), dtype=np.uint8)  # 128 + 128 + 6 rows
    assert same(rgb_to_yuv420(tall), textbook(tall))
    view = tall[2:34, 4:36]  # not contiguous
    assert same(rgb_to_yuv420(view), textbook(view))
    with pytest.raises(ValueError, match="even sizes"):
        rgb_to_yuv420(tall[:, :5])


def _blocks(rng: np.random.Generator, levels: int) -> list[tuple[int, int, npt.NDArray[np.uint8]]]:
    """Parts of one picture (overlapping, some empty, some taller than PACK_ROWS)."""
    picture = rng.integers(0, levels, size=(200, 300, 3), dtype=np.uint8) * (255 // (levels - 1))
    blocks = []
    for _ in range(25):
        h, w = 2 * int(rng.integers(0, 40)), 2 * int(rng.integers(0, 60))
        top = 2 * int(rng.integers(0, (200 - h) // 2 + 1))
        left = 2 * int(rng.integers(0, (300 - w) // 2 + 1))
        blocks.append((top, left, picture[top : top + h, left : left + w]))
    blocks.append((40, 60, picture[40:140, 60:80]))  # too tall to be packed
    return blocks


@pytest.mark.parametrize("pixel_format", list(PixelFormat))
def test_packed_blocks_paint_what_each_block_alone_paints(pixel_format: PixelFormat) -> None:
    rng = np.random.default_rng(5)
    levels = 4 if pixel_format is PixelFormat.PAL8 else 256  # a palette of 64 colours
    blocks = _blocks(rng, levels)
    shades = np.arange(levels, dtype=np.uint8) * (255 // (levels - 1))
    palette = np.stack(np.meshgrid(shades, shades, shades, indexing="ij"), -1).reshape(-1, 3)
    palette = palette if pixel_format is PixelFormat.PAL8 else palette[:1]
    one, packed = (
        FrameBuffer(300, 200, pixel_format, palette=palette, background=(0, 0, 0)) for _ in range(2)
    )
    for top, left, rgb in blocks:
        one.paint_rgb(top, left, rgb)
    packed.paint_rgb_blocks(blocks)
    assert np.array_equal(one.frame, packed.frame)
    assert one.take_dirty() == packed.take_dirty()


def test_packed_blocks_refuse_odd_edges() -> None:
    buffer = FrameBuffer(64, 64, PixelFormat.YUV420P)
    even = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(ValueError, match="even pixels"):
        buffer.paint_rgb_blocks([(0, 0, even), (2, 3, even)])


def test_a_panel_shows_its_changed_boxes_as_converted_one_by_one() -> None:
    rng = np.random.default_rng(9)
    pixels = rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
    rects = [Rect(0, 0, 32, 50), Rect(33, 7, 63, 99), Rect(64, 100, 96, 160), Rect(0, 0, 120, 8)]
    shown = FrameBuffer(200, 140, PixelFormat.YUV420P)
    RgbPanel(shown, top=10, left=30).show(pixels, rects)
    want = FrameBuffer(200, 140, PixelFormat.YUV420P)
    for rect in rects:  # each box widened to even edges, converted on its own
        top, left = rect.top & ~1, rect.left & ~1
        bottom, right = (rect.bottom + 1) & ~1, (rect.right + 1) & ~1
        want.paint_rgb(10 + top, 30 + left, pixels[top:bottom, left:right])
    assert np.array_equal(shown.frame, want.frame)


def test_a_fill_equals_painting_its_colour_pixel_by_pixel() -> None:
    filled, painted = (FrameBuffer(40, 30, PixelFormat.YUV420P) for _ in range(2))
    for color in [(0, 0, 0), (255, 255, 255), (12, 200, 99), (255, 0, 128)]:
        filled.fill(Rect(2, 4, 18, 30), color)
        block = np.broadcast_to(np.array(color, np.uint8), (16, 26, 3))
        painted.paint_rgb(2, 4, block)
        assert np.array_equal(filled.frame, painted.frame)
    assert filled.take_dirty() == painted.take_dirty()
    with pytest.raises(ValueError, match="even pixels"):
        filled.fill(Rect(1, 4, 18, 30), (1, 2, 3))
