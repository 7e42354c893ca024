"""The interactive player: one self-contained HTML file with every frame embedded.

:class:`HtmlEncoder` follows the encoder protocol of :mod:`searchvid.render.encode`. It takes
palette-index frames (:attr:`PixelFormat.PAL8`) and stores them frame-accurately as small
PNGs in base64: a full frame (a *keyframe*) every ``keyframe_interval`` frames, and between
keyframes only the rectangles that changed since the previous frame. The page reconstructs
any frame by drawing the nearest keyframe at or before it and the changes after it, so seeking
and stepping back are exact. Each PNG carries a palette of only the colours it uses, so a
changed tile costs a few hundred bytes and 1,000 frames of a 900x962 board stay a few MB.

The page has play/pause, one frame back and forward, first and last frame, a scrubber, a
speed choice (0.25x to 4x), a loop switch, a frame counter (``frame 12 / 1000``, counting
from 1) and a panel with each frame's details (step, kind, depth, label, value, caption and
any other key given); keyboard: space plays and pauses, left and right step one frame, Home
and End go to the first and last frame, ``+`` and ``-`` change the speed. It needs no network
and no other file: CSS, script and frames are inline.

The embedded data is the JSON text of ``<script type="application/json"
id="searchvid-data">``::

    {"format": "searchvid-player", "version": 1, "title": "...",
     "width": 900, "height": 962, "fps": 12, "keyframe_interval": 50,
     "frames": [{"key": true, "patches": [[x, y, w, h, "<base64 PNG>"], ...],
                 "hold": 3, "meta": {"step": 7, "kind": "enter", ...}}, ...],
     "hold_last": 2.0, "count": 1000}

A frame with ``"key": true`` is whole: one patch at ``(0, 0)`` of the frame's size. Any
other frame is the previous frame with its patches drawn over it in order (none: unchanged).
``hold`` (absent: 0) keeps the frame for that many extra frame durations; ``hold_last`` adds
seconds to the last frame when the player loops; ``meta`` (absent: none) is what
:meth:`HtmlEncoder.annotate` gave for the frame. Every ``<`` inside the JSON text is written
as ``\\u003c`` so that no string can end the script element.
"""

from __future__ import annotations

import base64
import contextlib
import html
import io
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from PIL import Image

from searchvid.errors import RunError
from searchvid.render.canvas import PixelFormat, Pixels, Rect
from searchvid.render.encode import (
    OutputKind,
    _AtomicOutput,
    _writing,
    check_frame_size,
    reserve_partial,
)

__all__ = ["DATA_ELEMENT_ID", "KEYFRAME_INTERVAL", "Annotates", "HtmlEncoder"]

KEYFRAME_INTERVAL = 50
"""Frames from one keyframe to the next: the page draws at most this many to show any frame."""

DATA_ELEMENT_ID = "searchvid-data"
"""The ``id`` of the script element that holds the frames as JSON."""

_BAND_GAP = 16
"""Unchanged pixel rows that split a changed area into two patches (a tile and the strip)."""

_LOCAL_PALETTE_AREA = 1 << 16
"""Patches up to this many pixels get a palette of only their own colours (fewer bits a
pixel, a short palette chunk); larger ones the frame palette up to their highest index, which
saves counting colours where it would not pay."""

# zlib level of the patches. Measured on a 1400x662 Water Sort keyframe: 3 makes 17 kB in
# 6 ms, 6 makes 10 kB in 15 ms, 9 makes 7 kB in 30 ms.
_PNG_LEVEL = 6


@runtime_checkable
class Annotates(Protocol):
    """An encoder that keeps details of each frame (the HTML player shows them)."""

    def annotate(self, meta: Mapping[str, Any]) -> None:
        """Details of the next frame :meth:`write` receives."""
        ...


