"""Benchmark the change-time loop: edit a function, ask nav_diagnostics at once, grade it.

On real projects (clones given on the command line, copied to a temporary
git repository first), each scripted change of a function that other files
call (a required parameter added, a parameter removed, the function renamed
by hand, its return type changed, the function deleted) is written to disk
and, at once, `nav_diagnostics {}` is asked in process (the servers and the
map warm, as in an agent's running session) with a large budget, then at the
default budget. Each answer is graded against the language's own checker run
from the command line on the same tree (ty check; tsc --noEmit from
.tools/node; go build -gcflags=-e and go vet; cc -fsyntax-only over the
compilation database clangd is given), before and after the change:

    recall        the checker's new error lines (absent before the change, by
                  file, message and line text) that the answer lists as errors
    wrong_new     answer errors marked `new` on a line that is no new error
    seconds       the wait for the answer, edit written -> answer (large budget)
    server_cpu    CPU seconds the language server's processes used meanwhile
    complete_miss the answer said `complete` yet missed a new error (must be 0)
    new_first     at the default budget, the errors shown begin with the new ones

Then each function is renamed with a `nav_rename` preview, applied, and the
checker counts the errors the rename left (new ones); the preview's
`completeness` and `notRenamed` (when given) say whether it said so.

    .venv/bin/python scripts/bench_change_time.py go=/tmp/src/mux python=/tmp/src/x
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from changebench.changes import Target, edit, targets  # noqa: E402
from changebench.checkers import Line, checker_errors, new_error_lines, text_of  # noqa: E402
from changebench.cpu import tree_cpu_seconds  # noqa: E402

from bridge.context import AppContext  # noqa: E402
from bridge.tools.diagnostics import nav_diagnostics  # noqa: E402
from bridge.tools.rename import nav_rename  # noqa: E402

LARGE_BUDGET = 50_000
PER_KIND = 2
KINDS = ("add_param", "remove_param", "rename", "return_type", "delete")


# --------------------------------------------------------------- grading


def _answer_errors(data: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [
        (d["path"], d["line"], d["change"]) for d in data["diagnostics"] if d["severity"] == "error"
    ]


def grade(data: dict[str, Any], truth: set[Line]) -> dict[str, Any]:
    errors = _answer_errors(data)
    listed = {(p, n) for p, n, _ in errors}
    found = truth & listed
    return {
        "truthNew": len(truth),
        "found": len(found),
        "wrongNew": sum(c == "new" and (p, n) not in truth for p, n, c in errors),
        "completeMiss": data["completeness"] == "complete" and found != truth,
        "completeness": data["completeness"],
        "reasons": [r["code"] for r in data["completenessReasons"]],
    }


def new_first(data: dict[str, Any]) -> bool:
    """The errors listed begin with every new one listed (none after an existing one)."""
    changes = [d["change"] for d in data["diagnostics"] if d["severity"] == "error"]
    seen_old = False
    for change in changes:
        if change != "new":
            seen_old = True
        elif seen_old:
            return False
    return True


async def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    answer = await call()
    return time.perf_counter() - start, answer


async def bench_project(
    language: str, source: Path, per_kind: int, kinds: tuple[str, ...] = KINDS
) -> list[dict[str, Any]]:
    work = Path(tempfile.mkdtemp(prefix=f"bench-change-{language}-"))
    root = work / source.name
    shutil.copytree(
        source, root, ignore=shutil.ignore_patterns(".git", ".codeanchor"), symlinks=True
    )
    (root / ".gitignore").open("a").write("\n.codeanchor/\n")
    _repoint_database(source, root)
    config = root / "tsconfig.json"
    if language == "typescript" and config.is_file():  # type packages are not installed
        text = config.read_text(encoding="utf-8")
        config.write_text(re.sub(r'"types"\s*:\s*\[[^\]]*\]', '"types": []', text))
    _commit_all(root)
    rows: list[dict[str, Any]] = []
    app = AppContext(root)
    try:
        chosen = targets(root, language, 40)
        # warm, as in an agent's session: the map built, the server started
        await nav_diagnostics(app)
        await nav_diagnostics(app, path=chosen[0].path)
        # after the warm-up: a C tree's compilation database is generated by then
        before = checker_errors(language, root)
        before_texts: dict[str, list[str]] = {}
        for p, n, _ in before:
            text_of(root, p, n, before_texts)
        for kind in kinds:
            done = 0
            for t in chosen:
                if done >= per_kind:
                    break
                original = (root / t.path).read_text(encoding="utf-8")
                changed = edit(kind, language, original, t)
                if changed is None:
                    continue
                done += 1
                (root / t.path).write_text(changed, encoding="utf-8")
                server = app.live.session(language)
                cpu = tree_cpu_seconds(server.pid)
                seconds, large = await _timed(lambda: nav_diagnostics(app, budget=LARGE_BUDGET))
                cpu = tree_cpu_seconds(server.pid) - cpu
                small_s, small = await _timed(lambda: nav_diagnostics(app))
                truth = new_error_lines(before, before_texts, checker_errors(language, root), root)
                row: dict[str, Any] = {
                    "language": language,
                    "project": source.name,
                    "kind": kind,
                    "target": t.node_id,
                }
                row |= grade(large["data"], truth)
                row |= {
                    "seconds": round(seconds, 2),
                    "serverCpu": round(cpu, 2),
                    "defaultSeconds": round(small_s, 2),
                    "newFirst": new_first(small["data"]),
                    "defaultShown": len(small["data"]["diagnostics"]),
                    "defaultNewShown": sum(
                        d["change"] == "new" for d in small["data"]["diagnostics"]
                    ),
                    "markedNew": large["data"]["newErrorCount"],
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
                (root / t.path).write_text(original, encoding="utf-8")
        rows.extend(
            await _renames(app, language, root, before, before_texts, chosen[: per_kind * 2])
        )
    finally:
        await app.aclose()
        shutil.rmtree(work, ignore_errors=True)
    return rows


async def _renames(
    app: AppContext,
    language: str,
    root: Path,
    before: list[tuple[str, int, str]],
    before_texts: dict[str, list[str]],
    chosen: list[Target],
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for t in chosen:
        snapshot = {p: (root / p).read_bytes() for p in _tracked(root)}
        try:
            new = t.name + "Renamed"
            preview = await nav_rename(app, t.node_id, new, budget=LARGE_BUDGET)
            hashes = {f["path"]: f["hash"] for f in preview["data"]["files"]}
            await nav_rename(app, t.node_id, new, apply=True, hashes=hashes, budget=LARGE_BUDGET)
        except Exception as exc:  # a failed rename is a figure too
            rows.append(
                {
                    "language": language,
                    "kind": "rename_preview",
                    "target": t.node_id,
                    "error": str(exc)[:200],
                }
            )
            continue
        after = checker_errors(language, root)
        left = new_error_lines(before, before_texts, after, root, (t.name, t.name + "Renamed"))
        data: dict[str, Any] = dict(preview["data"])
        left_sites: list[dict[str, Any]] = list(data.get("notRenamed", []))
        listed = {(site["path"], site["line"]) for site in left_sites}
        row = {
            "language": language,
            "project": root.name,
            "kind": "rename_preview",
            "target": t.node_id,
            "edits": data["editCount"],
            "errorsLeft": len(left),
            "leftListed": len(left & listed),
            "completeness": data.get("completeness"),
            "silentLeftovers": len(left - listed),
            "silentLines": [f"{p}:{n}" for p, n in sorted(left - listed)[:10]],
            "notChecked": [f["path"] for f in data.get("trial", {}).get("notChecked", [])][:10],
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        for p, content in snapshot.items():
            (root / p).write_bytes(content)
        await nav_diagnostics(app)  # the servers see the tree put back
    return rows


def _repoint_database(source: Path, root: Path) -> None:
    """A C tree's own compilation database (made by CMake: absolute paths) names the
    copy, not the clone it was made in."""
    for name in ("compile_commands.json", "build/compile_commands.json"):
        database = root / name
        if database.is_file():
            text = database.read_text(encoding="utf-8")
            database.write_text(text.replace(str(source.resolve()), str(root)), encoding="utf-8")


def _commit_all(root: Path) -> None:
    subprocess.run(
        "git init -q -b main && git add -A && git -c user.name=b -c user.email=b@b commit -qm base",
        shell=True,
        cwd=root,
        check=True,
    )


def _tracked(root: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True)
    return out.stdout.split()


def summary(rows: list[dict[str, Any]]) -> None:
    diag = [r for r in rows if r["kind"] != "rename_preview" and "truthNew" in r]
    print(
        "\nlanguage    changes  new(checker)  recall   wrong_new  complete_miss  "
        "median_s  max_s  new_first  median_cpu_s"
    )
    for language in sorted({r["language"] for r in diag}):
        mine = [r for r in diag if r["language"] == language]
        truth = sum(r["truthNew"] for r in mine)
        found = sum(r["found"] for r in mine)
        secs = sorted(r["seconds"] for r in mine)
        cpus = sorted(r["serverCpu"] for r in mine)
        print(
            f"{language:11} {len(mine):7} {truth:13} {found / truth if truth else 1:7.1%} "
            f"{sum(r['wrongNew'] for r in mine):10} {sum(r['completeMiss'] for r in mine):14} "
            f"{secs[len(secs) // 2]:9.2f} {secs[-1]:6.2f} "
            f"{sum(r['newFirst'] for r in mine):4}/{len(mine)} {cpus[len(cpus) // 2]:12.2f}"
        )
    renames = [r for r in rows if r["kind"] == "rename_preview"]
    graded = [r for r in renames if "errorsLeft" in r]
    listed = [r for r in graded if r["errorsLeft"] > 0 and r["silentLeftovers"] == 0]
    print(
        f"\nrename previews: {len(renames)}, refused {len(renames) - len(graded)}, "
        f"clean {sum(r['errorsLeft'] == 0 for r in graded)}, "
        f"left errors all listed {len(listed)}, "
        f"silent leftovers {sum(r['silentLeftovers'] > 0 for r in graded)} "
        f"({sum(r['silentLeftovers'] for r in graded)} lines)"
    )
    print("rename previews (applied, then the checker):")
    for r in renames:
        print("  ", json.dumps(r))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "projects", nargs="+", help="LANGUAGE=PATH of a clone (python, typescript, go, c)"
    )
    parser.add_argument("--per-kind", type=int, default=PER_KIND)
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--renames-only", action="store_true", help="grade the renames alone")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    print("load average at the start:", Path("/proc/loadavg").read_text().split()[:3])
    for spec in args.projects:
        language, _, path = spec.partition("=")
        kinds = () if args.renames_only else KINDS
        rows.extend(asyncio.run(bench_project(language, Path(path), args.per_kind, kinds)))
    summary(rows)
    print("load average at the end:", Path("/proc/loadavg").read_text().split()[:3])
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
