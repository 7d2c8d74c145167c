"""Where a TypeScript/JavaScript import specifier leads, as the compiler resolves it.

A relative specifier is a path from the importer (then, failing that, the same
path under each other `rootDirs` folder). Any other specifier goes through the
importer's project (the nearest tsconfig.json or jsconfig.json up the tree that
takes the file in, directly or through its `references`; when none does, the
nearest one in the file's own package, as a test runner applying the package's
aliases to tests left out of `include` does; none there: the compiler's defaults):
its `paths` (an exact pattern, else the matching `*` pattern with the longest
prefix; its substitutions in order), then `baseUrl`; a `#name` goes through the
`imports` of the importer's own package.json; then the packages of the
repository by name: the importer's own package (self-reference) and the
members of a workspace (npm and yarn `workspaces`, pnpm-workspace.yaml), each
through its package.json `exports` (subpaths, `*` patterns, conditions in the
order written), else `types`/`typings`/`module`/`main`, else its `index`.

A path names a file with or without its extension: `.js`, `.jsx`, `.mjs` and
`.cjs` name the `.ts`/`.tsx`/`.mts`/`.cts` source first; a folder names its
package.json's entry or its index file. A package entry that names build output
(`dist/index.d.ts`, `./esm/vanilla.mjs`) that is not in the repository is
mapped back to its source: through the package's tsconfig `outDir` and
`rootDir`, else by dropping the output folders (dist, lib, esm, ...) and
looking under `src/` and the package's folder. A specifier that leads to no
file of ours (a dependency, a builtin) resolves to nothing: it is external.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from map.linking.layout import ConfigFacts
from map.linking.projects import Project, join, merged, pattern_matches, problems_of

SOURCE_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
"""What an extensionless path may name, in the order the compiler tries them."""
OUTPUT_EXTENSIONS = {
    ".js": (".ts", ".tsx", ".d.ts", ".js", ".jsx"),
    ".jsx": (".tsx", ".jsx"),
    ".mjs": (".mts", ".d.mts", ".mjs"),
    ".cjs": (".cts", ".d.cts", ".cjs"),
}
"""A JavaScript extension -> the files it may name, TypeScript sources first."""
BUILT_ENDINGS = (".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx")
OUTPUT_FOLDERS = frozenset(
    {"dist", "lib", "build", "out", "esm", "cjs", "es", "umd", "types", "typings", "dts"}
)
"""Folders a package's build output is usually written to (see `_source_of`)."""
ENTRY_FIELDS = ("types", "typings", "module", "main")
MAX_REFERENCE_DEPTH = 4


