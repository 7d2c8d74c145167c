"""Keep the graph's edges equal to a from-scratch resolution, file change by file change.

`Linker.apply` takes the changed files (old and new extract) and:

1. replaces their nodes in the graph;
2. re-binds imports: only the changed files' when the repo's module layout
   did not move, every file's when it did (files added or removed, go.mod,
   a tsconfig.json or package.json or a C/C++ include edited: see
   map.linking.layout); a file whose bindings moved is resolved again whole;
3. re-resolves, in the other files, only the references that consulted a
   name the changed files define, bind or export (before or after the
   change): a one-line edit to a re-exporting module re-routes exactly the
   edges that went through it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from map.gcpause import paused_gc
from map.graph.mapgraph import (
    EdgeKey,
    MapGraph,
    replace_file,
    set_edge,
    set_imports,
    take_touched,
    use_keys,
)
from map.linking.bindings import bind_imports, fill_visible
from map.linking.edge_facts import KeptUses, Uses, edge_details, edge_uses
from map.linking.layout import Layout
from map.linking.link_changes import Facts, exported_names, moved_names, visible_facts
from map.linking.link_input import (
    Change,
    FileLinks,
    Incoming,
    LinkStats,
    declared_namespaces,
    incoming,
    moves_layout,
)
from map.linking.modules import ModuleIndex
from map.linking.packed import PackedExtracts
from map.linking.references import References
from map.linking.resolution import Resolution
from map.linking.resolve import Resolver
from map.linking.scopes import FileScope, new_scope
from map.linking.unresolved import OpenUses, is_open, open_names
from map.model import EDGE_OF, FileExtract
from map.progress import Progress, counted

FORGET_EVERY = 256
"""Files linked between two drops of the lookups' caches (files in path order share most)."""
USES_KEPT = 64
"""Files whose edge uses `edge_details` keeps between two applies (an answer about a
node's thousands of users asks many edges of the same files)."""


