"""Measure the map's call edges against a live server's call hierarchy.

For every function and method the map finds under `--under` (default: the
whole tree), the live server (pyright or ty) is asked for its incoming calls;
each call site is mapped to the innermost map symbol around it (the same rule
the map uses for a reference's scope). The map's `calls` edges into the same
symbol are the map's answer. It prints, per server:

    map callers precision   caller pairs the map has that the server confirms
    map callers recall      caller pairs the server has that the map has too
    map call sites p / r    the same by (callee, file, line)

each for map edges of confidence >= 0, >= 0.5 and >= 0.9.

The oracle is the server (or, with `--server both`, what either of pyright and
ty lists): a dynamic call it cannot see counts against the map's precision.
`--dump FILE` writes the disagreements (JSON) for study.

    .venv/bin/python scripts/bench_map_edges.py --root /tmp/flask-3.0.3 --under src/
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lsp.catalog_config import catalog_from_config  # noqa: E402
from lsp.errors import LspError  # noqa: E402
from lsp.pool import LivePool  # noqa: E402
from map.live.codemap import CodeMap, MapSettings  # noqa: E402
from map.model import Symbol  # noqa: E402

CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
ATTEMPTS = 3
"""A query that fails (a timeout on a loaded machine) is asked again this often."""
EDGE_SETS = (frozenset({"calls"}), frozenset({"calls", "references"}))
"""The map's callers are its `calls` edges, or those and its `references` edges (a
function passed as a value: pyright's call hierarchy lists those, ty's does not)."""
THRESHOLDS = (0.0, 0.5, 0.9)
"""Confidence floors the map's edges are counted from: every edge, then only the
single by-name guesses and better, then only resolved edges."""
Pair = tuple[str, str]
Site = tuple[str, str, int]


def _innermost(symbols: list[Symbol], line: int, char: int, path: str) -> str:
    """The map symbol whose range holds the position most tightly, else the file."""
    best: Symbol | None = None
    for symbol in symbols:
        r = symbol.range
        inside = (r.start_line, r.start_char) <= (line, char) < (r.end_line, r.end_char)
        if inside and (
            best is None
            or (r.start_line, r.start_char) >= (best.range.start_line, best.range.start_char)
        ):
            best = symbol
    return best.node_id if best is not None else path


async def _live_edges(
    pool: LivePool, code_map: CodeMap, targets: list[Symbol]
) -> tuple[set[Pair], set[Site], int]:
    pairs: set[Pair] = set()
    sites: set[Site] = set()
    failed = 0
    for symbol in targets:
        path = symbol.node_id.partition("#")[0]
        found = None
        for _ in range(ATTEMPTS):
            try:
                found = await pool.incoming_calls(
                    path, symbol.selection.start_line, symbol.selection.start_char
                )
                break
            except LspError as exc:
                print(f"  {symbol.node_id}: {type(exc).__name__}", file=sys.stderr)
        if found is None:
            failed += 1
            continue
        for call in found:
            caller_path = call.location.path
            if caller_path.startswith("/"):
                continue
            symbols = code_map.symbols_in(caller_path)
            for span in call.call_spans:
                scope = _innermost(symbols, span.start_line, span.start_char, caller_path)
                pairs.add((scope, symbol.node_id))
                sites.add((symbol.node_id, caller_path, span.start_line + 1))
    return pairs, sites, failed


def _map_edges(
    code_map: CodeMap, targets: list[Symbol], kinds: frozenset[str], threshold: float
) -> tuple[set[Pair], set[Site]]:
    """The map's callers: edges of `kinds` of at least `threshold` confidence."""
    graph = code_map.graph
    pairs: set[Pair] = set()
    sites: set[Site] = set()
    for symbol in targets:
        for source, _, kind, edge in graph.in_edges(symbol.node_id, keys=True, data=True):
            data = code_map.edge_attrs(source, symbol.node_id, kind)
            if kind not in kinds or data is None or edge["confidence"] < threshold:
                continue
            pairs.add((source, symbol.node_id))
            path = source.partition("#")[0]
            sites.update((symbol.node_id, path, line) for line in data["lines"])
    return pairs, sites


def _ratio(hit: int, total: int) -> str:
    return f"{100.0 * hit / total:.1f}%" if total else "n/a"


async def _ask_servers(
    root: Path, servers: list[str], code_map: CodeMap, targets: list[Symbol]
) -> tuple[set[Pair], set[Site], int]:
    """The callers every server in `servers` lists, together (a union)."""
    pairs: set[Pair] = set()
    sites: set[Site] = set()
    failed = 0
    for server in servers:
        pool = LivePool(root, catalog_from_config({"servers": {"python": server}}))
        try:
            found = await _live_edges(pool, code_map, targets)
        finally:
            await pool.aclose()
        pairs |= found[0]
        sites |= found[1]
        failed += found[2]
    return pairs, sites, failed


def _run(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    started = time.monotonic()
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=str(Path(args.snapshot).resolve())))
    code_map.rebuild()
    print(f"map built in {time.monotonic() - started:.1f} s")
    targets = [
        s
        for path in sorted(code_map.files())
        if path.startswith(args.under) and path.endswith(".py")
        for s in code_map.symbols_in(path)
        if s.kind in CALLABLE_KINDS
    ]
    started = time.monotonic()
    servers = ["pyright", "ty"] if args.server == "both" else [args.server]
    live_pairs, live_sites, failed = asyncio.run(_ask_servers(root, servers, code_map, targets))
    took = time.monotonic() - started
    print(f"server {args.server}: {len(targets)} callables under {args.under or '.'}")
    print(f"  live queries {took:.1f} s, failed {failed}, live caller pairs {len(live_pairs)}")
    for kinds in EDGE_SETS:
        for threshold in THRESHOLDS:
            map_pairs, map_sites = _map_edges(code_map, targets, kinds, threshold)
            both, both_sites = map_pairs & live_pairs, map_sites & live_sites
            label = "+".join(sorted(kinds))
            print(
                f"  {label} confidence >= {threshold}: map caller pairs {len(map_pairs)}, "
                f"map callers precision {_ratio(len(both), len(map_pairs))}, "
                f"recall {_ratio(len(both), len(live_pairs))}; "
                f"call sites precision {_ratio(len(both_sites), len(map_sites))}, "
                f"recall {_ratio(len(both_sites), len(live_sites))}"
            )
    map_pairs, map_sites = _map_edges(code_map, targets, EDGE_SETS[1], args.dump_threshold)
    if args.dump:
        Path(args.dump).write_text(
            json.dumps(
                {
                    "map_only": sorted(map_pairs - live_pairs),
                    "live_only": sorted(live_pairs - map_pairs),
                    "map_only_sites": sorted(map_sites - live_sites),
                    "live_only_sites": sorted(live_sites - map_sites),
                },
                indent=1,
            )
        )


def main() -> None:
    """Parse the arguments and measure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="the project to measure on")
    parser.add_argument("--under", default="", help="only callables in files under this prefix")
    parser.add_argument(
        "--server",
        default="pyright",
        choices=("pyright", "ty", "both"),
        help="the oracle; both: a caller either server lists (they differ on decorators, "
        "functions passed as values and constructors)",
    )
    parser.add_argument("--snapshot", default="/tmp/bench_map_edges", help="map snapshot dir")
    parser.add_argument("--dump", help="write the disagreements to this JSON file")
    parser.add_argument(
        "--dump-threshold", type=float, default=0.9, help="the confidence floor of the dump"
    )
    _run(parser.parse_args())


if __name__ == "__main__":
    main()
