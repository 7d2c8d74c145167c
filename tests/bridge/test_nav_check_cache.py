"""The completeness check reuses the map and its cache only for content as it is now.

Unit tests of the labelling (no servers), then one question asked twice on a
real ty server with the files edited in between: the second answer must see
the edit (a new file, a comment turned into a definition) although the first
filled the cache and the map still holds the old content.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

from bridge.context import AppContext
from bridge.tools.live_target import aim_at
from bridge.tools.nav import nav_callers, nav_references
from map import FileExtract, extract_file
from tests.conftest import FIXTURES, require_binary
from tests.lsp.conftest import line_of
from verify import CheckCache, Site, callers_from_callees, label, scan

TS = (".ts",)
TIMEOUT_S = 240.0
TARGET = "app/shapes.py#total_area"


def _roles(
    root: Path, name: str, cache: CheckCache | None = None, **options: Any
) -> tuple[dict[tuple[str, int], str | None], int]:
    found = label(root, name, scan(root, name, TS, cache=cache).sites, cache=cache, **options)
    return {s.place: s.role for s in found.sites}, found.unparsed_files


def test_files_the_map_holds_as_they_are_need_no_parse_and_edited_ones_are_parsed(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.ts").write_text("export function go() {}\n")
    (tmp_path / "b.ts").write_text("go();\n")
    mapped = {rel: extract_file(rel, (tmp_path / rel).read_bytes()) for rel in ("a.ts", "b.ts")}

    def known(rel: str) -> FileExtract | None:
        return mapped.get(rel)

    roles, unparsed = _roles(tmp_path, "go", max_files=0, known=known)
    assert roles == {("a.ts", 1): "definition", ("b.ts", 1): "call"}
    assert unparsed == 0
    (tmp_path / "b.ts").write_text("// go();\n")  # the map still holds the call
    roles, unparsed = _roles(tmp_path, "go", max_files=0, known=known)
    assert roles[("b.ts", 1)] is None  # not labelled from the map's old content
    assert unparsed == 1
    roles, _ = _roles(tmp_path, "go", max_files=1, known=known)
    assert roles[("b.ts", 1)] == "mention"


def test_an_edit_between_two_questions_is_seen_by_the_cached_scan_and_labels(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.ts").write_text("export function go() {}\n")
    (tmp_path / "b.ts").write_text("go();\n")
    cache = CheckCache()
    roles, _ = _roles(tmp_path, "go", cache=cache)
    assert roles == {("a.ts", 1): "definition", ("b.ts", 1): "call"}
    (tmp_path / "b.ts").write_text("// go();\ngo();\n")
    (tmp_path / "c.ts").write_text("go();\n")
    found = scan(tmp_path, "go", TS, cache=cache)
    labelled = label(tmp_path, "go", found.sites, cache=cache)
    assert {s.place: s.role for s in labelled.sites} == {
        ("a.ts", 1): "definition",
        ("b.ts", 1): "mention",
        ("b.ts", 2): "call",
        ("c.ts", 1): "call",
    }
    (tmp_path / "c.ts").unlink()
    assert [s.place for s in scan(tmp_path, "go", TS, cache=cache).sites] == [
        ("a.ts", 1),
        ("b.ts", 1),
        ("b.ts", 2),
    ]


def _py_app(dest: Path) -> Path:
    root = dest / "py_app"
    shutil.copytree(FIXTURES / "py_app", root)
    (root / "codeanchor.toml").write_text('servers = { python = "ty" }\n')
    return root


def test_callers_recovered_after_an_edit_come_from_the_outline_as_it_is_now(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    root = _py_app(tmp_path)
    totals = root / "app" / "totals.py"
    totals.write_text(
        "from app.shapes import Square, total_area\n\n\n"
        "def grand_total() -> float:\n"
        "    return total_area([Square(1.0)])\n",
        encoding="utf-8",
    )

    def call_site() -> Site:
        line = line_of(root, "app/totals.py", "return total_area")
        return Site("app/totals.py", line, 12, "", "call", True)

    async def recovered(app: AppContext) -> list[tuple[str, int]]:
        position = (await aim_at(app, TARGET, None)).position
        found = await callers_from_callees(app, position, [call_site()])
        return [(site.name, site.location.line) for site in found]

    async def scenario() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        app = AppContext(root)
        try:
            await nav_callers(app, TARGET)  # the server loaded (the call hierarchy finds it)
            first = await recovered(app)  # fills the outline cache
            totals.write_text(
                "from app.shapes import Square, total_area\n\n\n"
                "def unit() -> float:\n"
                "    return 1.0\n\n\n"
                "def overall_total() -> float:\n"
                "    return total_area([Square(unit())])\n",
                encoding="utf-8",
            )
            return first, await recovered(app)
        finally:
            await app.aclose()

    async def bounded() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        async with asyncio.timeout(TIMEOUT_S):
            return await scenario()

    first, second = asyncio.run(bounded())
    assert first == [("grand_total", 4)]
    assert second == [("overall_total", 8)]


def _unconfirmed(data: dict[str, Any]) -> dict[tuple[str, int], str]:
    return {(u["path"], u["line"]): u["seenAs"] for u in data["unconfirmed"]}


def test_references_asked_again_after_an_edit_see_the_edit_not_the_cache_or_the_map(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    root = _py_app(tmp_path)
    totals = root / "app" / "totals.py"
    totals.write_text(
        "from app.shapes import Square, total_area\n\n\n"
        "def grand_total() -> float:\n"
        "    # total_area over one unit square\n"
        "    return total_area([Square(1.0)])\n",
        encoding="utf-8",
    )
    comment = line_of(root, "app/totals.py", "# total_area")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        app = AppContext(root)
        try:
            await app.code_map()  # the map holds the files as first written
            first: dict[str, Any] = dict((await nav_references(app, TARGET))["data"])
            totals.write_text(
                totals.read_text().replace(
                    "# total_area over one unit square", "def total_area() -> None: ..."
                )
            )
            (root / "app" / "notes.py").write_text('"""total_area, said in a docstring."""\n')
            second: dict[str, Any] = dict((await nav_references(app, TARGET))["data"])
            return first, second
        finally:
            await app.aclose()

    async def bounded() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(TIMEOUT_S):
            return await scenario()

    first, second = asyncio.run(bounded())
    assert _unconfirmed(first) == {("app/totals.py", comment): "mention"}
    after = _unconfirmed(second)
    assert after[("app/totals.py", comment)] == "definition"
    assert after[("app/notes.py", 1)] == "mention"
    assert second["crossCheck"]["candidateSites"] > first["crossCheck"]["candidateSites"]
