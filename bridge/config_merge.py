"""One server entry merged into a client's configuration file, everything else kept.

JSON files are parsed and written back with the entry added under its key
(other keys and servers as they were, two-space indent). TOML files (Codex)
are edited as text: the entry's own table is appended or replaced and every
other line, comments included, stays; the result is parsed again and must
equal the old document plus the entry, or nothing is written.

An entry of the same name that serves another root (or is not codeanchor's)
is not replaced unless forced: it is probably another repository's.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any, Literal

from bridge.contract.errors import BadInputError

Change = Literal["added", "updated", "unchanged"]
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A server name: a bare TOML key, and plain in every client's list."""


def merge_json(
    text: str | None, key: str, name: str, entry: dict[str, Any], *, force: bool, where: str
) -> tuple[str, Change]:
    """`text` (None or blank: no file yet) with `entry` as `key.name`; and what changed.

    Raises BadInputError when `text` is not a JSON object (a file with comments
    is refused rather than rewritten without them), or when `name` holds another
    server's entry and not `force`.
    """
    document: Any = {}
    if text is not None and text.strip():
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadInputError(
                f"{where} is not plain JSON ({exc.msg} at line {exc.lineno}); nothing written: "
                "add the entry `codeanchor setup --dry-run` prints by hand"
            ) from exc
    if not isinstance(document, dict):
        raise BadInputError(f"{where} holds no JSON object; nothing written")
    servers = document.setdefault(key, {})
    if not isinstance(servers, dict):
        raise BadInputError(f"{where}: {key} is not an object; nothing written")
    change = _change(servers.get(name), entry, name, force=force, where=where)
    servers[name] = entry
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n", change


def merge_toml(
    text: str | None, key: str, name: str, entry: dict[str, Any], *, force: bool, where: str
) -> tuple[str, Change]:
    """`text` with the table `[key.name]` set to `entry` (see `merge_json`)."""
    old = text or ""
    try:
        document = tomllib.loads(old)
    except tomllib.TOMLDecodeError as exc:
        raise BadInputError(f"{where} is not valid TOML ({exc}); nothing written") from exc
    servers = document.get(key, {})
    if not isinstance(servers, dict):
        raise BadInputError(f"{where}: {key} is not a table; nothing written")
    change = _change(servers.get(name), entry, name, force=force, where=where)
    block = toml_table(f"{key}.{name}", entry)
    if name not in servers:
        new = f"{old.rstrip()}\n\n{block}" if old.strip() else block
    else:
        span = _table_span(old, key, name)
        if span is None:
            raise BadInputError(
                f"{where} defines {key}.{name} other than as a [{key}.{name}] table; "
                "nothing written: edit it by hand"
            )
        start, end = span
        rest = old[end:]
        new = old[:start] + block + ("\n" + rest if rest.strip() else "")
    expected = {**document, key: {**servers, name: entry}}
    if tomllib.loads(new) != expected:
        raise BadInputError(f"{where}: the edit would change more than {key}.{name}; not written")
    return new, change


def _change(existing: Any, entry: dict[str, Any], name: str, *, force: bool, where: str) -> Change:
    if existing is None:
        return "added"
    if existing == entry:
        return "unchanged"
    if force or _same_target(existing, entry):
        return "updated"
    raise BadInputError(
        f"{where} already has a server named {name!r} that serves something else "
        f"({json.dumps(existing)}); nothing written: choose another --name "
        "(e.g. codeanchor-REPO), or --force to replace it"
    )


def _same_target(existing: Any, entry: dict[str, Any]) -> bool:
    """Whether `existing` is a codeanchor entry serving the same root as `entry`."""
    if not isinstance(existing, dict) or not isinstance(existing.get("args"), list):
        return False
    command = str(existing.get("command", ""))
    ours = command.rsplit("/", 1)[-1] == "codeanchor" or "bridge.cli" in existing["args"]
    return ours and _root_of(existing["args"]) == _root_of(entry["args"])


def _root_of(args: list[Any]) -> Any:
    return args[args.index("--root") + 1] if "--root" in args[:-1] else None


def _table_span(text: str, key: str, name: str) -> tuple[int, int] | None:
    """Where the table `[key.name]` (with its sub-tables) is in `text`: from its
    header to the next other table's header or the end; None when it has no header."""
    quoted = f'(?:{re.escape(name)}|"{re.escape(name)}")'
    header = re.compile(rf"^[ \t]*\[[ \t]*{key}[ \t]*\.[ \t]*{quoted}[ \t]*\][ \t]*(#.*)?$", re.M)
    found = header.search(text)
    if found is None:
        return None
    own = re.compile(rf"^[ \t]*\[[ \t]*{key}[ \t]*\.[ \t]*{quoted}[ \t]*[.\]]")
    end = len(text)
    for line in re.finditer(r"^[ \t]*\[.*$", text[found.end() :], re.M):
        if not own.match(line.group()):
            end = found.end() + line.start()
            break
    return found.start(), end


def toml_table(name: str, entry: dict[str, Any]) -> str:
    """`entry` (strings and lists of strings) as the TOML table `[name]`."""
    lines = [f"[{name}]"]
    for field, value in entry.items():
        shown = (
            "[" + ", ".join(_toml_string(v) for v in value) + "]"
            if isinstance(value, list)
            else _toml_string(value)
        )
        lines.append(f"{field} = {shown}")
    return "\n".join(lines) + "\n"


def _toml_string(value: object) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but for DEL)."""
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")
