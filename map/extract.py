"""Per-file extraction: symbols, imports and references from one tree-sitter pass.

`extract_file` parses a file once and runs its language's query
(`map/queries/<language>.scm`) once. The query's capture names say what each
match is:

    @def.<kind> + @name [+ @prefix]   a symbol of that SymbolKind; @prefix
                                      nodes qualify it (a Go receiver type,
                                      C++ `Foo::` before an out-of-line method)
    @container + @name                a scope that qualifies what it holds but
                                      is not a symbol itself (a Rust `impl`)
    @ref.calls / @ref.inherits / @ref.references + @name [+ @qualifier]
    @ref.types                        a type expression whose names are
                                      references (Python annotations)
    @import                           an import statement (see map.extract_imports)
    @comment                          dropped from normalized fingerprints
    @skip                             a type parameter's declaration: neither it
                                      nor unqualified type references of the
                                      same name in the file are references

When two patterns define the same name node, the wider one wins, and on a tie
the pattern written first in the query file.

Qualified names follow nesting: a definition inside another is qualified by
it. A function directly inside a class-like symbol (or a container) is a
method.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from tree_sitter import Node, Parser, QueryCursor

from disk.stamps import content_hash
from disk.text import decode_source
from map.extract_imports import imports_of
from map.fingerprint import TokenIndex
from map.languages import extraction_query, grammar, language_for
from map.model import (
    FileExtract,
    Fingerprint,
    Import,
    Reference,
    Symbol,
    SymbolKind,
)
from map.positions import Positions

_BOM = b"\xef\xbb\xbf"
# A `.h` header holding any of these is C++, not C.
_CPP_MARKERS = re.compile(
    rb"^[ \t]*(?:namespace[ \t]+\w|template[ \t]*<|class[ \t]+\w+[^;(]*\{"
    rb"|(?:public|private|protected)[ \t]*:)",
    re.MULTILINE,
)
_CLASS_LIKE: frozenset[str] = frozenset({"class", "interface", "struct", "enum"})
# Kinds that never qualify a definition inside them (C `typedef struct S {...} S;`
# defines S twice side by side, not S.S); references inside still belong to them.
_LEAVES: frozenset[str] = frozenset({"type"})
_REF_PRIORITY: Mapping[str, int] = MappingProxyType({"inherits": 0, "calls": 1, "references": 2})
_COMPLEX_QUALIFIER = "<expr>"
_LONGEST_QUALIFIER = 120
_QUALIFIED_NAMES: frozenset[str] = frozenset({"qualified_identifier", "scoped_identifier"})
_QUALIFIER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.:")


@dataclass(frozen=True, slots=True)
class _Shape:
    """Where a language keeps the parts of a definition outside its node."""

    wrappers: frozenset[str] = frozenset()
    """Parent node types whose range the definition takes (decorators, export)."""
    leading: frozenset[str] = frozenset()
    """Preceding sibling node types that belong to the definition (attributes)."""
    comments: frozenset[str] = frozenset({"comment"})
    """Comment node types, skipped when looking for leading siblings."""


_SHAPES: Mapping[str, _Shape] = MappingProxyType(
    {
        "python": _Shape(wrappers=frozenset({"decorated_definition"})),
        "typescript": _Shape(
            wrappers=frozenset({"export_statement"}), leading=frozenset({"decorator"})
        ),
        "tsx": _Shape(wrappers=frozenset({"export_statement"}), leading=frozenset({"decorator"})),
        "javascript": _Shape(
            wrappers=frozenset({"export_statement"}), leading=frozenset({"decorator"})
        ),
        "go": _Shape(),
        "c": _Shape(),
        "cpp": _Shape(wrappers=frozenset({"template_declaration"})),
        "rust": _Shape(
            leading=frozenset({"attribute_item"}),
            comments=frozenset({"line_comment", "block_comment"}),
        ),
        "java": _Shape(comments=frozenset({"line_comment", "block_comment"})),
    }
)


@dataclass(slots=True)
class _Scope:
    """A definition (kind set) or a container-only scope (kind None) being extracted."""

    name: str
    kind: SymbolKind | None
    start: Node
    node: Node
    name_node: Node
    pattern: int = 0
    prefix: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    """The qualifier written in the name itself (C++ `Shape::` in `Shape::area`)."""
    parts: tuple[str, ...] = ()
    parent: _Scope | None = None
    node_id: str = ""


@dataclass(slots=True)
class _Ref:
    name_node: Node
    kind: str
    qualifier: str | None
    scope: _Scope | None = None


@dataclass(slots=True)
class _Collected:
    scopes: list[_Scope] = field(default_factory=list)
    refs: list[_Ref] = field(default_factory=list)
    imports: list[Node] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)
    skipped: set[int] = field(default_factory=set)
    type_parameters: set[str] = field(default_factory=set)
    qualifier_spans: list[tuple[int, int]] = field(default_factory=list)

    def qualify(self, node: Node) -> str:
        """The qualifier text for `node`; a plain name's own parts are not references."""
        text = _qualifier(node)
        if text != _COMPLEX_QUALIFIER:
            self.qualifier_spans.append((node.start_byte, node.end_byte))
        return text


