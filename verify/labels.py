"""What the map and the syntax see on the candidate lines an answer did not confirm.

`label` gives each site its role (see `verify.candidates`): the map's
extraction of the file as it is now (its stored extract when the content hash
is the file's, else a fresh parse) ties a definition, a call, an inheritance,
another use or an import to the line; a line it ties to nothing is `use` when
the name stands in code (an attribute read, a member of an unknown receiver),
`definition` when it binds a local of its name there (an assignment's target, a
declared variable, a parameter: another symbol) and `mention` only inside a
comment or a string, as the file's syntax tree shows. At most
`MAX_LABELLED_FILES` files are parsed per question (files the map holds as they
are cost no parse for their roles); sites past that keep role None. With a
`CheckCache`, roles and trees are kept per file content.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from tree_sitter import Node, Parser, Tree

from disk.errors import DiskError
from disk.stamps import FileStamp, content_hash
from disk.text import decode_source, read_source_bytes
from map import FileExtract, extract_file, grammar, language_for
from verify.checkcache import CheckCache, FileRoles
from verify.sites import Role, Site

MAX_LABELLED_FILES = 40
Known = Callable[[str], FileExtract | None]
"""The map's extraction of a file (None: the map does not hold it)."""


def names_code(
    root: Path, rel: str, line: int, column: int, cache: CheckCache | None = None
) -> bool:
    """Whether 0-based `line` and character `column` of the file fall on a name in
    code (an identifier token of its grammar), not on a keyword, punctuation, a
    comment or a string. True when the file has no grammar (nothing to tell).
    With `cache`, the file's syntax tree is parsed once per content."""
    try:
        data = read_source_bytes(root / rel)
        lines = decode_source(data, path=rel).splitlines()
    except (DiskError, OSError):
        return True
    tree = _tree(rel, data, content_hash(data), cache)
    if tree is None or line >= len(lines):
        return True
    return _in_code(tree, line, len(lines[line][:column].encode()))


def _tree(rel: str, data: bytes, digest: str | None, cache: CheckCache | None) -> Tree | None:
    """The file's syntax tree (None: no grammar), parsed once per content with `cache`."""
    language = language_for(rel)
    if language is None:
        return None
    key = (rel, digest or content_hash(data))
    tree = cache.trees.get(key) if cache is not None else None
    if tree is None:
        tree = Parser(grammar(language)).parse(data)
        if cache is not None:
            cache.trees.put(key, tree)
    return tree


def _in_code(tree: Tree, line: int, byte: int) -> bool:
    """Whether the token at 0-based `line` and `byte` is a name in code (not a keyword,
    punctuation, a comment or a string)."""
    node = tree.root_node.descendant_for_point_range((line, byte), (line, byte))
    if node is None:
        return True
    return node.is_named and not _in_text(node)


def _in_text(node: Node) -> bool:
    """Whether `node` is, or lies inside, a comment or a string (not inside code
    interpolated into a string: an f-string's `{name}`, a template's `${name}`)."""
    current: Node | None = node
    while current is not None:
        kind = current.type
        if "interpolation" in kind or "substitution" in kind:
            return False
        if "comment" in kind or "string" in kind:
            return True
        current = current.parent
    return False


def _code_or_text(
    rel: str, data: bytes, sites: Iterable[Site], digest: str | None, cache: CheckCache | None
) -> dict[int, Role]:
    """`use` for the lines where the name stands in code the extraction did not tie
    to a role (an attribute read, a member of an unknown receiver), `definition`
    where it binds a local of its name (`invoke = print`, a parameter), `mention` where
    it stands in a comment or a string (or the file has no grammar to tell)."""
    tree = _tree(rel, data, digest, cache)
    lines = decode_source(data, path=rel).splitlines()
    found: dict[int, Role] = {}
    for site in sites:
        text = lines[site.line - 1] if site.line <= len(lines) else ""
        byte = len(text[: site.column - 1].encode())
        code = tree is not None and _in_code(tree, site.line - 1, byte)
        found[site.line] = "use" if code else "mention"
        if code and tree is not None and _binds(tree, site.line - 1, byte):
            found[site.line] = "definition"
    return found


_BINDING_FIELDS = frozenset(
    {
        ("assignment", "left"),
        ("variable_declarator", "name"),
        ("short_var_declaration", "left"),
        ("var_spec", "name"),
        ("parameter_declaration", "name"),
        ("default_parameter", "name"),
        ("typed_default_parameter", "name"),
        ("required_parameter", "pattern"),
        ("optional_parameter", "pattern"),
        ("let_declaration", "pattern"),
        ("for_statement", "left"),
    }
)
"""(node type, field): where a name stands as the local it binds (an assignment's
target, a declared variable, a parameter)."""
_BINDING_PARENTS = frozenset({"parameters", "typed_parameter"})
"""Python's parameter lists, whose plain names are bare children."""
_NAME_LISTS = frozenset({"expression_list", "pattern_list", "tuple_pattern"})


