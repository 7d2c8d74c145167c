"""`doctor`: a server counts as found only when it really runs."""

from __future__ import annotations

import stat
from dataclasses import replace
from pathlib import Path

import pytest

from lsp.catalog import Catalog, ServerSpec
from lsp.doctor import check_server, examine
from tests.conftest import require_binary


def _script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _catalog(*specs: ServerSpec) -> Catalog:
    return Catalog(
        {s.name: s for s in specs}, {lang: s.name for s in specs for lang in s.languages}
    )


def _spec(name: str, executable: str) -> ServerSpec:
    return ServerSpec(name, (name,), (executable, "--stdio"), f"get {name}", {f".{name}": name})


@pytest.fixture
def tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CODEANCHOR_TOOLS_DIR", str(tmp_path))
    return tmp_path


def test_a_shim_whose_version_command_fails_is_not_found_and_says_why(tools: Path) -> None:
    _script(tools, "shim-ls", 'echo "error: Unknown binary shim-ls in toolchain" >&2; exit 1')
    [report] = examine(_catalog(_spec("shim", "shim-ls")))
    assert not report.found
    assert report.path == str(tools / "shim-ls")
    assert report.problem is not None
    assert "exit 1" in report.problem and "Unknown binary shim-ls" in report.problem
    assert report.install == "get shim"


def test_a_working_server_reports_its_version(tools: Path) -> None:
    _script(tools, "good-ls", 'echo "good-ls 1.2.3"; echo "built today"')
    [report] = examine(_catalog(_spec("good", "good-ls")))
    assert report.found and report.problem is None
    assert report.version == "good-ls 1.2.3"


def test_the_version_can_come_from_an_executable_beside_the_server(tools: Path) -> None:
    _script(tools, "lang-langserver", "echo 'wants --stdio' >&2; exit 2")
    _script(tools, "lang", 'echo "lang 4.5"')
    [report] = examine(
        _catalog(replace(_spec("lang", "lang-langserver"), version_executable="lang"))
    )
    assert report.found and report.version == "lang 4.5"


def test_a_missing_server_is_not_found_and_names_its_install_command(tools: Path) -> None:
    [report] = examine(_catalog(_spec("absent", "absent-ls")))
    assert not report.found and report.path is None and report.problem is None
    assert report.install == "get absent"


def test_the_version_command_sees_the_servers_environment(tools: Path) -> None:
    _script(tools, "env-ls", 'test "$LS_MODE" = offline && echo "env-ls ok" || exit 3')
    [report] = examine(_catalog(replace(_spec("env", "env-ls"), env={"LS_MODE": "offline"})))
    assert report.found and report.version == "env-ls ok"


def test_installed_servers_report_real_versions() -> None:
    require_binary("clangd")
    reports = {r.name: r for r in examine(Catalog.builtin())}
    clangd = reports["clangd"]
    assert clangd.found and clangd.version is not None and clangd.version.startswith("clangd")
    assert clangd.chosen_for == ("c", "cpp")
    pyright = reports["pyright"]
    if pyright.path is not None:
        assert pyright.found and pyright.version is not None
        assert pyright.version.startswith("pyright ")


def test_one_server_can_be_checked_before_it_is_started(tools: Path) -> None:
    _script(tools, "shim-ls", 'echo "error: component not installed" >&2; exit 1')
    report = check_server(_spec("shim", "shim-ls"))
    assert not report.found and report.chosen_for == ()
    assert report.problem is not None and "component not installed" in report.problem
