"""Fitting a frame to ``[video] width``: the tile size, the tree panels' size and the
columns' arrangement that make every text and mark legible in that width."""

from __future__ import annotations

import dataclasses

from searchvid.errors import OptionError
from searchvid.render.settings import VideoOptions
from searchvid.render.textink import MIN_TEXT
from searchvid.render.tracks import Boards

MIN_FITTED_PANEL = 240
"""Smallest side of a tree panel shrunk to fit ``[video] width``."""

MIN_FITTED_TILE = 24
"""Smallest tile side at which a board's own marks (Water Sort's symbols, Railroad Ink's
track) still read: with ``arrange = "auto"``, columns side by side with smaller tiles are
stacked instead when that gives larger ones."""


def fit_width(video: VideoOptions, boards: Boards, *, max_pixels: int) -> VideoOptions:
    """``video`` fitted to ``[video] width`` (unchanged without one).

    The tile size is the largest even one whose frame is at most ``width`` wide (the frame is
    then padded to exactly ``width``) and at most ``max_pixels`` once padded. A frame that is
    narrower than its natural width (at the scene's own tile size) gets tree panels shrunk
    in the same proportion (their sides, explicit or not, never under
    :data:`MIN_FITTED_PANEL`). With several searches and ``arrange = "auto"``, columns side by
    side whose board text (``boards.label_size``) would be under
    :data:`~searchvid.render.textink.MIN_TEXT` px, or whose tiles would be under
    :data:`MIN_FITTED_TILE` px, are stacked instead when that makes the text (then the
    tiles) larger.

    Raises:
        OptionError: Key ``width``: no tile size of at least 8 px fits.
    """
    if not video.width:
        return video
    choices: list[VideoOptions] = [video]
    if video.arrange == "auto" and len(boards.shapes) > 1:
        choices.append(dataclasses.replace(video, arrange="stacked"))
    label_size = boards.label_size

    def legibility(fitted: VideoOptions) -> tuple[int, int]:
        """The board text's size (capped where it is large enough), then the tile's."""
        text = MIN_TEXT if label_size is None else min(MIN_TEXT, label_size(fitted.tile_size))
        return (text, min(MIN_FITTED_TILE, fitted.tile_size))

    best: VideoOptions | None = None
    for choice in choices:
        fitted = _fit(_shrink_panels(choice, boards), boards, max_pixels)
        if fitted is None:
            continue
        if legibility(fitted) == (MIN_TEXT, MIN_FITTED_TILE):
            return fitted
        if best is None or legibility(fitted) > legibility(best):
            best = fitted
    if best is not None:
        return best
    smallest = min(
        (
            boards.layout(dataclasses.replace(_shrink_panels(c, boards), tile_size=8, width=0))
            for c in choices
        ),
        key=lambda layout: layout.size,
    )
    if smallest.width <= video.width:  # too tall once padded to the width
        widest = (max_pixels // max(smallest.height, 1)) // 2 * 2
        raise OptionError("width", f"must be at most {widest} px for this scene, got {video.width}")
    raise OptionError(
        "width", f"must be at least {smallest.width} px for this board, got {video.width}"
    )


def _shrink_panels(video: VideoOptions, boards: Boards) -> VideoOptions:
    """``video`` with its tree panels shrunk by ``width`` / the frame's natural width."""
    if not video.tree:
        return video
    natural = boards.layout(dataclasses.replace(video, width=0))
    if video.width >= natural.width:
        return video
    panel = next(c.panel for c in natural.columns if c.panel is not None)

    def shrunk(side: int) -> int:
        return max(MIN_FITTED_PANEL, side * video.width // natural.width // 2 * 2)

    return dataclasses.replace(video, tree_width=shrunk(panel[0]), tree_height=shrunk(panel[1]))


def _fit(video: VideoOptions, boards: Boards, max_pixels: int) -> VideoOptions | None:
    """``video`` at the largest even tile size whose frame fits its width (None: none does).

    A frame's width and height grow with the tile size, so the size is found by bisection.
    """

    def fits(size: int) -> bool:
        width, height = boards.layout(dataclasses.replace(video, tile_size=size)).size
        return width <= video.width and video.width * height <= max_pixels

    low, high = 4, 257  # in units of 2 px: fits(2 * low) is unknown, fits(2 * high) false
    if not fits(8):
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if fits(2 * middle):
            low = middle
        else:
            high = middle
    return dataclasses.replace(video, tile_size=2 * low)
