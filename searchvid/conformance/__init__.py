"""Conformance checks: what every domain must do for the searches and the renderer to work.

:func:`check_domain` runs every check of :data:`CHECKS` on one domain, built with its options,
and returns what is wrong in plain words. The checks sample the domain cheaply (the root and a
few short seeded random walks), so checking a domain takes well under a second. Code of the
domain that raises becomes a :class:`Failure` naming the call and the node, never a crash::

    failures = check_domain(make_domain("mygame:EightPuzzle", {}))
    text = format_report("eight-puzzle", failures, len(CHECKS))

``searchvid check NAME`` prints that report; ``tests/domains/test_conformance.py`` runs every
check on every registered domain.
"""

from __future__ import annotations

from collections.abc import Sequence

from searchvid.conformance.nodes import (
    check_capabilities,
    check_chance,
    check_children,
    check_equality,
    check_has_children,
    check_metadata,
    check_options,
    check_rewards,
    check_root,
    check_turns,
)
from searchvid.conformance.outputs import (
    check_goal,
    check_heuristics,
    check_labels,
    check_random_walks,
    check_tiles,
    check_values,
    check_view,
)
from searchvid.conformance.play import check_terminal, check_transpositions
from searchvid.conformance.probe import (
    MAX_CHILDREN,
    MAX_MESSAGES,
    TILE_SIZE,
    Check,
    Failure,
    Probe,
    run_check_on,
)
from searchvid.domains.base import Domain

CHECKS: tuple[Check, ...] = (
    Check("metadata", "name and summary are non-empty strings", check_metadata),
    Check("options", "options_type is a frozen, keyword-only, documented dataclass", check_options),
    Check("root", "root() is hashable, equal to itself and to a fresh root()", check_root),
    Check("has-children", "the root has at least one child", check_has_children),
    Check("children", "children() gives the same children in the same order", check_children),
    Check("equality", "equal nodes hash alike; equality is by state, not identity", check_equality),
    Check(
        "capabilities", "declared capabilities are implemented, on every node", check_capabilities
    ),
    Check("turns", "two-player games alternate to_move between 0 and 1", check_turns),
    Check("rewards", "reward() at terminal nodes is a float in [0, 1]", check_rewards),
    Check("terminal", "a terminal node has no children", check_terminal),
    Check(
        "transpositions",
        "two move orders that reach one board reach one node: equal, same hash and key()",
        check_transpositions,
    ),
    Check(
        "chance",
        "chance nodes: outcomes with probabilities > 0 summing to 1, equal to children(), "
        "sampled with those probabilities",
        check_chance,
    ),
    Check("random-walks", "a seeded random walk repeats exactly", check_random_walks),
    Check(
        "labels",
        "label(node) is a non-empty string; the move_count field, where named, counts the moves",
        check_labels,
    ),
    Check(
        "values", "value functions return floats in [0, 1]; the default is offered", check_values
    ),
    Check(
        "heuristics",
        "heuristics return finite numbers >= 0; the default is offered",
        check_heuristics,
    ),
    Check(
        "goal",
        "is_goal() returns a bool, never True without has_goal; goal_moves_bound(), where "
        "given, an int >= 0 or None, 0 at a goal",
        check_goal,
    ),
    Check(
        "view",
        "grids have the view's shape, dtype int16, valid ids, a new array each call",
        check_view,
    ),
    Check("tiles", f"every tile exists, or is drawn at {TILE_SIZE} px as RGB", check_tiles),
)
"""Every check, in the order :func:`check_domain` runs them."""


def check_domain(domain: Domain) -> list[Failure]:
    """Run every check of :data:`CHECKS` on ``domain``.

    Args:
        domain: A domain built with its options (``make_domain(name, table)``).

    Returns:
        The failures, in the order of :data:`CHECKS`; empty when the domain conforms. At most
        :data:`MAX_MESSAGES` per check. Exceptions raised by the domain's code are failures.
    """
    probe = Probe(domain)
    return [failure for check in CHECKS for failure in run_check_on(check, probe)]


def run_check(domain: Domain, name: str) -> list[Failure]:
    """Run the check called ``name`` alone on ``domain``; an empty list means it passed.

    Raises:
        ValueError: No check has that name (the message lists them).
    """
    for check in CHECKS:
        if check.name == name:
            return check.run(domain)
    known = ", ".join(check.name for check in CHECKS)
    raise ValueError(f"unknown check {name!r}; known: {known}")


def format_report(domain_name: str, failures: Sequence[Failure], checks_run: int) -> str:
    """The result of checking one domain, in plain words for a terminal.

    ``"eight-puzzle: 16 checks passed"``, or a first line ``"eight-puzzle: 2 of 16 checks
    failed:"`` followed by one indented line ``"  check: message"`` per failure. A message
    that several checks share (``root() raised ...``) is shown once, after their names.

    Args:
        domain_name: How the user named the domain.
        failures: What :func:`check_domain` returned.
        checks_run: How many checks ran (``len(CHECKS)`` for :func:`check_domain`).
    """
    counted = f"{checks_run} check" if checks_run == 1 else f"{checks_run} checks"
    if not failures:
        return f"{domain_name}: {counted} passed"
    failed = len({failure.check for failure in failures})
    checks_of: dict[str, list[str]] = {}
    for failure in failures:
        checks_of.setdefault(failure.message, []).append(failure.check)
    lines = [f"{domain_name}: {failed} of {counted} failed:"]
    for message, checks in checks_of.items():
        names = ", ".join(dict.fromkeys(checks))
        lines.append(f"  {names}: " + message.replace("\n", "\n    "))
    return "\n".join(lines)


__all__ = [
    "CHECKS",
    "MAX_CHILDREN",
    "MAX_MESSAGES",
    "Check",
    "Failure",
    "check_domain",
    "format_report",
    "run_check",
]
