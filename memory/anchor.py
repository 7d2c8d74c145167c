"""Capture a reference as it is now: commit, branch, dirty flag, hashes, text.

`capture` refuses a reference that does not resolve now (no such file,
symbol or lines), so a memory is never saved pointing at nothing. The
check measures the code now exactly as this measured it at save time: both
read a symbol's text with `workspace.symbol_text` and a range's with
`FileNow.span`.
"""

from __future__ import annotations

import difflib

from disk.errors import DiskError
from disk.stamps import content_hash
from map import Symbol
from memory.bodies import body_fingerprint, symbol_id, symbol_text
from memory.errors import MemoryInputError, MemoryNotFoundError, UnknownMemoryError
from memory.files import FileNow
from memory.model import Anchor, RefSpec
from memory.workspace import Workspace

TEXT_CAP = 32_000
"""Characters of referenced text kept with a symbol or line-range anchor."""
FILE_TEXT_CAP = 4_000
"""Characters kept of a whole file: its check goes by hash, the text is for people."""


def capture(ws: Workspace, spec: RefSpec) -> Anchor:
    """Anchor `spec` to the code now.

    Raises MemoryNotFoundError (no such file), UnknownMemoryError (no such symbol, with
    the nearest names) or MemoryInputError (lines past the end, unreadable file).
    """
    try:
        file = ws.read(spec.path)
    except DiskError as exc:
        raise MemoryInputError(f"{spec}: {exc}", hint="anchor to a text source file") from exc
    if file is None:
        raise MemoryNotFoundError(f"{spec}: no such file under {ws.root}", code="file_not_found")
    body: str | None = None
    container: tuple[str, ...] = ()
    if spec.type == "symbol":
        if ws.outline(file) is None:
            raise MemoryInputError(
                f"{spec}: symbols are not extracted from {spec.path} (unsupported file type)",
                hint="reference the whole file or a line range (path:START-END) instead",
            )
        symbol = find_symbol(ws, file, spec.symbol or "")
        if symbol is None:
            raise UnknownMemoryError(
                f"{spec}: no symbol {spec.symbol!r} in {spec.path}",
                suggestions=_near_symbols(ws, file, spec),
            )
        start, end = symbol.range.first_line, symbol.range.last_line
        text = symbol_text(file, symbol)
        exact, normalized = symbol.fingerprint.exact, symbol.fingerprint.normalized
        body, container = body_fingerprint(text, symbol.name), symbol.container
    elif spec.type == "line_range":
        start, end = spec.start_line or 1, spec.end_line or 1
        if end > len(file.lines):
            raise MemoryInputError(
                f"{spec}: {spec.path} has only {len(file.lines)} lines",
                hint="pick lines that exist now",
            )
        text = file.span(start, end)
        exact, normalized = content_hash(text.encode()), ws.range_fingerprint(file, start, end)
    else:
        start, end, text = 1, len(file.lines), file.text
        exact, normalized = file.hash, ws.file_fingerprint(file)
    cap = FILE_TEXT_CAP if spec.type == "file" else TEXT_CAP
    return Anchor(
        spec=spec,
        commit=ws.head,
        branch=ws.branch,
        dirty=ws.is_dirty(spec.path),
        content_hash=exact,
        fingerprint=normalized,
        file_hash=file.hash,
        text=text[:cap],
        truncated=len(text) > cap,
        start_line=start,
        end_line=end,
        body_fingerprint=body,
        container=container,
    )


def find_symbol(ws: Workspace, file: FileNow, name: str) -> Symbol | None:
    """The symbol called `name` (as in its node ID) in `file`, if any."""
    return ws.index(file).by_id.get(name)


def symbols_of(ws: Workspace, file: FileNow) -> tuple[Symbol, ...]:
    """Every symbol in `file` (none for files in unknown languages)."""
    outline = ws.outline(file)
    return outline.symbols if outline else ()


def _near_symbols(ws: Workspace, file: FileNow, spec: RefSpec) -> list[str]:
    names = [symbol_id(s) for s in symbols_of(ws, file)]
    near = difflib.get_close_matches(spec.symbol or "", names, n=3, cutoff=0.5)
    return [f"{spec.path}#{n}" for n in near]
