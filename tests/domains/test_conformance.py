"""Every registered domain (default options) through every check of :mod:`searchvid.conformance`.

The domains come from the registry, so a new domain (in the package or installed as a plugin)
is checked without editing this file. A domain that cannot be imported fails here rather than
being skipped.
"""

from __future__ import annotations

from functools import cache

import pytest

from searchvid.conformance import CHECKS, check_domain, format_report, run_check
from searchvid.domains import Domain, domain_names, make_domain


@cache
def _domain(name: str) -> Domain:
    return make_domain(name, {})


@pytest.mark.parametrize("check", [check.name for check in CHECKS])
@pytest.mark.parametrize("name", domain_names())
def test_domain_passes_check(name: str, check: str) -> None:
    failures = run_check(_domain(name), check)
    assert not failures, "\n".join(str(failure) for failure in failures)


@pytest.mark.parametrize("name", domain_names())
def test_registered_name_matches(name: str) -> None:
    assert _domain(name).name == name


@pytest.mark.parametrize("name", domain_names())
def test_check_domain_reports_every_check_passed(name: str) -> None:
    report = format_report(name, check_domain(_domain(name)), len(CHECKS))
    assert report == f"{name}: {len(CHECKS)} checks passed"
