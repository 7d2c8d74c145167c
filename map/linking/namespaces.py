"""PHP names written with their namespace: `\\A\\B\\C::make()`, `new Sub\\C()`, a
docblock's `@return \\A\\B\\C`.

Extraction writes such a prefix as a qualifier segment ending in `\\`
(map.extraction.node_text: `\\A\\B\\` from the root, `Sub\\` relative). Relative, it
starts from an import's alias (`use X\\Lit;` makes `Lit\\` X\\Lit) or else from the
namespace the file declares. Its files are the namespace's (map.linking.modules:
where Composer's autoload puts it, else those that declare it and are named after
the name looked up: a store relink then reads no other file's namespace).
"""

from __future__ import annotations

from collections.abc import Callable

from map.extraction.import_facts import NAMESPACE
from map.linking.lookup import Lookup
from map.linking.qualifiers import QualifierSteps
from map.linking.scopes import FileScope

SEPARATOR = "\\"
NamespaceFiles = Callable[[str, str, str], tuple[str, ...]]
"""(importer, namespace, name) -> the files of the namespace that may hold `name`
(map.linking.modules)."""


def _none(importer: str, namespace: str, name: str) -> tuple[str, ...]:
    return ()


class NamespaceSteps(QualifierSteps):
    """The files a PHP namespace prefix names."""

    _namespace_files: NamespaceFiles = staticmethod(_none)

    def set_namespaces(self, files: NamespaceFiles) -> None:
        """Take how a namespace's files are found (the linker's module index)."""
        self._namespace_files = files

    def _namespace(
        self, ctx: Lookup, scope: FileScope, prefix: str, following: str
    ) -> tuple[str, ...]:
        """The files of the namespace `prefix` (ending in `\\`) names in `scope`'s file;
        `following`: the name looked up in them, consulted even when none is (a file that
        comes to declare the namespace defines it)."""
        ctx.consulted.add(following)
        return self._namespace_files(scope.path, absolute(scope, prefix), following)


def absolute(scope: FileScope, prefix: str) -> str:
    """The namespace a prefix written in `scope`'s file names (see the module)."""
    parts = [part for part in prefix.split(SEPARATOR) if part]
    if prefix.startswith(SEPARATOR) or not parts:
        return SEPARATOR.join(parts)
    for imp in scope.imports:
        for name, alias in imp.names:
            if alias == parts[0] and imp.module != NAMESPACE:
                return SEPARATOR.join(p for p in (imp.module, name, *parts[1:]) if p)
    own = next((imp.names[0][0] for imp in scope.imports if imp.module == NAMESPACE), "")
    return SEPARATOR.join(p for p in (own, *parts) if p)
