"""Views of the map's answers: `map ...`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bridge.cli.views.text import (
    Page,
    completeness,
    footer,
    lines_of,
    plural,
    verified_mark,
    where,
)


def _path_of(node_id: str) -> str:
    return node_id.partition("#")[0]


def _counts(data: Mapping[str, Any]) -> str:
    languages = ", ".join(f"{k} {v}" for k, v in data["languages"].items()) or "none"
    skipped = ", ".join(f"{v} {k}" for k, v in sorted(data["skipped"].items())) or "none"
    return (
        f"{plural(data['files'], 'file')} ({languages}), {plural(data['symbols'], 'symbol')}, "
        f"{plural(data['edges'], 'edge')}; skipped: {skipped}"
    )


def status(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map status`: the counts, when it was built, staleness, watcher, what is loaded."""
    data = envelope["data"]
    page.add(f"map: {_counts(data)}")
    took = data["lastBuildSeconds"]
    page.add(f"built at {data['builtAt'] or 'never'}" + (f" (took {took} s)" if took else ""))
    stale = data["staleFiles"]
    page.add(f"stale files: {', '.join(stale) if stale else 'none'}", "yellow" if stale else "")
    watcher = data["watcher"]
    line = f"watcher: {watcher['status']}"
    if watcher.get("lastError"):
        line += f" ({watcher['lastError']})"
    page.add(line)
    loaded = "loaded" if data["graphLoaded"] else "not loaded (answers come from the store)"
    page.add(f"graph: {loaded}; link: {'loaded' if data['linkLoaded'] else 'not loaded'}")
    footer(page, envelope)


def build(page: Page, envelope: Mapping[str, Any], root: str) -> None:
    """`map build`: what the map holds and what this build did."""
    data = envelope["data"]
    page.add(f"map of {root}: {_counts(data)}")
    page.add(
        f"{data['changedCount']} re-extracted, {data['removedCount']} removed; "
        f"{data['durationSeconds']:.2f} s"
    )
    shared = data["teamStore"]
    if shared["inUse"]:
        page.add(
            f"team store {shared['store']}: {shared['fetched']} files taken, "
            f"{shared['extracted']} extracted here, {shared['published']} rows published, "
            f"{shared['refused']} refused" + (f" ({shared['reason']})" if shared["reason"] else "")
        )
    if shared["snapshot"]:
        page.add(f"started from the team's map of {shared['snapshot']}")
    if "commit" in data:
        page.add(f"published the map of {data['commit']} to {shared['store']}")
    footer(page, envelope)