class HtmlEncoder(_AtomicOutput):
    """An interactive player page holding every frame: see the module's description.

    Frames are palette indices (:attr:`PixelFormat.PAL8`) into ``palette``, so colours are
    exact. The page is written as frames arrive (only the previous frame is held in memory)
    under a temporary name beside the target, renamed when the context exits cleanly.

    Call :meth:`annotate` before :meth:`write` to give a frame its details: the pipeline
    passes ``step``, ``kind``, ``depth``, ``label``, ``value`` and, where there is one,
    ``caption``; any other JSON-friendly key is shown too.

    Args:
        path: Target file (``.html``).
        width: Frame width in pixels.
        height: Frame height in pixels.
        palette: ``(n, 3)`` uint8, 1 to 256 colours.
        fps: Frames per second at speed 1x.
        hold_last: Extra seconds on the last frame before the player starts over (when it
            loops).
        title: The page's title and heading (the scene's title).
        keyframe_interval: At most this many frames from one keyframe to the next; a frame
            whose changes cover half of it or more is stored whole as a keyframe anyway.

    Raises:
        UsageError: A frame larger than a browser's canvas holds (:func:`check_frame_size`).
        ValueError: A bad palette or keyframe interval.
    """

    def __init__(
        self,
        path: Path,
        *,
        width: int,
        height: int,
        palette: npt.NDArray[np.uint8],
        fps: int,
        hold_last: float = 0.0,
        title: str = "",
        keyframe_interval: int = KEYFRAME_INTERVAL,
    ) -> None:
        if not 1 <= len(palette) <= 256:
            raise ValueError(f"a palette has 1 to 256 colours, got {len(palette)}")
        if keyframe_interval < 1:
            raise ValueError(f"keyframe_interval must be >= 1, got {keyframe_interval}")
        check_frame_size(OutputKind.HTML, width, height)
        super().__init__(path)
        self._size = (width, height)
        self._palette = np.asarray(palette, dtype=np.uint8).reshape(-1, 3)
        self._fps = fps
        self._hold_last = float(hold_last)
        self._title = title
        self._interval = keyframe_interval
        self._file: IO[str] | None = None
        self._previous: Pixels | None = None
        self._since_key = 0
        self._meta: dict[str, Any] | None = None

    @property
    def pixel_format(self) -> PixelFormat:
        return PixelFormat.PAL8

    def annotate(self, meta: Mapping[str, Any]) -> None:
        """Keep ``meta`` as the details of the next frame written (the last call wins).

        Values that JSON cannot hold are shown as text (``inf``, ``nan``, other objects).
        """
        self._meta = {str(key): _json_value(value) for key, value in meta.items()}

    def _open(self) -> None:
        self._make_parent()
        self._tmp = reserve_partial(self.path)
        self._file = open(self._tmp, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed by _finish or _abort
        with _writing(self.path):
            self._file.write(self._head())

    def write(self, frame: Pixels, dirty: Rect | None = None, *, hold: int = 0) -> None:
        """Append ``frame`` (``(height, width)`` palette indices); see the encoder protocol."""
        width, height = self._size
        if frame.shape != (height, width):
            raise ValueError(f"frame of shape {frame.shape}, expected {(height, width)}")
        assert self._file is not None, "write() outside the with block"
        meta, self._meta = self._meta, None
        previous = self._previous
        whole = Rect(0, 0, height, width)
        key = previous is None or self._since_key + 1 >= self._interval
        rects = [whole] if previous is None or key else _changed(previous, frame, dirty)
        if not key and 2 * sum(_area(r) for r in rects) >= width * height:
            key, rects = True, [whole]
        record: dict[str, Any] = {"key": key, "patches": [self._patch(frame, r) for r in rects]}
        if hold:
            record["hold"] = hold
        if meta:
            record["meta"] = meta
        with _writing(self.path):
            self._file.write(("," if self._count else "") + "\n" + _json(record))
        if previous is None:
            self._previous = frame.copy()
        else:
            for top, left, bottom, right in rects:
                previous[top:bottom, left:right] = frame[top:bottom, left:right]
        self._since_key = 0 if key else self._since_key + 1
        self._count += 1

    def _patch(self, frame: Pixels, rect: Rect) -> list[int | str]:
        """``[x, y, w, h, base64 PNG]`` of ``rect``, with a palette of the colours it uses."""
        part = np.ascontiguousarray(frame[rect.top : rect.bottom, rect.left : rect.right])
        if part.size <= _LOCAL_PALETTE_AREA:
            used = np.flatnonzero(np.bincount(part.ravel(), minlength=len(self._palette)))
            lookup = np.zeros(256, dtype=np.uint8)
            lookup[used] = np.arange(len(used), dtype=np.uint8)
            part = lookup[part]
        else:
            used = np.arange(int(part.max()) + 1)
        if used[-1] >= len(self._palette):
            raise ValueError(
                f"palette index {used[-1]} in a frame of a {len(self._palette)}-colour palette"
            )
        image = Image.fromarray(part)
        image.putpalette(self._palette[used].tobytes())
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=_PNG_LEVEL)
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        return [rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top, data]

    def _head(self) -> str:
        """The page up to the start of the frame list."""
        width, height = self._size
        title = html.escape(self._title or "searchvid")
        header = {
            "format": "searchvid-player",
            "version": 1,
            "title": self._title,
            "width": width,
            "height": height,
            "fps": self._fps,
            "keyframe_interval": self._interval,
        }
        page = _PAGE.format(title=title, width=width, height=height, data_id=DATA_ELEMENT_ID)
        return page + _json(header)[:-1] + ',"frames":['

    def _finish(self) -> None:
        if self._count == 0:
            raise RunError("no frames to encode")
        assert self._file is not None
        tail = {"hold_last": self._hold_last, "count": self._count}
        with _writing(self.path):
            self._file.write("\n]," + _json(tail)[1:] + "</script>\n")
            self._file.write(f"<script>\n{_SCRIPT}</script>\n</body>\n</html>\n")
            self._file.close()
        self._file = None
        self._commit()

    def _abort(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):  # a full disk fails the flush; closed anyway
                self._file.close()
            self._file = None
        self._remove_tmp()