def _binds(tree: Tree, line: int, byte: int) -> bool:
    """Whether the name at 0-based `line` and `byte` binds a local of its name (another
    symbol than any definition elsewhere), rather than using one."""
    node = tree.root_node.descendant_for_point_range((line, byte), (line, byte))
    if node is None or node.parent is None:
        return False
    held, parent = node, node.parent
    if parent.type in _NAME_LISTS and parent.parent is not None:  # `a, b := ...`
        held, parent = parent, parent.parent
    if parent.type in _BINDING_PARENTS:
        return True
    return any(
        (parent.type, field) in _BINDING_FIELDS and held == parent.child_by_field_name(field)
        for field in ("left", "name", "pattern")
    )


@dataclass(frozen=True, slots=True)
class Labelled:
    """Sites with what the map sees on them, and the files left unparsed."""

    sites: tuple[Site, ...]
    unparsed_files: int
    ms: float


def label(
    root: Path,
    name: str,
    sites: Iterable[Site],
    *,
    max_files: int = MAX_LABELLED_FILES,
    max_file_bytes: int = 1_000_000,
    known: Known | None = None,
    cache: CheckCache | None = None,
) -> Labelled:
    """`sites` with their roles, from the map's extraction of their files; the
    files past the first `max_files` parsed (in path order) keep role None.

    A file's extraction comes from `known` (the map's) when its content hash is
    the file's now, so only files the map does not hold as they are get parsed
    (and count against `max_files`); with `cache`, the roles found for a file's
    content are reused while the content stays the same."""
    started = time.perf_counter()
    pending = list(sites)
    by_file: dict[str, list[Site]] = {}
    for site in pending:
        by_file.setdefault(site.path, []).append(site)
    roles: dict[str, Mapping[int, Role]] = {}
    parsed = unparsed = 0
    for rel in sorted(by_file):
        kept = _kept_roles(root, rel, name, cache, max_file_bytes)
        if isinstance(kept, FileRoles):
            roles[rel] = kept.roles
            continue
        stamp, data = kept
        extract = known(rel) if known is not None and data is not None else None
        digest = content_hash(data) if data is not None else None
        fresh = extract is None or extract.content_hash != digest
        if fresh:
            if parsed >= max_files:
                unparsed += 1
                continue
            parsed += 1
            extract = _extract(rel, data)
        found = {} if extract is None else _roles(extract, name)
        rest = [site for site in by_file[rel] if site.line not in found]
        if rest and data is not None:
            if not fresh and parsed >= max_files:
                unparsed += 1
                roles[rel] = found
                continue
            parsed += 0 if fresh else 1
            found = {**found, **_code_or_text(rel, data, rest, digest, cache)}
        roles[rel] = found
        if cache is not None and stamp is not None and digest is not None:
            cache.roles.put((name, rel), FileRoles(stamp, digest, found))
    done = [
        site if site.path not in roles else replace(site, role=roles[site.path].get(site.line))
        for site in pending
    ]
    return Labelled(tuple(done), unparsed_files=unparsed, ms=(time.perf_counter() - started) * 1000)


def _kept_roles(
    root: Path, rel: str, name: str, cache: CheckCache | None, max_file_bytes: int
) -> FileRoles | tuple[FileStamp | None, bytes | None]:
    """The cached roles of `name` in the file when its content is the one they were
    found in; else the file's stamp (taken before reading) and bytes (None: unreadable)."""
    kept = cache.roles.get((name, rel)) if cache is not None else None
    stamp = FileStamp.of(root / rel)
    if kept is not None and stamp == kept.stamp:
        return kept
    try:
        data = read_source_bytes(root / rel, max_bytes=max_file_bytes)
    except (DiskError, OSError):
        return stamp, None
    if kept is not None and stamp is not None and content_hash(data) == kept.content_hash:
        fresh = FileRoles(stamp, kept.content_hash, kept.roles)
        if cache is not None:
            cache.roles.put((name, rel), fresh)
        return fresh
    return stamp, data


def _extract(rel: str, data: bytes | None) -> FileExtract | None:
    """The map's extraction of the file's bytes, or None when it has none."""
    if data is None:
        return None
    try:
        return extract_file(rel, data)
    except (ValueError, DiskError):
        return None


def _roles(extract: FileExtract, name: str) -> dict[int, Role]:
    """1-based line -> what the map sees of `name` there (the strongest role wins)."""
    roles: dict[int, Role] = {}

    def put(line: int, role: Role) -> None:
        if _RANK[role] < _RANK[roles.get(line, "mention")]:
            roles[line] = role

    for symbol in extract.symbols:
        if symbol.name == name:
            put(symbol.selection.first_line, "definition")
    for ref in extract.references:
        if ref.name == name:
            put(ref.range.first_line, _REF_ROLES.get(ref.kind, "use"))
    for imp in extract.imports:
        if any(name in pair for pair in imp.names) or imp.module.rsplit(".", 1)[-1] == name:
            for line in range(imp.range.first_line, imp.range.last_line + 1):
                put(line, "import")
    return roles


_RANK: dict[Role, int] = {
    "definition": 0,
    "call": 1,
    "inherits": 2,
    "use": 3,
    "import": 4,
    "mention": 5,
}
_REF_ROLES: dict[str, Role] = {"calls": "call", "inherits": "inherits"}
