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
    full = rgb.astype(np.float32)
    y = _to_u8(_OFFSET[0] + _combine(_MATRIX[0], full))
    # The transform is linear, so averaging RGB over each 2x2 block first is exact and cheaper.
    blocks = full.reshape(*full.shape[:-3], height // 2, 2, width // 2, 2, 3)
    mean = (blocks[..., 0, :, 0, :] + blocks[..., 0, :, 1, :]) + (
        blocks[..., 1, :, 0, :] + blocks[..., 1, :, 1, :]
    )
    mean *= np.float32(0.25)
    u = _to_u8(_OFFSET[1] + _combine(_MATRIX[1], mean))
    v = _to_u8(_OFFSET[2] + _combine(_MATRIX[2], mean))
    return y, u, v


def _combine(row: npt.NDArray[np.float32], rgb: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    out: npt.NDArray[np.float32] = (
        rgb[..., 0] * row[0] + rgb[..., 1] * row[1] + rgb[..., 2] * row[2]
    )
    return out


def _to_u8(values: npt.NDArray[np.float32]) -> Plane:
    out: Plane = np.clip(np.rint(values), 0, 255).astype(np.uint8)
    return out
