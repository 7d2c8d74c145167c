"""Reading the project configuration the linker needs (map.linking.layout).

Every tsconfig.json, jsconfig.json, package.json and pnpm-workspace.yaml the
listing found (map.intake.walk) is read into its facts (map.linking.projects),
every composer.json into its autoload's (map.linking.composer),
then each file an `extends` names, wherever it is in the root (a base config
beside it, a package's tsconfig in node_modules): each `extends` entry gets
the `path` it was found at. A file that cannot be read, or a path that leads
out of the root, is kept with its `error` or without a `path`, never fatal.
Files whose stat stamp did not move since the `previous` read are not read again.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.stamps import FileStamp
from map.linking.composer import COMPOSER_FILE, read_composer
from map.linking.projects import extends_candidates, problems_of, read_config

MAX_CONFIG_BYTES = 1 << 20
"""A configuration file larger than this is not read (kept with an `error`)."""

log = logging.getLogger(__name__)

Read = dict[str, tuple[FileStamp | None, dict[str, Any]]]
"""Repo-relative path -> (its stamp when read, its facts)."""


def read_configs(root: Path, listed: Mapping[str, FileStamp], previous: Read) -> Read:
    """The facts of the `listed` configuration files and of every file their `extends`
    chains name (see the module's docstring); `previous`: what the last read found."""
    found: Read = {}
    queue = sorted(listed)
    while queue:
        path = queue.pop(0)
        if path in found:
            continue
        stamp = listed.get(path) or _stamp(root, path)
        known = previous.get(path)
        if known is not None and stamp is not None and known[0] == stamp:
            facts = known[1]
        else:
            read = read_composer if path.rpartition("/")[2] == COMPOSER_FILE else read_config
            facts = read(path, _text(root, path))
            for base in facts.get("extends", ()):
                base["path"] = _first_file(root, extends_candidates(path, base["spec"]))
            for problem in problems_of(path, facts):
                log.warning("%s: imports it configures may be left open", problem)
        found[path] = (stamp, facts)
        queue += [b["path"] for b in facts.get("extends", ()) if b.get("path")]
    return found


def _stamp(root: Path, path: str) -> FileStamp | None:
    try:
        return FileStamp.of(resolve_in_root(root, path, must_exist=False))
    except DiskError:
        return None


def _text(root: Path, path: str) -> str | None:
    try:
        real = resolve_in_root(root, path)
        if real.stat().st_size > MAX_CONFIG_BYTES:
            return None
        return real.read_text("utf-8", errors="replace")
    except (DiskError, OSError):
        return None


def _first_file(root: Path, candidates: list[str]) -> str | None:
    """The first of `candidates` that is a file inside the root."""
    for candidate in candidates:
        try:
            resolve_in_root(root, candidate)
        except DiskError:
            continue
        return candidate
    return None
