"""`memory review`: one stale memory at a time, with a diff, and the four keys."""

from __future__ import annotations

import io

import pytest

from memory.errors import MemoryInputError
from memory.review import review_stale
from memory.service import MemoryService, NewMemory
from tests.memory.conftest import Repo

CODE = (
    "def fee(x):\n    return x * 0.1\n\n\n"
    "def tax(x):\n    return x * 0.2\n\n\n"
    "def tip(x):\n    return x\n"
)


def test_review_walks_stale_memories(repo: Repo) -> None:
    repo.write("money.py", CODE)
    repo.commit("start")
    with MemoryService(repo.root) as service:
        ids = [
            service.save(
                NewMemory(f"{names} is a fraction", tuple(f"money.py#{n}" for n in names))
            ).id
            for names in (("fee",), ("tax",), ("tip", "tax"))
        ]
        changed = CODE.replace("0.1", "0.15").replace("0.2", "0.25")
        repo.write("money.py", changed[: changed.index("\n\n\ndef tip")] + "\n")
        answers = io.StringIO("v\nx\ni\nv\nr\n")
        shown = io.StringIO()
        summary = review_stale(service, answers, shown, require_tty=False)
        assert summary == {
            "verified": [ids[0]],
            "superseded": {},
            "retired": [ids[2]],
            "ignored": [ids[1]],
        }
        text = shown.getvalue()
        assert "-    return x * 0.1" in text and "+    return x * 0.15" in text
        assert "cannot: " in text and "deleted" in text
        assert service.store.get(ids[0]).last_verified_at is not None
        assert [r.status for r in service.check(ids)] == ["active", "stale", "retired"]


def test_review_refuses_without_a_terminal(repo: Repo) -> None:
    with MemoryService(repo.root) as service, pytest.raises(MemoryInputError) as caught:
        review_stale(service, io.StringIO(""), io.StringIO())
    assert caught.value.hint is not None and "memory verify" in caught.value.hint
