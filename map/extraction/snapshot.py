"""A file's extract as compact lists: how the map store holds it (see map.store.mapstore).

`encode_extract` turns a FileExtract into nested lists (node IDs without
their path, ranges as four ints, defaults left out) that orjson writes as a
small blob, packed (zlib, its fastest level: `pack_lists`); `decode_extract`
turns them back, sharing one string per scope.
SCHEMA_VERSION moves whenever this encoding or what extraction produces does:
a store of another version is rebuilt.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from sys import intern
from typing import Any, get_args

import orjson

from map.model import (
    Assignment,
    FileExtract,
    Fingerprint,
    Import,
    Range,
    Reference,
    ReferenceKind,
    Symbol,
    SymbolKind,
)

SCHEMA_VERSION = 30
SYMBOL_KINDS: dict[str, SymbolKind] = {kind: kind for kind in get_args(SymbolKind)}
"""A stored kind -> the one string of that kind (orjson gives a new one per symbol)."""
REFERENCE_KINDS: tuple[ReferenceKind, ...] = ("calls", "references", "inherits", "values")
INHERITS = REFERENCE_KINDS.index("inherits")
"""The stored kind of a reference that names a base class."""

MACRO = "macro"
"""The form of a C function-like macro (map.model.Symbol.form)."""

PACK_LEVEL = 1
"""zlib's fastest level: a map's blobs pack in about a second, to a fifth of their size."""


def pack_lists(lists: list[Any]) -> bytes:
    """An extract's lists (`encode_extract`) as the map store and the loaded map hold them."""
    return zlib.compress(orjson.dumps(lists), PACK_LEVEL)


def unpack_lists(packed: bytes) -> list[Any]:
    """`pack_lists`'s input back; raises zlib.error or orjson.JSONDecodeError when
    `packed` is not such a blob."""
    lists: list[Any] = orjson.loads(zlib.decompress(packed))
    return lists


def _range(r: Range) -> list[int]:
    return [r.start_line, r.start_char, r.end_line, r.end_char]


def encode_extract(e: FileExtract) -> list[Any]:
    """The extract as compact lists (see the module docstring)."""
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
                s.declaration,
                s.form,
            ]
            for s in e.symbols
        ],
        [[i.module, i.names, _range(i.range)] for i in e.imports],
        [
            [
                r.name,
                REFERENCE_KINDS.index(r.kind),
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


def decode_extract(
    path: str,
    raw: list[Any],
    *,
    bases_only: bool = False,
    own: Mapping[str, str] | None = None,
) -> FileExtract:
    """The extract of `path` from `encode_extract`'s lists; raises ValueError, TypeError,
    KeyError or IndexError when they are malformed. `bases_only`: of the references,
    only those a file's scope reads (those that name a base class, the calls in a C
    macro's body), for the linker,
    which takes the rest from the lists as columns (map.linking.references): building a
    million reference objects was most of a graph load's decoding. `own`: node IDs
    as already held (a loaded graph's), for the symbols to share."""
    language, digest, symbols, imports, references, assignments = raw
    if bases_only:
        macros = {s[0] for s in symbols if s[10] == MACRO}
        references = [r for r in references if r[1] == INHERITS or r[3] in macros]
    prefix = path + "#"
    ids: dict[str | None, str] = {None: path}  # one string per scope, shared by its references
    lines: dict[int, int] = {}  # one int per line number, shared by every range on that line

    def span(r: list[int]) -> Range:
        start, start_char, end, end_char = r
        return Range(
            lines.setdefault(start, start), start_char, lines.setdefault(end, end), end_char
        )

    return FileExtract(
        path=path,
        language=language,
        content_hash=digest,
        symbols=_symbols(prefix, symbols, ids, span, own),
        imports=tuple(
            Import(intern(module), tuple((intern(a), intern(b)) for a, b in names), span(rng))
            for module, names, rng in imports
        ),
        references=tuple(
            Reference(
                name=intern(name),
                kind=REFERENCE_KINDS[kind],
                range=span(rng),
                scope=ids[scope] if scope in ids else prefix + scope,
                qualifier=intern(qualifier) if qualifier is not None else None,
            )
            for name, kind, rng, scope, qualifier in references
        ),
        assignments=tuple(
            Assignment(
                intern(name), ids[scope] if scope in ids else prefix + scope, intern(value), called
            )
            for name, scope, value, called in assignments
        ),
    )


def decode_symbols(path: str, raw: list[Any]) -> tuple[Symbol, ...]:
    """The symbols of `path` from the symbol lists of `encode_extract`."""
    return _symbols(path + "#", raw, {}, lambda r: Range(*r))


def _symbols(
    prefix: str,
    raw: list[Any],
    ids: dict[str | None, str],
    span: Callable[[list[int]], Range],
    own: Mapping[str, str] | None = None,
) -> tuple[Symbol, ...]:
    """Decode symbol lists; each one's node ID goes in `ids` by its tail (the string
    `own` holds, when it does)."""
    built: list[Symbol] = []
    for tail, name, kind, rng, sel, exact, normalized, qual, container, declaration, form in raw:
        qualname = tail if qual is None else qual
        node_id = prefix + tail
        ids[tail] = node_id if own is None else own.get(node_id, node_id)
        built.append(
            Symbol(
                node_id=ids[tail],
                name=intern(name),  # `__init__`, `get`: one string, not one per method
                qualname=intern(qualname),  # the name itself at top level
                kind=SYMBOL_KINDS[kind],
                range=span(rng),
                selection=span(sel),
                container=tuple(qualname.split("."))[:-1]
                if container is None
                else tuple(container),
                fingerprint=Fingerprint(exact, normalized),
                declaration=declaration,
                form=form,
            )
        )
    return tuple(built)
