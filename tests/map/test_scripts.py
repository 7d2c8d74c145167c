"""TS/JS specifiers resolved as the compiler resolves them (map.linking.scripts), from
configuration facts read as the intake reads them (map.linking.projects): unit tests
of our own logic over in-memory layouts."""

from __future__ import annotations

from typing import Any

import pytest

from map.linking.projects import extends_candidates, is_config_name, read_config
from map.linking.scripts import ScriptResolver, export_targets


def _resolver(configs: dict[str, str], files: set[str]) -> ScriptResolver:
    """A resolver over `configs` (path -> text; extends found among them) and `files`."""
    facts: dict[str, Any] = {}
    for path, text in configs.items():
        read = read_config(path, text)
        for base in read.get("extends", ()):
            found = [c for c in extends_candidates(path, base["spec"]) if c in configs]
            base["path"] = found[0] if found else None
        facts[path] = read
    return ScriptResolver(facts, files.__contains__)


def test_a_tsconfig_with_comments_and_trailing_commas_is_read() -> None:
    facts = read_config(
        "tsconfig.json",
        '{\n  // options\n  "compilerOptions": {"baseUrl": "./src", /* x */\n'
        '  "paths": {"@/*": ["*"],},},\n}',
    )
    assert facts["compilerOptions"] == {"baseUrl": "./src", "paths": {"@/*": ["*"]}}


@pytest.mark.parametrize("text", ['{"compilerOptions": ', "[1, 2]", None])
def test_an_unreadable_config_keeps_its_error(text: str | None) -> None:
    facts = read_config("a/tsconfig.json", text)
    assert facts["kind"] == "tsconfig" and facts["error"]


def test_config_names() -> None:
    named = ["tsconfig.json", "tsconfig.base.json", "jsconfig.json", "package.json"]
    assert all(is_config_name(n) for n in [*named, "pnpm-workspace.yaml"])
    assert not any(is_config_name(n) for n in ["tsconfig.ts", "config.json", "package.jsonc"])


def test_pnpm_workspace_globs_are_read() -> None:
    text = "# monorepo\npackages:\n  - 'packages/*'\n  - \"apps/**\" # all\n  - '!**/test/**'\n"
    assert read_config("pnpm-workspace.yaml", text)["packages"] == [
        "packages/*",
        "apps/**",
        "!**/test/**",
    ]


def test_paths_pick_the_exact_pattern_then_the_longest_prefix() -> None:
    resolver = _resolver(
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {'
            '"@app/*": ["src/*"], "@app/core/*": ["core/*"], "@app": ["src/main.ts"]}}}'
        },
        {"src/main.ts", "src/x.ts", "core/x.ts"},
    )
    assert resolver.resolve("t.ts", "@app") == ("src/main.ts",)
    assert resolver.resolve("t.ts", "@app/x") == ("src/x.ts",)
    assert resolver.resolve("t.ts", "@app/core/x") == ("core/x.ts",)
    assert resolver.resolve("t.ts", "react") == ()


def test_extends_paths_are_relative_to_the_config_that_sets_them() -> None:
    resolver = _resolver(
        {
            "configs/base.json": '{"compilerOptions": {"paths": {"~/*": ["../shared/*"]}}}',
            "app/tsconfig.json": '{"extends": "../configs/base"}',
        },
        {"shared/util.ts", "app/main.ts"},
    )
    assert resolver.resolve("app/main.ts", "~/util") == ("shared/util.ts",)


def test_each_file_follows_its_nearest_project_that_takes_it_in() -> None:
    resolver = _resolver(
        {
            "tsconfig.json": '{"files": [], "references": [{"path": "./tsconfig.app.json"}]}',
            "tsconfig.app.json": '{"compilerOptions": {"baseUrl": "src"}, "include": ["src"]}',
            "tools/tsconfig.json": '{"compilerOptions": {"baseUrl": "."}}',
        },
        {"src/a.ts", "src/b.ts", "tools/b.ts", "tools/run.ts"},
    )
    assert resolver.resolve("src/a.ts", "b") == ("src/b.ts",)
    assert resolver.resolve("tools/run.ts", "b") == ("tools/b.ts",)


def test_root_dirs_merge_folders_for_relative_imports() -> None:
    resolver = _resolver(
        {"tsconfig.json": '{"compilerOptions": {"rootDirs": ["src", "generated"]}}'},
        {"src/views/main.ts", "generated/views/template.ts"},
    )
    assert resolver.resolve("src/views/main.ts", "./template") == ("generated/views/template.ts",)


