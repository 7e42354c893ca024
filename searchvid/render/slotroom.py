"""How much room a status field's slot keeps for its value to grow in
(:meth:`~searchvid.render.hud.Hud._slots`): enough that a counter growing by a digit moves
no field after it, little enough that a short value leaves no wide hole before the next
field (``depth 2``, ``round 1/7``)."""

from __future__ import annotations

from collections.abc import Iterable

VALUE_ROOM = "0,000"
"""A field's room where nothing shorter is known: a four-digit value."""


def room_for(value: str, sized: str | None = None) -> str:
    """The room of a field's slot now showing ``value``: :data:`VALUE_ROOM`, or the room
    the strip was sized for (``sized``, :func:`sized_rooms`) where shorter; a count out of
    a total (``3/12``) never outgrows its total, so its room is the total's digits
    (``00/12``)."""
    total = value.partition("/")[2]
    if total.replace(",", "").isdigit():
        return "".join("0" if c.isdigit() else c for c in total) + "/" + total
    return sized if sized is not None and len(sized) < len(VALUE_ROOM) else VALUE_ROOM


def sized_rooms(texts: Iterable[str]) -> dict[str, str]:
    """Each field's room where the status texts a strip is sized for write one in zeros
    (:func:`~searchvid.render.hud.expected_status`'s ``depth 00``: two digits after
    ``depth``), the widest of a name's; its name is the words before the last. A text with
    a value of other digits (``step 9``) is an example, not a room: it sets none."""
    rooms: dict[str, str] = {}
    for text in texts:
        name, _, room = text.rpartition(" ")
        if name and "0" in room and not room.strip("0,./") and len(room) > len(rooms.get(name, "")):
            rooms[name] = room
    return rooms
