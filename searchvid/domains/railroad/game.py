"""Railroad Ink as the published game (``rules = "game"``): seven rounds of dice.

Each round starts at a *chance node*: nature rolls the three route dice (a straight, curve or
T road or rail, each face once on the six-sided die) and the station die (the overpass, the
straight station and the curved station, each face twice on the six-sided die). The outcome
is the multiset of the four faces, its probability the share of the 6**4 ways the dice can
show it: 56 multisets of route faces times 3 station faces, 168 outcomes.

Then the player draws the rolled dice one at a time, in any order (one decision per die): any
die still unplaced, on any cell where it fits under the game's placement rule
(:func:`~searchvid.domains.railroad.grid.fits_game`), in any of its rotations and mirror
images. Once per round, at any point of the round, the player may also draw one special route
(each of the six at most once per game, three per game at most).

Forced play: the round ends when no die left fits anywhere, and only then. Dice that fit must
be drawn, in whatever order the player likes (a die that fits nowhere now may fit once another
die is drawn); a die that still fits nowhere when the others are done is skipped. When no die
fits any more but a special route may still be drawn, the player chooses between a special
route and ending the round (the last child). Otherwise the round ends by itself: the move that
draws the last die that fits leads straight to the next round's chance node, and after round
seven to the end of the game (terminal; the reward is the final score mapped onto [0, 1]).

A state is the board, the round, the dice left to draw (None before the roll), the special
routes used and whether one was used this round; nothing else takes part in ``==`` and
``hash``. The dice rolled and the dice skipped are kept beside it for the view only.

Beside them a state keeps, once first asked for, its *spots* (the empty cells some piece
fits, with their constraint keys, see :func:`grid.placed_spots`) and how many placements each
piece has there, packed into one int. A state reached by drawing a piece gets both from its
parent's by looking again at the drawn cell and its four neighbours only, and a roll or the
end of a round keeps its parent's; so a playout never rescans the board, and drawing a random
child does not list the moves.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from typing import ClassVar

from searchvid.domains.railroad.grid import (
    FACING,
    INTERIOR,
    NEIGHBOURS,
    SIZE,
    START_CELLS,
    Spots,
    fits_game,
    is_open_key,
    placed_spots,
    scan_spots,
)
from searchvid.domains.railroad.tiles import TILES
from searchvid.domains.railroad.values import score_value
from searchvid.search.node import Capability

__all__ = [
    "FACE_NAMES",
    "MAX_SPECIALS",
    "PIECE_NAMES",
    "ROLLS",
    "ROLL_WAYS",
    "ROUNDS",
    "ROUTE_DIE",
    "SPECIAL_NAMES",
    "STATION_DIE",
    "GameRules",
    "GameState",
    "game_rules",
]

ROUNDS = 7
"""Rounds in a game."""

MAX_SPECIALS = 3
"""Special routes a player may draw in one game."""

FACE_NAMES: tuple[str, ...] = (
    "road-straight",
    "road-curve",
    "road-t",
    "rail-straight",
    "rail-curve",
    "rail-t",
    "overpass",
    "station-straight",
    "station-curve",
)
"""The dice faces by face id: the route die's six, then the station die's three. A face is
drawn as any orientation (rotation or mirror image) of the base tile of the same name."""

ROUTE_DIE: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
"""The six faces of each of the three route dice (face ids)."""

STATION_DIE: tuple[int, ...] = (6, 6, 7, 7, 8, 8)
"""The six faces of the station die: overpass, straight station and curved station, each
printed twice."""

SPECIAL_NAMES: tuple[str, ...] = (
    "road-cross",
    "rail-cross",
    "station-cross-road",
    "station-cross-rail",
    "station-cross-corner",
    "station-cross-straight",
)
"""The six special routes, by special index (bit ``i`` of a state's ``specials_used``)."""

PIECE_NAMES: tuple[str, ...] = FACE_NAMES + SPECIAL_NAMES
"""Everything a player may draw: piece ``p < 9`` is die face ``p``, piece ``9 + i`` special
route ``i``."""

_FIRST_SPECIAL = len(FACE_NAMES)
_ALL_SPECIALS = (1 << len(SPECIAL_NAMES)) - 1


def _rolls() -> tuple[tuple[tuple[int, ...], int], ...]:
    ways: dict[tuple[int, ...], int] = {}
    for a in ROUTE_DIE:
        for b in ROUTE_DIE:
            for c in ROUTE_DIE:
                for s in STATION_DIE:
                    roll = tuple(sorted((a, b, c, s)))
                    ways[roll] = ways.get(roll, 0) + 1
    return tuple(sorted(ways.items()))


ROLLS: tuple[tuple[tuple[int, ...], int], ...] = _rolls()
"""Every roll of the four dice, ``(faces ascending, ways)``, in ascending order of faces: the
roll comes up in ``ways`` of the :data:`ROLL_WAYS` equally likely ways the dice can fall."""

ROLL_WAYS = len(ROUTE_DIE) ** 3 * len(STATION_DIE)
"""Equally likely ways the four dice can fall (6**4)."""


class GameRules:
    """Placement tables of the game's rule (:func:`grid.fits_game`), shared by all states.

    Attributes:
        name: ``"game"``.
        codes: Cell bytes of every tile a player may draw, ascending.
        piece_codes: ``piece_codes[p]``: the cell bytes of piece ``p``'s orientations.
        piece_choices: ``piece_choices[p][key]``: the cell bytes of piece ``p`` that fit a
            cell with constraint ``key``, ascending.
        choices: ``choices[key]``: the cell bytes of any piece that fit ``key``, ascending
            (what the network analysis asks: can this cell still be filled at all?).
        fit_mask: ``fit_mask[key]``: bit ``p`` set when some orientation of piece ``p`` fits.
    """

    __slots__ = ("choices", "codes", "fit_mask", "name", "piece_choices", "piece_codes")

    def __init__(self) -> None:
        self.name = "game"
        by_base: dict[str, list[int]] = {}
        for tile in TILES:
            by_base.setdefault(tile.base, []).append(tile.id + 1)
        self.piece_codes: tuple[tuple[int, ...], ...] = tuple(
            tuple(by_base[name]) for name in PIECE_NAMES
        )
        self.codes: tuple[int, ...] = tuple(sorted(c for codes in self.piece_codes for c in codes))
        self.piece_choices: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple(c for c in codes if fits_game(TILES[c - 1].sides, key)) for key in range(256)
            )
            for codes in self.piece_codes
        )
        self.choices: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(c for table in self.piece_choices for c in table[key]))
            for key in range(256)
        )
        self.fit_mask: tuple[int, ...] = tuple(
            sum(1 << p for p, table in enumerate(self.piece_choices) if table[key])
            for key in range(256)
        )

    def __repr__(self) -> str:
        return "GameRules()"


