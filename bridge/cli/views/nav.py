"""Views of the live answers: `nav ...` and `resolve`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bridge.cli.views.text import (
    Page,
    completeness,
    footer,
    lines_of,
    plural,
    where,
)


def _target(data: Mapping[str, Any]) -> str:
    target = data.get("target") or {}
    asked = target.get("currentId") or target.get("requestedId")
    place = where(target.get("path", ""), target.get("line"))
    return f"{asked} ({place})" if asked else place


def _unconfirmed(page: Page, data: Mapping[str, Any]) -> None:
    """The lines naming the symbol that the server did not confirm."""
    sites = data.get("unconfirmed") or []
    if not sites:
        return
    page.add(f"not confirmed by the server ({data.get('unconfirmedCount', len(sites))}):")
    page.table(
        (
            [where(s["path"], s["line"], s["column"]), f"{s['seenAs']} ({s['source']})", s["text"]]
            for s in sites
        ),
        indent="  ",
    )


def locations(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav def|type-def|impl|refs`: one place per line, `path:line:col  text`."""
    data = envelope["data"]
    page.table(
        [
            where(p["path"], p["line"], p["column"]),
            p["text"] + (" (outside the root)" * bool(p.get("external"))),
        ]
        for p in data["locations"]
    )
    page.add(f"{plural(data['count'], 'location')} for {_target(data)}")
    _unconfirmed(page, data)
    completeness(page, data)
    footer(page, envelope)


def hover(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav hover`: the server's text as it sent it."""
    data = envelope["data"]
    page.add(_target(data), "bold")
    for line in (data.get("contents") or "(the server has nothing to show)").splitlines():
        page.add(line)
    footer(page, envelope)


def symbols(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav symbols`: the live outline, `LINES  KIND  NODE ID`, nested by indentation."""
    data = envelope["data"]
    rows: list[list[str]] = []

    def walk(entries: list[dict[str, Any]], depth: int) -> None:
        for entry in entries:
            name = entry["nodeId"] or f"{entry['name']} (no node ID)"
            rows.append(
                [f"{entry['startLine']}-{entry['endLine']}", entry["kind"], "  " * depth + name]
            )
            walk(entry.get("children", []), depth + 1)

    walk(data["symbols"], 0)
    page.add(f"{data['path']} (live outline)", "bold")
    page.table(rows, header=["lines", "kind", "node ID"])
    footer(page, envelope)


def workspace_symbols(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav workspace-symbols`: `path:line  kind  node ID` (or name and container)."""
    data = envelope["data"]
    page.table(
        (
            [
                where(s["path"], s["line"]),
                s["kind"],
                s["nodeId"] or (f"{s['container']}.{s['name']}" if s["container"] else s["name"]),
            ]
            for s in data["symbols"]
        ),
        header=["where", "kind", "node ID"],
    )
    languages = ", ".join(data["languages"]) or "none"
    page.add(f"{plural(data['count'], 'symbol')} matching {data['query']!r} ({languages})")
    footer(page, envelope)


def calls(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav callers|callees`: each function where it is defined, and the lines of the
    calls (in the caller's file for callers, in the target's for callees)."""
    data = envelope["data"]
    callers = "callers" in data
    entries = data["callers" if callers else "callees"]
    target_path = (data.get("target") or {}).get("path", "")
    rows = []
    for entry in entries:
        at = entry["path"] if callers else target_path
        call_lines = ", ".join(str(n) for n in entry["callLines"])
        defined = where(entry["path"], entry["line"])
        rows.append([entry["name"], entry["kind"], f"{at}:{call_lines}", defined])
    header = ["name", "kind", "calls at" if callers else "called at", "defined at"]
    page.table(rows, header=header)
    noun = "caller" if callers else "callee"
    page.add(f"{plural(data['count'], noun)} of {_target(data)}")
    _unconfirmed(page, data)
    completeness(page, data)
    footer(page, envelope)


def resolve(page: Page, envelope: Mapping[str, Any]) -> None:
    """`resolve`: where it is now, and how that compares with the map."""
    data = envelope["data"]
    if "enclosing" in data:
        position = data["position"]
        page.add(f"{where(position['path'], position['line'])} is inside:", "bold")
        for node_id in data["enclosing"] or ["(no symbol: top level of the file)"]:
            page.add(f"  {node_id}")
    place = data.get("location")
    if place is not None:
        name = data.get("currentId") or place.get("nodeId") or place["path"]
        kind = place.get("kind") or data.get("kind") or "file"
        span = lines_of([place["startLine"], place["endLine"]]) if "startLine" in place else ""
        page.table([[name, kind, f"{place['path']}:{span}" if span else ""]])
        if data.get("signature"):
            page.add(f"  {data['signature']}")
    if data.get("requestedId") and data.get("requestedId") != data.get("currentId"):
        page.add(f"asked for {data['requestedId']}: it is {data.get('currentId')} now", "yellow")
    page.add(_verdict(data), "green" if data["verified"] and not data.get("mapStale") else "yellow")
    footer(page, envelope)


def _verdict(data: Mapping[str, Any]) -> str:
    if not data["verified"]:
        return "not verified: no live answer; this is the map's location"
    said = ["verified live"]
    if data.get("mapStale"):
        old = data.get("mapRange") or {}
        said.append(f"the map is stale (it has lines {old.get('startLine')}-{old.get('endLine')})")
    elif data.get("mapStale") is False:
        said.append("the map agrees")
    if data.get("relocated"):
        said.append("relocated: it moved to another container or file")
    return "; ".join(said)


def diagnostics(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav diagnostics`: one line per diagnostic, as compilers print them."""
    data = envelope["data"]
    for d in data["diagnostics"]:
        tag = " [new]" if d["change"] == "new" else ""
        page.add(
            f"{where(d['path'], d['line'], d['column'])}: {d['severity']}: {d['message']}{tag}"
        )
    baseline = data["baseline"]
    against = f"against {baseline['commit']}" if baseline else "no baseline: see the warnings"
    page.add(
        f"{plural(data['errorCount'], 'error')} ({data['newErrorCount']} new, {against}), "
        f"{plural(data['warningCount'], 'warning')}"
    )
    if "since" in data["scope"]:
        why = Counter(f["why"] for f in data["files"])
        users = why["uses_changed_symbol"] + why["names_removed_symbol"]
        page.add(
            f"checked {plural(len(data['files']), 'file')} since {data['scope']['since']} "
            f"({why['changed']} changed, {users} using what changed)"
        )
    for left in data["notChecked"]:
        page.add(f"not checked: {left['path']}: {left['reason']}: {left['message']}", "yellow")
    completeness(page, data)
    footer(page, envelope)


def rename(page: Page, envelope: Mapping[str, Any]) -> None:
    """`nav rename`: each file's diff, then what was (or would be) written (a preview
    says so in its warning)."""
    data = envelope["data"]
    for changed in data["files"]:
        page.add(
            f"{changed['path']}: {plural(changed['edits'], 'edit')} (hash {changed['hash']})",
            "bold",
        )
        for line in changed["diff"].splitlines():
            style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
            page.add(line, style)
    done = "renamed" if data["applied"] else "would rename"
    page.add(
        f"{done} {_target(data)} to {data['newName']}: {plural(data['editCount'], 'edit')} "
        f"in {plural(data['fileCount'], 'file')}"
    )
    for left in data["notRenamed"]:
        page.add(f"not renamed: {where(left['path'], left['line'])}: {left['why']}", "yellow")
    completeness(page, data)
    footer(page, envelope)
