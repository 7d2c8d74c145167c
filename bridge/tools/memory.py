"""memory_*: notes anchored to code, checked against the code as it is now.

A memory ties text to references: `path` (a file), `path#Qual.Name` (a
symbol) or `path:START-END` (1-based, inclusive lines). Every answer that
returns a memory checks it first: each reference is `valid`, `relocated`,
`renamed`, `modified`, `deleted` or `unknown`, and the memory is `active`,
`stale` or `historical` (or `superseded`, `retired`, `draft`). Reading never
counts as verification: only `memory_verify` re-anchors a memory.

Each tool is `(app, **arguments) -> XAnswer` like every bridge tool; its
`data` is the shape `memory.views` builds, the one the CLI prints
(bridge/contract/memory_shapes.py). The work runs in a worker thread (git, SQLite and
hashing block).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from bridge.context import AppContext
from bridge.contract.envelope import respond
from bridge.contract.memory_shapes import (
    CheckAnswer,
    RecallAnswer,
    RetiredAnswer,
    SavedAnswer,
    SupersededAnswer,
)
from bridge.contract.schema_types import (
    Budget,
    IncludeStale,
    MemoryId,
    MemoryIds,
    MemoryKind,
    MemoryRefs,
    MemoryTags,
    MemoryText,
    NewKind,
    NewRefs,
    RecallLimit,
    RecallQuery,
)
from bridge.contract.translate import as_tool_error
from bridge.tools.live_memory import confirming
from map import CodeMap
from memory import (
    MemoryDomainError,
    MemoryService,
    NewMemory,
    checks,
    hidden_line,
    recalled,
    retired,
    saved,
    superseded,
)
from verify import LiveConfirmer

T = TypeVar("T")


async def _run(
    app: AppContext, work: Callable[[MemoryService], T], code_map: CodeMap | None = None
) -> T:
    """Run `work` in a thread; with the code map, checks reuse its extractions and its
    call graph names changed callees."""

    def call() -> T:
        with MemoryService(app.root, code_map=code_map, settings=app.memory_settings) as service:
            return work(service)

    try:
        return await asyncio.to_thread(call)
    except MemoryDomainError as exc:
        raise as_tool_error(exc) or exc from exc


async def memory_save(
    app: AppContext,
    text: MemoryText,
    refs: MemoryRefs,
    kind: MemoryKind = "fact",
    tags: MemoryTags = None,
) -> SavedAnswer:
    """Save a memory anchored to code. `text`: self-contained (a decision, a
    convention, a known fix, a fact). `refs`: `path`, `path#Qual.Name` or
    `path:START-END`, each existing now (else an error, nothing saved). Returns the
    new `id` and each reference as anchored."""
    new = NewMemory(text, tuple(refs), kind, tuple(tags or ()), "agent")
    memory = await _run(app, lambda s: s.save(new))
    return respond(saved(memory), budget_tokens=app.budget(None))


async def memory_recall(
    app: AppContext,
    query: RecallQuery,
    limit: RecallLimit = 10,
    include_stale: IncludeStale = False,
    budget: Budget = None,
) -> RecallAnswer:
    """Find memories about `query` (full-text), each checked against the code now,
    best first. Stale ones are left out unless `include_stale`
    (`staleHidden` counts them). A hit with a `warning`: re-read the code it names,
    then memory_verify or memory_supersede."""
    found = await _run(app, lambda s: s.recall(query, limit=limit, include_stale=include_stale))
    data = recalled(query, found)
    hidden = [hidden_line(found.stale_hidden)] if found.stale_hidden else []
    return respond(data, budget_tokens=app.budget(budget), items_key="hits", warnings=hidden)


async def memory_check(
    app: AppContext, ids: MemoryIds = None, budget: Budget = None
) -> CheckAnswer:
    """Check memories against the code now (default: all active, stale or historical),
    stale first. Per reference `status` (valid, relocated, renamed, modified with its
    `change` kind, deleted, unknown), renames followed through git (`since`); cosmetic
    or annotation-only changes keep it active. memory_verify adopts new places."""
    code_map = await app.code_map()
    confirm = LiveConfirmer(app, asyncio.get_running_loop())
    results = await _run(app, lambda s: s.check(ids or (), live=confirming(confirm)), code_map)
    ordered = sorted(results, key=lambda r: r.status != "stale")
    return respond(
        checks(ordered),
        budget_tokens=app.budget(budget),
        items_key="memories",
        warnings=confirm.notes,
    )


async def memory_verify(app: AppContext, id: MemoryId) -> SavedAnswer:
    """Confirm a memory still holds, after re-reading the code it names: re-anchor
    its references where they are now (sets lastVerifiedAt). Refused when a
    reference is deleted: then memory_supersede or memory_retire."""
    memory = await _run(app, lambda s: s.verify(id))
    return respond(saved(memory), budget_tokens=app.budget(None))


async def memory_supersede(
    app: AppContext,
    id: MemoryId,
    text: MemoryText,
    refs: NewRefs = None,
    kind: NewKind = None,
    tags: MemoryTags = None,
) -> SupersededAnswer:
    """Replace a memory that is no longer true by a corrected one; the old becomes
    `superseded` (kept, never recalled). `refs`, `kind` and `tags` default to the
    old memory's (its references where they are now). Returns the new memory."""
    memory = await _run(app, lambda s: s.supersede(id, text, refs or (), kind=kind, tags=tags))
    return respond(superseded(memory, id), budget_tokens=app.budget(None))


async def memory_retire(app: AppContext, id: MemoryId) -> RetiredAnswer:
    """Retire a memory that no longer applies: kept for the record, never recalled again."""
    memory = await _run(app, lambda s: s.retire(id))
    return respond(retired(memory), budget_tokens=app.budget(None))
