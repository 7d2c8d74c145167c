"""A map rebuilt after a composer.json changed (its autoload moved, it came, it went,
it broke) equals a map built from scratch: Composer's autoload is part of the layout
the linker re-binds every import with (map.linking.layout). After each edit no call
is tied for sure to the class in lib/: checks/ holds a stand-in declaring the same
namespace and class, which only composer.json tells apart."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from map.live.codemap import CodeMap
from tests.map.graph_state import age, fresh, graph_state
from tests.map.test_store_link import _assert_like_a_full_build

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "php_composer"
POST = "lib/Http/Router.php#Posts.post"
DOUBLE = "checks/Http/Router.php#Router.post"
CALLER = "checks/RouterTest.php#RouterTest.testIt"


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    return root


def _elsewhere(root: Path) -> None:
    """`Acme\\Web\\` autoloaded from checks/ (so `Acme\\Web\\Http\\Router` is the double)."""
    composer = root / "composer.json"
    composer.write_text(composer.read_text().replace('"lib/"', '"checks/"'))


def _removed(root: Path) -> None:
    (root / "composer.json").unlink()


def _broken(root: Path) -> None:
    (root / "composer.json").write_text('{"autoload": ')


EDITS: dict[str, Callable[[Path], None]] = {
    "elsewhere": _elsewhere,
    "removed": _removed,
    "broken": _broken,
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_composer_json_edit_relinks_as_a_fresh_build(tmp_path: Path, edit: str) -> None:
    root = _copy(tmp_path)
    codemap = CodeMap.open(root)
    age(root)  # settled folders: the next listing is trusted, composer.json's content moves
    codemap.rebuild()
    assert [n.node_id for n in codemap.neighbors(POST, "in")] == [CALLER]
    EDITS[edit](root)
    codemap.rebuild()
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
    assert [n.node_id for n in codemap.neighbors(POST, "in") if n.confidence == 1.0] == []


def test_a_composer_json_that_comes_relinks_the_imports_it_places(tmp_path: Path) -> None:
    """Once composer.json is written, the test's import is the class Composer loads, not
    the stand-in, as a fresh build has it, also in the map saved and opened again."""
    root = _copy(tmp_path)
    text = (root / "composer.json").read_text()
    _removed(root)
    codemap = CodeMap.open(root)
    (root / "composer.json").write_text(text)
    codemap.rebuild(paths=[str(root / "composer.json")])  # as the watcher names it
    assert [n.node_id for n in codemap.neighbors(POST, "in")] == [CALLER]
    assert codemap.neighbors(DOUBLE, "in") == []
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
    again = CodeMap.open(root)
    assert [n.node_id for n in again.neighbors(POST, "in")] == [CALLER]


def test_an_offline_edit_finds_classes_by_declared_namespace_in_the_store(
    tmp_path: Path,
) -> None:
    """Without composer.json, a class is found by the namespace its file declares, also
    when an edit made while no process ran is relinked in the store (which reads the
    files' namespaces only then), as a fresh build has it."""
    root = _copy(tmp_path)
    _removed(root)
    shutil.rmtree(root / "checks" / "Http")  # the stand-in: one file declares the class
    CodeMap.open(root)  # built and saved
    test = root / "checks" / "RouterTest.php"
    test.write_text(test.read_text().replace("$r->post();", "$r->post();\n        $r->post();"))
    reopened = _assert_like_a_full_build(root, tmp_path, "edit", in_store=True, changed=1)
    assert [n.node_id for n in reopened.neighbors(POST, "in")] == [CALLER]
