"""The domain registry: names and aliases to :class:`~searchvid.domains.base.Domain` classes.

Registering a domain means adding one line to ``_REGISTRY``; its package is imported only
when the domain is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from searchvid.domains.base import Domain
from searchvid.errors import OptionError
from searchvid.options import build_options

_REGISTRY: dict[str, str] = {
    "railroad": "searchvid.domains.railroad:RailroadDomain",
    "tictactoe": "searchvid.domains.tictactoe:TicTacToeDomain",
    "quarto": "searchvid.domains.quarto:QuartoDomain",
    "watersort": "searchvid.domains.watersort:WaterSortDomain",
    "tree": "searchvid.domains.tree:TreeDomain",
}
_ALIASES: dict[str, str] = {
    "railroad-ink": "railroad",
    "tic-tac-toe": "tictactoe",
    "water-sort": "watersort",
}


def domain_names() -> list[str]:
    """Registered domain names (without aliases), sorted."""
    return sorted(_REGISTRY)


def domain_class(name: str) -> type[Domain]:
    """The class registered under ``name`` or one of its aliases.

    Raises:
        OptionError: With key ``name`` and the list of known domains.
    """
    canonical = _ALIASES.get(name, name)
    if canonical not in _REGISTRY:
        raise OptionError("name", f"unknown domain {name!r}; known: {', '.join(domain_names())}")
    module_name, _, class_name = _REGISTRY[canonical].partition(":")
    cls: type[Domain] = getattr(importlib.import_module(module_name), class_name)
    return cls


def make_domain(name: str, table: Mapping[str, Any]) -> Domain:
    """Build a registered domain from its option table (the scene's ``[domain]`` table).

    Raises:
        OptionError: Unknown domain, or bad options.
    """
    cls = domain_class(name)
    return cls(build_options(cls.options_type, table, ignore=("name",)))


__all__ = ["Domain", "domain_class", "domain_names", "make_domain"]
