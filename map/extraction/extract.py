"""Per-file extraction: symbols, imports and references from one tree-sitter pass.

`extract_file` parses a file once and runs its language's query once
(map.extraction.extract_matches says what the captures mean). Then one sweep in file
order qualifies the definitions and gives each reference its scope:

- a definition inside another is qualified by it; a function directly
  inside a class-like symbol or a container (Rust `impl`) is a method, and so
  is one whose written qualifier (C++ `Shape::area`) is not a namespace;
- when two patterns define the same name node, the wider one wins, and on a
  tie the pattern written first in the query file;
- a repeated qualified name gets `~2`, `~3` in file order, except that the
  implementation of an overloaded function (after its Python `@overload` or
  TypeScript signature stubs) takes the bare ID, and the stubs the numbers.

Extraction writes the compact lists the map store keeps (map.extraction.snapshot)
directly: a pool worker sends only those, so it never builds the extract's
objects (a third of a million frozen dataclasses on a large corpus) nor
encodes them again; `extract_file` decodes the lists into a FileExtract. Which uses are kept, and
how they are listed: map.extraction.extract_uses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from tree_sitter import Node, Parser, QueryCursor

from disk.stamps import content_hash
from disk.text import decode_source
from map.extraction.block_locals import split_blocks
from map.extraction.c_conditions import conditions_of
from map.extraction.c_forms import C_FAMILY, c_forms_of, macro_calls
from map.extraction.extract_imports import imports_of
from map.extraction.extract_matches import Collected, Ref, Scope, collect
from map.extraction.extract_uses import ASSIGN_RANK, Span, assignments_of, references_of
from map.extraction.fingerprint import TokenIndex
from map.extraction.languages import extraction_query, grammar, language_for
from map.extraction.positions import Positions
from map.extraction.script_locals import bind_callback_functions, drop_required
from map.extraction.snapshot import decode_extract, decode_symbols
from map.model import FileExtract, Symbol, SymbolKind

_BOM = b"\xef\xbb\xbf"
# A `.h` header holding any of these is C++, not C (a namespace opened, not a comment's
# "namespace processing as described", expat.h's).
_CPP_MARKERS = re.compile(
    rb"^[ \t]*(?:namespace[ \t]+[\w:]+[ \t]*(?:\{|$)|template[ \t]*<|class[ \t]+\w+[^;(]*\{"
    rb"|(?:public|private|protected)[ \t]*:)",
    re.MULTILINE,
)
_CLASS_LIKE: frozenset[str] = frozenset({"class", "interface", "struct", "enum"})
# Kinds that never qualify a definition inside them (C `typedef struct S {...} S;`
# defines S twice side by side, not S.S); references inside still belong to them.
_LEAVES: frozenset[str] = frozenset({"type"})
_TYPE_LITERAL_ALIAS = "type_alias_declaration"
"""A TypeScript type alias, whose object type's members are its own (`type S = {get():
T}`: S.get), unlike a C typedef's."""
# A prototype (`int add(int, int);`) and the definition in the same file are one symbol.
_PROTOTYPE_LANGUAGES: frozenset[str] = frozenset({"c", "cpp"})
_PROTOTYPE = "declaration"
_NOT_DEFINITIONS = frozenset({_PROTOTYPE, "preproc_def", "preproc_function_def"})
"""What defines no function of its name: a prototype, a macro (`#define gzopen gzopen64`
under a condition leaves zlib.h's prototype of `gzopen` in force otherwise)."""
# A function or method defined elsewhere: a prototype, a method declared in its class.
_DECLARATIONS: Mapping[str, frozenset[str]] = MappingProxyType(
    {"c": frozenset({_PROTOTYPE}), "cpp": frozenset({_PROTOTYPE, "field_declaration"})}
)
_CALLABLE: frozenset[str] = frozenset({"function", "method"})
"""Where a C or C++ call can be misread as a function (map.extraction.c_forms)."""
# Overload stubs: signatures written before the implementation that takes the bare ID.
_SIGNATURES = frozenset({"function_signature", "method_signature"})
_OVERLOAD_STUBS: Mapping[str, Callable[[Scope], bool]] = MappingProxyType(
    {
        "python": lambda scope: _overload_decorated(scope.node),
        "typescript": lambda scope: scope.node.type in _SIGNATURES,
        "tsx": lambda scope: scope.node.type in _SIGNATURES,
    }
)
_OVERLOAD_DECORATOR = re.compile(rb"@\s*(?:\w+\s*\.\s*)*overload\s*")


