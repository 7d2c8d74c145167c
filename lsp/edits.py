"""A server's WorkspaceEdit (a rename's answer) as text edits per file, and applying them.

Only text edits are taken: an edit that creates, renames or deletes files is
refused (`UnsupportedEditError`), as is one that touches a file outside the
root (disk's `OutsideRootError`). Edits are applied to a text in reverse
order; columns are UTF-16 (converted by `disk.columns`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lsprotocol import types

from disk.columns import from_utf16
from disk.errors import OutsideRootError
from disk.paths import relative_posix
from lsp.errors import LspError
from lsp.uris import path_of

_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
"""LSP's lines: ended by \\n, \\r\\n or \\r (not by the other breaks Python knows)."""


class UnsupportedEditError(LspError):
    """The server's edit does more than change text (creates, renames or deletes files)."""


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace the range (0-based lines, UTF-16 columns) with `new_text`."""

    start_line: int
    start_char: int
    end_line: int
    end_char: int
    new_text: str


@dataclass(frozen=True, slots=True)
class FileEdits:
    """The edits of one file: its repo-relative path, its real path, the edits."""

    path: str
    absolute: Path
    edits: tuple[TextEdit, ...]


def file_edits(root: Path, result: types.WorkspaceEdit | None) -> list[FileEdits]:
    """The text edits of a WorkspaceEdit per file, in path order (None: no edit)."""
    from lsprotocol import types  # loaded by a server's answer: applying edits needs none

    by_uri: dict[str, list[types.TextEdit | types.AnnotatedTextEdit]] = {}
    if result is not None:
        for change in result.document_changes or ():
            if not isinstance(change, types.TextDocumentEdit):
                raise UnsupportedEditError(
                    f"the server's edit also {type(change).__name__} "
                    "(creates, renames or deletes files): not applied by codeanchor"
                )
            by_uri.setdefault(change.text_document.uri, []).extend(
                e for e in change.edits if isinstance(e, types.TextEdit)
            )
        for uri, edits in (result.changes or {}).items():
            by_uri.setdefault(uri, []).extend(edits)
    found = [_of(root.resolve(), uri, edits) for uri, edits in by_uri.items() if edits]
    return sorted(found, key=lambda f: f.path)


def _of(
    root: Path, uri: str, edits: Sequence[types.TextEdit | types.AnnotatedTextEdit]
) -> FileEdits:
    path = path_of(uri)
    real = None if path is None else path.resolve()
    if real is None or not real.is_relative_to(root):
        raise OutsideRootError(
            f"{uri}: the edit reaches outside the workspace root; nothing is applied",
            path=uri,
        )
    return FileEdits(
        relative_posix(root, real),
        real,
        tuple(
            TextEdit(
                e.range.start.line,
                e.range.start.character,
                e.range.end.line,
                e.range.end.character,
                e.new_text,
            )
            for e in edits
        ),
    )


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """`text` with `edits` applied (non-overlapping, as LSP requires)."""
    lines = _LINES.findall(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, char: int) -> int:
        if line >= len(lines):
            return len(text)
        content = lines[line].rstrip("\r\n")
        return starts[line] + from_utf16(content, char)

    out = text
    ordered = sorted(edits, key=lambda e: (e.start_line, e.start_char), reverse=True)
    for edit in ordered:
        start = offset(edit.start_line, edit.start_char)
        end = offset(edit.end_line, edit.end_char)
        out = out[:start] + edit.new_text + out[end:]
    return out
