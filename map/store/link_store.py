"""The linker and the map store: a link restored as the store kept it, and each
file's link row as the store keeps it (map.linking.link_rows), so that a new process never
resolves the whole repository again."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from map.gcpause import paused_gc
from map.graph.mapgraph import StoredEdge, StoredNode, add_stored_nodes, node_rows, put_edges
from map.linking.bindings import bind_imports, fill_visible
from map.linking.layout import Layout
from map.linking.link_input import FileLinks, Restored
from map.linking.link_rows import decode_links, encode_links
from map.linking.linker import Linker
from map.linking.resolution import Resolution
from map.linking.unresolved import open_names
from map.model import FileExtract
from map.progress import Progress, counted
from map.store.mapstore import FileRows


class StoredLinker(Linker):
    """A linker that takes a link from the map store, and gives its rows back."""

    def restore_graph(
        self,
        nodes: Iterable[StoredNode],
        edges: Iterable[StoredEdge],
        pause: Callable[[], None] | None = None,
    ) -> None:
        """Take a map's graph as a store kept it (every node with its parent, every
        edge: map.graph.mapgraph), into an empty linker: enough for ranking, paths and
        walks; `restore_link` takes the rest. `pause()` is called between steps
        (map.give_way)."""
        with paused_gc():
            add_stored_nodes(self.graph, nodes, pause)
            put_edges(self.graph, edges, pause)

    def restore_link(
        self,
        files: Iterable[Restored],
        layout: Layout,
        progress: Progress | None = None,
        total: int = 0,
        pause: Callable[[], None] | None = None,
    ) -> None:
        """Take a link as a store kept it, into a linker whose graph `restore_graph`
        filled: every file's extract and resolutions; no reference is resolved again,
        the graph is not touched. Raises ValueError, KeyError, TypeError or
        IndexError when a file's link row is malformed. `progress(done, total)` hears
        the files taken (`total` of them); `pause()` is called between steps."""
        with paused_gc():
            shared: dict[Resolution, Resolution] = {}
            for path, extract, packed, references, blob in counted(progress, files, total):
                if pause is not None:
                    pause()
                self._learn(extract, packed, references)
                results, deps = decode_links(blob, shared)
                if len(results) != len(references):
                    counts = f"{len(results)} resolutions, {len(references)} references"
                    raise ValueError(f"{path}: {counts}")
                links = FileLinks(
                    results, deps, open_names(self._scopes[path], references, results)
                )
                self._links[path] = links
                for name in deps.names():
                    self._dependents[name].add(path)
            self._layout = layout
            self._index.set_layout(layout)
            paths = list(self._scopes)
            for path in paths:
                bind_imports(self._scopes[path], self._index)
            fill_visible(self._scopes, self._index, paths)
            self._count_linked(0, drop=True)

    def rows(self, path: str, extract: FileExtract | None = None) -> FileRows | None:
        """A linked file's rows as the store should now hold them: its extract (`extract`:
        as already decoded, else unpacked), nodes, outgoing edges, what linking decided
        for it (map.linking.link_rows) and the names its references consulted; None when the
        file is not linked."""
        if extract is None:
            extract = self.extracts.get(path)
        if extract is None:
            return None
        links = self._links[path]
        return FileRows(
            extract,
            node_rows(self.graph, extract),
            self.use_edges(path),
            encode_links(links.results, links.deps),
            links.deps.names(),
            links.open_names,
            self.packed(path),
        )
