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
    """Save a memory anchored to code, so it can be checked when recalled later.

    `text`: what to remember, self-contained (a decision, a convention, a
    known fix, a fact about this code). `refs`: one or more references it is
    about: `path`, `path#Qual.Name` or `path:START-END`; each must exist NOW
    (else an error, nothing saved). `kind`: decision, convention, known_fix,
    fact, ... `tags`: free words to find it by. Returns the new memory's `id`
    and each reference as anchored (commit, branch, dirty, hashes, text).
    """
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
    """Find memories about `query` (full-text), each checked against the code now.

    Hits are ranked by relevance with a bonus for freshly verified memories
    and penalties for changed or deleted code. Stale memories are left out
    unless `include_stale` (`staleHidden` counts them, and a warning says so);
    historical ones (their code is gone) come labelled. Each hit has `status`,
    `check` (per reference: status, where it is now, reason) and `warning`:
    when set, read it before trusting the memory, re-read the code it names,
    then memory_verify or memory_supersede.
    """
    found = await _run(app, lambda s: s.recall(query, limit=limit, include_stale=include_stale))
    data = recalled(query, found)
    hidden = [hidden_line(found.stale_hidden)] if found.stale_hidden else []
    return respond(data, budget_tokens=app.budget(budget), items_key="hits", warnings=hidden)


async def memory_check(
    app: AppContext, ids: MemoryIds = None, budget: Budget = None
) -> CheckAnswer:
    """Check memories against the code now (all active/stale/historical ones by default).

    Per reference: `valid`, `relocated` (same content elsewhere: the new
    place is given), `renamed` (same body, new name), `modified`, `deleted`,
    `unknown`; per memory the worst case. A `modified` reference says what
    changed (`change`: `cosmetic`, `annotations`, `signature` or `body`, and
    `changedLines`); cosmetic and annotation-only changes do not make a memory
    stale. A symbol renamed since it was saved is followed through git
    history and names the commit (`since {commit, subject}`); a method of a
    renamed class names the class's rename. Nothing is re-anchored: to adopt
    the new places, call memory_verify. A symbol whose own text is unchanged
    but whose direct callees changed gets a `dependencies_changed` warning
    (this opens the code map). A symbol found elsewhere (relocated, renamed,
    modified at a new place) is confirmed by the file's language server:
    `liveConfirmed` is true (listed there), false (not listed: re-read the
    code) or null, and `liveReason` says why (`no_server`, `server_failed`,
    `over_budget`; `not_needed` when nothing was found elsewhere). An
    `unknown` reference with reason `ambiguous` lists its equally good
    `candidates`. Stale memories come first.
    """
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
    """Confirm a memory still holds: re-anchor its references where they are now.

    Call it after re-reading the code a stale or relocated memory names and
    finding the memory still true. Sets last_verified_at. Refuses when a
    reference is deleted: then memory_supersede (new refs) or memory_retire.
    """
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
    """Replace a memory that is no longer true by a corrected one.

    The old memory becomes `superseded` (kept, linked to the new one, never
    recalled). `refs` default to the old memory's references where they are
    now; `kind` and `tags` default to the old ones. Returns the new memory.
    """
    memory = await _run(app, lambda s: s.supersede(id, text, refs or (), kind=kind, tags=tags))
    return respond(superseded(memory, id), budget_tokens=app.budget(None))


async def memory_retire(app: AppContext, id: MemoryId) -> RetiredAnswer:
    """Retire a memory that no longer applies: kept for the record, never recalled again."""
    memory = await _run(app, lambda s: s.retire(id))
    return respond(retired(memory), budget_tokens=app.budget(None))
