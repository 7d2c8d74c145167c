"""The memory operations the CLI and the MCP tools share.

One `MemoryService` per workspace and store. Every operation validates all
of its input before it writes anything, and writes in one transaction, so a
refused request leaves the store as it was. Reading (show, recall) records
`last_used_at` only; only `verify` sets `last_verified_at`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memory.anchor import capture
from memory.changes import Diff, Touched, symbol_changes, touched
from memory.check import check_memories
from memory.deps import CALLS, CalleeProbe
from memory.errors import MemoryInputError
from memory.git import GitRepo
from memory.live import LiveConfirm
from memory.model import (
    MEMORY_STATUSES,
    ORIGINS,
    CheckSettings,
    Memory,
    MemoryCheck,
    Origin,
    RefCheck,
    RefSpec,
)
from memory.recall import Recalled, recall
from memory.refs import RefParser
from memory.stores import MemoryBackend, StoreLocation, open_store, store_exists, store_location
from memory.symdiff import SymbolChange
from memory.workspace import Workspace

if TYPE_CHECKING:
    from map import CodeMap  # the graph library: only with a map passed in

DEFAULT_KIND = "fact"
_KIND = re.compile(r"^[A-Za-z][\w-]{0,39}$")


@dataclass(frozen=True, slots=True)
class NewMemory:
    """What a caller asks to save: text, reference strings, kind, tags."""

    text: str
    refs: tuple[str, ...]
    kind: str = DEFAULT_KIND
    tags: tuple[str, ...] = ()
    origin: Origin = "agent"
    draft: bool = False
    """A draft is kept and checked but keeps its status until someone changes it."""


def now_stamp() -> str:
    """The current time, ISO 8601 UTC to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class MemoryService:
    """Save, check, recall and maintain the memories of one workspace."""

    def __init__(
        self,
        root: Path,
        store: StoreLocation | None = None,
        *,
        code_map: CodeMap | None = None,
        settings: CheckSettings | None = None,
    ) -> None:
        """`settings`: how checks weigh what changed (`[tool.codeanchor.memory]`)."""
        self.root = root.resolve()
        self.settings = settings or CheckSettings()
        self.location = store or store_location(self.root)
        self.code_map = code_map
        self._store: MemoryBackend | None = None
        self._store_is_real = False

    @property
    def store(self) -> MemoryBackend:
        """The store; an empty in-memory one until something is written, if none exists yet.

        Reads and refused requests therefore never create a store file.
        """
        if self._store is None:
            self._store_is_real = store_exists(self.location)
            self._store = open_store(self.location, self.root, create=False)
        return self._store

    @property
    def writable(self) -> MemoryBackend:
        """The real store, created when missing."""
        if self._store is not None and not self._store_is_real:
            self._store.close()
            self._store = None
        if self._store is None:
            self._store = open_store(self.location, self.root, create=True)
            self._store_is_real = True
        return self._store

    def close(self) -> None:
        """Close the store."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def workspace(self) -> Workspace:
        """A fresh view of the code (caches last for one operation).

        With the code map, files whose content the map already extracted are
        not parsed again.
        """
        known = self.code_map.extract_of if self.code_map is not None else None
        return Workspace(self.root, known=known)

    def _probe(self, ws: Workspace) -> AbstractContextManager[CalleeProbe | None]:
        if self.code_map is None:
            return nullcontext()
        return CalleeProbe(ws, self.code_map)

    def _check(
        self, ws: Workspace, memories: Sequence[Memory], live: LiveConfirm | None = None
    ) -> list[MemoryCheck]:
        """Check with the map's call graph when there is one (dependencies_changed), and
        with `live` confirming found symbols when given."""
        with self._probe(ws) as probe:
            return check_memories(
                ws, memories, dependencies=probe, live=live, settings=self.settings
            )

    # -- saving ---------------------------------------------------------------

    def save(self, new: NewMemory) -> Memory:
        """Anchor and store one memory; refuses refs that do not resolve now."""
        return self.save_many([new])[0]

    def save_many(self, news: Sequence[NewMemory], *, where: Sequence[str] = ()) -> list[Memory]:
        """Anchor and store memories, all or none.

        `where` names each item for error messages (e.g. `file.jsonl:3`).
        """
        ws = self.workspace()
        parser = RefParser(self.root)
        created = now_stamp()
        memories = []
        for index, new in enumerate(news):
            try:
                memories.append(self._build(ws, new, created, parser))
            except MemoryInputError as exc:
                if where:
                    exc.message = f"{where[index]}: {exc.message}"
                    exc.args = (exc.message,)
                raise
        self.writable.add(memories)
        return memories

    def _build(
        self, ws: Workspace, new: NewMemory, created: str, parser: RefParser | None = None
    ) -> Memory:
        text = new.text.strip()
        if not text:
            raise MemoryInputError("a memory needs non-empty text")
        if not _KIND.match(new.kind):
            raise MemoryInputError(
                f"bad kind {new.kind!r}",
                hint="a kind is one word: decision, convention, known_fix, fact, ...",
            )
        tags = tuple(t.strip() for t in new.tags)
        if any(not t for t in tags):
            raise MemoryInputError("tags must be non-empty strings")
        if new.origin not in ORIGINS:
            raise MemoryInputError(f"bad origin {new.origin!r}", hint="origin is agent or human")
        if not new.refs:
            raise MemoryInputError(
                "a memory needs at least one reference",
                hint="pass --ref path, path#Qual.Name or path:START-END",
            )
        parser = parser or RefParser(self.root)
        anchors = tuple(capture(ws, parser.parse(r)) for r in new.refs)
        return Memory(
            id=f"m-{secrets.token_hex(6)}",
            text=text,
            kind=new.kind,
            tags=tags,
            origin=new.origin,
            status="draft" if new.draft else "active",
            created_at=created,
            anchors=anchors,
        )

    # -- checking and reading -------------------------------------------------

    def check(
        self, ids: Sequence[str] = (), *, live: LiveConfirm | None = None
    ) -> list[MemoryCheck]:
        """Check the given memories (default: every active, stale or historical one).

        Stores the statuses the check derives (superseded, retired and draft
        stay as they are); never touches anchors or verification times.
        `live` confirms the symbols the check found elsewhere (see memory.live).
        """
        if ids:
            memories = self.store.get_many(list(ids))
        else:
            memories = self.store.select(statuses=("active", "stale", "historical", "draft"))
        results = self._check(self.workspace(), memories, live)
        changed = {r.memory.id: r.status for r in results if r.status != r.memory.status}
        if changed:
            git = GitRepo.discover(self.root)
            self.writable.set_statuses(changed, git.stamp() if git else None)
        return results

    def touched_by(
        self,
        diff: Diff,
        ws: Workspace | None = None,
        changes: Sequence[SymbolChange] | None = None,
    ) -> list[Touched]:
        """The memories (active, stale, historical or draft) `diff` touches, checked
        now (see memory.changes); nothing is stored. `ws` may carry extractions made
        for the diff, and `changes` its symbols (`memory.changes.symbol_changes`).
        Without the code map no callee counts."""
        memories = self.store.select(statuses=("active", "stale", "historical", "draft"))
        ws = ws or self.workspace()
        code_map = self.code_map
        with self._probe(ws) as probe:
            results = check_memories(ws, memories, dependencies=probe, settings=self.settings)
        if code_map is None:
            return touched(results, diff)
        if changes is None:
            changes = symbol_changes(diff, ws)
        return touched(
            results, diff, changes, lambda node: (c["id"] for c in code_map.uses_of(node, CALLS))
        )

    def recall(self, query: str, *, limit: int = 10, include_stale: bool = False) -> Recalled:
        """Search, check and rank; records last_used_at for what it returns."""
        if limit < 1:
            raise MemoryInputError(f"limit {limit}: ask for at least one memory")
        ws = self.workspace()
        with self._probe(ws) as probe:
            found = recall(
                self.store,
                ws,
                query,
                limit=limit,
                include_stale=include_stale,
                dependencies=probe,
                settings=self.settings,
            )
        if found.hits:
            self.writable.touch([h.check.memory.id for h in found.hits], now_stamp())
        return found

    def show(self, memory_id: str) -> MemoryCheck:
        """One memory with its check; records last_used_at."""
        memory = self.store.get(memory_id)
        (result,) = self._check(self.workspace(), [memory])
        self.writable.touch([memory_id], now_stamp())
        return result

    def select(
        self,
        statuses: Sequence[str] = (),
        kind: str | None = None,
        tag: str | None = None,
    ) -> list[Memory]:
        """Memories filtered by status, kind and tag, oldest first (no check, no touch)."""
        bad = [s for s in statuses if s not in MEMORY_STATUSES]
        if bad:
            raise MemoryInputError(
                f"unknown status {bad[0]!r}", hint=f"statuses: {', '.join(MEMORY_STATUSES)}"
            )
        chosen = [s for s in MEMORY_STATUSES if s in statuses] if statuses else None
        memories = self.store.select(statuses=chosen, kind=kind)
        return [m for m in memories if tag is None or tag in m.tags]

    def inspect(self, ids: Sequence[str] = ()) -> list[MemoryCheck]:
        """Check memories (default: all, any status) without storing anything: for export."""
        memories = self.store.get_many(list(ids)) if ids else self.store.select()
        return self._check(self.workspace(), memories)

    # -- maintaining ----------------------------------------------------------

    def verify(self, memory_id: str) -> Memory:
        """Re-anchor every reference to where it is now; sets last_verified_at."""
        return self.verify_many([memory_id])[0]

    def verify_many(self, ids: Sequence[str]) -> list[Memory]:
        """Re-anchor memories to where their references are now, all or none.

        Refuses (writing nothing) when a reference is deleted or cannot be
        checked: supersede that memory with new references, or retire it.
        """
        memories = self.store.get_many(list(ids))
        ws = self.workspace()
        anchors = {
            result.memory.id: tuple(
                capture(ws, _proposed(r, result.memory.id)) for r in result.refs
            )
            for result in check_memories(ws, memories, settings=self.settings)
        }
        self.writable.reanchor(anchors, now_stamp())
        return self.store.get_many(list(ids))

    def supersede(
        self,
        memory_id: str,
        text: str,
        refs: Sequence[str] = (),
        kind: str | None = None,
        tags: Sequence[str] | None = None,
    ) -> Memory:
        """A new memory replacing `memory_id`, which is marked superseded and linked to it.

        The references default to the old memory's, where they are now.
        """
        old = self.store.get(memory_id)
        ws = self.workspace()
        if refs:
            ref_texts = tuple(refs)
        else:
            (result,) = check_memories(ws, [old], settings=self.settings)
            ref_texts = tuple(str(_proposed(r, memory_id)) for r in result.refs)
        new = self._build(
            ws,
            NewMemory(
                text=text,
                refs=ref_texts,
                kind=kind or old.kind,
                tags=tuple(tags) if tags is not None else old.tags,
                origin=old.origin,
            ),
            now_stamp(),
        )
        self.writable.supersede(memory_id, new)
        return new

    def retire(self, memory_id: str) -> Memory:
        """Mark a memory retired: kept, listed, never recalled or checked by default."""
        self.store.get(memory_id)
        self.writable.set_status(memory_id, "retired")
        return self.store.get(memory_id)


def _proposed(result: RefCheck, memory_id: str) -> RefSpec:
    """The reference a check proposes: the same kind of ref, where it is now."""
    place = result.place
    if result.status in ("deleted", "unknown") or place is None:
        raise MemoryInputError(
            f"{memory_id}: {result.anchor.ref} is {result.status} ({result.reason}); "
            "it cannot be re-anchored",
            hint=f"`memory supersede {memory_id} --text ... --ref ...` with references "
            f"that exist, or `memory retire {memory_id}`",
        )
    spec = result.anchor.spec
    if spec.type == "symbol":
        return RefSpec("symbol", place.path, symbol=place.symbol)
    if spec.type == "line_range":
        return RefSpec(
            "line_range", place.path, start_line=place.start_line, end_line=place.end_line
        )
    return RefSpec("file", place.path)
