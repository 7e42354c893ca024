"""A sweep's plots, drawn with matplotlib (Agg, no display) as PNG and SVG.

- ``distribution.png``/``.svg``: the metric's distribution per setting: a box plot (median,
  quartiles, whiskers at 1.5 IQR) with every run drawn as a dot over it.
- ``vs-KEY.png``/``.svg``, for each setting whose values are all numbers: the metric's mean
  against that setting's value, with 95 % confidence intervals as error bars; one line per
  combination of the other settings.

The files are the same bytes for the same rows: SVG ids come from a fixed salt, no date is
written, and the dots' horizontal spread is a fixed pattern, not random.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from searchvid.experiments.stats import Summary
from searchvid.experiments.summary import Group
from searchvid.experiments.table import number, write_atomically

_WIDTH_INCHES = 7.2  # 720 px at 100 dpi: legible at blog width
_DPI = 100
_BLUE = "#0072B2"  # Okabe-Ito blue, and the palette's others for several lines
_PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X")


def draw_plots(
    folder: Path, groups: Sequence[Group], keys: Sequence[str], metric: str, title: str
) -> list[Path]:
    """Draw the plots into ``folder``; the paths written."""
    plt = _pyplot()
    written: list[Path] = []
    if any(group.values for group in groups):
        written += _save(
            plt, _distribution(plt, groups, keys, metric, title), folder, "distribution"
        )
    for key in keys:
        if all(number(group.setting[key]) is not None for group in groups):
            figure = _trend(plt, groups, keys, key, metric, title)
            if figure is not None:
                written += _save(plt, figure, folder, f"vs-{key}")
    return written


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update(
        {
            "svg.hashsalt": "searchvid",  # fixed ids: the same SVG bytes every time
            "svg.fonttype": "path",
            "font.size": 12,
            "axes.titlesize": 13,
            "figure.dpi": _DPI,
        }
    )
    return plt


def _label(group: Group, keys: Sequence[str]) -> str:
    return "\n".join(f"{key}={group.setting[key]}" for key in keys) or "all runs"


def _distribution(
    plt: Any, groups: Sequence[Group], keys: Sequence[str], metric: str, title: str
) -> Any:
    shown = [g for g in groups if g.values]
    figure, axes = plt.subplots(figsize=(_WIDTH_INCHES, 4.8))
    positions = list(range(1, len(shown) + 1))
    axes.boxplot(
        [list(g.values) for g in shown],
        positions=positions,
        widths=0.5,
        showfliers=False,  # every run is drawn as a dot already
        medianprops={"color": "#000000", "linewidth": 2},
    )
    for position, group in zip(positions, shown, strict=True):
        count = len(group.values)
        # A fixed spread (golden-ratio offsets) keeps the dots apart without randomness.
        offsets = [((i * 0.6180339887) % 1 - 0.5) * 0.3 for i in range(count)]
        axes.scatter(
            [position + o for o in offsets],
            group.values,
            s=14,
            color=_BLUE,
            alpha=0.55,
            edgecolors="none",
            zorder=3,
        )
    axes.set_xticks(positions, [_label(g, keys) for g in shown])
    axes.set_ylabel(metric)
    axes.set_xlabel("box: the middle half of the runs, bar: median, whiskers: 1.5 IQR; a dot a run")
    runs = sum(len(g.values) for g in shown)
    axes.set_title(f"{_wrap(title)}\n{metric} per setting ({runs} runs)")
    axes.grid(axis="y", color="#dddddd")
    axes.set_axisbelow(True)
    figure.tight_layout()
    return figure


def _trend(
    plt: Any,
    groups: Sequence[Group],
    keys: Sequence[str],
    key: str,
    metric: str,
    title: str,
) -> Any | None:
    others = [k for k in keys if k != key]
    lines: dict[tuple[str, ...], list[Group]] = {}
    for group in groups:
        if group.summary.mean is not None:
            lines.setdefault(tuple(group.setting[k] for k in others), []).append(group)
    if not lines:
        return None
    figure, axes = plt.subplots(figsize=(_WIDTH_INCHES, 4.8))
    for i, (combination, members) in enumerate(lines.items()):
        members = sorted(members, key=lambda g: number(g.setting[key]) or 0.0)
        xs = [number(g.setting[key]) for g in members]
        means = [g.summary.mean for g in members]
        low = [_below(g.summary) for g in members]
        high = [_above(g.summary) for g in members]
        name = ", ".join(f"{k}={v}" for k, v in zip(others, combination, strict=True))
        axes.errorbar(
            xs,
            means,
            yerr=[low, high],
            color=_PALETTE[i % len(_PALETTE)],
            marker=_MARKERS[i % len(_MARKERS)],
            capsize=4,
            label=name or None,
        )
    values = sorted({number(g.setting[key]) or 0.0 for g in groups})
    if values and values[0] > 0 and values[-1] / values[0] >= 10:
        axes.set_xscale("log")  # settings such as 100, 400, 1600 spread over decades
    axes.set_xticks(values, [_tick(v) for v in values])
    axes.minorticks_off()
    axes.set_xlabel(key)
    axes.set_ylabel(f"mean {metric} (bars: 95% CI)")
    axes.set_title(f"{_wrap(title)}\n{metric} against {key}")
    axes.grid(color="#dddddd")
    if others:
        axes.legend(fontsize=10)
    figure.tight_layout()
    return figure


def _below(summary: Summary) -> float:
    """The error bar's length under the mean (none without an interval)."""
    if summary.mean is None or summary.ci_low is None:
        return 0.0
    return summary.mean - summary.ci_low


def _above(summary: Summary) -> float:
    if summary.mean is None or summary.ci_high is None:
        return 0.0
    return summary.ci_high - summary.mean


def _tick(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _wrap(text: str, width: int = 70) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def _save(plt: Any, figure: Any, folder: Path, stem: str) -> list[Path]:
    paths = []
    for suffix, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        buffer = io.BytesIO()
        figure.savefig(buffer, format=suffix, dpi=_DPI, metadata=metadata)
        path = folder / f"{stem}.{suffix}"
        write_atomically(path, buffer.getvalue())
        paths.append(path)
    plt.close(figure)
    return paths
