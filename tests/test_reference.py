"""The reference of domains and algorithms: every registered one listed, broken plugins shown."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import searchvid.reference as reference
from searchvid.domains import Domain, domain_class, domain_names
from searchvid.errors import OptionError, UsageError
from searchvid.options import option
from searchvid.reference import (
    AlgorithmEntry,
    DomainEntry,
    algorithm_entries,
    domain_entries,
    format_algorithms,
    format_domains,
    scene_reference,
)
from searchvid.render.view import View
from searchvid.search.algorithm import algorithm_class, algorithm_names

WIDE = 1000  # no wrapping: summaries and meanings stay on one line


def _option_lines(text: str, key: str) -> list[str]:
    return re.findall(rf"^  {re.escape(key)}  .*$", text, flags=re.MULTILINE)


@pytest.mark.parametrize("name", domain_names())
def test_format_domains_shows_each_domain_with_its_summary_and_options(name: str) -> None:
    cls = domain_class(name)
    text = format_domains([name], width=WIDE)
    assert text.splitlines()[0].split(" (also ")[0] == name
    assert cls.summary in text
    for alias in cls.aliases:
        assert alias in text.splitlines()[0]
    for field in dataclasses.fields(cls.options_type):
        assert _option_lines(text, field.name), f"{name}: no row for option {field.name!r}"


@pytest.mark.parametrize("name", algorithm_names())
def test_format_algorithms_shows_each_algorithm_with_its_summary_and_options(name: str) -> None:
    cls = algorithm_class(name)
    text = format_algorithms([name], width=WIDE)
    assert text.splitlines()[0].split(" (also ")[0] == name
    assert cls.summary in text
    for alias in cls.aliases:
        assert alias in text.splitlines()[0]
    for field in dataclasses.fields(cls.options_type):
        assert _option_lines(text, field.name), f"{name}: no row for option {field.name!r}"


def test_all_names_are_listed_in_order_without_names() -> None:
    for text, names in (
        (format_domains(width=WIDE), domain_names()),
        (format_algorithms(width=WIDE), algorithm_names()),
    ):
        firsts = [line.split(" (also ")[0] for line in text.splitlines() if re.match(r"\S", line)]
        assert firsts[: len(names)] == names


def test_entries_follow_the_registry() -> None:
    assert [e.name for e in domain_entries()] == domain_names()
    assert [e.name for e in algorithm_entries()] == algorithm_names()
    assert all(e.error is None for e in [*domain_entries(), *algorithm_entries()])


def test_an_alias_selects_its_entry_once() -> None:
    name = next(n for n in domain_names() if domain_class(n).aliases)
    alias = domain_class(name).aliases[0]
    assert format_domains([alias, name], width=WIDE) == format_domains([name], width=WIDE)


@pytest.mark.parametrize(
    ("formatter", "kind", "known"),
    [(format_domains, "domain", domain_names), (format_algorithms, "algorithm", algorithm_names)],
)
def test_an_unknown_name_is_a_usage_error_naming_the_known_ones(
    formatter: Any, kind: str, known: Any
) -> None:
    with pytest.raises(UsageError, match=f"unknown {kind} 'nope'") as info:
        formatter(["nope"])
    assert ", ".join(known()) in str(info.value)


@pytest.mark.parametrize("width", [60, 80, 100])
def test_lines_fit_the_width(width: int) -> None:
    for text in (format_domains(width=width), format_algorithms(width=width)):
        lines = text.splitlines()
        toml = {i + 1 for i, line in enumerate(lines) if line.startswith("  Default of ")}
        too_long = [line for i, line in enumerate(lines) if len(line) > width and i not in toml]
        assert not too_long


def _broken(broken: str) -> Any:
    def resolve(name: str, **_: Any) -> type[Domain]:
        if name == broken:
            raise ImportError("no module named 'ghost_rules'")
        return domain_class(name)

    return resolve


def test_a_domain_that_cannot_be_imported_does_not_break_the_listing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken, *others = domain_names()
    monkeypatch.setattr(reference, "domain_class", _broken(broken))
    text = format_domains(width=WIDE)
    assert f"{broken}: cannot be loaded: ImportError: no module named 'ghost_rules'" in text
    for name in others:
        assert domain_class(name).summary in text
    entry = domain_entries()[0]
    assert entry.name == broken
    assert entry.error is not None
    assert "#### `" + broken + "`\n\nCannot be loaded: ImportError" in scene_reference()


def test_a_registered_name_that_does_not_resolve_is_shown_as_broken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reference, "domain_names", lambda: [*domain_names(), "ghost"])
    text = format_domains(["ghost", domain_names()[0]], width=WIDE)
    assert text.startswith("ghost: cannot be loaded: unknown domain 'ghost'")
    assert domain_class(domain_names()[0]).summary in text


def test_a_broken_algorithm_does_not_break_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = algorithm_names()[-1]

    def resolve(name: str, **_: Any) -> Any:
        if name == broken:
            raise OptionError("algorithm", f"cannot load algorithm {name!r}: boom")
        return algorithm_class(name)

    monkeypatch.setattr(reference, "algorithm_class", resolve)
    entries = algorithm_entries()
    assert [e.error for e in entries if e.error] == [f"cannot load algorithm {broken!r}: boom"]
    text = format_algorithms(width=WIDE)
    assert f"{broken}: cannot be loaded: cannot load algorithm {broken!r}: boom" in text
    for name in algorithm_names()[:-1]:
        assert algorithm_class(name).summary in text


@dataclass(frozen=True, kw_only=True)
class _NeedyOptions:
    board: str = option(doc="The board to start from, one row per line of text.")
    depth: int = option(3, doc="How deep to look.", minimum=1, maximum=9)


class _NeedyDomain(Domain):
    """A domain that cannot be built without options."""

    name = "needy"
    aliases = ("needful",)
    summary = "Needs a board."
    options_type = _NeedyOptions

    def root(self) -> Any:
        return None

    def view(self) -> View:
        raise NotImplementedError


def test_a_domain_with_required_options_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "domain_names", lambda: ["needy"])
    monkeypatch.setattr(reference, "domain_class", lambda name, **_: _NeedyDomain)
    [entry] = domain_entries()
    assert isinstance(entry, DomainEntry)
    assert entry.values is None
    assert format_domains(["needful"], width=80) == (
        "needy (also needful)\n"
        "  Needs a board.\n"
        "  Value functions: cannot be listed without its required options.\n"
        "  Heuristics: cannot be listed without its required options.\n"
        "  Goal: none.\n"
        "\n"
        "  key    allowed             default   meaning\n"
        "  -----  ------------------  --------  -----------------------------------------\n"
        "  board  a string            required  The board to start from, one row per line\n"
        "                                       of text.\n"
        "  depth  an integer; 1 to 9  3         How deep to look.\n"
        "\n"
        "Every domain also offers the value function reward and the heuristic zero."
    )


def test_a_narrow_terminal_puts_meanings_under_their_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reference, "domain_names", lambda: ["needy"])
    monkeypatch.setattr(reference, "domain_class", lambda name, **_: _NeedyDomain)
    table = format_domains(width=60).split("\n\n")[1]
    assert table == (
        "  key    allowed             default\n"
        "  -----  ------------------  --------\n"
        "  board  a string            required\n"
        "      The board to start from, one row per line of text.\n"
        "  depth  an integer; 1 to 9  3\n"
        "      How deep to look."
    )


def test_an_algorithm_entry_lists_what_it_needs() -> None:
    needs = [e for e in algorithm_entries() if isinstance(e, AlgorithmEntry) and e.requires]
    for entry in needs:
        text = format_algorithms([entry.name], width=WIDE)
        assert f"Needs domains whose nodes offer: {', '.join(entry.requires)}." in text


def test_main_checks_and_updates_a_readme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "README.md"
    path.write_text(f"{reference.START_MARKER}\n{reference.END_MARKER}\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stale:
        reference.main([str(path), "--check"])
    assert stale.value.code == 1
    reference.main([str(path)])
    assert "updated" in capsys.readouterr().out
    reference.main([str(path), "--check"])
    assert "up to date" in capsys.readouterr().out
    with pytest.raises(SystemExit) as missing:
        reference.main([str(tmp_path / "absent.md")])
    assert missing.value.code == 2
