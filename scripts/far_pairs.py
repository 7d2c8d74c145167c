"""`bench_memory_accuracy.py --far`: memories anchored hundreds to thousands of commits back.

For each repository: pairs (A, B) on the first-parent line whose gap is
--far-gaps commits (`git rev-list --count A..B`), B the newest commit.
Up to --far-memories symbols of A's .py files are anchored (one memory
each), checked at B in one run (timed: the user's wait for `memory check`),
and compared with `memory_far` (history followed by `ast`, not the product).

Printed besides the tables of the near pairs: renames (the symbol or its
container renamed on the way) followed to the right place, and with a commit
that made that rename (`memory_far.renamed_by`); classes and members anchored
together whose results disagree; the `change` kinds against the labels in
`memory_change_labels.json` (105 modified results labelled by hand from the
anchored text and the text now side by side: 57 with the check's own answer
in view, 48 more with it hidden until all were labelled; `--label-sample N`
prints the next N to label); the check's time per pair, wall and CPU (this
process and git), against the same check with history not asked (a bound of
0 old versions).
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from memory_far import Blobs, Followed, expected_at_b, follow, renamed_by
from memory_truth import Expected, Snapshot

from memory import renames
from memory.anchor import capture
from memory.check import check_memories
from memory.errors import MemoryDomainError
from memory.model import Anchor, Memory, MemoryCheck, RefCheck
from memory.refs import parse_ref
from memory.workspace import Workspace

LABELS = Path(__file__).with_name("memory_change_labels.json")


@dataclass(frozen=True)
class FarPair:
    """One far pair checked: what the check said of each anchor, and the truth."""

    project: str
    a: str
    b: str
    gap: int
    seconds: float
    cpu: float
    """CPU seconds of the check (this process and git)."""
    baseline: float
    """Wall seconds of the same check with no time for history (renames not followed)."""
    results: list[MemoryCheck]
    truth: dict[str, Followed]
    expected: dict[str, Expected]
    """The true status at B of each anchor (by reference)."""


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def pick_far(clone: Path, gaps: list[int], ends: list[float]) -> list[tuple[str, str, int]]:
    """(A, B, gap): B at each of `ends` (0 the newest commit, 0.5 halfway back along the
    first-parent line), A on that line the first commit at least `gap` commits back."""
    line = git(clone, "rev-list", "--first-parent", "HEAD").split()
    found = []
    for end in ends:
        at = int(end * len(line))
        b = line[at]
        for gap in gaps:
            for a in line[at + 1 :]:
                count = int(git(clone, "rev-list", "--count", f"{a}..{b}"))
                if count >= gap:
                    found.append((a, b, count))
                    break
    return found


def run_far(
    clone: Path, project: str, a: str, b: str, gap: int, count: int, rng: random.Random
) -> FarPair:
    """Anchor up to `count` symbols at A, follow them to B with `memory_far`, check at B."""
    git(clone, "checkout", "-q", "--detach", a)
    paths = [
        p
        for p in git(clone, "ls-files", "*.py").split("\n")
        if p and "/tests/" not in f"/{p}" and not p.startswith(("docs/", "examples/"))
    ]
    before = Snapshot.of(clone, paths)
    refs = [f"{p}#{q}" for p in paths for q in before.anchorable(p)]
    ws = Workspace(clone)
    anchors: list[Anchor] = []
    for ref in sorted(rng.sample(refs, min(count, len(refs)))):
        try:
            anchors.append(capture(ws, parse_ref(clone, ref)))
        except MemoryDomainError:
            continue
    truth = {
        a.ref: Followed(
            a.spec.path,
            a.spec.symbol or "",
            before.files[a.spec.path].symbols[a.spec.symbol or ""][0],
        )
        for a in anchors
    }
    follow(clone, a, b, truth)
    git(clone, "checkout", "-q", "--detach", b)
    after = Snapshot.of(clone, sorted({f.path for f in truth.values()}))
    expected = {ref: expected_at_b(item, after) for ref, item in truth.items()}
    memories = [
        Memory(f"m-{i}", "far", "fact", (), "agent", "active", "", (anchor,))
        for i, anchor in enumerate(anchors)
    ]
    results, seconds, cpu = _timed(clone, memories)
    renames.HISTORY_VERSIONS, budget = 0, renames.HISTORY_VERSIONS  # the baseline: no history
    try:
        _, baseline, _ = _timed(clone, memories)
    finally:
        renames.HISTORY_VERSIONS = budget
    return FarPair(project, a, b, gap, seconds, cpu, baseline, results, truth, expected)


def _timed(clone: Path, memories: list[Memory]) -> tuple[list[MemoryCheck], float, float]:
    """The check of `memories` at the checkout, its wall time and its CPU time (the
    process and its git children)."""
    cpu = _cpu()
    began = time.perf_counter()
    results = check_memories(Workspace(clone), memories)
    return results, time.perf_counter() - began, _cpu() - cpu


def _cpu() -> float:
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


Row = tuple[FarPair, RefCheck, Followed, Expected]
"""One anchor of a far pair: the pair, the check's result, the truth's walk and verdict."""


def report_far(clone_of: dict[str, Path], pairs: list[FarPair], sample: int) -> dict[str, object]:
    """Print the far pairs' figures; return them."""
    figures: dict[str, object] = {}
    rows: list[Row] = []
    for pair in pairs:
        for result in pair.results:
            (ref,) = result.refs
            key = ref.anchor.ref
            rows.append((pair, ref, pair.truth[key], pair.expected[key]))
    right = sum(r.status == w.status for _, r, _, w in rows)
    print(
        f"\nfar pairs: {len(pairs)}, symbols: {len(rows)}, right status: {_pct(right, len(rows))}"
    )
    print(f"{'true status':<12} {'refs':>6} {'right status':>13} {'right place':>12}")
    for status in ("valid", "relocated", "renamed", "modified", "deleted"):
        group = [(r, w) for _, r, _, w in rows if w.status == status]
        ok = [(r, w) for r, w in group if r.status == w.status]
        placed = sum(_place_ok(r, w) for r, w in ok)
        share, placed_share = _pct(len(ok), len(group)), _pct(placed, len(ok))
        print(f"{status:<12} {len(group):>6} {share:>13} {placed_share:>12}")
        figures[f"far:{status}"] = (len(group), len(ok), placed)
    _renames(clone_of, rows, figures)
    disagree = _disagreements(rows)
    print(f"classes and members anchored together whose results disagree: {len(disagree)}")
    figures["far:disagree"] = len(disagree)
    for line in disagree:
        print(f"   {line}")
    cut = [r for _, r, _, _ in rows if r.reason == "not_found_history_cut"]
    print(f"symbols whose search through history was cut short by its bound: {len(cut)}")
    figures["far:cut"] = len(cut)
    figures["far:kinds"] = _kinds(rows, sample)
    for pair in pairs:
        each = pair.seconds / max(1, len(pair.results)) * 1000
        print(
            f"check time {pair.project} {pair.a[:8]}..{pair.b[:8]} ({pair.gap} commits): "
            f"{len(pair.results)} memories in {pair.seconds:.2f} s ({each:.1f} ms each; "
            f"CPU {pair.cpu:.2f} s); without history {pair.baseline:.2f} s"
        )
        figures[f"far:time:{pair.project}:{pair.a[:8]}"] = (
            len(pair.results),
            round(pair.seconds, 2),
            round(pair.cpu, 2),
            round(pair.baseline, 2),
        )
    return figures


