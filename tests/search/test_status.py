"""One number format for every field of the status strip."""

from __future__ import annotations

import pytest

from searchvid.search.status import Field, format_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "-"),
        (3, "3"),
        (3.0, "3"),
        (1234567, "1,234,567"),
        (-39, "-39"),
        (0.8125, "0.812"),
        (2 / 3, "0.667"),
        (12.345, "12.3"),
        (123456.789, "123,457"),
        (float("inf"), "inf"),
        (float("nan"), "-"),
        (True, "yes"),
    ],
)
def test_format_number(value: float | None, text: str) -> None:
    assert format_number(value) == text


def test_field_texts() -> None:
    assert Field("exits joined", 7, of=12).text() == "exits joined 7/12"
    assert Field("win rate", 0.532, percent=True).text() == "win rate 53%"
    assert Field("to move", "X", prefix=True).text() == "X to move"
    assert Field("time", 2.5, unit="s").text() == "time 2.5 s"
    assert Field("value", "draw").text() == "value draw"
    assert Field("", 5).text() == "5"