class ScriptResolver:
    """Resolves specifiers for one layout's TS/JS configuration; `has(path)` says
    whether the map holds a file (asked at each resolution, never cached)."""

    def __init__(self, scripts: Mapping[str, ConfigFacts], has: Callable[[str], bool]) -> None:
        self._scripts = scripts
        self._has = has
        self._merged: dict[str, Project | None] = {}
        self._governing: dict[str, Project | None] = {}
        self._members = _workspace_members(scripts)
        """package name -> the folders of workspace packages of that name."""
        self._broken_packages = any(
            problems_of(p, f) for p, f in scripts.items() if f.get("kind") != "tsconfig"
        )

    def resolve(self, importer: str, module: str) -> tuple[str, ...]:
        """The file `module`, imported from `importer`, names; () when external."""
        if module.startswith(("./", "../")) or module in (".", ".."):
            joined = join(posixpath.dirname(importer), module)
            found = self._file_or_folder(joined) or self._root_dirs(importer, joined)
            return (found,) if found else ()
        project = self.project_of(importer)
        found = self._through_project(project, module) if project is not None else None
        found = found or (self._imported(importer, module) if module.startswith("#") else None)
        found = found or self._package(importer, module)
        return (found,) if found else ()

    def _imported(self, importer: str, module: str) -> str | None:
        """A `#name` subpath import, through the importer's package.json `imports`."""
        own = self._own_package(importer)
        imports = self._scripts[_package_json(own)].get("imports") if own is not None else None
        if own is None or not isinstance(imports, dict):
            return None
        for target in map_targets(imports, module):
            found = self._target(own, target)
            if found:
                return found
        return None

    def unsure(self, importer: str, module: str) -> bool:
        """Whether `module` (which resolved to nothing) may yet be ours: a specifier
        other than a relative path, while the importer's project configuration, or
        a package.json or pnpm-workspace.yaml, could not be read."""
        if module.startswith("."):
            return False
        project = self.project_of(importer)
        return self._broken_packages or (project is not None and bool(project.problems))

    def project_of(self, path: str) -> Project | None:
        """The project whose options govern `path` (see the module's docstring)."""
        if path not in self._governing:
            self._governing[path] = self._find_project(path)
        return self._governing[path]

    def _find_project(self, path: str) -> Project | None:
        nearest: Project | None = None
        for folder in _folders_up(posixpath.dirname(path)):
            for name in ("tsconfig.json", "jsconfig.json"):
                project = self._project(posixpath.join(folder, name) if folder else name)
                if project is None:
                    continue
                nearest = nearest or project
                found = self._taking(project, path, 0)
                if found is not None:
                    return found
        own = self._own_package(path)
        if nearest is not None and (own is None or _under(nearest.folder, own)):
            return nearest  # a file of the config's own package, outside its `include`
        return None

    def _project(self, config: str) -> Project | None:
        if config not in self._merged:
            facts = self._scripts.get(config)
            usable = facts is not None and facts.get("kind") == "tsconfig"
            self._merged[config] = merged(config, self._scripts) if usable else None
        return self._merged[config]

    def _taking(self, project: Project, path: str, depth: int) -> Project | None:
        """`project` if it takes `path` in, else the first project it references that does."""
        if project.includes(path):
            return project
        if depth >= MAX_REFERENCE_DEPTH:
            return None
        for config in project.references:
            referenced = self._project(config)
            found = self._taking(referenced, path, depth + 1) if referenced else None
            if found is not None:
                return found
        return None

    def _through_project(self, project: Project, module: str) -> str | None:
        for candidate in _substitutions(project.paths, module):
            found = self._file_or_folder(candidate)
            if found:
                return found
        if project.base_url is not None:
            return self._file_or_folder(join(project.base_url, module))
        return None

    def _root_dirs(self, importer: str, joined: str) -> str | None:
        """A relative import's path found under another of its project's `rootDirs`."""
        project = self.project_of(importer)
        if project is None or not project.root_dirs:
            return None
        for root in sorted(project.root_dirs, key=len, reverse=True):
            if _under(joined, root):
                rest = joined[len(root) :].lstrip("/")
                for other in project.root_dirs:
                    found = other != root and self._file_or_folder(join(other, rest))
                    if found:
                        return found
                return None
        return None

    def _file_or_folder(self, path: str) -> str | None:
        """The file `path` names (with or without its extension), else its folder's
        package entry or index file."""
        found = self._file(path)
        if found:
            return found
        if f"{path}/package.json" in self._scripts:
            found = self._entry(path, ".")
            if found:
                return found
        return self._file(posixpath.join(path, "index") if path else "index")

    def _file(self, path: str) -> str | None:
        has = self._has
        stem, ending = posixpath.splitext(path)
        for candidate in (stem + e for e in OUTPUT_EXTENSIONS.get(ending, ())):
            if has(candidate):
                return candidate
        if has(path):
            return path
        for candidate in (path + e for e in SOURCE_EXTENSIONS):
            if has(candidate):
                return candidate
        return None

    def _package(self, importer: str, module: str) -> str | None:
        """A package of the repository by name: the importer's own, or a workspace's."""
        name, subpath = _split_package(module)
        if not name:
            return None
        own = self._own_package(importer)
        folders = [own] if own is not None and self._name_of(own) == name else []
        members = self._members.get(name, ())
        folders += sorted(members, key=lambda f: _distance(importer, f))
        for folder in folders:
            found = self._entry(folder, subpath)
            if found:
                return found
        return None

    def _own_package(self, importer: str) -> str | None:
        for folder in _folders_up(posixpath.dirname(importer)):
            if _package_json(folder) in self._scripts:
                return folder
        return None

    def _name_of(self, folder: str) -> object:
        return self._scripts[_package_json(folder)].get("name")

    def _entry(self, folder: str, subpath: str) -> str | None:
        """What `<package>/<subpath>` names in the package at `folder`."""
        facts = self._scripts.get(_package_json(folder), {})
        if "exports" in facts:
            for target in export_targets(facts["exports"], subpath):
                found = self._target(folder, target)
                if found:
                    return found
        if subpath != ".":
            return self._file_or_folder(join(folder, subpath))
        for field in ENTRY_FIELDS:
            value = facts.get(field)
            found = self._target(folder, value) if isinstance(value, str) else None
            if found:
                return found
        return self._file(posixpath.join(folder, "index") if folder else "index")

    def _target(self, folder: str, target: str) -> str | None:
        path = join(folder, target)
        return self._file(path) or self._source_of(folder, path)

    def _source_of(self, folder: str, built: str) -> str | None:
        """The source of a package's build output `built` (see the module's docstring)."""
        project = self._project(posixpath.join(folder, "tsconfig.json"))
        if project is not None and project.root_dir is not None:
            for out in (o for o in project.out_dirs if _under(built, o)):
                found = self._source(join(project.root_dir, built[len(out) :].lstrip("/")))
                if found:
                    return found
        rest = built[len(folder) :].lstrip("/").split("/") if folder else built.split("/")
        while len(rest) > 1 and rest[0] in OUTPUT_FOLDERS:
            rest = rest[1:]
        tail = "/".join(rest)
        for base in (join(folder, "src"), folder):
            found = self._source(join(base, tail))
            if found:
                return found
        return None

    def _source(self, built: str) -> str | None:
        """A source file for the build output path `built` (any source extension)."""
        stem = built
        for ending in BUILT_ENDINGS:
            if stem.endswith(ending):
                stem = stem[: -len(ending)]
                break
        return self._file(stem) or self._file(posixpath.join(stem, "index"))


