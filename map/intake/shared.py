"""Extracts a team shares: asked for by content before anything is extracted.

With a team store (map.store.team_store, behind the `SharedRows` protocol: intake
writes nothing), a scan reads and hashes each file whose stamp moved (`probe`),
asks the store for the rows of those contents in one go, and extracts only what
the store lacks. A row is what extraction writes (map.extraction.snapshot's lists,
packed), keyed by the content hash of the exact bytes parsed and the language; the
store adds the recipe (map.extraction.recipe). Nothing in it depends on the path: a
file's node IDs are rebased on its own path when decoded (`accept`).

A row is taken only when it decodes whole and names the content hash and language
asked for; any other row is refused, and its file extracted locally. Which files
extracted here may be published: those whose content is committed (a blob of HEAD,
`committed_blobs`), or every one when the store is told so.
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from disk.stamps import FileStamp, content_hash
from map.extraction.extract import language_of
from map.extraction.snapshot import unpack_lists
from map.intake.walk import SKIP_TOO_LARGE, SKIP_UNREADABLE, content_skip_reason
from map.linking.packed import for_linking
from map.linking.references import References
from map.model import FileExtract

RowKey = tuple[str, str]
"""(content hash of the bytes parsed, language): what a shared row is asked for by."""
Publishing = Literal["committed", "all", "none"]
"""Which extracts made here go to the store: committed content's, all, or none."""

log = logging.getLogger(__name__)


class SharedRows(Protocol):
    """A store of extracts shared by a team (map.store.team_store implements it)."""

    @property
    def publishing(self) -> Publishing:
        """Which of the extracts made here the store takes."""
        ...

    def fetch(self, keys: Collection[RowKey]) -> Mapping[RowKey, bytes]:
        """The packed rows the store holds for `keys` (those it lacks are left out);
        a store that cannot be read answers with what it got, never raises."""
        ...


@dataclass(frozen=True, slots=True)
class Probe:
    """One file read and hashed before extraction. `stamp` None: gone; `skipped`: why
    it stays out of the map; else its `content_hash`, `language` and git blob id."""

    path: str
    stamp: FileStamp | None
    content_hash: str | None = None
    language: str | None = None
    blob_id: str | None = None
    skipped: str | None = None

    @property
    def key(self) -> RowKey | None:
        """What the store is asked for (None: nothing to ask)."""
        if self.content_hash is None or self.language is None:
            return None
        return self.content_hash, self.language


@dataclass
class SharedOutcome:
    """What the store gave one scan: files taken from its rows, rows refused, and the
    files extracted here that it may take (path -> key)."""

    fetched: int = 0
    refused: list[str] = field(default_factory=list)
    extracted: int = 0
    publishable: dict[str, RowKey] = field(default_factory=dict)


def probe(root: Path, path: str, max_bytes: int, sha256: bool = False) -> Probe:
    """Stat, read and hash one file (no extraction): what the store is asked for."""
    full = root / path
    stamp = FileStamp.of(full)
    if stamp is None:
        return Probe(path, None)
    if stamp.size > max_bytes:
        return Probe(path, stamp, skipped=SKIP_TOO_LARGE)
    try:
        data = full.read_bytes()
    except OSError:
        return Probe(path, stamp, skipped=SKIP_UNREADABLE)
    reason = content_skip_reason(data, path=path)
    if reason is not None:
        return Probe(path, stamp, skipped=reason)
    blob = hashlib.sha256() if sha256 else hashlib.sha1()
    blob.update(b"blob %d\0" % len(data))
    blob.update(data)
    return Probe(path, stamp, content_hash(data), language_of(path, data), blob.hexdigest())


def accept(path: str, key: RowKey, row: bytes) -> tuple[FileExtract, References] | None:
    """The extract of `path` from a shared row asked for by `key`, as the linker takes it
    in (map.linking.packed.for_linking), or None when the row is refused: it does not
    decode, or names another content hash or language."""
    try:
        lists = unpack_lists(row)
        if lists[1] != key[0] or lists[0] != key[1]:
            log.warning("refused a shared row for %s: it names another content", path)
            return None
        return for_linking(path, lists)
    except (zlib.error, ValueError, TypeError, KeyError, IndexError) as exc:
        log.warning("refused a shared row for %s: it does not decode (%s)", path, exc)
        return None


def git_object_format(root: Path) -> str | None:
    """The object format of the git repository around `root` ("sha1", "sha256"), or
    None outside git."""
    found = git_output(root, "rev-parse", "--show-object-format")
    return None if found is None else found.decode().strip() or "sha1"


def committed_blobs(root: Path) -> frozenset[str]:
    """The blob ids of every file committed at HEAD in the repository around `root`
    (empty outside git or before the first commit)."""
    found = git_output(root, "ls-tree", "-r", "-z", "--full-tree", "HEAD")
    if found is None:
        return frozenset()
    blobs = (entry.split(b"\t", 1)[0].split(b" ") for entry in found.split(b"\0") if entry)
    return frozenset(fields[2].decode() for fields in blobs if fields[1] == b"blob")


def publishable(
    probes: Sequence[Probe], made: Mapping[str, str], publishing: Publishing, root: Path
) -> dict[str, RowKey]:
    """Of the files extracted here (`made`: path -> the content hash extracted), those the
    store may take, with their keys: the file must not have moved since its probe, and
    its content must be committed unless `publishing` is "all"."""
    if publishing == "none" or not made:
        return {}
    committed = None if publishing == "all" else committed_blobs(root)
    chosen: dict[str, RowKey] = {}
    for found in probes:
        key = found.key
        if key is None or made.get(found.path) != key[0]:
            continue
        if committed is None or found.blob_id in committed:
            chosen[found.path] = key
    return chosen


def git_output(root: Path, *command: str) -> bytes | None:
    """What `git COMMAND` prints in `root`, or None when it fails (or there is no git)."""
    try:
        done = subprocess.run(["git", *command], cwd=root, capture_output=True, check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None
