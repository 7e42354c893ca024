"""At the end of a game the strip shows the score sheet, and its parts add up."""

from __future__ import annotations

import random

from searchvid.domains import make_domain
from searchvid.domains.railroad.network import game_score
from searchvid.search.node import random_child


def test_the_last_frames_strip_lists_the_score_sheet() -> None:
    domain = make_domain("railroad", {"rules": "game"})
    node = domain.root()
    rng = random.Random(11)
    while (child := random_child(node, rng)) is not None:
        node = child
    fields = {f.name: f.value for f in domain.status(node)}
    assert fields[""] == "game over"
    score = game_score(node.cells)
    assert fields["points"] == score.total
    parts = (
        fields["exit points"]
        + fields["road"]
        + fields["rail"]
        + fields["centre"]
        + fields["errors"]
    )
    assert parts == score.total
    assert fields["errors"] == -score.errors
    middle = domain.root()
    assert "exit points" not in {f.name for f in domain.status(middle)}
