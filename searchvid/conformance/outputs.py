"""Checks of what the searches and the renderer read from a domain: seeded walks, labels,
value functions, heuristics, the goal, the view and its tiles."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
from PIL import Image

from searchvid.conformance.probe import (
    TILE_SIZE,
    WALK_LENGTH,
    WALK_SEEDS,
    CheckFailedError,
    Probe,
    call,
    error,
    first_difference,
    show,
)
from searchvid.errors import RunError
from searchvid.render.atlas import TileAtlas, assets_dir
from searchvid.render.view import TileSet


def check_random_walks(probe: Probe) -> Iterator[str]:
    for seed in WALK_SEEDS:
        first, stopped = probe.walk(probe.root, seed, WALK_LENGTH)
        if stopped is None:
            second, stopped = probe.walk(probe.fresh_root(), seed, WALK_LENGTH)
        if stopped is not None:
            yield stopped
            return
        difference = first_difference(probe, first, second, "step")
        if difference is not None:
            yield (
                f"two random walks with seed {seed} differ ({difference}): a seeded walk must "
                "repeat exactly (draw only from the rng given)"
            )
            return
        try:
            labels = [[probe.domain.label(n) for n in walk] for walk in (first, second)]
        except Exception:  # the labels check reports it
            return
        for step, (one, other) in enumerate(zip(*labels, strict=True)):
            if one != other:
                yield f"step {step} of two equal random walks has labels {one!r}, then {other!r}"
                return


def check_labels(probe: Probe) -> Iterator[str]:
    for node in probe.nodes:
        label = call(f"label() of {probe.name(node)}", probe.domain.label, node)
        if not isinstance(label, str) or not label:
            yield (
                f"label() of {probe.name(node)} returned {show(label)}; labels must be "
                "non-empty strings"
            )
            return
    yield from _check_move_count(probe)


def _check_move_count(probe: Probe) -> Iterator[str]:
    """The optional ``move_count``: the name of a ``status()`` field that counts the moves
    from the root, so that the strip shows it in place of the depth: on every node of the
    walks, a field of that name whose value is the node's depth."""
    name: Any = getattr(probe.domain, "move_count", None)
    if name is None:
        return
    if not isinstance(name, str):
        yield f"move_count must be a status field's name or None, got {show(name)}"
        return
    for walk in probe.walks:
        for depth, node in enumerate(walk):
            fields = call(f"status() of {probe.name(node)}", probe.domain.status, node)
            values = [getattr(f, "value", None) for f in fields if getattr(f, "name", "") == name]
            if values != [depth]:
                yield (
                    f"move_count names {name!r}, but status() of {probe.name(node)}, {depth} "
                    f"moves from the root, gives {show(values[0]) if values else 'no such field'}"
                    f"; it must count the moves from the root"
                )
                return


def check_values(probe: Probe) -> Iterator[str]:
    values: Any = call("values()", probe.domain.values)
    yield from _offered("value function", "values()", values, probe.domain.default_value)
    if not isinstance(values, Mapping):
        return
    for name, function in values.items():
        if callable(function):
            yield from _value_problems(probe, str(name), function)


def _offered(kind: str, method: str, functions: Any, default: Any) -> Iterator[str]:
    if not isinstance(functions, Mapping):
        yield f"{method} must return a mapping of names to functions, got {show(functions)}"
        return
    for name, function in functions.items():
        if not isinstance(name, str) or not callable(function):
            yield f"{method} maps {show(name)} to {show(function)}: names must map to functions"
    if default is not None and default not in functions:
        offered = ", ".join(repr(name) for name in functions) or "none"
        yield f"default {kind} {default!r} is not one of those {method} offers ({offered})"


def _value_problems(probe: Probe, name: str, function: Callable[[Any], Any]) -> Iterator[str]:
    for node in probe.nodes:
        what = f"value function '{name}'"
        result = call(f"{what} on {probe.name(node)}", function, node)
        if not isinstance(result, float):
            yield (
                f"{what} returned {show(result)} for {probe.name(node)}: value functions "
                "must return float (in [0, 1])"
            )
            return
        if not 0.0 <= result <= 1.0:
            yield (f"{what} returned {result!r} for {probe.name(node)} (must be a float in [0, 1])")
            return


def check_heuristics(probe: Probe) -> Iterator[str]:
    heuristics: Any = call("heuristics()", probe.domain.heuristics)
    yield from _offered("heuristic", "heuristics()", heuristics, probe.domain.default_heuristic)
    if not isinstance(heuristics, Mapping):
        return
    for name, function in heuristics.items():
        if not callable(function):
            continue
        for node in probe.nodes:
            what = f"heuristic '{name}'"
            result: Any = call(f"{what} on {probe.name(node)}", function, node)
            good = isinstance(result, numbers.Real) and not isinstance(result, bool)
            if not good or not math.isfinite(float(result)) or result < 0:
                yield (
                    f"{what} returned {show(result)} for {probe.name(node)} (must be a "
                    "finite number >= 0: an estimate of the moves to a goal)"
                )
                break


