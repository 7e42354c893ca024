"""A tree panel's label too wide for its column keeps the part that differs from its
parent's label (issue 20 item 6): siblings share their parent's start, so a label cut at
its end ("XOX/XOO/…") reads the same for every one of them."""

from __future__ import annotations

from searchvid.render.treeitems import distinct_cut


def chars(text: str) -> int:
    """One pixel per character: widths are easy to follow."""
    return len(text)


def test_a_cut_label_keeps_where_it_differs_from_its_parent() -> None:
    parent = "XOX/XOO/... X:b2"
    # both children differ from it at the third row: each keeps its own tail
    assert distinct_cut("XOX/XOO/X.. O:a3", parent, 10, chars) == "…/X.. O:a3"
    assert distinct_cut("XOX/XOO/.X. O:b3", parent, 10, chars) == "…/.X. O:b3"
    # room to spare: the tail starts as early as it fits, never after the difference
    assert distinct_cut("XOX/XOO/X.. O:a3", parent, 15, chars) == "…X/XOO/X.. O:a3"


def test_a_tail_too_wide_is_cut_at_its_end_too() -> None:
    assert distinct_cut("ABCDEFGHIJ", "ABCxyz", 5, chars) == "…DEF…"


def test_a_label_with_no_shared_start_or_no_difference_is_cut_at_its_end() -> None:
    assert distinct_cut("Monte Carlo", "Root", 6, chars) == "Monte…"
    assert distinct_cut("Root", "Root and more", 3, chars) == "Ro…"
    assert distinct_cut("anything", "", 4, chars) == "any…"
