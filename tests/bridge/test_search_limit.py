"""map search's limit is a cut like the budget's: it says how many hits it left out."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from bridge.cli.main import main


def _search(root: Path, *args: str) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["map", "search", *args, "--json", "--root", str(root)]) == 0
    answer: dict[str, Any] = orjson.loads(out.getvalue())
    return answer


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file and seven functions whose names hold `handler`."""
    root = tmp_path_factory.mktemp("search_limit")
    (root / "handlers.py").write_text(
        "".join(f"def handler_{i}():\n    return {i}\n\n" for i in range(7))
    )
    return root


def test_a_search_cut_by_its_limit_counts_what_it_left_out(many: Path) -> None:
    answer = _search(many, "handler", "--limit", "3")
    assert len(answer["data"]["hits"]) == 3
    assert answer["truncated"]["cuts"] == [{"items": "hits", "kept": 3, "dropped": 5}]
    assert any("5 more hits past limit 3" in warning for warning in answer["warnings"])


def test_a_search_within_its_limit_is_not_cut(many: Path) -> None:
    answer = _search(many, "handler", "--limit", "8")
    assert len(answer["data"]["hits"]) == 8
    assert answer["truncated"] is None
