"""Water Sort in words: the status strip's fields, pour captions and values.

A caption's tube numbers must be the columns the picture shows: the tube poured from is the
column whose rim shows the outgoing arrow and which lost liquid, the tube poured into is the
one with the incoming arrow which gained it.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest

from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.watersort import WaterSortDomain, WaterState
from searchvid.domains.watersort.art import tile_names

NAMES = tile_names()
POUR = re.compile(r"pour tube (\d+) into tube (\d+)")


def _domain(table: dict[str, Any] | None = None) -> WaterSortDomain:
    domain = make_domain("watersort", table or {})
    assert isinstance(domain, WaterSortDomain)
    return domain


def _texts(domain: WaterSortDomain, node: WaterState) -> list[str]:
    return [field.text() for field in domain.status(node)]


def test_status_counts_pours_and_tubes_done_of_one_per_colour() -> None:
    domain = _domain()  # seed 004: 12 colours in 14 tubes
    root = domain.root()
    assert _texts(domain, root) == ["pours 0", "tubes done 0/12"]
    small = _domain({"tubes": [[1, 1, 1], [2, 2, 2, 2], [1]]})
    node = small.root()
    assert _texts(small, node) == ["pours 0", "tubes done 1/2"]
    solved = node.after((2, 0))
    assert _texts(small, solved) == ["pours 1", "tubes done 2/2"]


def test_status_pours_follow_the_path() -> None:
    domain = _domain()
    rng = random.Random(4)
    node = domain.root()
    for pours in range(1, 11):
        child = node.random_child(rng)
        assert child is not None
        node = child
        assert _texts(domain, node)[0] == f"pours {pours}"
        done = sum(1 for t in node.tubes if len(t) == 4 and len(set(t)) == 1)
        assert _texts(domain, node)[1] == f"tubes done {done}/12"


def test_a_pour_is_numbered_from_one_left_to_right() -> None:
    domain = _domain({"tubes": [[1, 2], [2, 1], []], "capacity": 2})
    root = domain.root()
    assert domain.describe_move(root, root.after((0, 2))) == "pour tube 1 into tube 3"
    assert domain.describe_move(root, root.after((1, 2))) == "pour tube 2 into tube 3"
    after = root.after((0, 2))
    assert domain.describe_move(after, after.after((1, 0))) == "pour tube 2 into tube 1"


def test_what_is_not_one_pour_has_no_words() -> None:
    domain = _domain({"tubes": [[1, 2], [2, 1], []], "capacity": 2})
    root = domain.root()
    one = root.after((0, 2))
    assert domain.describe_move(root, root) is None  # the root records no pour
    assert domain.describe_move(one, one) is None  # the same state again
    assert domain.describe_move(root, one.after((1, 2))) is None  # two pours
    other = WaterState.from_lists([[1], [2, 1], [2]], 2)
    assert domain.describe_move(other, one) is None  # a pour from another state


@pytest.mark.parametrize("seed", range(3))
def test_captions_name_the_tubes_the_picture_marks(seed: int) -> None:
    domain = _domain()
    view = domain.view()
    rng = random.Random(seed)
    node = domain.root()
    for _ in range(25):
        before = view.grid(node)
        for child in node.children():
            text = domain.describe_move(node, child)
            assert text is not None
            match = POUR.fullmatch(text)
            assert match, text
            source, target = int(match[1]) - 1, int(match[2]) - 1
            after = view.grid(child)
            assert NAMES[after[0, source]] == "rim-source"
            assert NAMES[after[0, target]] == "rim-target"
            empty = [NAMES.index("empty"), NAMES.index("empty-lit")]
            filled = np.isin(after[1:-1], empty, invert=True).sum(axis=0)
            was = np.isin(before[1:-1], empty, invert=True).sum(axis=0)
            assert filled[source] < was[source]
            assert filled[target] > was[target]
            others = [i for i in range(len(node.tubes)) if i not in (source, target)]
            assert np.array_equal(filled[others], was[others])
        picked = node.random_child(rng)
        if picked is None:
            break
        node = picked


def test_only_solved_has_words_for_its_value() -> None:
    domain = _domain()
    assert domain.describe_value(1.0) == "solved"
    for value in (0.0, 0.5, 0.75, 11 / 12):
        assert domain.describe_value(value) is None


def test_the_domain_still_passes_the_conformance_checks() -> None:
    assert check_domain(_domain()) == []
