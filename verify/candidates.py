"""Candidate sites of a symbol: every line where a fast textual scan sees its name.

The live servers are the authority on what refers to a symbol; this scan is
what they are checked against. `scan` searches every file of the server's
languages under the root (as the map lists them: git's files, vendored
folders and `exclude` patterns left out) for the name as a whole word.
`verify.labels.label` then says what the lines an answer did not confirm hold:

| role         | the map sees there                              | source |
|--------------|-------------------------------------------------|--------|
| `definition` | a symbol of that name is defined                | map    |
| `call`       | a call of that name                             | map    |
| `inherits`   | a class or type extending or implementing it    | map    |
| `use`        | another use (a type, a value)                   | map    |
| `import`     | an import binding that name                     | map    |
| `mention`    | nothing: a comment or a string                  | text   |
| None         | not parsed (past the labels' parse limit)       | text   |

At most `MAX_SCANNED_FILES` files are searched (`capped` says when more were
there). Given a `verify.checkcache.CheckCache`, a file that did not change since
the last question is not read again.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from disk.errors import DiskError
from disk.text import decode_source, read_source_bytes
from map import list_files
from verify.checkcache import CheckCache, NameSites, ScanOptions
from verify.sites import Site

MAX_SCANNED_FILES = 20_000
_NAME = re.compile(r"[#$\w]+")
_WORD_AFTER = frozenset(b"$_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORD_BEFORE = _WORD_AFTER | {ord("#")}
"""Bytes around a name that make it part of a longer word (see the scan's pattern)."""
_CALL_AFTER = re.compile(r"\s*(?:<[^<>()]*>\s*)?\(")


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