def export_targets(exports: Any, subpath: str) -> list[str]:
    """The targets package.json `exports` gives `subpath` (`.` or `./x`), in the order
    written (every condition's, nested); [] when it does not export it."""
    table: Any = exports
    if not isinstance(exports, dict) or not any(str(k).startswith(".") for k in exports):
        table = {".": exports}
    return map_targets(table, subpath)


def map_targets(table: dict[Any, Any], key: str) -> list[str]:
    """The targets an `exports` or `imports` map gives `key`: its own entry, else the
    `*` pattern's with the longest prefix (every condition's, in the order written)."""
    if key in table:
        return _targets(table[key], None)
    best = _best_pattern([k for k in table if isinstance(k, str)], key)
    return _targets(table[best[0]], best[1]) if best is not None else []


def _targets(value: Any, star: str | None) -> list[str]:
    if isinstance(value, str):
        return [value if star is None else value.replace("*", star)]
    if isinstance(value, list):
        return [t for v in value for t in _targets(v, star)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _targets(v, star)]
    return []


def _substitutions(paths: tuple[tuple[str, tuple[str, ...]], ...], module: str) -> list[str]:
    """The paths `paths` maps `module` to: an exact pattern's, else the `*` pattern's
    with the longest prefix."""
    table = dict(paths)
    if module in table:
        return list(table[module])
    best = _best_pattern(list(table), module)
    return [s.replace("*", best[1]) for s in table[best[0]]] if best is not None else []


def _best_pattern(patterns: list[str], spec: str) -> tuple[str, str] | None:
    """The pattern with one `*` that fits `spec` with the longest prefix, and what its
    `*` stands for there."""
    best: tuple[str, str] | None = None
    for pattern in patterns:
        prefix, star, suffix = pattern.partition("*")
        if not star or "*" in suffix or len(spec) < len(prefix) + len(suffix):
            continue
        fits = spec.startswith(prefix) and spec.endswith(suffix)
        if fits and (best is None or len(prefix) > len(best[0].partition("*")[0])):
            best = (pattern, spec[len(prefix) : len(spec) - len(suffix)])
    return best


def _workspace_members(scripts: Mapping[str, ConfigFacts]) -> dict[str, list[str]]:
    """Package name -> the folders of the workspace packages of that name."""
    globs: list[tuple[str, list[str]]] = []
    for path, facts in scripts.items():
        patterns = facts.get("workspaces") if facts.get("kind") == "package" else None
        if facts.get("kind") == "pnpm":
            patterns = facts.get("packages")
        if patterns:
            globs.append((posixpath.dirname(path), list(patterns)))
    members: dict[str, list[str]] = {}
    for path, facts in sorted(scripts.items()):
        name = facts.get("name")
        if facts.get("kind") != "package" or not isinstance(name, str):
            continue
        folder = posixpath.dirname(path)
        if any(_member(root, patterns, folder) for root, patterns in globs):
            members.setdefault(name, []).append(folder)
    return members


def _member(root: str, patterns: list[str], folder: str) -> bool:
    """Whether `folder` is a package of the workspace at `root` (its globs, `!` negated)."""
    if not _under(folder, root) or folder == root:
        return False
    taken = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        glob = join(root, pattern.lstrip("!").rstrip("/"))
        if pattern_matches(glob, folder, folders_only=True):
            taken = not negated
    return taken


def _split_package(module: str) -> tuple[str, str]:
    """`@a/b/c` -> (`@a/b`, `./c`); `a` -> (`a`, `.`); ("", "") for no package name."""
    parts = module.split("/")
    count = 2 if module.startswith("@") else 1
    if len(parts) < count or not all(parts[:count]) or ":" in parts[0]:
        return "", ""
    rest = "/".join(parts[count:])
    return "/".join(parts[:count]), f"./{rest}" if rest else "."


def _package_json(folder: str) -> str:
    return posixpath.join(folder, "package.json") if folder else "package.json"


def _folders_up(folder: str) -> Iterator[str]:
    """`folder` and each folder above it, ending with the root ("")."""
    while True:
        yield folder
        if not folder:
            return
        folder = posixpath.dirname(folder)


def _under(path: str, folder: str) -> bool:
    return not folder or path == folder or path.startswith(folder + "/")


def _distance(importer: str, folder: str) -> tuple[int, str]:
    """How far `folder` is from `importer` (folders not shared), then by name."""
    mine = importer.split("/")[:-1]
    theirs = folder.split("/") if folder else []
    shared = 0
    for a, b in zip(mine, theirs, strict=False):
        if a != b:
            break
        shared += 1
    return (len(mine) + len(theirs) - 2 * shared, folder)
