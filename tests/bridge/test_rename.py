"""nav_rename through a real MCP client on real Python servers: the preview is what
gets written, nothing is written unless asked, and a file edited after the preview
stops the whole apply. Then the text-edit logic on its own (UTF-16, line ends, paths)."""

from __future__ import annotations

import asyncio
import difflib
import shutil
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from disk.errors import OutsideRootError
from lsp.edits import TextEdit, UnsupportedEditError, apply_edits, file_edits
from tests.bridge.mcp_session import call, call_error, serve
from tests.conftest import FIXTURES, require_binary
from tests.lsp.conftest import PYTHON_SERVERS

SCENARIO_TIMEOUT_S = 180.0
TARGET = "app/shapes.py#total_area"
TOUCHED = ("app/report.py", "app/shapes.py")


def _root(tmp_path: Path, server: str) -> Path:
    root = tmp_path / "py_app"
    shutil.copytree(FIXTURES / "py_app", root)
    (root / "codeanchor.toml").write_text(f'servers = {{ python = "{server}" }}\n')
    return root


def _texts(root: Path) -> dict[str, str]:
    return {p: (root / p).read_text(encoding="utf-8") for p in TOUCHED}


def _diff(path: str, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{path}",
            f"b/{path}",
            n=2,
        )
    )


@pytest.mark.parametrize("server", PYTHON_SERVERS)
def test_rename_preview_is_what_apply_writes(tmp_path: Path, server: str) -> None:
    require_binary(server)
    root = _root(tmp_path, server)
    before = _texts(root)

    async def scenario() -> dict[str, object]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["nav_rename"].annotations is not None
            assert tools["nav_rename"].annotations.read_only_hint is False
            preview = (await call(client, "nav_rename", target=TARGET, new_name="sum_areas"))[
                "data"
            ]
            assert _texts(root) == before  # a preview writes nothing
            hashes = {f["path"]: f["hash"] for f in preview["files"]}
            applied = await call(
                client, "nav_rename", target=TARGET, new_name="sum_areas", apply=True, hashes=hashes
            )
            assert applied["data"]["applied"] is True
            # the servers see the written files at once
            refs = await call(client, "nav_references", target="app/shapes.py#sum_areas")
            assert {loc["path"] for loc in refs["data"]["locations"]} == set(TOUCHED)
            return dict(preview)

    preview = asyncio.run(scenario())
    after = _texts(root)
    files = preview["files"]
    assert isinstance(files, list)
    assert [f["path"] for f in files] == list(TOUCHED)
    assert preview["editCount"] == 3  # the definition, the import and the call
    for item in files:
        path = item["path"]
        assert item["diff"] == _diff(path, before[path], after[path])
    assert "total_area" not in after["app/report.py"]
    assert "def sum_areas(" in after["app/shapes.py"]


@pytest.mark.parametrize("server", PYTHON_SERVERS)
def test_apply_refuses_after_an_outside_edit_and_writes_nothing(
    tmp_path: Path, server: str
) -> None:
    require_binary(server)
    root = _root(tmp_path, server)

    async def scenario() -> dict[str, object]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            preview = await call(client, "nav_rename", target=TARGET, new_name="sum_areas")
            hashes = {f["path"]: f["hash"] for f in preview["data"]["files"]}
            report = root / "app" / "report.py"
            report.write_text(report.read_text(encoding="utf-8") + "\n# edited elsewhere\n")
            edited = _texts(root)
            error = await call_error(
                client, "nav_rename", target=TARGET, new_name="sum_areas", apply=True, hashes=hashes
            )
            assert _texts(root) == edited  # not one file written
            bad = await call_error(client, "nav_rename", target=TARGET, new_name="two\nlines")
            assert bad["code"] == "bad_input"
            return error

    error = asyncio.run(scenario())
    assert error["code"] == "conflict"
    assert "app/report.py" in str(error["message"])
    assert "app/shapes.py" not in str(error["message"])


