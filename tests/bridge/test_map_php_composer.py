"""PHP callers in a Composer project whose folders do not mirror its namespaces: a real
map of tests/fixtures/php_composer asked through the real tool on a real AppContext;
the truth is the fixture's, checked by hand.

composer.json maps `Acme\\Web\\` onto lib/ and `Acme\\Web\\Tests\\` onto checks/, so
`use Acme\\Web\\Http\\Router` in checks/RouterTest.php is lib/Http/Router.php, never
the stand-in checks/Http/Router.php, which declares the same namespace and class in a
folder nearer the test (all the map had to go on without composer.json). `new Router(2)` calls its
`__construct`, `parent::__construct()` the base's, `new static(1)` its own class's; a
method the class takes from a trait (`post`) is the trait's, not the interface's of
that name; a closure's `Routes $r` is its own local, so `$r` after it is still the
Router. Every answer lists its callers exactly and says `complete`.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _listed

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "php_composer"
TEST = "checks/RouterTest.php#RouterTest.testIt"
ROUTER = "lib/Http/Router.php"
ASKED: dict[str, list[tuple[str, list[int]]]] = {
    f"{ROUTER}#Posts.post": [(TEST, [10])],
    f"{ROUTER}#Routes.post": [(TEST, [11])],
    "checks/Http/Router.php#Router.post": [],
    f"{ROUTER}#Router.__construct": [(TEST, [9]), (f"{ROUTER}#Router.create", [21])],
    f"{ROUTER}#Base.__construct": [(f"{ROUTER}#Router.__construct", [20])],
    f"{ROUTER}#Base.get": [(TEST, [12]), (f"{ROUTER}#Router.head", [22])],
    f"{ROUTER}#Router.create": [(f"{ROUTER}#Router.head", [22])],
}


def _callers(root: Path) -> list[dict[str, Any]]:
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    questions = [(map_neighbors, {"node_id": node_id, **calls}) for node_id in ASKED]
    return [envelope["data"] for envelope in _ask(root, *questions)]


def test_php_callers_follow_composer_autoload_constructors_and_traits(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    (root / "codeanchor.toml").write_text("watch = false\n")
    answers = _callers(root)
    assert dict(zip(ASKED, map(_listed, answers), strict=True)) == ASKED
    assert [data["completeness"] for data in answers] == ["complete"] * len(ASKED)
