"""A graph answer about a node with more users than its budget lists.

The tools build an item's edge facts only for the items the answer can list;
the listed items, their order and the count left out must be the ones a full
answer, cut afterwards, gives. Real AppContext and tools on a real map.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bridge.context import AppContext
from bridge.tools.mapgraph import map_impact, map_neighbors

USERS = 300
TARGET = "pkg/core.py#helper"
TIMEOUT_S = 60.0


def _repo(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text("def helper(x):\n    return x + 1\n")
    for i in range(USERS // 10):
        calls = "".join(
            f"def user_{i}_{j}(v):\n    return helper(v) + helper({j})\n\n\n" for j in range(10)
        )
        (root / "pkg" / f"mod_{i:02}.py").write_text(f"from pkg.core import helper\n\n\n{calls}")
    (root / "codeanchor.toml").write_text("watch = false\n")
    return root


def test_a_cut_answer_lists_what_the_full_answer_lists_first(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")

    async def answers() -> list[tuple[dict[str, Any], dict[str, Any]]]:
        app = AppContext(root)
        try:
            pairs = []
            for ask, key in ((_neighbors, "neighbors"), (_impact, "dependents")):
                small, full = await ask(app, 400), await ask(app, 50_000)
                assert full["truncated"] is None, full["truncated"]
                pairs.append((small, full))
                assert len(full["data"][key]) == USERS
            return pairs
        finally:
            await app.aclose()

    pairs = asyncio.run(asyncio.wait_for(answers(), TIMEOUT_S))
    for (small, full), key in zip(pairs, ("neighbors", "dependents"), strict=True):
        kept = small["data"][key]
        assert 0 < len(kept) < USERS
        assert kept == full["data"][key][: len(kept)]  # same items, order and facts
        assert small["truncated"]["kept"] == len(kept)
        assert small["truncated"]["dropped"] == USERS - len(kept)


async def _neighbors(app: AppContext, budget: int) -> dict[str, Any]:
    return dict(await map_neighbors(app, TARGET, direction="in", budget=budget))


async def _impact(app: AppContext, budget: int) -> dict[str, Any]:
    return dict(await map_impact(app, TARGET, budget=budget))
