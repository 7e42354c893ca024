"""Per setting: how many runs, the metric's mean, spread and 95 % interval, the solved rate
and the mean seconds; as ``summary.csv`` and as the terminal's table."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from searchvid.experiments.stats import Summary, summarize
from searchvid.experiments.table import cell, number

SUMMARY_FILE = "summary.csv"


@dataclass(frozen=True)
class Group:
    """The runs of one combination of settings.

    Attributes:
        setting: The settings' values as written, by key.
        runs: The ids of the runs, in the grid's order.
        values: The metric's values of the runs that have one.
        failed: Runs that raised.
        summary: The metric's statistics.
        solved_rate: The share of runs that reached a goal (None: no goal in the domain).
        mean_seconds: The mean of the runs' search seconds (None: no timing).
    """

    setting: Mapping[str, str]
    runs: tuple[str, ...]
    values: tuple[float, ...]
    failed: int
    summary: Summary
    solved_rate: float | None
    mean_seconds: float | None


def group_rows(
    rows: Sequence[Mapping[str, str]],
    timings: Mapping[str, Mapping[str, str]],
    keys: Sequence[str],
    metric: str,
) -> list[Group]:
    """The rows grouped by their settings (groups in the order their first row comes)."""
    grouped: dict[tuple[str, ...], list[Mapping[str, str]]] = {}
    for row in rows:
        grouped.setdefault(tuple(row[k] for k in keys), []).append(row)
    groups = []
    for combination, members in grouped.items():
        ok = [r for r in members if not r.get("error")]
        values = tuple(v for v in (metric_value(r.get(metric, "")) for r in ok) if v is not None)
        solved = [r["solved"] == "true" for r in ok if r.get("solved") in ("true", "false")]
        timed = (number(timings.get(r["run"], {}).get("seconds", "")) for r in ok)
        seconds = [s for s in timed if s is not None]
        groups.append(
            Group(
                dict(zip(keys, combination, strict=True)),
                tuple(r["run"] for r in members),
                values,
                len(members) - len(ok),
                summarize(values),
                sum(solved) / len(solved) if solved else None,
                math.fsum(seconds) / len(seconds) if seconds else None,
            )
        )
    return groups


def metric_value(text: str) -> float | None:
    """A cell as the metric's number: flags count 1 (true) and 0 (false)."""
    if text in ("true", "false"):  # a flag's mean is a rate
        return 1.0 if text == "true" else 0.0
    return number(text)


SUMMARY_COLUMNS = (
    "n",
    "failed",
    "metric",
    "mean",
    "sd",
    "ci95_low",
    "ci95_high",
    "solved_rate",
    "mean_seconds",
)


def summary_rows(groups: Sequence[Group], metric: str) -> list[dict[str, str]]:
    """The rows of ``summary.csv``: the settings' columns, then :data:`SUMMARY_COLUMNS`."""
    return [
        {
            **group.setting,
            "n": str(group.summary.n),
            "failed": str(group.failed),
            "metric": metric,
            "mean": cell(group.summary.mean),
            "sd": cell(group.summary.sd),
            "ci95_low": cell(group.summary.ci_low),
            "ci95_high": cell(group.summary.ci_high),
            "solved_rate": cell(group.solved_rate),
            "mean_seconds": cell(group.mean_seconds),
        }
        for group in groups
    ]


def summary_table(groups: Sequence[Group], keys: Sequence[str], metric: str) -> list[str]:
    """The terminal's table, one line per setting, columns aligned."""
    header = [*keys, "n", f"mean {metric}", "sd", "95% CI", "solved", "seconds"]
    lines = [header]
    for group in groups:
        s = group.summary
        interval = "" if s.ci_low is None else f"{_g(s.ci_low)} .. {_g(s.ci_high)}"
        n = f"{s.n}" + (f" ({group.failed} failed)" if group.failed else "")
        solved = "n/a" if group.solved_rate is None else f"{group.solved_rate:.0%}"
        seconds = "" if group.mean_seconds is None else f"{group.mean_seconds:.3f}"
        lines.append(
            [*(group.setting[k] for k in keys), n, _g(s.mean), _g(s.sd), interval, solved, seconds]
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return [
        "  ".join(t.ljust(w) for t, w in zip(line, widths, strict=True)).rstrip() for line in lines
    ]


def _g(value: float | None) -> str:
    return "" if value is None else f"{value:.4g}"
