"""Issue 22, item 2: each value computed once per event, and the status strip converted only
where its text changed.

- :class:`~searchvid.search.memo.NodeMemo` returns what a recomputation returns, for any
  sequence of nodes, and computes a value once while its node is among the latest.
- A scene's search and strip share one memo: a render of railroad-random computes the
  network value once per node, not once for the search and again for the strip.
- The strip redraws only the fields whose text changed; the frame compares and converts
  only those rectangles (:class:`~searchvid.render.indexstrip.IndexStrip`), with the same pixels
  and the same dirty rectangle as comparing the whole strip.
- The yuv420p lookup of a strip's indices gives the bytes of converting its RGB pixels.
- A scene's frames hash as before these changes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import searchvid
import searchvid.render.pipeline as pipeline
from searchvid.domains import railroad
from searchvid.domains.railroad.values import network_value
from searchvid.render.canvas import FrameBuffer, PixelFormat, Rect
from searchvid.render.hud import HUD_COLORS, Hud, HudText
from searchvid.render.indexstrip import IndexStrip
from searchvid.render.yuv import IndexedYuv, rgb_to_yuv420
from searchvid.search.memo import NodeMemo
from searchvid.search.status import Field

# -- the memo -----------------------------------------------------------------------------


class Box:
    """A node: equal boxes are distinct objects, as two searches' nodes are."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and other.number == self.number

    def __hash__(self) -> int:
        return hash(self.number)


def value_of(node: Box) -> float:
    return (node.number * 7919 % 1000) / 1000


@settings(max_examples=200, deadline=None)
@given(
    picks=st.lists(st.integers(0, 40), max_size=300),
    size=st.integers(1, 12),
)
def test_memo_returns_what_a_recomputation_returns(picks: list[int], size: int) -> None:
    nodes = [Box(i % 20) for i in range(41)]  # equal numbers, distinct objects
    calls: list[int] = []

    def counted(node: Box) -> float:
        calls.append(id(node))
        return value_of(node)

    memo = NodeMemo(counted, size)
    recent: list[int] = []  # ids computed, oldest first, as the memo should hold them
    for pick in picks:
        node = nodes[pick]
        before = len(calls)
        assert memo(node) == value_of(node)
        held = id(node) in recent
        assert len(calls) == before + (0 if held else 1)
        if not held:
            if len(recent) == size:
                recent.pop(0)
            recent.append(id(node))


def test_memo_tells_equal_nodes_apart_by_identity() -> None:
    calls: list[int] = []
    memo = NodeMemo(lambda node: calls.append(node.number) or 0.5, 4)
    a, b = Box(3), Box(3)
    assert (memo(a), memo(a), memo(b)) == (0.5, 0.5, 0.5)
    assert calls == [3, 3]  # b equals a but is another object: computed again


def test_memo_refuses_an_empty_size() -> None:
    with pytest.raises(ValueError, match="at least 1 node, not 0"):
        NodeMemo(value_of, 0)


def test_a_render_values_each_node_once() -> None:
    """railroad-random's strip shows the network value the random walk computed for the
    frame's node: the value function runs once per node object, not again for the strip."""
    valued: list[Any] = []  # the nodes, kept alive: their ids stay distinct

    def counted(node: Any) -> float:
        valued.append(node)
        return network_value(node)

    with mock.patch.object(railroad, "network_value", counted):
        scene = searchvid.load_scene("railroad-random").with_overrides(frames=60)
        assert len(_frames(scene, PixelFormat.RGB24)) == 60
    ids = [id(node) for node in valued]
    assert len(ids) >= 60
    assert len(set(ids)) == len(ids)


# -- the strip ----------------------------------------------------------------------------


def _strip_text(step: int, value: float) -> HudText:
    fields = (Field("step", step), Field("depth", 4), Field("exits joined", 5, of=12))
    return HudText(
        "Railroad Ink: a strip", "random walk searching", (*fields, Field("value", value))
    )


def test_only_the_changed_field_is_redrawn() -> None:
    hud = Hud(900)
    hud.update(_strip_text(1200, 0.5))
    hud.take_changed()
    with mock.patch.object(Hud, "_draw_text", autospec=True, wraps=Hud._draw_text) as drawn:
        assert hud.update(_strip_text(1201, 0.5))
    assert [call.args[2] for call in drawn.call_args_list] == ["step 1,201"]
    (rect,) = hud.take_changed()
    ((r, step_slot),) = [
        (r, slot) for r, row in enumerate(hud._rows) for slot in row if slot[0] == "step 1,201"
    ]
    top = hud._pad + (hud.title_lines + r) * hud._line
    assert rect == Rect(top, step_slot[1], top + hud._line, step_slot[2])
    assert not hud.update(_strip_text(1201, 0.5))  # nothing changed: nothing drawn
    assert hud.take_changed() == []


