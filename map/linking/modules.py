"""Where an imported module lives in the repo, per language.

Python modules are found by their dotted path from a source root: the repo
root, a directory named `src`, and the directory above each top-level
package (a folder with `__init__.py` whose parent has none), so `src/` and
`examples/app/` layouts resolve while a package's own module `json.py`
never stands for the standard library's `json`; a script's own folder is
searched first when it is not a package (`import conftest`). Java, Kotlin,
Scala and Rust modules are found by any suffix of their dotted path (the
candidate nearest the importer wins; a JVM package is its directory's files),
a PHP namespace where the project's composer.json autoload puts it
(map.linking.composer), else in the files that declare it, else by the longest
suffix of its path that is a directory (PSR-4 maps a vendor prefix onto `src/`);
TypeScript and
JavaScript specifiers as the compiler resolves them, through the layout's
tsconfig, package.json and workspace files (map.linking.scripts); Go
packages through the module path in go.mod; C/C++ includes, Ruby requires,
PHP includes, Bash sources and Lua requires (`a.b` is a/b.lua or a/b/init.lua)
next to the includer, from the root, or by file name. C# and Swift import
namespaces and modules, never files: they resolve to none. An import that
resolves to nothing is external (the standard library, a dependency) and
yields no files.
"""

from __future__ import annotations

import bisect
import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

from map.extraction.import_facts import OWN_MODULE
from map.linking.composer import Autoload
from map.linking.layout import Layout
from map.linking.scripts import ScriptResolver

JVM_LANGUAGES = frozenset({"java", "kotlin", "scala"})
"""Languages whose `import a.b.C` names the class C of package a.b (often in C.<ext>)."""
DOTTED_LANGUAGES = frozenset({"python", "rust"}) | JVM_LANGUAGES
SCRIPT_LANGUAGES = frozenset({"typescript", "tsx", "javascript"})
C_LANGUAGES = frozenset({"c", "cpp"})
INCLUDE_LANGUAGES = C_LANGUAGES | {"ruby", "php", "bash"}
"""Languages whose included (required, sourced) files' top-level names the includer sees."""
PATH_LANGUAGES = INCLUDE_LANGUAGES | {"lua"}
"""Languages that import a file by its path (an include, a require, a source)."""
PACKAGE_DIR_LANGUAGES = frozenset({"go", "csharp", "swift", "php"}) | JVM_LANGUAGES
"""Languages whose package (namespace, module) is a directory: its files see each
other's top-level names."""
_PATH_SUFFIXES = {"ruby": ".rb", "lua": ".lua"}
"""The extension a path import leaves out (`require "a/b"` is a/b.rb)."""
PACKAGE_FILES = {"python": ("__init__.py", "__init__.pyi"), "rust": ("mod.rs", "lib.rs")}


Later = Callable[[list[str] | None], Iterable[tuple[str, Iterable[str]]]]
"""(paths, None: every file) -> each stored PHP file's path and declared namespaces."""
_PACKAGE_FILE_NAMES = frozenset(name for names in PACKAGE_FILES.values() for name in names)


def dotted_name(path: str) -> str:
    """`a/b/c.py` -> `a.b.c`; a package file (`a/b/__init__.py`, `a/mod.rs`) -> `a.b`.

    `path` is relative and normalized, as the map keeps it (string operations:
    the Python table names every file of the repository)."""
    folder, _, name = path.rpartition("/")
    dotted = folder.replace("/", ".")
    if name in _PACKAGE_FILE_NAMES:
        return dotted
    stem = name.split(".", 1)[0]
    return f"{dotted}.{stem}" if folder else stem


