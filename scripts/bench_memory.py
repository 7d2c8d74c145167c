"""Benchmark: how long `memory check` takes for 100, 1,000 and 10,000 memories.

The repository is real code with real history: networkx's source (from the
venv) committed into a temporary git repository. Memories are anchored to
its symbols, line ranges and files, spread over --anchor-commits commits
(empty ones: same code, distinct anchor commits); then two commits follow,
and the check is timed after each:

    little   one function body edited
    large    a refactor: 10% of files moved with `git mv`, 30% get lines
             inserted at the top, 5% of functions renamed, 5% edited, 2% of
             files deleted

Next to each figure stands the floor measured in the same run: one
`git diff --name-status -M` from the anchor commit plus hashing every file
involved (no parsing, no store). Prints median and spread (min-max) in ms.

With --with-map, each figure is repeated with the code map open (built
after the change, not timed), as under `serve`: the check reuses the map's
extractions and also looks for changed callees (dependencies_changed).

Every figure is taken for each store in --backends: the embedded SQLite file
and a PostgreSQL database (a throwaway local server, started and stopped by
the run, as the tests do). For each store the run also times recall (median
of 20 queries) and a load of --writers processes saving --per-writer
memories each at once, and counts the memories lost or duplicated.

    .venv/bin/python scripts/bench_memory.py [--sizes 100,1000,10000] [--repeats 3]
        [--with-map] [--backends sqlite,postgresql] [--writers 20] [--per-writer 500]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from disk.stamps import content_hash  # noqa: E402
from map.extraction.extract import extract_file  # noqa: E402
from map.live.codemap import CodeMap  # noqa: E402
from memory.service import MemoryService, NewMemory  # noqa: E402
from memory.stores import StoreLocation, open_store  # noqa: E402
from tests.gitrepo import git  # noqa: E402
from tests.pgserver import bin_dir, running_postgres  # noqa: E402

SEED = 20261122
WORDS = "graph node edge weight path flow cut tree cycle degree matching layout".split()  # noqa: SIM905


def make_repo(workdir: Path) -> Path:
    """networkx's source in a fresh git repository, one commit."""
    import networkx

    root = workdir / "repo"
    shutil.copytree(
        Path(networkx.__file__).parent,
        root / "networkx",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "networkx as installed")
    return root


def ref_pool(root: Path, rng: random.Random) -> list[str]:
    """References to draw memories from: symbols, their line ranges, whole files."""
    refs: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        extract = extract_file(rel, path.read_bytes())
        refs.append(rel)
        for symbol in extract.symbols:
            if "~" in symbol.node_id:
                continue
            refs.append(symbol.node_id)
            if rng.random() < 0.3:
                refs.append(f"{rel}:{symbol.range.first_line}-{symbol.range.last_line}")
    return refs


def memories(pool: list[str], count: int, rng: random.Random) -> list[NewMemory]:
    """`count` memories, one or two references each."""
    made = []
    for index in range(count):
        refs = tuple(rng.sample(pool, 2 if index % 5 == 0 else 1))
        text = f"note {index}: " + " ".join(rng.sample(WORDS, 4))
        made.append(NewMemory(text, refs, "fact", ("bench",), "human"))
    return made


def little_change(root: Path, rng: random.Random) -> None:
    """Edit one function body, commit."""
    files = sorted(root.rglob("*.py"))
    for path in rng.sample(files, len(files)):
        text = path.read_text()
        match = re.search(r"^(\s+)return ", text, re.M)
        if match:
            path.write_text(
                text[: match.start()] + f"{match[1]}_bench = 1\n" + text[match.start() :]
            )
            break
    git(root, "commit", "-q", "-am", "little change")


