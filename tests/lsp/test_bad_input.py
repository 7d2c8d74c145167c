"""Bad paths and positions give clear, typed errors; the pool keeps working."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from disk.errors import (
    BinaryFileError,
    DiskError,
    MissingFileError,
    OutsideRootError,
    UndecodableFileError,
)
from lsp.catalog import Catalog, ServerSpec
from lsp.errors import LspError, NoServerError, PositionError, UnsupportedFileError
from lsp.pool import LivePool
from tests.lsp.conftest import Live, open_live

SHAPES = "app/shapes.py"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    dest = tmp_path_factory.mktemp("bad_input")
    with open_live("py_app", dest, server="ty") as live:
        outside = dest / "outside.py"
        outside.write_text("secret = 1\n", encoding="utf-8")
        (live.root / "app/escape.py").symlink_to(outside)
        (live.root / "app/blob.py").write_bytes(b"\x7fELF\x00\x00\x01binary")
        (live.root / "app/latin1.py").write_bytes("name = 'caf\xe9'\n".encode("latin-1"))
        (live.root / "notes.xyz").write_text("not code\n", encoding="utf-8")
        yield live


@pytest.mark.parametrize(
    ("path", "error", "says"),
    [
        ("../outside.py", OutsideRootError, "outside the workspace root"),
        ("/etc/hostname", OutsideRootError, "outside the workspace root"),
        ("app/escape.py", OutsideRootError, "a symlink on it points elsewhere"),
        ("app/missing.py", MissingFileError, "does not exist"),
        ("app", MissingFileError, "is a directory"),
        ("app/blob.py", BinaryFileError, "binary file"),
        ("app/latin1.py", UndecodableFileError, "not valid UTF-8"),
        ("notes.xyz", UnsupportedFileError, "no language server handles"),
    ],
)
def test_bad_paths_raise_typed_errors_and_the_pool_still_answers(
    live: Live, path: str, error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        live.run(live.pool.hover(path, 0, 0))
    with pytest.raises(error):
        live.run(live.pool.document_symbols(path))
    assert [node.name for node in live.run(live.pool.document_symbols(SHAPES))][:1] == ["Shape"]


def test_a_line_past_the_end_names_the_line_count(live: Live) -> None:
    count = len((live.root / SHAPES).read_text(encoding="utf-8").splitlines())
    with pytest.raises(PositionError, match=f"which has {count} line") as caught:
        live.run(live.pool.definition(SHAPES, count + 10, 0))
    assert (caught.value.line, caught.value.line_count) == (count + 10, count)
    with pytest.raises(PositionError):
        live.run(live.pool.references(SHAPES, -1, 0))


def test_path_errors_and_live_errors_are_separate_families(live: Live) -> None:
    with pytest.raises(DiskError) as caught:
        live.run(live.pool.hover("../outside.py", 0, 0))
    assert not isinstance(caught.value, LspError)


def test_a_missing_server_says_how_to_install_it(tmp_path: Path) -> None:
    ghost = ServerSpec(
        name="ghost",
        languages=("python",),
        command=("codeanchor-no-such-server",),
        install="pip install ghost-lsp",
        language_ids={".py": "python"},
    )
    catalog = Catalog.builtin().with_overrides({"python": "ghost"}, {"ghost": ghost})
    pool = LivePool(tmp_path, catalog)
    with pytest.raises(NoServerError, match="pip install ghost-lsp") as caught:
        pool.language_of("app/shapes.py")
    assert (caught.value.language, caught.value.server) == ("python", "ghost")
