"""The map on disk: one orjson file, versioned, written atomically.

What is saved is what extraction learned (per file: its stat stamp and its
extract, compact lists rather than objects) plus the skipped files; the
graph is rebuilt from it. A snapshot that is not valid JSON, has another
`schema`, or was taken of another root raises SnapshotError: the caller
rebuilds and never trusts it. Writing goes to a temporary file in the same
directory, then `os.replace`: a crash mid-save leaves the old snapshot whole.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import orjson

from disk.stamps import FileStamp
from map.errors import SnapshotError
from map.model import FileExtract, Fingerprint, Import, Range, Reference, Symbol

SCHEMA_VERSION = 1
SNAPSHOT_NAME = "map.json"
_REF_KINDS: tuple[Literal["calls", "references", "inherits"], ...] = (
    "calls",
    "references",
    "inherits",
)


@dataclass
class SnapshotState:
    """Everything a CodeMap persists."""

    root: str
    built_at: datetime
    duration_s: float
    files: dict[str, tuple[FileStamp, FileExtract]] = field(default_factory=dict)
    skipped: dict[str, tuple[FileStamp, str]] = field(default_factory=dict)


def save(path: Path, state: SnapshotState) -> None:
    """Write `state` to `path` atomically (temp file + rename)."""
    document = {
        "schema": SCHEMA_VERSION,
        "root": state.root,
        "built_at": state.built_at.isoformat(),
        "duration_s": state.duration_s,
        "files": {p: [_stamp(s), _extract(e)] for p, (s, e) in state.files.items()},
        "skipped": {p: [_stamp(s), reason] for p, (s, reason) in state.skipped.items()},
    }
    data = orjson.dumps(document)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def load(path: Path, root: str) -> SnapshotState:
    """Read a snapshot of `root`; raises SnapshotError when it cannot be trusted."""
    try:
        document = orjson.loads(path.read_bytes())
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
        return SnapshotState(
            root=root,
            built_at=datetime.fromisoformat(document["built_at"]),
            duration_s=float(document["duration_s"]),
            files={
                p: (FileStamp(*s), _read_extract(p, e)) for p, (s, e) in document["files"].items()
            },
            skipped={p: (FileStamp(*s), str(r)) for p, (s, r) in document["skipped"].items()},
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"{path}: malformed snapshot ({exc!r})") from exc


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
    ]


def _read_extract(path: str, raw: list[Any]) -> FileExtract:
    language, digest, symbols, imports, references = raw
    prefix = path + "#"
    built: list[Symbol] = []
    for tail, name, kind, rng, sel, exact, normalized, qual, container in symbols:
        qualname = tail if qual is None else qual
        built.append(
            Symbol(
                node_id=prefix + tail,
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
                name=name,
                kind=_REF_KINDS[kind],
                range=Range(*rng),
                scope=prefix + scope if scope is not None else path,
                qualifier=qualifier,
            )
            for name, kind, rng, scope, qualifier in references
        ),
    )
