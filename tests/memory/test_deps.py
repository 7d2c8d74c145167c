"""A symbol unchanged itself, whose direct callees changed: valid, with dependencies_changed."""

from __future__ import annotations

from map.live.codemap import CodeMap
from memory.service import MemoryService, NewMemory
from tests.memory.conftest import Repo

HELPERS = "def rate():\n    return 0.2\n\n\ndef unused():\n    return 1\n"
MAIN = "from helpers import rate\n\n\ndef price(amount):\n    return amount * (1 + rate())\n"


def test_changed_callee_is_named_on_a_valid_caller(repo: Repo) -> None:
    repo.write("helpers.py", HELPERS)
    repo.write("shop.py", MAIN)
    repo.commit("start")
    with MemoryService(repo.root) as service:
        memory = service.save(NewMemory("price adds the tax rate", ("shop.py#price",)))
    repo.write("helpers.py", HELPERS.replace("return 1", "return 2"))
    repo.commit("edit a function price does not call")
    with MemoryService(repo.root, code_map=CodeMap.open(repo.root)) as service:
        (quiet,) = service.check([memory.id])
        assert (quiet.status, quiet.warnings) == ("active", ())
    repo.write("helpers.py", HELPERS.replace("0.2", "0.25"))
    repo.commit("raise the rate")
    with MemoryService(repo.root, code_map=CodeMap.open(repo.root)) as service:
        (result,) = service.check([memory.id])
    assert result.status == "active"
    assert result.refs[0].status == "valid"
    (warning,) = result.warnings
    assert "dependencies_changed" in warning and "helpers.py#rate" in warning