@functools.cache
def game_rules() -> GameRules:
    """The shared placement tables of the game."""
    return GameRules()


_RULES = game_rules()
_PIECE_CHOICES = _RULES.piece_choices
_F0, _F1, _F2, _F3 = FACING
_BYTE: tuple[bytes, ...] = tuple(bytes((code,)) for code in range(256))
_EMPTY_DICE: tuple[int, ...] = ()

_BITS = 9
"""Bits per piece in a packed count: at most 8 orientations fit a cell, on at most 49 cells."""
_FIELD: tuple[int, ...] = tuple(((1 << _BITS) - 1) << (_BITS * p) for p in range(len(PIECE_NAMES)))
"""``_FIELD[p]``: the bits of piece ``p``'s count in a packed count."""
_PACKED: tuple[int, ...] = tuple(
    sum(len(_PIECE_CHOICES[p][key]) << (_BITS * p) for p in range(len(PIECE_NAMES)))
    for key in range(256)
)
"""``_PACKED[key]``: how many orientations of each piece fit a cell with ``key``, packed
(non-zero exactly where some piece fits)."""
_SPECIAL_FIELDS: tuple[int, ...] = tuple(
    sum(_FIELD[_FIRST_SPECIAL + i] for i in range(len(SPECIAL_NAMES)) if free >> i & 1)
    for free in range(_ALL_SPECIALS + 1)
)
"""``_SPECIAL_FIELDS[free]``: the fields of the special routes whose bits are set in ``free``."""

