"""A GIF shows, frame for frame, the PNG folder's frames: status strip included, as browsers
play it, for every shipped scene.

The GIF is decoded the way browsers play it (:mod:`browser_gif`): each image is a frame of
its own, drawn over what the images before it left, for its delay as browsers play it.
Every shipped scene is rendered as shipped, cut at :data:`FRAMES` frames (:data:`MOVES` where
each frame is a move chosen by a whole search) so that the file stays quick: the dice games'
searches take seconds even so.
"""

from __future__ import annotations

import base64
import io
import itertools
import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from browser_gif import BROWSER_MIN_DELAY, frames_as_browsers_show, read_gif
from PIL import Image

import searchvid

SCENES = sorted((Path(__file__).resolve().parents[2] / "scenes").glob("*.toml"))
FRAMES = 24
"""Frames rendered of each scene, at most: a second of the 24 fps scenes."""

MOVES = 8
"""Frames rendered of a scene whose frames are moves (``frames = "moves"``): each is a search."""


def png_frame(folder: Path, index: int) -> np.ndarray:
    with Image.open(folder / f"frame_{index:06d}.png") as image:
        return np.asarray(image.convert("RGB"))


def differing_frames(gif: Path, folder: Path) -> tuple[list[int], int]:
    """The indices of the frames a browser shows from ``gif`` that are not the PNG folder's
    frame of that index (a pixel the GIF leaves uncovered counts as a difference), and how
    many frames it shows."""
    count = len(list(folder.iterdir()))
    differ = []
    shown = 0
    for index, frame in enumerate(frames_as_browsers_show(read_gif(gif))):
        shown += 1
        same = index < count and frame.opaque.all()
        if not (same and np.array_equal(frame.rgb, png_frame(folder, index))):
            differ.append(index)
    return differ, shown


def handmade_gif(path: Path, palette: np.ndarray, images: list[tuple[Any, ...]]) -> None:
    """A 4x4 GIF of ``images``: ``(left, top, indices, transparent, disposal, delay)``."""
    gif = b"GIF89a" + struct.pack("<HHBBB", 4, 4, 0x81, 0, 0) + palette.tobytes()
    for left, top, indices, transparent, disposal, delay in images:
        flags = disposal << 2 | (transparent is not None)
        gif += struct.pack("<BBBBHBB", 0x21, 0xF9, 4, flags, delay, transparent or 0, 0)
        height, width = indices.shape
        gif += b"," + struct.pack("<HHHHB", left, top, width, height, 0) + bytes([2])
        image = Image.fromarray(indices.astype(np.uint8), "L")
        gif += image.tobytes("gif", "L", 2, 0) + b"\0"
    path.write_bytes(gif + b";")


def test_the_decoder_composes_and_times_images_as_browsers_do(tmp_path: Path) -> None:
    palette = np.array([(0, 0, 0), (200, 0, 0), (0, 200, 0), (0, 0, 200)], np.uint8)
    handmade_gif(
        tmp_path / "v.gif",
        palette,
        [
            (0, 0, np.full((4, 4), 1), None, 1, 0),  # kept; a delay of 0 plays as 10
            (1, 1, np.array([[2, 2], [0, 2]]), 0, 2, 1),  # index 0 transparent; then cleared
            (0, 0, np.array([[3]]), None, 3, 5),  # drawn over the cleared box; then undone
            (3, 3, np.array([[2]]), None, 1, 2),
        ],
    )
    shown = [
        (frame.rgb.copy(), frame.opaque.copy(), frame.delay)
        for frame in frames_as_browsers_show(read_gif(tmp_path / "v.gif"))
    ]
    red, green, blue = 1, 2, 3
    first = np.full((4, 4), red)
    second = first.copy()
    second[1, 1:3] = second[2, 2] = green
    cleared = np.ones((4, 4), bool)
    cleared[1:3, 1:3] = False  # disposal 2: the box becomes transparent, not a colour
    third = first.copy()
    third[0, 0] = blue
    fourth = first.copy()
    fourth[3, 3] = green
    expected = [
        (first, np.ones((4, 4), bool), 10),
        (second, np.ones((4, 4), bool), 10),
        (third, cleared, 5),
        (fourth, cleared, 2),  # disposal 3: the blue pixel is undone, the clearing is not
    ]
    assert len(shown) == len(expected)
    for (rgb, opaque, delay), (indices, mask, played) in zip(shown, expected, strict=True):
        assert (delay, opaque.tolist()) == (played, mask.tolist())
        assert np.array_equal(rgb[mask], palette[indices][mask])


