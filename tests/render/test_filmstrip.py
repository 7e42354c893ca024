"""The filmstrip under the board: boards scaled from the board's own tiles, each in its role's
frame, dropped boards crossed out, every mark in the legend line, only changes redrawn; and
in the shipped scenes, the strip's first board is the frame's own board, scaled."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import searchvid
from searchvid.render.filmstrip import (
    BACKGROUND,
    COLORS,
    CROSS,
    FRAME_OF,
    REPLAY_NOTE,
    Filmstrip,
    board_picture,
    legend_entries,
    shown_boards,
    shrunk_tiles,
)
from searchvid.render.pipeline import frame_painter
from searchvid.render.textink import MIN_TEXT
from searchvid.search.events import Event, EventKind
from searchvid.search.frontierview import FrontierView, Glimpse, Role, StatusFields
from searchvid.search.status import Field

TILE = 6
TILES = np.array(
    [
        np.full((TILE, TILE, 3), color, np.uint8)
        for color in ((200, 30, 30), (30, 160, 60), (40, 60, 200), (230, 200, 40), (250, 120, 0))
    ]
)
for index, tile in enumerate(TILES):  # a mark of its own in every tile: scaling shows
    tile[index % TILE, :2] = (255 - 40 * index, 10, 10 + 40 * index)
SHAPE = (5, 8)  # rows, cols


def grid_of(node: int) -> np.ndarray:
    """A board for each int: tile ids that depend on the node."""
    ids = np.arange(SHAPE[0] * SHAPE[1]).reshape(SHAPE)
    return np.asarray((ids * (node + 1) + node) % len(TILES), dtype=np.int16)


def full_board(node: int) -> np.ndarray:
    grid = grid_of(node)
    return TILES[grid].swapaxes(1, 2).reshape(SHAPE[0] * TILE, SHAPE[1] * TILE, 3)


def nearest(picture: np.ndarray, height: int, width: int) -> np.ndarray:
    rows = np.arange(height) * picture.shape[0] // height
    cols = np.arange(width) * picture.shape[1] // width
    return picture[rows][:, cols]


def strip(slots: int = 4, width: int = 480) -> Filmstrip:
    return Filmstrip(
        width,
        (SHAPE[1] * TILE, SHAPE[0] * TILE),
        slots,
        font_size=MIN_TEXT + 2,
        grid=grid_of,
        tiles=lambda: TILES,
    )


def board(node: int, role: Role, *fields: Field) -> Glimpse:
    return Glimpse(node, node, 1, role, fields or (Field("depth", 1),))


def status(*boards: Glimpse, waiting: int = 40, dropped: int = 0) -> StatusFields:
    view = FrontierView(
        "the frontier in order", boards, ((Role.WAITING, waiting), (Role.DROPPED, dropped))
    )
    return StatusFields((Field("frontier", waiting),), view)


def region(film: Filmstrip, slot: int) -> np.ndarray:
    rect = film.picture_rect(slot)
    return film.pixels[rect.top : rect.bottom, rect.left : rect.right]


def test_a_board_picture_is_the_full_board_scaled_by_nearest_neighbour() -> None:
    for node in range(4):
        for height, width in ((10, 16), (30, 48), (14, 40), (60, 96)):
            picture = board_picture(grid_of(node), TILES, height, width)
            assert np.array_equal(picture, nearest(full_board(node), height, width))


def test_each_board_is_drawn_scaled_in_its_roles_frame() -> None:
    film = strip()
    film.draw(status(board(3, Role.CURRENT), board(1, Role.WAITING), board(2, Role.WAITING)))
    for slot, (node, role) in enumerate(((3, Role.CURRENT), (1, Role.WAITING), (2, Role.WAITING))):
        height, width = film.thumb
        assert np.array_equal(region(film, slot), nearest(full_board(node), height, width))
        pic = film.picture_rect(slot)
        for y, x in ((pic.top - 1, pic.left - 1), (pic.bottom, pic.right)):  # the frame
            assert tuple(film.pixels[y, x]) == FRAME_OF[role]
    empty = film.slot_rect(3)  # no fourth board: the slot is blank
    assert (film.pixels[empty.top : empty.bottom, empty.left : empty.right] == BACKGROUND).all()


def test_a_dropped_board_is_dimmed_and_crossed_out() -> None:
    film = strip()
    film.draw(status(board(1, Role.CURRENT), board(2, Role.DROPPED, Field("", 0.5)), dropped=9))
    height, width = film.thumb
    picture = nearest(full_board(2), height, width)
    dropped = region(film, 1)
    assert tuple(dropped[height // 2, width // 2]) == CROSS  # where the diagonals meet
    middle = width // 2 // 4 * 4  # a column far from both diagonals, on a 2 x 2 block grid
    assert tuple(dropped[0, middle]) == BACKGROUND  # a dimmed block (1 in 4)
    assert np.array_equal(dropped[2, middle], picture[2, middle])  # a block left as it was
    assert np.array_equal(dropped[0, middle + 2], picture[0, middle + 2])
    pic = film.picture_rect(1)
    assert tuple(film.pixels[pic.top - 1, pic.left - 1]) == FRAME_OF[Role.DROPPED]
    assert not np.array_equal(region(film, 0), dropped)


def test_the_legend_line_names_every_role_shown_with_its_counts() -> None:
    fields = status(
        board(1, Role.CURRENT),
        board(2, Role.WAITING),
        board(3, Role.WAITING),
        board(4, Role.DROPPED),
        waiting=40,
        dropped=7,
    )
    view = fields.frontier
    assert legend_entries(view, view.boards) == (
        (Role.CURRENT, "expanding: the board above"),
        (Role.WAITING, "on the frontier: the next 2 of 40"),
        (Role.DROPPED, "dropped: the best 1 of 7"),
    )
    beam = FrontierView("the beam", (board(1, Role.DONE), board(2, Role.CURRENT)))
    assert legend_entries(beam, beam.boards) == (
        (Role.CURRENT, "expanding: the board above"),
        (Role.DONE, "expanded"),
    )


def test_the_board_being_expanded_is_always_among_the_boards_shown() -> None:
    boards = tuple(board(i, Role.DONE if i < 5 else Role.CURRENT) for i in range(6))
    view = FrontierView("the beam", (*boards, board(6, Role.WAITING), board(7, Role.DROPPED)))
    assert [b.id for b in shown_boards(view, 3)] == [3, 4, 5]
    assert [b.id for b in shown_boards(view, 8)] == list(range(8))
    first = FrontierView("queue", (board(0, Role.CURRENT), board(1, Role.WAITING)))
    assert [b.id for b in shown_boards(first, 4)] == [0, 1]


def test_only_what_changed_is_redrawn() -> None:
    film = strip()
    first = status(board(1, Role.CURRENT), board(2, Role.WAITING), board(3, Role.WAITING))
    assert film.draw(first)[0] == (0, 0, film.height, film.width)  # the first draw: all of it
    assert film.draw(first) == []
    before = film.pixels.copy()
    second = status(board(1, Role.CURRENT), board(4, Role.WAITING), board(3, Role.WAITING))
    assert film.draw(second) == [film.slot_rect(1)]
    rect = film.slot_rect(1)
    outside = np.ones(film.pixels.shape[:2], bool)
    outside[rect.top : rect.bottom, rect.left : rect.right] = False
    assert np.array_equal(film.pixels[outside], before[outside])
    fresh = strip()
    fresh.draw(first)
    fresh.draw(second)
    assert np.array_equal(fresh.pixels, film.pixels)  # redrawing parts = drawing afresh


def test_without_a_view_the_strip_is_empty_and_says_so_on_a_replay() -> None:
    film = strip()
    film.draw(status(board(1, Role.CURRENT), board(2, Role.WAITING)))
    move = Event(EventKind.MOVE, 3, 1, 9)
    changed = film.draw((Field("frontier", 0),), move)  # a replayed solution's plain fields
    # the heading, the two slots that held boards, the legend line
    assert changed[1:3] == [film.slot_rect(0), film.slot_rect(1)]
    assert len(changed) == 4
    for slot in range(film.slots):
        rect = film.slot_rect(slot)
        assert (film.pixels[rect.top : rect.bottom, rect.left : rect.right] == BACKGROUND).all()
    assert REPLAY_NOTE.startswith("the search is over")
    heading = film.pixels[: changed[0].bottom]
    quiet = strip()
    quiet.draw(status(board(1, Role.CURRENT), board(2, Role.WAITING)))
    quiet.draw((), Event(EventKind.ENTER, 3, 1, 9))  # no fields (a snapshot): no claim
    assert (quiet.pixels[: changed[0].bottom] == BACKGROUND).all()
    assert not (heading == BACKGROUND).all()
    assert np.array_equal(quiet.pixels[changed[0].bottom :], film.pixels[changed[0].bottom :])


def test_every_pixel_is_a_declared_colour_or_a_tile_colour() -> None:
    film = strip(slots=3)
    film.draw(
        status(
            board(1, Role.CURRENT, Field("g", 3), Field("h", 2.5), Field("f", 5.5)),
            board(2, Role.WAITING),
            board(3, Role.DROPPED),
            dropped=3,
        )
    )
    allowed = {tuple(c) for c in COLORS} | {tuple(c) for c in TILES.reshape(-1, 3)}
    assert {tuple(c) for c in film.pixels.reshape(-1, 3)} <= allowed


def test_a_strip_refuses_text_under_12_px_and_odd_widths() -> None:
    with pytest.raises(ValueError, match="font_size"):
        Filmstrip(400, (80, 40), 4, font_size=MIN_TEXT - 1)
    with pytest.raises(ValueError, match="even"):
        Filmstrip(401, (80, 40), 4)


# -- in the shipped scenes -------------------------------------------------------------------


def frame_and_strip(name: str, frame: int, width: int = 0) -> tuple[np.ndarray, Any]:
    scene = searchvid.load_scene(name)
    if width:
        scene = scene.with_overrides(width=width)
    painter = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    return np.asarray(scene.preview(frame)), painter


@pytest.mark.parametrize("width", [0, 720])
def test_the_first_board_of_the_astar_strip_is_the_frames_board_scaled(width: int) -> None:
    pixels, painter = frame_and_strip("watersort-astar", 12, width)
    column = painter.layout.columns[0]
    film = painter.films[0]
    board_w, board_h = column.board
    inset = column.left + column.inset  # the picture, centred in a padded frame
    board = pixels[column.top : column.top + board_h, inset : inset + board_w]
    pic = film.picture_rect(0)
    top, left = column.film_top, inset
    shown = pixels[top + pic.top : top + pic.bottom, left + pic.left : left + pic.right]
    # each of the board's cells shrunk to the thumbnail's cell size, then scaled
    side = painter.atlas.size
    rows, cols = board_h // side, board_w // side
    cells = board.reshape(rows, side, cols, side, 3).transpose(0, 2, 1, 3, 4)
    cell = min(film.thumb[0] // rows, film.thumb[1] // cols)
    small = shrunk_tiles(cells.reshape(-1, side, side, 3), cell).reshape(rows, cols, cell, cell, 3)
    shrunk = small.transpose(0, 2, 1, 3, 4).reshape(rows * cell, cols * cell, 3)
    assert np.array_equal(shown, nearest(shrunk, *film.thumb))
    ring = pixels[top + pic.top - 1, left + pic.left - 1]
    assert tuple(ring) == FRAME_OF[Role.CURRENT]
    for slot in range(1, film.slots):  # the next ones on the frontier, in their frames
        pic = film.picture_rect(slot)
        assert tuple(pixels[top + pic.top - 1, left + pic.left - 1]) == FRAME_OF[Role.WAITING]


def test_the_beam_strip_crosses_out_the_dropped_boards() -> None:
    pixels, painter = frame_and_strip("railroad-beam", 40)
    column, film = painter.layout.columns[0], painter.films[0]
    top, left = column.film_top, column.left
    assert film.slots == 8
    for slot in range(film.slots):
        pic = film.picture_rect(slot)
        centre = pixels[top + (pic.top + pic.bottom) // 2, left + (pic.left + pic.right) // 2]
        ring = tuple(pixels[top + pic.top - 1, left + pic.left - 1])
        if slot < 6:  # the beam: the boards expanded, the current one, those waiting
            assert tuple(centre) != CROSS
        else:
            assert ring == FRAME_OF[Role.DROPPED]
            assert tuple(centre) == CROSS


@pytest.mark.parametrize("name", ["watersort-astar", "watersort-bfs", "railroad-beam"])
def test_the_strips_text_is_at_least_12_px_at_720_px(name: str) -> None:
    scene = searchvid.load_scene(name).with_overrides(width=720)
    painter = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    assert painter.width == 720
    assert painter.text_heights["filmstrip"] >= MIN_TEXT
    assert painter.films[0] is not None


def test_a_shrunk_tile_keeps_a_thin_ring_that_plain_sampling_loses() -> None:
    ground, ink = (240, 240, 230), (30, 140, 60)
    tile = np.full((1, 20, 20, 3), ground, dtype=np.uint8)
    tile[0, 2:18, 2:18] = ink  # a ring two pixels wide around an empty middle
    tile[0, 4:16, 4:16] = ground
    small = shrunk_tiles(tile, 4)[0]  # blocks of 5 x 5: the ring covers 8 or 10 of 25
    green = (small == ink).all(axis=-1)
    assert green.tolist() == [
        [True, True, True, True],
        [True, False, False, True],
        [True, False, False, True],
        [True, True, True, True],
    ]
    # plain nearest-neighbour sampling reads pixels 0, 5, 10, 15: the ring is lost
    assert not (nearest(tile[0], 4, 4) == ink).all(axis=-1).any()
    assert shrunk_tiles(tile, 20) is tile  # no larger: as it is
