"""The domain registry: names, aliases, entry points and import paths to domain classes.

A built-in domain is one line in ``_BUILTINS``; its package is imported only when used. Its
aliases are declared once, on the class (``Domain.aliases``). Installed packages add domains
through the entry-point group ``searchvid.domains``; a scene may also name any domain class
by import path, ``"module:Class"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from searchvid.domains.base import Domain
from searchvid.options import build_options
from searchvid.plugins import PluginRegistry

_BUILTINS: dict[str, str] = {
    "railroad": "searchvid.domains.railroad:RailroadDomain",
    "tictactoe": "searchvid.domains.tictactoe:TicTacToeDomain",
    "quarto": "searchvid.domains.quarto:QuartoDomain",
    "watersort": "searchvid.domains.watersort:WaterSortDomain",
    "tree": "searchvid.domains.tree:TreeDomain",
}

DOMAINS: PluginRegistry[Domain] = PluginRegistry(
    what="domain", key="name", base=Domain, builtins=_BUILTINS, group="searchvid.domains"
)
"""Every domain searchvid can find by name."""


def domain_names() -> list[str]:
    """Registered domain names (built-in and installed plugins, without aliases), sorted."""
    return DOMAINS.names()


def domain_class(name: str, *, folder: Path | None = None) -> type[Domain]:
    """The domain class named ``name``: a registered name, an alias or ``"module:Class"``.

    Args:
        name: As written in a scene's ``[domain] name``.
        folder: Searched first for an import path's module (the scene's folder).

    Raises:
        OptionError: With key ``name``: unknown (listing the known domains) or not loadable.
    """
    return DOMAINS.resolve(name, folder=folder)


def make_domain(
    name: str | type[Domain], table: Mapping[str, Any], *, folder: Path | None = None
) -> Domain:
    """Build a domain from its option table (the scene's ``[domain]`` table).

    Args:
        name: A name for :func:`domain_class`, or a :class:`Domain` subclass.
        table: Its options; a ``name`` key is ignored.
        folder: Searched first for an import path's module.

    Raises:
        OptionError: Unknown domain, or bad options.
    """
    cls = name if isinstance(name, type) else domain_class(name, folder=folder)
    return cls(build_options(cls.options_type, table, ignore=("name",)))


__all__ = ["DOMAINS", "Domain", "domain_class", "domain_names", "make_domain"]
