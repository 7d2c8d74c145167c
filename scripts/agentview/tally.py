"""Counting what misled: one Tally per point of issue 21, per language.

A check records each answer it judged (checked) and whether the answer, read
as an agent reads it, says something the source contradicts (misleading),
with a short example of the first few that did.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

EXAMPLES = 3


@dataclass
class Tally:
    """One point's counts in one project."""

    point: str
    title: str
    checked: int = 0
    misleading: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    """Further named counts the report shows beside the two above."""
    examples: list[str] = field(default_factory=list)

    def record(self, misleading: bool, example: str = "") -> None:
        """One judged answer."""
        self.checked += 1
        if misleading:
            self.misleading += 1
            if example and len(self.examples) < EXAMPLES:
                self.examples.append(example)

    def as_json(self) -> dict[str, Any]:
        """The counts as plain data."""
        return {
            "point": self.point,
            "title": self.title,
            "checked": self.checked,
            "misleading": self.misleading,
            "counts": dict(self.counts),
            "examples": self.examples,
        }


@dataclass
class Findings:
    """Every Tally of one project, by point, plus the figures that are no counts."""

    language: str
    project: str
    tallies: dict[str, Tally] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)

    def tally(self, point: str, title: str) -> Tally:
        """The point's Tally, made on first use."""
        return self.tallies.setdefault(point, Tally(point, title))


def data_cuts(data: Any, where: str = "data") -> list[str]:
    """Where the data itself says it holds less than there is: a `truncated: true`
    inside it, or a list shorter than its own count (`unconfirmed` and
    `unconfirmedCount`, `locations` and `count`, ...). Each cut is named by the
    list's key (or the path of the flag)."""
    cuts: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "truncated" and value is True:
                cuts.append(where)
            elif isinstance(value, list) and len(value) < _count_of(data, key):
                cuts.append(key)
            if isinstance(value, dict | list):
                cuts.extend(data_cuts(value, f"{where}.{key}"))
    elif isinstance(data, list):
        for item in data:
            cuts.extend(data_cuts(item, where))
    return cuts


def _count_of(holder: dict[str, Any], key: str) -> int:
    """The count the holder gives for its list `key`, or 0 when it gives none."""
    singular = key[:-1] if key.endswith("s") else key
    names = [f"{key}Count", f"{singular}Count", f"total{key[:1].upper()}{key[1:]}"]
    if key in {"locations", "callers", "symbols", "dependents", "diagnostics", "hits"}:
        names.append("count")
    for name in names:
        value = holder.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0


def unreported_cuts(envelope: dict[str, Any]) -> list[str]:
    """The cuts inside `data` that the envelope's `truncated` does not mention."""
    truncated = envelope.get("truncated")
    said = orjson.dumps(truncated).decode() if truncated else ""
    return [
        cut
        for cut in data_cuts(envelope.get("data"))
        if not said or (not cut.startswith("data") and cut not in said)
    ]
