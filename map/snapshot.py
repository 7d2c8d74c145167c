"""The map on disk: one orjson file, versioned, written atomically.

The file holds two lines. The first, small, is the header: schema, root,
when the graph last matched the disk, and every file's stat stamp and
content hash (plus the skipped files and summary counts), enough to decide
that nothing changed without reading the rest. The second is the payload:
every file's extract, as compact lists. Both carry the same random `token`,
so a payload read later is known to belong to the header read before.

A snapshot that is not valid JSON, has another `schema`, was taken of another
root, or whose payload does not match its header raises SnapshotError: the
caller rebuilds and never trusts it. Writing goes to a temporary file in the
same directory, then `os.replace`: a crash mid-save leaves the old snapshot.
The temporary file's name carries the writer's process ID; a save removes
the ones a killed writer left (its process is gone, or the file is old).

Under the root the snapshot never passes through a symlink (`snapshot_file`):
a repository's `.codeanchor -> /elsewhere` must not carry our writes out.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from sys import intern
from typing import Any, Literal

import orjson

from disk.paths import resolve_in_root
from disk.stamps import FileStamp
from disk.statedir import STATE_DIR, state_file
from map.errors import SnapshotError
from map.gcpause import paused_gc
from map.model import (
    Assignment,
    FileExtract,
    Fingerprint,
    Import,
    Range,
    Reference,
    Symbol,
)

SCHEMA_VERSION = 6
SNAPSHOT_NAME = "map.json"
STALE_TEMP_S = 3600.0
"""A temporary snapshot this old is a leftover whatever its process."""
_TEMP = re.compile(r"\.(?P<name>.+?)\.(?:(?P<pid>\d+)\.)?[a-z0-9_]+\.tmp")
_REF_KINDS: tuple[Literal["calls", "references", "inherits"], ...] = (
    "calls",
    "references",
    "inherits",
)


@dataclass
class Header:
    """The first line of a snapshot: enough to tell whether anything changed."""

    root: str
    built_at: datetime
    duration_s: float
    stamps: dict[str, tuple[FileStamp, str]] = field(default_factory=dict)
    """path -> (stat stamp, content hash) of every file in the map."""
    skipped: dict[str, tuple[FileStamp, str]] = field(default_factory=dict)
    """path -> (stat stamp, reason) of every file left out."""
    go_modules: dict[str, str] = field(default_factory=dict)
    counts: dict[str, Any] = field(default_factory=dict)
    """Summary numbers of the saved graph (symbols, edges, languages)."""
    token: str = ""


def snapshot_file(root: Path, snapshot_dir: str, *, create: bool = False) -> Path:
    """The snapshot's path for `root` with `snapshot_dir` (relative to the root, or
    absolute); `create` makes `.codeanchor` (ignored by git) when that is the folder.

    Raises OutsideRootError when a symlink would take a path under the root elsewhere:
    `.codeanchor` or the snapshot as a link, or a link on a relative `snapshot_dir`.
    """
    directory = Path(snapshot_dir)
    if directory.is_absolute():
        return directory / SNAPSHOT_NAME
    if directory == Path(STATE_DIR):
        return state_file(root, SNAPSHOT_NAME, create_dir=create)
    return resolve_in_root(root, directory, must_exist=False) / SNAPSHOT_NAME


def save(path: Path, header: Header, payload: dict[str, FileExtract] | bytes) -> None:
    """Write a snapshot atomically; `payload` is the extracts, or a raw payload line
    read with `read_raw_payload` (saved again unchanged, without decoding it)."""
    token = secrets.token_hex(8)
    head = {
        "schema": SCHEMA_VERSION,
        "token": token,
        "root": header.root,
        "built_at": header.built_at.isoformat(),
        "duration_s": header.duration_s,
        "stamps": {p: [*_stamp(s), h] for p, (s, h) in header.stamps.items()},
        "skipped": {p: [*_stamp(s), reason] for p, (s, reason) in header.skipped.items()},
        "go_modules": header.go_modules,
        "counts": header.counts,
    }
    if isinstance(payload, bytes):
        files = payload
    else:
        with paused_gc():
            files = orjson.dumps({p: _extract(e) for p, e in payload.items()})
    data = b"".join((orjson.dumps(head), b"\n", orjson.dumps(token), b"\n", files, b"\n"))
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(path)
    fd, temp = tempfile.mkstemp(
        prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent
    )
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    header.token = token


def remove_leftovers(path: Path) -> list[str]:
    """Remove the temporary files of saves of `path` that were killed: their process is
    gone, or they are older than STALE_TEMP_S. Best effort; returns their names."""
    removed: list[str] = []
    now = time.time()
    try:
        entries = list(os.scandir(path.parent))
    except OSError:  # no folder yet, or not ours to list
        return removed
    for entry in entries:
        found = _TEMP.fullmatch(entry.name)
        if found is None or found["name"] != path.name:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_S
            if old or (found["pid"] is not None and not _running(int(found["pid"]))):
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:  # its writer finished, another process removed it, or not ours
            continue
    return removed


def _running(pid: int) -> bool:
    """Whether process `pid` exists (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def load_header(path: Path, root: str) -> Header:
    """Read a snapshot's header; raises SnapshotError when it cannot be trusted."""
    try:
        with path.open("rb") as stream:
            document = orjson.loads(stream.readline())
    except FileNotFoundError as exc:
        raise SnapshotError(f"{path}: no snapshot yet") from exc
    except (OSError, orjson.JSONDecodeError) as exc:
        raise SnapshotError(f"{path}: unreadable or corrupt snapshot ({exc})") from exc
    if not isinstance(document, dict) or document.get("schema") != SCHEMA_VERSION:
        found = document.get("schema") if isinstance(document, dict) else None
        raise SnapshotError(f"{path}: schema {found!r}, this version reads {SCHEMA_VERSION}")
    if document.get("root") != root:
        raise SnapshotError(f"{path}: taken of {document.get('root')!r}, not of {root!r}")
    try:
        return Header(
            root=root,
            built_at=datetime.fromisoformat(document["built_at"]),
            duration_s=float(document["duration_s"]),
            stamps={p: (FileStamp(*v[:4]), str(v[4])) for p, v in document["stamps"].items()},
            skipped={p: (FileStamp(*v[:4]), str(v[4])) for p, v in document["skipped"].items()},
            go_modules={str(k): str(v) for k, v in document["go_modules"].items()},
            counts=dict(document["counts"]),
            token=str(document["token"]),
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SnapshotError(f"{path}: malformed snapshot header ({exc!r})") from exc


def read_raw_payload(path: Path, token: str) -> bytes:
    """The payload line of the snapshot whose header carried `token`."""
    try:
        with path.open("rb") as stream:
            stream.readline()
            found = stream.readline()
            payload = stream.readline()
    except OSError as exc:
        raise SnapshotError(f"{path}: unreadable snapshot ({exc})") from exc
    try:
        same = orjson.loads(found) == token
    except orjson.JSONDecodeError:
        same = False
    if not same or not payload.endswith(b"\n"):
        raise SnapshotError(f"{path}: the payload does not belong to the header read before")
    return payload[:-1]


def load_payload(path: Path, header: Header) -> dict[str, FileExtract]:
    """Every file's extract, checked against the header's file list."""
    raw = read_raw_payload(path, header.token)
    try:
        with paused_gc():
            document = orjson.loads(raw)
            extracts = {p: _read_extract(p, e) for p, e in document.items()}
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"{path}: malformed snapshot payload ({exc!r})") from exc
    mismatched = [
        p
        for p, (_, digest) in header.stamps.items()
        if extracts.get(p) is None or extracts[p].content_hash != digest
    ]
    if mismatched or len(extracts) != len(header.stamps):
        raise SnapshotError(f"{path}: payload and header disagree (e.g. {mismatched[:1]})")
    return extracts


def _stamp(stamp: FileStamp) -> list[int]:
    return [stamp.size, stamp.mtime_ns, stamp.ctime_ns, stamp.inode]


def _range(r: Range) -> list[int]:
    return [r.start_line, r.start_char, r.end_line, r.end_char]


def _extract(e: FileExtract) -> list[Any]:
    cut = len(e.path) + 1
    return [
        e.language,
        e.content_hash,
        [
            [
                s.node_id[cut:],
                s.name,
                s.kind,
                _range(s.range),
                _range(s.selection),
                s.fingerprint.exact,
                s.fingerprint.normalized,
                None if s.qualname == s.node_id[cut:] else s.qualname,
                None if s.container == tuple(s.qualname.split("."))[:-1] else s.container,
            ]
            for s in e.symbols
        ],
        [[i.module, i.names, _range(i.range)] for i in e.imports],
        [
            [
                r.name,
                _REF_KINDS.index(r.kind),
                _range(r.range),
                r.scope[cut:] if r.scope != e.path else None,
                r.qualifier,
            ]
            for r in e.references
        ],
        [
            [a.name, a.scope[cut:] if a.scope != e.path else None, a.value, a.called]
            for a in e.assignments
        ],
    ]


def _read_extract(path: str, raw: list[Any]) -> FileExtract:
    language, digest, symbols, imports, references, assignments = raw
    prefix = path + "#"
    ids: dict[str | None, str] = {None: path}  # one string per scope, shared by its references
    built: list[Symbol] = []
    for tail, name, kind, rng, sel, exact, normalized, qual, container in symbols:
        qualname = tail if qual is None else qual
        ids[tail] = prefix + tail
        built.append(
            Symbol(
                node_id=ids[tail],
                name=name,
                qualname=qualname,
                kind=kind,
                range=Range(*rng),
                selection=Range(*sel),
                container=tuple(qualname.split("."))[:-1]
                if container is None
                else tuple(container),
                fingerprint=Fingerprint(exact, normalized),
            )
        )
    return FileExtract(
        path=path,
        language=language,
        content_hash=digest,
        symbols=tuple(built),
        imports=tuple(
            Import(module, tuple((a, b) for a, b in names), Range(*rng))
            for module, names, rng in imports
        ),
        references=tuple(
            Reference(
                name=intern(name),
                kind=_REF_KINDS[kind],
                range=Range(*rng),
                scope=ids[scope] if scope in ids else prefix + scope,
                qualifier=intern(qualifier) if qualifier is not None else None,
            )
            for name, kind, rng, scope, qualifier in references
        ),
        assignments=tuple(
            Assignment(name, ids[scope] if scope in ids else prefix + scope, value, called)
            for name, scope, value, called in assignments
        ),
    )
