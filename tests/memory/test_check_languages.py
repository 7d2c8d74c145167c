"""Memory checks on symbols of the languages added in issue 24: a memory anchored to a
function follows it when lines move, and sees an edit of its body or its name."""

from __future__ import annotations

import pytest

from tests.memory.conftest import Repo

SOURCES = {
    "ruby": (
        "lib/cart.rb",
        "Cart.total",
        "class Cart\n  def total(items)\n    items.sum\n  end\nend\n",
    ),
    "php": (
        "src/Cart.php",
        "Cart.total",
        "<?php\nclass Cart\n{\n    #[Pure]\n    public function total(array $items): int\n"
        "    {\n        return array_sum($items);\n    }\n}\n",
    ),
    "csharp": (
        "src/Cart.cs",
        "Cart.Total",
        "namespace Shop;\n\npublic class Cart\n{\n    [Pure]\n    public int Total(int[] items)\n"
        "    {\n        return items.Sum();\n    }\n}\n",
    ),
    "kotlin": (
        "src/Cart.kt",
        "Cart.total",
        "class Cart {\n    @JvmStatic\n    fun total(items: List<Int>): Int {\n"
        "        return items.sum()\n    }\n}\n",
    ),
    "swift": (
        "Sources/Cart.swift",
        "Cart.total",
        "struct Cart {\n    @inlinable\n    func total(_ items: [Int]) -> Int {\n"
        "        return items.reduce(0, +)\n    }\n}\n",
    ),
    "scala": (
        "src/Cart.scala",
        "Cart.total",
        "class Cart {\n  @inline\n  def total(items: List[Int]): Int = {\n    items.sum\n  }\n}\n",
    ),
    "lua": (
        "shop/cart.lua",
        "Cart.total",
        "local Cart = {}\n\nfunction Cart.total(items)\n  return #items\nend\n\nreturn Cart\n",
    ),
    "bash": ("bin/cart.sh", "total", '#!/bin/sh\ntotal() {\n  echo "$#"\n}\n'),
}
"""language -> (path, qualified name of the function, source)."""


def _start(repo: Repo, language: str) -> tuple[str, str, str]:
    path, qualname, source = SOURCES[language]
    repo.write(path, source)
    repo.commit("start")
    return path, qualname, source


def _above(language: str) -> str:
    """Lines that push the source down without touching the function."""
    if language == "php":
        return ""
    comment = "//" if language in {"csharp", "kotlin", "swift", "scala"} else "--"
    comment = "#" if language in {"ruby", "bash"} else comment
    return f"{comment} one\n{comment} two\n\n"


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_a_function_followed_when_lines_move(repo: Repo, language: str) -> None:
    path, qualname, source = _start(repo, language)
    memory = repo.remember(f"{path}#{qualname}")
    assert repo.check_ref(memory).status == "valid"
    if language == "php":
        moved = source.replace("<?php\n", "<?php\n\nconst A = 1;\nconst B = 2;\n")
    elif language == "bash":
        moved = source.replace("#!/bin/sh\n", "#!/bin/sh\n# one\n# two\n\n")
    else:
        moved = _above(language) + source
    repo.write(path, moved)
    repo.commit("lines above")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("relocated", "lines_moved")
    assert result.place is not None and result.place.symbol == qualname


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_an_edited_body_is_modified(repo: Repo, language: str) -> None:
    path, qualname, source = _start(repo, language)
    memory = repo.remember(f"{path}#{qualname}")
    edited = source.replace("items", "entries").replace('"$#"', '"$@"')
    repo.write(path, edited)
    repo.commit("edit")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("modified", "symbol_changed")


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_a_renamed_function_is_found_by_its_body(repo: Repo, language: str) -> None:
    path, qualname, source = _start(repo, language)
    memory = repo.remember(f"{path}#{qualname}")
    name = qualname.rpartition(".")[2]
    repo.write(path, source.replace(name, f"{name}_all", 1))
    repo.commit("rename")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("renamed", "same_body_new_name")
    assert result.place is not None and result.place.symbol == f"{qualname}_all"
