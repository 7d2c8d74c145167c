"""Live outlines kept per file content, and a symbol found in one by name and line.

An outline is the file's own syntax, so the check cache keeps it by content
hash: asked again about an unchanged file, no server is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.stamps import content_hash
from disk.text import read_source_bytes
from lsp import DocumentSymbolNode, LspError
from verify.symbols import LiveSymbol, flatten, name_parts
from verify.workspace import Workspace


async def kept_outline(workspace: Workspace, path: str) -> Sequence[DocumentSymbolNode]:
    """The live outline of `path` ([] when the server fails). An outline is the
    file's own syntax, so it is kept per content hash (taken before and after the
    request: a file edited meanwhile is not kept, nor an empty outline)."""
    kept = workspace.check_cache.outlines
    digest = _digest(workspace, path)
    outline = kept.get((path, digest)) if digest is not None else None
    if outline is not None:
        return outline
    try:
        outline = tuple(await workspace.live.document_symbols(path))
    except (LspError, DiskError):
        return []
    if digest is None or not outline or workspace.live.still_loading(path):
        return outline  # an empty outline may come from a server still starting
    if _digest(workspace, path) == digest:
        kept.put((path, digest), outline)
    return outline


def _digest(workspace: Workspace, path: str) -> str | None:
    """The content hash of `path` now (None: unreadable)."""
    try:
        return content_hash(read_source_bytes(resolve_in_root(workspace.root, path)))
    except (DiskError, OSError):
        return None


async def symbol_named(workspace: Workspace, path: str, line: int, name: str) -> LiveSymbol | None:
    """The innermost symbol of the file's live outline named `name` whose range holds
    0-based `line` (a server's workspace symbol points at the range, a decorator's
    line, not the name); None when the outline has none. `name` may be spelled the
    server's way (`FlagSet.Get`, `(*FlagSet).Get`, `Shape::area`): its last part counts."""
    own = name_parts(name)[-1].rsplit(".", 1)[-1]
    symbols = flatten(path, await kept_outline(workspace, path))
    holding = [s for s in symbols if s.name == own and s.span.start_line <= line <= s.span.end_line]
    return max(holding, key=lambda s: s.span.start_line, default=None)