def extract_file(path: str, data: bytes) -> FileExtract:
    """Extract the symbols, imports and references of one file.

    `path` is repo-relative POSIX (it becomes the node-ID prefix); `data` is
    the file's raw bytes. Raises ValueError for an unsupported extension and
    disk.errors.UndecodableFileError when `data` is not UTF-8. A file with
    syntax errors yields what tree-sitter could recover. A `.h` header that
    holds C++ (namespaces, classes, templates) is extracted as C++.
    """
    language = language_for(path)
    if language is None:
        raise ValueError(f"{path}: no extractor for this file extension")
    if language == "c" and path.endswith(".h") and _CPP_MARKERS.search(data):
        language = "cpp"
    decode_source(data, path=path)
    digest = content_hash(data)
    source = data[len(_BOM) :] if data.startswith(_BOM) else data
    tree = Parser(grammar(language)).parse(source)
    query = extraction_query(language)
    matches = QueryCursor(query).matches(tree.root_node)
    found = _collect(matches, _SHAPES[language])
    positions = Positions(source)
    symbols = _symbols(path, source, positions, found)
    return FileExtract(
        path=path,
        language=language,
        content_hash=digest,
        symbols=symbols,
        imports=_imports(language, positions, found.imports),
        references=_references(path, positions, found, symbols),
    )


def _collect(matches: list[tuple[int, dict[str, list[Node]]]], shape: _Shape) -> _Collected:
    found = _Collected()
    for pattern, captures in matches:
        for key, nodes in captures.items():
            if key == "comment":
                node = nodes[0]
                found.comments.append((node.start_byte, node.end_byte))
            elif key.startswith("def."):
                kind: SymbolKind = key[4:]  # type: ignore[assignment]
                _add_scope(found, kind, nodes[0], captures, shape, pattern)
            elif key == "container":
                _add_scope(found, None, nodes[0], captures, shape, pattern)
            elif key == "ref.types":
                _add_type_refs(found, nodes[0])
            elif key.startswith("ref."):
                qualifier = captures.get("qualifier")
                found.refs.append(
                    _Ref(
                        captures["name"][0],
                        key[4:],
                        found.qualify(qualifier[0]) if qualifier else None,
                    )
                )
            elif key == "import":
                found.imports.append(nodes[0])
            elif key == "skip":
                found.skipped.add(nodes[0].start_byte)
                found.type_parameters.add(_text(nodes[0]))
    return found


def _add_scope(
    found: _Collected,
    kind: SymbolKind | None,
    node: Node,
    captures: dict[str, list[Node]],
    shape: _Shape,
    pattern: int,
) -> None:
    name_node = captures["name"][0]
    written = _split_qualified(_text(name_node))
    if not written:
        return
    while name_node.type in _QUALIFIED_NAMES:
        inner = name_node.child_by_field_name("name")
        if inner is None:
            break
        name_node = inner
    prefixes = sorted(captures.get("prefix", ()), key=lambda n: n.start_byte)
    prefix = tuple(part for node_ in prefixes for part in _split_qualified(_text(node_)))
    name = written[-1]
    start = _start_of(node, shape)
    found.scopes.append(_Scope(name, kind, start, node, name_node, pattern, prefix, written[:-1]))