Move = tuple[int, int, tuple[int, ...]]
"""``(piece, cell, cell bytes that fit)``: the ways to draw one piece on one cell."""


class GameState:
    """An immutable state of the game: a board, the round, the dice left, the specials used.

    Equal states have equal cells, round, dice left (None at a chance node), special routes
    used and special-this-round flag. :attr:`roll` and :attr:`skipped` are for the view only.
    """

    __slots__ = (
        "_cells",
        "_counts",
        "_dice",
        "_roll",
        "_round",
        "_skipped",
        "_special",
        "_spots",
        "_used",
    )

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset(
        {
            Capability.TERMINAL,
            Capability.REWARD,
            Capability.KEY,
            Capability.RANDOM_CHILD,
            Capability.CHANCE,
        }
    )

    _cells: bytes
    _round: int
    _dice: tuple[int, ...] | None
    _used: int
    _special: bool
    _roll: tuple[int, ...]
    _skipped: tuple[int, ...]
    _spots: Spots | None  # None until first asked for
    _counts: int  # placements per piece on the spots, packed (see _PACKED)

    def __init__(
        self,
        cells: bytes = START_CELLS,
        *,
        round: int = 1,
        dice: Sequence[int] | None = None,
        specials_used: int = 0,
        special_this_round: bool = False,
        roll: Sequence[int] | None = None,
    ) -> None:
        """A state as given, not settled (see :meth:`settle`); for tests and hand-made positions.

        Args:
            cells: The 81 cell bytes.
            round: The round, 1 to 7 (8 after the game).
            dice: Face ids of the dice left to draw, or None for the chance node before the roll.
            specials_used: Bit ``i`` set when special route ``i`` was drawn.
            special_this_round: Whether a special route was drawn this round.
            roll: The round's four dice, for the view (default: ``dice``).

        Raises:
            ValueError: A part is out of range.
        """
        if len(cells) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} cells, got {len(cells)}")
        if not 1 <= round <= ROUNDS + 1:
            raise ValueError(f"round must be 1 to {ROUNDS + 1}, got {round}")
        if dice is not None and any(not 0 <= f < len(FACE_NAMES) for f in dice):
            raise ValueError(f"dice are face ids 0 to {len(FACE_NAMES) - 1}, got {tuple(dice)}")
        if not 0 <= specials_used <= _ALL_SPECIALS or specials_used.bit_count() > MAX_SPECIALS:
            raise ValueError(f"specials_used must name at most {MAX_SPECIALS} of six specials")
        faces = None if dice is None else tuple(sorted(dice))
        shown = (faces or ()) if roll is None else tuple(sorted(roll))
        _init(self, bytes(cells), round, faces, specials_used, special_this_round, shown, ())
        _SET_SPOTS(self, None)
        _SET_COUNTS(self, 0)

    @classmethod
    def start(cls) -> GameState:
        """The empty board before the first roll."""
        return _state(START_CELLS, 1, None, 0, False, (), (), None, 0)

    # --- the state ---------------------------------------------------------------------------

    @property
    def cells(self) -> bytes:
        """The 81 cell bytes, row-major (0 empty, else a tile or exit code)."""
        return self._cells

    @property
    def round(self) -> int:
        """The round being played (at a chance node: about to be rolled), 1 to 7; 8 at the end."""
        return self._round

    @property
    def dice(self) -> tuple[int, ...] | None:
        """Face ids of the dice left to draw this round, ascending; None before the roll."""
        return self._dice

    @property
    def specials_used(self) -> int:
        """Bit ``i`` set when special route ``i`` (:data:`SPECIAL_NAMES`) has been drawn."""
        return self._used

    @property
    def special_this_round(self) -> bool:
        """Whether a special route was drawn this round."""
        return self._special

    @property
    def roll(self) -> tuple[int, ...]:
        """The four dice of the round shown (the last round's at a chance node); view only."""
        return self._roll

    @property
    def skipped(self) -> tuple[int, ...]:
        """At a chance or terminal node: the last round's dice that fitted nowhere; view only."""
        return self._skipped

    @property
    def rules(self) -> GameRules:
        """The game's placement tables."""
        return _RULES

    @property
    def rounds_played(self) -> int:
        """Rounds whose dice have been rolled."""
        if self._round > ROUNDS:
            return ROUNDS
        return self._round if self._dice is not None else self._round - 1

    @property
    def tile_count(self) -> int:
        """Number of tiles drawn."""
        cells = self._cells
        return sum(1 for c in INTERIOR if cells[c])

    @property
    def special_open(self) -> bool:
        """Whether a special route may be drawn now (limits only, not whether one fits)."""
        return (
            self._dice is not None and not self._special and self._used.bit_count() < MAX_SPECIALS
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"GameState is immutable; cannot set {name!r}")

    def __hash__(self) -> int:
        return hash((self._cells, self._round, self._dice, self._used, self._special))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self._cells == other._cells
            and self._round == other._round
            and self._dice == other._dice
            and self._used == other._used
            and self._special == other._special
        )

    def __repr__(self) -> str:
        dice = "rolling" if self._dice is None else f"dice={self._dice}"
        return (
            f"GameState(round {self._round}, {dice}, {self.tile_count} tiles, "
            f"specials={self._used:#b}{', special this round' if self._special else ''})"
        )

    def key(self) -> bytes:
        """The transposition key: the state packed into bytes."""
        dice = self._dice
        head = bytes((self._round, self._used, self._special, 255 if dice is None else len(dice)))
        return self._cells + head + bytes(dice or ())

    def at(self, row: int, col: int) -> int:
        """The byte of cell ``(row, col)`` (0 empty, else a tile or exit code)."""
        return self._cells[row * SIZE + col]

    def open_cells(self) -> list[int]:
        """Empty interior cells that some route leads into, row-major."""
        cells = self._cells
        return [
            c
            for c, n, e, s, w in NEIGHBOURS
            if not cells[c]
            and is_open_key(_F0[cells[n]] | _F1[cells[e]] | _F2[cells[s]] | _F3[cells[w]])
        ]

    def spots(self) -> Spots:
        """The empty cells where some piece fits, row-major, as ``(cell, constraint key)``
        (kept, see the module docstring)."""
        spots = self._spots
        if spots is None:
            spots, counts = scan_spots(self._cells, _PACKED)
            _SET_SPOTS(self, spots)
            _SET_COUNTS(self, counts)
        return spots

    def _board_info(self) -> tuple[Spots, int]:
        """The spots and the packed placements per piece."""
        spots = self._spots
        if spots is None:
            spots = self.spots()
        return spots, self._counts

    def settle(self) -> GameState:
        """This state with forced steps taken: a decision node where nothing fits is skipped.

        A decision node whose dice fit nowhere and where no special route may be drawn ends
        its round: the result is the next chance node (or the end of the game). Any other
        state is returned as it is. Every state the game reaches is settled.
        """
        if self._dice is None:
            return self
        spots, counts = self._board_info()
        return _settle(
            self._cells,
            self._round,
            self._dice,
            self._used,
            self._special,
            self._roll,
            spots,
            counts,
        )

    # --- capabilities ------------------------------------------------------------------------

    def is_chance(self) -> bool:
        """Whether the dice of the round are about to be rolled."""
        return self._dice is None and self._round <= ROUNDS

    def is_terminal(self) -> bool:
        """Whether the seven rounds are over."""
        return self._round > ROUNDS

    def reward(self) -> float:
        """The game's score of the board mapped onto [0, 1] (the ``score`` value function)."""
        return score_value(self)

    def outcomes(self) -> list[tuple[float, GameState]]:
        """The rolls of a chance node as ``(probability, state)``, equal states merged.

        Rolls in ascending order of their faces; a roll after which nothing fits leads on to
        the next round and merges with every other such roll.
        """
        if not self.is_chance():
            return []
        merged: dict[GameState, int] = {}
        spots, counts = self._board_info()
        for faces, ways in ROLLS:
            child = _settle(
                self._cells, self._round, faces, self._used, False, faces, spots, counts
            )
            merged[child] = merged.get(child, 0) + ways
        return [(ways / ROLL_WAYS, child) for child, ways in merged.items()]

    def sample_outcome(self, rng: random.Random) -> GameState:
        """One roll of a chance node, the four dice thrown with ``rng`` (four ``randrange(6)``).

        Raises:
            ValueError: This is not a chance node.
        """
        if not self.is_chance():
            raise ValueError("sample_outcome() of a state that is not a chance node")
        r = rng.randrange
        faces = (ROUTE_DIE[r(6)], ROUTE_DIE[r(6)], ROUTE_DIE[r(6)], STATION_DIE[r(6)])
        roll = tuple(sorted(faces))
        spots, counts = self._board_info()
        return _settle(self._cells, self._round, roll, self._used, False, roll, spots, counts)

    def moves(self) -> list[Move]:
        """The placements of a decision node: dice by face id, then special routes; each by
        cell, row-major. Empty at chance and terminal nodes."""
        dice = self._dice
        if not dice and not self.special_open:
            return []
        spots, counts = self._board_info()
        result = []
        for piece in self._pieces():
            if not counts & _FIELD[piece]:
                continue  # fits nowhere
            table = _PIECE_CHOICES[piece]
            for c, key in spots:
                fitting = table[key]
                if fitting:
                    result.append((piece, c, fitting))
        return result

    def _pieces(self) -> list[int]:
        """What may be drawn at a decision node: the dice left by face id, then the special
        routes still allowed (where one may be drawn this round), whether they fit or not."""
        dice = self._dice
        assert dice is not None
        pieces = sorted(set(dice))
        if self.special_open:
            free = ~self._used
            pieces += [_FIRST_SPECIAL + i for i in range(len(SPECIAL_NAMES)) if free >> i & 1]
        return pieces

    def can_end_round(self, moves: Sequence[Move] | None = None) -> bool:
        """Whether the player may end the round here: no die left fits anywhere.

        Args:
            moves: :meth:`moves`, when already listed.
        """
        if self._dice is None or self._round > ROUNDS:
            return False
        listed = self.moves() if moves is None else moves
        return all(piece >= _FIRST_SPECIAL for piece, _, _ in listed)

    def children(self) -> Iterator[GameState]:
        """The next states: a chance node's outcomes; a decision node's placements (see
        :meth:`moves`), then ending the round where no die fits; none at the end."""
        if self._dice is None:
            if self._round <= ROUNDS:
                yield from (child for _, child in self.outcomes())
            return
        moves = self.moves()
        for piece, cell, fitting in moves:
            for code in fitting:
                yield self._play(piece, cell, code)
        if self.can_end_round(moves):
            yield self._end_round()

    def random_child(self, rng: random.Random) -> GameState | None:
        """One child drawn with ``rng``: at a chance node a roll (:meth:`sample_outcome`),
        else uniformly, the child ``rng.choice(list(children()))`` would draw."""
        dice = self._dice
        if dice is None:
            return self.sample_outcome(rng) if self._round <= ROUNDS else None
        # the moves are counted from the packed counts, not listed (the playouts' hot path)
        pieces = [] if not dice and not self.special_open else self._pieces()
        spots, counts = self._board_info()
        total = 0
        end = self._round <= ROUNDS
        for piece in pieces:
            n = (counts >> (_BITS * piece)) & _MASK
            total += n
            if n and piece < _FIRST_SPECIAL:
                end = False  # a die still fits: the round cannot end
        if total + end == 0:
            return None
        index = rng.randrange(total + end)
        for piece in pieces:
            n = (counts >> (_BITS * piece)) & _MASK
            if index >= n:
                index -= n
                continue
            table = _PIECE_CHOICES[piece]
            for cell, key in spots:
                fitting = table[key]
                if index < len(fitting):
                    return self._play(piece, cell, fitting[index])
                index -= len(fitting)
        return self._end_round()

    def _play(self, piece: int, cell: int, code: int) -> GameState:
        cells = self._cells
        board = cells[:cell] + _BYTE[code] + cells[cell + 1 :]
        spots, counts = self._board_info()
        spots, counts = placed_spots(spots, counts, board, cell, _PACKED)
        dice = self._dice
        assert dice is not None
        if piece < _FIRST_SPECIAL:
            i = dice.index(piece)
            left = dice[:i] + dice[i + 1 :]
            return _settle(
                board, self._round, left, self._used, self._special, self._roll, spots, counts
            )
        used = self._used | 1 << (piece - _FIRST_SPECIAL)
        return _settle(board, self._round, dice, used, True, self._roll, spots, counts)

    def _end_round(self) -> GameState:
        spots, counts = self._board_info()
        return _next_round(
            self._cells, self._round, self._dice or (), self._used, self._roll, spots, counts
        )


