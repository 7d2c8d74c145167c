"""Benchmark: how often `memory check` gives the right status, on real history.

Real commit pairs from the git history of public Python projects (clones of
repositories fetched beforehand, e.g. with the `fetch` tool into
/work/.mirror/OWNER+NAME/repo; nothing is downloaded here, and nothing
fetched is committed: each repository is cloned into a temporary directory).
For each pair (A older, B newer, on the first-parent line of the default
branch): check out A, anchor memories to symbols, their line ranges and whole
files, check out B, run the check, and compare with a ground truth computed
independently of the product, from Python's own `ast` and `tokenize` over both
versions (see `scripts/memory_truth.py`).

Pairs: half around "refactor" commits (a .py file renamed, or .py files both
added and deleted, or ten or more .py files changed), A a few commits before
and B a few after; half random spans of 10-40 .py-touching commits. Anchors:
every function, class and method (module and class level) of the .py files
that differ between A and B, sampled down to --max-anchors per pair, plus a
few from untouched files; 30% also as a line range over the same lines;
every differing file as a whole-file reference.

Printed: right status per true status and per anchor type, the confusion
matrix, relocation / rename / moved-and-edited accuracy (status and place),
and stale-but-confident (stale code reported valid or relocated).

    .venv/bin/python scripts/bench_memory_accuracy.py [--repos DIR,DIR] [--pairs 12] [--json]

`--far`: far pairs instead (1,000 commits apart, of click and rich, which no
other benchmark or test here uses; fetched into /work/.mirror the same way):
renames followed through history, the `change` kinds against a hand-labelled
sample, and the time of one check of up to 1,000 memories (`far_pairs.py`).

    .venv/bin/python scripts/bench_memory_accuracy.py --far [--far-gaps 1000] [--label-sample N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from far_pairs import FarPair, pick_far, report_far, run_far  # noqa: E402
from memory_truth import Expected, Snapshot, expect_file, expect_range, expect_symbol  # noqa: E402

from memory.anchor import capture  # noqa: E402
from memory.check import check_memories  # noqa: E402
from memory.errors import MemoryDomainError  # noqa: E402
from memory.model import Anchor, Memory, RefCheck  # noqa: E402
from memory.refs import parse_ref  # noqa: E402
from memory.workspace import Workspace  # noqa: E402

MIRRORS = Path("/work/.mirror")
DEFAULT_REPOS = ("pallets+werkzeug", "psf+black", "python-poetry+poetry-core")
FAR_REPOS = ("pallets+click", "Textualize+rich")
"""Far pairs come from repositories no other test or benchmark here uses."""
SEED = 20261123
HISTORY = 1500
"""Only the last this many .py-touching commits (older ones may be Python 2)."""
STALE = frozenset({"modified", "deleted", "renamed", "ambiguous"})
CONFIDENT = frozenset({"valid", "relocated"})
GIT_ENV = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(root: Path, *args: str) -> str:
    """Run git in `root`; its output."""
    done = subprocess.run(
        ["git", "-c", "core.quotepath=off", *args],
        cwd=root,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8", "replace")


@dataclass(frozen=True)
class Case:
    """One anchored reference, what it should be now, and what the check said."""

    project: str
    pair: str
    kind: str
    ref: str
    expected: Expected
    got: RefCheck


def py_history(root: Path) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """First-parent .py-touching commits, oldest first, with their name-status lines."""
    out = git(root, "log", "--first-parent", "-M", "--name-status", "--format=@@%H", "--", "*.py")
    commits: list[tuple[str, list[tuple[str, list[str]]]]] = []
    for line in out.splitlines():
        if line.startswith("@@"):
            commits.append((line[2:], []))
        elif line.strip() and commits:
            status, *paths = line.split("\t")
            commits[-1][1].append((status, paths))
    return list(reversed(commits))[-HISTORY:]


def is_refactor(changes: list[tuple[str, list[str]]]) -> bool:
    """A .py rename, .py files added and deleted, or ten .py files changed."""
    letters = [s[0] for s, paths in changes if paths[-1].endswith(".py")]
    return "R" in letters or ("A" in letters and "D" in letters) or len(letters) >= 10


def pick_pairs(root: Path, count: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(A, B, why) pairs: half around refactors, half random spans."""
    history = py_history(root)
    refactors = [i for i, (_, ch) in enumerate(history) if i > 10 and is_refactor(ch)]
    pairs: list[tuple[str, str, str]] = []
    for i in rng.sample(refactors, min(len(refactors), count - count // 2)):
        a = history[i - 1 - rng.randint(0, 7)][0]
        b = history[min(len(history) - 1, i + rng.randint(0, 8))][0]
        pairs.append((a, b, "refactor"))
    while len(pairs) < count:
        i = rng.randrange(0, len(history) - 41)
        pairs.append((history[i][0], history[i + rng.randint(10, 40)][0], "span"))
    return pairs


def wanted_file(path: str) -> bool:
    """Source files worth anchoring (test data and fixtures are not code people remember)."""
    parts = path.split("/")
    return path.endswith(".py") and not ({"data", "fixtures", "simple_cases"} & set(parts))


def differing(root: Path, a: str, b: str) -> tuple[set[str], set[str]]:
    """(.py paths in A that differ in B or are gone, .py paths new or changed in B)."""
    out = git(root, "diff", "--no-renames", "--name-status", a, b, "--", "*.py")
    old, new = set(), set()
    for line in out.splitlines():
        status, path = line.split("\t", 1)
        if status != "A":
            old.add(path)
        if status != "D":
            new.add(path)
    return old, new


def run_pair(
    clone: Path, project: str, a: str, b: str, rng: random.Random, max_anchors: int
) -> tuple[list[Case], float, int]:
    """Anchor at A, check at B; the cases, the check's wall time and the files changed."""
    git(clone, "checkout", "-q", "--detach", a)
    old_paths, new_paths = differing(clone, a, b)
    all_a = [p for p in git(clone, "ls-files", "*.py").split("\n") if p and wanted_file(p)]
    changed = [p for p in all_a if p in old_paths]
    untouched = rng.sample(
        [p for p in all_a if p not in old_paths], min(len(all_a) - len(changed), 3)
    )
    before = Snapshot.of(clone, changed + untouched)
    refs: list[tuple[str, str]] = []
    for path in changed:
        refs.append(("file", path))
        for qualname, (start, end) in before.anchorable(path).items():
            refs.append(("symbol", f"{path}#{qualname}"))
            if rng.random() < 0.3:
                refs.append(("line_range", f"{path}:{start}-{end}"))
    sample = rng.sample(refs, min(len(refs), max_anchors))
    for path in untouched:
        sample.append(("file", path))
        sample.extend(("symbol", f"{path}#{q}") for q in list(before.anchorable(path))[:5])
    ws = Workspace(clone)
    anchors: list[tuple[str, Anchor]] = []
    for kind, ref in sample:
        try:
            anchors.append((kind, capture(ws, parse_ref(clone, ref))))
        except MemoryDomainError:
            continue
    git(clone, "checkout", "-q", "--detach", b)
    after = Snapshot.of(clone, sorted({p for p in new_paths if wanted_file(p)} | set(untouched)))
    memories = [_memory(i, anchor) for i, (_, anchor) in enumerate(anchors)]
    began = time.perf_counter()
    checked = check_memories(Workspace(clone), memories)
    took = time.perf_counter() - began
    cases = []
    for (kind, anchor), result in zip(anchors, checked, strict=True):
        expected = _expect(kind, anchor, before, after, old_paths, new_paths)
        cases.append(Case(project, f"{a[:8]}..{b[:8]}", kind, anchor.ref, expected, result.refs[0]))
    return cases, took, len(old_paths | new_paths)


def _expect(
    kind: str, anchor: Anchor, before: Snapshot, after: Snapshot, old: set[str], new: set[str]
) -> Expected:
    path = anchor.spec.path
    if kind == "file":
        return expect_file(path, before, after, old, new)
    if kind == "symbol":
        return expect_symbol(path, anchor.spec.symbol or "", before, after, old, new)
    return expect_range(path, anchor.start_line or 1, anchor.end_line or 1, before, after, old, new)


def _memory(index: int, anchor: Anchor) -> Memory:
    return Memory(f"m-{index}", "bench", "fact", (), "agent", "active", "", (anchor,))


def right_place(case: Case) -> bool:
    """The check's place is the true one: path, symbol and first line (ranges: overlap)."""
    want, place = case.expected, case.got.place
    if want.path is None:
        return place is None
    if place is None or place.path != want.path:
        return False
    if case.kind == "symbol":
        return place.symbol == want.symbol and place.start_line == want.start
    if case.kind == "line_range":
        lo, hi = (
            max(place.start_line or 0, want.start or 0),
            min(place.end_line or 0, want.end or 0),
        )
        return hi >= lo
    return True


def right_status(case: Case) -> bool:
    """The check's status is the true one (an ambiguous truth wants `unknown`)."""
    if case.expected.status == "ambiguous":
        return case.got.status == "unknown"
    return case.got.status == case.expected.status


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:6.2f}%" if whole else "    - "


def report(cases: list[Case], timings: list[tuple[str, int, int, float]]) -> dict[str, object]:
    """Print the tables; the figures as a dict."""
    figures: dict[str, object] = {}
    right = sum(right_status(c) for c in cases)
    print(f"\nreferences: {len(cases)}, right status: {right} ({pct(right, len(cases)).strip()})")
    figures["references"], figures["right_status"] = len(cases), right
    print(f"\n{'true status':<12} {'refs':>6} {'right status':>13} {'right place':>12}")
    for status in ("valid", "relocated", "renamed", "modified", "deleted", "ambiguous"):
        group = [c for c in cases if c.expected.status == status]
        ok = [c for c in group if right_status(c)]
        placed = sum(right_place(c) for c in ok)
        share, placed_share = pct(len(ok), len(group)), pct(placed, len(ok))
        print(f"{status:<12} {len(group):>6} {share:>13} {placed_share:>12}")
        figures[f"status:{status}"] = (len(group), len(ok), placed)
    print(f"\n{'anchor type':<12} {'refs':>6} {'right status':>13}")
    for kind in ("symbol", "line_range", "file"):
        group = [c for c in cases if c.kind == kind]
        fine = sum(right_status(c) for c in group)
        print(f"{kind:<12} {len(group):>6} {pct(fine, len(group)):>13}")
        figures[f"type:{kind}"] = (len(group), fine)
    statuses = ("valid", "relocated", "renamed", "modified", "deleted", "unknown")
    print("\nconfusion (rows: truth, columns: check)")
    print(f"{'':<12}" + "".join(f"{s:>10}" for s in statuses))
    for truth in ("valid", "relocated", "renamed", "modified", "deleted", "ambiguous"):
        row = Counter(str(c.got.status) for c in cases if c.expected.status == truth)
        print(f"{truth:<12}" + "".join(f"{row[s]:>10}" for s in statuses))
    print()
    for label, chosen in _focus(cases):
        ok = [c for c in chosen if right_status(c) and right_place(c)]
        print(f"{label:<58} {len(ok):>5} / {len(chosen):<5} {pct(len(ok), len(chosen))}")
        figures[label] = (len(ok), len(chosen))
    stale = [c for c in cases if c.expected.status in STALE and c.got.status in CONFIDENT]
    print(f"{'stale-but-confident (stale code reported valid/relocated)':<58} {len(stale):>5}")
    figures["stale_but_confident"] = len(stale)
    for c in stale[:10]:
        print(f"   {c.project} {c.pair} {c.ref}: truth {c.expected}, check {c.got.status}")
    wrong = [c for c in cases if not right_status(c)]
    by_kind: dict[tuple[str, str, str], int] = defaultdict(int)
    for c in wrong:
        by_kind[(c.kind, c.expected.status, c.got.status)] += 1
    print("\nwrong statuses by (type, truth, check):")
    for key, n in sorted(by_kind.items(), key=lambda kv: -kv[1])[:12]:
        print(f"   {n:>4}  {key}")
    total = sum(t[3] for t in timings)
    print(
        f"\ncheck time: {total:.1f} s over {len(timings)} pairs ({sum(t[1] for t in timings)} refs)"
    )
    return figures


def _focus(cases: list[Case]) -> Iterable[tuple[str, list[Case]]]:
    moved_edited = [
        c
        for c in cases
        if c.kind == "symbol"
        and c.expected.status == "modified"
        and (c.expected.path, c.expected.symbol)
        != (c.ref.partition("#")[0], c.ref.partition("#")[2])
    ]
    yield (
        "relocated: right status and place",
        [c for c in cases if c.expected.status == "relocated"],
    )
    yield "renamed: right status and new name", [c for c in cases if c.expected.status == "renamed"]
    yield "moved-and-edited symbols found at the new place", moved_edited
    yield (
        "  of which moved to another file",
        [c for c in moved_edited if c.expected.path != c.ref.partition("#")[0]],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repos", default=",".join(str(MIRRORS / r / "repo") for r in DEFAULT_REPOS)
    )
    parser.add_argument("--pairs", type=int, default=12, help="commit pairs per repository")
    parser.add_argument("--max-anchors", type=int, default=300, help="per pair")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show-wrong", type=int, default=0, help="print this many wrong cases")
    parser.add_argument("--far", action="store_true", help="far pairs only (see far_pairs.py)")
    parser.add_argument(
        "--far-repos", default=",".join(str(MIRRORS / r / "repo") for r in FAR_REPOS)
    )
    parser.add_argument("--far-gaps", default="1000", help="commits between A and B")
    parser.add_argument(
        "--far-ends", default="0,0.35,0.6", help="where B is: 0 newest, 0.5 halfway back"
    )
    parser.add_argument("--far-memories", type=int, default=1000, help="per far pair")
    parser.add_argument("--label-sample", type=int, default=0, help="change kinds to label")
    args = parser.parse_args()
    if args.far:
        return far(args)
    rng = random.Random(args.seed)
    cases: list[Case] = []
    timings: list[tuple[str, int, int, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-memory-accuracy-") as tmp:
        for source in args.repos.split(","):
            project = Path(source).parent.name if source.endswith("/repo") else Path(source).name
            clone = Path(tmp) / project
            git(Path(tmp), "clone", "-q", "--shared", "--no-checkout", source, str(clone))
            pairs = pick_pairs(clone, args.pairs, rng)
            for a, b, why in pairs:
                found, took, files = run_pair(clone, project, a, b, rng, args.max_anchors)
                cases.extend(found)
                timings.append((project, len(found), files, took))
                ok = sum(right_status(c) for c in found)
                print(
                    f"{project:<28} {a[:8]}..{b[:8]} {why:<8} files {files:>4} "
                    f"refs {len(found):>4} right {pct(ok, len(found))} check {took * 1000:6.0f} ms"
                )
    figures = report(cases, timings)
    for c in [c for c in cases if not right_status(c)][: args.show_wrong]:
        print(
            f"WRONG {c.project} {c.pair} {c.kind} {c.ref}: truth {c.expected} check "
            f"{c.got.status} {c.got.reason} {c.got.place}"
        )
    if args.json:
        print(json.dumps(figures))
    return 0


def far(args: argparse.Namespace) -> int:
    """The far pairs: renames, change kinds and time per check over long gaps."""
    rng = random.Random(args.seed)
    pairs: list[FarPair] = []
    clones: dict[str, Path] = {}
    gaps = [int(g) for g in args.far_gaps.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-memory-far-") as tmp:
        for source in args.far_repos.split(","):
            project = Path(source).parent.name if source.endswith("/repo") else Path(source).name
            clone = clones[project] = Path(tmp) / project
            git(Path(tmp), "clone", "-q", "--shared", "--no-checkout", source, str(clone))
            for a, b, gap in pick_far(clone, gaps, [float(e) for e in args.far_ends.split(",")]):
                pair = run_far(clone, project, a, b, gap, args.far_memories, rng)
                pairs.append(pair)
                print(
                    f"{project:<20} {a[:8]}..{b[:8]} {gap:>5} commits, "
                    f"{len(pair.results)} memories, check {pair.seconds:.2f} s"
                )
        figures = report_far(clones, pairs, args.label_sample)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