@pytest.mark.parametrize(
    ("specifier", "found"),
    [
        ("./a.js", "a.ts"),
        ("./b.mjs", "b.mts"),
        ("./c.cjs", "c.cts"),
        ("./d.js", "d.js"),
        ("./lib", "lib/index.tsx"),
        ("./e", "e.d.ts"),
    ],
)
def test_javascript_extensions_name_typescript_sources(specifier: str, found: str) -> None:
    files = {"a.ts", "a.js", "b.mts", "c.cts", "d.js", "lib/index.tsx", "e.d.ts", "m.ts"}
    assert _resolver({}, files).resolve("m.ts", specifier) == (found,)


def test_export_conditions_and_patterns() -> None:
    exports = {
        ".": {"types": "./dist/index.d.ts", "default": "./dist/index.js"},
        "./*": {"import": {"types": "./esm/*.d.mts"}, "default": "./*.js"},
        "./internal/*": None,
    }
    assert export_targets(exports, ".") == ["./dist/index.d.ts", "./dist/index.js"]
    assert export_targets(exports, "./vanilla") == ["./esm/vanilla.d.mts", "./vanilla.js"]
    assert export_targets(exports, "./internal/x") == []
    assert export_targets("./main.js", ".") == ["./main.js"]


def test_a_package_entry_in_build_output_maps_back_to_its_source() -> None:
    configs = {
        "package.json": '{"workspaces": ["packages/*"]}',
        "packages/a/package.json": '{"name": "a", "types": "./lib/index.d.ts"}',
        "packages/b/package.json": '{"name": "@s/b", "exports": {"./*": "./out/*.js"}}',
        "packages/b/tsconfig.json": '{"compilerOptions": {"outDir": "out", "rootDir": "source"}}',
    }
    files = {"packages/a/src/index.ts", "packages/b/source/x.ts", "apps/main.ts"}
    resolver = _resolver(configs, files)
    assert resolver.resolve("apps/main.ts", "a") == ("packages/a/src/index.ts",)
    assert resolver.resolve("apps/main.ts", "@s/b/x") == ("packages/b/source/x.ts",)


def test_only_workspace_members_and_the_own_package_are_ours_by_name() -> None:
    configs = {
        "package.json": '{"name": "root", "workspaces": ["packages/*", "!packages/skip"]}',
        "packages/skip/package.json": '{"name": "skip"}',
        "fixtures/react/package.json": '{"name": "react"}',
    }
    files = {"packages/skip/index.ts", "fixtures/react/index.ts", "src/index.ts", "src/a.ts"}
    resolver = _resolver(configs, files)
    assert resolver.resolve("src/a.ts", "skip") == ()
    assert resolver.resolve("src/a.ts", "react") == ()
    assert resolver.resolve("src/a.ts", "root/src/index") == ("src/index.ts",)


@pytest.mark.parametrize(
    ("config", "unsure"),
    [
        ('{"extends": "./missing.json"}', True),
        ('{"compilerOptions": {', True),
        ('{"extends": "@tsconfig/strictest"}', False),  # a published base, not installed
        ("{}", False),
    ],
)
def test_an_unreadable_config_makes_package_imports_unsure(config: str, unsure: bool) -> None:
    resolver = _resolver({"tsconfig.json": config}, {"a.ts"})
    assert resolver.unsure("a.ts", "@/util") is unsure
    assert not resolver.unsure("a.ts", "./util")


def test_a_file_outside_include_follows_its_own_package_config_only() -> None:
    resolver = _resolver(
        {
            "package.json": '{"name": "lib"}',
            "tsconfig.json": '{"compilerOptions": {"paths": {"lib": ["src/index.ts"]}}, '
            '"include": ["src"]}',
            "examples/demo/package.json": '{"name": "demo", "dependencies": {"lib": "1"}}',
        },
        {"src/index.ts", "tests/a.test.ts", "examples/demo/main.ts"},
    )
    assert resolver.resolve("tests/a.test.ts", "lib") == ("src/index.ts",)
    assert resolver.resolve("examples/demo/main.ts", "lib") == ()


def test_subpath_imports_go_through_the_own_package_json() -> None:
    configs = {
        "package.json": '{"name": "app", "imports": {"#db": "./src/db/index.ts", '
        '"#utils/*": {"types": "./dist/utils/*.d.ts", "default": "./dist/utils/*.js"}}}',
    }
    resolver = _resolver(configs, {"src/db/index.ts", "src/utils/time.ts", "src/main.ts"})
    assert resolver.resolve("src/main.ts", "#db") == ("src/db/index.ts",)
    assert resolver.resolve("src/main.ts", "#utils/time") == ("src/utils/time.ts",)
    assert resolver.resolve("src/main.ts", "#nothing") == ()
