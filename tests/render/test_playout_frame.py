"""A board that shows where an MCTS playout ended is framed in orange on that frame, and
the legend names the frame: a solved-looking playout board is not read as the position
played (watersort-race frame 26)."""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt

import searchvid
from searchvid.render.playout import (
    COLOR,
    MARK,
    SEARCHED_COLOR,
    SEARCHED_MARK,
    WORDS,
    frame_width,
    playout_marks,
    searched_marks,
    shows_playout,
    swatch,
)
from searchvid.render.settings import VideoOptions
from searchvid.render.tracks import Boards
from searchvid.render.treemarks import PATH
from searchvid.search.events import Event, EventKind

K = EventKind


def event(kind: EventKind, nid: int | None, parent: int | None) -> Event:
    return Event(kind, "node", 3, 7, 0.5, nid, parent)


def test_a_playout_state_is_an_event_off_the_tree_below_a_tree_node() -> None:
    assert shows_playout(event(K.LEAF, None, 4))  # where a playout ended
    assert shows_playout(event(K.IMPROVE, None, 4))  # the same end, a new best
    assert shows_playout(event(K.ROLLOUT, None, 4))  # a state on the way
    assert not shows_playout(event(K.LEAF, 5, 4))  # a tree node (a game's end, searched)
    assert not shows_playout(event(K.IMPROVE, 4, 1))  # a playout of no move: the node's
    assert not shows_playout(event(K.MOVE, None, 4))
    assert not shows_playout(event(K.LEAF, None, None))  # the root, searched alone


def test_the_legend_names_the_frame_only_where_a_frame_can_show_a_playout() -> None:
    video = VideoOptions()
    assert playout_marks(video, True) == (MARK,)
    assert MARK.text == WORDS == "a playout's end, not played"
    assert playout_marks(video, False) == ()  # no MCTS: no playout
    assert playout_marks(dataclasses.replace(video, frames="moves"), True) == ()
    assert playout_marks(dataclasses.replace(video, frames="improvements"), True) == (MARK,)
    # water sort's moves have no board cells (no heat map): an MCTS still shows playouts
    view = searchvid.load_scene("watersort-race").view()
    mcts = Boards.of(view, 3, heat=True)
    assert (mcts.heat, mcts.iterations) == (False, True)
    assert not Boards.of(view, 3, heat=False).iterations


def test_the_frame_is_twice_the_undone_outline_and_its_swatch_is_framed() -> None:
    assert [frame_width(t) for t in (6, 8, 28, 50, 100, 200)] == [0, 2, 4, 4, 8, 16]
    picture = swatch(20, (0, 0, 0))
    assert picture.shape == (20, 20, 3)
    assert (picture[0] == COLOR).all()
    assert (picture[:, -1] == COLOR).all()
    assert (picture[10, 10] == 0).all()


def longest_run(pixels: npt.NDArray[np.uint8], color: tuple[int, int, int] = COLOR) -> int:
    """The longest horizontal run of the frame's colour."""
    best = 0
    for row in np.all(pixels == color, axis=-1):
        run = 0
        for on in row:
            run = run + 1 if on else 0
            best = max(best, run)
    return best


def test_the_race_frames_the_mcts_board_of_a_playout_and_no_other() -> None:
    scene = searchvid.load_scene("watersort-race")
    texts = [shown[2] for shown in scene.strip_texts()]
    assert texts[26] is not None
    assert shows_playout(texts[26][0])  # the MCTS column shows a playout's end there
    assert texts[26][1].phase == "MCTS playout, not played"
    framed = np.asarray(scene.preview(26).convert("RGB"))
    plain = np.asarray(scene.preview(0).convert("RGB"))
    board = scene.view().shape[1] * scene.video.tile_size
    # the frame runs along the whole board's top edge; elsewhere only the legend's swatch
    assert longest_run(framed) == board
    assert longest_run(plain) < board // 8


def test_the_legend_names_the_searched_frame_where_a_game_is_played_move_by_move() -> None:
    video = VideoOptions()
    assert searched_marks(video, True, True) == (SEARCHED_MARK,)
    assert SEARCHED_MARK.text == "a searched position, not played"
    assert SEARCHED_COLOR == PATH  # the tree panel's "current" colour: its node's board
    assert searched_marks(video, True, False) == ()  # a search alone: nothing is played
    assert searched_marks(video, False, True) == ()  # no MCTS
    assert searched_marks(dataclasses.replace(video, frames="moves"), True, True) == ()
    picture = swatch(20, (0, 0, 0), SEARCHED_COLOR)
    assert (picture[0] == SEARCHED_COLOR).all()
    assert (picture[10, 10] == 0).all()


def test_a_board_showing_a_searched_position_is_framed_and_a_played_one_not() -> None:
    # issue 20, fifth readers: railroad-mcts-tree's board showed the node being searched
    # (2/12 exits joined) beside the panel's root (none joined); only the strip said so
    scene = searchvid.load_scene("railroad-mcts-tree")
    texts = [shown[0] for shown in scene.strip_texts()]
    searched, played = texts[116], texts[15]
    assert searched is not None
    assert played is not None
    assert searched[1].phase == "MCTS searched position (not played)"
    assert played[1].phase == "MCTS playing"
    board = scene.view().shape[1] * scene.video.tile_size
    framed = np.asarray(scene.preview(116).convert("RGB"))[:, :board]
    plain = np.asarray(scene.preview(15).convert("RGB"))[:, :board]
    # the frame runs along the whole board's top edge; elsewhere only the legend's swatch
    assert longest_run(framed, SEARCHED_COLOR) == board
    assert longest_run(plain, SEARCHED_COLOR) < board // 8
    assert longest_run(framed) < board // 8  # not the playout's orange
