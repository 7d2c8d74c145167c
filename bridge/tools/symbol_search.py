"""Workspace symbols across every language the workspace has, ranked by how well they match.

With no language given, the languages are those of the workspace's own
source files (a quick `git ls-files`-style listing, as the map makes): a
TypeScript repository is never asked as Python. Each language's server is
given one of its files first (tsserver has no project, and refuses
workspace/symbol, until a file is open), then asked; the answers are merged
and ranked: exact name, then prefix, then substring, then the server's own
fuzzy matches. A server that fails or is missing is a one-line warning, so
the other languages still answer.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bridge.context import AppContext
from bridge.contract.errors import ToolError, UnavailableError
from lsp import LspError, WorkspaceSymbol
from map import list_files

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


def match_rank(query: str, name: str) -> int:
    """EXACT, PREFIX, SUBSTRING or FUZZY: how `name` matches `query` (case first, then not)."""
    bare = name.split("(", 1)[0]  # some servers name methods with their signature
    folded, wanted = bare.casefold(), query.casefold()
    if bare == query or folded == wanted:
        return EXACT
    if folded.startswith(wanted):
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
    failures: list[str] = []
    for lang in languages:
        try:
            sample = present.get(lang)
            if sample is not None:
                with contextlib.suppress(LspError):  # opened even when its outline is slow
                    await app.live.prime([sample])
            found.extend(await ask(lang))
        except (ToolError, LspError) as exc:
            if language is not None and language not in present and isinstance(exc, ToolError):
                raise UnavailableError(
                    f"{exc.message} (the workspace has no {language} source files)",
                    code=exc.code,
                    hint="leave `language` out to ask the languages the workspace has",
                ) from exc
            if language is not None:
                raise
            failures.append(exc.message if isinstance(exc, ToolError) else str(exc))
    if failures and len(failures) == len(languages):
        raise UnavailableError(
            "; ".join(failures),
            code="server_error",
            hint="ask again; if it persists, run `codeanchor doctor`",
        )
    warnings = [f"{message}: its symbols are missing from this answer" for message in failures]
    if language is not None and language not in present:
        warnings.append(
            f"the workspace has no {language} source files: {language} was asked anyway"
        )
    return SymbolSearch(languages, ranked(query, found), warnings)
