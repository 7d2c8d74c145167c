"""The compilation database generated for C trees that have none (lsp.compdb)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from disk.errors import OutsideRootError
from lsp.catalog import Catalog
from lsp.cheaders import includes_of, unprovided
from lsp.compdb import GeneratedDatabase, missing_headers
from lsp.pool import LivePool
from lsp.watch import WorkspaceIndex
from tests.lsp.conftest import Loop, catalog_for, copy_fixture
from tests.lsp.realserver import PATIENT

CLANGD = Catalog.builtin().servers["clangd"]


def _generate(root: Path) -> tuple[GeneratedDatabase, bool]:
    database = GeneratedDatabase.for_server(CLANGD, root)
    assert database is not None
    index = WorkspaceIndex(root, CLANGD.extensions, use_inotify=False)
    return database, database.update(index.paths())


def _entries(database: GeneratedDatabase) -> dict[str, list[str]]:
    """Each entry's file (root-relative) and its arguments."""
    data = json.loads((database.folder / "compile_commands.json").read_text())
    root = str(database.root) + "/"
    return {entry["file"].removeprefix(root): entry["arguments"] for entry in data}


def test_every_source_gets_the_include_folders_the_tree_needs(tmp_path: Path) -> None:
    root = copy_fixture("c_nodb", tmp_path)
    (root / "util/orphan.h").write_text("int orphan(void);\n")
    database, written = _generate(root)
    assert written
    entries = _entries(database)
    # Included headers come with their includers; a header nobody includes is its own entry.
    assert set(entries) == {
        "app/main.c",
        "app/bounds.c",
        "lib/src/geometry.c",
        "util/limits_util.c",
        "util/orphan.h",
    }
    include = [arg for arg in entries["app/main.c"] if arg.startswith("-I")]
    # "geo/geometry.h" is found below lib/include; "limits_util.h" (from that header) in util.
    assert include == [f"-I{root / 'lib/include'}", f"-I{root / 'util'}"]
    assert entries["util/orphan.h"][:3] == ["cc", "-x", "c-header"]
    assert database.folder == root / ".codeanchor/clangd"
    assert not (root / "compile_commands.json").exists()


def test_the_database_is_written_again_when_files_or_includes_change(tmp_path: Path) -> None:
    root = copy_fixture("c_nodb", tmp_path)
    (root / "vendor/pkg").mkdir(parents=True)
    (root / "vendor/pkg/thing.h").write_text("int thing(void);\n")
    database, _ = _generate(root)
    assert "vendor/pkg/thing.h" in _entries(database)
    assert not _generate(root)[1]
    with (root / "app/bounds.c").open("a") as bounds:
        bounds.write('#include "pkg/thing.h"\n')
    assert _generate(root)[1]
    entries = _entries(database)
    assert "vendor/pkg/thing.h" not in entries  # included now: parsed with its includer
    assert f"-I{root / 'vendor'}" in entries["app/bounds.c"]
    (root / "app/extra.c").write_text("int extra(void) { return 1; }\n")
    assert _generate(root)[1]
    assert "app/extra.c" in _entries(database)


def test_the_flags_of_compile_flags_txt_come_first(tmp_path: Path) -> None:
    root = copy_fixture("c_app", tmp_path)
    database, _ = _generate(root)
    arguments = _entries(database)["src/main.c"]
    assert arguments[3:6] == ["-ferror-limit=0", "-std=c11", "-Iinclude"]


def _errors(root: Path, path: str) -> list[str]:
    """The error messages clangd gives for `path` in the tree at `root`."""
    loop, pool = Loop(), LivePool(root, catalog_for("c", "clangd"), PATIENT)
    try:
        report = loop.run(pool.diagnostics(path, within=PATIENT.cold_start_deadline))
        assert report.settled
        return [d.message for d in report.diagnostics if d.severity == "error"]
    finally:
        loop.run(pool.aclose())
        loop.close()


def test_a_tree_moved_with_its_state_folder_is_parsed_where_it_is_now(tmp_path: Path) -> None:
    """A tree copied or moved with `.codeanchor/` kept a database naming its old place:
    clangd parsed its files with the old tree's headers (zlib copied for a benchmark
    saw none of the edits made to its own zlib.h)."""
    first = copy_fixture("c_nodb", tmp_path / "first")
    assert _errors(first, "app/main.c") == []
    moved = tmp_path / "moved" / "c_nodb"
    shutil.copytree(first, moved)
    header = moved / "lib/include/geo/geometry.h"
    header.write_text(header.read_text().replace("struct point b);", "struct point b, int s);"))
    assert any("too few arguments" in m.lower() for m in _errors(moved, "app/main.c"))
    assert str(first) not in (moved / ".codeanchor/clangd/compile_commands.json").read_text()


