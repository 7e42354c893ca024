"""The option builder: TOML tables into validated, keyword-only dataclasses."""

from __future__ import annotations

import dataclasses
import math
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from searchvid.domains import domain_class, domain_names
from searchvid.errors import OptionError
from searchvid.options import build_options, describe_type, option, option_docs
from searchvid.render.settings import VideoOptions
from searchvid.search.algorithm import algorithm_class, algorithm_names
from searchvid.search.algorithms.mcts import MctsOptions


@dataclass(frozen=True, kw_only=True)
class Sample:
    width: int = option(3, doc="Beam width.", minimum=1, maximum=100)
    rate: float = option(0.5, doc="A rate.", minimum=0, maximum=1)
    name: str | None = option(None, doc="Optional name.")
    mode: Literal["search", "plan"] = option("search", doc="Mode.")
    flag: bool = option(False, doc="A flag.")
    tubes: tuple[tuple[int, ...], ...] = option(((1, 2), ()), doc="Nested lists.")
    table: Mapping[str, Any] = option({"a": {}}, doc="A table.")
    scale: float = option(1.0, doc="A number with a minimum only.", minimum=0.5)
    factor: float = option(1.0, doc="A number with a maximum only.", maximum=2.5)
    free: float = option(0.0, doc="A number without bounds.")
    pair: tuple[float, ...] = option((), doc="Numbers in a list.")
    either: float | None = option(None, doc="A number or nothing.")

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
        (
            {"widht": 3},
            "widht",
            "unknown key; allowed keys: either, factor, flag, free, mode, name, pair, rate, "
            "scale, table, tubes",
        ),
        ({"width": "3"}, "width", "must be an integer, got a string '3'"),
        ({"width": True}, "width", "must be an integer, got a boolean True"),
        ({"width": 2.5}, "width", "must be an integer"),
        ({"width": 0}, "width", "must be from 1 to 100, got 0"),
        ({"width": 101}, "width", "must be from 1 to 100, got 101"),
        ({"rate": 1.5}, "rate", "must be from 0 to 1, got 1.5"),
        ({"scale": -1}, "scale", "must be >= 0.5, got -1.0"),
        ({"factor": 7}, "factor", "must be <= 2.5, got 7.0"),
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


@pytest.mark.parametrize("key", ["rate", "scale", "factor", "free", "either"])
@pytest.mark.parametrize(
    ("value", "shown"),
    [(math.nan, "nan"), (-math.nan, "nan"), (math.inf, "inf"), (-math.inf, "-inf")],
)
def test_float_options_must_be_finite(key: str, value: float, shown: str) -> None:
    with pytest.raises(OptionError) as info:
        build_options(Sample, {key: value})
    assert info.value.key == key
    assert info.value.message.startswith(f"must be a finite number, got {shown}")


def test_non_finite_numbers_in_lists_name_their_item() -> None:
    with pytest.raises(OptionError) as info:
        build_options(Sample, {"pair": [1.0, math.nan]})
    assert info.value.key == "pair[1]"
    assert info.value.message == "must be a finite number, got nan"


def test_integers_beyond_the_float_range_are_refused() -> None:
    with pytest.raises(OptionError) as info:
        build_options(Sample, {"free": 10**400})
    assert info.value.key == "free"
    assert info.value.message == "must be a finite number, got an integer beyond its range"
    assert build_options(Sample, {"free": 10**300}).free == 1e300


def test_finite_numbers_from_toml() -> None:
    table = tomllib.loads("free = -1e300\nrate = 1\nscale = 0.5\nfactor = 2.5\n")
    built = build_options(Sample, table)
    assert (built.free, built.rate, built.scale, built.factor) == (-1e300, 1.0, 0.5, 2.5)
    with pytest.raises(OptionError, match="free: must be a finite number, got nan"):
        build_options(Sample, tomllib.loads("free = nan"))
    with pytest.raises(OptionError, match="free: must be a finite number, got -inf"):
        build_options(Sample, tomllib.loads("free = -inf"))
    with pytest.raises(OptionError, match="free: must be a finite number, got inf"):
        build_options(Sample, tomllib.loads("free = 1e400"))  # TOML reads it as inf


@pytest.mark.parametrize(
    ("table", "key", "message"),
    [
        ({"hold_last": math.nan}, "hold_last", "must be a finite number, got nan"),
        ({"hold_last": math.inf}, "hold_last", "must be a finite number, got inf"),
        ({"hold_last": 1e7}, "hold_last", "must be from 0 to 60, got 10000000.0"),
        ({"hold_last": 61}, "hold_last", "must be from 0 to 60, got 61.0"),
        ({"hold_moves": -math.inf}, "hold_moves", "must be a finite number, got -inf"),
        ({"hold_moves": 3600}, "hold_moves", "must be from 0 to 10, got 3600.0"),
    ],
)
def test_video_holds_are_finite_and_bounded(table: dict[str, Any], key: str, message: str) -> None:
    with pytest.raises(OptionError) as info:
        build_options(VideoOptions, table)
    assert (info.value.key, info.value.message) == (key, message)
    assert build_options(VideoOptions, {key: 0}) is not None


def test_video_holds_accept_their_range() -> None:
    built = build_options(VideoOptions, {"hold_last": 60, "hold_moves": 10})
    assert (built.hold_last, built.hold_moves) == (60.0, 10.0)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "must be a finite number, got nan"),
        (math.inf, "must be a finite number, got inf"),
        (1e9, "must be from 0 to 100, got 1000000000.0"),
        (-0.1, "must be from 0 to 100, got -0.1"),
    ],
)
def test_mcts_exploration_is_finite_and_bounded(value: float, message: str) -> None:
    with pytest.raises(OptionError) as info:
        build_options(MctsOptions, {"exploration": value})
    assert (info.value.key, info.value.message) == ("exploration", message)
    assert build_options(MctsOptions, {"exploration": 100}).exploration == 100.0


def test_every_registered_float_option_is_finite_and_bounded() -> None:
    """Each float option of every algorithm, domain and [video] refuses nan and has a maximum."""
    classes: list[type[Any]] = [VideoOptions]
    classes += [algorithm_class(name).options_type for name in algorithm_names()]
    classes += [domain_class(name).options_type for name in domain_names()]
    checked = []
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if hints[f.name] not in (float, float | None):
                continue
            checked.append(f"{cls.__name__}.{f.name}")
            assert f.metadata["maximum"] is not None, f"{cls.__name__}.{f.name} has no maximum"
            assert f.metadata["minimum"] is not None, f"{cls.__name__}.{f.name} has no minimum"
            with pytest.raises(OptionError, match="must be a finite number, got nan"):
                build_options(cls, {f.name: math.nan})
    assert "VideoOptions.hold_last" in checked
    assert "MctsOptions.exploration" in checked


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
