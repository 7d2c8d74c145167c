"""file:// URIs to paths and back (the LSP speaks URIs, the disk speaks paths)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse


def uri_of(path: Path) -> str:
    """The file:// URI of an absolute path (percent-encoded)."""
    return path.as_uri()


def path_of(uri: str) -> Path | None:
    """The absolute path a file:// URI names, or None for any other scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))
