"""A GIF decoded the way web browsers play it, for tests that compare it with other formats.

Browsers (Chromium, Firefox, Safari) show every image of a GIF as a frame of its own, for the
delay of the graphic control block before it; a delay under 2 centiseconds (0 or 1) is played
as 10. Each image is drawn over what the previous one left: the pixels of its transparent
index leave the picture under them, and the previous image's disposal decides what it left
(0 or 1: itself; 2: its box cleared to transparent, which is what browsers do instead of the
background colour; 3: the picture from before it). Pixels no image has covered are
transparent: a browser shows the page through them.

The blocks are read here; each image's LZW data is decoded by Pillow, one image at a time,
from a one-image GIF built around it (so Pillow's own composition of frames plays no part).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

BROWSER_MIN_DELAY = 2
"""The shortest delay (centiseconds) browsers play as written."""

BROWSER_SHORT_DELAY = 10
"""What browsers play a shorter delay as (centiseconds)."""

# Entry i of the table given to Pillow: not a grey ramp, so Pillow keeps palette mode and
# hands back the indices as they are.
_INDEX_TABLE = bytes(value for i in range(256) for value in (i, 255 - i, 7))


@dataclass(frozen=True)
class GifImage:
    """One image of a GIF as its blocks say.

    Attributes:
        top: First row on the logical screen.
        left: First column on the logical screen.
        height: Rows.
        width: Columns.
        table: The colours its indices refer to (its own table, else the global one).
        transparent: Its transparent index (None: none).
        disposal: What happens to it after its delay (0 to 3).
        delay: Its delay as written, in centiseconds.
        data: Its LZW data: the minimum code size, then the sub-blocks.
        flags: Its descriptor's flags (for the interlace bit).
    """

    top: int
    left: int
    height: int
    width: int
    table: npt.NDArray[np.uint8]
    transparent: int | None
    disposal: int
    delay: int
    data: bytes
    flags: int

    @property
    def played_delay(self) -> int:
        """The delay browsers play it for (centiseconds)."""
        return self.delay if self.delay >= BROWSER_MIN_DELAY else BROWSER_SHORT_DELAY

    def indices(self) -> npt.NDArray[np.uint8]:
        """Its pixels as colour indices, ``(height, width)``."""
        screen = struct.pack("<HHBBB", self.width, self.height, 0xF7, 0, 0)
        descriptor = b"," + struct.pack("<HHHHB", 0, 0, self.width, self.height, self.flags & 0x40)
        gif = b"GIF89a" + screen + _INDEX_TABLE + descriptor + self.data + b";"
        with Image.open(io.BytesIO(gif)) as image:
            image.load()
            if image.mode != "P" or image.size != (self.width, self.height):
                raise ValueError(f"an image decoded as {image.mode} {image.size}")
            return np.asarray(image, dtype=np.uint8)


@dataclass(frozen=True)
class Gif:
    """A GIF's logical screen and its images."""

    width: int
    height: int
    images: tuple[GifImage, ...]
    loop: int | None  # NETSCAPE2.0 loop count (0: for ever); None: plays once


