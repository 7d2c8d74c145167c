"""A linked map per commit through a real PostgreSQL server: a new checkout at that
commit, or one commit later, starts from it and builds the map a local build makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from map import TeamStore, TeamStoreError
from tests.map.graph_state import fresh, git, graph_state
from tests.map.team import EXTRA, built, clone, sql


def _published(origin: Path, where: Path, dsn: str, opened: list[TeamStore]) -> str:
    code_map, _ = built(clone(origin, where), dsn, opened)
    return code_map.publish_snapshot()


def test_a_checkout_at_the_published_commit_starts_from_its_linked_map(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    commit = _published(origin, tmp_path / "ci" / "repo", team_database, opened)
    assert commit == git(origin, "rev-parse", "HEAD").strip()
    root = clone(origin, tmp_path / "dev" / "elsewhere")
    code_map, team = built(root, team_database, opened)
    status = team.status()
    assert status.snapshot == commit
    assert (status.fetched, status.extracted) == (0, 0)  # every file only hashed
    assert code_map.last_report is not None and code_map.last_report.files_changed == []
    assert graph_state(code_map) == graph_state(fresh(root, tmp_path))


def test_a_checkout_one_commit_later_relinks_only_what_differs(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    parent = _published(origin, tmp_path / "ci" / "repo", team_database, opened)
    (origin / "pkg" / "extra.py").write_text("from pkg.util import helper\n\n" + EXTRA)
    (origin / "app" / "main.py").write_text("from pkg.extra import doubled\n\ndoubled(2)\n")
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "later")
    root = clone(origin, tmp_path / "dev" / "repo")
    code_map, team = built(root, team_database, opened)
    status = team.status()
    assert status.snapshot == parent
    report = code_map.last_report
    assert report is not None
    assert sorted(report.files_changed) == ["app/main.py", "pkg/extra.py"]
    assert graph_state(code_map) == graph_state(fresh(root, tmp_path))


def test_a_checkout_with_changes_is_not_published(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    root = clone(origin, tmp_path / "ci" / "repo")
    (root / "pkg" / "extra.py").write_text(EXTRA)  # untracked
    code_map, _ = built(root, team_database, opened)
    with pytest.raises(TeamStoreError, match="exactly its HEAD commit"):
        code_map.publish_snapshot()
    later, team = built(clone(origin, tmp_path / "dev" / "repo"), team_database, opened)
    assert team.status().snapshot is None
    assert "pkg/extra.py" not in later.files()


def test_a_snapshot_of_another_map_version_is_not_taken(
    origin: Path, tmp_path: Path, team_database: str, opened: list[TeamStore]
) -> None:
    _published(origin, tmp_path / "ci" / "repo", team_database, opened)
    sql(team_database, "UPDATE codeanchor_map_snapshots SET version = 'older'")
    root = clone(origin, tmp_path / "dev" / "repo")
    code_map, team = built(root, team_database, opened)
    assert team.status().snapshot is None
    assert team.status().fetched == len(code_map.files())
