"""Checks that play the game: a finished game offers no moves, and one position reached by two
move orders is one node.

Both failures pass every per-node check: a won position whose ``children()`` still lists
moves, or an ``==`` that compares a move counter, only shows when positions are compared
along different lines of play. The searches depend on both: minimax and MCTS would play on
after a win, and duplicate detection and transposition tables would count one position many
times (the 4 GB trees and 60 GB searches of the project's seeds).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from searchvid.conformance.nodes import ends_game
from searchvid.conformance.probe import Probe, call
from searchvid.search.node import Capability

TRANSPOSITION_STARTS = 4
"""Sampled positions (the root first, then along the sampling walks) from which two-move
lines are played in both orders."""

TRANSPOSITION_MOVES = 8
"""Moves tried from each such position, and from each of its children: up to 73 lines of at
most two moves per position."""


def check_terminal(probe: Probe) -> Iterator[str]:
    """A node that ``is_terminal()`` has no children (sampled nodes and random games)."""
    if Capability.TERMINAL not in probe.declared(probe.root):
        return
    walks, stopped = probe.games
    if stopped is not None:
        yield stopped
        return
    seen: set[int] = set()
    for node in probe.nodes + [node for walk in walks for node in walk]:
        if id(node) in seen:
            continue
        seen.add(id(node))
        if not ends_game(probe, node):
            continue
        kids = probe.children(node)
        if kids:
            count = f"{len(kids)} {'child' if len(kids) == 1 else 'children'}"
            yield (
                f"{probe.name(node)} is terminal (is_terminal() is True) but children() gives "
                f"{count}, the first {probe.name(kids[0])}: a finished game must offer no "
                "moves, or searches play on after it ends"
            )
            return


def check_transpositions(probe: Probe) -> Iterator[str]:
    """Two move orders that reach the same board reach equal nodes with equal hashes (and
    equal ``key()``), unless the domain sets ``transpositions = False``."""
    if not getattr(probe.domain, "transpositions", True):
        return
    view = call("view()", probe.domain.view)
    declared = probe.declared(probe.root)
    starts = list({id(node): node for node in probe.nodes}.values())[:TRANSPOSITION_STARTS]
    for start in starts:
        problem = _transposition_problem(probe, view, declared, start)
        if problem is not None:
            yield problem
            return


def _transposition_problem(
    probe: Probe, view: Any, declared: frozenset[Capability], start: Any
) -> str | None:
    """The first two lines of at most two moves from ``start`` (the empty line included)
    that end on the same board, player to move and label but on nodes that differ, or
    None. Two orders of the same moves meet this way, and so does a move and its undoing
    (a sliding tile moved and moved back: the position of ``start`` again)."""
    chance = Capability.CHANCE in declared
    reached: dict[bytes, tuple[Any, ...]] = {}  # position -> the line to it (nodes)
    lines: list[tuple[Any, ...]] = [(start,)]
    for line in lines:  # grows while it is read: breadth-first, two moves deep
        node = line[-1]
        if len(line) < 3 and not (
            chance and call(f"is_chance() of {probe.name(node)}", node.is_chance)
        ):
            lines.extend((*line, kid) for kid in probe.children(node)[:TRANSPOSITION_MOVES])
        position = _position(probe, view, declared, node)
        earlier = reached.setdefault(position, line)
        if earlier is not line:
            problem = _difference(probe, declared, earlier, line)
            if problem is not None:
                return problem
    return None


def _position(probe: Probe, view: Any, declared: frozenset[Capability], node: Any) -> bytes:
    """What ``node`` shows: its board, who moves (a player, or chance), and its label
    (a view may show less than the state, as a counter's single tile does: the label too
    must agree before two nodes are taken for one position)."""
    grid = call(f"view().grid() of {probe.name(node)}", view.grid, node)
    player = ""
    if Capability.TO_MOVE in declared:
        player = repr(call(f"to_move of {probe.name(node)}", getattr, node, "to_move"))
    if Capability.CHANCE in declared and call(f"is_chance() of {probe.name(node)}", node.is_chance):
        player = "chance"  # a roll to come is not the position after it
    words = f"/{player}/{probe.label_of(node)}".encode()
    return np.ascontiguousarray(grid).tobytes() + words


def _difference(
    probe: Probe, declared: frozenset[Capability], one: tuple[Any, ...], two: tuple[Any, ...]
) -> str | None:
    """How the nodes at the ends of two lines that show one position differ (==, hash or
    ``key()``), or None."""
    a, b = one[-1], two[-1]
    if not probe.equal(a, b):
        broken = "compare unequal (==)"
    elif probe.hash(a) != probe.hash(b):
        broken = "compare equal but hash differently"
    elif (
        Capability.KEY in declared
        and callable(getattr(a, "key", None))  # else the capabilities check reports it
        and not probe.equal(
            call(f"key() of {probe.name(a)}", a.key), call(f"key() of {probe.name(b)}", b.key)
        )
    ):
        broken = "compare equal but have different key()"
    else:
        return None
    return (
        f"from {probe.name(one[0])}, {_line(probe, one)} and {_line(probe, two)} reach the "
        f"same position (board and label), but the two nodes {broken}: does == include the "
        "move history or a move counter? One position must be one node, or duplicate "
        "detection and transposition tables miss it (if the positions really differ in a way "
        "the board does not show, set transpositions = False on the domain)"
    )


def _line(probe: Probe, line: tuple[Any, ...]) -> str:
    """``'X at 1,1' then 'O at 2,2'``: the moves of a line in the domain's words, else the
    nodes; ``staying put`` for the empty line."""
    moves = [_move(probe, parent, child) for parent, child in itertools.pairwise(line)]
    return " then ".join(moves) if moves else "staying put"


def _move(probe: Probe, parent: Any, child: Any) -> str:
    try:
        words = probe.domain.describe_move(parent, child)
    except Exception:
        words = None
    return f"'{words}'" if isinstance(words, str) and words.strip() else probe.name(child)
