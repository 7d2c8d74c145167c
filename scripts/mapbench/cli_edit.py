"""`cli-edit`: what a fresh CLI process (a git hook, CI, a script) waits for after a
one-file edit, whatever the map does inside: the wall time of `codeanchor map build
--root R --json` from process start to exit, and that process's peak RSS.

The edit appends a function to the file the parent names (the median-size one, as
update-median); the run fails unless the build re-extracted exactly that file and a
fresh `map search` then finds the new function (a timed no-op is worthless). The file
is restored and the store rebuilt afterwards, untimed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mapbench.build import PROBE
from mapbench.procs import Exited, codeanchor, run_to_exit

LABEL = "fresh CLI process: one-file edit -> map build exits"


def cli_edit(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Edit one file, then time a fresh `map build` to its exit (see the module)."""
    rel = str(args["file"])
    path = root / rel
    original = path.read_bytes()
    symbol = f"{rel}#_codeanchor_bench_probe_{args['seq']}"
    try:
        path.write_bytes(original + PROBE.format(seq=args["seq"]).encode())
        built, data = _map(root, "build")
        if (data["changedCount"], data["removedCount"]) != (1, 0):
            raise RuntimeError(
                f"map build after editing {rel} re-extracted {data['changedCount']} files "
                f"and removed {data['removedCount']} (expected 1 and 0)"
            )
        _, found = _map(root, "search", symbol.split("#")[1])
        if symbol not in [hit["nodeId"] for hit in found["hits"]]:
            raise RuntimeError(f"a fresh map search after map build does not find {symbol}")
    finally:
        path.write_bytes(original)
        _map(root, "build")  # untimed: leave the store as the disk is
    return {
        "timings": {LABEL: built.seconds},
        "rss_of": "CLI process",
        "process_rss_mb": built.peak_mb,
        "notes": {LABEL: ["1 file re-extracted, its new function then found by map search"]},
    }


def _map(root: Path, action: str, *rest: str) -> tuple[Exited, dict[str, Any]]:
    """`codeanchor map ACTION --root ROOT --json REST...` run to its exit, and its data."""
    done = run_to_exit(codeanchor("map", action, "--root", str(root), "--json", *rest))
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"map {action} exited {done.returncode}: {last[0]}")
    data: dict[str, Any] = json.loads(done.stdout)["data"]
    return done, data


FRESH = {"cli-edit": cli_edit}
"""Each fresh-process measure by name (run from a benchmark child, like IN_PROCESS)."""
