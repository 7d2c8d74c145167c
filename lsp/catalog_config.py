"""The server catalog as a user configured it in `[tool.codeanchor]`.

    [tool.codeanchor]
    servers = { python = "pyright" }     # which server serves a language
    [tool.codeanchor.server.gopls]       # change fields of a known server
    env = { GOFLAGS = "-mod=vendor" }
    [tool.codeanchor.server.jdtls]       # or add one
    command = ["jdtls"]
    languages = ["java"]
    extensions = [".java"]
    install = "see https://github.com/eclipse-jdtls/eclipse.jdt.ls"

The keys of a server table are the fields of `ServerSpec`, plus `extensions`
(each gets the first language as its languageId). Invalid configuration raises
ValueError naming the table, the key and what is expected.

A server table can make codeanchor run any program (its command, version
command, environment, and settings a server acts on), so a caller that does
not trust the table's author applies `without_commands(table)` instead: the
built-in servers, and choices among them. `configured_servers` says what a
table would run, for a person deciding whether to trust it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lsp.catalog import BUILTIN_SERVERS, Catalog, ServerSpec

_SECTION = "[tool.codeanchor]"


def catalog_from_config(table: Mapping[str, Any], base: Catalog | None = None) -> Catalog:
    """The catalog `base` (default: the built-in one) as `table` overrides it.

    `table` is the parsed `[tool.codeanchor]` table; only its `servers` and
    `server` keys are read.
    """
    base = Catalog.builtin() if base is None else base
    choice = _string_map(table.get("servers", {}), f"{_SECTION} servers")
    tables = table.get("server", {})
    if not isinstance(tables, Mapping):
        raise ValueError(f"{_SECTION} server must be a table of server tables, got {tables!r}")
    specs = {
        name: _server(str(name), fields, base.servers.get(str(name)))
        for name, fields in tables.items()
    }
    catalog = base.with_overrides(choice, specs)
    for language, name in choice.items():
        spec = catalog.servers[name]
        if language not in spec.languages:
            raise ValueError(
                f"{_SECTION} servers: {name} does not serve {language} (it serves "
                f"{', '.join(spec.languages)}); add {language!r} to its languages in "
                f"[tool.codeanchor.server.{name}]"
            )
    return catalog


@dataclass(frozen=True, slots=True)
class ConfiguredServer:
    """A server as a configuration table makes it: what it runs, and for what."""

    name: str
    command: tuple[str, ...]
    env: Mapping[str, str]
    chosen_for: tuple[str, ...]
    """The languages it serves (chosen for) in the configured catalog."""
    keys: tuple[str, ...]
    """The keys the table sets (command, env, settings, ...)."""


def configured_servers(table: Mapping[str, Any]) -> list[ConfiguredServer]:
    """Each server that `table` adds or changes, as the configured catalog runs it."""
    catalog = catalog_from_config(table)
    tables: Mapping[str, Any] = table.get("server", {})
    return [
        ConfiguredServer(
            name=spec.name,
            command=spec.command,
            env=dict(spec.env),
            chosen_for=tuple(sorted(lang for lang, n in catalog.choice.items() if n == spec.name)),
            keys=tuple(sorted(tables[spec.name])),
        )
        for spec in (catalog.servers[str(name)] for name in tables)
    ]


def without_commands(table: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """`table` without anything that could run a program the built-in catalog does not,
    and a description of each thing left out (empty: nothing was).

    Every server table goes (it can set a command, its environment, or settings
    that make a server run one); a choice stays when it names a built-in server,
    which runs its built-in command found on PATH, just as the default does.
    """
    builtin = {spec.name for spec in BUILTIN_SERVERS}
    choice = _string_map(table.get("servers", {}), f"{_SECTION} servers")
    tables = _table(table.get("server", {}), f"{_SECTION} server")
    left_out = [
        f"[server.{name}] ({', '.join(sorted(map(str, fields)))})"
        if isinstance(fields, Mapping)
        else f"[server.{name}]"
        for name, fields in tables.items()
    ]
    left_out += [
        f"servers.{language} = {name!r}" for language, name in choice.items() if name not in builtin
    ]
    kept = {language: name for language, name in choice.items() if name in builtin}
    return {**table, "servers": kept, "server": {}}, tuple(left_out)


def _server(name: str, fields: object, known: ServerSpec | None) -> ServerSpec:
    where = f"[tool.codeanchor.server.{name}]"
    if not isinstance(fields, Mapping):
        raise ValueError(f"{where} must be a table, got {fields!r}")
    unknown = sorted(set(fields) - set(_PARSERS) - {"extensions"})
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted([*_PARSERS, 'extensions']))}"
        )
    values = {
        key: _PARSERS[key](value, f"{where} {key}")
        for key, value in fields.items()
        if key != "extensions"
    }
    if known is None:
        missing = [key for key in ("command", "languages") if key not in values]
        if "language_ids" not in values and "extensions" not in fields:
            missing.append("extensions")
        if missing:
            raise ValueError(
                f"{where}: a new server needs {', '.join(missing)} "
                f"(the built-in servers are {', '.join(s.name for s in BUILTIN_SERVERS)})"
            )
        values.setdefault("install", f"install {name} yourself (configured in {where})")
        values.setdefault("language_ids", {})
        spec = ServerSpec(name=name, **values)
    else:
        spec = dataclasses.replace(known, **values)
    if "extensions" in fields:
        extensions = _extensions(fields["extensions"], f"{where} extensions")
        ids = {ext: spec.language_ids.get(ext, spec.languages[0]) for ext in extensions}
        spec = dataclasses.replace(spec, language_ids={**values.get("language_ids", {}), **ids})
    return spec


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{where} must be a list of non-empty strings, got {value!r}")
    return tuple(value)


def _nonempty_strings(value: object, where: str) -> tuple[str, ...]:
    strings = _strings(value, where)
    if not strings:
        raise ValueError(f"{where} must not be empty")
    return strings


def _string(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where} must be a non-empty string, got {value!r}")
    return value


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{where} must be true or false, got {value!r}")
    return value


def _seconds(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 60:
        raise ValueError(f"{where} must be a number of seconds from 0 to 60, got {value!r}")
    return float(value)


def _share(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10:
        raise ValueError(f"{where} must be a share of the working size from 0 to 10, got {value!r}")
    return float(value)


def _table(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a table, got {value!r}")
    return {str(k): v for k, v in value.items()}


def _string_map(value: object, where: str) -> dict[str, str]:
    table = _table(value, where)
    for key, item in table.items():
        if not isinstance(item, str):
            raise ValueError(f"{where}: {key} must be a string, got {item!r}")
    return table


def _extension(value: str, where: str) -> str:
    if not value.startswith(".") or len(value) < 2:
        raise ValueError(f'{where}: {value!r} is not a file extension like ".go"')
    return value.lower()


def _extensions(value: object, where: str) -> tuple[str, ...]:
    return tuple(_extension(ext, where) for ext in _nonempty_strings(value, where))


def _language_ids(value: object, where: str) -> dict[str, str]:
    return {_extension(ext, where): lid for ext, lid in _string_map(value, where).items()}


_PARSERS: Mapping[str, Callable[[object, str], Any]] = {
    "languages": _nonempty_strings,
    "command": _nonempty_strings,
    "install": _string,
    "language_ids": _language_ids,
    "version_args": _strings,
    "version_executable": _string,
    "version_package": _string,
    "initialization_options": _table,
    "settings": _table,
    "env": _string_map,
    "watches_disk": _flag,
    "open_before_references": _flag,
    "blank_deleted_files": _flag,
    "touch_with_new_text": _flag,
    "prime_before_search": _flag,
    "pull_through_tsserver": _flag,
    "indexing_progress": _strings,
    "indexing_progress_requires": _strings,
    "ready_log": _strings,
    "setup_files": _strings,
    "compile_commands_arg": _string,
    "publish_quiet_s": _seconds,
    "memory_swing": _share,
}