def extract_file(path: str, data: bytes) -> FileExtract:
    """Extract the symbols, imports and references of one file.

    `path` is repo-relative POSIX (it becomes the node-ID prefix); `data` is
    the file's raw bytes. Raises ValueError for an unsupported extension and
    disk.errors.UndecodableFileError when `data` is not UTF-8. A file with
    syntax errors yields what tree-sitter could recover. A `.h` header that
    holds C++ (namespaces, classes, templates) is extracted as C++.
    """
    return decode_extract(path, extract_lists(path, data))


def extract_lists(path: str, data: bytes) -> list[Any]:
    """`extract_file`'s extract as map.extraction.snapshot's compact lists (what
    `encode_extract(extract_file(path, data))` gives), without building its objects."""
    language, source = source_of(path, data)
    digest = content_hash(data)
    tree = Parser(grammar(language)).parse(source)
    query = extraction_query(language)
    matches = QueryCursor(query).matches(tree.root_node)
    found = collect(matches, language)
    if language in C_FAMILY:
        found.refs += macro_calls(source, found, language)
    span = _spans(Positions(source), source)
    symbols = _qualified(path, source, language, span, found)
    drop_required(found, language)
    split_blocks(found, language)
    bind_callback_functions(found, language)
    assignments = assignments_of(found)
    if language in C_FAMILY:
        assignments += conditions_of(tree.root_node, found)
    return [
        language,
        digest,
        symbols,
        _imports(language, span, found.imports),
        references_of(span, found),
        assignments,
    ]


def source_of(path: str, data: bytes) -> tuple[str, bytes]:
    """The language `data` is extracted as, and the bytes to parse (no BOM).

    A `.h` header that holds C++ is C++. Raises ValueError for an unsupported
    extension and disk.errors.UndecodableFileError when `data` is not UTF-8.
    """
    language = language_of(path, data)
    if language is None:
        raise ValueError(f"{path}: no extractor for this file extension")
    decode_source(data, path=path)
    return language, data[len(_BOM) :] if data.startswith(_BOM) else data


def language_of(path: str, data: bytes) -> str | None:
    """The language `data` at `path` is extracted as (None: no extractor): its
    extension's, but C++ for a `.h` header that holds C++."""
    language = language_for(path)
    if language == "c" and path.endswith(".h") and _CPP_MARKERS.search(data):
        return "cpp"
    return language


def qualified_symbols(
    path: str, source: bytes, language: str, positions: Positions, found: Collected
) -> tuple[Symbol, ...]:
    """The symbols of one query pass: qualified, numbered, fingerprinted, a C or C++
    prototype left out when the file defines its function. Attaches references
    (if any were captured) to their scopes."""
    return decode_symbols(
        path, _qualified(path, source, language, _spans(positions, source), found)
    )


def _qualified(
    path: str, source: bytes, language: str, span: Span, found: Collected
) -> list[list[Any]]:
    """`qualified_symbols` as the store's symbol lists."""
    declarations = _DECLARATIONS.get(language, frozenset())
    if language in C_FAMILY:
        c_forms_of(found)
    stub = _OVERLOAD_STUBS.get(language, _never)
    symbols = _symbols(source, span, found, declarations, stub)
    if language in _PROTOTYPE_LANGUAGES and _drop_defined_prototypes(found, symbols):
        symbols = _symbols(source, span, found, declarations, stub)
    return symbols


