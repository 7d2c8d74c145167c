"""The questions a map answers, from its store while the link is not loaded, else
from the graph and the linker; ranking, paths, impact and deep walks from the
graph, which loads before the link (see map.live.store_backed, which supplies both).

Files changed since the store was written that the graph has not linked yet
(`unlinked_files`) answer lookups, search and outline from their new
extracts; questions about their uses wait for the graph, and other answers
about uses may miss theirs until it has linked them.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from pathlib import PurePosixPath
from typing import Any, TypeVar

from disk.stamps import FileStamp
from map.errors import UnknownNodeError
from map.give_way import GiveWay
from map.graph import query
from map.graph.dispatch import GO_SUFFIX
from map.graph.mapgraph import MapGraph, node_details
from map.graph.names import FileNames, NameIndex, details_text, names_text
from map.model import EDGE_KINDS, EdgeDetails, EdgeKind, FileExtract, NodeDetails, Symbol
from map.store import warm
from map.store.mapstore import MapStore, StoreError

T = TypeVar("T")
SUGGESTIONS = 5
BROAD_SHARE = 0.25
"""A pattern that may match in more of the files than this is scored on the whole graph
(when loaded): building a candidate costs more than scoring a graph node."""
BULK_NAMES = 64
"""More files than this to (re)index read their search lines from the store at once."""


class MapReader(ABC):
    """Lookups and graph queries over a map that may not have loaded its graph yet."""

    _stamps: dict[str, tuple[FileStamp, str]]
    _version: int
    """Moves whenever the graph does (keys the cached ranks)."""
    _ranked: tuple[int, list[str]] | None
    """The symbols, most central first, as of a `_version`."""
    _store: MapStore | None
    _names: NameIndex
    """What search narrows its candidates with; follows `_stamps` (see `_names_now`)."""
    _give_way: GiveWay
    """A graph loading in a worker thread steps aside while answers run."""
    _pending: dict[str, FileExtract | None]
    """Files changed (None: removed) since the store was written, not linked yet."""

    @property
    @abstractmethod
    def graph(self) -> MapGraph:
        """The whole graph, loaded (or built) first when it is not yet."""

    @abstractmethod
    def _from_store(self, answer: Callable[[MapStore], T]) -> T | None:
        """`answer` from the store while the link is not loaded (the graph may be);
        None when the loaded map must answer."""

    @abstractmethod
    def _extracts(self) -> Mapping[str, FileExtract]:
        """Every file's extract, from the loaded graph."""

    @abstractmethod
    def _edge_details(self, source: str, target: str, kind: str) -> dict[str, Any] | None:
        """An edge's kind, confidence, lines and candidates, from the loaded graph."""

    def node(self, node_id: str) -> NodeDetails:
        """A node's details; raises UnknownNodeError with suggestions."""
        found = self.attrs(node_id)
        if found is None:
            raise UnknownNodeError(node_id, self._suggestions(node_id))
        return found

    def unlinked_files(self) -> frozenset[str]:
        """Files changed since the store was written that the graph has not linked yet
        (while it loads after a restart): answers about uses may miss theirs."""
        return frozenset(self._pending)

    def attrs(self, node_id: str) -> NodeDetails | None:
        """A node's details (see map.graph.mapgraph), or None when the map has no such node."""
        stored = self._from_rows(
            node_id.partition("#")[0],
            lambda store: (warm.attrs(store, node_id),),
            lambda extract: (node_details(extract, node_id) if extract is not None else None,),
        )
        if stored is not None:
            return stored[0]
        extract = self._extracts().get(node_id.partition("#")[0])
        return node_details(extract, node_id) if extract is not None else None

    def lines_of(self, node_id: str) -> tuple[int, int] | None:
        """A symbol's 1-based, inclusive lines (None: a file, or no such node)."""
        stored = self._from_rows(
            node_id.partition("#")[0],
            lambda store: ((store.node(node_id) or {}).get("lines"),),
            lambda _: (_lines(self.attrs(node_id)),),
        )
        if stored is not None:
            return stored[0]
        found = self.graph.nodes.get(node_id)
        return found.get("lines") if found is not None else None

    def edge_attrs(self, source: str, target: str, kind: str) -> EdgeDetails | None:
        """The details of the edge `source -> target` of `kind` (None: no such edge)."""
        if kind != "contains" and source.partition("#")[0] not in self._pending:
            stored = self._from_store(lambda store: (store.edge(source, target, kind),))
            if stored is not None:
                return _edge(stored[0])
        return _edge(self._edge_details(source, target, kind))

    def names_of(self, node_ids: Iterable[str]) -> dict[str, tuple[str, str]]:
        """The name and kind of each symbol among `node_ids` (files and unknown IDs
        left out), from the graph (loaded first): no extract is unpacked."""
        nodes = self.graph.nodes
        return {
            node_id: (data["name"], data["kind"])
            for node_id in node_ids
            if (data := nodes.get(node_id)) is not None and "name" in data
        }

    def edge_kinds(self, source: str, target: str) -> list[EdgeKind]:
        """The kinds of the edges `source -> target`, in `EDGE_KINDS` order ([]: none)."""
        graph = self.graph
        return [kind for kind in EDGE_KINDS if graph.has_edge(source, target, key=kind)]

    def uses_of(self, node_id: str, kind: EdgeKind) -> list[NodeDetails]:
        """The nodes `node_id` reaches over one edge of `kind` (its callees, for
        `calls`), by ID ([]: none, or no such node)."""
        graph = self.graph
        if node_id not in graph:
            return []
        targets = sorted({v for _, v, k in graph.out_edges(node_id, keys=True) if k == kind})
        found = (self.attrs(target) for target in targets)
        return [details for details in found if details is not None]

    def has_node(self, node_id: str) -> bool:
        """Whether the map holds a node with this ID."""
        stored = self._from_rows(
            node_id.partition("#")[0],
            lambda store: store.node(node_id) is not None,
            lambda _: self.attrs(node_id) is not None,
        )
        return stored if stored is not None else node_id in self.graph

    def node_ids(self, prefix: str = "") -> list[str]:
        """The IDs of the nodes that start with `prefix`, sorted."""
        pending = self._pending
        stored = self._from_store(lambda store: store.node_ids(prefix))
        if stored is not None and pending:
            kept = [n for n in stored if n.partition("#")[0] not in pending]
            new = (
                node_id
                for extract in pending.values()
                if extract is not None
                for node_id in (extract.path, *(s.node_id for s in extract.symbols))
            )
            return sorted([*kept, *(n for n in new if n.startswith(prefix))])
        if stored is not None:
            return stored
        return sorted(n for n in self.graph if n.startswith(prefix))

    def extract_of(self, path: str) -> FileExtract | None:
        """What extraction learned about a file, or None when it is not in the map."""
        stored = self._from_rows(path, lambda store: (store.extract(path),), lambda e: (e,))
        return stored[0] if stored is not None else self._extracts().get(path)

    def symbols_in(self, path: str) -> list[Symbol]:
        """The symbols of a file, in file order ([] when it is not in the map)."""
        extract = self.extract_of(path)
        return list(extract.symbols) if extract is not None else []

    def search(
        self, pattern: str, *, kinds: Iterable[str] | None = None, limit: int = 50
    ) -> list[query.Hit]:
        """Symbols (and files) by name, glob or regex; see `query.search`. Only the
        nodes the names index cannot rule out are scored (the same order and hits)."""
        if self._from_store(lambda store: True) is None:
            self._extracts()  # the graph is loaded: rebuilt first if the store just failed
            if self._names_now().share_holding(pattern) > BROAD_SHARE:
                return query.search(self.graph, pattern, kinds=kinds, limit=limit)
        with self._give_way.answering():
            index = self._names_now()
            return query.search_nodes(index.candidates(pattern), pattern, kinds=kinds, limit=limit)

    def prepare_search(self) -> None:
        """Index every file's names for search now (a server does it as it opens its
        map): the first search then only narrows and scores."""
        self._names_now()

    def outline(self, path: str) -> list[query.OutlineEntry]:
        """The symbols of a file, nested, in file order."""
        self._require(path)
        extract = self._from_rows(path, lambda store: (store.extract(path),), lambda e: (e,))
        if extract is not None and extract[0] is not None:
            return warm.outline(extract[0])
        return query.outline(self.graph, path)

    def neighbors(
        self,
        node_id: str,
        direction: str = "out",
        kinds: Iterable[EdgeKind] | None = None,
        depth: int = 1,
        *,
        guesses: bool = True,
    ) -> list[query.Neighbor]:
        """Nodes reached along edges of `kinds`, out (callees) or in (callers), to `depth`
        (along edges guessed by name too unless `guesses` is False)."""
        self._require(node_id)
        allowed = None if kinds is None else list(kinds)
        dispatched = direction == "in" and node_id.partition("#")[0].endswith(GO_SUFFIX)
        if (
            depth == 1
            and "contains" not in (allowed or ())
            and not dispatched  # a Go method's callers through interfaces need the graph
            and not self._unlinked(node_id)
        ):
            stored = self._from_store(
                lambda s: warm.neighbors(s, node_id, direction, allowed, guesses=guesses)
            )
            if stored is not None:
                return stored
        graph = self.graph  # loaded first: the load steps aside for answers only
        with self._give_way.answering():
            return query.neighbors(graph, node_id, direction, allowed, depth, guesses=guesses)

    def path(self, source: str, target: str, kinds: Iterable[EdgeKind] | None = None) -> list[str]:
        """The shortest chain of uses from `source` to `target` ([] when none)."""
        self._require(source)
        self._require(target)
        graph = self.graph
        with self._give_way.answering():
            return query.path(graph, source, target, kinds)

    def impact(
        self, node_id: str, depth: int | None = None, *, guesses: bool = True
    ) -> list[query.Neighbor]:
        """What depends on `node_id`, transitively (through guesses by name too unless
        `guesses` is False)."""
        self._require(node_id)
        graph = self.graph
        with self._give_way.answering():
            return query.impact(graph, node_id, depth, guesses=guesses)

    def overview(self, token_budget: int = 1024) -> query.Overview:
        """The repo map: most central symbols first, within `token_budget`."""
        graph = self.graph
        with self._give_way.answering():
            if self._ranked is None or self._ranked[0] != self._version:
                self._ranked = (self._version, query.ranked(graph, query.rank(graph)))
            return query.overview(graph, token_budget, self._ranked[1])

    def _from_rows(
        self,
        path: str,
        answer: Callable[[MapStore], T],
        unlinked: Callable[[FileExtract | None], T],
    ) -> T | None:
        """While the graph is not loaded: `answer` from the store, or `unlinked` from the
        new extract of `path` (None: removed) when it changed since the store was written.
        None when the graph must answer."""
        pending = self._pending  # taken first: the graph takes them before they go
        if path in pending:
            extract = pending[path]
            return self._from_store(lambda _: unlinked(extract))
        return self._from_store(answer)

    def _unlinked(self, node_id: str) -> bool:
        return node_id.partition("#")[0] in self._pending

    def _names_now(self) -> NameIndex:
        """The names index as of the current files: the files whose content hash moved
        since it last looked are indexed again (from the store when many, as at start)."""
        index, stamps = self._names, self._stamps
        if index.synced is stamps:
            return index
        wanted = {path: digest for path, (_, digest) in stamps.items()}
        for path in index.paths() - wanted.keys():
            index.drop(path)
        missing = {p: d for p, d in wanted.items() if index.digest(p) != d}
        if len(missing) > BULK_NAMES and self._store is not None:
            try:
                rows = self._store.names()
            except StoreError:
                rows = []
            for path, digest, text, details in rows:
                if missing.get(path) == digest:
                    index.put(FileNames.of(path, digest, text, details))
                    del missing[path]
        for path, digest in missing.items():
            extract = self.extract_of(path)
            if extract is not None:
                index.put(FileNames.of(path, digest, names_text(extract), details_text(extract)))
        index.synced = stamps
        return index

    def _require(self, node_id: str) -> None:
        if not self.has_node(node_id):
            raise UnknownNodeError(node_id, self._suggestions(node_id))

    def _suggestions(self, node_id: str) -> list[str]:
        path, _, qual = node_id.partition("#")
        if qual and path in self._stamps:
            pool = [s.node_id for s in self.symbols_in(path)]
        else:
            last = PurePosixPath(path).name
            pool = [p for p in self._stamps if PurePosixPath(p).name == last or not qual]
        return difflib.get_close_matches(node_id, sorted(set(pool)), n=SUGGESTIONS, cutoff=0.5)


def _lines(details: NodeDetails | None) -> tuple[int, int] | None:
    """A symbol's lines (None: a file, or no node)."""
    return details["lines"] if details is not None and details["kind"] != "file" else None


def _edge(data: Mapping[str, Any] | None) -> EdgeDetails | None:
    """An edge's details, typed, from the store's or the linker's mapping."""
    if data is None:
        return None
    return EdgeDetails(
        kind=data["kind"],
        lines=tuple(data["lines"]),
        confidence=data["confidence"],
        candidates=tuple(data["candidates"]),
    )