def read_gif(path: Path) -> Gif:
    """The logical screen and the images of the GIF at ``path``.

    Raises:
        ValueError: The file is not a well-formed GIF.
    """
    data = path.read_bytes()
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF")
    width, height, flags = struct.unpack_from("<HHB", data, 6)
    pos = 13
    table = np.zeros((0, 3), np.uint8)
    if flags & 0x80:
        size = 3 << ((flags & 7) + 1)
        table = np.frombuffer(data, np.uint8, size, pos).reshape(-1, 3)
        pos += size
    images: list[GifImage] = []
    control = (None, 0, 0)  # transparent, disposal, delay of the next image
    loop: int | None = None
    while True:
        if pos >= len(data):
            raise ValueError("no trailer")
        block = data[pos]
        if block == 0x3B:
            break
        if block == 0x21:
            label = data[pos + 1]
            body, pos = _sub_blocks(data, pos + 2)
            if label == 0xF9:
                packed, delay, index = struct.unpack_from("<BHB", body)
                control = (index if packed & 1 else None, (packed >> 2) & 7, delay)
            elif label == 0xFF and body[:11] == b"NETSCAPE2.0":
                loop = struct.unpack_from("<H", body, 12)[0]
            continue
        if block != 0x2C:
            raise ValueError(f"unknown block {block:#x} at byte {pos}")
        left, top, w, h, packed = struct.unpack_from("<HHHHB", data, pos + 1)
        pos += 10
        own = table
        if packed & 0x80:
            size = 3 << ((packed & 7) + 1)
            own = np.frombuffer(data, np.uint8, size, pos).reshape(-1, 3)
            pos += size
        start = pos
        _, pos = _sub_blocks(data, pos + 1)
        transparent, disposal, delay = control
        images.append(
            GifImage(top, left, h, w, own, transparent, disposal, delay, data[start:pos], packed)
        )
        control = (None, 0, 0)
    return Gif(width, height, tuple(images), loop)


def _sub_blocks(data: bytes, pos: int) -> tuple[bytes, int]:
    """The sub-blocks starting at ``pos`` joined, and the position after their terminator."""
    parts = []
    while data[pos]:
        parts.append(data[pos + 1 : pos + 1 + data[pos]])
        pos += data[pos] + 1
    return b"".join(parts), pos + 1


@dataclass(frozen=True)
class Shown:
    """One frame as a browser shows it.

    Attributes:
        rgb: ``(height, width, 3)``; valid until the next frame is composed.
        opaque: Which pixels some image covers (elsewhere the page shows through).
        delay: Centiseconds on screen, as browsers play it.
    """

    rgb: npt.NDArray[np.uint8]
    opaque: npt.NDArray[np.bool_]
    delay: int


def frames_as_browsers_show(gif: Gif) -> Iterator[Shown]:
    """Compose the images of ``gif`` one by one, as browsers do (see the module's text).

    The arrays yielded are the composer's own and change with the next frame: compare or
    copy them before asking for it.

    Raises:
        ValueError: An image uses an index its colour table does not hold.
    """
    rgb = np.zeros((gif.height, gif.width, 3), np.uint8)
    opaque = np.zeros((gif.height, gif.width), bool)
    previous: GifImage | None = None
    saved: tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]] | None = None
    for image in gif.images:
        if previous is not None and previous.disposal == 2:
            box = _box(previous, gif)
            rgb[box] = 0
            opaque[box] = False
        elif previous is not None and previous.disposal == 3 and saved is not None:
            rgb[...], opaque[...] = saved
        if image.disposal == 3:
            saved = (rgb.copy(), opaque.copy())
        _draw(image, gif, rgb, opaque)
        previous = image
        yield Shown(rgb, opaque, image.played_delay)


def _box(image: GifImage, gif: Gif) -> tuple[slice, slice]:
    """The part of the logical screen ``image`` covers (images are clipped to it)."""
    bottom = max(image.top, min(image.top + image.height, gif.height))
    right = max(image.left, min(image.left + image.width, gif.width))
    return slice(image.top, bottom), slice(image.left, right)


def _draw(
    image: GifImage, gif: Gif, rgb: npt.NDArray[np.uint8], opaque: npt.NDArray[np.bool_]
) -> None:
    indices = image.indices()
    box = _box(image, gif)
    indices = indices[: box[0].stop - box[0].start, : box[1].stop - box[1].start]
    drawn = (
        np.ones(indices.shape, bool)
        if image.transparent is None
        else (indices != image.transparent)
    )
    used = indices[drawn]
    if used.size and int(used.max()) >= len(image.table):
        raise ValueError(f"index {int(used.max())} outside a table of {len(image.table)}")
    rgb[box][drawn] = image.table[used]
    opaque[box][drawn] = True
