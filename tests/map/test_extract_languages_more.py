"""Declarations of the languages added in issue 24 that are easy to get wrong: where a
container comes from, and where a range starts (the first attribute or annotation)."""

from __future__ import annotations

import pytest

from map.extraction.extract import extract_file


def _ids(path: str, source: str) -> list[tuple[str, str]]:
    found = extract_file(path, source.encode("utf-8"))
    return [(s.node_id.split("#", 1)[1], s.kind) for s in found.symbols]


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        pytest.param(
            "lib/a.rb",
            "module Shop\n  class Cart::Line\n    def valid?; end\n    def self.build; end\n"
            "  end\n  def self.helper; end\nend\n",
            [
                ("Shop", "module"),
                ("Shop.Cart.Line", "class"),
                ("Shop.Cart.Line.valid?", "method"),
                ("Shop.Cart.Line.build", "method"),
                ("Shop.helper", "function"),
            ],
            id="ruby-modules-qualify-and-method-names-keep-their-mark",
        ),
        pytest.param(
            "src/a.kt",
            "class Cart {\n  companion object { fun empty() = Cart() }\n}\n"
            "fun Cart.total(): Int = 0\ninterface Priced\nenum class Kind { A }\n",
            [
                ("Cart", "class"),
                ("Cart.empty", "method"),
                ("Cart.total", "method"),
                ("Priced", "interface"),
                ("Kind", "enum"),
            ],
            id="kotlin-companion-and-extension-functions-belong-to-the-class",
        ),
        pytest.param(
            "Sources/a.swift",
            "struct Cart {}\nextension Cart {\n  func total() -> Int { 0 }\n}\n"
            "protocol Priced {}\n",
            [("Cart", "struct"), ("Cart.total", "method"), ("Priced", "interface")],
            id="swift-extension-members-belong-to-the-type",
        ),
        pytest.param(
            "src/a.scala",
            "class Cart\nobject Cart {\n  def empty: Cart = new Cart\n}\ntrait Priced\n",
            [
                ("Cart", "class"),
                ("Cart~2", "class"),
                ("Cart.empty", "method"),
                ("Priced", "interface"),
            ],
            id="scala-companion-object-is-the-second-of-its-name",
        ),
        pytest.param(
            "shop/a.lua",
            "local Cart = {}\nfunction Cart.new() end\nfunction Cart:total() end\n"
            "local function helper() end\n",
            [
                ("Cart", "module"),
                ("Cart.new", "function"),
                ("Cart.total", "method"),
                ("helper", "function"),
            ],
            id="lua-table-functions-and-methods",
        ),
        pytest.param(
            "bin/a.sh",
            "ROOT=/srv\nreadonly LIMIT=3\nexport PORT=80\nlocal_name=1\n"
            "build() { :; }\nfunction deploy { build; }\n",
            [
                ("ROOT", "constant"),
                ("LIMIT", "constant"),
                ("PORT", "variable"),
                ("build", "function"),
                ("deploy", "function"),
            ],
            id="bash-functions-and-upper-case-settings",
        ),
    ],
)
def test_containers_and_kinds(path: str, source: str, expected: list[tuple[str, str]]) -> None:
    assert _ids(path, source) == expected


@pytest.mark.parametrize(
    ("path", "block", "file_scoped"),
    [
        pytest.param(
            "src/Cart.cs",
            "namespace Shop.Core\n{\n    class Cart { void Total() {} }\n}\n",
            "namespace Shop.Core;\nclass Cart { void Total() {} }\n",
            id="csharp",
        ),
        pytest.param(
            "src/Cart.php",
            "<?php\nnamespace Shop\\Core {\n    class Cart { function total() {} }\n}\n",
            "<?php\nnamespace Shop\\Core;\nclass Cart { function total() {} }\n",
            id="php",
        ),
    ],
)
def test_a_namespace_is_not_part_of_the_ids_in_either_form(
    path: str, block: str, file_scoped: str
) -> None:
    assert _ids(path, block) == _ids(path, file_scoped)
    assert [node_id for node_id, _ in _ids(path, block)] == [
        "Cart",
        f"Cart.{'Total' if path.endswith('.cs') else 'total'}",
    ]


@pytest.mark.parametrize(
    ("path", "source", "qualname"),
    [
        ("src/A.cs", "class A {\n    [Obsolete]\n    [Test]\n    void Run() {}\n}\n", "A.Run"),
        (
            "src/A.php",
            "<?php class A {\n    #[Route('/')]\n    #[Cached]\n    function run() {}\n}\n",
            "A.run",
        ),
        ("src/A.kt", 'class A {\n    @Test\n    @Deprecated("x")\n    fun run() {}\n}\n', "A.run"),
        ("src/A.swift", "class A {\n    @objc\n    @MainActor\n    func run() {}\n}\n", "A.run"),
        ("src/A.scala", "class A {\n  @tailrec\n  @inline\n  def run(): Unit = ()\n}\n", "A.run"),
    ],
    ids=lambda value: value if value.startswith("src/") else "",
)
def test_a_range_starts_at_the_first_attribute_line(path: str, source: str, qualname: str) -> None:
    found = extract_file(path, source.encode("utf-8"))
    symbol = next(s for s in found.symbols if s.qualname == qualname)
    assert (symbol.range.first_line, symbol.selection.first_line) == (2, 4)