def _spans(positions: Positions, source: bytes) -> Span:
    """Ranges as four ints; in an ASCII file a byte column is the UTF-16 column."""
    column = None if source.isascii() else positions.column

    def span(first: Node, last: Node) -> list[int]:
        (start_line, start_col), (end_line, end_col) = first.start_point, last.end_point
        if column is None:
            return [start_line, start_col, end_line, end_col]
        return [
            start_line,
            column(first.start_byte, start_col),
            end_line,
            column(last.end_byte, end_col),
        ]

    return span


def _symbols(
    data: bytes,
    span: Span,
    found: Collected,
    declarations: frozenset[str],
    stub: Callable[[Scope], bool],
) -> list[list[Any]]:
    """Qualify, number and fingerprint the definitions (the store's symbol lists; each
    qualified name's bare ID in `found.tails`); attach references to scopes. A
    function or method whose node is of a type in `declarations` is a declaration;
    `stub` tells an overload's stub (see `_number`)."""
    widest: dict[int, Scope] = {}
    for scope in found.scopes:
        key = scope.name_node.start_byte
        kept = widest.get(key)
        if kept is None or (_span(scope), -scope.pattern) > (_span(kept), -kept.pattern):
            widest[key] = scope
    scopes = sorted(widest.values(), key=lambda s: (s.start.start_byte, -s.end.end_byte))
    refs = sorted([*found.refs, *found.assigns], key=attrgetter("start"))
    found.comments.sort()
    tokens = TokenIndex(
        data,
        found.comments,
        (cut for s in scopes for cut in (s.start.start_byte, s.end.end_byte)),
    )
    stack: list[Scope] = []
    namespaces: set[tuple[str, ...]] = set()
    named: list[tuple[Scope, str, SymbolKind]] = []
    ref_index = 0
    for scope in scopes:
        ref_index = _assign_refs(refs, ref_index, scope.start.start_byte, stack)
        while stack and stack[-1].end.end_byte <= scope.start.start_byte:
            stack.pop()
        parent = next((open_ for open_ in reversed(stack) if _can_hold(open_, scope)), None)
        scope.parent = parent
        scope.parts = (parent.parts if parent else ()) + scope.prefix + scope.written
        scope.parts += (scope.name,)
        stack.append(scope)
        if scope.kind is None:
            continue
        kind = _kind_in_place(scope, scope.kind, namespaces)
        if kind in ("namespace", "module"):
            namespaces.add(scope.parts)
        scope.declaration = kind in _CALLABLE and scope.node.type in declarations
        named.append((scope, ".".join(scope.parts), kind))
    _assign_refs(refs, ref_index, len(data) + 1, stack)
    found.refs = [r for r in refs if r.kind not in ASSIGN_RANK]
    found.assigns = [r for r in refs if r.kind in ASSIGN_RANK]
    found.tails = _number(named, stub)
    return [_symbol(data, span, scope, qualname, kind, tokens) for scope, qualname, kind in named]


def _number(
    named: list[tuple[Scope, str, SymbolKind]], stub: Callable[[Scope], bool]
) -> dict[str, str]:
    """Give each symbol its ID without the path (`Scope.tail`): a repeated qualified name
    gets `~2`, `~3` in file order, but an implementation that follows its overload stubs
    takes the bare ID (a memory or an answer about the function is about its body).
    Returns each qualified name's bare ID."""
    repeated: dict[str, list[Scope]] = {}
    for scope, qualname, _ in named:
        repeated.setdefault(qualname, []).append(scope)
    for qualname, scopes in repeated.items():
        if len(scopes) > 1 and stub(scopes[0]):
            body = next((scope for scope in scopes if not stub(scope)), None)
            if body is not None:
                scopes.remove(body)
                scopes.insert(0, body)
        for count, scope in enumerate(scopes, 1):
            scope.tail = qualname if count == 1 else f"{qualname}~{count}"
    return {qualname: qualname for qualname in repeated}


