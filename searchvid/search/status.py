"""Named quantities for the status strip, formatted one way everywhere.

Domains describe a node (:meth:`Domain.status <searchvid.Domain.status>`: "exits joined 7/12",
"X to move") and algorithms their own state (:meth:`Algorithm.status
<searchvid.Algorithm.status>`: "frontier 1,204", "iterations 3,000") as :class:`Field` values;
the strip draws ``name value`` for each, so every number on screen has a name and one format.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Field", "format_number"]


def format_number(value: float | int | None) -> str:
    """A number as the strip shows it: whole numbers with thousands separators (``1,234``),
    others with three significant digits (``0.531``, ``12.3``), ``-`` for None, and ``inf``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if not math.isfinite(value):
        return "inf" if value > 0 else "-inf" if value < 0 else "-"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    text = f"{value:.3g}"
    return text if "e" not in text else f"{value:.2e}"


@dataclass(frozen=True, slots=True)
class Field:
    """One named quantity: ``name value``, ``name value/of`` or ``name 53%``.

    Attributes:
        name: What it is, in the domain's or algorithm's words ("exits joined", "frontier").
        value: A number, a short text, or None (shown as ``-``).
        of: A total the value is out of ("7/12").
        unit: A unit after the number ("s", "pours").
        percent: Show a fraction in [0, 1] as a percentage ("53%").
        prefix: Show the value before the name ("X to move": ``Field("to move", "X",
            prefix=True)``).
    """

    name: str
    value: float | int | str | None
    of: float | int | None = None
    unit: str = ""
    percent: bool = False
    prefix: bool = False

    def value_text(self) -> str:
        """The value alone, formatted."""
        value = self.value
        if isinstance(value, str):
            text = value
        elif self.percent and value is not None:
            text = f"{100 * value:.0f}%"
        else:
            text = format_number(value)
        if self.of is not None:
            text += f"/{format_number(self.of)}"
        if self.unit:
            text += f" {self.unit}"
        return text

    def text(self) -> str:
        """``name value`` as drawn (``value name`` with ``prefix``)."""
        if not self.name:
            return self.value_text()
        if self.prefix:
            return f"{self.value_text()} {self.name}"
        return f"{self.name} {self.value_text()}"
