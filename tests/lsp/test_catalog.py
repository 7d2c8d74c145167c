"""The catalog and how `[tool.codeanchor]` overrides or extends it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from lsp.catalog import Catalog, ServerSpec
from lsp.catalog_config import catalog_from_config


def test_builtin_catalog_routes_each_extension_to_its_language() -> None:
    catalog = Catalog.builtin()
    assert catalog.language_of("src/app.TSX") == "typescript"
    assert catalog.language_of("lib/geometry.h") == "c"
    assert catalog.language_of("main.go") == "go"
    assert catalog.language_of("README.md") is None
    go = catalog.server_for_language("go")
    assert go is not None and go.name == "gopls"


def test_empty_config_is_the_builtin_catalog() -> None:
    assert catalog_from_config({}) == Catalog.builtin()


def test_config_chooses_another_python_server() -> None:
    catalog = catalog_from_config({"servers": {"python": "pyright"}, "budget_tokens": 10})
    chosen = catalog.server_for_language("python")
    assert chosen is not None and chosen.name == "pyright"
    assert catalog.server_for_language("go") == Catalog.builtin().server_for_language("go")


def test_config_overrides_some_fields_of_a_known_server_and_keeps_the_rest() -> None:
    catalog = catalog_from_config({"server": {"gopls": {"env": {"GOFLAGS": "-mod=vendor"}}}})
    gopls = catalog.servers["gopls"]
    builtin = Catalog.builtin().servers["gopls"]
    assert gopls.env == {"GOFLAGS": "-mod=vendor"}
    assert gopls.command == builtin.command
    assert gopls.settings == builtin.settings


def test_config_adds_a_server_that_serves_a_new_language() -> None:
    table = {
        "server": {
            "jdtls": {
                "command": ["jdtls", "-data", "/tmp/ws"],
                "languages": ["java"],
                "extensions": [".java", ".JAV"],
            }
        }
    }
    catalog = catalog_from_config(table)
    assert catalog.language_of("src/Main.java") == "java"
    assert catalog.language_of("Old.jav") == "java"
    jdtls = catalog.server_for_language("java")
    assert jdtls is not None
    assert jdtls.command == ("jdtls", "-data", "/tmp/ws")
    assert "jdtls" in jdtls.install


def test_an_added_server_can_claim_an_extension_of_a_builtin_one() -> None:
    table = {
        "servers": {"javascript": "quick-js"},
        "server": {
            "quick-js": {
                "command": ["qjs-lsp"],
                "languages": ["javascript"],
                "language_ids": {".js": "javascript"},
            }
        },
    }
    catalog = catalog_from_config(table)
    chosen = catalog.server_for_language(catalog.language_of("app.js") or "")
    assert chosen is not None and chosen.name == "quick-js"


def test_loading_progress_is_awaited_only_where_the_server_reports_it(tmp_path: Path) -> None:
    catalog = Catalog.builtin()
    clangd, tsserver = catalog.servers["clangd"], catalog.servers["typescript-language-server"]
    assert not clangd.reports_indexing(tmp_path)  # no compilation database: no index
    assert not tsserver.reports_indexing(tmp_path)  # no tsconfig: no project to load
    (tmp_path / "build").mkdir()
    (tmp_path / "build/compile_commands.json").write_text("[]")
    (tmp_path / "tsconfig.json").write_text("{}")
    assert clangd.reports_indexing(tmp_path)
    assert tsserver.reports_indexing(tmp_path)
    assert not catalog.servers["gopls"].reports_indexing(tmp_path)


# One sample per configurable field: a field added to ServerSpec without a
# config parser (or a parser that mangles it) fails here.
_SAMPLES: dict[str, tuple[Any, Any]] = {
    "languages": (["go", "gomod"], ("go", "gomod")),
    "command": (["gopls", "-rpc.trace"], ("gopls", "-rpc.trace")),
    "install": ("go install golang.org/x/tools/gopls@latest",) * 2,
    "language_ids": ({".GO": "go"}, {".go": "go"}),
    "version_args": (["version", "-json"], ("version", "-json")),
    "version_executable": ("go",) * 2,
    "version_package": ("intelephense", "intelephense"),
    "initialization_options": ({"semanticTokens": True},) * 2,
    "settings": ({"gopls": {"staticcheck": True}},) * 2,
    "env": ({"GOFLAGS": "-tags=integration"},) * 2,
    "watches_disk": (True, True),
    "open_before_references": (True, True),
    "blank_deleted_files": (True, True),
    "touch_with_new_text": (True, True),
    "prime_before_search": (True, True),
    "pull_through_tsserver": (True, True),
    "indexing_progress": (["Loading packages"], ("Loading packages",)),
    "indexing_progress_requires": (["go.work"], ("go.work",)),
    "ready_log": (["^Loaded"], ("^Loaded",)),
    "setup_files": (["go.mod"], ("go.mod",)),
    "compile_commands_arg": ("--compile-commands-dir=",) * 2,
    "publish_quiet_s": (2, 2.0),
    "memory_swing": (1, 1.0),
}


def test_every_server_field_is_configurable() -> None:
    # npm_packages is what `servers install` installs, read from the built-in catalog
    # only: a repository's configuration does not choose what a user installs
    settable = {f.name for f in dataclasses.fields(ServerSpec)} - {"name", "npm_packages"}
    assert settable == set(_SAMPLES)


@pytest.mark.parametrize("key", sorted(_SAMPLES))
def test_each_field_set_from_config_reaches_the_server(key: str) -> None:
    given, expected = _SAMPLES[key]
    catalog = catalog_from_config({"server": {"gopls": {key: given}}})
    assert getattr(catalog.servers["gopls"], key) == expected


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"servers": {"python": "pylance"}}, "unknown language server(s) pylance"),
        ({"servers": {"go": "pyright"}}, "pyright does not serve go"),
        ({"servers": ["python"]}, "servers must be a table"),
        ({"servers": {"python": 3}}, "python must be a string"),
        ({"server": "gopls"}, "server must be a table of server tables"),
        ({"server": {"gopls": ["gopls"]}}, "[tool.codeanchor.server.gopls] must be a table"),
        ({"server": {"gopls": {"comand": ["gopls"]}}}, "unknown key(s) comand"),
        ({"server": {"gopls": {"command": "gopls serve"}}}, "command must be a list"),
        ({"server": {"gopls": {"command": []}}}, "command must not be empty"),
        ({"server": {"gopls": {"watches_disk": "yes"}}}, "must be true or false"),
        ({"server": {"gopls": {"env": {"GOFLAGS": 1}}}}, "GOFLAGS must be a string"),
        ({"server": {"gopls": {"extensions": ["go"]}}}, "'go' is not a file extension"),
        ({"server": {"zls": {"command": ["zls"]}}}, "a new server needs languages, extensions"),
    ],
)
def test_invalid_config_says_what_is_wrong(table: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        catalog_from_config(table)
    assert message in str(raised.value)
