"""The HTML player's page: markup and style (:data:`PAGE`) and its script (:data:`SCRIPT`).

:class:`~searchvid.render.html.HtmlEncoder` writes :data:`PAGE` (formatted with the title,
the frame's size and the data element's id), then the frames as JSON, then :data:`SCRIPT`.
"""

from __future__ import annotations

PAGE = """<!DOCTYPE html>
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
.stage.zoomed {{ overflow: auto; cursor: grab; overscroll-behavior: contain; }}
.stage.dragging {{ cursor: grabbing; user-select: none; }}
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
#zoom {{ width: auto; min-width: 44px; padding: 0 8px; font: inherit; font-size: .85rem;
  font-variant-numeric: tabular-nums; }}
#zoom[aria-pressed="true"] {{ background: #e3ebfb; border-color: #2f6fde; }}
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
  /* a phone: the frame across the page, the controls under it, then the details */
  main {{ height: auto; min-height: 100vh; padding: 8px; gap: 8px; }}
  .layout {{ display: contents; }}
  .stage {{ order: 1; flex: none; width: 100%; aspect-ratio: {width} / {height};
    max-height: 75vh; }}
  .controls {{ order: 2; gap: 8px; }}
  .info {{ order: 3; width: auto; }}
  .keys, #error {{ order: 4; }}
  button {{ width: 44px; height: 40px; }}
  select {{ height: 40px; }}
  #scrub {{ flex: 1 1 100%; order: -1; height: 28px; }}
  #counter {{ min-width: 0; flex: 1 0 auto; text-align: left; white-space: nowrap; }}
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
<button type="button" id="zoom" aria-pressed="false" aria-label="Actual size (1:1)"
 title="Actual size, 1:1 (Z); then drag or scroll to pan">1:1</button>
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
speed &middot; <kbd>Z</kbd> actual size or fit (double-click a point to zoom there; drag to
pan)</p>
<p id="error" role="alert"></p>
<noscript><p>The player needs JavaScript.</p></noscript>
</main>
<script type="application/json" id="{data_id}">"""


SCRIPT = r"""(() => {
"use strict";
const $ = (id) => document.getElementById(id);
const data = JSON.parse($("searchvid-data").textContent);
const frames = data.frames, count = frames.length;
const canvas = $("screen"), ctx = canvas.getContext("2d", { alpha: false });
ctx.imageSmoothingEnabled = false;
const scrub = $("scrub"), speedBox = $("speed"), loop = $("loop"), playButton = $("play");
const stage = $("stage"), zoomButton = $("zoom");
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
  "z": () => setZoom(!zoomed), "Z": () => setZoom(!zoomed),
};
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (ownKeys(event.target).includes(event.key)) return;
  const action = ACTIONS[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

// Fitted, the frame fills the stage, scaled by a whole number when it is smaller (crisp
// pixels). Zoomed, it is shown 1:1 (a frame pixel to a CSS pixel) and the stage scrolls: drag
// with the mouse, or scroll and swipe, to pan.
let zoomed = false;
const ZOOM_TITLE = zoomButton.title;
function fit() {
  const room = [stage.clientWidth, stage.clientHeight];
  let scale = 1;
  if (!zoomed) {
    scale = Math.min(room[0] / data.width, room[1] / data.height);
    if (scale >= 1) scale = Math.floor(scale);
  }
  const width = Math.max(1, Math.round(data.width * scale));
  const height = Math.max(1, Math.round(data.height * scale));
  // Nearest-neighbour when enlarged (crisp tiles); smooth when shrunk, where dropping whole
  // pixel rows would break thin lines and text.
  canvas.style.imageRendering = scale >= 1 ? "pixelated" : "auto";
  canvas.style.width = width + "px";
  canvas.style.height = height + "px";
  canvas.style.left = Math.max(0, Math.floor((room[0] - width) / 2)) + "px";
  canvas.style.top = Math.max(0, Math.floor((room[1] - height) / 2)) + "px";
}
// Zoom in or out, keeping the point (fx, fy) of the frame (fractions of its size) at the
// centre of the stage.
function setZoom(on, fx = 0.5, fy = 0.5) {
  zoomed = on;
  stage.classList.toggle("zoomed", on);
  zoomButton.setAttribute("aria-pressed", String(on));
  zoomButton.setAttribute("aria-label", on ? "Fit to the window" : "Actual size (1:1)");
  zoomButton.textContent = on ? "fit" : "1:1";
  zoomButton.title = on ? "Fit to the window (Z)" : ZOOM_TITLE;
  fit();
  stage.scrollLeft = on ? fx * data.width - stage.clientWidth / 2 : 0;
  stage.scrollTop = on ? fy * data.height - stage.clientHeight / 2 : 0;
}
zoomButton.addEventListener("click", () => setZoom(!zoomed));
canvas.addEventListener("dblclick", (event) => {
  const box = canvas.getBoundingClientRect();
  setZoom(!zoomed, (event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
});
// Mouse drags pan (touch screens pan the scrolling stage themselves).
let drag = null;
stage.addEventListener("pointerdown", (event) => {
  if (!zoomed || event.pointerType !== "mouse" || event.button !== 0) return;
  drag = { x: event.clientX, y: event.clientY, left: stage.scrollLeft, top: stage.scrollTop };
  stage.setPointerCapture(event.pointerId);
  stage.classList.add("dragging");
});
stage.addEventListener("pointermove", (event) => {
  if (!drag) return;
  stage.scrollLeft = drag.left - (event.clientX - drag.x);
  stage.scrollTop = drag.top - (event.clientY - drag.y);
});
function endDrag() { drag = null; stage.classList.remove("dragging"); }
stage.addEventListener("pointerup", endDrag);
stage.addEventListener("pointercancel", endDrag);
new ResizeObserver(fit).observe(stage);
fit();

window.searchvidPlayer = {
  count, seek, play, pause, step,
  get frame() { return shown; },
  get zoomed() { return zoomed; },
  zoom: setZoom,
  get playing() { return playing; },
  get busy() { return busy !== null; },
};
seek(0);
})();
"""