def test_edits_count_utf16_columns_and_keep_line_ends() -> None:
    text = "a = '😀'; total = 1\r\nprint(total)\r\n"
    edits = [TextEdit(0, 10, 0, 15, "sum"), TextEdit(1, 6, 1, 11, "sum")]
    assert apply_edits(text, edits) == "a = '😀'; sum = 1\r\nprint(sum)\r\n"


def test_edits_outside_the_root_or_on_files_are_refused(tmp_path: Path) -> None:
    edit = types.TextEdit(
        range=types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=1)
        ),
        new_text="x",
    )
    outside = types.WorkspaceEdit(changes={(tmp_path.parent / "elsewhere.py").as_uri(): [edit]})
    with pytest.raises(OutsideRootError):
        file_edits(tmp_path, outside)
    creates = types.WorkspaceEdit(
        document_changes=[types.CreateFile(uri=(tmp_path / "new.py").as_uri())]
    )
    with pytest.raises(UnsupportedEditError):
        file_edits(tmp_path, creates)


def _preview(root: Path, target: str, new_name: str) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            answer = await call(client, "nav_rename", target=target, new_name=new_name)
            data: dict[str, Any] = answer["data"]
            return data

    return asyncio.run(scenario())


def _line_of(root: Path, path: str, text: str) -> int:
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_a_method_renamed_in_a_subclass_names_the_base_declaration_it_leaves(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    root = _root(tmp_path, "ty")
    data = _preview(root, "app/shapes.py#Square.area", "surface")
    edited = {(f["path"], line) for f in data["files"] for line in _edited_lines(f["diff"])}
    base = ("app/shapes.py", _line_of(root, "app/shapes.py", "    def area(self) -> float:"))
    left = {(s["path"], s["line"]): s["why"] for s in data["notRenamed"]}
    if base not in edited:
        assert left[base] == "base_declaration", data["notRenamed"]
        assert data["completeness"] == "partial"
    assert not set(left) & edited


def test_an_export_renamed_as_an_alias_is_reported(tmp_path: Path) -> None:
    require_binary("typescript-language-server")
    root = tmp_path / "ts_app"
    shutil.copytree(FIXTURES / "ts_app", root)
    (root / "src" / "index.ts").write_text('export { totalArea } from "./shapes";\n')
    (root / "src" / "use.ts").write_text(
        'import { totalArea } from "./index";\n\nexport const none = totalArea([]);\n'
    )
    data = _preview(root, "src/shapes.ts#totalArea", "sumAreas")
    left = {(s["path"], s["line"]): s for s in data["notRenamed"]}
    assert left[("src/index.ts", 1)]["why"] == "reexported_as_alias", data
    assert data["completeness"] == "partial"


def _edited_lines(diff: str) -> set[int]:
    """The 1-based old lines a unified diff removes or changes."""
    lines: set[int] = set()
    old = 0
    for raw in diff.splitlines():
        if raw.startswith("@@"):
            old = int(raw.split()[1].lstrip("-").split(",")[0])
        elif raw.startswith("-") and not raw.startswith("---"):
            lines.add(old)
            old += 1
        elif raw.startswith(" "):
            old += 1
    return lines


def test_a_protocols_method_renamed_names_the_places_standing_for_the_protocol(
    tmp_path: Path,
) -> None:
    """`Square` stands for `Sized` structurally: renaming `Sized.area` breaks that
    line, which names neither the method nor anything the rename edits."""
    require_binary("ty")
    root = _root(tmp_path, "ty")
    (root / "app" / "sized.py").write_text(
        "from typing import Protocol\n\nfrom app.shapes import Square\n\n\n"
        "class Sized(Protocol):\n    def area(self) -> float: ...\n\n\n"
        "SIZED: Sized = Square(2.0)\n"
    )
    data = _preview(root, "app/sized.py#Sized.area", "surface")
    left = {(s["path"], s["line"]): s["why"] for s in data["notRenamed"]}
    assert left.get(("app/sized.py", 10)) == "protocol_use", data["notRenamed"]
    assert data["completeness"] == "partial"
