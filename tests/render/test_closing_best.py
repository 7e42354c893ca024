"""The closing card shows the search's result: a search that reports a best and ends
elsewhere (random walks with restarts) closes on the best board, the same pixels as the
frame that first showed it, with a strip that says it is the best and where it was found."""

from __future__ import annotations

import numpy as np

import searchvid
from searchvid.render.pipeline import drawn_frames, frame_painter, render_frame

WALKS = {
    "title": "Random walks",
    "seed": 7,
    "domain": {"name": "railroad"},
    "search": {"algorithm": "random-walk", "restarts": 6},
    "video": {"fps": 10, "tile_size": 20, "frames": "all"},
}


def _walks() -> searchvid.Scene:
    return searchvid.scene_from_dict(WALKS, name="walks")


def test_the_closing_frame_shows_the_best_board_of_the_walks() -> None:
    scene = _walks()
    sources, jobs = scene.sources(), scene.render_jobs()
    texts = list(scene.strip_texts())
    last = texts[-1][0]
    assert last is not None
    event, text = last
    # the frame that first showed the best: its strip names it the new best
    first = next(
        i for i, shown in enumerate(texts) if shown[0] is not None and shown[0][0] is event
    )
    assert first < len(texts) - 1
    wanted = {first, len(texts) - 1}
    frames = {i: f.copy() for i, f in drawn_frames(sources, jobs, wanted.__contains__)}
    strip_top = frame_painter(sources, jobs).layout.columns[0].strip_top
    best, closing = frames[first], frames[len(texts) - 1]
    assert np.array_equal(best[:strip_top], closing[:strip_top])  # the board, pixel for pixel
    assert not np.array_equal(best[strip_top:], closing[strip_top:])  # the strip is the card's
    # the strip: the best frame's own fields, and a phase saying it is the best of the walks
    shown = texts[first][0]
    assert shown is not None
    # the board's own step, depth and domain fields; the algorithm's are the whole search's
    # (here only the walk counter, which the phase names instead: walk 6/6)
    walk = next(f for f in shown[1].fields if f.name == "walk")
    own = [f for f in shown[1].fields if f is not walk]
    # its step, earlier than the last frame's, is named as the step it was found at
    assert own[0].text() == f"step {event.step:,}"
    assert text.fields[0].text() == f"found at step {event.step:,}"

    # the rest as on that frame (the "name:" verdicts on the value aside: the card's is the
    # search's best, the frame's its own position)
    def plain(fields: tuple[searchvid.Field, ...] | list[searchvid.Field]) -> list[str]:
        return [f.text() for f in fields if not f.name.endswith(":")]

    assert plain(text.fields[1:]) == plain(own[1:])
    previous = texts[-2][0]
    assert previous is not None
    assert previous[0].step > event.step
    assert walk.of == 6
    assert isinstance(walk.value, int)
    assert walk.value < 6
    words = scene.domain.describe_end(event.node)
    assert words is not None
    assert words.startswith("all 12 exits joined")
    assert text.phase == f"best of 6 walks: {words}, walk {walk.value}"
    # the last walk ended elsewhere: without the closing card, the last frame is its board
    data = {**WALKS, "video": {**WALKS["video"], "closing": 0}}
    plain = list(searchvid.scene_from_dict(data, name="plain").strip_texts())[-1][0]
    assert plain is not None
    assert plain[0] is not event
    assert plain[1].phase.startswith("stuck with")
    # the last frame counted from the end, replayable or read once (recent frames kept)
    assert np.array_equal(render_frame(sources[0], jobs[0], -1), closing)
    once = scene.events(0, framed=True)
    assert np.array_equal(render_frame(once, scene.render_job(), -1), closing)
