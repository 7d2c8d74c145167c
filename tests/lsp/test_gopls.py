"""gopls (Debian's 0.5.0, go 1.19) behind the LivePool, on tests/fixtures/go_app.

gopls 0.5 does not watch the disk: edits reach it as didChangeWatchedFiles, and
files changed outside are opened (it caches unopened files by mtime).
"""

from __future__ import annotations

import os
import subprocess
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from string import Template

import pytest

from lsp.catalog import Catalog
from lsp.errors import ServerRequestError
from tests.conftest import FIXTURES
from tests.lsp.conftest import Live, line_of, open_live, position_of
from tests.lsp.realserver import PATIENT, CallerFiles, Case, RealServerTests, Spot, places

SHAPES = "shapes/shapes.go"
MAIN = "main.go"

GO = Case(
    fixture="go_app",
    language="go",
    server="gopls",
    decl=Spot(SHAPES, "Total", after="func Total"),
    call=Spot(MAIN, "Total", after="shapes.Total"),
    caller="report",
    definition_text="func Total(",
    hover_shows=(
        "func shapes.Total(shapes []shapes.Shape) float64",
        "Total is the sum of the areas of shapes.",
    ),
    hover_hides=("pkg.go.dev",),  # the catalog turns hover links off
    workspace_symbol=("Total", SHAPES),
    outside=CallerFiles(
        folder="",
        suffix=".go",
        head='package main\n\nimport "example.com/goapp/shapes"\n\n',
        calling=Template("func $name() float64 {\n\treturn shapes.Total(nil)\n}\n"),
        call="shapes.Total(",
        idle="func other() int {\n\treturn 0\n}\n",
    ),
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with GO.open(tmp_path_factory) as live:
        yield live


def test_references_reach_a_file_never_opened_from_the_first_query(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with GO.open(tmp_path_factory) as live:  # its own server: this is its first query
        found = live.run(live.pool.references(*GO.decl.at(live.root)))
        assert places(found) == {GO.decl.place(live.root), GO.call.place(live.root)}


def test_implementations_of_an_interface_are_its_types(live: Live) -> None:
    found = live.run(live.pool.implementations(*Spot(SHAPES, "Shape interface").at(live.root)))
    assert places(found) == {
        (SHAPES, line_of(live.root, SHAPES, "type Circle")),
        (SHAPES, line_of(live.root, SHAPES, "type Square")),
    }


def test_type_definition_of_a_variable_is_its_type(live: Live) -> None:
    found = live.run(
        live.pool.type_definition(*Spot(MAIN, "all", after="func report").at(live.root))
    )
    assert places(found) == {(SHAPES, line_of(live.root, SHAPES, "type Shape interface"))}


def test_document_symbols_nest_fields_in_their_struct(live: Live) -> None:
    outline = {node.name: node for node in live.run(live.pool.document_symbols(SHAPES))}
    assert {"Shape", "Circle", "Square", "Total"} <= set(outline)
    circle = outline["Circle"]
    assert circle.kind == "struct"
    assert [(f.name, f.kind) for f in circle.children] == [("Radius", "field")]
    assert [(m.name, m.kind) for m in outline["Shape"].children] == [("Area", "method")]
    assert outline["Total"].kind == "function"


def test_outgoing_calls_name_the_interface_method_called(live: Live) -> None:
    callees = live.run(live.pool.outgoing_calls(*GO.decl.at(live.root)))
    assert [(s.name, s.location.path) for s in callees] == [("Area", SHAPES)]
    assert callees[0].location.line == line_of(live.root, SHAPES, "Area() float64")
    call_line = position_of(live.root, SHAPES, "Area", after="shape.")[0]
    assert {span.start_line for span in callees[0].call_spans} == {call_line}


def test_a_complete_module_has_no_workspace_problem(live: Live) -> None:
    assert live.run(live.pool.definition(*GO.call.at(live.root)))
    assert live.pool.workspace_problems(MAIN) == []


AREA = Spot("shapes/shapes.go", "Area", after="func ")


@pytest.fixture(scope="module")
def missing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """go_missing: a module requiring example.invalid/greeter, in no module cache."""
    dest = tmp_path_factory.mktemp("go_missing")
    with open_live("go_missing", dest, language="go", server="gopls", settings=PATIENT) as live:
        yield live


def test_a_missing_dependency_is_named_with_its_fix_and_the_rest_still_answers(
    missing: Live,
) -> None:
    found = missing.run(missing.pool.definition(*Spot(MAIN, "Area").at(missing.root)))
    assert places(found) == {AREA.place(missing.root)}
    [problem] = missing.pool.workspace_problems(MAIN)
    assert "example.invalid/greeter@v1.0.0 (module lookup disabled by GOPROXY=off)" in (
        problem.cause
    )
    assert problem.fix.startswith("run `go mod download` in the root")


def test_references_fail_while_a_dependency_is_missing_and_the_problem_says_why(
    missing: Live,
) -> None:
    # gopls refuses references in a module with errors; the pool's finding is
    # what the bridge turns into the error's hint.
    with pytest.raises(ServerRequestError, match="modules have errors"):
        missing.run(missing.pool.references(*AREA.at(missing.root)))
    assert "go mod download" in missing.pool.workspace_problems("shapes/shapes.go")[0].fix


def _module_proxy(dest: Path) -> str:
    """A file:// GOPROXY serving example.invalid/greeter v1.0.0 from tests/fixtures/go_proxy
    (go_missing's go.sum holds its hashes)."""
    versions = dest / "proxy/example.invalid/greeter/@v"
    versions.mkdir(parents=True)
    source = FIXTURES / "go_proxy/greeter"
    with zipfile.ZipFile(versions / "v1.0.0.zip", "w") as archive:
        for name in ("go.mod", "greeter.go"):
            archive.write(source / name, f"example.invalid/greeter@v1.0.0/{name}")
    (versions / "v1.0.0.mod").write_bytes((source / "go.mod").read_bytes())
    (versions / "v1.0.0.info").write_text('{"Version": "v1.0.0"}')
    (versions / "list").write_text("v1.0.0\n")
    return (dest / "proxy").as_uri()


def test_after_go_mod_download_references_answer_again(tmp_path: Path) -> None:
    # gopls keeps a module it loaded broken: the pool restarts it once the check
    # finds the module whole. The module cache is the test's own.
    cache = tmp_path / "modcache"
    gopls = Catalog.builtin().servers["gopls"]
    env = {**gopls.env, "GOMODCACHE": str(cache), "GOFLAGS": "-modcacherw"}
    catalog = Catalog.builtin().with_overrides({}, {"gopls": replace(gopls, env=env)})
    with open_live(
        "go_missing", tmp_path, language="go", server="gopls", settings=PATIENT, catalog=catalog
    ) as live:
        with pytest.raises(ServerRequestError, match="modules have errors"):
            live.run(live.pool.references(*AREA.at(live.root)))
        assert live.pool.workspace_problems(MAIN)
        download = {**os.environ, **env, "GOPROXY": _module_proxy(tmp_path)}
        subprocess.run(["go", "mod", "download"], cwd=live.root, env=download, check=True)
        found = live.run(live.pool.references(*AREA.at(live.root)))
        assert places(found) == {AREA.place(live.root), Spot(MAIN, "Area").place(live.root)}
        assert live.pool.workspace_problems(MAIN) == []


def test_a_go_mod_edited_outside_is_seen_at_once(tmp_path: Path) -> None:
    # The missing requirement goes (from go.mod, go.sum and its one use): gopls
    # hears of go.mod as of a source file, and references answer again. Its own
    # copy and server: the module is whole after it.
    with open_live("go_missing", tmp_path, language="go", server="gopls", settings=PATIENT) as live:
        root = live.root
        assert live.run(live.pool.definition(*Spot(MAIN, "Area").at(root)))
        assert live.pool.workspace_problems(MAIN)
        (root / "go.mod").write_text("module example.com/gomissing\n\ngo 1.19\n")
        (root / "go.sum").unlink()
        main = (root / MAIN).read_text()
        main = main.replace('\t"example.invalid/greeter"\n', "").replace("greeter.Hello() + ", "")
        (root / MAIN).write_text(main)
        found = live.run(live.pool.references(*AREA.at(root)))
        assert places(found) == {AREA.place(root), Spot(MAIN, "Area").place(root)}
        assert live.pool.workspace_problems(MAIN) == []


class TestGopls(RealServerTests):
    case = GO
