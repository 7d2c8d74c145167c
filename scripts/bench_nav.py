"""Benchmark the live layer on a real repository: networkx's source (~580 files).

The tree is copied from the installed networkx package into a temporary
folder (nothing is downloaded). Per Python server it measures:

    cold start     pool created -> first non-empty references answer
    warm queries   median and p95 per query type through LivePool, and the same
                   request sent raw to the same server in the same run (no
                   sync, no path checks, no conversion); the ratio is our overhead
    sync check     the disk-is-truth check before a query, with 1, 64 and 500
                   documents open and nothing changed, and with 1, 64 and 500
                   files changed on disk (one server, --sync-server)

    .venv/bin/python scripts/bench_nav.py                 # ty and pyright
    .venv/bin/python scripts/bench_nav.py --servers ty --runs 50
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import networkx
from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lsp.catalog import Catalog  # noqa: E402
from lsp.pool import LivePool  # noqa: E402
from lsp.session import ServerSession  # noqa: E402
from lsp.settings import LiveSettings  # noqa: E402
from lsp.uris import uri_of  # noqa: E402

TARGET = "networkx/classes/graph.py"
Raw = Callable[[ServerSession, types.TextDocumentIdentifier, types.Position], Awaitable[Any]]
Send = Callable[[LanguageClient, types.TextDocumentIdentifier, types.Position], Awaitable[Any]]


def _raw(method: str, send: Send) -> Raw:
    """`method` sent as is on the session's connection: no sync, no checks, no conversion."""
    return lambda session, doc, pos: session.request(method, lambda client: send(client, doc, pos))


def _copy_corpus(dest: Path) -> Path:
    root = dest / "nx"
    source = Path(networkx.__file__).parent
    shutil.copytree(source, root / "networkx", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pyproject.toml").write_text('[project]\nname = "nx"\nversion = "0"\n')
    return root


def _position(root: Path, path: str, needle: str) -> tuple[int, int]:
    text = (root / path).read_text(encoding="utf-8")
    offset = text.index(needle)
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:8.2f} {p95 * 1000:8.2f}"


async def _timed(make: Callable[[], Awaitable[Any]], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await make()
        samples.append(time.perf_counter() - start)
    return samples


async def _bench_server(server: str, root: Path, runs: int) -> None:
    catalog = Catalog.builtin().with_overrides({"python": server}, {})
    pool = LivePool(root, catalog, LiveSettings(request_timeout=60.0, cold_start_deadline=30.0))
    try:
        line, col = _position(root, TARGET, "number_of_nodes")
        start = time.perf_counter()
        found = await pool.references(TARGET, line, col)
        cold = time.perf_counter() - start
        print(
            f"\n== {server}: cold start to first non-empty references: {cold:.2f} s "
            f"({len(found)} references)"
        )
        session = pool.session("python")
        ident = types.TextDocumentIdentifier(uri=uri_of(root / TARGET))
        pos = types.Position(line=line, character=col)
        queries: dict[str, tuple[Callable[[], Awaitable[Any]], Raw]] = {
            "definition": (
                lambda: pool.definition(TARGET, line, col),
                _raw(
                    types.TEXT_DOCUMENT_DEFINITION,
                    lambda c, d, p: c.text_document_definition_async(
                        types.DefinitionParams(text_document=d, position=p)
                    ),
                ),
            ),
            "references": (
                lambda: pool.references(TARGET, line, col),
                _raw(
                    types.TEXT_DOCUMENT_REFERENCES,
                    lambda c, d, p: c.text_document_references_async(
                        types.ReferenceParams(
                            text_document=d,
                            position=p,
                            context=types.ReferenceContext(include_declaration=True),
                        )
                    ),
                ),
            ),
            "hover": (
                lambda: pool.hover(TARGET, line, col),
                _raw(
                    types.TEXT_DOCUMENT_HOVER,
                    lambda c, d, p: c.text_document_hover_async(
                        types.HoverParams(text_document=d, position=p)
                    ),
                ),
            ),
            "symbols": (
                lambda: pool.document_symbols(TARGET),
                _raw(
                    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
                    lambda c, d, _: c.text_document_document_symbol_async(
                        types.DocumentSymbolParams(text_document=d)
                    ),
                ),
            ),
        }
        print(f"{'query':<12} {'ours med':>8} {'p95':>8}   {'raw med':>8} {'p95':>8}  ratio")
        for name, (ours, raw) in queries.items():
            await ours()  # warm this query type
            mine = await _timed(ours, runs)
            theirs = await _timed(functools.partial(raw, session, ident, pos), runs)
            ratio = statistics.median(mine) / statistics.median(theirs)
            print(f"{name:<12} {_ms(mine)}   {_ms(theirs)}  {ratio:5.2f}")
    finally:
        await pool.aclose()


def _edit(paths: list[Path], round_: int) -> None:
    for path in paths:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"# bench edit {round_}\n")


async def _bench_sync(server: str, root: Path, files: list[Path], runs: int) -> None:
    catalog = Catalog.builtin().with_overrides({"python": server}, {})
    pool = LivePool(root, catalog, LiveSettings(max_open_documents=600, request_timeout=60.0))
    try:
        print(f"\n== sync check ({server}, {len(files)} .py files in the workspace)")
        session = pool.session("python")
        target = root / TARGET
        await session.sync(target)
        print(f"{'case':<28} {'median ms':>9} {'p95 ms':>8}")
        for count in (1, 64, 500):
            for path in files[:count]:
                await session.sync(path)
            await session.sync(target)
            idle = await _timed(lambda: session.sync(target), runs)
            print(f"{f'{count} open, nothing changed':<28} {_ms(idle)}")
        for count in (1, 64, 500):
            samples = []
            for round_ in range(3):
                _edit(files[:count], round_)
                start = time.perf_counter()
                await session.sync(target)
                samples.append(time.perf_counter() - start)
            print(f"{f'{count} changed on disk':<28} {_ms(samples)}")
    finally:
        await pool.aclose()


async def _run(args: argparse.Namespace, root: Path, files: list[Path]) -> None:
    for server in args.servers:
        await _bench_server(server, root, args.runs)
    await _bench_sync(args.sync_server, root, files, args.runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", nargs="+", default=["ty", "pyright"])
    parser.add_argument("--sync-server", default="ty")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_nav_") as tmp:
        root = _copy_corpus(Path(tmp))
        files = sorted(root.rglob("*.py"))
        print(f"corpus: networkx {networkx.__version__}, {len(files)} .py files, target {TARGET}")
        asyncio.run(_run(args, root, files))


if __name__ == "__main__":
    main()