# The slot descriptors' setters: they bypass the __setattr__ that keeps states immutable.
_SET_CELLS = vars(GameState)["_cells"].__set__
_SET_ROUND = vars(GameState)["_round"].__set__
_SET_DICE = vars(GameState)["_dice"].__set__
_SET_USED = vars(GameState)["_used"].__set__
_SET_SPECIAL = vars(GameState)["_special"].__set__
_SET_ROLL = vars(GameState)["_roll"].__set__
_SET_SKIPPED = vars(GameState)["_skipped"].__set__
_SET_SPOTS = vars(GameState)["_spots"].__set__
_SET_COUNTS = vars(GameState)["_counts"].__set__
_NEW = object.__new__
_MASK = (1 << _BITS) - 1


def _init(
    state: GameState,
    cells: bytes,
    round_: int,
    dice: tuple[int, ...] | None,
    used: int,
    special: bool,
    roll: tuple[int, ...],
    skipped: tuple[int, ...],
) -> None:
    _SET_CELLS(state, cells)
    _SET_ROUND(state, round_)
    _SET_DICE(state, dice)
    _SET_USED(state, used)
    _SET_SPECIAL(state, special)
    _SET_ROLL(state, roll)
    _SET_SKIPPED(state, skipped)


def _state(
    cells: bytes,
    round_: int,
    dice: tuple[int, ...] | None,
    used: int,
    special: bool,
    roll: tuple[int, ...],
    skipped: tuple[int, ...],
    spots: Spots | None,
    counts: int,
) -> GameState:
    """A state from trusted parts (the hot path: no checks); ``spots`` and ``counts`` must be
    the cells' own (None: found when first asked for)."""
    state: GameState = _NEW(GameState)
    _SET_CELLS(state, cells)
    _SET_ROUND(state, round_)
    _SET_DICE(state, dice)
    _SET_USED(state, used)
    _SET_SPECIAL(state, special)
    _SET_ROLL(state, roll)
    _SET_SKIPPED(state, skipped)
    _SET_SPOTS(state, spots)
    _SET_COUNTS(state, counts)
    return state


def _settle(
    cells: bytes,
    round_: int,
    dice: tuple[int, ...],
    used: int,
    special: bool,
    roll: tuple[int, ...],
    spots: Spots,
    counts: int,
) -> GameState:
    """The decision node with these dice left, or the next round where nothing may be drawn.

    ``spots`` and ``counts`` are the cells' own: whether a piece fits somewhere is a look at
    its field of ``counts``.
    """
    wanted = 0
    for face in dice:
        wanted |= _FIELD[face]
    if counts & wanted:
        return _state(cells, round_, dice, used, special, roll, (), spots, counts)
    free = _SPECIAL_FIELDS[~used & _ALL_SPECIALS]
    if not special and used.bit_count() < MAX_SPECIALS and counts & free:
        return _state(cells, round_, dice, used, special, roll, (), spots, counts)
    return _next_round(cells, round_, dice, used, roll, spots, counts)


def _next_round(
    cells: bytes,
    round_: int,
    skipped: tuple[int, ...],
    used: int,
    roll: tuple[int, ...],
    spots: Spots,
    counts: int,
) -> GameState:
    """The chance node of the round after ``round_``, or the end of the game."""
    return _state(cells, round_ + 1, None, used, False, roll, skipped, spots, counts)