class Linker:
    """Owns the graph's edges and the indexes they are resolved with."""

    def __init__(self, graph: MapGraph) -> None:
        self.graph = graph
        self._extracts = PackedExtracts()
        self._references: dict[str, References] = {}
        self._index = ModuleIndex()
        self._scopes: dict[str, FileScope] = {}
        self._defs: dict[str, set[str]] = defaultdict(set)
        self._links: dict[str, FileLinks] = {}
        self._dependents: dict[str, set[str]] = defaultdict(set)
        self._layout = Layout()
        self._uses = KeptUses(USES_KEPT)
        """The edge uses of the files `edge_details` asked last (emptied by every apply)."""
        self._shared: dict[Resolution, Resolution] = {}
        """One object per distinct resolution within an `apply`: references that
        resolve alike (calls of one function) share it."""
        self._linked = 0
        """Files linked (whole or in part) since the scopes' caches were last dropped."""
        self._wire()
        self._relinked: set[str] = set()
        """Files whose references were resolved again (whole or in part) since `update`
        last took them: their link rows moved even where their edges did not."""

    def _wire(self) -> None:
        """Make what reads the tables (resolution, the open uses) over them as they are."""
        self._resolver = Resolver(self._scopes, self._defs)
        self._resolver.set_namespaces(self._index.php_namespace)
        self.open_uses = OpenUses(self._scopes, self._references, self._links)
        """The uses linking left open (map.linking.unresolved), as they are now."""

    @property
    def extracts(self) -> Mapping[str, FileExtract]:
        """The extract of every linked file (unpacked when read: see map.linking.packed)."""
        return self._extracts

    def packed(self, path: str) -> bytes:
        """A linked file's extract as the map store holds it (map.linking.packed); raises
        KeyError when the file is not linked."""
        return self._extracts.packed(path)

    @property
    def scopes(self) -> Mapping[str, FileScope]:
        """The scope of every linked file: its language and symbols, without unpacking."""
        return self._scopes

    def update(
        self,
        files: Mapping[str, FileExtract | None],
        layout: Layout,
        packed: Mapping[str, bytes] = MappingProxyType({}),
        progress: Progress | None = None,
        references: Mapping[str, References] = MappingProxyType({}),
    ) -> LinkStats:
        """`apply` the new extracts of `files` (None: removed; ignored when never linked)
        over what is linked now; the stats say which files moved. `packed`: some of
        the new extracts already packed (map.linking.packed), e.g. as pool workers sent them;
        `references`: the references of some of those as columns, whose extract then
        need hold only those that name a base class (map.linking.packed.for_linking)."""
        linked = self._extracts
        changes = {p: (linked.get(p), e) for p, e in files.items() if e is not None or p in linked}
        stats = self.apply_each(
            (incoming(p, c, packed, references) for p, c in changes.items()), layout, progress
        )
        moved = changes.keys() | take_touched(self.graph) | self._relinked
        self._relinked = set()
        return LinkStats(stats.files_relinked, frozenset(moved))

    def apply(self, changes: Mapping[str, Change], layout: Layout) -> LinkStats:
        """Bring the graph up to date with `changes` (path -> (old, new); None = absent)."""
        return self.apply_each(changes.items(), layout)

    def apply_each(
        self,
        changes: Iterable[Incoming],
        layout: Layout,
        progress: Progress | None = None,
    ) -> LinkStats:
        """`apply`, taking each change as it comes: a whole map loaded from its store
        is never decoded in memory at once. A change may carry the new extract
        already packed (map.linking.packed). `progress(done, total)` counts the files whose
        references are resolved again (whole or in part)."""
        with paused_gc():
            return self._apply(changes, layout, progress)

    def _apply(
        self,
        changes: Iterable[Incoming],
        layout: Layout,
        progress: Progress | None,
    ) -> LinkStats:
        self._uses.clear()
        layout_moved = layout != self._layout
        before: dict[str, Facts] = {}
        presence: dict[str, tuple[bool, bool]] = {}
        """path -> (was linked, is linked)."""
        for path, (old, new), *given in changes:
            layout_moved = layout_moved or moves_layout(old, new)
            if old is not None:
                before[path] = visible_facts(self._scopes[path])
                self._forget(old, keep_file=new is not None)
            replace_file(self.graph, old, new, path)
            if new is not None:
                self._learn(new, *given)
            presence[path] = (old is not None, new is not None)
        self._layout = layout
        self._index.set_layout(layout)
        changed = [p for p, (_, new) in presence.items() if new]
        self._rebind(changed)
        moved: set[str] = set()
        affected: set[str] = set()
        if layout_moved:
            moved, affected = self._rebind([p for p in self._scopes if p not in presence])
            fill_visible(self._scopes, self._index, changed)
        if self._dependents:  # else no reference consulted any name yet (a first link)
            affected |= moved_names(self._scopes, presence, before)
        whole = set(changed) | moved
        self._resolver.forget()
        partial: defaultdict[str, set[str]] = defaultdict(set)
        for name in affected:
            for path in self._dependents.get(name, ()):
                if path not in whole and path in self._scopes:
                    partial[path].add(name)
        self._relinked |= whole | partial.keys()
        work: list[tuple[str, set[str] | None]] = [(p, None) for p in sorted(whole)]
        for path, names in counted(progress, [*work, *sorted(partial.items())]):
            if names is None:
                self._relink_whole(path)
                self._count_linked(1)
            else:
                self._relink_names(path, names)
        self._resolver.forget()
        self._shared.clear()
        self._count_linked(len(partial), drop=len(whole) + len(partial) >= FORGET_EVERY)
        return LinkStats(len(whole))

    def _count_linked(self, files: int, *, drop: bool = False) -> None:
        """Drop what resolution remembered (lookups, shared resolutions, the scopes'
        caches) once FORGET_EVERY files were linked since it was last dropped: kept
        through a whole repository's link, it held ~100 MB of mix at its end, freed
        too late for the rest of the map to reuse. The scopes' caches hold only what
        their own file implies (never stale), so an edit that links a few files does
        not pay for walking every scope. `drop`: now (the end of a large link)."""
        self._linked += files
        if self._linked < FORGET_EVERY and not drop:
            return
        self._linked = 0
        self._resolver.forget()
        self._shared.clear()
        for scope in self._scopes.values():
            scope.forget_cache()

    def _forget(self, extract: FileExtract, *, keep_file: bool) -> None:
        path = extract.path
        if not keep_file:
            self._index.remove(path)
        for symbol in extract.symbols:
            holders = self._defs.get(symbol.name)
            if holders is not None:
                holders.discard(symbol.node_id)
                if not holders:
                    del self._defs[symbol.name]
        self._scopes.pop(path, None)
        self._extracts.pop(path)
        self._references.pop(path, None)
        if not keep_file:
            self._drop_links(path)

    def _drop_links(self, path: str) -> FileLinks | None:
        """Forget what a file's references resolved to; the old record, if any."""
        links = self._links.pop(path, None)
        for name in links.deps.names() if links is not None else ():
            holders = self._dependents.get(name)
            if holders is not None:
                holders.discard(path)
        return links

    def _learn(
        self,
        extract: FileExtract,
        packed: bytes | None = None,
        references: References | None = None,
    ) -> None:
        path = extract.path
        if self._index.language(path) is None:
            self._index.add(path, extract.language)
        self._index.declare(path, declared_namespaces(extract.imports))
        self._extracts.put(extract, packed)
        if references is None:
            references = References(extract.references)
        self._references[path] = references
        self._scopes[path] = new_scope(extract)
        for symbol in extract.symbols:
            self._defs[symbol.name].add(symbol.node_id)

    def _rebind(self, paths: list[str]) -> tuple[set[str], set[str]]:
        """Bind the imports of `paths`: the files whose bindings moved, and the
        names those bindings (or star imports) moved for."""
        before = {
            p: (self._scopes[p].signature, self._scopes[p].bindings, self._scopes[p].stars)
            for p in paths
        }
        for path in paths:
            bind_imports(self._scopes[path], self._index)
        fill_visible(self._scopes, self._index, paths)
        moved: set[str] = set()
        names: set[str] = set()
        stars: set[str] = set()
        for path in paths:
            scope = self._scopes[path]
            signature, bindings, old_stars = before[path]
            if scope.signature == signature:
                continue
            moved.add(path)
            names |= {
                n
                for n in bindings.keys() | scope.bindings.keys()
                if bindings.get(n) != scope.bindings.get(n)
            }
            if old_stars != scope.stars:
                stars |= {*old_stars, *scope.stars}
        return moved, names | exported_names(self._scopes, stars)

    def _relink_whole(self, path: str) -> None:
        self._drop_links(path)
        ids = [path, *self._scopes[path].symbols]
        dirty = {key for key in use_keys(self.graph, ids) if key[2] != "imports"}
        count = len(self._references[path])
        links = self._links[path] = FileLinks([None] * count)
        consulted: defaultdict[str, list[int]] = defaultdict(list)
        for index in range(count):
            dirty |= self._resolve_one(path, links, index, consulted)
        links.open_names = open_names(self._scopes[path], self._references[path], links.results)
        self._depend(path, links, consulted)
        set_imports(self.graph, path, self._scopes[path].imported_files)
        self._write(path, links, dirty)

    def _relink_names(self, path: str, names: set[str]) -> None:
        links = self._links[path]
        indexes = sorted(links.deps.indexes(names))
        dirty: set[EdgeKey] = set()
        references = self._references[path]
        consulted: defaultdict[str, list[int]] = defaultdict(list)
        reopened = False
        for index in indexes:
            old, links.results[index] = links.results[index], None
            if old is not None:
                dirty.update(references.key(index, target) for target in old.reached)
            dirty |= self._resolve_one(path, links, index, consulted)
            reopened = reopened or is_open(old) != is_open(links.results[index])
        if reopened:
            links.open_names = open_names(self._scopes[path], references, links.results)
        self._depend(path, links, consulted)
        self._write(path, links, dirty)

    def _resolve_one(
        self, path: str, links: FileLinks, index: int, consulted_by: defaultdict[str, list[int]]
    ) -> set[EdgeKey]:
        """Resolve one reference; the names it consulted get `index` in `consulted_by`."""
        scope, _, _, kind = ref = self._references[path].lookup(index)
        resolution, consulted = self._resolver.answer(path, ref)
        for name in consulted:
            consulted_by[name].append(index)
        if resolution is None:
            return set()
        links.results[index] = resolution = self._shared.setdefault(resolution, resolution)
        edge = EDGE_OF[kind]
        return {(scope, target, edge) for target in resolution.reached}

    def _depend(self, path: str, links: FileLinks, consulted: Mapping[str, list[int]]) -> None:
        """Record which references of `path` consulted which names (see `_resolve_one`)."""
        links.deps.add(consulted)
        for name in consulted:
            self._dependents[name].add(path)

    def _edge_uses(self, path: str) -> Uses:
        links = self._links.get(path)
        return edge_uses(self._references[path], links.results if links is not None else ())

    def _write(self, path: str, links: FileLinks, dirty: set[EdgeKey]) -> None:
        uses = self._edge_uses(path) if dirty else {}
        for key in dirty:
            indexes = uses.get(key)
            if not indexes:
                set_edge(self.graph, key, None)
            elif self._present(key[0]) and self._present(key[1]):
                found = (links.results[i] for i in indexes)
                set_edge(self.graph, key, max(r.confidence for r in found if r is not None))

    def _present(self, node_id: str) -> bool:
        """Whether the map has this node (an edge is set only between present nodes)."""
        return node_id in self.graph

    def use_edges(self, path: str) -> list[tuple[str, str, str, dict[str, Any]]]:
        """(source, target, kind, details) of the uses and imports from a file's nodes."""
        uses = self._edge_uses(path)
        ids = [path, *self._scopes[path].symbols]
        return [
            (u, v, k, details)
            for u, v, k in use_keys(self.graph, ids)
            if (details := self._details(u, v, k, uses)) is not None
        ]

    def edge_details(self, source: str, target: str, kind: str) -> dict[str, Any] | None:
        """An edge's details (see map.linking.edge_facts; None: the graph has no such edge)."""
        path = source.partition("#")[0]
        uses = (
            {}
            if kind in ("imports", "contains")
            else self._uses.get(path, lambda: self._edge_uses(path))
        )
        return self._details(source, target, kind, uses)

    def _details(
        self, source: str, target: str, kind: str, uses: Mapping[EdgeKey, list[int]]
    ) -> dict[str, Any] | None:
        path = source.partition("#")[0]
        links = self._links.get(path)
        results = links.results if links is not None else ()
        references = self._references[path]
        edge = (source, target, kind)
        return edge_details(self.graph, self._scopes[path], references, results, edge, uses)