class ModuleIndex:
    """The repo's files by the names imports use for them."""

    def __init__(self) -> None:
        self._files: dict[str, str] = {}
        self._dotted: defaultdict[str, list[str]] = defaultdict(list)
        self._basenames: defaultdict[str, list[str]] = defaultdict(list)
        self._dirs: defaultdict[str, list[str]] = defaultdict(list)
        self._layout = Layout()
        self._scripts = ScriptResolver({}, self._files.__contains__)
        self._autoload = Autoload({})
        self._namespaces: defaultdict[str, list[str]] = defaultdict(list)
        """A PHP namespace (casefolded, as PHP reads it) -> the files that declare it."""
        self._declared: dict[str, tuple[str, ...]] = {}
        self._later: Later | None = None
        self._python_table: dict[str, list[str]] | None = None
        self._python_packages: set[str] = set()

    def add(self, path: str, language: str) -> None:
        """Index a source file."""
        self._files[path] = language
        if language == "python":
            self._python_table = None
        for key in self._keys(path, language):
            bucket = self._bucket(key)
            bucket.append(path)
            bucket.sort()

    def declare(self, path: str, namespaces: Iterable[str]) -> None:
        """Take the namespaces a PHP file declares (map.extraction.import_facts.NAMESPACE)."""
        for namespace in self._declared.pop(path, ()):
            self._namespaces[namespace].remove(path)
        found = tuple(dict.fromkeys(namespace.casefold() for namespace in namespaces))
        for namespace in found:
            bisect.insort(self._namespaces[namespace], path)
        self._declared[path] = found

    def declare_later(self, load: Later) -> None:
        """Have the PHP files' namespaces read from `load` when needed, for each file
        not declared by then (a linker reading a store lazily): of the files named
        after a class when one is looked up, of all when a namespace is."""
        self._later = load

    def remove(self, path: str) -> None:
        """Forget a source file."""
        self.declare(path, ())
        del self._declared[path]
        language = self._files.pop(path, None)
        if language is None:
            return
        if language == "python":
            self._python_table = None
        for key in self._keys(path, language):
            self._bucket(key).remove(path)

    def set_layout(self, layout: Layout) -> None:
        """Take the repository's layout (its go.mod files, its TS/JS configuration,
        its composer.json files)."""
        if layout.scripts != self._layout.scripts:
            self._scripts = ScriptResolver(layout.scripts, self._files.__contains__)
        if layout.composer != self._layout.composer:
            self._autoload = Autoload(layout.composer)
        self._layout = layout

    @property
    def scripts(self) -> ScriptResolver:
        """How TS/JS specifiers resolve under the layout's configuration."""
        return self._scripts

    def language(self, path: str) -> str | None:
        """The language of an indexed file."""
        return self._files.get(path)

    def package_files(self, directory: str) -> tuple[str, ...]:
        """The files of one directory (a Go, JVM, C#, Swift or PHP package)."""
        return tuple(self._dirs.get(directory, ()))

    def resolve(self, importer: str, language: str, module: str) -> tuple[str, ...]:
        """The files `module`, imported from `importer`, names; () when external."""
        if language == "python":
            return self._python(importer, module)
        if language in SCRIPT_LANGUAGES:
            return self._script(importer, module)
        if language == "go":
            return self._go(module)
        if language == "php" and not module.endswith(".php") and "/" not in module:
            return self.php_namespace(importer, module)
        if language in PATH_LANGUAGES:
            return self._path(importer, language, module)
        if language == "rust":
            parts = [p for p in module.split("::") if p not in {"crate", "self", "super", ""}]
            return self._dotted_lookup(importer, ".".join(parts))
        if language in JVM_LANGUAGES:
            return self._java(importer, language, module.removesuffix(".*"))
        return ()

    def unplaced(self, importer: str, language: str, module: str) -> bool:
        """Whether `module`, which resolved to nothing, may yet be ours: a TS/JS
        package-style specifier while the importer's project configuration could
        not be read (map.linking.scripts)."""
        return language in SCRIPT_LANGUAGES and self._scripts.unsure(importer, module)

    def _java(self, importer: str, language: str, module: str) -> tuple[str, ...]:
        """A class file (`a.b.C` -> .../a/b/C.java), else the package directory's files."""
        found = self._dotted_lookup(importer, module)
        if found:
            return found
        return self._directory(importer, language, module.split("."))

    def php_namespace(self, importer: str, module: str, name: str = "") -> tuple[str, ...]:
        """A PHP namespace's files: in the folder Composer's autoload puts it in, else
        those that declare it (`name`: only those named after it, for a name written
        with its namespace in code)."""
        for folder in self._autoload.folders(module):
            files = tuple(f for f in self.package_files(folder) if self._files[f] == "php")
            if files:
                return files
        if not module.strip("\\"):  # `use function count;`: the global namespace, which
            return ()  # no file declares
        declaring = self._declaring(module, name)
        return tuple(f for f in declaring if not name or f.endswith(f"/{name}.php"))

    def php_class(self, importer: str, namespace: str, name: str) -> tuple[str, ...]:
        """The file of PHP's `use Namespace\\Name`: where the project's composer.json
        autoload finds it (map.linking.composer; the nearest the importer), else the one
        file that declares the namespace and is named after the class, else a classmap's
        file of that name; () when none is, or several are (the files that declare the
        namespace then stand for it)."""
        found = [f for f in self._autoload.class_files(namespace, name) if f in self._files]
        if found:
            return (_nearest(importer, found),)
        found = [f for f in self._declaring(namespace, name) if f.endswith(f"/{name}.php")]
        if not found:
            folders = self._autoload.classmap
            found = [
                f
                for f in self._basenames.get(f"{name}.php", ())
                if any(f == d or f.startswith(f"{d}/") or not d for d in folders)
            ]
        return tuple(found) if len(found) == 1 else ()

    def _declaring(self, namespace: str, name: str = "") -> list[str]:
        """The files that declare a PHP namespace (`name`: only those of them named
        after that class are needed)."""
        if self._later is not None:
            named = self._basenames.get(f"{name}.php", ()) if name else None
            wanted = None if named is None else [p for p in named if p not in self._declared]
            for path, namespaces in self._later(wanted) if wanted != [] else ():
                if path not in self._declared:
                    self.declare(path, namespaces)
            if named is None:
                self._later = None
        return self._namespaces.get(namespace.strip("\\").casefold(), [])

    def _directory(self, importer: str, language: str, parts: list[str]) -> tuple[str, ...]:
        """The `language` files of the directory nearest the importer whose path ends
        in `parts`."""
        suffix = "/" + "/".join(parts)
        directories = [d for d in self._dirs if self._dirs[d] and ("/" + d).endswith(suffix)]
        if not directories:
            return ()
        found = self.package_files(_nearest(importer, [f"{d}/" for d in directories])[:-1])
        return tuple(f for f in found if self._files[f] == language)

    def _path(self, importer: str, language: str, module: str) -> tuple[str, ...]:
        """A file imported by its path, with the extension the language leaves out."""
        if language == "lua":
            stem = module.replace(".", "/")
            return self._include(importer, f"{stem}.lua") or self._include(
                importer, f"{stem}/init.lua"
            )
        ending = _PATH_SUFFIXES.get(language, "")
        if ending and not module.endswith(ending):
            module += ending
        return self._include(importer, module)

    def _keys(self, path: str, language: str) -> list[tuple[str, str]]:
        keys: list[tuple[str, str]] = []
        if language in DOTTED_LANGUAGES and language != "python":
            parts = dotted_name(path).split(".")
            keys += [("dotted", ".".join(parts[i:])) for i in range(len(parts)) if parts[i]]
        if language in PATH_LANGUAGES:
            keys.append(("basename", PurePosixPath(path).name))
        if language in PACKAGE_DIR_LANGUAGES:
            keys.append(("dir", posixpath.dirname(path)))
        return keys

    def _bucket(self, key: tuple[str, str]) -> list[str]:
        table = {"dotted": self._dotted, "basename": self._basenames, "dir": self._dirs}[key[0]]
        return table[key[1]]

    def _python(self, importer: str, module: str) -> tuple[str, ...]:
        table = self._python_modules()
        base = importer.split("/")[:-1]
        if not module.startswith("."):
            if "/".join(base) not in self._python_packages:  # a script sees its own folder
                found = self._python_file([*base, *module.split(".")])
                if found:
                    return found
            candidates = table.get(module)
            return (_nearest(importer, candidates),) if candidates else ()
        level = len(module) - len(module.lstrip("."))
        if level - 1 > len(base):
            return ()
        return self._python_file(
            [*base[: len(base) - (level - 1)], *filter(None, module[level:].split("."))]
        )

    def _python_file(self, parts: list[str]) -> tuple[str, ...]:
        """The module file or package file at the path `parts` (no extension)."""
        stem = "/".join(parts)
        for candidate in (
            f"{stem}.py",
            f"{stem}.pyi",
            *(f"{stem}/{n}" for n in PACKAGE_FILES["python"]),
        ):
            if candidate.lstrip("/") in self._files:
                return (candidate.lstrip("/"),)
        return ()

    def _python_modules(self) -> dict[str, list[str]]:
        """Dotted module name -> the Python files it names from some source root."""
        if self._python_table is not None:
            return self._python_table
        files = [p for p, language in self._files.items() if language == "python"]
        split = (path.rpartition("/") for path in files)
        packages = {folder for folder, _, name in split if name in PACKAGE_FILES["python"]}
        roots = {""} | {
            posixpath.dirname(d) for d in packages if posixpath.dirname(d) not in packages
        }
        table: defaultdict[str, list[str]] = defaultdict(list)
        for path in sorted(files):
            parts = dotted_name(path).split(".")
            folders = path.split("/")[:-1]
            folder = ""
            for depth in range(len(folders) + 1):
                if depth:
                    folder = f"{folder}/{folders[depth - 1]}" if depth > 1 else folders[0]
                if folder in roots or (depth and folders[depth - 1] == "src"):
                    dotted = ".".join(parts[depth:])
                    if dotted:
                        table[dotted].append(path)
        self._python_packages = packages
        self._python_table = dict(table)
        return self._python_table

    def _dotted_lookup(self, importer: str, dotted: str) -> tuple[str, ...]:
        candidates = self._dotted.get(dotted)
        if not candidates:
            return ()
        return (_nearest(importer, candidates),)

    def _script(self, importer: str, module: str) -> tuple[str, ...]:
        if module == OWN_MODULE:  # the file's own default export (map.extraction.import_facts)
            return (importer,)
        return self._scripts.resolve(importer, module)

    def _go(self, module: str) -> tuple[str, ...]:
        modules = self._layout.go_modules
        for mod_dir, mod_path in sorted(modules.items(), key=lambda kv: -len(kv[1])):
            if module == mod_path or module.startswith(mod_path + "/"):
                rest = module[len(mod_path) :].strip("/")
                directory = posixpath.join(mod_dir, rest).strip("/") if rest else mod_dir
                normal = posixpath.normpath(directory)
                found = self.package_files("" if normal == "." else normal)
                return tuple(f for f in found if self._files[f] == "go")
        return ()

    def _include(self, importer: str, module: str) -> tuple[str, ...]:
        name = module.strip().strip('"<>')
        if not name:
            return ()
        near = posixpath.normpath(posixpath.join(posixpath.dirname(importer), name))
        for candidate in (near, posixpath.normpath(name)):
            if candidate in self._files:
                return (candidate,)
        suffix = "/" + name
        matches = [
            f for f in self._basenames.get(PurePosixPath(name).name, ()) if f.endswith(suffix)
        ]
        return (_nearest(importer, matches),) if matches else ()


def _nearest(importer: str, candidates: list[str]) -> str:
    """The candidate sharing the longest directory prefix with the importer (then the shortest)."""
    if len(candidates) == 1:
        return candidates[0]
    importer_parts = importer.split("/")[:-1]

    def closeness(path: str) -> tuple[int, int, str]:
        parts = path.split("/")
        shared = 0
        for mine, theirs in zip(importer_parts, parts, strict=False):
            if mine != theirs:
                break
            shared += 1
        return (-shared, len(parts), path)

    return min(candidates, key=closeness)