def _renames(clone_of: dict[str, Path], rows: list[Row], figures: dict[str, object]) -> None:
    """Renames on the way: followed to the right place, and with a commit that made them."""
    renames = [row for row in rows if row[2].renamed_in and row[3].status != "deleted"]
    followed = [
        row for row in renames if row[1].status == row[3].status and _place_ok(row[1], row[3])
    ]
    named = [row for row in followed if _named(clone_of[row[0].project], row[1], row[2])]
    print(
        f"renames on the way (symbol or container): {len(renames)}; followed to the right "
        f"place {len(followed)} ({_pct(len(followed), len(renames))}); with a commit that made "
        f"it {len(named)} ({_pct(len(named), len(renames))})"
    )
    figures["far:renames"] = (len(renames), len(followed), len(named))
    for pair, r, f, w in [row for row in renames if row not in named]:
        since = r.since.commit[:10] if r.since else None
        print(
            f"   missed {pair.project} {r.anchor.ref}: truth {w} (renamed in "
            f"{(f.renamed_in or '')[:10]}), check {r.status} {r.reason} {r.place} since {since}"
        )


def _named(root: Path, ref: RefCheck, item: Followed) -> bool:
    """The check named the commit the truth saw rename it, or one that makes that rename."""
    if ref.since is None:
        return False
    return ref.since.commit == item.renamed_in or _same_rename(root, ref.since.commit, item)


