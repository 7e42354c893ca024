"""Colours that carry meaning: Okabe-Ito categories, perceptually even ramps, and marks that
colour-blind readers can still tell apart (simulated with Machado et al. 2009)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
import pytest

from searchvid.domains.tree.view import FILL, NodeState
from searchvid.render import treemarks
from searchvid.render.atlas import RGB
from searchvid.render.palette import (
    CIVIDIS_POINTS,
    DRAW_GREY,
    OKABE_ITO,
    PLAYER_COLORS,
    YELLOW,
    diverging,
    from_oklab,
    lightness,
    ramp,
    sequential,
    to_oklab,
)

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD: dict[str, list[list[float]]] = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}


def seen_by(kind: str, color: RGB) -> RGB:
    """``color`` as a reader with ``kind`` of colour blindness sees it."""
    s = np.asarray(color, dtype=np.float64) / 255
    linear = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
    linear = np.clip(linear @ np.asarray(CVD[kind]).T, 0, 1)
    out = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    r, g, b = (int(v) for v in np.rint(out * 255))
    return (r, g, b)


def closest_pair(colors: dict[str, RGB], kind: str) -> tuple[float, str, str]:
    """The two colours a ``kind`` reader sees closest (OKLab distance) and how close."""
    lab = {name: to_oklab([seen_by(kind, c)])[0] for name, c in colors.items()}
    return min(
        (float(np.linalg.norm(lab[a] - lab[b])), a, b) for a, b in itertools.combinations(lab, 2)
    )


def steps(colors: Iterable[RGB]) -> list[float]:
    light = [lightness(c) for c in colors]
    return [b - a for a, b in itertools.pairwise(light)]


def test_okabe_ito_is_the_published_palette() -> None:
    assert OKABE_ITO == (
        (0, 0, 0),
        (230, 159, 0),
        (86, 180, 233),
        (0, 158, 115),
        (240, 228, 66),
        (0, 114, 178),
        (213, 94, 0),
        (204, 121, 167),
    )
    assert set(PLAYER_COLORS) <= set(OKABE_ITO)


def test_oklab_round_trips_8_bit_colours() -> None:
    colors: list[RGB] = [(0, 0, 0), (255, 255, 255), (12, 200, 33), *OKABE_ITO]
    assert from_oklab(to_oklab(colors)) == colors
    white = to_oklab([(255, 255, 255)])[0]
    assert white[0] == pytest.approx(1.0, abs=1e-6)
    assert abs(white[1]) < 1e-6
    assert abs(white[2]) < 1e-6


def test_sequential_rises_in_lightness_by_even_steps() -> None:
    scale = sequential(9)
    rise = steps(scale)
    assert all(step > 0 for step in rise)
    assert max(rise) / min(rise) < 1.25  # perceptually even: no band stands out
    assert scale[0] == ramp(CIVIDIS_POINTS, [0.1])[0]
    assert scale[-1] == ramp(CIVIDIS_POINTS, [0.8])[0]
    # the top of the scale stays clear of the current node's yellow
    assert lightness(YELLOW) - lightness(scale[-1]) > 0.1


def test_diverging_runs_between_the_players_colours_through_grey() -> None:
    scale = diverging(9)
    assert scale[0] == PLAYER_COLORS[1]  # value 0: player 1 wins
    assert scale[-1] == PLAYER_COLORS[0]  # value 1: player 0 wins
    assert scale[4] == DRAW_GREY
    rise = steps(scale)
    assert all(step > 0 for step in rise[:4])
    assert all(step < 0 for step in rise[4:])


def test_scales_need_two_colours_and_ramps_two_points() -> None:
    with pytest.raises(ValueError, match="at least 2 colours"):
        sequential(1)
    with pytest.raises(ValueError, match="at least two points"):
        ramp([(0, 0, 0)], [0.5])


@pytest.mark.parametrize("kind", sorted(CVD))
def test_marks_of_one_shape_differ_for_colour_blind_readers(kind: str) -> None:
    m = treemarks
    # board-picture frames: the state of a node is the frame's colour (and the outcomes)
    frames = {
        "current": m.PATH,
        "played": m.PLAYED,
        "frontier": m.FRONTIER,
        "visited": m.VISITED,
        "dropped": m.DROPPED,
        "player 1 wins": m.DIVERGING[0],
        "draw": m.DIVERGING[4],
        "player 0 wins": m.DIVERGING[-1],
    }
    assert closest_pair(frames, kind)[0] >= 0.05, closest_pair(frames, kind)
    edges = {"edge": m.EDGE, "path": m.PATH, "played": m.PLAYED, "pruned": m.PRUNED, "pv": m.PV}
    assert closest_pair(edges, kind)[0] >= 0.07, closest_pair(edges, kind)
    crosses = {"dropped": m.CROSS, "pruned": m.PRUNED}
    assert closest_pair(crosses, kind)[0] >= 0.1
    players = {"player 0": PLAYER_COLORS[0], "player 1": PLAYER_COLORS[1]}
    assert closest_pair(players, kind)[0] >= 0.2


@pytest.mark.parametrize("kind", sorted(CVD))
def test_tree_view_boxes_with_one_border_differ_for_colour_blind_readers(kind: str) -> None:
    # the frontier's border is dashed and the current node's doubled: these share one look
    solid = {s.name: FILL[s] for s in (NodeState.UNVISITED, NodeState.VISITED, NodeState.STACK)}
    assert closest_pair(solid, kind)[0] >= 0.05, closest_pair(solid, kind)
