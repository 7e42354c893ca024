"""RGB to planar YUV 4:2:0 (BT.601, limited range), the layout libx264 encodes.

Converting tiles once and blitting the planes saves ffmpeg its per-frame colour conversion.
Tile edges are even, so every 2x2 chroma block lies inside one tile and converting tile by
tile gives the same planes as converting the whole frame.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Plane = npt.NDArray[np.uint8]

# BT.601 with limited ("tv") range: Y in 16..235, Cb/Cr in 16..240; rows give Y, Cb, Cr.
_MATRIX = np.array(
    [
        [65.481, 128.553, 24.966],
        [-37.797, -74.203, 112.0],
        [112.0, -93.786, -18.214],
    ],
    dtype=np.float32,
) / np.float32(255.0)
_OFFSET = np.array([16.0, 128.0, 128.0], dtype=np.float32)
_BAND = 128
"""Rows converted at a time: a whole 1800 x 1182 frame in float32 would take 25 MB at once."""
_QUARTER = np.float32(0.25)


def rgb_to_yuv420(rgb: npt.NDArray[np.uint8]) -> tuple[Plane, Plane, Plane]:
    """Convert RGB pixels to Y, U (Cb) and V (Cr) planes with 2x2-averaged chroma.

    Args:
        rgb: Array of shape ``(..., height, width, 3)``; height and width must be even.

    Returns:
        ``(y, u, v)`` of shapes ``(..., height, width)`` and ``(..., height/2, width/2)``.
    """
    height, width = rgb.shape[-3], rgb.shape[-2]
    if height % 2 or width % 2:
        raise ValueError(f"yuv420 needs even sizes, got {width}x{height}")
    lead = rgb.shape[:-3]
    y: Plane = np.empty((*lead, height, width), np.uint8)
    u: Plane = np.empty((*lead, height // 2, width // 2), np.uint8)
    v: Plane = np.empty_like(u)
    if rgb.ndim == 3 and height > _BAND:  # bands of even rows: the same planes, less memory
        for top in range(0, height, _BAND):
            end, half = top + _BAND, slice(top // 2, (top + _BAND) // 2)
            _convert(rgb[top:end], y[top:end], u[half], v[half])
    else:
        _convert(rgb, y, u, v)
    return y, u, v


def _convert(rgb: npt.NDArray[np.uint8], y: Plane, u: Plane, v: Plane) -> None:
    """Write the planes of ``rgb`` into ``y``, ``u`` and ``v`` (each of its shape)."""
    _plane(rgb.astype(np.float32), 0, y)
    # The transform is linear, so averaging RGB over each 2x2 block first is exact and
    # cheaper. The block sums are taken in integers: a sum of four bytes (at most 1020) is
    # exact in float32 in any order, so these are the very means a float32 sum gives.
    sums = rgb[..., 0::2, 0::2, :].astype(np.uint16)
    sums += rgb[..., 0::2, 1::2, :]
    sums += rgb[..., 1::2, 0::2, :]
    sums += rgb[..., 1::2, 1::2, :]
    mean = sums.astype(np.float32)
    mean *= _QUARTER
    _plane(mean, 1, u)
    _plane(mean, 2, v)


def _plane(rgb: npt.NDArray[np.float32], k: int, out: Plane) -> None:
    """Row ``k`` of the transform of float ``rgb``, rounded into ``out``.

    The float32 operations are those of ``offset + ((r * m0 + g * m1) + b * m2)``, in that
    order (float addition commutes exactly), done in place to spare temporaries; no clip is
    needed, as every row maps 0..255 into 16..240.
    """
    row = _MATRIX[k]
    acc = rgb[..., 0] * row[0]
    acc += rgb[..., 1] * row[1]
    acc += rgb[..., 2] * row[2]
    acc += _OFFSET[k]
    np.rint(acc, out=acc)
    out[...] = acc


class IndexedYuv:
    """Converts blocks of colour indices (a status strip's) to yuv420p planes by lookup.

    A pixel's luma depends on its own colour alone, so a table of each colour's Y, built by
    :func:`rgb_to_yuv420` itself, gives the very bytes a conversion of the RGB pixels gives.
    Chroma averages 2x2 blocks of colours; when every colour is a grey (r = g = b) the
    average is a grey too, whose Cb and Cr are exactly 128 (each chroma row of the matrix
    sums to zero), so the chroma planes are one constant. Colours other than greys fall back
    to converting the RGB pixels.

    Args:
        colors: The colour of each index.
    """

    def __init__(self, colors: npt.NDArray[np.uint8]) -> None:
        self._rgb = np.ascontiguousarray(colors, dtype=np.uint8).reshape(-1, 3)
        count = len(self._rgb)
        # each colour as a 2x2 block: its Y, and its U and V
        y, u, v = rgb_to_yuv420(np.repeat(self._rgb[:, None, None, :], 2, axis=1).repeat(2, axis=2))
        self._luma: Plane = np.ascontiguousarray(y[:, 0, 0]).reshape(count)
        grey = bool(np.all(self._rgb == self._rgb[:, :1])) and count > 0
        chroma = {(int(a), int(b)) for a, b in zip(u[:, 0, 0], v[:, 0, 0], strict=True)}
        self._chroma = chroma.pop() if grey and len(chroma) == 1 else None

    def convert(self, indices: npt.NDArray[np.uint8]) -> tuple[Plane, Plane, Plane]:
        """The ``(y, u, v)`` planes of a ``(height, width)`` block of indices (even sizes),
        equal to :func:`rgb_to_yuv420` of its RGB pixels."""
        if self._chroma is None:
            return rgb_to_yuv420(self._rgb[indices])
        height, width = indices.shape
        if height % 2 or width % 2:
            raise ValueError(f"yuv420 needs even sizes, got {width}x{height}")
        u, v = self._chroma
        half = (height // 2, width // 2)
        return self._luma[indices], np.full(half, u, np.uint8), np.full(half, v, np.uint8)
