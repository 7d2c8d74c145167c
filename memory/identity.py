"""Which repository a workspace is, independent of where it is checked out.

A store shared by a team (PostgreSQL) holds the memories of many
repositories; each clone, agent and CI job must find its own repository's
memories whatever its path. The identity is the repository's root commit
(the first commit with no parent, the same in every clone) plus its remote
URL normalized (`git@host:a/b.git`, `https://user@host/a/b` and
`ssh://host/a/b/` all become `host/a/b`). A remote that is a path on this
machine (a local clone's `origin`) names a place, not a project, and is left
out. A directory outside git is known by its absolute path.
"""

from __future__ import annotations

import re
from pathlib import Path

from memory.git import GitError, GitRepo

_SCP_LIKE = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>[^/].*)$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/]+@)?(?P<host>[^/:]+)(?::\d+)?(?P<path>/.*)?$")


def repository_identity(root: Path) -> str:
    """`git:<root commit>[@<host/path>]`, or `path:<absolute root>` outside git."""
    repo = GitRepo.discover(root)
    if repo is None:
        return f"path:{root.resolve()}"
    try:
        roots = sorted(repo.run("rev-list", "--max-parents=0", "HEAD").split())
    except GitError:
        roots = []
    if not roots:  # a repository with no commit yet
        return f"path:{root.resolve()}"
    try:
        remote = repo.run("config", "--get", "remote.origin.url").strip()
    except GitError:
        remote = ""
    normalized = normalize_remote(remote)
    return f"git:{roots[0]}" + (f"@{normalized}" if normalized else "")


def normalize_remote(url: str) -> str | None:
    """`host/owner/name` for a network remote; None for a local path or nothing."""
    url = url.strip()
    if not url or url.startswith(("/", ".", "~", "file://")):
        return None
    match = _URL.match(url) or _SCP_LIKE.match(url)
    if match is None:
        return None
    path = (match.group("path") or "").strip("/")
    path = path.removesuffix(".git").strip("/")
    return f"{match.group('host').lower()}/{path}" if path else match.group("host").lower()
