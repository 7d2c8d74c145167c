"""The bridge benchmark's report: median and p95 per tool and mode, the envelope's
and the transport's cost, and the table on stdout."""

from __future__ import annotations

import os
import statistics
from typing import Any

from rich.console import Console
from rich.table import Table

from bridgebench.measure import Samples

TABLE_WIDTH = 130


def summary(values: list[float]) -> dict[str, float] | None:
    """Median and p95 in milliseconds (None when nothing was measured)."""
    if not values:
        return None
    ms = sorted(v * 1000 for v in values)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    return {"median_ms": round(statistics.median(ms), 2), "p95_ms": round(p95, 2)}


def _minus(a: dict[str, float] | None, b: dict[str, float] | None) -> float | None:
    """The difference of two medians (ms), when both were measured."""
    return round(a["median_ms"] - b["median_ms"], 2) if a and b else None


def rows(samples: dict[str, Samples]) -> list[dict[str, Any]]:
    """One result row per tool: the three summaries, the envelope's cost (in-process -
    raw), the transport's (MCP - in-process) and their sum against the base."""
    out = []
    for tool, s in samples.items():
        raw, inproc, mcp = summary(s.raw), summary(s.inproc), summary(s.mcp)
        base = raw or inproc
        row: dict[str, Any] = {
            "tool": tool,
            "raw": raw,
            "inproc": inproc,
            "mcp": mcp,
            "envelope_ms": _minus(inproc, raw),
            "transport_ms": _minus(mcp, inproc),
            "overhead_vs": "raw" if raw else "inproc",
            "overhead_ms": _minus(mcp, base),
            "overhead_pct": None,
            "answer_bytes": s.answer_bytes,
        }
        if base and row["overhead_ms"] is not None:
            row["overhead_pct"] = round(100 * row["overhead_ms"] / base["median_ms"], 1)
        out.append(row)
    return out


def print_table(report: dict[str, Any]) -> None:
    """The human report on stdout."""
    targets = report["targets"]
    table = Table(
        title=f"bridge latency on {report['corpus']['package']} "
        f"({report['corpus']['files']} files), {report['runs']} runs, ms (median / p95), "
        f"code at {report['commit']}",
        caption=f"class {targets['cls']['node_id']}, method {targets['method']['node_id']}; "
        "medians: envelope = in-process - raw, transport = MCP - in-process, overhead = "
        f"MCP - raw (* map tools: MCP - in-process); watcher {'on' if report['watch'] else 'off'}; "
        f"load average {report['load']:.1f} on {os.cpu_count()} CPUs",
    )
    columns = ("tool", "raw LSP", "in-process", "MCP stdio", "envelope", "transport", "overhead")
    for column in (*columns, "answer"):
        table.add_column(column, justify="left" if column == "tool" else "right")

    def cell(s: dict[str, float] | None) -> str:
        return f"{s['median_ms']:.1f} / {s['p95_ms']:.1f}" if s else "-"

    def delta(ms: float | None) -> str:
        return "-" if ms is None else f"{ms:+.1f}"

    for row in report["tools"]:
        mark = "" if row["overhead_vs"] == "raw" else "*"
        overhead = (
            f"{row['overhead_ms']:+.1f}{mark} ({row['overhead_pct']:+.0f}%)"
            if row["overhead_pct"] is not None
            else "-"
        )
        table.add_row(
            row["tool"],
            cell(row["raw"]),
            cell(row["inproc"]),
            cell(row["mcp"]),
            delta(row["envelope_ms"]),
            delta(row["transport_ms"]),
            overhead,
            f"{row['answer_bytes'] / 1024:.1f} KB" if row["mcp"] else "-",
        )
    out = Console(highlight=False)
    out = Console(highlight=False, width=max(out.width, TABLE_WIDTH))
    out.print(table)
    cold = report["cold"]
    out.print(
        f"cold (excluded above): map {'loaded' if cold['map_from_snapshot'] else 'built'} "
        f"in {cold['map_open_s']:.2f} s; in-process first "
        f"{cold['first_tool']} {cold['inproc']['first_call_s']:.2f} s; MCP session start "
        f"{cold['mcp']['session_start_s']:.2f} s, first {cold['first_tool']} "
        f"{cold['mcp']['first_call_s']:.2f} s"
    )
