"""Configuration as typed data, read from `[tool.codeanchor]` or `codeanchor.toml`.

`codeanchor.toml` in the root wins over `pyproject.toml`; with neither, the
defaults apply. Unknown keys and wrong types are a ConfigError naming the
file and the key, never silently ignored.

    [tool.codeanchor]
    budget_tokens = 2000          # default size cap of every answer
    stale_hint_after = 3          # stale map answers in a row before hinting map_rebuild
    watch = true                  # serve: watch the disk, rebuild the map after edits
    tools = ["nav", "map"]        # serve: only these tool families (default: all)
    output_schemas = "lean"       # tools/list: "lean" (data's own keys) or "full"
    servers = { python = "pyright" }   # which server serves a language
    [tool.codeanchor.live]        # request_timeout, cold_start_deadline, max_open_documents, ...
    [tool.codeanchor.map]         # max_file_bytes, exclude, workers
    [tool.codeanchor.memory]      # cosmetic_changes_stale
    [tool.codeanchor.cache]       # names_kept, roles_kept, trees_kept, outlines_kept
    [tool.codeanchor.server.NAME] # override or add a language server (see lsp.catalog)

What in a repository's configuration could run a program applies only once the
user trusts it: see `bridge.trust`.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bridge.contract.errors import BadInputError
from lsp import Catalog, catalog_from_config

if TYPE_CHECKING:
    from memory import CheckSettings

T = TypeVar("T")


class ConfigError(BadInputError):
    """The configuration file is invalid; the message names the file and key."""

    code = "bad_config"


@dataclass(frozen=True, slots=True)
class BridgeConfig:
    """Settings of the tool surface itself."""

    budget_tokens: int = 2000
    stale_hint_after: int = 3
    watch: bool = True
    """`serve` watches the disk and rebuilds the map after edits."""
    tools: tuple[str, ...] = ()
    """The tool families `serve` serves (nav, resolve, map, change, memory); empty: all."""
    output_schemas: str = "lean"
    """`lean`: tools/list publishes `data`'s own keys only; `full`: every nested shape."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything configurable, as found for one root."""

    bridge: BridgeConfig = field(default_factory=BridgeConfig)
    servers: Mapping[str, str] = field(default_factory=dict)
    server: Mapping[str, Any] = field(default_factory=dict)
    live: Mapping[str, Any] = field(default_factory=dict)
    map: Mapping[str, Any] = field(default_factory=dict)
    memory: Mapping[str, Any] = field(default_factory=dict)
    cache: Mapping[str, Any] = field(default_factory=dict)
    source: str | None = None


def catalog_of(config: Config) -> Catalog:
    """The server catalog with the configured choices and server tables applied."""
    try:
        return catalog_from_config({"servers": config.servers, "server": config.server})
    except ValueError as exc:
        raise ConfigError(f"{config.source}: {exc}") from exc


def memory_settings(config: Config) -> CheckSettings:
    """How memory checks weigh what changed (`[tool.codeanchor.memory]`)."""
    from memory import CheckSettings  # memory/ loads only for what asks about memories

    return build_dataclass(CheckSettings, config.memory, "[tool.codeanchor.memory]")


def load_config(root: Path) -> Config:
    """Read the configuration of `root` (defaults when there is none)."""
    own = root / "codeanchor.toml"
    pyproject = root / "pyproject.toml"
    if own.is_file():
        table, source = _read_toml(own), str(own)
    elif pyproject.is_file():
        table, source = _read_toml(pyproject).get("tool", {}).get("codeanchor", {}), str(pyproject)
        if not table:
            return Config()
    else:
        return Config()
    return _parse(table, source)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc


def _parse(table: Mapping[str, Any], source: str) -> Config:
    nested = ("servers", "server", "live", "map", "memory", "cache")
    bridge_keys = {k: v for k, v in table.items() if k not in nested}
    for key in nested:
        if not isinstance(table.get(key, {}), Mapping):
            raise ConfigError(f"{source}: [tool.codeanchor] {key} must be a table")
    return Config(
        bridge=build_dataclass(BridgeConfig, bridge_keys, f"{source} [tool.codeanchor]"),
        servers=dict(table.get("servers", {})),
        server=dict(table.get("server", {})),
        live=dict(table.get("live", {})),
        map=dict(table.get("map", {})),
        memory=dict(table.get("memory", {})),
        cache=dict(table.get("cache", {})),
        source=source,
    )


def build_dataclass(cls: type[T], table: Mapping[str, Any], where: str) -> T:
    """An instance of dataclass `cls` from a TOML table, checking keys and simple types."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(table) - set(fields))
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}"
        )
    values: dict[str, Any] = {}
    for key, value in table.items():
        default = fields[key].default
        if default is not dataclasses.MISSING and not _same_kind(default, value):
            raise ConfigError(f"{where}: {key} = {value!r} should be a {type(default).__name__}")
        values[key] = tuple(value) if isinstance(value, list) else value
    return cls(**values)


def _same_kind(default: object, value: object) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float)
    if isinstance(default, tuple):
        return isinstance(value, list | tuple)
    return isinstance(value, type(default))