def _same_rename(root: Path, commit: str, item: Followed) -> bool:
    """The commit the check named makes the first rename the truth saw, or is one of the
    commits of the merge the truth saw it in (the first-parent walk sees a side branch
    whole) that took the old name away (renamed more than once on that branch)."""
    if not item.first_rename or not item.renamed_in:
        return False
    old, new = item.first_rename
    blobs = Blobs(root)
    try:
        if renamed_by(blobs, root, commit, old, new):
            return True
        merged = _merged_by(root, commit, item.renamed_in)
        return merged and any(renamed_by(blobs, root, commit, old, other) for other in
                              _added(blobs, root, commit))  # fmt: skip
    finally:
        blobs.close()


def _merged_by(root: Path, commit: str, merge: str) -> bool:
    """True when `commit` came into the first-parent line with the merge `merge`."""
    inside = (
        subprocess.run(
            ["git", "merge-base", "--is-ancestor", commit, merge], cwd=root, check=False
        ).returncode
        == 0
    )
    before = (
        subprocess.run(
            ["git", "merge-base", "--is-ancestor", commit, f"{merge}^1"], cwd=root, check=False
        ).returncode
        == 0
    )
    return inside and not before


def _added(blobs: Blobs, root: Path, commit: str) -> set[str]:
    """The qualified names `commit` added to the .py files it changed."""
    names = git(root, "diff", "--name-only", "--no-renames", f"{commit}^1", commit, "--", "*.py")
    found: set[str] = set()
    for path in names.split():
        then, now = blobs.snapshot(f"{commit}^1", path), blobs.snapshot(commit, path)
        found.update(s.qualname for s in now.symbols(path) if not then.has_symbol(path, s.qualname))
    return found


def _place_ok(ref: RefCheck, want: Expected) -> bool:
    place = ref.place
    if want.path is None:
        return place is None
    return place is not None and (place.path, place.symbol) == (want.path, want.symbol)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _disagreements(rows: list[Row]) -> list[str]:
    """Classes and members anchored together that stay together (the truth: both alive, the
    member still in the class) whose checks put the class under different names, or find
    one and not the other."""
    by_ref = {(p.project, p.a, r.anchor.ref): (r, w) for p, r, _, w in rows}
    found = []
    for (project, a, ref), (member, member_truth) in by_ref.items():
        path, _, qualname = ref.partition("#")
        outer_key = (project, a, f"{path}#{qualname.rpartition('.')[0]}")
        if "." not in qualname or outer_key not in by_ref:
            continue
        outer, outer_truth = by_ref[outer_key]
        together = (
            member_truth.symbol is not None
            and outer_truth.symbol is not None
            and member_truth.symbol.rpartition(".")[0] == outer_truth.symbol
        )
        if not together:
            continue
        outer_at = outer.place.symbol if outer.place else None
        member_at = (
            member.place.symbol.rpartition(".")[0] if member.place and member.place.symbol else None
        )
        if outer_at != member_at:
            found.append(
                f"{project} {ref}: class -> {outer.status} {outer_at}, "
                f"member -> {member.status} {member.place}"
            )
    return found


def _kinds(rows: list[Row], label_sample: int) -> tuple[int, int]:
    """The check's `change` against the hand labels; prints the next ones to label."""
    labels: dict[str, str] = json.loads(LABELS.read_text()) if LABELS.exists() else {}
    modified = sorted(
        (f"{p.project} {p.a[:10]}..{p.b[:10]} {r.anchor.ref}", r)
        for p, r, _, _ in rows
        if r.status == "modified" and r.change is not None
    )
    counts = Counter(_kind(r) for _, r in modified)
    print(f"change kinds of {len(modified)} modified results: {dict(counts)}")
    labelled = [(key, r) for key, r in modified if key in labels]
    agree = sum(labels[key] == _kind(r) for key, r in labelled)
    print(f"change kind agrees with the hand label: {agree} / {len(labelled)}")
    for key, r in labelled:
        if labels[key] != _kind(r):
            print(f"   label {labels[key]}, check {_kind(r)}: {key}")
    todo = [(key, r) for key, r in modified if key not in labels]
    random.Random(7).shuffle(todo)
    for key, r in todo[:label_sample]:
        print(f"TO LABEL {key} -> {r.place} (check says {_kind(r)})")
    return agree, len(labelled)


def _kind(ref: RefCheck) -> str:
    return ref.change.kind if ref.change else "-"
