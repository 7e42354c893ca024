"""The moves of a depth-first search's path, marked by depth: ``first move``, ``second move``.

A paced depth-first video (``[video] keep_depth``) shows each of its shallow choices and
samples the deeper steps between them; its strip counts them (``first move 37/156 · second
move 12/93``, :mod:`searchvid.render.choices`). On the board, though, a tile of the first
move and one of the second look alike: a reader sees tiles come and go, not a path that
goes down and back. So on such a video, every frame brackets the cells of each move of its
path in that move's colour (the first move's blue, the second's vermilion), for as many
moves as the strip counts (``keep_depth + 1``, at most :data:`COLORS` of them), and the
legend names the colours in the strip's words. A step back keeps the violet "undone"
outline on the cells it emptied (:mod:`searchvid.render.undo`): brackets at the corners
against a whole outline, so they differ in shape as well as colour.

The path is known from the events alone: :class:`PathWatch` remembers, per depth, the tree
id and node of the latest state shown there (one node per depth: bounded memory), and an
event's path is the chain of those whose ids link child to parent, so a preview of one frame
marks the same cells as the whole render. Everything here is domain-free: the cells of a
move are the view's ``move_cells`` where it has that hook, else the cells whose tile
differs (:func:`~searchvid.render.placed.changed_cells`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from searchvid.render.atlas import RGB
from searchvid.render.boardlegend import Mark
from searchvid.render.choices import move_name
from searchvid.render.palette import BLUE, VERMILLION
from searchvid.render.settings import VideoOptions
from searchvid.search.events import Event

COLORS: tuple[RGB, ...] = (BLUE, VERMILLION)
"""The brackets' colours by depth from 1 (Okabe-Ito blue and vermilion: apart from each
other, from the "undone" violet and from the boards that use the mark, Railroad Ink's)."""

_TILE = "searchvid:path-{}"


def mark(depth: int) -> Mark:
    """The legend's entry for the move at ``depth`` (from 1): ``first move``, ..."""
    return Mark(_TILE.format(depth), move_name(depth))


def depth_of(tile: str) -> int | None:
    """The depth a legend entry's tile name stands for (:func:`mark`), or None."""
    prefix = _TILE.format("")
    if not tile.startswith(prefix) or not tile[len(prefix) :].isdigit():
        return None
    depth = int(tile[len(prefix) :])
    return depth if 1 <= depth <= len(COLORS) else None


def deepest(video: VideoOptions, backtracks: bool) -> int:
    """How many moves of a frame's path are marked: the moves the strip counts
    (``keep_depth + 1``) in a depth-first search that steps back (``backtracks``), at most
    one per colour; 0 (none) without ``keep_depth``."""
    if not backtracks or video.keep_depth <= 0:
        return 0
    return min(video.keep_depth + 1, len(COLORS))


def path_marks(video: VideoOptions, backtracks: bool) -> tuple[Mark, ...]:
    """The legend's entries for the marked moves, shallowest first (none where no move is
    marked)."""
    return tuple(mark(depth) for depth in range(1, deepest(video, backtracks) + 1))


class Move(NamedTuple):
    """A move of a frame's path: its depth (from 1), the node it was made from and the node
    it made."""

    depth: int
    parent: Any
    node: Any


class PathWatch:
    """Fed every event of one search, knows the path of the latest one: its moves from the
    start, down to ``deepest``.

    Args:
        deepest: The deepest move kept (:func:`deepest`).
    """

    def __init__(self, deepest: int) -> None:
        self.deepest = deepest
        # the latest state shown at each depth, as (tree id, parent id, node)
        self._path: list[tuple[int | None, int | None, Any]] = []
        self._step: int | None = None  # the step of the latest event that showed a state
        self._moves: tuple[Move, ...] = ()

    def observe(self, event: Event) -> None:
        """Take the next event of the stream (every event, in order)."""
        if not event.kind.shows_state:
            return
        depth, path = event.depth, self._path
        del path[depth:]
        if len(path) < depth:  # a jump down past depths never shown: no link there
            path.extend([(None, None, None)] * (depth - len(path)))
        path.append((event.id, event.parent, event.node))
        self._step = event.step
        moves: list[Move] = []
        for d in range(1, min(depth, self.deepest) + 1):
            up, here = path[d - 1], path[d]
            if up[0] is None or here[1] != up[0]:  # not a chain of parent and child
                break
            moves.append(Move(d, up[2], here[2]))
        self._moves = tuple(moves)

    def moves(self, event: Event) -> tuple[Move, ...]:
        """The moves of ``event``'s path, shallowest first, when it is the latest event
        observed that showed a state; none otherwise."""
        return self._moves if event.step == self._step else ()

    def remember(self, event: Event, moves: tuple[Move, ...]) -> None:
        """Take it that ``event``'s path is ``moves`` (for a frame drawn without the events
        before it)."""
        self._step, self._moves = event.step, moves