def large_refactor(root: Path, rng: random.Random) -> None:
    """Moves, insertions, renames, edits and deletions across the tree, one commit."""
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    rng.shuffle(files)
    tenth, fiftieth = len(files) // 10, len(files) // 50
    moved, deleted, rest = files[:tenth], files[tenth : tenth + fiftieth], files[tenth + fiftieth :]
    for rel in deleted:
        git(root, "rm", "-q", rel)
    for rel in rest:
        path = root / rel
        text = path.read_text()
        if rng.random() < 0.3:
            text = "# refactored\n# by the benchmark\n\n" + text
        names = re.findall(r"^def (\w+)\(", text, re.M)
        for name in names:
            draw = rng.random()
            if draw < 0.05:
                text = text.replace(f"def {name}(", f"def {name}_renamed(", 1)
            elif draw < 0.10:
                text = text.replace(f"def {name}(", f"def {name}(_bench=None, ", 1)
        path.write_text(text)
    for rel in moved:
        target = "networkx/moved/" + rel.replace("/", "_")
        (root / "networkx/moved").mkdir(exist_ok=True)
        git(root, "mv", rel, target)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "large refactor")


def floor(root: Path, commit: str) -> None:
    """One git diff from the anchor commit, and hashing every file it names."""
    out = git(root, "diff", "--name-status", "-z", "-M", commit, "--")
    fields = [f for f in out.split("\0") if f]
    index = 0
    while index < len(fields):
        status = fields[index]
        paths = fields[index + 1 : index + (3 if status[0] in "RC" else 2)]
        index += 1 + len(paths)
        target = root / paths[-1]
        if target.is_file():
            content_hash(target.read_bytes())


def timed(action: Callable[[], object], repeats: int) -> tuple[float, float, float, float]:
    """Median, min and max wall time, and median CPU time (ours plus git's), in ms.

    CPU time shows the work done even when other processes share the cores.
    """
    times, cpu = [], []
    for _ in range(repeats):
        before = os.times()
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
        after = os.times()
        spent = sum(after[:4]) - sum(before[:4])
        cpu.append(spent * 1000)
    return statistics.median(times), min(times), max(times), statistics.median(cpu)


WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from memory.model import Anchor, Memory, RefSpec
from memory.stores import open_store
location = sys.argv[3] if "://" in sys.argv[3] else Path(sys.argv[3])
store = open_store(location, Path(sys.argv[2]), create=True)
anchor = Anchor(RefSpec("file", "a.py"), None, None, False, "h", "f", "h", "x")
for i in range(int(sys.argv[5])):
    name = f"{sys.argv[4]}-{i}"
    store.add([Memory(name, "load " + name, "fact", (), "agent", "active", "t", (anchor,))])
