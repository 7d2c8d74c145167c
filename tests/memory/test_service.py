"""Saving, reading, recalling and maintaining memories through the service."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from disk.database import STORE_ENV
from memory.errors import MemoryInputError, MemoryNotFoundError, UnknownMemoryError
from memory.service import MemoryService, NewMemory
from memory.transfer import import_file
from tests.memory.conftest import Repo, nothing_stored

CODE = '''def parse(text):
    """Split on commas."""
    return text.split(",")


def render(items):
    return ", ".join(items)
'''


@pytest.fixture
def service(repo: Repo) -> Iterator[MemoryService]:
    repo.write("src/csv.py", CODE)
    repo.write("notes.txt", "Intro\n")
    repo.commit("start")
    with MemoryService(repo.root) as made:
        yield made


def _save(service: MemoryService, text: str, *refs: str) -> str:
    return service.save(NewMemory(text, refs, "convention", ("csv",))).id


def test_reading_never_counts_as_verification(service: MemoryService) -> None:
    memory_id = _save(service, "parse splits on commas only", "src/csv.py#parse")
    service.show(memory_id)
    service.recall("commas")
    service.check()
    service.select()
    memory = service.store.get(memory_id)
    assert memory.last_verified_at is None
    assert memory.last_used_at is not None
    service.verify(memory_id)
    assert service.store.get(memory_id).last_verified_at is not None


def test_verify_adopts_the_new_place(service: MemoryService, repo: Repo) -> None:
    memory_id = _save(service, "render joins with comma-space", "src/csv.py#render")
    repo.write("src/csv.py", "import os\n\n\n" + CODE)
    (result,) = service.check([memory_id])
    assert result.refs[0].status == "relocated"
    assert service.store.get(memory_id).anchors[0].start_line == 6
    service.verify(memory_id)
    (anchor,) = service.store.get(memory_id).anchors
    assert anchor.start_line == 9
    assert service.check([memory_id])[0].refs[0].reason == "unchanged"


def test_check_stores_status_and_stale_becomes_active_again(
    service: MemoryService, repo: Repo
) -> None:
    memory_id = _save(service, "parse splits on commas", "src/csv.py#parse")
    repo.write("src/csv.py", CODE.replace('split(",")', 'split(";")'))
    service.check()
    assert service.store.get(memory_id).status == "stale"
    repo.write("src/csv.py", CODE)
    service.check()
    assert service.store.get(memory_id).status == "active"


def test_recall_leaves_out_stale_unless_asked(service: MemoryService, repo: Repo) -> None:
    fresh = _save(service, "render output uses comma and space", "src/csv.py#render")
    stale = _save(service, "parse output is a list split on comma", "src/csv.py#parse")
    repo.write("src/csv.py", CODE.replace('split(",")', 'split(";")'))
    quiet = service.recall("comma output")
    assert [h.check.memory.id for h in quiet.hits] == [fresh]
    assert quiet.stale_hidden == 1  # said, not silently dropped
    loud = service.recall("comma output", include_stale=True)
    assert loud.stale_hidden == 0
    hits = loud.hits
    assert {h.check.memory.id for h in hits} == {fresh, stale}
    stale_hit = next(h for h in hits if h.check.memory.id == stale)
    assert stale_hit.warning is not None and stale_hit.warning.startswith("STALE")
    assert stale_hit.score < next(h.score for h in hits if h.check.memory.id == fresh)


def test_historical_is_recalled_and_labelled(service: MemoryService, repo: Repo) -> None:
    memory_id = _save(service, "the csv module is tiny", "src/csv.py")
    repo.git("rm", "-q", "src/csv.py")
    (hit,) = service.recall("tiny csv").hits
    assert hit.check.memory.id == memory_id
    assert hit.check.status == "historical"
    assert hit.warning is not None and "HISTORICAL" in hit.warning


def test_supersede_links_and_retire_hides(service: MemoryService) -> None:
    old = _save(service, "parse is naive", "src/csv.py#parse")
    new = service.supersede(old, "parse is naive: no quoting support")
    assert service.store.get(old).status == "superseded"
    assert service.store.get(old).superseded_by == new.id
    assert [a.ref for a in new.anchors] == ["src/csv.py#parse"]
    assert [h.check.memory.id for h in service.recall("naive").hits] == [new.id]
    service.retire(new.id)
    assert service.recall("naive").hits == []
    assert service.store.get(new.id).status == "retired"


def test_verify_refuses_a_deleted_reference(service: MemoryService, repo: Repo) -> None:
    memory_id = _save(service, "render exists", "src/csv.py#render")
    repo.write("src/csv.py", CODE[: CODE.index("def render")])
    with pytest.raises(MemoryInputError, match="deleted") as caught:
        service.verify(memory_id)
    assert caught.value.hint is not None and "supersede" in caught.value.hint
    assert service.store.get(memory_id).last_verified_at is None


@pytest.mark.parametrize(
    ("refs", "error"),
    [
        (("src/csv.py#nope",), UnknownMemoryError),
        (("src/csv.py#",), MemoryInputError),
        (("src/csv.py:9-3",), MemoryInputError),
        (("src/csv.py:1-99",), MemoryInputError),
        (("../outside.py",), MemoryInputError),
        (("src/missing.py",), MemoryNotFoundError),
        (("notes.txt#Intro",), MemoryInputError),
        ((), MemoryInputError),
    ],
)
def test_bad_refs_are_refused_and_nothing_is_written(
    service: MemoryService, refs: tuple[str, ...], error: type[Exception]
) -> None:
    with pytest.raises(error):
        service.save(NewMemory("a note", ("src/csv.py#parse", *refs) if refs else ()))
    assert nothing_stored(service.location, service.store.count())


def test_unknown_ids_are_refused_with_suggestions(service: MemoryService) -> None:
    memory_id = _save(service, "a note", "src/csv.py")
    wrong = memory_id[:-1] + ("0" if memory_id[-1] != "0" else "1")
    for action in (service.show, service.verify, service.retire):
        with pytest.raises(UnknownMemoryError) as caught:
            action(wrong)
        assert caught.value.suggestions == (memory_id,)
    assert service.store.get(memory_id).status == "active"


def test_import_is_all_or_nothing_and_names_the_line(
    service: MemoryService, tmp_path: Path
) -> None:
    good = '{"text": "parse splits", "refs": ["src/csv.py#parse"], "kind": "fact"}\n'
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good + "\n" + '{"text": "render", "refs": ["src/csv.py#rendr"]}\n')
    with pytest.raises(MemoryInputError, match=r"bad\.jsonl:3"):
        import_file(service, bad)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(good + "{not json\n")
    with pytest.raises(MemoryInputError, match=r"broken\.jsonl:2"):
        import_file(service, broken)
    assert nothing_stored(service.location, service.store.count())
    fine = tmp_path / "fine.jsonl"
    fine.write_text(good + '{"text": "render joins", "refs": ["src/csv.py:6-7"], "tags": ["x"]}\n')
    ids = [m.id for m in import_file(service, fine)]
    assert [service.store.get(i).text for i in ids] == ["parse splits", "render joins"]


def test_a_draft_stays_a_draft(service: MemoryService, repo: Repo) -> None:
    memory = service.save(NewMemory("parse may grow quoting", ("src/csv.py#parse",), draft=True))
    repo.write("src/csv.py", CODE.replace('split(",")', 'split(";")'))
    (result,) = service.check([memory.id])
    assert (result.status, result.refs[0].status) == ("draft", "modified")
    assert service.store.get(memory.id).status == "draft"


@pytest.mark.store_specific
def test_the_default_store_stays_out_of_git(service: MemoryService, repo: Repo) -> None:
    _save(service, "a note", "src/csv.py")
    assert isinstance(service.location, Path) and service.location.parent.name == ".codeanchor"
    assert repo.git("status", "--porcelain") == ""


def test_a_clone_on_an_older_commit_never_overwrites_a_newer_check(
    service: MemoryService, repo: Repo, tmp_path: Path
) -> None:
    """Two checkouts share one store; statuses record the commit they were checked at."""
    shared = os.environ.get(STORE_ENV) or tmp_path / "shared.db"  # PostgreSQL, or one file
    older = repo.clone(tmp_path / "older")
    with MemoryService(repo.root, shared) as newer_side:
        memory_id = _save(newer_side, "parse splits on commas", "src/csv.py#parse")
        repo.write("src/csv.py", CODE.replace('split(",")', 'split(";")'))
        repo.git("commit", "-qam", "later", committed_at="2026-02-01T00:00:00Z")
        (checked,) = newer_side.check([memory_id])
        assert checked.status == "stale"
    with MemoryService(older.root, shared) as older_side:
        (seen,) = older_side.check([memory_id])  # its own code: still valid there
        assert seen.status == "active"
        assert older_side.store.get(memory_id).status == "stale"  # the newer check stands
