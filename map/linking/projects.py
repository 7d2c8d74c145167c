"""TypeScript/JavaScript project configuration: tsconfig.json, jsconfig.json,
package.json and pnpm-workspace.yaml read into facts, and the facts merged as the
compiler merges them.

`read_config` turns one file's text into its facts (a JSON-able dict the map
stores with its layout, map.linking.layout): the compiler options that move where
an import resolves (`baseUrl`, `paths`, `rootDirs`, `rootDir`, `outDir`,
`declarationDir`), `extends`, `references`, `include`, `exclude`, `files`; a
package's `name`, `exports`, `imports`, `types`, `typings`, `module`, `main`,
`workspaces`;
pnpm's workspace `packages`. A tsconfig is JSON with comments and trailing commas
(read with pyjson5); a file that cannot be read keeps its `error`, never raises.

`Project` is one tsconfig as the compiler sees it once its `extends` chain is
merged (`merged`): options override key by key, each path option taken relative
to the file that sets it, `paths` relative to `baseUrl` or else to the file that
sets `paths`, `include`/`exclude`/`files` from the nearest file in the chain
that has them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
import pyjson5

from map.linking.layout import ConfigFacts

PATH_OPTIONS = ("baseUrl", "rootDir", "outDir", "declarationDir")
"""compilerOptions holding one directory, relative to the file that sets them."""
PACKAGE_FIELDS = ("name", "exports", "imports", "types", "typings", "module", "main")
MAX_EXTENDS = 16
"""Links of an `extends` chain followed (a longer one, or a cycle, stops there)."""
DEFAULT_EXCLUDE = ("node_modules", "bower_components", "jspm_packages")
_CONFIG_NAME = re.compile(r"(?:tsconfig|jsconfig)(?:\.[^/]*)?\.json")


def is_config_name(name: str) -> bool:
    """Whether a file name is one a TS/JS project is configured by (read into the layout)."""
    return name in ("package.json", "pnpm-workspace.yaml") or bool(_CONFIG_NAME.fullmatch(name))


def read_config(path: str, text: str | None) -> dict[str, Any]:
    """The facts of the configuration file at repo-relative `path` (see the module's
    docstring); `text` None: the file could not be read."""
    name = path.rpartition("/")[2]
    kind = "package" if name == "package.json" else "pnpm" if name.endswith(".yaml") else "tsconfig"
    if text is None:
        return {"kind": kind, "error": "unreadable"}
    if kind == "pnpm":
        return {"kind": kind, "packages": _pnpm_packages(text)}
    try:
        value = _parse_json(text)
    except ValueError as exc:
        return {"kind": kind, "error": f"not valid JSON ({str(exc).splitlines()[0][:120]})"}
    if not isinstance(value, dict):
        return {"kind": kind, "error": "not a JSON object"}
    return _package(value) if kind == "package" else _tsconfig(value)


def _parse_json(text: str) -> Any:
    """JSON, else JSON with comments and trailing commas (JSON5); ValueError if neither."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    try:
        return pyjson5.loads(text)
    except pyjson5.Json5Exception as exc:
        raise ValueError(str(exc)) from exc