@pytest.mark.parametrize("fmt", list(PixelFormat))
def test_strip_converts_only_its_changed_rectangles(fmt: PixelFormat) -> None:
    """Two frames where one field changes: the strip shown by its changed rectangles equals
    the strip shown whole (pixels and dirty rectangle), and only the changed field's pixels
    are converted."""
    hud = Hud(900)
    width, height = 900, hud.height + 40
    palette = np.unique(np.array(HUD_COLORS, dtype=np.uint8), axis=0)
    told, whole = (
        FrameBuffer(width, height, fmt, palette=palette, background=HUD_COLORS[0]) for _ in range(2)
    )
    strips = [
        IndexStrip(b, HUD_COLORS, top=40, left=0, height=hud.height, width=width)
        for b in (told, whole)
    ]
    for step in (1200, 1201):
        hud.update(_strip_text(step, 0.5))
        changed = hud.take_changed()
        told.take_dirty(), whole.take_dirty()
        converted: list[tuple[int, int]] = []
        with mock.patch.object(IndexedYuv, "convert", _spy(converted)):
            strips[0].show(hud.strip, changed)
        strips[1].show(hud.strip)
        assert np.array_equal(told.frame, whole.frame)
        dirty = told.take_dirty()
        assert dirty == whole.take_dirty()
        if step == 1201:
            assert len(changed) == 1
            area = changed[0]
            assert area.top + 40 <= dirty.top
            assert dirty.bottom <= area.bottom + 40
            assert area.left <= dirty.left
            assert dirty.right <= area.right + 1
            if fmt is PixelFormat.YUV420P:  # one block, no wider than the field's slot
                ((rows, cols),) = converted
                assert rows <= area.bottom - area.top
                assert cols <= area.right - area.left + 2


def _spy(shapes: list[tuple[int, int]]) -> Any:
    """:meth:`IndexedYuv.convert`, noting the shape of each block it converts."""
    convert = IndexedYuv.convert

    def spied(self: IndexedYuv, indices: np.ndarray) -> Any:
        shapes.append((indices.shape[0], indices.shape[1]))
        return convert(self, indices)

    return spied


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    half_h=st.integers(1, 30),
    half_w=st.integers(1, 60),
    greys=st.booleans(),
)
def test_indexed_yuv_equals_converting_the_pixels(
    seed: int, half_h: int, half_w: int, greys: bool
) -> None:
    rng = np.random.default_rng(seed)
    if greys:
        level = rng.integers(0, 256, 12, dtype=np.uint8)
        colors = np.stack([level, level, level], axis=1)
    else:
        colors = rng.integers(0, 256, (12, 3), dtype=np.uint8)
    indices = rng.integers(0, 12, (2 * half_h, 2 * half_w), dtype=np.uint8)
    got = IndexedYuv(colors).convert(indices)
    want = rgb_to_yuv420(colors[indices])
    for plane, expected in zip(got, want, strict=True):
        assert np.array_equal(plane, expected)


# -- frames unchanged -----------------------------------------------------------------------


class _Hashes:
    """An encoder that keeps each frame's hash."""

    def __init__(self, fmt: PixelFormat, into: list[str]) -> None:
        self._fmt, self._into, self.encoded_frames = fmt, into, 0

    @property
    def pixel_format(self) -> PixelFormat:
        return self._fmt

    def write(self, frame: Any, dirty: Any = None, *, hold: int = 0) -> None:
        self._into.append(hashlib.sha1(frame.tobytes()).hexdigest()[:16])
        self.encoded_frames += 1 + hold

    def __enter__(self) -> _Hashes:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _frames(scene: searchvid.Scene, fmt: PixelFormat) -> list[str]:
    hashes: list[str] = []
    with mock.patch.object(pipeline, "open_encoder", return_value=_Hashes(fmt, hashes)):
        scene.render(Path("unused.mp4"))
    return hashes


class _EnoughError(Exception):
    """Stops a render once the frames a test compares are drawn."""


def _first_frames(name: str, fmt: PixelFormat, count: int) -> list[str]:
    hashes: list[str] = []

    class First(_Hashes):
        def write(self, frame: Any, dirty: Any = None, *, hold: int = 0) -> None:
            super().write(frame, dirty, hold=hold)
            if len(hashes) == count:
                raise _EnoughError

    with (
        mock.patch.object(pipeline, "open_encoder", return_value=First(fmt, hashes)),
        pytest.raises(_EnoughError),
    ):
        searchvid.load_scene(name).render(Path("unused.mp4"))
    return hashes


BEFORE = {
    PixelFormat.YUV420P: "ee1e61ae04cc33b2",
    PixelFormat.RGB24: "5b85f6b63bc3eba6",
    PixelFormat.PAL8: "ebbffae09f122e9a",
}
"""The digest of the first 40 frames of railroad-random, as the MP4 (yuv420p), a PNG folder
(rgb24) and the GIF (pal8) receive them, taken before the strip was converted by rectangle
and the values were shared (issue 22, item 2): these changes move no pixel. Retaken when
the strip named the value in words (``closeness to goal``, issue 20 item 6) and the scene
went to 12 walks; the old digests were checked to hold with those two changes undone.
Retaken again when the board's score became ``points 34`` (issue 20 item 6, second round:
a strip text change only, not checked by undoing it), and when the opening card said what
``points`` counts (third round): only frame 0 changed, the other 39 checked equal to
commit 32638d8's frame by frame. Retaken when the legend named the error barrier and the
strip's value slots were sized to their fields (fifth round): against commit d0d1d80 the
first 60 frames differ only in the legend and strip rows (906-1018), but for frame 46, a
stuck board, which gains the barrier on its one error. Retaken when the open mark's legend
said what an open end costs and the opening card what points count ("if it ended now"):
against commit 22d8cca the first 60 frames differ only in the legend's row (906-933) and
frame 0's opening card."""


@pytest.mark.parametrize("fmt", list(PixelFormat))
def test_railroad_random_frames_are_unchanged(fmt: PixelFormat) -> None:
    hashes = _first_frames("railroad-random", fmt, 40)
    assert hashlib.sha1("".join(hashes).encode()).hexdigest()[:16] == BEFORE[fmt]
