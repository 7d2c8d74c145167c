"""Benchmark the map's callers against the live servers, on namesake-heavy samples.

On real projects nobody here tests on (checkouts given on the command line, e.g.
the mirrors the search tool's `fetch` brings, cloned under /tmp; never committed),
it samples functions and methods whose name is called somewhere, at least half of
them namesakes (scripts/accuracy/maptruth.py), and grades the map's callers
(map_neighbors in, `calls`: the call lines of its items) against the live server's
call hierarchy, asked directly (gopls, ty, clangd, typescript-language-server,
rust-analyzer when installed; for PHP intelephense's references: it has no call
hierarchy).
Per language it prints:

    recall / precision      call lines both list / the truth's, / the map's,
                            summed over the sample
    namesakes R / P         the same over the namesakes only
    falsely complete        answers that said `complete` while missing or adding a
                            call line (the goal: 0); `partial` answers counted apart
    server wrong            call lines the server leaves out and the map lists, read
                            by hand (scripts/accuracy/maptruth.py SERVER_WRONG, each
                            with its reason), and Go calls across an interface in a
                            test file of the method's own package (gopls counts them
                            in its other files and in other packages only): counted
                            in the truth, and the figures against the server as it
                            answers printed beside
    counted apart           call lines the server's call hierarchy left out and its
                            go-to-definition confirms (added to the truth); lines
                            in C macro bodies and lines that take the function as a
                            value, which a call hierarchy does not list, and lines
                            in code the server cannot see: in a preprocessor
                            conditional its configuration leaves out (its
                            go-to-definition finds nothing there), or calls through
                            a macro in a file its index does not cover (not in
                            compile_commands.json), or Go in a folder the go command
                            ignores (`_examples/` without a go.mod of its own):
                            left out of the map's
    cold / rebuild s        the map's cold build (and graph load) and a rebuild after
                            a one-file edit, median of --rounds fresh processes; with
                            --baseline TREE the same by the code in TREE (an exported
                            commit), alternating, and the ratio

    .venv/bin/python scripts/bench_map_truth.py go:/tmp/cli python:/tmp/click \
        --size 16 --baseline /tmp/main-export
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from accuracy.figures import percent
from accuracy.maptruth import Graded, ProjectRun, build_seconds, grade, median, sample
from benchinfo import code_commit

from bridge.config import BridgeConfig, Config
from bridge.context import AppContext
from map.live.codemap import CodeMap

SERVERS = {
    "go": "gopls",
    "python": "ty",
    "c": "clangd",
    "typescript": "typescript-language-server",
    "rust": "rust-analyzer",
    "php": "intelephense",
}
"""The servers asked, per language (intelephense, PHP's, has no call hierarchy)."""
LIVE_SETTINGS = {"request_timeout": 60.0, "cold_start_deadline": 30.0}
SETTLE_S = 300.0
"""How long the bench waits for a server to load its workspace before grading."""
GOALS = {"recall": 95.0, "precision": 97.0}
HERE = Path(__file__).resolve().parents[1]


async def measure(
    label: str, language: str, root: Path, size: int, seed: int, given: list[Any] | None
) -> ProjectRun:
    """One project's sample (`given`: the node IDs and namesake flags of an earlier
    run's, those the map still has), graded."""
    server = SERVERS[language]
    config = Config(
        bridge=BridgeConfig(watch=False), servers={language: server}, live=LIVE_SETTINGS
    )
    app = AppContext(root, config)
    run = ProjectRun(label, language, server)
    try:
        code_map = await app.code_map(graph=True)
        if given is None:
            picked = sample(code_map, root, language, size, seed)
        else:
            picked = [(node_id, flag) for node_id, flag in given if code_map.has_node(node_id)]
        run.symbols = len(picked)
        if picked:  # the truth waits for the server's index (clangd's is built in the background)
            await settled(app, code_map, picked[0][0])
        for node_id, namesake in picked:
            graded = await grade(app, code_map, node_id, namesake, label)
            run.graded.append(graded)
            print(
                f"  {label} {node_id}: truth {len(graded.truth)} map {len(graded.listed)} "
                f"right {graded.right} {graded.completeness}",
                file=sys.stderr,
            )
    finally:
        await app.aclose()
    return run


async def settled(app: AppContext, code_map: CodeMap, node_id: str) -> None:
    """Once the server asked about `node_id` has loaded its workspace (at most
    `SETTLE_S`): its answers before may miss callers in files not indexed yet."""
    path = code_map.node(node_id)["path"]
    await grade(app, code_map, node_id, False)  # starts the server
    deadline = time.monotonic() + SETTLE_S
    while app.live.still_loading(path) and time.monotonic() < deadline:  # noqa: ASYNC110 (no event: the pool is polled)
        await asyncio.sleep(1.0)


def figures(graded: list[Graded]) -> dict[str, Any]:
    """Recall, precision and completeness claims over `graded` (errors left out)."""
    ok = [g for g in graded if g.error is None]
    right = sum(g.right for g in ok)
    wrong = sum(len(g.server_wrong) for g in ok)
    return {
        "answers": len(ok),
        "errors": len(graded) - len(ok),
        "recall": percent(right, sum(len(g.truth) for g in ok)),
        "precision": percent(right, sum(len(g.listed) for g in ok)),
        "serverWrong": wrong,
        "serverRecall": percent(right - wrong, sum(len(g.truth) for g in ok) - wrong),
        "serverPrecision": percent(right - wrong, sum(len(g.listed) for g in ok)),
        "falselyComplete": sum(g.falsely_complete for g in ok),
        "partial": sum(g.completeness == "partial" for g in ok),
        "complete": sum(g.completeness == "complete" for g in ok),
        "confirmedByDefinition": sum(g.confirmed for g in ok),
        "inMacroBodies": sum(g.in_macros for g in ok),
        "takenAsValues": sum(g.as_values for g in ok),
        "inactiveForServer": sum(g.inactive for g in ok),
    }


def report(runs: list[ProjectRun], costs: dict[str, Any]) -> dict[str, Any]:
    """Per language and per project: the figures, the namesakes' too, the misses."""
    languages: dict[str, Any] = {}
    for language in dict.fromkeys(r.language for r in runs):
        mine = [g for r in runs if r.language == language for g in r.graded]
        languages[language] = {
            "projects": [r.label for r in runs if r.language == language],
            **figures(mine),
            "namesakes": figures([g for g in mine if g.namesake]),
        }
    projects = {
        r.label: {
            **figures(r.graded),
            "sampled": [[g.node_id, g.namesake] for g in r.graded],
            "wrong": [
                {
                    "nodeId": g.node_id,
                    "missed": sorted(g.truth - g.listed)[:5],
                    "added": sorted(g.listed - g.truth)[:5],
                    "serverWrong": sorted(g.server_wrong),
                    "completeness": g.completeness,
                }
                for g in r.graded
                if g.truth != g.listed or g.server_wrong
            ],
        }
        for r in runs
    }
    return {"commit": code_commit(), "languages": languages, "projects": projects, "cost": costs}


def costs(
    projects: list[tuple[str, str, Path]], baseline: Path | None, rounds: int
) -> dict[str, Any]:
    """Cold build and rebuild seconds per project, this code and the baseline's,
    alternating."""
    found: dict[str, Any] = {}
    for label, _, root in projects:
        mine: tuple[list[float], list[float]] = ([], [])
        theirs: tuple[list[float], list[float]] = ([], [])
        for _ in range(rounds):
            for tree, into in ((HERE, mine), (baseline, theirs)):
                if tree is None:
                    continue
                cold, rebuild = build_seconds(tree, root, 1)
                into[0].extend(cold)
                into[1].extend(rebuild)
        entry: dict[str, Any] = {"coldS": median(mine[0]), "rebuildS": median(mine[1])}
        if baseline is not None:
            entry |= {
                "baselineColdS": median(theirs[0]),
                "baselineRebuildS": median(theirs[1]),
                "coldRatio": median(mine[0]) / median(theirs[0]),
                "rebuildRatio": median(mine[1]) / median(theirs[1]),
            }
        found[label] = entry
    return found


def _table(result: dict[str, Any]) -> None:
    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}%"

    print(f"map callers vs live call hierarchy, code {result['commit']}")
    print(
        f"{'language':<11}{'answers':>8}{'recall':>9}{'precision':>11}{'ns R':>9}{'ns P':>9}"
        f"{'falsely complete':>18}{'partial':>9}  projects"
    )
    for language, f in result["languages"].items():
        n = f["namesakes"]
        print(
            f"{language:<11}{f['answers']:>8}{pct(f['recall']):>9}{pct(f['precision']):>11}"
            f"{pct(n['recall']):>9}{pct(n['precision']):>9}{f['falselyComplete']:>18}"
            f"{f['partial']:>9}  {', '.join(f['projects'])}"
        )
    for language, f in result["languages"].items():
        if f["serverWrong"]:
            print(
                f"{language}: {f['serverWrong']} call lines the server leaves out wrongly "
                f"(SERVER_WRONG, read by hand) counted in the truth; against the server as "
                f"it answers: recall {pct(f['serverRecall'])}, precision "
                f"{pct(f['serverPrecision'])}"
            )
        apart = (f["confirmedByDefinition"], f["inMacroBodies"], f["takenAsValues"])
        if any(apart) or f["inactiveForServer"]:
            print(
                f"{language}: counted apart: {apart[0]} call lines confirmed by the server's "
                f"go-to-definition (in the truth); left out of the map's: {apart[1]} in macro "
                f"bodies, {apart[2]} taking the function as a value, "
                f"{f['inactiveForServer']} the server cannot see"
            )
    print(
        f"goals: recall >= {GOALS['recall']}%, precision >= {GOALS['precision']}%, "
        "falsely complete 0"
    )
    for label, cost in result["cost"].items():
        line = f"{label}: cold {cost['coldS']:.2f} s, rebuild {cost['rebuildS']:.2f} s"
        if "coldRatio" in cost:
            line += (
                f" (baseline {cost['baselineColdS']:.2f} s / {cost['baselineRebuildS']:.2f} s:"
                f" x{cost['coldRatio']:.2f} / x{cost['rebuildRatio']:.2f})"
            )
        print(line)
    for label, project in result["projects"].items():
        for wrong in project["wrong"]:
            print(
                f"  {label} {wrong['nodeId']} [{wrong['completeness']}] "
                f"missed {wrong['missed']} added {wrong['added']}"
                + (f" server wrong {wrong['serverWrong']}" if wrong["serverWrong"] else "")
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("projects", nargs="+", help="LANGUAGE:PATH of a checkout")
    parser.add_argument("--size", type=int, default=16, help="symbols per project")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--rounds", type=int, default=3, help="build timings per code")
    parser.add_argument("--baseline", type=Path, help="a tree of the code to compare costs with")
    parser.add_argument("--json", action="store_true", help="machine output on stdout")
    parser.add_argument(
        "--same-sample",
        type=Path,
        help="grade the symbols an earlier --json run sampled (by project), not a new sample",
    )
    args = parser.parse_args(argv)
    projects = []
    for given in args.projects:
        language, _, path = given.partition(":")
        if language not in SERVERS or not Path(path).is_dir():
            parser.error(f"not LANGUAGE:PATH of a checkout: {given}")
        projects.append((Path(path).name, language, Path(path).resolve()))
    earlier = json.loads(args.same_sample.read_text())["projects"] if args.same_sample else {}
    runs = [
        asyncio.run(
            measure(
                label,
                language,
                root,
                args.size,
                args.seed,
                earlier[label]["sampled"] if label in earlier else None,
            )
        )
        for label, language, root in projects
    ]
    result = report(runs, costs(projects, args.baseline, args.rounds))
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        _table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
