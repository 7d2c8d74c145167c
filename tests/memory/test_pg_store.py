"""The team store on a real PostgreSQL server: shared by clones, safe under load and faults."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import orjson
import psycopg
import pytest

from memory.model import Anchor, Memory, RefSpec
from memory.pg_store import PgMemoryStore
from memory.service import MemoryService
from tests.memory.conftest import Repo
from tests.pgserver import USER, Postgres, restart

pytestmark = pytest.mark.store_specific  # PostgreSQL's own behaviour, run once

ROOT = Path(__file__).resolve().parents[2]
CODE = "def limit(rate):\n    return min(rate, 100)\n"
WRITERS, PER_WRITER = 20, 500

# A child process adding memories one transaction each; it prints the IDs it
# was told were committed, and "failed ID" for a write that raised.
WRITER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    from memory.errors import MemoryDomainError
    from memory.model import Anchor, Memory, RefSpec
    from memory.pg_store import PgMemoryStore

    dsn, prefix, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
    anchor = Anchor(RefSpec("file", "a.py"), None, None, False, "h", "f", "h", "x")
    store = PgMemoryStore(dsn, "repo")
    print("ready", flush=True)
    for i in range(count):
        name = f"{prefix}-{i}"
        try:
            store.add([Memory(name, "text " + name, "fact", (), "agent", "active", "t", (anchor,))])
            print(name, flush=True)
        except MemoryDomainError as exc:
            print("failed", name, str(exc).replace(chr(10), " "), flush=True)
    """
)


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bridge.cli", "memory", *args, "--root", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_two_clones_share_memories_and_other_repositories_do_not_see_them(
    repo: Repo, tmp_path: Path, team_database: str
) -> None:
    repo.write("rate.py", CODE)
    repo.commit("start")
    repo.git("remote", "add", "origin", "git@example.org:team/shop.git")
    clone = repo.clone(tmp_path / "elsewhere" / "shop")
    clone.git("remote", "set-url", "origin", "https://example.org/team/shop")
    other = Repo(tmp_path / "other")
    other.root.mkdir()
    other.git("init", "-q", "-b", "main")
    other.write("rate.py", CODE + "\n")
    other.commit("unrelated")

    added = _cli(repo.root, "add", "--text", "rate limit caps at 100", "--ref", "rate.py#limit",
                 "--store", team_database)  # fmt: skip
    assert added.returncode == 0, added.stderr
    seen = _cli(clone.root, "recall", "rate limit", "--store", team_database)
    assert seen.returncode == 0, seen.stderr
    assert "rate limit caps at 100" in seen.stdout
    assert '"valid"' in seen.stdout  # checked against the clone's own files
    unrelated = _cli(other.root, "list", "--store", team_database)
    assert unrelated.returncode == 0 and "rate limit" not in unrelated.stdout


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda pg, db: pg.dsn(db, password="wrong"), "password"),
        (lambda pg, db: pg.dsn("no_such_database"), "database does not exist"),
        (lambda pg, db: pg.dsn(db).replace(f":{pg.port}/", ":1/"), "cannot connect"),
    ],
    ids=["wrong-password", "missing-database", "unreachable"],
)
def test_connection_problems_are_one_line_errors_without_the_password(
    repo: Repo, postgres: Postgres, team_database: str, change: object, says: str
) -> None:
    repo.write("rate.py", CODE)
    repo.commit("start")
    dsn = change(postgres, team_database.rsplit("/", 1)[1])  # type: ignore[operator]
    done = _cli(repo.root, "list", "--store", dsn)
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 2
    assert postgres.password not in done.stderr + done.stdout
    assert "wrong" not in done.stderr


def test_twenty_writers_lose_and_duplicate_nothing(team_database: str) -> None:
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(ROOT), team_database, f"w{n}", str(PER_WRITER)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(WRITERS)
    ]
    told = [line.strip() for w in writers for line in w.communicate(timeout=600)[0].splitlines()]
    committed = {line for line in told if line != "ready"}
    assert not [line for line in committed if line.startswith("failed")]
    with psycopg.connect(team_database) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM memories")]
        refs = conn.execute("SELECT count(*) FROM refs").fetchone()
    assert len(ids) == len(set(ids)) == WRITERS * PER_WRITER
    assert set(ids) == committed
    assert refs == (WRITERS * PER_WRITER,)


