"""`serve-offline`: a server restarted after edits made while none ran, measured through
a real MCP stdio session to the first answers that include those edits.

On a valid store with no server running, it appends a new function to the median
file and a caller of it to a sibling file (mapbench/targets.OfflineEdit), starts
`codeanchor serve` (watching, as by default) and times, asked in this order and each
polled until its answer includes the edit:

    initialize -> the first map_search that finds the new function
    initialize -> the first map_neighbors (in, one hop) of it that lists the caller
    process start -> map_impact of it answered (it waits for the graph load), which
                 must list the caller too

with the server's peak RSS at each and whether map_status said the graph was still
loading after the first two. The files are restored and map_rebuild run before the
session ends, so the store is valid again.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from mcp import Client

from mapbench.labels import CALLER_LISTED, GRAPH_LOADED, GRAPH_LOADING, SEARCH_FOUND
from mapbench.session import CALL_TIMEOUT_S, call, configure, serve, server_peak_mb, until
from mapbench.targets import OfflineEdit, caller_file, sibling_sizes

POLL_S = 0.05
"""Between asks of an answer that does not include the edits yet: gently, as the server
may be loading (and may take them in only once its graph is loaded, so each is polled
for as long as a call may take)."""


async def offline(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Edit two files offline, start a server, time its first answers that include them."""
    configure(root, watch=True)
    rel = str(args["file"])
    edit = OfflineEdit(rel, caller_file(rel, sibling_sizes(root, rel)), int(args["seq"]))
    originals = {path: (root / path).read_bytes() for path in (edit.callee_file, edit.caller_file)}
    (root / edit.callee_file).write_bytes(originals[edit.callee_file] + edit.callee_text().encode())
    (root / edit.caller_file).write_bytes(originals[edit.caller_file] + edit.caller_text().encode())
    try:
        launched = time.perf_counter()
        async with serve(root) as client:
            initialized = time.perf_counter()
            try:
                found = await _first_answers(client, edit, launched, initialized)
            finally:
                _restore(root, originals)
                await call(client, "map_rebuild")  # leave the store as the disk is
            peak = server_peak_mb()
    finally:
        _restore(root, originals)
    return {**found, "rss_of": "server", "process_rss_mb": peak}


async def _first_answers(
    client: Client, edit: OfflineEdit, launched: float, initialized: float
) -> dict[str, Any]:
    """The timings, RSS and notes of the module's three answers (asked in its order)."""
    await _until_listed(client, edit.callee_id, "hits", "map_search", query=edit.callee, limit=5)
    found = time.perf_counter()
    found_rss = server_peak_mb()
    await _until_listed(
        client, edit.caller_id, "neighbors", "map_neighbors", node_id=edit.callee_id, direction="in"
    )
    listed = time.perf_counter()
    listed_rss = server_peak_mb()
    status = await call(client, "map_status")
    impact = await call(client, "map_impact", node_id=edit.callee_id, depth=2)
    graph = time.perf_counter()
    if edit.caller_id not in _ids(impact["data"]["dependents"]):
        raise RuntimeError(f"map_impact of {edit.callee_id} does not list {edit.caller_id}")
    loading = [] if status["data"]["graphLoaded"] else [GRAPH_LOADING]
    return {
        "timings": {
            SEARCH_FOUND: found - initialized,
            CALLER_LISTED: listed - initialized,
            GRAPH_LOADED: graph - launched,
        },
        "rss_at_mb": {
            SEARCH_FOUND: found_rss,
            CALLER_LISTED: listed_rss,
            GRAPH_LOADED: server_peak_mb(),
        },
        "notes": {SEARCH_FOUND: loading, CALLER_LISTED: loading},
    }


async def _until_listed(
    client: Client, node: str, key: str, tool: str, **arguments: Any
) -> dict[str, Any]:
    """The first answer of `tool` whose data[`key`] lists `node`, asked until then."""
    return await until(
        client,
        lambda answer: node in _ids(answer["data"][key]),
        tool,
        deadline_s=CALL_TIMEOUT_S,
        every_s=POLL_S,
        **arguments,
    )


def _ids(items: list[dict[str, Any]]) -> list[str]:
    return [item["nodeId"] for item in items]


def _restore(root: Path, originals: dict[str, bytes]) -> None:
    for path, content in originals.items():
        (root / path).write_bytes(content)


SESSIONS = {"serve-offline": offline}
"""Each restart measure by name."""