def outline(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map show`: the file's symbols as the map has them, `LINES  KIND  NODE ID`."""
    data = envelope["data"]
    page.add(f"{data['path']} (map)", "bold")
    page.table(
        (
            [lines_of(s["lines"]), s["kind"], "  " * s["depth"] + s["nodeId"]]
            for s in data["symbols"]
        ),
        header=["lines", "kind", "node ID"],
    )
    footer(page, envelope)


def search(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map search`: `path:line  kind  node ID`, best match first."""
    data = envelope["data"]
    page.table(
        (
            [where(h["path"], (h.get("lines") or [None])[0]), h["kind"], h["nodeId"]]
            for h in data["hits"]
        ),
        header=["where", "kind", "node ID"],
    )
    page.add(f"{plural(len(data['hits']), 'hit')} for {data['query']!r}")
    footer(page, envelope)


def walk(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map callers|callees|impact`: each node reached, how, how sure; then what
    the map could not tie, the completeness line and the live check (`--verify`)."""
    data = envelope["data"]
    incoming = data.get("direction", "in") == "in"
    items = data.get("neighbors", data.get("dependents", []))
    deep = (data.get("depth") or 2) > 1
    rows = []
    for item in items:
        # a user's use lines are in the user's file; a callee's in the file of what
        # it was reached from
        at_file = _path_of(item["nodeId"] if incoming else item["from"])
        at = f"{at_file}:{', '.join(str(n) for n in item['at'])}" if item["at"] else ""
        row = [where(_path_of(item["nodeId"]), (item.get("lines") or [None])[0]), item["kind"]]
        row += [item["nodeId"], f"{item['via']} {at}".strip(), f"{item['confidence']:.2f}"]
        if deep:
            row.insert(0, str(item["distance"]))
        rows.append([*row, verified_mark(item)])
    header = ["defined at", "kind", "node ID", "via (use lines)", "confidence"]
    page.table(rows, header=(["hop", *header] if deep else header) + [""])
    noun = "user" if incoming else "callee"
    what = "dependent" if "dependents" in data else noun
    page.add(f"{plural(len(items), what)} of {data['nodeId']} (static edges from the map)")
    _open_uses(page, data)
    completeness(page, data)
    _verification(page, data)
    footer(page, envelope)


def path(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map path`: the chain, then each step with its lines and confidence."""
    data = envelope["data"]
    if not data["found"]:
        page.add(f"no path from {data['from']} to {data['to']}")
    else:
        page.add(" -> ".join(data["path"]), "bold")
        page.table(
            [
                step["from"],
                f"{step['via']} ({', '.join(str(n) for n in step['at'])})",
                step["to"],
                f"{step['confidence']:.2f}",
                verified_mark(step),
            ]
            for step in data["steps"]
        )
    _open_uses(page, data)
    completeness(page, data)
    _verification(page, data)
    footer(page, envelope)


def changes(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map changes`: the changed symbols and their dependents, the memories touched."""
    data = envelope["data"]
    until = data["until"] or "the working tree"
    counts = ", ".join(f"{v} {k}" for k, v in data["counts"].items() if v) or "no symbol changed"
    page.add(f"from {data['since'][:12]} to {until}: {counts}", "bold")
    for f in data["files"]:
        page.add(
            f"  {f['change']}: {f['path']}" + (f" -> {f['newPath']}" if "newPath" in f else "")
        )
    for symbol in data["symbols"]:
        name = symbol["nodeId"] or symbol["oldId"]
        if symbol["oldId"] and symbol["nodeId"] and symbol["oldId"] != symbol["nodeId"]:
            name = f"{symbol['oldId']} -> {symbol['nodeId']}"
        page.add(f"{symbol['change']}  {symbol['kind']}  {name}  lines {lines_of(symbol['lines'])}")
        for d in symbol["dependents"]:
            used = f"    used by {d['nodeId']} ({d['via']}, hop {d['distance']})"
            page.add(f"{used} {verified_mark(d)}".rstrip())
    for memory in data.get("memories", []):
        page.add(f"memory {memory['id']} ({memory['status']}): {memory['text']}", "yellow")
        for ref in memory["refs"]:
            page.add(f"    {ref['ref']}: {ref['status']}")
        for callee in memory["calleesChanged"]:
            page.add(f"    callee changed: {callee}")
    completeness(page, data)
    _verification(page, data)
    footer(page, envelope)


def overview(page: Page, envelope: Mapping[str, Any]) -> None:
    """`map overview`: the ranked repo map, as text."""
    data = envelope["data"]
    for line in data["text"].splitlines() or ["the map has no symbols"]:
        page.add(line)
    footer(page, envelope)


def _open_uses(page: Page, data: Mapping[str, Any]) -> None:
    sites: Sequence[Mapping[str, Any]] = data.get("unresolved") or []
    if not sites:
        return
    page.add(f"uses the map could not tie to a definition ({data['unresolvedCount']}):")
    page.table(
        (
            [
                where(s["path"], s["line"], s["column"]),
                s["name"] if s["receiver"] is None else f"{s['receiver']}.{s['name']}",
                s["why"],
                s["text"],
            ]
            for s in sites
        ),
        indent="  ",
    )


def _verification(page: Page, data: Mapping[str, Any]) -> None:
    v = data.get("verification")
    if not v:
        return
    line = (
        f"checked live ({v['method']}): {v['checked']} checked, {v['held']} held, "
        f"{v['notHeld']} not held, {v['unchecked']} unchecked"
    )
    reasons = ", ".join(f"{n} {code}" for code, n in v["uncheckedReasons"].items())
    page.add(line + (f" ({reasons})" if reasons else ""), "yellow" if v["notHeld"] else "green")