def _overload_decorated(node: Node) -> bool:
    """A Python function decorated with `@overload` (`@typing.overload`, ...)."""
    parent = node.parent
    return (
        parent is not None
        and parent.type == "decorated_definition"
        and any(
            child.type == "decorator" and _OVERLOAD_DECORATOR.fullmatch(child.text or b"")
            for child in parent.children
        )
    )


def _never(scope: Scope) -> bool:
    return False


def _drop_defined_prototypes(found: Collected, symbols: list[list[Any]]) -> bool:
    """Forget the prototypes of functions the file defines, so the definition is the
    one symbol of its name (and its bare ID); True when any was dropped."""
    defined = {
        tail if qualname is None else qualname
        for tail, _, kind, *_, qualname, _, _ in symbols
        if kind in _CALLABLE
    }
    prototypes = {  # free functions: a class's member declarations stay its outline
        scope.name_node.start_byte
        for scope in found.scopes
        if scope.node.type == _PROTOTYPE
        and scope.tail
        and (scope.parent is None or scope.parent.kind not in _CLASS_LIKE)
    }
    dropped = {
        scope.name_node.start_byte
        for scope in found.scopes
        if scope.name_node.start_byte in prototypes
        and ".".join(scope.parts) in defined
        and any(
            other.node.type not in _NOT_DEFINITIONS and other.parts == scope.parts and other.kind
            for other in found.scopes
        )
    }
    if not dropped:
        return False
    found.scopes = [s for s in found.scopes if s.name_node.start_byte not in dropped]
    found.skipped |= dropped
    found.refs = [*found.refs, *found.assigns]
    found.assigns = []
    return True


def _can_hold(outer: Scope, inner: Scope) -> bool:
    """Whether `outer` qualifies `inner`: not a leaf kind, and not the same declaration
    (Go `var a, b = 1, 2` declares a and b side by side)."""
    if outer.kind in _LEAVES and outer.node.type != _TYPE_LITERAL_ALIAS:
        return False
    return (outer.start.start_byte, outer.end.end_byte) != (
        inner.start.start_byte,
        inner.end.end_byte,
    )


def _kind_in_place(scope: Scope, kind: SymbolKind, namespaces: set[tuple[str, ...]]) -> SymbolKind:
    """A function is a method inside a class-like symbol or a container, or when
    its written qualifier names something other than a known namespace."""
    if kind != "function":
        return kind
    parent = scope.parent
    if parent is not None and (parent.kind is None or parent.kind in _CLASS_LIKE):
        return "method"
    if scope.written and scope.parts[:-1] not in namespaces:
        return "method"
    return kind


def _assign_refs(refs: list[Ref], index: int, until: int, stack: list[Scope]) -> int:
    """Give each reference before byte `until` its innermost enclosing scope."""
    while index < len(refs) and refs[index].start < until:
        ref = refs[index]
        start = ref.start
        while stack and stack[-1].end.end_byte <= start:
            stack.pop()
        ref.scope = stack[-1] if stack else None
        index += 1
    return index


def _symbol(
    data: bytes, span: Span, scope: Scope, qualname: str, kind: SymbolKind, tokens: TokenIndex
) -> list[Any]:
    """One symbol as the store lists it (see map.extraction.snapshot.encode_extract)."""
    start, end = scope.start.start_byte, scope.end.end_byte
    container = scope.parts[:-1]
    return [
        scope.tail,
        scope.name,
        kind,
        span(scope.start, scope.end),
        span(scope.name_node, scope.name_node),
        content_hash(data[start:end]),
        tokens.normalized(start, end),
        None if qualname == scope.tail else qualname,
        None if container == tuple(qualname.split("."))[:-1] else container,
        scope.declaration,
        scope.form,
    ]


def _imports(language: str, span: Span, nodes: list[Node]) -> list[list[Any]]:
    imports: list[list[Any]] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        where = span(node, node)
        imports.extend([module, names, where] for module, names in imports_of(language, node))
    return imports


def _span(scope: Scope) -> int:
    return scope.end.end_byte - scope.start.start_byte
