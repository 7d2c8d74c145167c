"""Workspace symbols across every language the workspace has, ranked by how well they match.

With no language given, the languages are those of the workspace's own
source files (a quick `git ls-files`-style listing, as the map makes): a
TypeScript repository is never asked as Python. Each language's server is
given one of its files first (tsserver has no project, and refuses
workspace/symbol, until a file is open), then asked; the answers are merged
and ranked: exact name (a qualified name's last part counts: gopls names
methods `Type.Method`), then prefix, then substring, then the server's own
fuzzy matches. A server that fails or is missing is a one-line warning, so
the other languages still answer. `name_symbols` then places each symbol at
its name, with its node ID, from its file's live outline.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from bridge.context import AppContext
from bridge.contract.errors import ToolError, UnavailableError
from bridge.contract.translate import as_tool_error
from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.text import read_source
from lsp import Location, LspError, WorkspaceSymbol
from map import list_files
from verify import LiveSymbol, symbol_named

EXACT, PREFIX, SUBSTRING, FUZZY = 0, 1, 2, 3

Ask = Callable[[str], Awaitable[list[WorkspaceSymbol]]]
"""Asks one language's server for the symbols matching the query."""


@dataclass(frozen=True)
class SymbolSearch:
    """What the servers found, ranked, and why some languages did not answer."""

    languages: list[str]
    symbols: list[WorkspaceSymbol]
    warnings: list[str]


def workspace_languages(app: AppContext) -> dict[str, str]:
    """Each language of the workspace's source files, most files first, with one of its files."""
    settings = app.map_settings
    catalog = app.live.catalog
    listing = list_files(
        app.root,
        accept=lambda rel: catalog.language_of(rel) is not None,
        exclude=settings.exclude,
        snapshot_dir=settings.snapshot_dir,
    )
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for rel in listing.files:
        language = catalog.language_of(rel)
        if language is not None:
            counts[language] += 1
            first.setdefault(language, rel)
    return {language: first[language] for language, _ in counts.most_common()}


_QUALIFIED = re.compile(r"\.|::")
"""What separates a qualified name's parts."""


def match_rank(query: str, name: str) -> int:
    """EXACT, PREFIX, SUBSTRING or FUZZY: how `name` matches `query` (case first, then
    not), its last part counting as the name when a server qualifies it (gopls names
    a method `Command.Run`; `a::b` in Rust and C++)."""
    bare = name.split("(", 1)[0]  # some servers name methods with their signature
    own = _QUALIFIED.split(bare)[-1]
    folded, wanted = bare.casefold(), query.casefold()
    if query in (bare, own) or wanted in (folded, own.casefold()):
        return EXACT
    if folded.startswith(wanted) or own.casefold().startswith(wanted):
        return PREFIX
    if wanted in folded:
        return SUBSTRING
    return FUZZY


def ranked(query: str, symbols: Sequence[WorkspaceSymbol]) -> list[WorkspaceSymbol]:
    """`symbols` best match first; ties keep a stable, readable order (name, path, line)."""
    return sorted(
        symbols,
        key=lambda s: (
            match_rank(query, s.name),
            s.name != query,
            len(s.name),
            s.location.path,
            s.location.line,
        ),
    )


async def search_symbols(
    app: AppContext, query: str, language: str | None, ask: Ask
) -> SymbolSearch:
    """`ask` the server of `language`, or of every language the workspace has, for `query`.

    Asked for one language, its failure is the answer's error; asked for all, a
    failing or missing server is a warning, and only all of them failing an error.
    A server still loading the workspace as it answered is a warning too.
    """
    present = workspace_languages(app)
    languages: list[str] = [language] if language is not None else list(present)
    if not languages:
        raise UnavailableError(
            "the workspace has no source file in a language codeanchor serves",
            code="no_source_files",
            hint="pass `language` to ask one server anyway",
        )
    found: list[WorkspaceSymbol] = []
    failures: list[ToolError] = []
    loading: list[str] = []
    for lang in languages:
        try:
            sample = present.get(lang)
            if sample is not None:
                with contextlib.suppress(LspError):  # opened even when its outline is slow
                    await app.live.prime([sample])
            found.extend(await ask(lang))
            if sample is not None and app.live.still_loading(sample):
                loading.append(lang)
        except (ToolError, LspError) as exc:
            if language is not None and language not in present and isinstance(exc, ToolError):
                raise UnavailableError(
                    f"{exc.message} (the workspace has no {language} source files)",
                    code=exc.code,
                    hint="leave `language` out to ask the languages the workspace has",
                ) from exc
            if language is not None:
                raise
            error = as_tool_error(exc)
            failures.append(error or UnavailableError(str(exc), code="server_error"))
    if failures and len(failures) == len(languages):
        raise _all_failed(failures)
    warnings = [f"{e.message}: its symbols are missing from this answer" for e in failures]
    warnings += [
        f"the {lang} server was still loading the workspace: symbols of files it had not "
        "loaded yet may be missing from this answer (ask again in a moment)"
        for lang in loading
    ]
    if language is not None and language not in present:
        warnings.append(
            f"the workspace has no {language} source files: {language} was asked anyway"
        )
    return SymbolSearch(languages, ranked(query, found), warnings)


def _all_failed(failures: Sequence[ToolError]) -> UnavailableError:
    """No language answered: one error, with the code the failures share (`no_server`
    with the install hints when no server is installed), else `server_error`."""
    codes = {e.code for e in failures}
    code = codes.pop() if len(codes) == 1 else "server_error"
    hints = dict.fromkeys(e.hint for e in failures if e.hint)
    if code != "no_server":
        hints = {"ask again; if it persists, run `codeanchor doctor`": None}
    return UnavailableError(
        "; ".join(e.message for e in failures), code=code, hint="; ".join(hints)
    )


NAMED_FILES = 24
"""Files whose live outline names the workspace symbols found in them (node ID, line)."""


async def name_symbols(
    app: AppContext, symbols: Sequence[WorkspaceSymbol]
) -> tuple[list[tuple[WorkspaceSymbol, LiveSymbol | None]], int]:
    """Each symbol at the line of its name, with itself in its file's live outline (its
    node ID and container), for the symbols of the first `NAMED_FILES` workspace files
    in rank order; and how many more files' symbols were left unnamed."""
    files = list(dict.fromkeys(s.location.path for s in symbols if not _external(s)))
    asked = set(files[:NAMED_FILES])
    live = await asyncio.gather(
        *(
            symbol_named(app, s.location.path, s.location.span.start_line, s.name)
            if s.location.path in asked
            else _nothing()
            for s in symbols
        )
    )
    named = [
        (s if found is None else _at_name(app, s, found), found)
        for s, found in zip(symbols, live, strict=True)
    ]
    return named, len(files) - len(asked)


async def _nothing() -> None:
    return None


def _external(symbol: WorkspaceSymbol) -> bool:
    return PurePosixPath(symbol.location.path).is_absolute()


def _at_name(app: AppContext, symbol: WorkspaceSymbol, live: LiveSymbol) -> WorkspaceSymbol:
    """`symbol` placed at the line and column of its name."""
    where = live.selection
    try:
        lines = read_source(resolve_in_root(app.root, symbol.location.path)).splitlines()
    except DiskError:
        return symbol
    text = lines[where.start_line] if where.start_line < len(lines) else ""
    place = Location(symbol.location.path, where, where.start_line + 1, text)
    return replace(symbol, location=place)
