"""The option builder: TOML tables into validated, keyword-only dataclasses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from searchvid.errors import OptionError
from searchvid.options import build_options, describe_type, option, option_docs


@dataclass(frozen=True, kw_only=True)
class Sample:
    width: int = option(3, doc="Beam width.", minimum=1, maximum=100)
    rate: float = option(0.5, doc="A rate.", minimum=0, maximum=1)
    name: str | None = option(None, doc="Optional name.")
    mode: Literal["search", "plan"] = option("search", doc="Mode.")
    flag: bool = option(False, doc="A flag.")
    tubes: tuple[tuple[int, ...], ...] = option(((1, 2), ()), doc="Nested lists.")
    table: Mapping[str, Any] = option({"a": {}}, doc="A table.")

    def __post_init__(self) -> None:
        if self.name == "bad":
            raise OptionError("name", "must not be 'bad'")


@dataclass(frozen=True, kw_only=True)
class Required:
    size: int = option(doc="Required size.")


def test_defaults_when_table_is_empty() -> None:
    built = build_options(Sample, {})
    assert built == Sample()
    assert built.table == {"a": {}}


def test_values_are_converted() -> None:
    built = build_options(
        Sample,
        {"width": 7, "rate": 1, "mode": "plan", "flag": True, "tubes": [[3], [4, 5]], "name": "x"},
    )
    assert built.width == 7
    assert built.rate == 1.0
    assert isinstance(built.rate, float)
    assert built.mode == "plan"
    assert built.flag is True
    assert built.tubes == ((3,), (4, 5))
    assert built.name == "x"


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"widht": 3}, "widht", "unknown key; allowed keys: flag, mode, name, rate, table, tubes"),
        ({"width": "3"}, "width", "must be an integer, got a string '3'"),
        ({"width": True}, "width", "must be an integer, got a boolean True"),
        ({"width": 2.5}, "width", "must be an integer"),
        ({"width": 0}, "width", "must be >= 1, got 0"),
        ({"width": 101}, "width", "must be <= 100, got 101"),
        ({"rate": 1.5}, "rate", "must be <= 1, got 1.5"),
        ({"mode": "fast"}, "mode", "must be one of: search, plan; got 'fast'"),
        ({"flag": "yes"}, "flag", "must be true or false"),
        ({"tubes": 3}, "tubes", "must be a list, got an integer"),
        ({"tubes": [[1], ["x"]]}, "tubes[1][0]", "must be an integer"),
        ({"table": [1]}, "table", "must be a table, got a list"),
        ({"name": 3}, "name", "must be a string, got an integer"),
        ({"name": "bad"}, "name", "must not be 'bad'"),
    ],
)
def test_errors_name_the_key_and_what_is_allowed(
    table: dict[str, Any], key: str, fragment: str
) -> None:
    with pytest.raises(OptionError) as info:
        build_options(Sample, table)
    assert info.value.key == key
    assert fragment in info.value.message


def test_required_option_and_ignored_keys() -> None:
    with pytest.raises(OptionError, match="size: is required"):
        build_options(Required, {})
    assert build_options(Required, {"size": 3, "name": "x"}, ignore=("name",)).size == 3


def test_error_within_section_prefixes_the_key() -> None:
    error = OptionError("width", "must be >= 1, got 0").within("search")
    assert error.key == "search.width"
    assert str(error) == "search.width: must be >= 1, got 0"


def test_docs_and_type_descriptions() -> None:
    docs = {name: (doc, default) for name, doc, default in option_docs(Sample)}
    assert docs["width"] == ("Beam width.", 3)
    assert docs["table"] == ("A table.", {"a": {}})
    assert describe_type(Literal["a", "b"]) == "one of 'a', 'b'"
    assert describe_type(int | None) == "an integer"


@given(st.integers(min_value=1, max_value=100), st.sampled_from(["search", "plan"]))
def test_valid_tables_round_trip(width: int, mode: str) -> None:
    built = build_options(Sample, {"width": width, "mode": mode})
    assert (built.width, built.mode) == (width, mode)
