"""What the linker takes in and gives back: a file's change and what is given of its
new extract (`Incoming`), a file as a store kept it (`Restored`), what one file's
references resolved to (`FileLinks`), how much a link moved (`LinkStats`), and
which changes move the repo's module layout (`moves_layout`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from map.extraction.import_facts import NAMESPACE
from map.linking.consulted import Consulted
from map.linking.modules import C_LANGUAGES
from map.linking.references import References
from map.linking.resolution import Resolution
from map.linking.unresolved import NO_NAMES
from map.model import FileExtract, Import

Change = tuple[FileExtract | None, FileExtract | None]
Incoming = tuple[str, Change] | tuple[str, Change, bytes] | tuple[str, Change, bytes, References]
"""A file to link: its path and change, then optionally the new extract packed
(map.linking.packed) and its references as columns; given those, the new extract need
hold only the references that name a base class (map.extraction.snapshot.decode_extract)."""
Restored = tuple[str, FileExtract, bytes, References, bytes]
"""A file as a store kept it: path, extract (as for `Incoming`), packed, references,
and what linking decided for it (map.linking.link_rows)."""


@dataclass(slots=True)
class FileLinks:
    """What one file's references resolved to (by index; None: nothing of ours) and
    which names each consulted. Which references make an edge is derived when
    asked (`_edge_uses`): kept, it was the linker's largest table."""

    results: list[Resolution | None]
    deps: Consulted = field(default_factory=Consulted)
    open_names: frozenset[str] = NO_NAMES
    """The names of the references that resolved to nothing of ours or only to a
    guess (map.linking.unresolved): which files an answer about a name reads."""


@dataclass(frozen=True)
class LinkStats:
    """How much one `apply` re-resolved."""

    files_relinked: int
    """Files whose every reference was resolved again."""
    moved: frozenset[str] = frozenset()
    """Files whose nodes, outgoing edges or resolutions changed (`update`): what a
    save writes."""


def incoming(
    path: str, change: Change, packed: Mapping[str, bytes], references: Mapping[str, References]
) -> Incoming:
    """A change with what is given of its new extract: packed, and its references."""
    if path not in packed:
        return (path, change)
    if path not in references:
        return (path, change, packed[path])
    return (path, change, packed[path], references[path])


def moves_layout(old: FileExtract | None, new: FileExtract | None) -> bool:
    """Whether a change moves the repo's module layout (a file came or went, a C/C++
    file's includes moved, the namespace a PHP file declares): every file's imports are
    bound again."""
    if old is None or new is None:
        return True
    if new.language == "php":
        return declared_namespaces(old.imports) != declared_namespaces(new.imports)
    return new.language in C_LANGUAGES and _import_shape(old) != _import_shape(new)


def declared_namespaces(imports: Iterable[Import]) -> list[str]:
    """The namespaces a PHP file declares (its imports' NAMESPACE entries)."""
    return [imp.names[0][0] for imp in imports if imp.module == NAMESPACE]


def _import_shape(extract: FileExtract) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """A file's imports without their positions."""
    return tuple((imp.module, imp.names) for imp in extract.imports)
