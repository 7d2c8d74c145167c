"""The graph's rows read in a helper process while a server starts (map.live.store_backed).

A restarted server loads its graph from the store's nodes and edges once it
serves. Turning those rows into Python objects (540k on mix) is about half
of that load, in the one interpreter that also starts the server. So a
server starts a helper process as it opens its map (`GraphFeed.start`): the
helper reads the rows on another core while the server starts, and hands
them over packed, the nodes as columns and the edges as numbers into them,
which the server unpacks in a tenth of the time. The server takes them
(`take`) only while the store's rows are still the version the helper read
(`MapStore.rows_version`); else, or when the helper failed, the graph loads
from the store as before.

The helper runs isolated (`python -I`) with this code's directory first on its
path: nothing in the repository's own directory (a server's usual working
directory) is imported in its place.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import weakref
from array import array
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path
from tempfile import TemporaryFile
from typing import IO, Any

import orjson

from map.graph.mapgraph import StoredEdge, StoredNode
from map.store.mapstore import MapStore, StoreError

log = logging.getLogger(__name__)

FEED_TIMEOUT_S = 60.0
"""How long a load waits for the helper before it reads the store itself."""
_ENDS = "I"
"""The array type of the edges' numbers: source, target and facts (kind and confidence)."""
_HEAD_SIZE = 8
"""Bytes of the packed head's length, which the packed edges follow."""

_HELPER = (
    "import sys; sys.path.insert(0, sys.argv[1]); from map.store.graph_feed import main; "
    "sys.exit(main(sys.argv[2:]))"
)
"""The helper's program: argv is this code's directory, the store's path and its root."""

GraphRows = tuple[Iterable[StoredNode], Iterable[StoredEdge]]


