"""What a file's imports and includes bind: local names to modules, files and names
(`bind_imports`), and the files whose top-level names it sees unqualified (a package's
siblings, an include closure: `fill_visible`)."""

from __future__ import annotations

import re
from collections import defaultdict

from map.extraction.import_facts import NAMESPACE
from map.linking.modules import (
    INCLUDE_LANGUAGES,
    JVM_LANGUAGES,
    PACKAGE_DIR_LANGUAGES,
    ModuleIndex,
)
from map.linking.scopes import Binding, FileScope, ModuleBinding, NameBinding

MAX_INCLUDE_DEPTH = 8
HEAD_BINDING_LANGUAGES = frozenset({"python"})
LAST_BINDING_LANGUAGES = frozenset({"go", "java", "rust"})
PATH_SEPARATORS = {"rust": "::", "cpp": "::"}
_GO_MAJOR = re.compile(r"v[0-9]+")
"""A Go module path's major version element, which its package is not named after."""
_GO_MAJOR_SUFFIX = re.compile(r"\.v[0-9]+$")


def bind_imports(scope: FileScope, index: ModuleIndex) -> None:
    """Fill the scope's bindings, star imports and imported files from its imports."""
    path, language = scope.path, scope.language
    bindings: dict[str, Binding] = {}
    stars: list[str] = []
    imported: defaultdict[str, set[int]] = defaultdict(set)
    includes: list[str] = []
    unplaced: list[str] = []
    for imp in scope.imports:
        if imp.module == NAMESPACE:  # the namespace a PHP file declares: no import
            continue
        files = index.resolve(path, language, imp.module)
        if not files and index.unplaced(path, language, imp.module):
            unplaced.extend(alias for _, alias in imp.names)
        line = imp.range.first_line
        if not imp.names:
            local, bound = _plain_binding(language, imp.module, path, index, files)
            if local is not None:
                binding = _local_binding(language, imp.module, path, index, bound)
                bindings[local] = binding
                if isinstance(binding, NameBinding):
                    files = binding.files
            if language in INCLUDE_LANGUAGES:
                includes.extend(files)
        whole_module = not imp.names
        for name, alias in imp.names:
            if name == "*":
                whole_module = True
                if alias == "*":
                    stars.extend(files)
                else:
                    bindings[alias] = ModuleBinding(files)
                continue
            submodule = _submodule(language, imp.module, name, path, index)
            if submodule:
                binding = (  # a JVM or PHP class file binds its class, a Python one a module
                    ModuleBinding(submodule)
                    if language == "python"
                    else NameBinding(submodule, name)
                )
                bindings[alias] = binding
                for f in submodule:
                    imported[f].add(line)
            else:
                whole_module = True
                bindings[alias] = NameBinding(files, name)
        for f in files if whole_module else ():
            imported[f].add(line)
    imported.pop(path, None)
    scope.bindings = bindings
    scope.stars = tuple(dict.fromkeys(stars))
    scope.imported_files = {f: tuple(sorted(lines)) for f, lines in sorted(imported.items())}
    scope.direct_includes = tuple(dict.fromkeys(includes))
    scope.unplaced = frozenset(unplaced)


def _local_binding(
    language: str, module: str, path: str, index: ModuleIndex, files: tuple[str, ...]
) -> Binding:
    """What a plain import binds (a module, or a name in its parent for Java/Rust)."""
    if files or language not in {"java", "rust"}:
        return ModuleBinding(files)
    sep = PATH_SEPARATORS.get(language, ".")
    parent, _, last = module.rpartition(sep)
    return NameBinding(index.resolve(path, language, parent), last) if parent else ModuleBinding(())


def fill_visible(scopes: dict[str, FileScope], index: ModuleIndex, paths: list[str]) -> None:
    """Set the files whose top-level names a file sees unqualified (its package: a Go,
    JVM, C#, Swift or PHP directory; what it includes: C, Ruby, PHP, Bash)."""
    for path in paths:
        scope = scopes[path]
        visible: tuple[str, ...] = ()
        if scope.language in PACKAGE_DIR_LANGUAGES:
            visible = tuple(
                f
                for f in index.package_files(path.rpartition("/")[0])
                if f != path and index.language(f) == scope.language
            )
        if scope.language in INCLUDE_LANGUAGES:
            visible = tuple(dict.fromkeys((*_include_closure(scopes, path), *visible)))
        if scope.language in PACKAGE_DIR_LANGUAGES | INCLUDE_LANGUAGES:
            scope.visible_files = visible


def _include_closure(scopes: dict[str, FileScope], path: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    frontier = list(scopes[path].direct_includes)
    for _ in range(MAX_INCLUDE_DEPTH):
        following: list[str] = []
        for f in frontier:
            if f in seen or f == path:
                continue
            seen[f] = None
            other = scopes.get(f)
            if other is not None:
                following.extend(other.direct_includes)
        frontier = following
    return tuple(seen)


def _plain_binding(
    language: str, module: str, path: str, index: ModuleIndex, files: tuple[str, ...]
) -> tuple[str | None, tuple[str, ...]]:
    """The local name a plain import binds, and the files that name stands for."""
    if language in HEAD_BINDING_LANGUAGES and not module.startswith("."):
        head = module.split(".", 1)[0]
        return head, index.resolve(path, language, head) if head != module else files
    if language in LAST_BINDING_LANGUAGES:
        sep = PATH_SEPARATORS.get(language, "/" if language == "go" else ".")
        parts = module.rstrip(sep).rsplit(sep, 2)
        if language == "go" and len(parts) > 1 and _GO_MAJOR.fullmatch(parts[-1]):
            parts.pop()  # `github.com/go-chi/chi/v5` is package chi
        last = parts[-1]
        if language == "go":
            last = _GO_MAJOR_SUFFIX.sub("", last)  # `gopkg.in/yaml.v3` is package yaml
        return (last or None), files
    return None, files


def _submodule(
    language: str, module: str, name: str, path: str, index: ModuleIndex
) -> tuple[str, ...]:
    """The file of `from module import name` when `name` is a Python submodule
    (or, for `import module.Name` in a JVM language, the class's own file; for PHP's
    `use Module\\Name`, Name.php in the namespace's directory)."""
    if language in JVM_LANGUAGES:
        found = index.resolve(path, language, f"{module}.{name}")
        return found if len(found) == 1 and _stem(found[0]) == name else ()
    if language == "php":
        return index.php_class(path, module, name)
    if language != "python":
        return ()
    dotted = module + name if module.endswith(".") else f"{module}.{name}"
    return index.resolve(path, language, dotted)


def _stem(path: str) -> str:
    """A file's name without folder and extension (`a/b/C.java` -> C)."""
    return path.rsplit("/", 1)[-1].split(".", 1)[0]