store.close()
"""


def writers_load(root: Path, location: StoreLocation, writers: int, each: int) -> str:
    """`writers` processes saving `each` memories at once: wall time, lost, duplicated."""
    start = time.perf_counter()
    running = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(ROOT), str(root), str(location), f"w{n}", str(each)]
        )
        for n in range(writers)
    ]
    failed = sum(1 for process in running if process.wait() != 0)
    wall = time.perf_counter() - start
    with contextlib.closing(open_store(location, root, create=False)) as store:
        ids = store.ids()
    lost = writers * each - len(set(ids))
    return (
        f"{writers} writers x {each}: {wall * 1000:8.0f} ms ({writers * each / wall:6.0f}/s), "
        f"lost {lost}, duplicated {len(ids) - len(set(ids))}, writers failed {failed}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--anchor-commits",
        type=int,
        default=10,
        help="spread the memories over this many commits (distinct anchor commits)",
    )
    parser.add_argument(
        "--with-map",
        action="store_true",
        help="also time the check with the code map open (as under `serve`): "
        "extractions reused, callees checked",
    )
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--per-writer", type=int, default=500)
    args = parser.parse_args()
    backends = args.backends.split(",")
    if "postgresql" in backends and bin_dir() is None:
        print("postgresql: server programs not installed (scripts/setup.sh installs them)")
        backends.remove("postgresql")
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(running_postgres()) if "postgresql" in backends else None

        def location(workdir: Path, backend: str, name: str) -> StoreLocation:
            if backend == "sqlite":
                return workdir / f"{name}.db"
            assert server is not None
            return server.create_database(name)

        return run(args, backends, location)


def run(
    args: argparse.Namespace,
    backends: list[str],
    location: Callable[[Path, str, str], StoreLocation],
) -> int:
    """The whole benchmark, for each store in `backends`."""
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        workdir = Path(tmp)
        root = make_repo(workdir)
        anchor_commit = git(root, "rev-parse", "HEAD").strip()
        pool = ref_pool(root, rng)
        print(
            f"repository: networkx, {len(list(root.rglob('*.py')))} Python files, "
            f"{len(pool)} references to draw from"
        )
        stores: dict[tuple[str, int], StoreLocation] = {}
        for size in sizes:
            batch = memories(pool, size, rng)
            chunk = -(-size // args.anchor_commits)
            for backend in backends:
                stores[backend, size] = location(workdir, backend, f"m{size}")
            for start in range(0, size, chunk):
                git(root, "commit", "-q", "--allow-empty", "-m", "anchor point")
                for backend in backends:
                    with MemoryService(root, stores[backend, size]) as service:
                        service.save_many(batch[start : start + chunk])
            for backend in backends:  # the save rate, on a store of its own
                saved = location(workdir, backend, f"save{size}")
                with MemoryService(root, saved) as service:
                    wall, _, _, cpu = timed(partial(service.save_many, batch), 1)
                print(
                    f"{backend:<10} saved {size:>6} memories in {wall:8.0f} ms "
                    f"({size / wall * 1000:6.0f}/s), cpu {cpu:6.0f} ms"
                )
        for backend in backends:
            with MemoryService(root, stores[backend, max(sizes)]) as service:
                took = [timed(partial(service.recall, w, limit=10), 1)[0] for w in WORDS * 2]
            print(
                f"{backend:<10} recall over {max(sizes)} memories: median "
                f"{statistics.median(took):6.1f} ms (min {min(took):.1f}, max {max(took):.1f})"
            )
            load = location(workdir, backend, "load")
            print(f"{backend:<10} {writers_load(root, load, args.writers, args.per_writer)}")
        rows = []
        for scenario, change in (("little", little_change), ("large", large_refactor)):
            change(root, rng)
            changed = len(
                [f for f in git(root, "diff", "--name-only", "-z", anchor_commit).split("\0") if f]
            )
            low = timed(partial(floor, root, anchor_commit), args.repeats)
            code_map = CodeMap.open(root) if args.with_map else None
            for (backend, size), store in stores.items():
                for label, known in ((scenario, None), (f"{scenario}+map", code_map)):
                    if label != scenario and known is None:
                        continue
                    with MemoryService(root, store, code_map=known) as service:
                        median, fastest, slowest, cpu = timed(service.check, args.repeats)
                        statuses: dict[str, int] = {}
                        for result in service.check():
                            statuses[result.status] = statuses.get(result.status, 0) + 1
                    row = (backend, label, changed, size, median, fastest, slowest, cpu, low)
                    rows.append((*row, statuses))
        print(
            f"\n{'store':<10} {'change':<10} {'files':>5} {'memories':>8} "
            f"{'check ms (min-max)':>24} {'cpu ms':>7} {'floor ms (min-max)':>20} "
            f"{'floor cpu':>9}  statuses"
        )
        for backend, scenario, changed, size, median, fastest, slowest, cpu, low, statuses in rows:
            spread = f"{median:8.0f} ({fastest:.0f}-{slowest:.0f})"
            base = f"{low[0]:8.0f} ({low[1]:.0f}-{low[2]:.0f})"
            counts = ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
            print(
                f"{backend:<10} {scenario:<10} {changed:>5} {size:>8} {spread:>24} {cpu:7.0f} "
                f"{base:>20} {low[3]:9.0f}  {counts}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