def _start_of(node: Node, shape: _Shape) -> Node:
    """The node where a definition's range starts: its decorators, attributes or export."""
    start = node
    while start.parent is not None and start.parent.type in shape.wrappers:
        start = start.parent
    if shape.leading:
        sibling = start.prev_named_sibling
        while sibling is not None and (
            sibling.type in shape.leading or sibling.type in shape.comments
        ):
            if sibling.type in shape.leading:
                start = sibling
            sibling = sibling.prev_named_sibling
    return start


def _add_type_refs(found: _Collected, node: Node) -> None:
    """References for every name in a type expression (Python annotations)."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "identifier":
            found.refs.append(_Ref(current, "references", None))
        elif current.type == "attribute":
            name = current.child_by_field_name("attribute")
            target = current.child_by_field_name("object")
            if name is not None and target is not None:
                found.refs.append(_Ref(name, "references", found.qualify(target)))
        elif current.type != "string":
            pending.extend(current.named_children)


def _symbols(path: str, data: bytes, positions: Positions, found: _Collected) -> tuple[Symbol, ...]:
    """Qualify, number and fingerprint the definitions; attach references to scopes."""
    widest: dict[int, _Scope] = {}
    for scope in found.scopes:
        key = scope.name_node.start_byte
        kept = widest.get(key)
        if kept is None or (_span(scope), -scope.pattern) > (_span(kept), -kept.pattern):
            widest[key] = scope
    scopes = sorted(widest.values(), key=lambda s: (s.start.start_byte, -s.node.end_byte))
    refs = sorted(found.refs, key=lambda r: r.name_node.start_byte)
    found.comments.sort()
    tokens = TokenIndex(
        data,
        found.comments,
        (cut for s in scopes for cut in (s.start.start_byte, s.node.end_byte)),
    )
    stack: list[_Scope] = []
    seen: dict[str, int] = {}
    namespaces: set[tuple[str, ...]] = set()
    symbols: list[Symbol] = []
    ref_index = 0
    for scope in scopes:
        ref_index = _assign_refs(refs, ref_index, scope.start.start_byte, stack)
        while stack and stack[-1].node.end_byte <= scope.start.start_byte:
            stack.pop()
        parent = next((open_ for open_ in reversed(stack) if open_.kind not in _LEAVES), None)
        scope.parent = parent
        scope.parts = (parent.parts if parent else ()) + scope.prefix + scope.written
        scope.parts += (scope.name,)
        stack.append(scope)
        if scope.kind is None:
            continue
        qualname = ".".join(scope.parts)
        count = seen.get(qualname, 0) + 1
        seen[qualname] = count
        scope.node_id = f"{path}#{qualname}" + (f"~{count}" if count > 1 else "")
        kind = _kind_in_place(scope, scope.kind, namespaces)
        if kind in ("namespace", "module"):
            namespaces.add(scope.parts)
        symbols.append(_symbol(data, positions, scope, kind, tokens))
    _assign_refs(refs, ref_index, len(data) + 1, stack)
    found.refs = refs
    return tuple(symbols)


def _kind_in_place(scope: _Scope, kind: SymbolKind, namespaces: set[tuple[str, ...]]) -> SymbolKind:
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


def _assign_refs(refs: list[_Ref], index: int, until: int, stack: list[_Scope]) -> int:
    """Give each reference before byte `until` its innermost enclosing scope."""
    while index < len(refs) and refs[index].name_node.start_byte < until:
        ref = refs[index]
        start = ref.name_node.start_byte
        while stack and stack[-1].node.end_byte <= start:
            stack.pop()
        ref.scope = stack[-1] if stack else None
        index += 1
    return index


def _symbol(
    data: bytes, positions: Positions, scope: _Scope, kind: SymbolKind, tokens: TokenIndex
) -> Symbol:
    start, end = scope.start.start_byte, scope.node.end_byte
    return Symbol(
        node_id=scope.node_id,
        name=scope.name,
        qualname=".".join(scope.parts),
        kind=kind,
        range=positions.range(scope.start, scope.node),
        selection=positions.range(scope.name_node, scope.name_node),
        container=scope.parts[:-1],
        fingerprint=Fingerprint(
            exact=content_hash(data[start:end]),
            normalized=tokens.normalized(start, end),
        ),
    )


def _references(
    path: str, positions: Positions, found: _Collected, symbols: tuple[Symbol, ...]
) -> tuple[Reference, ...]:
    defined = {scope.name_node.start_byte for scope in found.scopes} | found.skipped
    by_qualname: dict[str, str] = {}
    for symbol in symbols:
        by_qualname.setdefault(symbol.qualname, symbol.node_id)
    best: dict[int, _Ref] = {}
    for ref in found.refs:
        key = ref.name_node.start_byte
        if key in defined:
            continue
        kept = best.get(key)
        if kept is None or _rank(ref) < _rank(kept):
            best[key] = ref
    starts = sorted(best)
    for q_start, q_end in found.qualifier_spans:
        index = bisect_left(starts, q_start)
        while index < len(starts) and starts[index] < q_end:
            best.pop(starts[index], None)
            index += 1
    references: list[Reference] = []
    for key in starts:
        kept_ref = best.get(key)
        if kept_ref is None:
            continue
        name = _plain_name(_text(kept_ref.name_node))
        if not name or (
            kept_ref.kind == "references"
            and kept_ref.qualifier is None
            and name in found.type_parameters
        ):
            continue
        references.append(
            Reference(
                name=name,
                kind=kept_ref.kind,  # type: ignore[arg-type]
                range=positions.range(kept_ref.name_node, kept_ref.name_node),
                scope=_scope_id(path, kept_ref.scope, by_qualname),
                qualifier=kept_ref.qualifier,
            )
        )
    return tuple(references)


def _scope_id(path: str, scope: _Scope | None, by_qualname: dict[str, str]) -> str:
    """The node ID of the innermost symbol around a reference (a container maps to
    the same-named symbol of the file, e.g. a Rust impl to its struct)."""
    while scope is not None:
        if scope.kind is not None:
            return scope.node_id
        mapped = by_qualname.get(".".join(scope.parts))
        if mapped is not None:
            return mapped
        scope = scope.parent
    return path


def _imports(language: str, positions: Positions, nodes: list[Node]) -> tuple[Import, ...]:
    imports: list[Import] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        where = positions.range(node, node)
        imports.extend(Import(module, names, where) for module, names in imports_of(language, node))
    return tuple(imports)


def _rank(ref: _Ref) -> tuple[int, bool]:
    """Which of two references at one name to keep: inherits, then calls, then
    the one with a qualifier."""
    return _REF_PRIORITY[ref.kind], ref.qualifier is None


def _span(scope: _Scope) -> int:
    return scope.node.end_byte - scope.start.start_byte


def _text(node: Node) -> str:
    raw = node.text
    return raw.decode("utf-8", errors="replace") if raw else ""


def _plain_name(text: str) -> str:
    """A name without generic arguments or a namespace path (`a::Vec<T>` -> `Vec`)."""
    if text.isidentifier():
        return text
    parts = _split_qualified(text)
    return parts[-1] if parts else ""


def _split_qualified(text: str) -> tuple[str, ...]:
    """The parts of a qualified name, generic arguments dropped (`a::B<T>` -> a, B)."""
    if "<" in text:
        depth, kept = 0, []
        for ch in text:
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth = max(depth - 1, 0)
            elif depth == 0:
                kept.append(ch)
        text = "".join(kept)
    parts = text.replace("::", ".").split(".")
    return tuple(part.strip(" \t\n*&") for part in parts if part.strip(" \t\n*&"))


def _qualifier(node: Node) -> str:
    """The receiver or module before a name, as written, or `<expr>` when it is not a
    plain (dotted) name."""
    if node.end_byte - node.start_byte > _LONGEST_QUALIFIER:
        return _COMPLEX_QUALIFIER  # without reading it: call chains would be quadratic
    text = _text(node)
    if text and all(ch in _QUALIFIER_CHARS for ch in text):
        return text
    return _COMPLEX_QUALIFIER
