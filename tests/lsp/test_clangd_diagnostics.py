"""clangd's published diagnostics after a header changed: the answer is for the
includes as they are now, never the first publish clangd makes on the old ones."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsp.pool import LivePool
from lsp.settings import LiveSettings
from tests.lsp.conftest import Loop, catalog_for, copy_fixture
from tests.lsp.realserver import PATIENT

USERS = 30


def test_a_header_change_is_answered_with_the_includes_parsed_anew(tmp_path: Path) -> None:
    """clangd, sent a file whose header changed, publishes at once for the AST built on
    the old includes, then again once they are parsed anew: the first, clean publish
    was taken as the answer (zlib: answers `complete` without the errors a zlib.h
    edit made). Every other user calls the changed function."""
    root = copy_fixture("c_nodb", tmp_path)
    bulk = "".join(
        f"static inline int bulk_{n}(int v) {{ return v * {n}; }}\n" for n in range(6000)
    )
    (root / "lib/include/geo/bulk.h").write_text(bulk)
    users = [f"app/user_{n}.c" for n in range(USERS)]
    for n, user in enumerate(users):
        body = "return distance2(p, p);" if n % 2 else "return p.x;"
        (root / user).write_text(
            f'#include "geo/bulk.h"\n#include "geo/geometry.h"\n\n'
            f"int use(struct point p) {{ {body} }}\n"
        )
    loop, pool = Loop(), LivePool(root, catalog_for("c", "clangd"), PATIENT)

    async def everyone() -> list[tuple[bool, int]]:
        within = PATIENT.cold_start_deadline
        reports = await asyncio.gather(*(pool.diagnostics(u, within=within) for u in users))
        return [(r.settled, sum(d.severity == "error" for d in r.diagnostics)) for r in reports]

    try:
        assert loop.run(everyone(), 600) == [(True, 0)] * USERS
        header = root / "lib/include/geo/geometry.h"
        header.write_text(header.read_text().replace("struct point b);", "struct point b, int s);"))
        found = loop.run(everyone(), 600)
    finally:
        loop.run(pool.aclose())
        loop.close()
    assert found == [(True, n % 2) for n in range(USERS)]


def test_many_files_changed_at_once_are_opened_while_clangd_keeps_answering(
    tmp_path: Path,
) -> None:
    """clangd is sent every file changed on disk and asked its outline (what makes its
    index see the change): 30 heavy files at once take it past one request timeout
    while it answers them one after another. That was a timeout of the whole push,
    the server killed and the query refused (zlib: 3 of 8 renames, restored after the
    one before, at load 15)."""
    root = copy_fixture("c_nodb", tmp_path)
    bulk = "".join(
        f"static inline int bulk_{n}(int v) {{ return v * {n}; }}\n" for n in range(6000)
    )
    (root / "lib/include/geo/bulk.h").write_text(bulk)
    quick = LiveSettings(request_timeout=2.0, cold_start_deadline=60.0)
    loop, pool = Loop(), LivePool(root, catalog_for("c", "clangd"), quick)
    try:
        assert loop.run(pool.document_symbols("app/main.c"), 300)
        for n in range(USERS):
            (root / f"app/user_{n}.c").write_text(
                f'#include "geo/bulk.h"\n\nint use_{n}(void) {{ return bulk_{n}(1); }}\n'
            )
        outline = loop.run(pool.document_symbols("app/user_7.c"), 300)
        assert [node.name for node in outline] == ["use_7"]
        assert pool.status()[0].restarts == 0
    finally:
        loop.run(pool.aclose())
        loop.close()


def test_a_rename_reaching_more_than_fifty_files_is_answered(tmp_path: Path) -> None:
    """clangd refuses a rename touching more than 50 files by default (libuv: every
    rename of a function its 200 tests call was refused)."""
    root = copy_fixture("c_nodb", tmp_path)
    for n in range(55):
        (root / f"app/calls_{n}.c").write_text(
            '#include "geo/geometry.h"\n\n'
            f"int far_{n}(struct point a) {{ return distance2(a, a); }}\n"
        )
    loop, pool = Loop(), LivePool(root, catalog_for("c", "clangd"), PATIENT)
    try:
        header = "lib/include/geo/geometry.h"
        line = (
            (root / header)
            .read_text()
            .splitlines()
            .index("int distance2(struct point a, struct point b);")
        )
        loop.run(pool.references(header, line, 4), 300)  # the index loaded
        edits = loop.run(pool.rename(header, line, 4, "dist2"), 300)
    finally:
        loop.run(pool.aclose())
        loop.close()
    assert len(edits) > 55
