"""The tile just placed is bracketed on its move's frame, and the board carries the
coordinates its captions name (Railroad Ink's dice game), so the words and the picture agree.

Pixel checks run on railroad-game-random: every state is a frame (31 tiles drawn, 7 rolls).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from searchvid import load_scene
from searchvid.domains.railroad import words
from searchvid.domains.railroad.grid import SIZE
from searchvid.domains.railroad.view import COORDINATES, GAME_MARKS, RailroadView
from searchvid.errors import UserCodeError
from searchvid.render.boardlegend import PLACED_MARK, Mark, marks_of
from searchvid.render.celllabels import GROUND, CellLabel, label_font, labels_of, tag
from searchvid.render.frame import FramePainter
from searchvid.render.job import track
from searchvid.render.palette import BLUE
from searchvid.render.pipeline import drawn_frames, frame_painter, render_frame
from searchvid.render.placed import PlacedWatch, Step, bracket_bands, bracket_width
from searchvid.render.textink import TextInk
from searchvid.scene import Scene
from searchvid.search.events import Event, EventKind

Frame = npt.NDArray[np.uint8]


@pytest.fixture(scope="module")
def scene() -> Scene:
    return load_scene("railroad-game-random")


@pytest.fixture(scope="module")
def shown(scene: Scene) -> list[Event]:
    """The event of each frame, in order."""
    return [e for e in scene.events() if e.kind.shows_state]


@pytest.fixture(scope="module")
def frames(scene: Scene) -> list[Frame]:
    jobs = scene.render_jobs()
    return [f.copy() for _, f in drawn_frames(scene.sources(), jobs, lambda _i: True)]


def board(scene: Scene, frame: Frame) -> Frame:
    rows, cols = scene.view().shape
    tile = scene.video.tile_size
    return frame[: rows * tile, : cols * tile]


def blue_mask(pixels: Frame) -> npt.NDArray[np.bool_]:
    return (pixels == np.array(BLUE, dtype=np.uint8)).all(axis=-1)


def bracket_mask(shape: tuple[int, ...], cell: int, tile: int) -> npt.NDArray[np.bool_]:
    """The board pixels of the brackets on ``cell`` (flat index in the 9-wide grid)."""
    mask = np.zeros(shape[:2], dtype=bool)
    r, c = divmod(cell, SIZE)
    for top, left, bottom, right in bracket_bands(r * tile, c * tile, tile, bracket_width(tile)):
        mask[top:bottom, left:right] = True
    return mask


def placed_cell(parent: Any, child: Any) -> int | None:
    changed = np.flatnonzero(
        np.frombuffer(parent.cells, dtype=np.uint8) != np.frombuffer(child.cells, dtype=np.uint8)
    )
    return int(changed[0]) if len(changed) == 1 else None


# --- the watch, from events alone ------------------------------------------------------------


def event(kind: EventKind, depth: int, node: Any, id_: int | None, parent: int | None) -> Event:
    return Event(kind, node, depth, 0, None, id_, parent)._replace(step=id_ or 0)


def test_the_watch_finds_the_parent_one_level_up_by_its_tree_id() -> None:
    watch = PlacedWatch()
    root = event(EventKind.ENTER, 0, "root", 10, None)
    child = event(EventKind.ENTER, 1, "child", 11, 10)
    watch.observe(root)
    assert watch.parent_of(root) is None  # the root steps from nothing
    watch.observe(child)
    assert watch.parent_of(child) == Step(10, "root")
    back = event(EventKind.BACKTRACK, 0, "root", 12, None)
    watch.observe(back)
    assert watch.parent_of(back) is None  # a step back is the "undone" mark's
    stranger = event(EventKind.MOVE, 1, "other", 13, 99)  # its parent was never shown
    watch.observe(stranger)
    assert watch.parent_of(stranger) is None
    assert watch.parent_of(child) is None  # only the latest event is answered for


def test_an_mcts_iteration_between_moves_does_not_hide_the_committed_parent() -> None:
    watch = PlacedWatch()
    watch.observe(event(EventKind.ROLL, 1, "rolled", 1, 0))
    for step, kind in enumerate((EventKind.SELECT, EventKind.EXPAND, EventKind.LEAF), 2):
        watch.observe(Event(kind, f"inside {step}", 2, step, None, 40 + step, 1))
    move = Event(EventKind.MOVE, "moved", 2, 9, 0.3, 44, 1)
    watch.observe(move)
    assert watch.parent_of(move) == Step(1, "rolled")


def test_brackets_are_four_even_corners_inside_the_cell() -> None:
    assert bracket_width(100) == 6
    assert bracket_width(80) == 4
    assert bracket_width(6) == 0
    assert bracket_bands(0, 0, 100, 6) == [
        (0, 0, 6, 34),
        (0, 66, 6, 100),
        (94, 0, 100, 34),
        (94, 66, 100, 100),
        (0, 0, 34, 6),
        (66, 0, 100, 6),
        (0, 94, 34, 100),
        (66, 94, 100, 100),
    ]


# --- the frames ------------------------------------------------------------------------------


def test_each_tile_drawn_is_bracketed_on_its_frame_and_nowhere_else(
    scene: Scene, shown: list[Event], frames: list[Frame]
) -> None:
    assert len(frames) == len(shown) == 39
    tile = scene.video.tile_size
    bracketed = 0
    for i, now in enumerate(shown):
        pixels = board(scene, frames[i])
        cell = placed_cell(shown[i - 1].node, now.node) if i else None
        if cell is None:  # the start, a roll, the end: nothing placed, no bracket
            assert not blue_mask(pixels).any(), f"frame {i} ({now.kind.value})"
            continue
        assert np.array_equal(blue_mask(pixels), bracket_mask(pixels.shape, cell, tile)), i
        bracketed += 1
    assert bracketed == 31  # every tile of the game, rolls and the start without


def test_the_caption_names_the_bracketed_cell_by_the_board_s_coordinates(
    scene: Scene, shown: list[Event]
) -> None:
    labels = {(label.row, label.col): label.text for label in COORDINATES}
    named = 0
    for parent, child in itertools.pairwise(shown):
        cell = placed_cell(parent.node, child.node)
        if cell is None:
            continue
        move = words.describe_move(parent.node, child.node)
        assert move is not None
        found = re.search(r" at ([A-G])([1-7])\b", move)
        assert found, move
        row, col = divmod(cell, SIZE)
        # the letter under the cell's column, the number left of its row
        assert labels[(SIZE - 1, col)] == found.group(1), move
        assert labels[(row, 0)] == found.group(2), move
        named += 1
    assert named == 31


def test_a_frame_drawn_alone_equals_the_same_frame_of_the_whole_render(
    scene: Scene, frames: list[Frame]
) -> None:
    # the incremental redraw clears the last frame's brackets and keeps the coordinates: a
    # preview, drawn on a blank canvas, is pixel-identical (negative: the history-free path)
    for i in (1, 2, 3, 6, 7, 20, -1, -2):
        alone = render_frame(scene.sources(), scene.render_jobs(), i, title=scene.title)
        assert np.array_equal(alone, frames[i]), f"frame {i}"
    for i in (-1, -2, -3):  # a stream read once: the last frames kept, drawn without history
        (source,) = scene.sources()
        assert callable(source)
        once = render_frame([source()], scene.render_jobs(), i, title=scene.title)
        # the board (its brackets and coordinates); the caption of such a frame cannot name
        # its move, whose parent the painter never saw
        assert np.array_equal(board(scene, once), board(scene, frames[i])), f"frame {i}, once"
        assert blue_mask(board(scene, once)).any(), f"frame {i} places a tile"


def test_the_coordinates_are_tags_centred_under_their_columns_and_beside_their_rows(
    scene: Scene, frames: list[Frame]
) -> None:
    tile = scene.video.tile_size
    ink = TextInk(label_font(tile))
    assert label_font(tile) == 16
    for frame in (frames[0], frames[19], frames[-1]):
        for label in COORDINATES:
            picture = tag(label.text, ink)
            h, w = picture.shape[:2]
            if label.col == 0:  # a row's number: at its border cell's right edge, centred
                top = label.row * tile + ((tile - h) // 2 & ~1)
                left = (label.col + 1) * tile - w - 2
            else:  # a column's letter: at the top of the cell under it, centred
                top = label.row * tile + 2
                left = label.col * tile + ((tile - w) // 2 & ~1)
            assert np.array_equal(frame[top : top + h, left : left + w], picture), label
            # the tag's middle is within a pixel or two of its column's or row's middle
            middle = (left + w / 2, top + h / 2)
            centre = ((label.col + 0.5) * tile, (label.row + 0.5) * tile)
            axis = 1 if label.col == 0 else 0
            assert abs(middle[axis] - centre[axis]) <= 2, label
    assert [label.text for label in COORDINATES] == [*"ABCDEFG", *"7654321"]
    assert {(label.row, label.col) for label in COORDINATES} == {
        *((8, c) for c in range(1, 8)),
        *((r, 0) for r in range(1, 8)),
    }


def test_a_tag_is_even_sized_light_text_on_the_strip_s_ground() -> None:
    picture = tag("G", TextInk(16))
    assert picture.shape[0] % 2 == 0
    assert picture.shape[1] % 2 == 0
    assert tuple(picture[0, 0]) == GROUND
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 2  # anti-aliased


def test_bad_cell_labels_are_refused_naming_the_label() -> None:
    class View:
        cell_labels = (CellLabel(9, 0, "Z"),)

    with pytest.raises(ValueError, match=r"label 'Z' is on cell \(9, 0\), outside the 9x9 board"):
        labels_of(View(), (9, 9))
    View.cell_labels = (CellLabel(0, 0, ""),)
    with pytest.raises(ValueError, match=r"the label on cell \(0, 0\) has no text"):
        labels_of(View(), (9, 9))
    assert labels_of(object(), (9, 9)) == ()


# --- the legend ------------------------------------------------------------------------------


def test_the_game_s_legend_names_every_mark_of_the_board_and_the_dice_row(scene: Scene) -> None:
    painter = frame_painter(scene.sources(), scene.render_jobs())
    (legend,) = painter.legends
    entries = [text for line in legend.lines for text in line]
    assert entries == [
        "exit",
        "station",
        "open: a route leads in; -1 point per tile's end into it",
        "error: route leads nowhere, -1 point",
        "round",
        "die to draw",
        "die drawn",
        "die skipped",
        "special route used",
        "special route unused",
        "just placed",
    ]
    assert GAME_MARKS[-1] is PLACED_MARK
    assert Mark("special-slot", "special route unused") in GAME_MARKS


def test_the_puzzle_keeps_its_board_unlabelled_and_unbracketed() -> None:
    view = RailroadView()
    assert view.cell_labels == ()
    assert not any(mark is PLACED_MARK for mark in marks_of(view))


def test_the_expectimax_scene_lists_no_undone_mark_it_never_draws() -> None:
    scene = load_scene("railroad-game-expectimax")
    assert scene.video.frames == "moves"  # a step back is never a frame
    painter = frame_painter(scene.sources(), scene.render_jobs())
    entries = [text for line in painter.legends[0].lines for text in line]
    assert "undone" not in entries
    assert entries[-1] == "just placed"


def test_the_opening_says_what_the_scaled_score_is_in_points(scene: Scene) -> None:
    assert words.value_function_words("score") == (
        "scaled score",
        "points mapped onto 0 to 1: -40 = 0, 0 = 0.25, 120 = 1",
    )


def test_a_view_s_bad_cell_labels_are_one_error_naming_its_attribute(scene: Scene) -> None:
    class Mislabelled(RailroadView):
        cell_labels = (CellLabel(12, 0, "Z"),)

    job = dataclasses.replace(scene.render_job(), view=Mislabelled("game"))
    with pytest.raises(UserCodeError) as caught:
        FramePainter([track(job, None)], scene.video)
    assert "cell_labels" in str(caught.value)
    assert "label 'Z' is on cell (12, 0), outside the 10x9 board" in str(caught.value)