class GraphFeed:
    """A helper process reading a store's graph rows, whose rows are taken once.

    The helper writes them to an unnamed temporary file, not a pipe: a thread
    draining a pipe chunk by chunk would take the interpreter from the server's
    answers at every chunk, and the server reads the file in one call."""

    def __init__(self, process: subprocess.Popen[bytes], output: IO[bytes], errors: IO[bytes]):
        self._process = process
        self._output = output
        self._errors = errors
        self._stop = weakref.finalize(self, _stop, process, output, errors)
        """Run by `close`, else when the feed is dropped or the process exits."""

    @classmethod
    def start(cls, store: MapStore) -> GraphFeed | None:
        """A helper reading `store`'s graph rows now; None when it cannot start."""
        code = str(Path(__file__).resolve().parents[1])
        command = [sys.executable, "-I", "-c", _HELPER, code, str(store.path), store.root]
        files: list[IO[bytes]] = []
        try:
            while len(files) < 2:
                files.append(TemporaryFile())  # noqa: SIM115 (the feed's: see close)
            output, errors = files
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=output, stderr=errors
            )
        except OSError as exc:
            for file in files:
                file.close()
            log.info("reading the graph's rows ahead: cannot start a helper (%s)", exc)
            return None
        return cls(process, output, errors)

    def restarted(self, store: MapStore) -> GraphFeed | None:
        """This helper stopped and a new one reading `store` (whose rows were written
        since this one started: see `take`)."""
        self.close()
        return GraphFeed.start(store)

    def take(
        self, rows_version: str | None, pause: Callable[[], None] | None = None
    ) -> GraphRows | None:
        """The graph's nodes and edges as the helper read them, when the store's rows
        are still `rows_version`; else None. The helper is done with either way.
        `pause()` is called before they are unpacked (map.give_way: ~0.2 s on mix
        that no answer could interrupt)."""
        try:
            return self._rows(rows_version, pause)
        except _Declined as exc:
            log.info("reading the graph's rows ahead: the store is read instead (%s)", exc)
            return None
        finally:
            self.close()

    def _rows(self, rows_version: str | None, pause: Callable[[], None] | None) -> GraphRows:
        try:
            status = self._process.wait(FEED_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise _Declined(f"no rows within {FEED_TIMEOUT_S:.0f} s") from exc
        if status != 0:
            self._errors.seek(0)
            why = self._errors.read().decode(errors="replace").strip().splitlines()
            raise _Declined(f"exit {status}: {why[-1] if why else ''}")
        self._output.seek(0)
        packed = self._output.read()
        if pause is not None:
            pause()
        try:
            version, rows = unpack(packed)
        except (ValueError, TypeError, KeyError, IndexError, orjson.JSONDecodeError) as exc:
            raise _Declined(f"malformed rows ({exc!r})") from exc
        if version is None or version != rows_version:
            raise _Declined("the store's rows were written after it read them")
        return rows

    def close(self) -> None:
        """Stop the helper if it still runs, and drop what it wrote."""
        self._stop()


def _stop(process: subprocess.Popen[bytes], *files: IO[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
    for file in files:
        file.close()


def graph_rows(
    store: MapStore, feed: GraphFeed | None, pause: Callable[[], None] | None = None
) -> GraphRows:
    """The graph's nodes and edges: as `feed` read them when it still may (`pause()`
    called before they are unpacked), else from `store` row by row."""
    taken = feed.take(store.rows_version(), pause) if feed is not None else None
    return taken if taken is not None else (store.graph_nodes(), store.graph_edges())


class _Declined(Exception):
    """Why the rows read ahead are not taken."""


def pack(store: MapStore) -> bytes:
    """The store's rows version and graph rows, packed: the nodes as columns, each edge as
    three numbers (its ends' places among the nodes, its kind and confidence's place
    among `facts`), an edge with an end that is not a node as it is."""
    with store.reading():
        version = store.rows_version()
        nodes = list(store.graph_nodes())
        place = {row[0]: number for number, row in enumerate(nodes)}
        facts: dict[tuple[str, float], int] = {}
        ends = array(_ENDS)
        loose: list[StoredEdge] = []
        for edge in store.graph_edges():
            source, target = place.get(edge[0]), place.get(edge[1])
            if source is None or target is None:
                loose.append(edge)
            else:
                fact = facts.setdefault((edge[2], edge[3]), len(facts))
                ends.extend((source, target, fact))
    columns = list(zip(*nodes, strict=True))
    head = orjson.dumps({"version": version, "nodes": columns, "facts": [*facts], "loose": loose})
    return len(head).to_bytes(_HEAD_SIZE, "little") + head + ends.tobytes()


def unpack(packed: bytes) -> tuple[str | None, GraphRows]:
    """The rows version and the graph rows `pack` packed (checked whole: a malformed
    pack raises here, not while the rows are read)."""
    size = int.from_bytes(packed[:_HEAD_SIZE], "little")
    view = memoryview(packed)
    head = orjson.loads(view[_HEAD_SIZE : _HEAD_SIZE + size])
    ends = array(_ENDS)
    ends.frombytes(view[_HEAD_SIZE + size :])
    columns: list[list[Any]] = head["nodes"]
    facts = [(str(kind), float(confidence)) for kind, confidence in head["facts"]]
    ids: list[str] = columns[0] if columns else []
    sources, targets, kinds = ends[0::3], ends[1::3], ends[2::3]
    if len(ends) % 3 or any(len(column) != len(ids) for column in columns):
        raise ValueError("columns or edges of unequal lengths")
    if ends and (max(sources + targets) >= len(ids) or max(kinds) >= len(facts)):
        raise IndexError("an edge numbers a node or fact that is not there")
    edges: Iterator[StoredEdge] = (
        (ids[source], ids[target], *facts[fact])
        for source, target, fact in zip(sources, targets, kinds, strict=True)
    )
    loose = [(str(s), str(t), str(k), float(c)) for s, t, k, c in head["loose"]]
    return head["version"], (zip(*columns, strict=True), chain(edges, loose))


def main(arguments: list[str]) -> int:
    """The helper: write the packed rows of the store at `arguments` (its path and the
    root it was taken of) to standard output."""
    try:
        packed = pack(MapStore.open(Path(arguments[0]), arguments[1]))
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.buffer.write(packed)
    return 0
