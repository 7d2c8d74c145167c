"""Declarations that are easy to get wrong, one small source each."""

from __future__ import annotations

import pytest

from map.extraction.extract import extract_file


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        pytest.param(
            "p/v.go",
            "package p\nvar a, b = 1, 2\nconst (\n\tX, Y = 1, 2\n)\n",
            [("a", "variable"), ("b", "variable"), ("X", "constant"), ("Y", "constant")],
            id="go-several-names-in-one-spec",
        ),
        pytest.param(
            "web/v.ts",
            "export const a = 1, b = 2;\nclass C { handle = () => { go(); }; }\n",
            [("a", "constant"), ("b", "constant"), ("C", "class"), ("C.handle", "method")],
            id="ts-several-constants-and-a-function-field",
        ),
        pytest.param(
            "web/v.js",
            "class C { static make = function () {}; count = 0; }\n",
            [("C", "class"), ("C.make", "method")],
            id="js-function-field",
        ),
        pytest.param(
            "src/v.rs",
            "struct S;\nimpl S { fn a(&self) {} }\n"
            "impl Into<u8> for S { fn into(self) -> u8 { 0 } }\n",
            [("S", "struct"), ("S.a", "method"), ("S.into", "method")],
            id="rust-impl-methods-qualified-by-type",
        ),
        pytest.param(
            "src/v.cpp",
            "namespace a::b { void f(); }\nvoid a::b::f() {}\nvoid Widget::draw() const {}\n",
            [
                ("a.b", "namespace"),
                ("a.b.f", "function"),  # the prototype is the definition's node
                ("Widget.draw", "method"),
            ],
            id="cpp-nested-namespace-and-out-of-line-definitions",
        ),
        pytest.param(
            "src/op.cpp",
            "struct A {\n  bool operator==(const A&) const;\n};\n"
            "A& A::operator = (const A& other) { return *this; }\n",
            [("A", "struct"), ("A.operator==", "method"), ("A.operator=", "method")],
            id="cpp-operators-keep-their-symbol",
        ),
        pytest.param(
            "web/it.ts",
            "class Bag {\n  [Symbol.iterator]() { return this; }\n  size() { return 0; }\n}\n",
            [("Bag", "class"), ("Bag.size", "method")],
            id="ts-computed-member-names-are-not-symbols",
        ),
    ],
)
def test_declarations_get_their_qualified_names_and_kinds(
    path: str, source: str, expected: list[tuple[str, str]]
) -> None:
    found = extract_file(path, source.encode("utf-8"))
    got = [(s.node_id.split("#", 1)[1], s.kind) for s in found.symbols]
    assert got == expected


def test_rust_use_trees_and_extern_crates_become_imports() -> None:
    source = b"extern crate serde;\nextern crate foo as bar;\nuse a::{b::{c, d as e}, f};\n"
    found = extract_file("src/lib.rs", source)
    assert [(i.module, i.names) for i in found.imports] == [
        ("serde", ()),
        ("foo", (("*", "bar"),)),
        ("a::b", (("c", "c"), ("d", "e"))),
        ("a", (("f", "f"),)),
    ]
