"""``searchvid domains`` and ``searchvid algorithms`` print every default as valid TOML, the
value the option really has (issue 23, item 7)."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

import searchvid.reference as reference
from searchvid.domains import Domain, domain_class, domain_names
from searchvid.options import option
from searchvid.reference import format_algorithms, format_domains
from searchvid.render.view import View
from searchvid.search.algorithm import algorithm_class, algorithm_names

WIDTHS = (60, 120)  # a narrow terminal stacks the table; a wide one has four columns


def printed_defaults(text: str) -> dict[str, str]:
    """Each option's default as printed for one entry: the table's default cell, or, for
    ``(see below)``, the ``key = value`` line under the table (its value part)."""
    lines = text.splitlines()
    (rule,) = [i for i, line in enumerate(lines) if re.fullmatch(r"  -+(  -+)+", line)]
    spans = [m.span() for m in re.finditer(r"-+", lines[rule])]
    assert lines[rule - 1][spans[2][0] :].startswith("default")
    defaults: dict[str, str] = {}
    for line in lines[rule + 1 :]:
        if not line.strip():
            break
        if line[spans[0][0]] == " ":  # a continuation, or a meaning under its key
            continue
        key = line[spans[0][0] : spans[0][1]].strip()
        defaults[key] = line[spans[2][0] : spans[2][1] + 1].strip()
    for i, line in enumerate(lines):
        below = re.fullmatch(r"  Default of (\w+):", line)
        if below:
            key = below.group(1)
            assert defaults[key] == "(see below)"
            written = lines[i + 1].strip()
            assert written.startswith(f"{key} = ")
            defaults[key] = written.removeprefix(f"{key} = ")
    return defaults


def plain(value: Any) -> Any:
    """``value`` as tomllib gives it back: tuples as lists, mappings as dicts."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def assert_defaults_are_toml(options_type: type[Any], text: str) -> None:
    printed = printed_defaults(text)
    fields = dataclasses.fields(options_type)
    assert sorted(printed) == sorted(f.name for f in fields)
    for field in fields:
        shown = printed[field.name]
        if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            assert shown == "required"
            continue
        default: Any = field.default
        if default is dataclasses.MISSING:
            factory: Any = field.default_factory
            default = factory()
        if default is None:  # TOML has no null: the key is left out of the scene
            assert shown == "(none)"
            continue
        parsed = tomllib.loads(f"{field.name} = {shown}")[field.name]
        assert parsed == plain(default), f"{field.name}: printed {shown}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", domain_names())
def test_every_domain_default_is_printed_as_toml(name: str, width: int) -> None:
    assert_defaults_are_toml(domain_class(name).options_type, format_domains([name], width=width))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", algorithm_names())
def test_every_algorithm_default_is_printed_as_toml(name: str, width: int) -> None:
    cls = algorithm_class(name)
    assert_defaults_are_toml(cls.options_type, format_algorithms([name], width=width))


def test_the_long_defaults_of_water_sort_and_the_tree_are_one_toml_line_each() -> None:
    for name, key in (("watersort", "tubes"), ("tree", "children")):
        text = format_domains([name], width=60)
        assert f"  Default of {key}:" in text
        (line,) = [x for x in text.splitlines() if x.startswith(f"    {key} = ")]
        assert tomllib.loads(line.strip())[key]


@dataclass(frozen=True, kw_only=True)
class _AwkwardOptions:
    motto: str = option('say "hi"\\now', doc="A string with a quote and a backslash.")
    lines: str = option("two\nlines", doc="A string with a line break.")
    primes: tuple[int, ...] = option((2, 3, 5, 7, 11, 13, 17), doc="Too wide for its column.")
    tree: Mapping[str, Any] = option(
        {'a "quoted" name': {}, "b c": {"d": {}}}, doc="Keys that need quoting."
    )
    ratio: float = option(0.25, doc="A float.")
    fast: bool = option(True, doc="A flag.")
    hint: str | None = option(None, doc="No default value.")


class _AwkwardDomain(Domain):
    """A domain whose defaults need TOML's escapes and quoting."""

    name = "awkward"
    summary = "Defaults that are hard to print."
    options_type = _AwkwardOptions

    def root(self) -> Any:
        return None

    def view(self) -> View:
        raise NotImplementedError


@pytest.mark.parametrize("width", WIDTHS)
def test_quotes_backslashes_line_breaks_and_odd_keys_stay_valid_toml(
    monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    monkeypatch.setattr(reference, "domain_names", lambda: ["awkward"])
    monkeypatch.setattr(reference, "domain_class", lambda name, **_: _AwkwardDomain)
    text = format_domains(["awkward"], width=width)
    assert_defaults_are_toml(_AwkwardOptions, text)
    printed = printed_defaults(text)
    assert printed["primes"] == "[2, 3, 5, 7, 11, 13, 17]"  # whole, below the table
    assert printed["motto"] == '"say \\"hi\\"\\\\now"'
    assert printed["lines"] == '"two\\nlines"'
