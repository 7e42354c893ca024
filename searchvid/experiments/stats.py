"""Summary statistics of a sweep: mean, standard deviation and a 95 % confidence interval.

The interval is Student's: ``mean +- t * sd / sqrt(n)`` with ``t`` the 0.975 quantile of the
t distribution with ``n - 1`` degrees of freedom. The quantile is found without SciPy by
bisection on the distribution's exact closed form for whole degrees of freedom ``v``
(Abramowitz and Stegun, *Handbook of Mathematical Functions*, 26.7.3 and 26.7.4): with
``a = atan(t / sqrt(v))``, ``P(|T| <= t)`` is

- ``2a/pi`` for ``v = 1``;
- ``2/pi * (a + sin a * (cos a + 2/3 cos^3 a + ... + (2*4...(v-3)) / (1*3...(v-2))
  cos^(v-2) a))`` for odd ``v > 1``;
- ``sin a * (1 + 1/2 cos^2 a + (1*3)/(2*4) cos^4 a + ... + (1*3...(v-3)) / (2*4...(v-2))
  cos^(v-2) a)`` for even ``v``.

Beyond 1,000 degrees of freedom the terms would be many and the t quantile is within
0.1 % of the normal one, which is then used instead (its quantile by bisection on ``erf``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_LARGE_DF = 1000


def t_two_sided_probability(t: float, df: int) -> float:
    """``P(|T| <= t)`` for Student's t with ``df`` whole degrees of freedom (``t >= 0``).

    Raises:
        ValueError: ``df < 1``.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    theta = math.atan(t / math.sqrt(df))
    sine, cosine = math.sin(theta), math.cos(theta)
    if df == 1:
        return 2 * theta / math.pi
    square = cosine * cosine
    if df % 2:
        term = total = cosine
        for k in range(3, df - 1, 2):  # cos^k's factor: (2*4...(k-1)) / (1*3...k)
            term *= square * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + sine * total)
    term = total = 1.0
    for k in range(2, df - 1, 2):  # cos^k's factor: (1*3...(k-1)) / (2*4...k)
        term *= square * (k - 1) / k
        total += term
    return sine * total


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom, for ``p`` in [0.5, 1).

    Accurate to about 1e-10: bisection on :func:`t_two_sided_probability` (or on the normal
    distribution beyond 1,000 degrees of freedom).

    Raises:
        ValueError: ``p`` outside [0.5, 1) or ``df < 1``.
    """
    if not 0.5 <= p < 1:
        raise ValueError(f"p must be in [0.5, 1), got {p}")
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    target = 2 * p - 1  # P(|T| <= t) for the p quantile t of a symmetric distribution
    if df > _LARGE_DF:
        return _bisect(lambda x: math.erf(x / math.sqrt(2)), target)
    return _bisect(lambda x: t_two_sided_probability(x, df), target)


def _bisect(increasing: Callable[[float], float], target: float) -> float:
    low, high = 0.0, 1.0
    while increasing(high) < target:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if increasing(middle) < target:
            low = middle
        else:
            high = middle
        if high - low <= 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


@dataclass(frozen=True)
class Summary:
    """The statistics of one metric over the runs of one setting.

    Attributes:
        n: Runs with a value of the metric.
        mean: Their mean (None without runs).
        sd: Their sample standard deviation (``n - 1`` in the denominator; None below 2).
        ci_low: The 95 % confidence interval's lower end (None below 2 runs).
        ci_high: Its upper end.
    """

    n: int
    mean: float | None
    sd: float | None
    ci_low: float | None
    ci_high: float | None


def summarize(values: Sequence[float], *, level: float = 0.95) -> Summary:
    """Mean, sample standard deviation and the Student-t confidence interval of ``values``."""
    n = len(values)
    if n == 0:
        return Summary(0, None, None, None, None)
    mean = math.fsum(values) / n
    if n == 1:
        return Summary(1, mean, None, None, None)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
    return Summary(n, mean, sd, mean - half, mean + half)