def _area(rect: Rect) -> int:
    return (rect.bottom - rect.top) * (rect.right - rect.left)


def _changed(previous: Pixels, frame: Pixels, dirty: Rect | None) -> list[Rect]:
    """The rectangles, top to bottom, that hold every pixel of ``frame`` that differs from
    ``previous`` inside ``dirty`` (None: the whole frame).

    Changed rows more than :data:`_BAND_GAP` rows apart go to separate rectangles, so a tile
    and the status strip far below it are two small patches rather than one tall one.
    """
    height, width = frame.shape[:2]
    top, left, bottom, right = dirty if dirty is not None else (0, 0, height, width)
    top, left = max(top, 0), max(left, 0)
    bottom, right = min(bottom, height), min(right, width)
    if bottom <= top or right <= left:
        return []
    diff = previous[top:bottom, left:right] != frame[top:bottom, left:right]
    rows = np.flatnonzero(diff.any(axis=1))
    if rows.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(rows) > _BAND_GAP)
    starts = [int(rows[0]), *(int(rows[b + 1]) for b in breaks)]
    ends = [*(int(rows[b]) + 1 for b in breaks), int(rows[-1]) + 1]
    rects = []
    for start, end in zip(starts, ends, strict=True):
        cols = np.flatnonzero(diff[start:end].any(axis=0))
        rects.append(Rect(top + start, left + int(cols[0]), top + end, left + int(cols[-1]) + 1))
    return rects


def _json_value(value: Any) -> Any:
    """``value`` as JSON can hold it: numbers, text, true/false/null, lists and tables;
    non-finite floats and other objects become text."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, np.generic):
        return _json_value(value.item())
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return str(value)


def _json(value: Any) -> str:
    """Compact JSON that is safe inside a script element (``<`` escaped)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="searchvid">
<title>{title}</title>
<style>
:root {{ color-scheme: light; --line: #d0d4da; --ink: #1d232b; --soft: #5b6470; }}
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; height: 100%; }}
body {{ font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: #f6f7f9; }}
main {{ display: flex; flex-direction: column; height: 100vh; padding: 12px 16px; gap: 10px; }}
h1 {{ font-size: 1.15rem; font-weight: 600; margin: 0; }}
.layout {{ flex: 1; min-height: 0; display: flex; gap: 16px; }}
.stage {{ flex: 1; min-width: 0; min-height: 0; position: relative; overflow: hidden; }}
canvas {{ position: absolute; image-rendering: pixelated; background: #fff;
  box-shadow: 0 0 0 1px var(--line); }}
.info {{ width: 17rem; flex: none; overflow: auto; background: #fff; border: 1px solid var(--line);
  border-radius: 8px; padding: 10px 14px; }}
.info h2 {{ font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--soft);
  margin: 0 0 6px; }}
dl {{ display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0; }}
dt {{ color: var(--soft); }}
dd {{ margin: 0; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }}
.controls {{ display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; }}
button {{ width: 36px; height: 32px; display: inline-grid; place-items: center; padding: 0;
  border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--ink);
  cursor: pointer; }}