def test_a_server_restart_mid_run_fails_writes_clearly_and_never_half_writes(
    postgres: Postgres, team_database: str
) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(ROOT), team_database, "r", "3000"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    before = [writer.stdout.readline().strip() for _ in range(20)]  # some writes are in
    restart(postgres)
    # the rest from the same buffered stream: communicate() would read the pipe
    # itself and lose the lines readline() had already buffered
    with writer.stdout:
        told = before + writer.stdout.read().splitlines()
    assert writer.wait(timeout=600) == 0
    failed = [line for line in told if line.startswith("failed")]
    assert failed, "the restart should have broken at least one write"
    assert all("nothing of this write was kept" in f or "cannot connect" in f for f in failed)
    assert told[-1].split()[-1] == "r-2999" or "r-2999" in told[-1]  # it kept going
    with psycopg.connect(team_database) as conn:
        ids = {r[0] for r in conn.execute("SELECT id FROM memories")}
        orphans = conn.execute(
            "SELECT count(*) FROM memories m WHERE NOT EXISTS "
            "(SELECT 1 FROM refs r WHERE r.repo_id = m.repo_id AND r.memory_id = m.id)"
        ).fetchone()
    assert orphans == (0,)  # every memory that exists has its reference: none half-written
    assert {line for line in told if not line.startswith("failed")} <= ids


def test_recall_ranks_with_full_text_search(team_database: str) -> None:
    anchor = Anchor(RefSpec("file", "rate.py"), None, None, False, "h", "f", "h", "x")
    notes = {"m-1": ("caching lives in the proxy", ()), "m-2": ("the limiter caps it", ("rate",))}
    with PgMemoryStore(team_database, "r") as store:
        store.add(
            [
                Memory(i, text, "fact", tags, "agent", "active", "t", (anchor,))
                for i, (text, tags) in notes.items()
            ]
        )
        ranked = [m.id for m, _ in store.search("rate limiting", 5)]
    assert ranked == ["m-2"]  # found through its tag; the other shares no word
    with PgMemoryStore(team_database, "r") as store:
        assert [m.id for m, _ in store.search("cach", 5)] == ["m-1"]  # a word's start


def test_the_service_reads_the_team_store_without_creating_files(
    repo: Repo, team_database: str
) -> None:
    repo.write("rate.py", CODE)
    repo.commit("start")
    with MemoryService(repo.root, team_database) as service:
        assert service.select() == []
    assert not (repo.root / ".codeanchor").exists()


def test_migrate_copies_sqlite_to_postgresql_and_back_all_or_nothing(
    repo: Repo, tmp_path: Path, team_database: str
) -> None:
    repo.write("rate.py", CODE)
    repo.commit("start")
    for text in ("rate limit caps at 100", "limit is pure"):
        assert _cli(repo.root, "add", "--text", text, "--ref", "rate.py#limit").returncode == 0
    local = orjson.loads(_cli(repo.root, "list").stdout)["memories"]

    moved = _cli(repo.root, "migrate", "--to", team_database)
    assert moved.returncode == 0, moved.stderr
    assert orjson.loads(moved.stdout)["copied"] == 2
    assert (
        orjson.loads(_cli(repo.root, "list", "--store", team_database).stdout)["memories"] == local
    )

    again = _cli(repo.root, "migrate", "--to", team_database)
    assert again.returncode == 2 and "nothing was copied" in again.stderr
    assert (
        len(orjson.loads(_cli(repo.root, "list", "--store", team_database).stdout)["memories"]) == 2
    )

    back = tmp_path / "back.db"
    assert _cli(repo.root, "migrate", "--store", team_database, "--to", str(back)).returncode == 0
    assert orjson.loads(_cli(repo.root, "list", "--store", str(back)).stdout)["memories"] == local


LEAST_PRIVILEGE = (  # docs/team-store.md's grants for an agent's role
    "CREATE ROLE agent LOGIN PASSWORD 'agent-secret'",
    "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON memories, refs TO agent",
    "GRANT SELECT ON codeanchor_schema TO agent",
    "GRANT USAGE ON SEQUENCE memories_seq_seq TO agent",
)


def test_a_least_privilege_role_saves_and_recalls(
    repo: Repo, postgres: Postgres, team_database: str
) -> None:
    repo.write("rate.py", CODE)
    repo.commit("start")
    assert _cli(repo.root, "list", "--store", team_database).returncode == 0  # the owner sets up
    with psycopg.connect(team_database, autocommit=True) as conn:
        for statement in LEAST_PRIVILEGE:
            conn.execute(statement.encode())
    agent = team_database.replace(f"{USER}:{postgres.password}@", "agent:agent-secret@")
    saved = _cli(repo.root, "add", "--text", "caps at 100", "--ref", "rate.py", "--store", agent)
    assert saved.returncode == 0, saved.stderr
    assert "caps at 100" in _cli(repo.root, "recall", "caps", "--store", agent).stdout
