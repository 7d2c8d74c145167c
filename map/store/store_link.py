"""Relink an edit against the map store, reading only what the edit touches.

A process that opens a store finds the files changed since it was written
(an edit made while no process ran, or by a one-shot `map build`). Instead
of loading the whole map to link them, `relink_in_store` runs the linker
(map.linking.linker) over tables that fill themselves from the store as it reads
them (map.store.lazy_table): the changed files' old extracts and links, the
scopes and definitions their references look up, the files that consulted
a name they define or defined (the store's `consulters`), and the graph
around the files it relinks (their nodes and edges, and the files with
edges into a changed file). The result is the rows of every file whose
nodes, edges or resolutions moved, exactly as a full link would write
them. An edit that moves the module layout (a file added or removed, Go
modules, a C/C++ file's includes) binds every file's imports again: it is
refused (None), and the caller loads the whole map.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson

from map.extraction.import_facts import NAMESPACE
from map.extraction.languages import language_for
from map.extraction.snapshot import decode_extract, decode_symbols, unpack_lists
from map.graph.mapgraph import add_file, new_graph, put_edges
from map.intake.ingest import Scan
from map.linking.bindings import bind_imports, fill_visible
from map.linking.layout import Layout
from map.linking.link_input import FileLinks, LinkStats, moves_layout
from map.linking.link_rows import decode_links
from map.linking.packed import PackedExtracts
from map.linking.references import References
from map.linking.resolution import Declarations, file_of
from map.linking.resolve import Resolver
from map.linking.scopes import Declared, FileScope, declared, new_scope
from map.linking.unresolved import open_names
from map.model import FileExtract
from map.store.lazy_table import LazyTable
from map.store.link_store import StoredLinker
from map.store.mapstore import FileRows, MapStore, StoreError

STORED_LISTS = 64
"""Decoded store rows kept while relinking (a file's scope, references and nodes
read the same row)."""


class StoreLinker(StoredLinker):
    """A linker whose tables and graph hold only what it read of a store."""

    def __init__(self, store: MapStore, paths: Collection[str], layout: Layout):
        self._declared = _Declared(self._load_declared)
        super().__init__(new_graph())
        self._store = store
        self._paths = paths
        self._hydrated: set[str] = set()
        self._lists = lru_cache(maxsize=STORED_LISTS)(self._read_lists)
        self._extracts = PackedExtracts(LazyTable(self._load_packed))
        self._references = LazyTable(self._load_references)
        self._scopes = LazyTable(self._load_scope, known=lambda p: p in self._paths)
        self._defs = LazyTable[str, set[str]](self._load_defined, empty=set)
        self._links = LazyTable(self._load_links)
        self._dependents = LazyTable[str, set[str]](self._load_consulters, empty=set)
        for path in paths:
            language = language_for(path)
            if language is not None:
                self._index.add(path, language)
        self._layout = layout
        self._index.set_layout(layout)
        self._index.declare_later(self._stored_namespaces)
        self._declared.scopes = self._scopes
        self._wire()

    def _wire(self) -> None:
        super()._wire()
        self._resolver = Resolver(self._scopes, self._defs, self._declared)
        self._resolver.set_namespaces(self._index.php_namespace)

    def _stored_namespaces(self, paths: list[str] | None) -> Iterator[tuple[str, list[str]]]:
        """The namespaces each stored PHP file of `paths` (None: every file) declares
        (read only when a PHP import needs them: map.linking.modules)."""
        for path in self._paths if paths is None else paths:
            lists = self._stored_lists(path) if language_for(path) == "php" else None
            if lists is not None:
                yield path, [names[0][0] for module, names, _ in lists[3] if module == NAMESPACE]

    def _read_lists(self, path: str) -> list[Any] | None:
        blob = self._store.extract_blob(path)
        return None if blob is None else unpack_lists(blob)

    def _stored_lists(self, path: str) -> list[Any] | None:
        try:
            return self._lists(path)
        except (zlib.error, orjson.JSONDecodeError) as exc:
            raise StoreError(f"{self._store.path}: malformed extract of {path} ({exc})") from exc

    def _load_packed(self, path: str) -> bytes | None:
        blob = self._store.extract_blob(path)
        if blob is None:
            return None
        self._hydrate(path)
        for user in self._store.using_files(path):
            self._hydrate(user)  # a symbol that goes takes their edges into it along
        return blob

    def _load_references(self, path: str) -> References | None:
        lists = self._stored_lists(path)
        return None if lists is None else References.of_stored(path, lists[4])

    def _load_scope(self, path: str) -> FileScope | None:
        lists = self._stored_lists(path)
        if lists is None:
            return None
        scope = new_scope(decode_extract(path, lists, bases_only=True))
        bind_imports(scope, self._index)
        dict.__setitem__(self._scopes, path, scope)  # files that include it see it
        fill_visible(self._scopes, self._index, [path])
        return scope

    def _load_declared(self, path: str) -> StoredDeclarations | None:
        """A file's language and symbols as stored, nothing else decoded (a guess by
        name reads no more: a whole scope costs decoding the file's uses and binding
        its imports too)."""
        lists = self._stored_lists(path)
        if lists is None:
            return None
        try:
            return StoredDeclarations(lists[0], declared(decode_symbols(path, lists[2])))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StoreError(f"{self._store.path}: malformed extract of {path} ({exc!r})") from exc

    def _load_defined(self, name: str) -> set[str] | None:
        return self._store.defined(name) or None

    def _load_consulters(self, name: str) -> set[str] | None:
        return self._store.consulters(name) or None

    def _load_links(self, path: str) -> FileLinks | None:
        blob = self._store.link_blob(path)
        if blob is None:
            if path in self._paths:  # every file the store holds has one
                raise StoreError(f"{self._store.path}: {path} has no link row")
            return None
        self._hydrate(path)
        # the references the row was linked from: a changed file's are new by now
        references = self._load_references(path)
        try:
            results, deps = decode_links(blob, self._shared)
            if references is None or len(results) != len(references):
                raise ValueError(f"{len(results)} resolutions, not one per reference")
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise StoreError(f"{self._store.path}: malformed link row of {path} ({exc!r})") from exc
        return FileLinks(results, deps, open_names(self._scopes[path], references, results))

    def _hydrate(self, path: str) -> None:
        """Put a file's nodes and outgoing edges into the graph as the store holds them
        (not a change: nothing is touched)."""
        if path in self._hydrated:
            return
        self._hydrated.add(path)
        lists = self._stored_lists(path)
        if lists is None:
            return
        add_file(self.graph, decode_extract(path, lists), touch=False)
        put_edges(self.graph, self._store.file_edges(path))

    def _present(self, node_id: str) -> bool:
        if node_id in self.graph:
            return True
        path = file_of(node_id)
        scope = self._scopes.get(path)
        return scope is not None and (node_id == path or node_id in scope.symbols)

    def rows(self, path: str, extract: FileExtract | None = None) -> FileRows | None:
        self._hydrate(path)  # its nodes and edges as the store holds them, at the least
        return super().rows(path, extract)


@dataclass(frozen=True)
class StoredDeclarations:
    """A file's language and symbols as the store holds them (see `Declarations`)."""

    language: str
    symbols: dict[str, Declared]


