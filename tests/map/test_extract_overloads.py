"""An overloaded function's node ID names its implementation; its stubs are numbered.

A memory or an answer about `f` is about the code that runs: with the stubs first
in file order, the bare ID used to name the first stub, so a memory anchored to it
stayed valid while the real body changed."""

from __future__ import annotations

from map.extraction.extract import extract_file


def _ids_and_lines(path: str, source: str) -> list[tuple[str, int]]:
    found = extract_file(path, source.encode("utf-8"))
    return [(s.node_id, s.range.start_line + 1) for s in found.symbols]  # 1-based


def test_a_python_implementation_after_its_overloads_takes_the_bare_id() -> None:
    source = (
        "import typing\n"
        "from typing import overload\n"
        "class Codec:\n"
        "    @overload\n"
        "    def encode(self, value: int) -> bytes: ...\n"
        "    @typing.overload\n"
        "    def encode(self, value: str) -> bytes: ...\n"
        "    def encode(self, value):\n"
        "        return repr(value).encode()\n"
    )
    lines = source.splitlines()
    stub_int, stub_str = (i + 1 for i, line in enumerate(lines) if "@" in line)
    body = lines.index("    def encode(self, value):") + 1
    assert _ids_and_lines("codec.py", source) == [
        ("codec.py#Codec", 3),
        ("codec.py#Codec.encode~2", stub_int),
        ("codec.py#Codec.encode~3", stub_str),
        ("codec.py#Codec.encode", body),
    ]


def test_python_redefinitions_without_overloads_keep_file_order() -> None:
    ids = [i for i, _ in _ids_and_lines("m.py", "def f(): pass\ndef f(): return 1\n")]
    assert ids == ["m.py#f", "m.py#f~2"]


def test_typescript_signatures_number_before_the_implementation() -> None:
    source = (
        "export function parse(text: string): number;\n"
        "export function parse(text: Buffer): number;\n"
        "export function parse(text: any) { return Number(text); }\n"
        "class Reader {\n"
        "  read(n: number): string;\n"
        "  read(n: any) { return String(n); }\n"
        "}\n"
    )
    assert _ids_and_lines("parse.ts", source) == [
        ("parse.ts#parse~2", 1),
        ("parse.ts#parse~3", 2),
        ("parse.ts#parse", 3),
        ("parse.ts#Reader", 4),
        ("parse.ts#Reader.read~2", 5),
        ("parse.ts#Reader.read", 6),
    ]
