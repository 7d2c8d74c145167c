"""`servers install`: npm servers go to the user's data folder, where every install finds them.

The install itself runs the real npm on a local package (no download), in a
private data folder (CODEANCHOR_DATA_DIR); the catalog's pinned installs from
the registry are exercised by tests/test_install.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lsp import (
    Catalog,
    InstallError,
    ServerSpec,
    choose_servers,
    install_server,
    install_status,
    npm_servers,
    uninstall_server,
)
from lsp.doctor import check_server
from lsp.locate import locate
from tests.docs.synopsis import command_problems


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("CODEANCHOR_DATA_DIR", str(folder))
    return folder


def _package(folder: Path, version: str) -> Path:
    """A local npm package `fake-ls` at `version` whose executable prints it."""
    folder.mkdir(parents=True)
    manifest = {"name": "fake-ls", "version": version, "bin": {"fake-ls": "cli.js"}}
    (folder / "package.json").write_text(json.dumps(manifest))
    (folder / "cli.js").write_text(f'#!/usr/bin/env node\nconsole.log("fake-ls {version}")\n')
    return folder


def _spec(*packages: str) -> ServerSpec:
    return ServerSpec(
        "fake-ls",
        ("fake",),
        ("fake-ls", "--stdio"),
        "codeanchor servers install fake-ls",
        {".fk": "fake"},
        npm_packages=packages,
    )


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is not installed (scripts/setup.sh needs it too)")
    return npm


def test_an_installed_server_is_found_from_the_data_folder(data: Path, tmp_path: Path) -> None:
    spec = _spec(f"file:{_package(tmp_path / 'pkg1', '1.0.0')}")
    assert install_status(spec).installed is None
    said: list[str] = []
    done = install_server(spec, _npm(), said.append)
    assert done.current and done.folder == data / "servers" / "fake-ls"
    assert locate("fake-ls") == done.folder / "node_modules" / ".bin" / "fake-ls"
    report = check_server(spec)
    assert report.found and report.version == "fake-ls 1.0.0"
    assert any("fake-ls" in line for line in said)
    assert uninstall_server(spec) and locate("fake-ls") is None


def test_a_failed_install_keeps_the_previous_one(data: Path, tmp_path: Path) -> None:
    good = _spec(f"file:{_package(tmp_path / 'pkg1', '1.0.0')}")
    install_server(good, _npm(), lambda _: None)
    broken = _spec(f"file:{tmp_path / 'nowhere'}")
    with pytest.raises(InstallError, match="npm could not install fake-ls"):
        install_server(broken, _npm(), lambda _: None)
    assert check_server(good).version == "fake-ls 1.0.0"
    assert install_status(good).current
    assert sorted(p.name for p in (data / "servers").iterdir()) == ["fake-ls"]


def test_names_are_servers_or_languages() -> None:
    catalog = Catalog.builtin()
    assert [s.name for s in choose_servers(catalog, ["typescript", "php", "pyright"])] == [
        "typescript-language-server",
        "intelephense",
        "pyright",
    ]
    assert {s.name for s in choose_servers(catalog, [])} == {s.name for s in npm_servers(catalog)}
    with pytest.raises(InstallError, match="gopls is not installed from npm"):
        choose_servers(catalog, ["go"])
    with pytest.raises(InstallError, match="'cobol' is no language server"):
        choose_servers(catalog, ["cobol"])


def test_every_pinned_server_says_how_to_install_it_with_a_real_command() -> None:
    for spec in npm_servers(Catalog.builtin()):
        assert spec.install == f"codeanchor servers install {spec.name}"
        assert command_problems(spec.install) == []
        assert all("@" in package for package in spec.npm_packages)


def test_without_npm_the_command_says_what_to_install(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bridge.cli.main import main

    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["servers", "install", "bash"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "codeanchor: npm not found: install Node.js 18 or later with npm "
        "(e.g. `sudo apt-get install nodejs npm`), then run this again"
    ]
    assert not data.exists()
