"""A short soak through a real MCP stdio client: a few hundred cycles of edit,
rebuild, search, neighbours, references and memories on one `codeanchor serve`.

Nothing is lost (every edit is found by the next search, every memory saved is
listed by the next check) and the server's caches stay within their bounds
(`map_status`'s `caches`), however many edits went by: the objects frozen out of
the collector's reach do not grow with edits, and every cache holds at most what
the configuration allows. The language server, held to a bound every weighing
finds it past, is restarted now and then mid-loop, and no answer fails or is lost
for it. Memory as the kernel counts it (RSS) is scripts/bench_soak.py's, not a test's.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.bridge.mcp_session import call, example_repo, serve
from tests.conftest import require_binary

CYCLES = 200
WARM = 40
MEMORY_EVERY = 5
BOUNDS = {"checkNames": 4, "checkTrees": 2, "checkOutlines": 2, "openDocuments": 3}
FILES = ("shop/cart.py", "shop/pricing.py", "shop/app.py", "shop/middleware/rate_limit.py")
ANCHOR = "shop/pricing.py#apply_discount"


@pytest.mark.timeout(900)
def test_a_long_edit_loop_loses_nothing_and_keeps_the_caches_bounded(tmp_path: Path) -> None:
    require_binary("ty")
    root = example_repo(tmp_path, watch=True)
    (root / "codeanchor.toml").write_text(
        "watch = true\n"
        "[cache]\nnames_kept = 4\ntrees_kept = 2\noutlines_kept = 2\n"
        "[live]\nmax_open_documents = 3\nmax_server_mb = 1\nrecycle_interval = 0.0\n"
    )
    warm, last, saved, servers = asyncio.run(asyncio.wait_for(_soak(root), 840))
    assert warm["frozenObjects"] >= last["frozenObjects"]  # edits freeze nothing
    for key, bound in BOUNDS.items():
        assert last[key] <= bound, (key, last)
    assert last["checkNames"] == BOUNDS["checkNames"]  # the loop did fill it
    assert saved == CYCLES // MEMORY_EVERY
    [ty] = servers
    assert ty["name"] == "ty" and ty["recycles"] >= 1, ty  # restarted for its size...
    assert ty["restarts"] == ty["recycles"]  # ...and never for a crash


async def _soak(
    root: Path,
) -> tuple[dict[str, Any], dict[str, Any], int, list[dict[str, Any]]]:
    memories: list[str] = []
    async with serve(root) as client:
        await call(client, "map_rebuild")
        warm: dict[str, Any] = {}
        for n in range(CYCLES):
            path = FILES[n % len(FILES)]
            file = root / path
            original = file.read_bytes()
            name = f"soak_probe_{n}"
            file.write_bytes(original + f"\n\ndef {name}() -> int:\n    return {n}\n".encode())
            try:
                await call(client, "map_rebuild")
                hits = (await call(client, "map_search", query=name))["data"]["hits"]
                node = f"{path}#{name}"
                assert node in [hit["nodeId"] for hit in hits], f"cycle {n}: {node} not found"
                await call(client, "map_neighbors", node_id=node, direction="in")
                await call(client, "nav_references", target=node)
                if n % MEMORY_EVERY == 0:
                    saved = await call(client, "memory_save", text=f"note {n}", refs=[ANCHOR])
                    memories.append(saved["data"]["id"])
                    checked = await call(client, "memory_check", budget=50_000)
                    listed = {m["id"] for m in checked["data"]["memories"]}
                    assert listed == set(memories), f"cycle {n}: a memory went unchecked"
            finally:
                file.write_bytes(original)
            if n == WARM:
                warm = (await call(client, "map_status"))["data"]["caches"]
        status = (await call(client, "map_status"))["data"]
    return warm, status["caches"], len(memories), status["languageServers"]
