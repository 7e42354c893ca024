"""Keyword-only option dataclasses built from TOML tables, with validation.

Algorithms, domains and the video section all describe their options the same way: a frozen,
keyword-only dataclass whose fields are declared with :func:`option`. :func:`build_options`
turns a TOML table into such a dataclass, and every problem becomes an :class:`OptionError`
naming the key and what is allowed::

    @dataclass(frozen=True, kw_only=True)
    class BeamOptions:
        width: int = option(10, doc="Nodes kept on each level.", minimum=1)
        value: str | None = option(None, doc="Value function that ranks a level.")

    build_options(BeamOptions, {"width": 0})  # OptionError("width", "must be >= 1, got 0")

Supported field types: ``bool``, ``int``, ``float`` (ints accepted), ``str``, ``Literal[...]``,
``X | None``, ``tuple[X, ...]`` (from TOML arrays, nested allowed) and ``Mapping[str, Any]``
(a TOML table, passed through as nested dicts). Floats must be finite: TOML can write ``nan``
and ``inf``, which no option accepts. A dataclass may raise :class:`OptionError`
from ``__post_init__`` for checks across fields; its key is kept.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from searchvid.errors import OptionError

T = TypeVar("T")

_NO_DEFAULT: Any = dataclasses.MISSING


def option(
    default: Any = _NO_DEFAULT,
    *,
    doc: str,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: tuple[Any, ...] | None = None,
) -> Any:
    """Declare an option field.

    Args:
        default: The default value; omit for a required option. A dict or list default is
            handed out through a factory (callers must not mutate it).
        doc: One line for the scene reference.
        minimum: Smallest allowed number (inclusive).
        maximum: Largest allowed number (inclusive).
        choices: Allowed values where the type alone does not say (prefer ``Literal``).
    """
    metadata = {"doc": doc, "minimum": minimum, "maximum": maximum, "choices": choices}
    if isinstance(default, dict | list):  # mutable: hand out the same value via a factory
        return dataclasses.field(default_factory=lambda: default, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def option_docs(cls: type[Any]) -> list[tuple[str, str, Any]]:
    """Return ``(name, doc, default)`` for each option of an options dataclass."""
    result = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None
        result.append((f.name, str(f.metadata.get("doc", "")), default))
    return result


def build_options(cls: type[T], table: Mapping[str, Any], *, ignore: tuple[str, ...] = ()) -> T:
    """Build the options dataclass ``cls`` from a TOML table.

    Args:
        cls: A dataclass whose fields were declared with :func:`option`.
        table: The table read from TOML.
        ignore: Keys of ``table`` that belong to the caller (such as ``name``), not to ``cls``.

    Raises:
        OptionError: For an unknown key (listing the allowed ones), a missing required key,
            a value of the wrong type, or one out of range.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    for key in table:
        if key not in fields and key not in ignore:
            allowed = ", ".join(sorted(fields)) or "none"
            raise OptionError(key, f"unknown key; allowed keys: {allowed}")
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name in table:
            value = _convert(name, hints[name], table[name])
            _check_range(name, value, f.metadata)
            values[name] = value
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise OptionError(name, "is required")
    return cls(**values)


def check_bounds(options: Any) -> None:
    """Check an options dataclass built in Python against its fields' declared minimum,
    maximum and choices, as :func:`build_options` checks a TOML table's values.

    ``Domain`` and ``Algorithm`` call it on the options they are given, so that
    ``Connect4(Connect4Options(rows=3))`` is refused like ``rows = 3`` in a scene.

    Raises:
        OptionError: The first field out of range, naming it and what is allowed.
    """
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        return
    for f in dataclasses.fields(options):
        _check_range(f.name, getattr(options, f.name), f.metadata)


def describe_type(tp: Any) -> str:
    """A short, user-facing description of an option type (``"an integer"``...)."""
    origin = get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        parts = [describe_type(a) for a in get_args(tp) if a is not type(None)]
        return " or ".join(parts)
    if origin is tuple:
        return "a list"
    if origin in (Mapping, dict) or tp in (Mapping, dict):
        return "a table"
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    return names.get(tp, getattr(tp, "__name__", str(tp)))


def _toml_type(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    return names.get(type(value), type(value).__name__)


def _convert(key: str, tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return value
    if origin in (Union, types.UnionType):
        candidates = [arg for arg in get_args(tp) if arg is not type(None)]
        if len(candidates) == 1:  # ``X | None``: X's own error says the most
            return _convert(key, candidates[0], value)
        for arg in candidates:
            try:
                return _convert(key, arg, value)
            except OptionError:
                continue
        raise OptionError(key, f"must be {describe_type(tp)}, got {_toml_type(value)}")
    if origin is Literal:
        allowed = get_args(tp)
        if value in allowed and type(value) in {type(a) for a in allowed}:
            return value
        listed = ", ".join(str(a) for a in allowed)
        raise OptionError(key, f"must be one of: {listed}; got {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise OptionError(key, f"must be a list, got {_toml_type(value)}")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(f"{key}[{i}]", args[0], v) for i, v in enumerate(value))
        if len(args) != len(value):
            raise OptionError(key, f"must be a list of {len(args)} items, got {len(value)}")
        pairs = enumerate(zip(args, value, strict=True))
        return tuple(_convert(f"{key}[{i}]", a, v) for i, (a, v) in pairs)
    if origin in (Mapping, dict) or tp in (Mapping, dict):
        if not isinstance(value, Mapping):
            raise OptionError(key, f"must be a table, got {_toml_type(value)}")
        return value
    return _convert_scalar(key, tp, value)


def _convert_scalar(key: str, tp: Any, value: Any) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _finite(key, value)
    elif tp is str:
        if isinstance(value, str):
            return value
    else:
        raise TypeError(f"option {key!r} has an unsupported type {tp!r}")
    raise OptionError(key, f"must be {describe_type(tp)}, got {_toml_type(value)} {value!r}")


_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


def _finite(key: str, value: int | float) -> float:
    """``value`` as a float, refusing what TOML allows but no option can use: nan, ±inf."""
    try:
        number = float(value)
    except OverflowError:
        raise OptionError(key, "must be a finite number, got an integer beyond its range") from None
    if not math.isfinite(number):
        raise OptionError(key, f"must be a finite number, got {number}")
    return number


def _bound(number: Any) -> str:
    return f"{number:g}" if isinstance(number, float) else str(number)


def _check_range(key: str, value: Any, metadata: Mapping[str, Any]) -> None:
    choices = metadata.get("choices")
    if choices is not None and value not in choices:
        listed = ", ".join(str(c) for c in choices)
        raise OptionError(key, f"must be one of: {listed}; got {value!r}")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    low, high = metadata.get("minimum"), metadata.get("maximum")
    if isinstance(value, int) and not _INT_MIN <= value <= _INT_MAX:
        # TOML's own range, which is also what counters such as islice's stop can take.
        low = _INT_MIN if low is None else low
        high = _INT_MAX if high is None else high
    if (low is None or value >= low) and (high is None or value <= high):
        return
    if low is not None and high is not None:
        raise OptionError(key, f"must be from {_bound(low)} to {_bound(high)}, got {value}")
    if low is not None:
        raise OptionError(key, f"must be >= {_bound(low)}, got {value}")
    raise OptionError(key, f"must be <= {_bound(high)}, got {value}")
