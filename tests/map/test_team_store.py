"""The map shared by a team on a real PostgreSQL server: clones at other paths take
the extracts a first one published, and nothing wrong in the store reaches a map."""

from __future__ import annotations

import threading
from collections.abc import Collection
from pathlib import Path

import psycopg
import pytest

from disk.stamps import content_hash
from map import CodeMap, MapSettings, TeamStore, TeamStoreError
from map.intake.shared import RowKey
from map.store.team_store import TABLE
from tests.map.graph_state import fresh, git, graph_state
from tests.map.team import EXTRA, built, clone, rows, sql
from tests.pgserver import Postgres


def test_a_second_clone_elsewhere_takes_every_extract_and_builds_the_same_map(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    first, first_team = built(clone(origin, tmp_path / "a" / "repo"), team_database, opened)
    files = len(first.files())
    published = first_team.status()
    assert (published.extracted, published.fetched) == (files, 0)
    assert published.published == files - 1  # util.py and util_copy.py: one content, one row
    assert rows(team_database) == files - 1

    second_root = clone(origin, tmp_path / "elsewhere" / "deeper" / "checkout")
    second, second_team = built(second_root, team_database, opened)
    taken = second_team.status()
    assert (taken.fetched, taken.extracted, taken.refused, taken.in_use) == (files, 0, 0, True)
    assert graph_state(second) == graph_state(fresh(second_root, tmp_path))
    copy = second.extract_of("pkg/util_copy.py")  # the one row, rebased on this path
    assert copy is not None and copy.symbols
    assert all(s.node_id.startswith("pkg/util_copy.py#") for s in copy.symbols)

    (second_root / "pkg" / "extra.py").write_text(EXTRA)  # an edit, not committed
    second.rebuild()
    second.save()
    assert second_team.status().extracted == 1
    assert second_team.status().published == 0
    assert rows(team_database) == files - 1
    again, _ = built(clone(origin, tmp_path / "c" / "repo"), team_database, opened)
    assert "pkg/extra.py" not in again.files()


def test_rows_of_another_extractor_version_are_not_reused(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    built(clone(origin, tmp_path / "a" / "repo"), team_database, opened)
    sql(team_database, f"UPDATE {TABLE} SET extractor = '6-older'")
    second, team = built(clone(origin, tmp_path / "b" / "repo"), team_database, opened)
    files = len(second.files())
    assert (team.status().fetched, team.status().extracted) == (0, files)
    assert rows(team_database) == 2 * (files - 1)  # the old rows stay; the new ones sit beside them


def test_a_corrupt_row_or_one_of_other_content_is_refused_and_extracted_here(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    built(clone(origin, tmp_path / "a" / "repo"), team_database, opened)
    main, core, shapes = (
        content_hash((origin / path).read_bytes())
        for path in ("app/main.py", "pkg/core.py", "web/shapes.ts")
    )
    with psycopg.connect(team_database, autocommit=True) as conn:
        conn.execute(f"UPDATE {TABLE} SET extract = %s WHERE content_hash = %s", (b"junk", main))
        conn.execute(  # a well-formed row, but of another file's content
            f"UPDATE {TABLE} SET extract = (SELECT extract FROM {TABLE} "
            "WHERE content_hash = %s) WHERE content_hash = %s",
            (shapes, core),
        )
    root = clone(origin, tmp_path / "b" / "repo")
    code_map, team = built(root, team_database, opened)
    status = team.status()
    assert (status.refused, status.extracted) == (2, 2)
    assert status.fetched == len(code_map.files()) - 2
    assert graph_state(code_map) == graph_state(fresh(root, tmp_path))


def test_a_role_that_may_only_read_takes_rows_and_publishes_nothing(
    origin: Path, tmp_path: Path, team_database: str, postgres: Postgres, opened: list[TeamStore]
) -> None:
    built(clone(origin, tmp_path / "a" / "repo"), team_database, opened)
    database = team_database.rsplit("/", 1)[1]
    sql(team_database, "DROP ROLE IF EXISTS reader")
    sql(team_database, "CREATE ROLE reader LOGIN PASSWORD 'secret-r'")
    sql(team_database, f"GRANT SELECT ON {TABLE} TO reader")
    reader = f"postgresql://reader:secret-r@{postgres.host}:{postgres.port}/{database}"
    root = clone(origin, tmp_path / "b" / "repo")
    (root / "pkg" / "extra.py").write_text(EXTRA)
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "more")
    code_map, team = built(root, reader, opened)
    status = team.status()
    assert (status.fetched, status.extracted, status.published) == (len(code_map.files()) - 1, 1, 0)
    assert status.publishing == "none" and status.in_use
    assert status.reason == "this role may only read rows"
    assert graph_state(code_map) == graph_state(fresh(root, tmp_path))


def test_a_role_that_may_not_read_rows_is_a_one_line_error(
    origin: Path, tmp_path: Path, team_database: str, postgres: Postgres, opened: list[TeamStore]
) -> None:
    built(clone(origin, tmp_path / "a" / "repo"), team_database, opened)
    database = team_database.rsplit("/", 1)[1]
    sql(team_database, "DROP ROLE IF EXISTS stranger")
    sql(team_database, "CREATE ROLE stranger LOGIN PASSWORD 'secret-s'")
    stranger = f"postgresql://stranger:secret-s@{postgres.host}:{postgres.port}/{database}"
    with pytest.raises(TeamStoreError) as raised:
        TeamStore.open(stranger)
    assert "may not read" in str(raised.value) and "secret-s" not in str(raised.value)


class _Together(TeamStore):
    """A team store whose builders all wait, once they have asked for rows, until every
    one has: each then extracts everything and publishes the same rows at once."""

    meeting: threading.Barrier

    def fetch(self, keys: Collection[RowKey]) -> dict[RowKey, bytes]:
        found = super().fetch(keys)
        self.meeting.wait(timeout=60)
        return found


def test_two_builders_at_once_publish_one_row_per_content_and_no_error(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    _Together.meeting = threading.Barrier(2)
    roots = [clone(origin, tmp_path / name / "repo") for name in ("a", "b")]
    teams = [_Together.open(team_database) for _ in roots]
    opened.extend(teams)
    maps: dict[int, CodeMap] = {}
    errors: list[BaseException] = []

    def build(index: int) -> None:
        try:
            maps[index] = CodeMap.open(roots[index], team=teams[index])
        except BaseException as exc:  # the assertion below names it
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    files = len(maps[0].files())
    assert [t.status().extracted for t in teams] == [files, files]
    assert [t.status().in_use for t in teams] == [True, True]
    assert sum(t.status().published for t in teams) == files - 1
    assert rows(team_database) == files - 1


def test_a_store_lost_mid_build_leaves_a_whole_local_map_and_says_why(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    root = clone(origin, tmp_path / "a" / "repo")
    team = TeamStore.open(team_database)
    opened.append(team)
    database = team_database.rsplit("/", 1)[1]
    cut = threading.Event()

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "reading" and not cut.is_set():  # extraction under way: drop the server
            cut.set()
            sql(
                team_database.rsplit("/", 1)[0] + "/postgres",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{database}' AND pid <> pg_backend_pid()",
            )

    code_map = CodeMap.open(root, MapSettings(), progress, team=team)
    status = team.status()
    assert cut.is_set()
    assert not status.in_use and status.reason is not None
    assert status.reason.startswith("publishing rows failed")
    assert graph_state(code_map) == graph_state(fresh(root, tmp_path))
    assert CodeMap.has_store(root)  # the local map was saved


def test_an_unreachable_store_is_one_line(postgres: Postgres) -> None:
    wrong = f"postgresql://nobody:pw-hidden@127.0.0.1:{postgres.port}/postgres"
    with pytest.raises(TeamStoreError) as raised:
        TeamStore.open(wrong)
    assert "\n" not in str(raised.value) and "pw-hidden" not in str(raised.value)


def test_a_store_told_to_take_all_publishes_uncommitted_edits_too(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    root = clone(origin, tmp_path / "a" / "repo")
    (root / "pkg" / "extra.py").write_text(EXTRA)  # not committed
    team = TeamStore.open(team_database, "all")
    opened.append(team)
    code_map = CodeMap.open(root, team=team)
    assert team.status().published == len(code_map.files()) - 1  # util.py twice: one row
    later, other = built(clone(origin, tmp_path / "b" / "repo"), team_database, opened)
    assert other.status().extracted == 0
    assert "pkg/extra.py" not in later.files()  # its row is shared, not the file
