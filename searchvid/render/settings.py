"""The ``[video]`` section of a scene."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from searchvid.errors import OptionError
from searchvid.options import option

FrameSelection = Literal["all", "leaves", "improvements", "moves"]
Quality = Literal["draft", "default", "final"]
Arrangement = Literal["auto", "side-by-side", "stacked"]


@dataclass(frozen=True, kw_only=True)
class VideoOptions:
    """How a search becomes a video.

    The frame sequence is the same for every output format: the events selected by
    ``frames``, every ``every``-th of them, at most ``max_frames``. ``hold_last`` is applied
    by the encoder (MP4 repeats the last frame, GIF lengthens its delay, a PNG folder adds
    nothing), so frame ``N`` means the same picture in every format.
    """

    fps: int = option(12, doc="Frames per second.", minimum=1, maximum=120)
    tile_size: int = option(100, doc="Pixels per tile edge (even).", minimum=8, maximum=512)
    max_frames: int = option(1000, doc="Stop after this many frames.", minimum=1)
    max_events: int = option(
        1_000_000,
        doc="Stop the search after this many events even when the video is not full, or "
        "after this many units of work between events (nodes visited, children generated, "
        "MCTS iterations and rollout moves), so that every command ends in bounded memory.",
        minimum=1,
    )
    frames: FrameSelection = option(
        "all", doc="Which events become frames: all, leaves, improvements or moves."
    )
    every: int = option(1, doc="Keep every k-th selected frame.", minimum=1)
    hold_last: float = option(
        2.0, doc="Seconds the final frame stays on screen.", minimum=0, maximum=60
    )
    opening: float = option(
        2.0,
        doc="Seconds the opening card stays on screen: the first frame, whose strip states the "
        "problem, the algorithm and its settings over the start position (0: no card, the "
        "first frame shows its own step). Needs hud.",
        minimum=0,
        maximum=60,
    )
    closing: float = option(
        3.0,
        doc="Seconds, at least, the closing card stays on screen: the last frame, whose strip "
        "states the result and what it cost (and, in a race, the finishing order and the "
        "winner); it stays max(hold_last, closing) seconds (0: no card). Needs hud.",
        minimum=0,
        maximum=60,
    )
    hold_moves: float = option(
        0.0,
        doc="Seconds each MOVE frame (a committed move, a solution played out) stays on "
        "screen; 0 = one frame like any other.",
        minimum=0,
        maximum=10,
    )
    duration: float = option(
        0.0,
        doc="Fit the search into about this many seconds: frames are skipped evenly through "
        "long stretches (every is chosen), but every move and every new best is kept "
        "(0 = off).",
        minimum=0,
        maximum=3600,
    )
    keep_depth: int = option(
        0,
        doc="Every step onto a new node at most this deep (a depth-first ENTER or LEAF, a "
        "frontier search's EXPAND) is a frame, never thinned by every or duration: a paced "
        "depth-first video shows each of its shallow choices (each first move at 1) and "
        "samples the deeper steps evenly between them, and its strip counts the choices on "
        "the frame's path, out of those the search visits (first move 37/156, second move "
        "12/93); on the board, the path's first and second moves are bracketed in blue and "
        "vermilion (legend: first move, second move), and a shallow choice that starts "
        "elsewhere outlines the tile taken back before it as undone (0 = off).",
        minimum=0,
        maximum=64,
    )
    hold_improvements: float = option(
        0.0,
        doc="Seconds each new best (an IMPROVE of the frame's node) stays on screen.",
        minimum=0,
        maximum=10,
    )
    max_jumps: float = option(
        3.0,
        doc="At most this many jumps a second: a frame whose board differs from the board "
        "before it in more than 15% of its tiles (a jump to an unrelated state, or a move on "
        "a small board) stays on screen at least 1/max_jumps seconds, so that the eye can "
        "follow (0 = off: every frame one frame long).",
        minimum=0,
        maximum=120,
    )
    compress_dead: float = option(
        2.0,
        doc="With duration: a stretch longer than this many seconds where the board barely "
        "changes (its changes stay within 5% of the cells, with no move, new best or card) "
        "plays fast, in about 1 s, its strip saying so (fast and how many times faster); "
        "the time saved goes to the rest of the video. One search only, without a "
        "filmstrip (0 = off).",
        minimum=0,
        maximum=3600,
    )
    after_best: float = option(
        0.0,
        doc="The frame that first shows the best the search ends with stays this many "
        "seconds, and each stretch after it longer than compress_dead seconds "
        "(between holds) plays fast, in about half a second, its strip saying so (fast, how many "
        "times faster, no better found), for a search that finds its result early and goes "
        "on only to show that nothing beats it. One search only, without a filmstrip "
        "(0 = off).",
        minimum=0,
        maximum=60,
    )
    hud: bool = option(
        True,
        doc="Status strip under the board: the title, what the search is doing and its "
        "numbers, each named.",
    )
    captions: bool = option(
        False,
        doc='A caption line in the strip narrating each frame in words ("pour tube 3 into '
        'tube 7", "backtrack to depth 3").',
    )
    legend: bool = option(
        True,
        doc="A legend under the boards saying what their marks mean (last move, winning line, "
        "open end...), as the domain's view declares them; drawn with the status strip "
        "(hud).",
    )
    undo_mark: bool = option(
        True,
        doc="A step back looks different from a step down: on the frame of a backtrack "
        "(depth-first searches, minimax), outline the cells the step undid and ring the "
        'tree node it left, in violet, for that frame only; the legends name it "undone".',
    )
    window_gauge: bool = option(
        False,
        doc="Minimax with alpha-beta, without a tree panel: under the board, a scale from "
        "the lowest value to the highest in the game's words (O wins, draw, X wins) with "
        "the alpha-beta window of the frame's node as a band, its value as a notch and "
        '"cut-off" where the window closes. Only for minimax with alpha_beta.',
    )
    heatmap: Literal["visits", "off"] = option(
        "visits",
        doc="MCTS: tint the board cells of each of the root's moves by its visits against "
        "the most visited move's and write the visits there (a cell's most visited move), "
        "on frames whose board is the root position or one of its moves being tried and, "
        "for the decision just made, on the frame that plays a move, with the move played "
        "outlined in the tree panel's sky blue (visits); off: no heat map. Other "
        "algorithms, and views whose moves have no board position, have none.",
    )
    tree: bool = option(
        False,
        doc="A panel beside the board draws the search tree as the events build it.",
    )
    tree_thumbnails: bool = option(
        False,
        doc="In the tree panel, draw each node as a small picture of its board (small trees).",
    )
    tree_width: int = option(
        0,
        doc="Width of the tree panel in pixels (0: as wide as the board, at least 400).",
        minimum=0,
        maximum=4096,
    )
    tree_height: int = option(
        0,
        doc="Height of the tree panel in pixels (0: as high as the board, at least 400).",
        minimum=0,
        maximum=4096,
    )
    filmstrip: int = option(
        0,
        doc="Boards in a strip under the board showing the search's own structure: "
        "breadth-first, best-first and A* the node being expanded, then the next frontier "
        "nodes in the order they will be taken, with their depth or g, h and f; beam search "
        "the level's boards in rank order, then the best ones it dropped, crossed out "
        "(0 = no strip).",
        minimum=0,
        maximum=12,
    )
    quality: Quality = option(
        "default", doc="Encoder preset: draft (fast), default, final (slow, best)."
    )

    width: int = option(
        0,
        doc="Output width in pixels: the largest tile size whose frame fits is used and the "
        "frame is padded to exactly this width (0: tile_size decides).",
        minimum=0,
        maximum=16384,
    )
    arrange: Arrangement = option(
        "auto",
        doc="Several searches: side-by-side columns, stacked one above the other, or auto: "
        "side by side unless, fitted to width, text drawn on the boards would be smaller "
        "than 12 px (then stacked).",
    )

    def __post_init__(self) -> None:
        if self.tile_size % 2:
            raise OptionError("tile_size", f"must be even, got {self.tile_size}")
        if self.width % 2:
            raise OptionError("width", f"must be even, got {self.width}")
        for key in ("tree_width", "tree_height"):
            value = getattr(self, key)
            if value % 2 or 0 < value < 64:
                raise OptionError(key, f"must be 0 or an even number >= 64, got {value}")