def test_clangd_lists_every_error_of_a_file_not_the_first_twenty(tmp_path: Path) -> None:
    """clang stops at 20 errors a file: a change's baseline and its answer then cut at
    different places, and the errors past one cut were called new (zlib's contrib/iostream:
    141 errors it had before)."""
    root = copy_fixture("c_nodb", tmp_path)
    calls = "".join(f"  undeclared_{n}();\n" for n in range(30))
    (root / "app/many.c").write_text(f"void many(void) {{\n{calls}}}\n")
    errors = _errors(root, "app/many.c")
    assert len([m for m in errors if "undeclared_" in m]) == 30, errors


@pytest.mark.parametrize("where", ["compile_commands.json", "build/compile_commands.json"])
def test_a_database_of_the_tree_s_own_wins(tmp_path: Path, where: str) -> None:
    root = copy_fixture("c_nodb", tmp_path)
    (root / where).parent.mkdir(exist_ok=True)
    (root / where).write_text("[]")
    assert GeneratedDatabase.for_server(CLANGD, root) is None
    assert not (root / ".codeanchor").exists()


def test_servers_that_take_no_database_get_none(tmp_path: Path) -> None:
    root = copy_fixture("c_nodb", tmp_path)
    assert GeneratedDatabase.for_server(Catalog.builtin().servers["gopls"], root) is None


@pytest.mark.parametrize("link", ["clangd", "clangd/.cache"])
def test_a_symlink_where_clangd_writes_is_refused(tmp_path: Path, link: str) -> None:
    root = copy_fixture("c_nodb", tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    target = root / ".codeanchor" / link
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutsideRootError, match="symlink"):
        GeneratedDatabase.for_server(CLANGD, root)
    assert list(outside.iterdir()) == []


def test_headers_no_folder_holds_are_named_with_their_includers(tmp_path: Path) -> None:
    root = copy_fixture("c_nodb", tmp_path)
    (root / "app/py.c").write_text(
        "#include <stdio.h>\n#include <stdbool.h>\n#include <Python_nowhere.h>\n"
        "#ifdef _WIN32\n#include <windows_nowhere.h>\n#endif\n"
    )
    (root / "app/more.c").write_text('#include "Python_nowhere.h"\n#include "geo/geometry.h"\n')
    (root / "app/sub").mkdir()
    (root / "app/sub/up.c").write_text('#include "../../util/limits_util.h"\n')
    _generate(root)
    # System headers (stdio.h), compiler headers (stdbool.h) and the tree's own are
    # found; an include for another platform (#ifdef) is not counted.
    assert missing_headers(root) == {"Python_nowhere.h": ["app/more.c", "app/py.c"]}
    (root / "compile_flags.txt").write_text("-Ivendor\n")
    (root / "vendor").mkdir()
    (root / "vendor/Python_nowhere.h").write_text("int py(void);\n")
    _generate(root)
    assert missing_headers(root) == {}


def test_an_include_guard_does_not_make_a_header_s_includes_conditional() -> None:
    text = b'#ifndef A_H\n#define A_H\n#include <x.h>\n#if B\n#include "y.h"\n#endif\n#endif\n'
    assert includes_of(text) == (("x.h", True), ("y.h", False))
    assert includes_of(b"#ifndef FEATURE\n#include <z.h>\n#endif\n") == (("z.h", False),)


def test_a_header_only_one_system_library_folder_holds_is_searched_there(
    tmp_path: Path,
) -> None:
    system = tmp_path / "usr/include"
    for folder, header in (("python3.11", "Python.h"), ("a1", "twice.h"), ("a2", "twice.h")):
        (system / folder).mkdir(parents=True, exist_ok=True)
        (system / folder / header).write_text("/* a header */\n")
    (system / "python3.11/frameobject.h").write_text("/* a header */\n")
    includes = {
        "a.c": (("Python.h", True), ("twice.h", True)),
        "b.c": (("frameobject.h", True),),  # found in the folder Python.h added
    }
    found = unprovided(includes, (), [], tmp_path, system=((), (str(system),)))
    assert found.folders == (str(system / "python3.11"),)
    assert found.missing == {"twice.h": ["a.c"]}  # two folders hold it: not guessed