def _strings(value: object) -> list[str]:
    """A list of strings (a lone string as one), anything else left out."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _tsconfig(value: dict[str, Any]) -> dict[str, Any]:
    facts: dict[str, Any] = {"kind": "tsconfig"}
    options = value.get("compilerOptions")
    kept: dict[str, Any] = {}
    if isinstance(options, dict):
        for key in PATH_OPTIONS:
            if isinstance(options.get(key), str):
                kept[key] = options[key]
        if isinstance(options.get("rootDirs"), list):
            kept["rootDirs"] = _strings(options["rootDirs"])
        paths = options.get("paths")
        if isinstance(paths, dict):
            kept["paths"] = {k: _strings(v) for k, v in paths.items() if isinstance(k, str)}
    facts["compilerOptions"] = kept
    facts["extends"] = [{"spec": spec} for spec in _strings(value.get("extends"))]
    for key in ("include", "exclude", "files"):
        if key in value:
            facts[key] = _strings(value[key])
    references = value.get("references")
    if isinstance(references, list):
        facts["references"] = [
            r["path"] for r in references if isinstance(r, dict) and isinstance(r.get("path"), str)
        ]
    return facts


def _package(value: dict[str, Any]) -> dict[str, Any]:
    facts: dict[str, Any] = {"kind": "package"}
    for key in PACKAGE_FIELDS:
        if key in value and (key in ("exports", "imports") or isinstance(value[key], str)):
            facts[key] = value[key]
    workspaces = value.get("workspaces")
    if isinstance(workspaces, dict):  # yarn's {"packages": [...], "nohoist": [...]}
        workspaces = workspaces.get("packages")
    if workspaces is not None:
        facts["workspaces"] = _strings(workspaces)
    return facts


def _pnpm_packages(text: str) -> list[str]:
    """The globs under `packages:` in a pnpm-workspace.yaml (a block list of scalars,
    all the file format pnpm documents for it)."""
    found: list[str] = []
    inside = False
    for line in text.splitlines():
        bare = line.split(" #", 1)[0].rstrip()
        if not bare.strip() or bare.lstrip().startswith("#"):
            continue
        if not bare[0].isspace() and not bare.startswith("-"):
            inside = bare.startswith("packages:")
            continue
        item = bare.strip()
        if inside and item.startswith("-"):
            found.append(item[1:].strip().strip("'\""))
    return found


def extends_candidates(config: str, spec: str) -> list[str]:
    """The repo-relative files an `extends` of `config` may name, in the order the
    compiler tries them: a relative path (with `.json` added), else a package's file
    in a node_modules folder from the config's directory upward."""
    folder = posixpath.dirname(config)
    if spec.startswith(("./", "../")) or spec in (".", ".."):
        joined = posixpath.normpath(posixpath.join(folder, spec))
        return [joined, f"{joined}.json"] if not joined.endswith(".json") else [joined]
    if spec.startswith("/") or not spec:
        return []
    found: list[str] = []
    parts = folder.split("/") if folder else []
    for depth in range(len(parts), -1, -1):
        base = posixpath.join(*parts[:depth], "node_modules", spec)
        found += [base, f"{base}.json", f"{base}/tsconfig.json"]
    return found


def join(folder: str, relative: str) -> str:
    """`relative` (as a config writes it) from repo-relative `folder`; "" is the root."""
    joined = posixpath.normpath(posixpath.join(folder, relative))
    return "" if joined == "." else joined


@dataclass(frozen=True)
class Project:
    """One tsconfig (or jsconfig) as the compiler sees it (`merged`): every path
    repo-relative, "" the root."""

    config: str
    folder: str
    base_url: str | None
    paths: tuple[tuple[str, tuple[str, ...]], ...]
    """(pattern, substitutions as repo-relative paths), in the order written."""
    root_dirs: tuple[str, ...]
    root_dir: str | None
    out_dirs: tuple[str, ...]
    include: tuple[str, ...] | None
    """None: every file under `folder` (the compiler's default)."""
    exclude: tuple[str, ...]
    files: tuple[str, ...] | None
    """None: not given (`"files": []` takes no file in: a solution of references)."""
    references: tuple[str, ...]
    """The referenced projects' config files."""
    problems: tuple[str, ...] = ()
    """What could not be read of the `extends` chain (`path: why`)."""

    def includes(self, path: str) -> bool:
        """Whether the project takes `path` in (its `files`, or `include` less `exclude`)."""
        if self.files is not None and path in self.files:
            return True
        if self.include is None:
            if self.files is not None:
                return False
            within = not self.folder or path.startswith(self.folder + "/")
            return within and not _matches(self.exclude, path)
        return _matches(self.include, path) and not _matches(self.exclude, path)


