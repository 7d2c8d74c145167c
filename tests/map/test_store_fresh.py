"""A store built from scratch (a cold build, or one that replaces an untrusted store)
takes the old one's place only once it is whole: until its write commits, the store
at the path is the previous one, and afterwards nothing is left beside it."""

from __future__ import annotations

from pathlib import Path

from map.live.codemap import CodeMap, MapSettings
from map.store.mapstore import FRESH_SUFFIX, MapStore


def _repo(root: Path) -> Path:
    for number in range(4):
        module = root / "pkg" / f"mod{number}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(f"def step{number}(x):\n    return x + {number}\n", encoding="utf-8")
    return root


def test_a_new_store_replaces_the_old_one_only_when_its_write_commits(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    path = CodeMap.open(root).snapshot_path
    before = MapStore.open(path, str(root)).state().stamps
    assert before

    MapStore.create(path, str(root))  # a rebuild from scratch, killed before its write
    assert MapStore.open(path, str(root)).state().stamps == before  # still the old store

    (root / "pkg" / "mod9.py").write_text("def stepped(x):\n    return x\n", encoding="utf-8")
    rebuilt = CodeMap(root, MapSettings())  # no store known: it builds from scratch and saves
    rebuilt.rebuild()
    rebuilt.save()
    assert "pkg/mod9.py" in MapStore.open(path, str(root)).state().stamps
    assert not list(path.parent.glob(path.name + FRESH_SUFFIX + "*"))  # nothing left beside
    assert CodeMap.open(root, refresh=False).search("stepped")
