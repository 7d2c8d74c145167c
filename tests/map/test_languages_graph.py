"""The languages added in issue 24 (Ruby, PHP, C#, Kotlin, Swift, Scala, Lua, Bash) in a
built map: cross-file edges through each language's imports, and incremental rebuilds
that equal a from-scratch build (tests/fixtures/map_languages: a checkout that calls
a cart's total, in each language)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from map.live.codemap import CodeMap
from tests.map.graph_state import fresh, graph_state

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "map_languages"
CART = {
    "ruby": "rb/lib/shop/cart.rb",
    "php": "php/src/Store/Cart.php",
    "csharp": "cs/Shop/Cart.cs",
    "kotlin": "kt/com/acme/shop/Cart.kt",
    "swift": "swift/Shop/Cart.swift",
    "scala": "scala/acme/shop/Cart.scala",
    "lua": "lua/shop/cart.lua",
    "bash": "sh/lib/cart.sh",
}
"""Each language's file that defines the cart (its `total` is called from another file)."""
EDGES = {
    "ruby": [
        ("rb/lib/shop/checkout.rb", "rb/lib/shop/cart.rb", "imports", 1.0),
        ("rb/lib/shop/checkout.rb#Shop.Checkout", "rb/lib/shop/cart.rb#Shop.Cart", "inherits", 1.0),
        (
            "rb/lib/shop/checkout.rb#Shop.Checkout.pay",
            "rb/lib/shop/cart.rb#Shop.Cart",
            "calls",
            1.0,
        ),
        (
            "rb/lib/shop/checkout.rb#Shop.Checkout.pay",
            "rb/lib/shop/cart.rb#Shop.Cart.total",
            "calls",
            1.0,
        ),
    ],
    "php": [
        ("php/src/App/Checkout.php", "php/src/Store/Cart.php", "imports", 1.0),
        ("php/src/App/Checkout.php#Checkout", "php/src/Store/Cart.php#Cart", "inherits", 1.0),
        (
            "php/src/App/Checkout.php#Checkout.pay",
            "php/src/Store/Cart.php#Cart.total",
            "calls",
            1.0,
        ),
        (
            "php/src/App/Checkout.php#Checkout.pay",
            "php/src/App/Checkout.php#Checkout.charge",
            "calls",
            1.0,
        ),
    ],
    "csharp": [
        ("cs/Shop/Checkout.cs#Checkout", "cs/Shop/Cart.cs#Cart", "inherits", 1.0),
        ("cs/Shop/Checkout.cs#Checkout.Pay", "cs/Shop/Cart.cs#Cart.Total", "calls", 1.0),
        ("cs/Shop/Checkout.cs#Checkout.Pay", "cs/Shop/Checkout.cs#Checkout.Charge", "calls", 1.0),
    ],
    "kotlin": [
        ("kt/com/acme/shop/Checkout.kt#Checkout", "kt/com/acme/shop/Cart.kt#Cart", "inherits", 1.0),
        (
            "kt/com/acme/shop/Checkout.kt#Checkout.pay",
            "kt/com/acme/shop/Cart.kt#Cart.total",
            "calls",
            1.0,
        ),
    ],
    "swift": [
        ("swift/Shop/Checkout.swift#Checkout", "swift/Shop/Cart.swift#Cart", "inherits", 1.0),
        (
            "swift/Shop/Checkout.swift#Checkout.pay",
            "swift/Shop/Cart.swift#Cart.total",
            "calls",
            1.0,
        ),
    ],
    "scala": [
        ("scala/acme/shop/Checkout.scala", "scala/acme/shop/Cart.scala", "imports", 1.0),
        (
            "scala/acme/shop/Checkout.scala#Checkout.pay",
            "scala/acme/shop/Cart.scala#Cart.total",
            "calls",
            1.0,
        ),
    ],
    "lua": [
        ("lua/shop/checkout.lua", "lua/shop/cart.lua", "imports", 1.0),
        # a required module is the table it returns (map.linking.tables)
        ("lua/shop/checkout.lua#Checkout.pay", "lua/shop/cart.lua#Cart.total", "calls", 1.0),
    ],
    "bash": [
        ("sh/checkout.sh", "sh/lib/cart.sh", "imports", 1.0),
        ("sh/checkout.sh#pay", "sh/lib/cart.sh#cart_total", "calls", 1.0),
        ("sh/checkout.sh#pay", "sh/checkout.sh#charge", "calls", 1.0),
    ],
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    copied = tmp_path / "repo"
    shutil.copytree(FIXTURE, copied)
    return copied


@pytest.mark.parametrize("language", sorted(EDGES))
def test_calls_imports_and_bases_cross_files(root: Path, language: str) -> None:
    codemap = CodeMap.open(root)
    for source, target, kind, confidence in EDGES[language]:
        attrs = codemap.edge_attrs(source, target, kind)
        assert attrs is not None, (source, target, kind)
        assert attrs["confidence"] == confidence, (source, target, kind)


def test_every_language_is_counted(root: Path) -> None:
    assert CodeMap.open(root).status().languages == {language: 2 for language in CART}


@pytest.mark.parametrize("language", sorted(CART))
def test_an_edit_rebuilds_to_the_fresh_graph(root: Path, tmp_path: Path, language: str) -> None:
    codemap = CodeMap.open(root)
    cart = root / CART[language]
    cart.write_text(cart.read_text().replace("total", "sum_of").replace("Total", "SumOf"))
    report = codemap.rebuild()
    assert report.files_changed == [CART[language]]
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
    caller = next(source for source, _, kind, _ in EDGES[language] if kind == "calls")
    assert not any(target.endswith((".total", ".Total")) for target in codemap.graph[caller])


@pytest.mark.parametrize("language", sorted(CART))
def test_a_deleted_file_rebuilds_to_the_fresh_graph(
    root: Path, tmp_path: Path, language: str
) -> None:
    codemap = CodeMap.open(root)
    (root / CART[language]).unlink()
    assert codemap.rebuild().files_removed == [CART[language]]
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