def merged(config: str, scripts: Mapping[str, ConfigFacts]) -> Project | None:
    """The project of tsconfig `config` with its `extends` chain merged; None when
    the layout holds no such tsconfig."""
    chain = _chain(config, scripts)
    if not chain:
        return None
    options: dict[str, tuple[str, Any]] = {}
    """option -> (the folder of the file that set it, its value)."""
    lists: dict[str, tuple[str, list[str]]] = {}
    problems: list[str] = []
    for path in chain:  # the base first, the config itself last
        facts = scripts[path]
        problems += problems_of(path, facts)
        folder = posixpath.dirname(path)
        for key, value in facts.get("compilerOptions", {}).items():
            options[key] = (folder, value)
        for key in ("include", "exclude", "files"):
            if key in facts:
                lists[key] = (folder, list(facts[key]))
    folder = posixpath.dirname(config)
    base_url = join(*options["baseUrl"]) if "baseUrl" in options else None
    paths: list[tuple[str, tuple[str, ...]]] = []
    if "paths" in options:
        paths_folder, table = options["paths"]
        base = base_url if base_url is not None else join(paths_folder, ".")
        paths = [(k, tuple(join(base, s) for s in v)) for k, v in table.items()]
    root_dirs: tuple[str, ...] = ()
    if "rootDirs" in options:
        dirs_folder, dirs = options["rootDirs"]
        root_dirs = tuple(join(dirs_folder, d) for d in dirs)
    outs = tuple(join(*options[k]) for k in ("outDir", "declarationDir") if k in options)
    include = _patterns(lists["include"]) if "include" in lists else None
    exclude = (
        _patterns(lists["exclude"])
        if "exclude" in lists
        else (*_patterns((folder, list(DEFAULT_EXCLUDE))), *outs)
    )
    return Project(
        config=config,
        folder=folder,
        base_url=base_url,
        paths=tuple(paths),
        root_dirs=root_dirs,
        root_dir=join(*options["rootDir"]) if "rootDir" in options else None,
        out_dirs=outs,
        include=include,
        exclude=tuple(exclude),
        files=_patterns(lists["files"]) if "files" in lists else None,
        references=tuple(_reference(folder, r) for r in scripts[config].get("references", ())),
        problems=tuple(problems),
    )


def problems_of(path: str, facts: ConfigFacts) -> list[str]:
    """What could not be read of one configuration file (`path: why`), if anything. A
    package's base config not installed (`@tsconfig/node20`) is none: a published base
    cannot know the project's `paths`, and node_modules is often not there."""
    found = [f"{path}: {facts['error']}"] if "error" in facts else []
    found += [
        f"{path}: extends {base['spec']!r}, not found"
        for base in facts.get("extends", ())
        if not base.get("path") and base["spec"].startswith(".")
    ]
    return found


def _chain(config: str, scripts: Mapping[str, ConfigFacts]) -> list[str]:
    """`config` and what it extends, bases first (each base's own bases before it)."""
    order: list[str] = []

    def visit(path: str, depth: int) -> None:
        facts = scripts.get(path)
        if facts is None or facts.get("kind") != "tsconfig" or path in order:
            return
        if depth < MAX_EXTENDS:
            for base in facts.get("extends", ()):
                if base.get("path"):
                    visit(base["path"], depth + 1)
        if path not in order:
            order.append(path)

    visit(config, 0)
    return order


def _reference(folder: str, path: str) -> str:
    """A project reference's config file: a tsconfig, or a folder's tsconfig.json."""
    joined = join(folder, path)
    return joined if joined.endswith(".json") else posixpath.join(joined, "tsconfig.json")


def _patterns(given: tuple[str, Sequence[str]]) -> tuple[str, ...]:
    """Patterns written in a config in `folder`, made repo-relative."""
    folder, patterns = given
    return tuple(join(folder, p) for p in patterns)


def _matches(patterns: Sequence[str], path: str) -> bool:
    return any(pattern_matches(p, path) for p in patterns)


def pattern_matches(pattern: str, path: str, *, folders_only: bool = False) -> bool:
    """Whether repo-relative `path` matches an include/exclude `pattern` (see
    `_pattern`); `folders_only`: a workspace glob, matched by the folder itself."""
    return bool(_pattern(pattern, folders_only).match(path))


@lru_cache(maxsize=1024)
def _pattern(pattern: str, folders_only: bool = False) -> re.Pattern[str]:
    """An include/exclude pattern as the compiler reads it: `*` within a folder name,
    `**/` any folders; a last part with neither a wildcard nor an extension is a
    folder (everything under it)."""
    last = pattern.rpartition("/")[2]
    folder = not folders_only and "*" not in last and "?" not in last and "." not in last
    parts: list[str] = []
    split = pattern.split("/") if pattern else []
    for index, part in enumerate(split):
        last_part = index == len(split) - 1
        if part == "**":
            parts.append(".*" if last_part else "(?:[^/]+/)*")
            continue
        text = re.escape(part).replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        parts.append(text if last_part else text + "/")
    body = "".join(parts)
    if folder:
        body = (body + "/" if body and not body.endswith("/") else body) + ".*"
    return re.compile(body + r"\Z")
