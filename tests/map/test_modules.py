"""Module names of repository files: the dotted name an import uses for a file, and
the Python table built from them, found by string operations on normalized paths."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from map.linking.modules import PACKAGE_FILES, ModuleIndex, dotted_name


def dotted_by_pathlib(path: str) -> str:
    """The definition by PurePosixPath that `dotted_name` replaces (same results)."""
    pure = PurePosixPath(path)
    parts = list(pure.parent.parts)
    if pure.name not in {name for names in PACKAGE_FILES.values() for name in names}:
        parts.append(pure.name.split(".", 1)[0])
    return ".".join(parts)


@pytest.mark.parametrize(
    ("path", "dotted"),
    [
        ("a/b/c.py", "a.b.c"),
        ("c.py", "c"),
        ("__init__.py", ""),
        ("a/__init__.py", "a"),
        ("a/b/__init__.pyi", "a.b"),
        ("src/crate/mod.rs", "src.crate"),
        ("lib.rs", ""),
        ("src/lib.rs", "src"),
        ("a/b/c.d.ts", "a.b.c"),
        ("a/tar.gz.py", "a.tar"),
        ("pkg/.hidden.py", "pkg."),
        ("pkg/Makefile", "pkg.Makefile"),
        ("com/example/App.java", "com.example.App"),
        ("a.b/c.py", "a.b.c"),
        ("x/__init__.py.bak", "x.__init__"),
    ],
)
def test_dotted_name(path: str, dotted: str) -> None:
    assert dotted_name(path) == dotted == dotted_by_pathlib(path)


SEGMENT = st.sampled_from(
    ("a", "b", "src", "pkg", "__init__.py", "__init__.pyi", "mod.rs", "lib.rs", "main.rs",
     "x.py", "y.pyi", "c.d.ts", ".hidden.py", "README", "a.b", "tests", "_x_.py")
)  # fmt: skip


@given(st.lists(SEGMENT, min_size=1, max_size=6))
def test_dotted_name_equals_the_pathlib_definition(segments: list[str]) -> None:
    path = "/".join(segments)
    assert dotted_name(path) == dotted_by_pathlib(path)


def test_python_modules_from_every_source_root() -> None:
    """A module is named from the root, from `src/`, and from above each top-level package."""
    index = ModuleIndex()
    for path in (
        "setup.py",
        "src/app/__init__.py",
        "src/app/core.py",
        "examples/demo/__init__.py",
        "examples/demo/run.py",
        "lib/tool/__init__.pyi",
        "lib/tool/sub/__init__.py",
        "lib/tool/sub/deep.py",
        "scripts/conftest.py",
        "scripts/check.py",
    ):
        index.add(path, "python")
    assert index.resolve("x.py", "python", "setup") == ("setup.py",)
    assert index.resolve("x.py", "python", "app.core") == ("src/app/core.py",)
    assert index.resolve("x.py", "python", "src.app") == ("src/app/__init__.py",)
    assert index.resolve("x.py", "python", "demo.run") == ("examples/demo/run.py",)
    assert index.resolve("x.py", "python", "tool.sub.deep") == ("lib/tool/sub/deep.py",)
    assert index.resolve("x.py", "python", "tool") == ("lib/tool/__init__.pyi",)
    assert index.resolve("scripts/check.py", "python", "conftest") == ("scripts/conftest.py",)
    assert index.resolve("x.py", "python", "sub.deep") == ()  # not a top-level package
    assert index.resolve("src/app/core.py", "python", ".") == ("src/app/__init__.py",)
