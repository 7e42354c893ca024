"""The status strips of a shipped scene, frame by frame, for tests that pin their words."""

from __future__ import annotations

import searchvid
from searchvid.render.hud import HudText
from searchvid.search.events import Event


def strips(name: str, column: int = 0, *, gaps: bool = False) -> list[tuple[Event, HudText]]:
    """Each video frame's event and strip of column ``column`` of the shipped scene ``name``.

    Every frame has one unless ``gaps`` (a race's column that has ended shows none: those
    frames are left out); without it, a frame with none fails the test."""
    out = []
    for shown in searchvid.load_scene(name).strip_texts():
        item = shown[column]
        if item is None and gaps:
            continue
        assert item is not None
        out.append(item)
    return out


def texts(text: HudText) -> list[str]:
    """The strip's fields as they read on screen."""
    return [f.text() for f in text.fields]
