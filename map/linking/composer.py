"""PHP's Composer autoload: where a class of a namespace lives, as composer.json says.

`read_composer` turns one composer.json into its facts (a JSON-able dict the map
keeps with its layout, map.linking.layout): the `psr-4`, `psr-0` and `classmap`
entries of `autoload` and `autoload-dev`, each folder relative to the repository.
`Autoload` answers from every composer.json of the repository at once (Composer
merges a project's packages' autoloads): the files a class or a namespace may be in
(`FastRoute\\RouteParser\\Std` is src/RouteParser/Std.php under `"FastRoute\\":
"src/"`). A composer.json that cannot be read maps nothing.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

import orjson

from map.linking.layout import ConfigFacts

COMPOSER_FILE = "composer.json"
_SECTIONS = ("autoload", "autoload-dev")


def read_composer(path: str, text: str | None) -> dict[str, Any]:
    """The autoload facts of the composer.json at repo-relative `path` (see the
    module's docstring); `text` None: the file could not be read."""
    if text is None:
        return {"kind": "composer", "error": "unreadable"}
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return {"kind": "composer", "error": f"not valid JSON ({str(exc)[:120]})"}
    if not isinstance(value, dict):
        return {"kind": "composer", "error": "not a JSON object"}
    base = posixpath.dirname(path)
    facts: dict[str, Any] = {"kind": "composer", "psr4": [], "psr0": [], "classmap": []}
    for section in (value.get(s) for s in _SECTIONS):
        if not isinstance(section, dict):
            continue
        for key, field in (("psr-4", "psr4"), ("psr-0", "psr0")):
            rules = section.get(key)
            for prefix, folders in rules.items() if isinstance(rules, dict) else ():
                for folder in _strings(folders):
                    facts[field].append([prefix.lstrip("\\"), _joined(base, folder)])
        facts["classmap"] += [_joined(base, f) for f in _strings(section.get("classmap"))]
    return facts


def _strings(value: object) -> list[str]:
    """A list of strings (a lone string as one), anything else left out."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _joined(base: str, folder: str) -> str:
    """A folder of a composer.json in `base`, repo-relative (`""`: the root)."""
    joined = posixpath.normpath(posixpath.join(base, folder.strip("/") or "."))
    return "" if joined == "." else joined


class Autoload:
    """Where the repository's composer.json files autoload classes from (see the
    module's docstring)."""

    def __init__(self, composer: Mapping[str, ConfigFacts]) -> None:
        self._psr4: list[tuple[list[str], str]] = []
        """(namespace prefix parts, folder) of every PSR-4 rule, longest prefix first."""
        self._psr0: list[tuple[str, str]] = []
        """(prefix of the class's full name, folder) of every PSR-0 rule."""
        self.classmap: tuple[str, ...] = ()
        """The classmap's folders and files (any class in them is ours)."""
        for facts in composer.values():
            self._psr4 += [(_parts(prefix), folder) for prefix, folder in facts.get("psr4", ())]
            self._psr0 += [(prefix, folder) for prefix, folder in facts.get("psr0", ())]
            self.classmap += tuple(facts.get("classmap", ()))
        self._psr4.sort(key=lambda rule: -len(rule[0]))

    def folders(self, namespace: str) -> list[str]:
        """The folders the namespace's classes are autoloaded from, most specific
        PSR-4 rule first, then PSR-0's."""
        parts = _parts(namespace)
        found = [
            posixpath.join(folder, *parts[len(prefix) :])
            for prefix, folder in self._psr4
            if parts[: len(prefix)] == prefix
        ]
        return found + [
            posixpath.join(folder, *parts)
            for prefix, folder in self._psr0
            if f"{namespace}\\".startswith(prefix) or namespace.startswith(prefix)
        ]

    def class_files(self, namespace: str, name: str) -> list[str]:
        """The files its rules say may hold class `name` of `namespace` (PSR-0's `_`
        in a class name is a folder)."""
        parts = _parts(namespace)
        found = [
            posixpath.join(folder, *parts[len(prefix) :], f"{name}.php")
            for prefix, folder in self._psr4
            if parts[: len(prefix)] == prefix
        ]
        full = "\\".join((*parts, name))
        return found + [
            posixpath.join(folder, *parts, name.replace("_", "/") + ".php")
            for prefix, folder in self._psr0
            if full.startswith(prefix)
        ]


def _parts(namespace: str) -> list[str]:
    return [part for part in namespace.split("\\") if part]