button:hover {{ background: #eef1f5; }}
button svg {{ width: 16px; height: 16px; fill: currentColor; }}
:focus-visible {{ outline: 2px solid #2f6fde; outline-offset: 1px; }}
#scrub {{ flex: 1; min-width: 8rem; accent-color: #2f6fde; }}
#counter {{ font-variant-numeric: tabular-nums; min-width: 9.5rem; text-align: right; }}
label {{ color: var(--soft); display: inline-flex; align-items: center; gap: 4px; }}
select {{ font: inherit; padding: 2px 4px; border: 1px solid var(--line); border-radius: 6px;
  background: #fff; }}
.keys {{ margin: 0; color: var(--soft); font-size: .8rem; }}
kbd {{ font: inherit; border: 1px solid var(--line); border-radius: 4px; padding: 0 4px;
  background: #fff; }}
#error {{ color: #b3261e; margin: 0; }}
#no-meta {{ color: var(--soft); margin: 0; }}
@media (max-width: 720px) {{
  .layout {{ flex-direction: column; }}
  .stage {{ flex: none; height: 60vh; }}
  .info {{ width: auto; }}
  main {{ height: auto; min-height: 100vh; }}
}}
</style>
</head>
<body>
<main>
<h1 id="title">{title}</h1>
<div class="layout">
<div class="stage" id="stage"><canvas id="screen" width="{width}" height="{height}" role="img"
 aria-label="The current frame"></canvas></div>
<aside class="info" aria-labelledby="details-heading"><h2 id="details-heading">This frame</h2>
<dl id="meta"></dl><p id="no-meta" hidden>No details were recorded for this frame.</p></aside>
</div>
<div class="controls" role="toolbar" aria-label="Player controls">
<button type="button" id="first" aria-label="First frame" title="First frame (Home)"><svg
 viewBox="0 0 16 16" aria-hidden="true"><path d="M2 2h2v12H2zM14 2v12L5 8z"/></svg></button>
<button type="button" id="back" aria-label="Previous frame" title="Previous frame (Left)"><svg
 viewBox="0 0 16 16" aria-hidden="true"><path d="M10 2h2v12h-2zM9 2v12L2 8z"/></svg></button>
<button type="button" id="play" aria-label="Play" title="Play (Space)"><svg viewBox="0 0 16 16"
 aria-hidden="true"><path id="play-icon" d="M3 2v12l11-6z"/></svg></button>
<button type="button" id="forward" aria-label="Next frame" title="Next frame (Right)"><svg
 viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2h2v12H4zM7 2v12l7-6z"/></svg></button>
<button type="button" id="last" aria-label="Last frame" title="Last frame (End)"><svg
 viewBox="0 0 16 16" aria-hidden="true"><path d="M12 2h2v12h-2zM2 2v12l9-6z"/></svg></button>
<input type="range" id="scrub" min="0" max="0" value="0" step="1" aria-label="Frame">
<span id="counter">frame 0 / 0</span>
<label for="speed">speed</label>
<select id="speed" aria-label="Playback speed" title="Playback speed (+ and -)">
<option value="0.25">0.25&times;</option><option value="0.5">0.5&times;</option>
<option value="0.75">0.75&times;</option><option value="1" selected>1&times;</option>
<option value="1.5">1.5&times;</option><option value="2">2&times;</option>
<option value="3">3&times;</option><option value="4">4&times;</option>
</select>
<label><input type="checkbox" id="loop"> loop</label>
</div>
<p class="keys">Keys: <kbd>Space</kbd> play/pause &middot; <kbd>&larr;</kbd> <kbd>&rarr;</kbd>
one frame &middot; <kbd>Home</kbd> <kbd>End</kbd> first/last &middot; <kbd>+</kbd> <kbd>-</kbd>
speed</p>
<p id="error" role="alert"></p>
<noscript><p>The player needs JavaScript.</p></noscript>
</main>
<script type="application/json" id="{data_id}">"""


_SCRIPT = r"""(() => {
"use strict";
const $ = (id) => document.getElementById(id);
const data = JSON.parse($("searchvid-data").textContent);
const frames = data.frames, count = frames.length;
const canvas = $("screen"), ctx = canvas.getContext("2d", { alpha: false });
ctx.imageSmoothingEnabled = false;
const scrub = $("scrub"), speedBox = $("speed"), loop = $("loop"), playButton = $("play");
const ORDER = ["step", "kind", "depth", "label", "value", "caption"];
const PLAY_ICON = "M3 2v12l11-6z", PAUSE_ICON = "M3 2h4v12H3zM9 2h4v12H9z";
const CACHE_PIXELS = 1 << 25;  // decoded patches kept: ~128 MB of RGBA at most

// keyOf[i]: the keyframe at or before frame i, where drawing frame i starts.
const keyOf = new Int32Array(count);
for (let i = 0, key = 0; i < count; i++) { if (frames[i].key) key = i; keyOf[i] = key; }
scrub.max = String(count - 1);

let shown = -1;        // the frame on the canvas
let target = 0;        // the frame asked for last
let busy = null;       // the promise of the drawing under way
let playing = false, generation = 0, timer = 0, due = 0;

// Decoded patches of recent frames, least recently used first, bounded in pixels.
const cache = new Map();
let cachedPixels = 0;
function decodePatch(patch) {
  const image = new Image();
  image.src = "data:image/png;base64," + patch[4];
  return image.decode().then(() => image);
}
function decoded(i) {
  let entry = cache.get(i);
  if (entry) { cache.delete(i); cache.set(i, entry); return entry.images; }
  const patches = frames[i].patches;
  entry = { images: Promise.all(patches.map(decodePatch)),
            pixels: patches.reduce((sum, p) => sum + p[2] * p[3], 0) };
  cache.set(i, entry);
  cachedPixels += entry.pixels;
  for (const [j, old] of cache) {
    if (cachedPixels <= CACHE_PIXELS || j === i) break;
    cache.delete(j);
    cachedPixels -= old.pixels;
  }
  return entry.images;
}

// Draw frame k: onward from the frame shown when that is on the way, else from its keyframe.
// Every patch is decoded before the first is drawn, so no half-drawn frame is ever seen.
async function drawFrame(k) {
  const from = shown >= keyOf[k] && shown < k ? shown + 1 : keyOf[k];
  const pending = [];
  for (let i = from; i <= k; i++) pending.push(decoded(i));
  const images = await Promise.all(pending);
  images.forEach((list, n) => {
    const patches = frames[from + n].patches;
    list.forEach((image, j) => ctx.drawImage(image, patches[j][0], patches[j][1]));
  });
  shown = k;
  showDetails();
}

function seek(k) {
  target = Math.max(0, Math.min(count - 1, Math.round(k)));
  if (!busy) {
    busy = (async () => { while (shown !== target) await drawFrame(target); })()
      .catch((error) => {
        $("error").textContent = "Cannot draw frame " + (target + 1) + ": " + error;
        pause();
      })
      .finally(() => { busy = null; });
  }
  return busy;
}

function format(value) {
  if (value === null || value === undefined) return "\u2013";
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
function showDetails() {
  $("counter").textContent = "frame " + (shown + 1) + " / " + count;
  document.body.dataset.frame = String(shown);
  if (!scrub.matches(":active")) scrub.value = String(shown);  // not while it is dragged
  const meta = frames[shown].meta || {};
  const others = Object.keys(meta).filter((key) => !ORDER.includes(key));
  const keys = ORDER.filter((key) => key in meta).concat(others);
  const list = $("meta");
  list.replaceChildren();
  for (const key of keys) {
    const term = document.createElement("dt"), value = document.createElement("dd");
    term.textContent = key;
    value.textContent = format(meta[key]);
    value.dataset.key = key;
    list.append(term, value);
  }
  $("no-meta").hidden = keys.length > 0;
}

function seconds(i) {
  const time = (1 + (frames[i].hold || 0)) / data.fps;
  return i === count - 1 ? time + data.hold_last : time;
}
function speed() { return Number(speedBox.value); }
function schedule(run) {
  clearTimeout(timer);
  timer = setTimeout(() => tick(run), Math.max(0, due - performance.now()));
}
async function tick(run) {
  if (!playing || run !== generation) return;
  let next = target + 1;
  if (next >= count) {
    if (!loop.checked) { pause(); return; }
    next = 0;
  }
  await seek(next);
  if (!playing || run !== generation) return;
  due = Math.max(due + seconds(next) * 1000 / speed(), performance.now());
  for (let i = next + 1; i < Math.min(count, next + 4); i++) decoded(i);  // decode ahead
  schedule(run);
}
function play() {
  if (playing) return;
  if (target >= count - 1 && !loop.checked) seek(0);
  playing = true;
  generation += 1;
  due = performance.now() + seconds(target) * 1000 / speed();
  schedule(generation);
  showPlaying();
}
function pause() {
  playing = false;
  generation += 1;
  clearTimeout(timer);
  showPlaying();
}
function showPlaying() {
  playButton.setAttribute("aria-label", playing ? "Pause" : "Play");
  playButton.title = playing ? "Pause (Space)" : "Play (Space)";
  $("play-icon").setAttribute("d", playing ? PAUSE_ICON : PLAY_ICON);
}
function toggle() { if (playing) pause(); else play(); }
function step(by) { pause(); return seek(target + by); }
function go(k) { pause(); return seek(k); }
function changeSpeed(by) {
  const index = Math.max(0, Math.min(speedBox.options.length - 1, speedBox.selectedIndex + by));
  speedBox.selectedIndex = index;
}

playButton.addEventListener("click", toggle);
$("back").addEventListener("click", () => step(-1));
$("forward").addEventListener("click", () => step(1));
$("first").addEventListener("click", () => go(0));
$("last").addEventListener("click", () => go(count - 1));
scrub.addEventListener("input", () => go(Number(scrub.value)));

// Keys a focused control handles itself are left to it (Space on a button, arrows on the
// scrubber, ...); any other key is the player's.
const ARROWS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"];
function ownKeys(element) {
  if (element.tagName === "BUTTON") return [" ", "Enter"];
  if (element.tagName === "SELECT") return [" ", "Enter", ...ARROWS];
  if (element.tagName !== "INPUT") return [];
  return element.type === "range" ? [...ARROWS, "PageUp", "PageDown"] : [" ", "Enter"];
}
const ACTIONS = {
  " ": toggle,
  "ArrowLeft": () => step(-1), "ArrowRight": () => step(1),
  "Home": () => go(0), "End": () => go(count - 1),
  "+": () => changeSpeed(1), "=": () => changeSpeed(1),
  "-": () => changeSpeed(-1), "_": () => changeSpeed(-1),
};
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (ownKeys(event.target).includes(event.key)) return;
  const action = ACTIONS[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

// The frame fills the stage, scaled by a whole number when it is smaller (crisp pixels).
function fit() {
  const stage = $("stage");
  let scale = Math.min(stage.clientWidth / data.width, stage.clientHeight / data.height);
  if (scale >= 1) scale = Math.floor(scale);
  const width = Math.max(1, Math.round(data.width * scale));
  const height = Math.max(1, Math.round(data.height * scale));
  // Nearest-neighbour when enlarged (crisp tiles); smooth when shrunk, where dropping whole
  // pixel rows would break thin lines and text.
  canvas.style.imageRendering = scale >= 1 ? "pixelated" : "auto";
  canvas.style.width = width + "px";
  canvas.style.height = height + "px";
  canvas.style.left = Math.floor((stage.clientWidth - width) / 2) + "px";
  canvas.style.top = Math.floor((stage.clientHeight - height) / 2) + "px";
}
new ResizeObserver(fit).observe($("stage"));
fit();

window.searchvidPlayer = {
  count, seek, play, pause, step,
  get frame() { return shown; },
  get playing() { return playing; },
  get busy() { return busy !== null; },
};
seek(0);
})();
"""