class _Declared(Mapping[str, Declarations]):
    """What guesses by name read of each file: its scope when the relink has it (a
    changed file's is new), else its symbols as stored, read once."""

    def __init__(self, load: Callable[[str], StoredDeclarations | None]) -> None:
        self.scopes: Mapping[str, FileScope] = {}
        self._stored = LazyTable(load)

    def __getitem__(self, path: str) -> Declarations:
        if dict.__contains__(self.scopes, path):  # loaded or set, never loaded here
            return self.scopes[path]
        return self._stored[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.scopes)

    def __len__(self) -> int:
        return len(self.scopes)


def unsaved_changes(rows: Mapping[str, FileRows | None]) -> dict[str, FileExtract | None]:
    """The files a store relink moved and no save has written yet, as changes for a
    map loading from the store to link in memory: each one's whole extract (None: gone)."""
    return {
        path: None
        if held is None
        else held.extract
        if held.blob is None
        else decode_extract(path, unpack_lists(held.blob))
        for path, held in rows.items()
    }


@dataclass(frozen=True)
class StoreRelink:
    """What relinking an edit against the store moved."""

    stats: LinkStats
    rows: dict[str, FileRows | None]
    """The new rows of every file whose nodes, edges or resolutions moved."""
    symbols_added: int
    """Symbols the changed files have now, less those they had (may be negative)."""


def relink_in_store(store: MapStore, paths: Collection[str], found: Scan) -> StoreRelink | None:
    """Link the files `found` changed (`paths`: every file the store holds) against
    `store`; None when the edit moves the layout (see the module docstring). Raises
    StoreError when the store cannot be read."""
    changed, layout = found.extracts, found.layout
    linker = StoreLinker(store, paths, layout)
    before = 0
    for path, new in changed.items():
        old = linker.extracts.get(path) if path in paths else None
        if moves_layout(old, new):
            return None
        before += len(old.symbols) if old is not None else 0
    stats = linker.update(changed, layout, found.packed, None, found.references)
    rows = {path: linker.rows(path) for path in sorted(stats.moved)}
    return StoreRelink(stats, rows, sum(len(e.symbols) for e in changed.values()) - before)
