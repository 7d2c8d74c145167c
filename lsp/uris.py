"""file:// URIs to paths and back (the LSP speaks URIs, the disk speaks paths)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlparse


def uri_of(path: Path) -> str:
    """The file:// URI of an absolute path (percent-encoded)."""
    return path.as_uri()


def path_of(uri: str) -> Path | None:
    """The absolute path a file:// URI names, `..` folded away (symlinks are left for
    the caller to resolve), or None for any other scheme, another host, or a
    path that is not absolute."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    path = unquote(parsed.path)
    if not path.startswith("/") or "\0" in path:
        return None
    return Path(os.path.normpath(path))
