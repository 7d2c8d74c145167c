"""Candidate sites of a symbol: where a fast textual scan, and the map, see its name.

The live servers are the authority on what refers to a symbol; this scan is
what they are checked against. `scan` searches every file of the server's
languages under the root (as the map lists them: git's files, vendored
folders and `exclude` patterns left out) for the name as a whole word.
`label` then has the map's extraction (tree-sitter, on the file as it is now:
the map's stored extract when its content hash is the file's, else a fresh
parse) say what the lines an answer did not confirm hold:

| role         | the map sees there                              | source |
|--------------|-------------------------------------------------|--------|
| `definition` | a symbol of that name is defined                | map    |
| `call`       | a call of that name                             | map    |
| `inherits`   | a class or type extending or implementing it    | map    |
| `use`        | another use (a type, a value)                   | map    |
| `import`     | an import binding that name                     | map    |
| `mention`    | nothing: a comment or a string                  | text   |
| None         | not parsed (past `MAX_LABELLED_FILES` parses)   | text   |

Both are bounded: at most `MAX_SCANNED_FILES` files are searched (`capped`
says when more were there) and `MAX_LABELLED_FILES` parsed per question (files
the map holds as they are cost no parse). Given a `verify.checkcache.CheckCache`,
both reuse what they found in files that did not change since the last question.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from tree_sitter import Node, Parser, Tree

from disk.errors import DiskError
from disk.stamps import FileStamp, content_hash
from disk.text import decode_source, read_source_bytes
from map import FileExtract, extract_file, grammar, language_for, list_files
from verify.checkcache import CheckCache, FileRoles, NameSites, ScanOptions

MAX_SCANNED_FILES = 20_000
MAX_LABELLED_FILES = 40
_NAME = re.compile(r"[#$\w]+")
_WORD_AFTER = frozenset(b"$_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORD_BEFORE = _WORD_AFTER | {ord("#")}
"""Bytes around a name that make it part of a longer word (see the scan's pattern)."""
_CALL_AFTER = re.compile(r"\s*(?:<[^<>()]*>\s*)?\(")

Role = Literal["definition", "call", "inherits", "use", "import", "mention"]
Source = Literal["map", "text"]
Known = Callable[[str], FileExtract | None]
"""The map's extraction of a file (None: the map does not hold it)."""


@dataclass(frozen=True, slots=True)
class Site:
    """One line where the name appears."""

    path: str
    line: int
    """1-based."""
    column: int
    """1-based, in characters: the first occurrence on the line."""
    text: str
    role: Role | None
    """What the map sees there; None until `label` parsed the file."""
    call_like: bool
    """The name is followed by `(` (or a type-argument list and `(`)."""

    @property
    def source(self) -> Source:
        """`map` when the map's extraction sees the name there, else `text`."""
        return "text" if self.role in (None, "mention") else "map"

    @property
    def place(self) -> tuple[str, int]:
        """(path, 1-based line)."""
        return self.path, self.line


@dataclass(frozen=True, slots=True)
class Scan:
    """What the scan found, and what it cost."""

    name: str
    sites: tuple[Site, ...]
    files_scanned: int
    ms: float
    capped: bool
    """True when files were left unsearched (`MAX_SCANNED_FILES`)."""


def name_at(line_text: str, column: int) -> str | None:
    """The identifier covering (or just before) 0-based character `column`, if any."""
    for match in _NAME.finditer(line_text):
        if match.start() <= column <= match.end() and not match.group().isdigit():
            return match.group()
    return None


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
    to a role (an attribute read, a member of an unknown receiver), `mention` where
    it stands in a comment or a string (or the file has no grammar to tell)."""
    tree = _tree(rel, data, digest, cache)
    lines = decode_source(data, path=rel).splitlines()
    found: dict[int, Role] = {}
    for site in sites:
        text = lines[site.line - 1] if site.line <= len(lines) else ""
        byte = len(text[: site.column - 1].encode())
        code = tree is not None and _in_code(tree, site.line - 1, byte)
        found[site.line] = "use" if code else "mention"
    return found


def scan(
    root: Path,
    name: str,
    extensions: Iterable[str],
    *,
    exclude: Iterable[str] = (),
    snapshot_dir: str = ".codeanchor",
    max_file_bytes: int = 1_000_000,
    cache: CheckCache | None = None,
) -> Scan:
    """Every line of the files with `extensions` under `root` that names `name`;
    with `cache`, a file whose stamp did not move since it was last scanned for
    `name` is not read again."""
    started = time.perf_counter()
    suffixes = tuple(ext.lower() for ext in extensions)
    options: ScanOptions = (suffixes, tuple(exclude), snapshot_dir, max_file_bytes)
    listing = list_files(
        root,
        accept=lambda rel: rel.lower().endswith(suffixes),
        exclude=exclude,
        snapshot_dir=snapshot_dir,
        previous=cache.listings.get(options) if cache is not None else None,
    )
    files = listing.files[:MAX_SCANNED_FILES]
    word = re.compile(r"(?<![#$\w])" + re.escape(name) + r"(?![$\w])")
    clock = cache.clock(options) if cache is not None else None
    now = clock.tick(listing.stamps) if clock is not None else 0
    before = cache.sites.get((name, options)) if cache is not None else None
    if before is not None and before.clock is not clock:
        before = None
    found: dict[str, tuple[Site, ...]] = {}
    for rel in files:
        if before is not None and clock is not None and not clock.moved_since(rel, before.at):
            sites = before.sites.get(rel, ())
        else:
            sites = _sites_in(root, rel, name, word, max_file_bytes)
        if sites:
            found[rel] = sites
    if cache is not None and clock is not None:
        cache.listings.put(options, listing)
        cache.sites.put((name, options), NameSites(clock, now, found))
    return Scan(
        name=name,
        sites=tuple(site for rel in files for site in found.get(rel, ())),
        files_scanned=len(files),
        ms=(time.perf_counter() - started) * 1000,
        capped=len(listing.files) > len(files),
    )


def _sites_in(
    root: Path,
    rel: str,
    name: str,
    word: re.Pattern[str],
    max_file_bytes: int,
) -> tuple[Site, ...]:
    """The lines of one file naming the word (none when it cannot be read)."""
    try:
        data = read_source_bytes(root / rel, max_bytes=max_file_bytes)
        if not _names_word(data, name.encode()):
            return ()
        text = decode_source(data, path=rel)
    except (DiskError, OSError):
        return ()
    return tuple(
        Site(rel, number, column + 1, line.strip(), None, call_like)
        for number, column, line, call_like in _matching_lines(text, name, word)
    )


def _names_word(data: bytes, needle: bytes) -> bool:
    """Whether `needle` stands in `data` as a whole word, judged on ASCII bytes: it
    may pass a file whose text's Unicode word characters reject it (the text is
    matched again), never the other way round."""
    at = data.find(needle)
    while at >= 0:
        end = at + len(needle)
        if (at == 0 or data[at - 1] not in _WORD_BEFORE) and (
            end == len(data) or data[end] not in _WORD_AFTER
        ):
            return True
        at = data.find(needle, at + 1)
    return False


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


def _matching_lines(
    text: str, name: str, word: re.Pattern[str]
) -> list[tuple[int, int, str, bool]]:
    """(1-based line, 0-based column, line text, call-like) for each line naming the word."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if name not in line:
            continue
        matches = list(word.finditer(line))
        if matches:
            call_like = any(_CALL_AFTER.match(line, m.end()) for m in matches)
            found.append((number, matches[0].start(), line, call_like))
    return found


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