def check_goal(probe: Probe) -> Iterator[str]:
    has_goal: Any = getattr(probe.domain, "has_goal", False)
    if not isinstance(has_goal, bool):
        yield f"has_goal must be True or False, got {show(has_goal)}"
    for node in probe.nodes:
        result: Any = call(f"is_goal() of {probe.name(node)}", probe.domain.is_goal, node)
        if not isinstance(result, bool):
            yield f"is_goal() returned {show(result)} for {probe.name(node)}; it must be a bool"
            return
        if result and has_goal is False:
            yield f"is_goal() returned True for {probe.name(node)} although has_goal is False"
            return
    yield from _check_goal_moves_bound(probe)


def _check_goal_moves_bound(probe: Probe) -> Iterator[str]:
    """The optional hook ``goal_moves_bound(node)``: None or an int >= 0 on every node, 0
    (or None) at a goal, as a lower bound on the moves still needed must be."""
    bound_of = getattr(probe.domain, "goal_moves_bound", None)
    if bound_of is None:
        return
    for node in probe.nodes:
        bound: Any = call(f"goal_moves_bound() of {probe.name(node)}", bound_of, node)
        if bound is None:
            continue
        if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
            yield (
                f"goal_moves_bound() returned {show(bound)} for {probe.name(node)}; it must "
                "be an int >= 0 (a lower bound on the moves to a goal) or None"
            )
            return
        if bound and probe.domain.has_goal and probe.domain.is_goal(node):
            yield (
                f"goal_moves_bound() returned {bound} for {probe.name(node)}, a goal; a lower "
                "bound on the moves to a goal must be 0 there"
            )
            return


def _tileset(view: Any) -> TileSet:
    tileset = call("view().tileset", getattr, view, "tileset")
    if not isinstance(tileset, TileSet):
        raise CheckFailedError(f"view().tileset must be a searchvid TileSet, got {show(tileset)}")
    return tileset


def check_view(probe: Probe) -> Iterator[str]:
    view = call("view()", probe.domain.view)
    tiles = len(_tileset(view).names)
    shape = call("view().shape", getattr, view, "shape")
    if not _is_shape(shape):
        yield f"view().shape must be (rows, cols), two ints > 0, got {show(shape)}"
        return
    previous = None
    for node in probe.nodes:
        grid = call(f"view().grid() of {probe.name(node)}", view.grid, node)
        problem = _grid_problem(grid, tuple(shape), tiles)
        if problem is not None:
            yield f"view().grid() of {probe.name(node)} {problem}"
            return
        if previous is not None and np.shares_memory(grid, previous):
            yield (
                "view().grid() returned the same array twice: it must return a new array on "
                "every call (the renderer compares each grid with the one before)"
            )
            return
        previous = grid
    again = call("view().grid() of the root", view.grid, probe.root)
    if not np.array_equal(again, call("view().grid() of the root", view.grid, probe.root)):
        yield "view().grid() of the root changes from one call to the next"
    other = call("a second view()", probe.domain.view)
    if call("view().shape", getattr, other, "shape") != shape:
        yield "two view() calls have different shapes: the shape must be fixed by the options"


def _is_shape(shape: Any) -> bool:
    if not isinstance(shape, tuple) or len(shape) != 2:
        return False
    return all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape)


def _grid_problem(grid: Any, shape: tuple[int, ...], tiles: int) -> str | None:
    if not isinstance(grid, np.ndarray):
        return f"returned {show(grid)}, not a numpy array"
    if grid.shape != shape:
        return f"has shape {grid.shape}, expected {shape} (view().shape)"
    if grid.dtype != np.int16:
        return f"has dtype {grid.dtype}, expected int16"
    low, high = int(grid.min()), int(grid.max())
    if low < 0 or high >= tiles:
        bad = low if low < 0 else high
        return f"holds tile id {bad}, outside 0..{tiles - 1} (the tile set has {tiles} tiles)"
    return None


def check_tiles(probe: Probe) -> Iterator[str]:
    tileset = _tileset(call("view()", probe.domain.view))
    if not tileset.names:
        yield "the tile set names no tiles"
        return
    if tileset.draw is not None:
        for name in tileset.names:
            problem = _drawn_tile_problem(tileset.draw, name)
            if problem is not None:
                yield problem
                return
    try:
        TileAtlas(tileset, TILE_SIZE)
    except RunError as exc:
        hint = ""
        if tileset.folder is not None:
            hint = (
                f" (tile folders are looked up in {assets_dir()}; set SEARCHVID_TILE_ASSETS "
                "to use another folder)"
            )
        yield f"{exc}{hint}"
    except Exception as exc:
        yield f"loading the tiles at {TILE_SIZE} px raised {error(exc)}"


def _drawn_tile_problem(draw: Callable[[str, int], Any], name: str) -> str | None:
    image = call(f"drawing tile '{name}' at {TILE_SIZE} px", draw, name, TILE_SIZE)
    if not isinstance(image, Image.Image):
        return f"drawing tile '{name}' returned {show(image)}, not a PIL image"
    if image.size != (TILE_SIZE, TILE_SIZE):
        width, height = image.size
        return f"tile '{name}' was drawn at {width}x{height} px, expected {TILE_SIZE}x{TILE_SIZE}"
    if image.mode != "RGB":
        return f"tile '{name}' was drawn in mode {image.mode}, expected RGB"
    return None
