"""`dependencies_changed`: a symbol unchanged itself whose direct callees changed.

The map gives a symbol's callees (`CodeMap.uses_of`); for each callee in a file
git reports changed since the anchor commit, the callee's fingerprint at that
commit (`git show`, extracted once per file) is compared with its
fingerprint now. Outside git, or for symbols the map does not know, no
warning is given: the check says nothing it cannot back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from disk.errors import DiskError
from disk.stamps import content_hash
from map import Fingerprint, extract_file, language_for
from memory.anchor import find_symbol
from memory.bodies import symbol_id
from memory.git import BlobReader, Change
from memory.model import Anchor, RefCheck
from memory.workspace import Workspace

if TYPE_CHECKING:
    from map import CodeMap

CALLS: Final = "calls"


class CalleeProbe:
    """Names the direct callees of a checked symbol that changed since its anchor commit."""

    def __init__(self, ws: Workspace, code_map: CodeMap) -> None:
        self.ws = ws
        self.code_map = code_map
        self._old: dict[tuple[str, str], dict[str, Fingerprint] | None] = {}
        self._blobs = BlobReader(ws.root)
        self._renames: dict[str, dict[str, str]] = {}
        self._by_content: dict[tuple[str, str], dict[str, Fingerprint]] = {}

    def __enter__(self) -> CalleeProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        self._blobs.close()

    def __call__(self, anchor: Anchor, result: RefCheck) -> tuple[str, ...]:
        place = result.place
        if self.ws.git is None or anchor.commit is None or place is None or not place.symbol:
            return ()
        node = f"{place.path}#{place.symbol}"
        changes = self.ws.changes(anchor.commit)
        if changes is None:
            return ()
        callees = self.code_map.uses_of(node, CALLS)
        if not callees:
            return ()
        renamed_from = self._renamed_from(anchor.commit, changes)
        changed = []
        for callee in callees:
            if callee["kind"] == "file":
                continue
            path = callee["path"]
            old_path = renamed_from.get(path, path)
            if old_path not in changes and path not in changes:
                continue
            if self._differs(anchor.commit, old_path, path, callee["id"].partition("#")[2]):
                changed.append(callee["id"])
        return tuple(sorted(changed))

    def _renamed_from(self, commit: str, changes: Mapping[str, Change]) -> dict[str, str]:
        """New path -> old path of the files git saw renamed since `commit`."""
        if commit not in self._renames:
            self._renames[commit] = {
                c.new_path: old for old, c in changes.items() if c.kind == "renamed" and c.new_path
            }
        return self._renames[commit]

    def _differs(self, commit: str, old_path: str, path: str, name: str) -> bool:
        then = self._fingerprints_at(commit, old_path)
        file = self.ws.readable(path)
        symbol = find_symbol(self.ws, file, name) if file is not None else None
        if then is None or symbol is None or name not in then:
            return True
        return then[name].normalized != symbol.fingerprint.normalized

    def _fingerprints_at(self, commit: str, path: str) -> dict[str, Fingerprint] | None:
        """The symbols' fingerprints of `path` at `commit` (extracted once per content)."""
        key = (commit, path)
        if key not in self._old:
            data = self._blobs.read(commit, path) if self.ws.git else None
            self._old[key] = None
            if data is not None and language_for(path) is not None:
                by_content = (path, content_hash(data))
                if by_content not in self._by_content:
                    try:
                        extract = extract_file(path, data)
                    except DiskError:
                        return None
                    self._by_content[by_content] = {
                        symbol_id(s): s.fingerprint for s in extract.symbols
                    }
                self._old[key] = self._by_content[by_content]
        return self._old[key]
