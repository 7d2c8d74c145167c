"""Python extraction agrees with Python's own parser on real code (standard library)."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

from map.extraction.extract import extract_file

ROOT = Path(sysconfig.get_paths()["stdlib"])
# Modules with decorators, nested classes and functions, properties and overloads.
SOURCES = [
    ROOT / name
    for name in (
        "argparse.py",
        "dataclasses.py",
        "enum.py",
        "functools.py",
        "typing.py",
        "pathlib.py",
        "asyncio/tasks.py",
        "json/decoder.py",
        "email/message.py",
        "unittest/mock.py",
        "contextlib.py",
        "inspect.py",
    )
]

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def ast_definitions(source: bytes) -> list[tuple[str, int, int]]:
    """(qualified name, first line incl. decorators, last line) of every def and class."""
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Definition):
                qualname = f"{prefix}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found.append((qualname, first, child.end_lineno or child.lineno))
                visit(child, qualname + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return sorted(found, key=lambda entry: (entry[1], entry[0]))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_def_and_class_is_found_with_its_qualified_name_and_lines(path: Path) -> None:
    source = path.read_bytes()
    extracted = extract_file(path.relative_to(ROOT).as_posix(), source)
    ours = sorted(
        (
            (s.qualname, s.range.first_line, s.range.last_line)
            for s in extracted.symbols
            if s.kind in ("function", "method", "class")
        ),
        key=lambda entry: (entry[1], entry[0]),
    )
    assert ours == ast_definitions(source)
