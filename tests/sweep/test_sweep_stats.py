"""Summary statistics: Student-t quantiles and intervals against published and hand values."""

from __future__ import annotations

import math

import pytest

from searchvid.experiments.stats import summarize, t_quantile, t_two_sided_probability

# The 0.975 quantile of Student's t (two-sided 95 %), from published tables (NIST/SEMATECH
# e-Handbook, table 1.3.6.7.2, and R's qt(0.975, df) to 9 decimals).
T975 = {
    1: 12.706204736,
    2: 4.302652730,
    3: 3.182446305,
    4: 2.776445105,
    5: 2.570581836,
    9: 2.262157163,
    10: 2.228138852,
    19: 2.093024054,
    30: 2.042272456,
    49: 2.009575237,
    100: 1.983971519,
    1000: 1.962339081,
}


@pytest.mark.parametrize(("df", "expected"), sorted(T975.items()))
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-8)


def test_t_quantile_of_other_levels_and_the_normal_limit() -> None:
    assert t_quantile(0.95, 10) == pytest.approx(1.812461123, abs=1e-8)  # qt(0.95, 10)
    assert t_quantile(0.995, 4) == pytest.approx(4.604094871, abs=1e-8)  # qt(0.995, 4)
    assert t_quantile(0.5, 7) == pytest.approx(0.0, abs=1e-9)
    # Beyond 1,000 degrees of freedom the normal quantile stands in: qnorm(0.975).
    assert t_quantile(0.975, 10**6) == pytest.approx(1.959963985, abs=1e-8)


def test_the_closed_form_distribution_at_known_points() -> None:
    # df = 1 is Cauchy: P(|T| <= 1) = 1/2; df = 2: P(|T| <= t) = t / sqrt(2 + t^2).
    assert t_two_sided_probability(1.0, 1) == pytest.approx(0.5, abs=1e-15)
    assert t_two_sided_probability(3.0, 2) == pytest.approx(3 / math.sqrt(11), abs=1e-15)
    assert t_two_sided_probability(0.0, 9) == 0.0


@pytest.mark.parametrize(("p", "df"), [(1.0, 3), (0.4, 3), (0.975, 0)])
def test_t_quantile_refuses_what_it_cannot_compute(p: float, df: int) -> None:
    with pytest.raises(ValueError, match="must be"):
        t_quantile(p, df)


def test_summary_of_four_values_by_hand() -> None:
    # 1, 2, 3, 4: mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, so the sample
    # variance is 5/3; the 95 % interval is 2.5 +- t(0.975, 3) * sqrt(5/3) / 2.
    found = summarize([1.0, 2.0, 3.0, 4.0])
    half = 3.182446305 * math.sqrt(5 / 3) / 2  # = 2.0543...
    assert (found.n, found.mean) == (4, 2.5)
    assert found.sd == pytest.approx(math.sqrt(5 / 3), rel=1e-12)
    assert found.ci_low == pytest.approx(2.5 - half, abs=1e-8)
    assert found.ci_high == pytest.approx(2.5 + half, abs=1e-8)
    assert found.ci_low is not None
    assert found.ci_high is not None
    assert (round(found.ci_low, 4), round(found.ci_high, 4)) == (0.4457, 4.5543)


def test_summary_of_one_value_and_of_none() -> None:
    one = summarize([7.0])
    assert (one.n, one.mean, one.sd, one.ci_low, one.ci_high) == (1, 7.0, None, None, None)
    none = summarize([])
    assert (none.n, none.mean, none.sd) == (0, None, None)


def test_summary_of_equal_values_has_a_zero_width_interval() -> None:
    found = summarize([3.0, 3.0, 3.0])
    assert (found.mean, found.sd, found.ci_low, found.ci_high) == (3.0, 0.0, 3.0, 3.0)