def test_the_shipped_scenes_are_all_here() -> None:
    assert len(SCENES) >= 18
    assert {"tree-backtracking", "railroad-backtracking", "watersort-race"} <= {
        p.stem for p in SCENES
    }


@pytest.mark.parametrize("path", SCENES, ids=lambda p: p.stem)
def test_every_frame_a_browser_shows_is_the_png_folders_frame(tmp_path: Path, path: Path) -> None:
    scene = searchvid.load_scene(path)
    cut = MOVES if scene.video.frames == "moves" else FRAMES
    scene = scene.with_overrides(frames=min(cut, scene.video.max_frames))
    gif = scene.render(tmp_path / "v.gif")
    folder = scene.render(tmp_path / "frames")
    assert gif.frames == folder.frames == len(list((tmp_path / "frames").iterdir())) > 1
    decoded = read_gif(tmp_path / "v.gif")
    # one image per frame: a browser shows every image, so there is nothing in between
    assert len(decoded.images) == gif.frames
    assert min(image.delay for image in decoded.images) >= BROWSER_MIN_DELAY
    differ, shown = differing_frames(tmp_path / "v.gif", tmp_path / "frames")
    assert (differ, shown) == ([], gif.frames)


def player_data(path: Path) -> dict[str, Any]:
    """The frames' records the HTML player embeds (see :mod:`searchvid.render.html`)."""
    found = re.findall(r'<script type="application/json" id="searchvid-data">(.*?)</script>',
                       path.read_text("utf-8"), re.S)  # fmt: skip
    assert len(found) == 1
    data: dict[str, Any] = json.loads(found[0])
    return data


def player_frames(data: dict[str, Any]) -> Iterator[np.ndarray]:
    """The HTML player's frames in order, each drawn over the one before (its playback)."""
    canvas = np.zeros((data["height"], data["width"], 3), np.uint8)
    for record in data["frames"]:
        for x, y, w, h, png in record["patches"]:
            with Image.open(io.BytesIO(base64.b64decode(png))) as patch:
                canvas[y : y + h, x : x + w] = np.asarray(patch.convert("RGB"))
        yield canvas


def test_a_gif_plays_each_frame_as_long_as_the_player_does(tmp_path: Path) -> None:
    """24 fps (4 or 5 centiseconds a frame), new bests held, a held last frame: the delays a
    browser plays are the player's frame times, rounded without drift; the GIF and the
    player both show the PNG folder's frames, strip included."""
    table = {
        "title": "timing",
        "seed": 3,
        "domain": {"name": "railroad"},
        "search": {"algorithm": "random-walk", "restarts": 5},
        "video": {
            "fps": 24,
            "tile_size": 20,
            "max_frames": 60,
            "hold_improvements": 0.25,
            "hold_last": 1.5,
        },
    }
    scene = searchvid.scene_from_dict(table, name="timing")
    scene.render(tmp_path / "v.gif")
    scene.render(tmp_path / "v.html")
    scene.render(tmp_path / "frames")
    data = player_data(tmp_path / "v.html")
    holds = [record.get("hold", 0) for record in data["frames"]]
    assert len(holds) == 60
    assert sum(holds) > 0  # some frames are held
    ticks = np.cumsum([0] + [1 + hold for hold in holds])
    ends = [round(100 * int(t) / 24) for t in ticks]
    expected = [b - a for a, b in itertools.pairwise(ends)]
    expected[-1] += 300  # held max(hold_last, closing) = 3 s: the closing card
    played = [frame.delay for frame in frames_as_browsers_show(read_gif(tmp_path / "v.gif"))]
    assert played == expected
    assert sum(played) == round(100 * (60 + sum(holds)) / 24) + 300
    assert differing_frames(tmp_path / "v.gif", tmp_path / "frames") == ([], 60)
    differ = [
        index
        for index, frame in enumerate(player_frames(data))
        if not np.array_equal(frame, png_frame(tmp_path / "frames", index))
    ]
    assert differ == []
