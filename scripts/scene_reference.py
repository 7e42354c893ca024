"""Print the scene-file reference as Markdown, generated from the option dataclasses.

Usage: ``.venv/bin/python scripts/scene_reference.py > reference.md``. Every table comes from
the ``option(..., doc=...)`` declarations of the scene file, ``[video]``, each registered
algorithm and each registered domain, so the reference cannot drift from the code.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator, Mapping
from typing import Any

from searchvid.domains import domain_class, domain_names, make_domain
from searchvid.options import describe_type, option_docs
from searchvid.render.settings import VideoOptions
from searchvid.scene import GENERIC_HEURISTICS, GENERIC_VALUES, SceneFile
from searchvid.search.algorithm import algorithm_class, algorithm_names

_LONGEST_DEFAULT = 36


def toml_text(value: Any) -> str:
    """``value`` written as in a scene file."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f'"{k}" = {toml_text(v)}' for k, v in value.items()) + " }"
    return str(value)


def default_text(value: Any) -> str:
    text = toml_text(value)
    if len(text) > _LONGEST_DEFAULT:
        return "(see below)"
    return f"`{text}`"


def default_name(name: str | None) -> str:
    return f" (default `{name}`)" if name else ""


def allowed_text(field: dataclasses.Field[Any], tp: Any) -> str:
    parts = [describe_type(tp)]
    low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
    if low is not None and high is not None:
        parts.append(f"{low:g} to {high:g}")
    elif low is not None:
        parts.append(f">= {low:g}")
    elif high is not None:
        parts.append(f"<= {high:g}")
    choices = field.metadata.get("choices")
    if choices:
        parts.append("one of " + ", ".join(toml_text(c) for c in choices))
    return "; ".join(parts)


def options_table(cls: type[Any], *, first: tuple[str, str] | None = None) -> Iterator[str]:
    """A Markdown table of the options of ``cls`` (``first``: a leading name/doc row)."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    yield "| key | allowed | default | meaning |"
    yield "| --- | --- | --- | --- |"
    if first is not None:
        yield f"| `{first[0]}` | a string | required | {first[1]} |"
    for name, doc, default in option_docs(cls):
        field = fields[name]
        required = (
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        )
        shown = "required" if required else default_text(default)
        yield f"| `{name}` | {allowed_text(field, hints[name])} | {shown} | {doc} |"
    if not fields:
        yield "| | | | (no options) |"


def long_defaults(cls: type[Any]) -> Iterator[str]:
    for name, _, default in option_docs(cls):
        text = toml_text(default)
        if len(text) > _LONGEST_DEFAULT:
            yield f"Default `{name}`:"
            yield ""
            yield "```toml"
            yield f"{name} = {text}"
            yield "```"
            yield ""


def reference() -> Iterator[str]:
    """The whole reference, line by line."""
    yield "### Top level"
    yield ""
    yield from options_table(SceneFile)
    yield ""
    yield "### `[video]`"
    yield ""
    yield from options_table(VideoOptions)
    yield ""
    yield "### `[search]`: algorithms"
    yield ""
    yield "`algorithm` names one of the algorithms below; the other keys are its options."
    values = ", ".join(f"`{v}`" for v in GENERIC_VALUES)
    heuristics = ", ".join(f"`{h}`" for h in GENERIC_HEURISTICS)
    yield f"Value functions every domain offers: {values}; heuristics: {heuristics}."
    yield ""
    for name in algorithm_names():
        algorithm = algorithm_class(name)
        alias_text = f" (also `{'`, `'.join(algorithm.aliases)}`)" if algorithm.aliases else ""
        yield f"#### `{name}`{alias_text}"
        yield ""
        yield algorithm.summary
        yield ""
        if algorithm.requires:
            needs = ", ".join(sorted(c.description for c in algorithm.requires))
            yield f"Needs domains whose nodes offer: {needs}."
            yield ""
        yield from options_table(algorithm.options_type)
        yield ""
    yield "### `[domain]`: domains"
    yield ""
    yield "`name` names one of the domains below; the other keys are its options."
    yield ""
    for name in domain_names():
        cls = domain_class(name)
        domain = make_domain(name, {})
        alias_text = f" (also `{'`, `'.join(cls.aliases)}`)" if cls.aliases else ""
        yield f"#### `{name}`{alias_text}"
        yield ""
        yield cls.summary
        yield ""
        values = ", ".join(f"`{v}`" for v in domain.values()) or "none of its own"
        heuristics = ", ".join(f"`{h}`" for h in domain.heuristics()) or "none of its own"
        yield f"Value functions: {values}{default_name(cls.default_value)}."
        yield f"Heuristics: {heuristics}{default_name(cls.default_heuristic)}."
        yield f"Goal: {'yes (`run` reports `solved`)' if cls.has_goal else 'none'}."
        yield ""
        yield from options_table(cls.options_type)
        yield ""
        yield from long_defaults(cls.options_type)


def main() -> None:
    """Print the reference."""
    for line in reference():
        print(line)


if __name__ == "__main__":
    main()
