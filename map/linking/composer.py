"""PHP's Composer autoload: where a class of a namespace lives, as composer.json says.

`read_composer` turns one composer.json into its facts (a JSON-able dict the map
keeps with its layout, map.linking.layout): the `psr-4`, `psr-0` and `classmap`
entries of `autoload` and `autoload-dev`, each folder relative to the repository.
`Autoload` answers from every composer.json of the repository at once (Composer
merges a project's packages' autoloads): the files a class or a namespace may be in
(`FastRoute\\RouteParser\\Std` is src/RouteParser/Std.php under `"FastRoute\\":
"src/"`), and whether a namespace is one the project's autoload claims at all (then
the answer is sure: a class it does not find is not ours). A composer.json that
cannot be read claims nothing.
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
                    facts[field].append([prefix.strip("\\"), _joined(base, folder)])
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
        self._rules: list[tuple[list[str], str, bool]] = []
        """(namespace prefix parts, folder, psr-0) of every rule, longest prefix first."""
        self.classmap: tuple[str, ...] = ()
        """The classmap's folders and files (any class in them is ours)."""
        for facts in composer.values():
            for field, psr0 in (("psr4", False), ("psr0", True)):
                for prefix, folder in facts.get(field, ()):
                    self._rules.append((_parts(prefix), folder, psr0))
            self.classmap += tuple(facts.get("classmap", ()))
        self._rules.sort(key=lambda rule: -len(rule[0]))

    def claims(self, namespace: str) -> bool:
        """Whether a rule of the project's autoload covers the namespace (a class of
        it that no rule finds is no class of ours)."""
        parts = _parts(namespace)
        return any(parts[: len(prefix)] == prefix for prefix, _, _ in self._rules)

    def folders(self, namespace: str) -> list[str]:
        """The folders the namespace's classes are autoloaded from, most specific
        rule first."""
        return [folder for folder, _ in self._places(namespace)]

    def class_files(self, namespace: str, name: str) -> list[str]:
        """The files its rules say may hold class `name` of `namespace` (PSR-0's `_`
        in a class name is a folder)."""
        return [
            posixpath.join(folder, (name.replace("_", "/") if psr0 else name) + ".php")
            for folder, psr0 in self._places(namespace)
        ]

    def _places(self, namespace: str) -> list[tuple[str, bool]]:
        parts = _parts(namespace)
        found: list[tuple[str, bool]] = []
        for prefix, folder, psr0 in self._rules:
            if parts[: len(prefix)] == prefix:
                rest = parts if psr0 else parts[len(prefix) :]
                found.append((posixpath.join(folder, *rest), psr0))
        return found


def _parts(namespace: str) -> list[str]:
    return [part for part in namespace.split("\\") if part]
