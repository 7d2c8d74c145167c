"""What linking takes from a repository besides its source files: its layout.

Go modules (go.mod directory -> module path), the TypeScript/JavaScript
project configuration (each tsconfig.json, jsconfig.json, package.json and
pnpm-workspace.yaml as map.linking.projects reads it) and PHP's Composer autoload
(each composer.json as map.linking.composer reads it). The intake reads them
(map.intake.configs); the linker re-binds every file's imports when the layout
moves, so that an edited tsconfig, package.json or composer.json relinks what it affects, as a
build from scratch would link it. A layout is stored with the map as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import orjson

ConfigFacts = Mapping[str, Any]
"""One configuration file as map.linking.projects reads it (JSON values)."""


@dataclass(frozen=True)
class Layout:
    """The repository's module layout (see the module's docstring); compared, never
    hashed (mappings inside)."""

    go_modules: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """go.mod directory (`""` for the root) -> the module path it declares."""
    scripts: Mapping[str, ConfigFacts] = field(default_factory=lambda: MappingProxyType({}))
    """Repo-relative path of each TS/JS configuration file read -> its facts."""
    composer: Mapping[str, ConfigFacts] = field(default_factory=lambda: MappingProxyType({}))
    """Repo-relative path of each composer.json read -> its autoload facts."""

    def dumps(self) -> bytes:
        """The layout as the map store keeps it."""
        return orjson.dumps(
            {
                "go": dict(self.go_modules),
                "scripts": dict(self.scripts),
                "composer": dict(self.composer),
            }
        )

    @classmethod
    def loads(cls, data: bytes | str) -> Layout:
        """A layout `dumps` wrote; ValueError when it is not one."""
        value = orjson.loads(data)
        if not isinstance(value, dict) or not isinstance(value.get("go"), dict):
            raise ValueError("not a map layout")
        scripts, composer = value.get("scripts"), value.get("composer")
        if not isinstance(scripts, dict) or not isinstance(composer, dict):
            raise ValueError("not a map layout")
        return cls({str(k): str(v) for k, v in value["go"].items()}, scripts, composer)
