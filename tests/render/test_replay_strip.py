"""A found solution played out keeps the filmstrip band busy with the solution itself: the
boards of its moves so far, the one on the board framed as current (issue 20, item 6: the
beam scene's band stood empty during its replay)."""

from __future__ import annotations

import numpy as np

import searchvid
from searchvid.domains.railroad import RailroadDomain, RailroadOptions
from searchvid.domains.railroad.rules import Board
from searchvid.render.filmstrip import FRAME_OF, REPLAY_NOTE, legend_entries, shrunk_tiles
from searchvid.render.narration import REPLAY_BOARDS, Narration
from searchvid.render.pipeline import frame_painter
from searchvid.render.voice import Voice
from searchvid.search.events import Event, EventKind
from searchvid.search.frontierview import FrontierView, Role
from searchvid.search.status import Field

DOMAIN = RailroadDomain(RailroadOptions())
START = Board.start("basic")


def _line(count: int) -> list[Board]:
    boards = [START]
    for _ in range(count):
        boards.append(next(iter(boards[-1].children())))
    return boards[1:]


def _moves(boards: list[Board], first_id: int = 10) -> list[Event]:
    return [
        Event(EventKind.MOVE, b, d, 100 + d, None, first_id + d, first_id + d - 1)
        for d, b in enumerate(boards, 1)
    ]


def test_a_replay_frame_shows_the_moves_so_far_the_last_one_current() -> None:
    narration = Narration(Voice(title="t", algorithm="beam search", narrator=DOMAIN))
    moves = _moves(_line(3))
    narration.observe(Event(EventKind.ENTER, START, 0, 0, None, 0, None))
    assert narration.replay_view(moves[0]) is None  # not observed yet
    for move in moves:
        narration.observe(move)
    view = narration.replay_view(moves[2])
    assert view is not None
    assert view.order == REPLAY_NOTE
    assert [b.role for b in view.boards] == [Role.DONE, Role.DONE, Role.CURRENT]
    assert [b.fields for b in view.boards] == [(Field("move", d),) for d in (1, 2, 3)]
    assert [b.node for b in view.boards] == [m.node for m in moves]
    # the run may read on before it draws a frame: the frame's own move is current
    earlier = narration.replay_view(moves[1])
    assert earlier is not None
    assert [b.role for b in earlier.boards] == [Role.DONE, Role.CURRENT]
    assert legend_entries(view, view.boards) == (
        (Role.CURRENT, "the board above"),
        (Role.DONE, "its moves before it"),
    )


def test_only_a_solution_in_a_row_is_shown_and_only_its_latest_boards() -> None:
    moves = _moves(_line(REPLAY_BOARDS + 2))
    narration = Narration(Voice(title="t", algorithm="A*", narrator=DOMAIN))
    for move in moves:
        narration.observe(move)
    view = narration.replay_view(moves[-1])
    assert view is not None
    assert len(view.boards) == REPLAY_BOARDS
    assert view.boards[0].fields == (Field("move", 3),)
    narration.observe(Event(EventKind.ENTER, START, 0, 999, None, 0, None))
    assert narration.replay_view(moves[-1]) is None  # a played line is the MOVEs in a row
    playing = Narration(Voice(title="t", algorithm="MCTS", narrator=DOMAIN, move_phase="playing"))
    playing.observe(moves[0])
    assert playing.replay_view(moves[0]) is None  # a game's committed moves: no replay


def test_the_beam_replay_band_shows_the_solution_boards() -> None:
    scene = searchvid.load_scene("railroad-beam")
    pixels = np.asarray(scene.preview(146))  # move 12 of the solution played out
    painter = frame_painter(scene.sources(), scene.render_jobs(), scene.title)
    column, film = painter.layout.columns[0], painter.films[0]
    assert film is not None
    top, left = column.film_top, column.left
    rings = []
    for slot in range(film.slots):
        pic = film.picture_rect(slot)
        rings.append(tuple(pixels[top + pic.top - 1, left + pic.left - 1]))
    # seven earlier moves in grey, the one on the board last, in yellow
    assert rings == [FRAME_OF[Role.DONE]] * (film.slots - 1) + [FRAME_OF[Role.CURRENT]]
    board_w, board_h = column.board
    board = pixels[column.top : column.top + board_h, column.left : column.left + board_w]
    pic = film.picture_rect(film.slots - 1)
    shown = pixels[top + pic.top : top + pic.bottom, left + pic.left : left + pic.right]
    # the board, each cell shrunk to the thumbnail's cell size keeping its marks, scaled
    side = painter.atlas.size
    n, m = board_h // side, board_w // side
    cells = board.reshape(n, side, m, side, 3).transpose(0, 2, 1, 3, 4).reshape(-1, side, side, 3)
    cell = min(film.thumb[0] // n, film.thumb[1] // m)
    small = shrunk_tiles(cells, cell).reshape(n, m, cell, cell, 3).transpose(0, 2, 1, 3, 4)
    small = small.reshape(n * cell, m * cell, 3)
    rows = np.arange(film.thumb[0]) * (n * cell) // film.thumb[0]
    cols = np.arange(film.thumb[1]) * (m * cell) // film.thumb[1]
    assert np.array_equal(shown, small[rows[:, None], cols[None, :]])


def test_the_beam_heading_names_the_value_as_the_strip_does() -> None:
    voice = Voice(title="t", algorithm="beam search", narrator=DOMAIN, value_name="network")
    order = "the beam of level 7 ranked by network (ties: the first generated)"
    view = FrontierView(order, ())
    event = Event(EventKind.ENTER, START, 7, 5802, None, 3, 1)
    named = Narration(voice).film_view(event, view)
    assert named is not None
    assert (
        named.order == "the beam of level 7 ranked by closeness to goal (ties: the first generated)"
    )
    plain = Voice(title="t", algorithm="beam search", narrator=DOMAIN, value_name="outlook")
    assert Narration(plain).film_view(event, FrontierView("ranked by outlook", ())) == (
        FrontierView("ranked by outlook", ())
    )  # no words for it: the heading keeps the function's name, as the strip does
    assert Narration(voice).film_view(event, None) is None  # not a replay frame
