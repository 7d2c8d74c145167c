"""Import and export memories as JSON Lines (the format of docs/contracts.md, CLI).

One memory per line: `{"text", "refs": [REF, ...], "kind"?, "tags"?}` (and
`"origin"?`). Export writes the same format back with the memory's ID,
status, times and check results; import accepts those keys and ignores them,
so an export can be imported elsewhere. Import is all or nothing: the first
bad line refuses the whole file and is named in the error.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, cast

import orjson

from memory.errors import MemoryInputError, MemoryNotFoundError
from memory.model import ORIGINS, Memory, MemoryCheck, Origin
from memory.service import DEFAULT_KIND, MemoryService, NewMemory
from memory.views import memory_check, memory_view

IMPORT_KEYS = frozenset({"text", "refs", "kind", "tags", "origin"})
EXPORT_ONLY_KEYS = frozenset(
    {"id", "status", "createdAt", "lastUsedAt", "lastVerifiedAt", "supersededBy", "check"}
    # what exports before the camelCase keys (issue 13) wrote: they still import
    | {"created_at", "last_used_at", "last_verified_at", "superseded_by"}
)


def parse_lines(lines: Iterable[str], *, source: str) -> tuple[list[NewMemory], list[str]]:
    """Parse JSONL into memories to save and their `source:line` names; blank lines are skipped."""
    news: list[NewMemory] = []
    where: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        name = f"{source}:{number}"
        news.append(_parse_line(line, name))
        where.append(name)
    if not news:
        raise MemoryInputError(f"{source}: no memories in it", hint="one JSON object per line")
    return news, where


def _parse_line(line: str, name: str) -> NewMemory:
    try:
        item = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise MemoryInputError(f"{name}: not valid JSON ({exc})") from exc
    if not isinstance(item, dict):
        raise MemoryInputError(f"{name}: expected a JSON object per line")
    unknown = sorted(set(item) - IMPORT_KEYS - EXPORT_ONLY_KEYS)
    if unknown:
        raise MemoryInputError(
            f"{name}: unknown key(s) {', '.join(unknown)}",
            hint='a line holds "text", "refs", and optionally "kind", "tags", "origin"',
        )
    text, refs = item.get("text"), item.get("refs")
    if not isinstance(text, str):
        raise MemoryInputError(f'{name}: "text" must be a string')
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise MemoryInputError(f'{name}: "refs" must be a list of reference strings')
    kind = item.get("kind", DEFAULT_KIND)
    tags = item.get("tags", [])
    origin = item.get("origin", "human")
    if not isinstance(kind, str):
        raise MemoryInputError(f'{name}: "kind" must be a string')
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise MemoryInputError(f'{name}: "tags" must be a list of strings')
    if origin not in ORIGINS:
        raise MemoryInputError(f'{name}: "origin" must be "agent" or "human"')
    return NewMemory(text, tuple(refs), kind, tuple(tags), cast(Origin, origin))


def import_file(service: MemoryService, path: Path) -> list[Memory]:
    """Import a JSONL file, all or nothing; the IDs come back in line order."""
    try:
        content = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise MemoryNotFoundError(f"{path}: no such file", code="file_not_found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise MemoryInputError(f"{path}: cannot be read as UTF-8 text ({exc})") from exc
    news, where = parse_lines(content.splitlines(), source=str(path))
    return service.save_many(news, where=where)


def export_lines(checks: Iterable[MemoryCheck]) -> Iterator[str]:
    """One JSON line per memory: the import format plus ID, status, times and check."""
    for result in checks:
        view = memory_view(result.memory)
        line: dict[str, Any] = {
            "text": view["text"],
            "refs": view["refs"],
            "kind": view["kind"],
            "tags": view["tags"],
            "origin": view["origin"],
            "id": view["id"],
            "status": result.status,
            "createdAt": view["createdAt"],
            "lastUsedAt": view["lastUsedAt"],
            "lastVerifiedAt": view["lastVerifiedAt"],
            "supersededBy": view["supersededBy"],
            "check": memory_check(result),
        }
        yield orjson.dumps(line).decode()
