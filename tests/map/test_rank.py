"""The overview's ranking: equally central symbols come in node ID order, so the
repo map an agent reads is the same from one server to the next."""

from __future__ import annotations

from pathlib import Path

from map import CodeMap


def test_equally_central_symbols_are_listed_in_id_order(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "hub.py").write_text("def core():\n    return 1\n")
    for i in (3, 0, 4, 1, 2):  # written out of order
        (root / f"user{i}.py").write_text(f"from hub import core\n\n\ndef use{i}():\n    core()\n")
    entries = CodeMap.open(root).overview(token_budget=500).entries
    assert entries[0] == "hub.py#core"
    users = [e for e in entries if "#use" in e]
    assert users == [f"user{i}.py#use{i}" for i in range(5)]
