"""What every view prints the same way: aligned columns that never wrap, the
completeness line, and the footer (staleness, warnings: what the budget cut too).

A view is a `Page` of lines, printed at once. Nothing is ever wrapped or cut,
whatever the terminal's width or when piped (rich would wrap a pipe's output at
80 columns and cut a node ID in two): a long line runs on, as `grep` prints it.
Colours only on a terminal. Every line is in command-line words (`for_cli`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bridge.cli.wording import for_cli

GAP = "  "
PARTIAL_NOTICE = "partial answer ("
"""How the envelope's warning that repeats the completeness line begins (a view
prints the line itself, with its reasons)."""
STALE_NOTICE = "changed since the map was built"
"""What the warning of an answer that names a stale file says (its files too)."""


class Page:
    """The lines of one view, with a style each (rich style names; none when piped)."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def add(self, text: str = "", style: str = "") -> None:
        """One line."""
        self.lines.append((text, style))

    def table(
        self, rows: Iterable[Sequence[str]], header: Sequence[str] = (), indent: str = ""
    ) -> None:
        """Rows in aligned columns (every column but the last padded to its widest cell);
        `header`, when given, first and bold."""
        body = [list(row) for row in rows]
        every = [list(header), *body] if header else body
        if not every:
            return
        columns = max(len(row) for row in every)
        widths = [max((len(r[i]) for r in every if i < len(r)), default=0) for i in range(columns)]
        for number, row in enumerate(every):
            cells = [cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])] + row[-1:]
            style = "bold" if header and number == 0 else ""
            self.add(indent + GAP.join(cells).rstrip(), style)

    def print(self) -> None:
        """Print every line on stdout, never wrapped nor cut."""
        from rich.console import Console
        from rich.text import Text

        console = Console(highlight=False, soft_wrap=True)
        for text, style in self.lines:
            console.print(Text(for_cli(text), style=style))


def where(path: str, line: int | None, column: int | None = None) -> str:
    """`path:LINE[:COL]`, or the path alone without a line."""
    if line is None:
        return path
    return f"{path}:{line}" + (f":{column}" if column else "")


def lines_of(lines: Sequence[int] | None) -> str:
    """1-based lines as `START-END` (or `START` for one line)."""
    if not lines:
        return ""
    return str(lines[0]) if len(lines) == 1 or lines[0] == lines[-1] else f"{lines[0]}-{lines[-1]}"


def plural(count: int, noun: str) -> str:
    """`1 caller`, `2 callers`."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def completeness(page: Page, data: Mapping[str, Any]) -> None:
    """`complete`, or `partial: CODE: why` (one line per reason), when the answer says."""
    if "completeness" not in data:
        return
    reasons = data.get("completenessReasons") or []
    if data["completeness"] == "complete" or not reasons:
        page.add(f"completeness: {data['completeness']}", "green")
        return
    for number, reason in enumerate(reasons):
        lead = "completeness: partial" if number == 0 else "  and"
        page.add(f"{lead}: {reason['code']}: {reason['message']}", "yellow")


def footer(page: Page, envelope: Mapping[str, Any]) -> None:
    """Whether a file changed since the map was built, then the warnings (last; what
    the budget cut is one of them; the one that repeats the completeness line is left
    out)."""
    warnings = envelope.get("warnings", [])
    if envelope.get("stale") and not any(STALE_NOTICE in w for w in warnings):
        page.add(f"stale: a file in this answer {STALE_NOTICE}", "yellow")
    for warning in warnings:
        if not warning.startswith(PARTIAL_NOTICE):
            page.add(f"warning: {warning}", "yellow")


def verified_mark(item: Mapping[str, Any]) -> str:
    """An edge's live check, when one was asked for (`--verify`): `verified`, `NOT HELD`,
    or `unchecked`; empty when none was asked for."""
    if "verified" not in item:
        return ""
    return {True: "verified", False: "NOT HELD"}.get(item["verified"], "unchecked")
