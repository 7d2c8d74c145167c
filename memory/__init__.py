"""Anchored memories: notes tied to code, checked against git and the disk before use.

The front door: bridge/ imports only the names in `__all__`, from `memory`
itself (`from memory import MemoryService`), never a submodule. Each name is
loaded from its module on first use (PEP 562), so `import memory` costs
nothing and a caller loads only the modules whose names it uses. Inside, one
job per module:

    model      the vocabulary: RefSpec, Anchor, Memory, RefCheck, MemoryCheck
    refs       parse `path`, `path#Qual.Name`, `path:START-END` (confined to the root)
    stores     which store holds a workspace's memories, and opening it
    store      SQLite (WAL, schema version, one transaction per write)
    pg_store   PostgreSQL, one database shared by a team (its address: disk.database)
    sql_store  the operations both stores run, in SQL; rows: the row codec;
               tables: the columns both stores keep
    git        git plumbing: HEAD, branch, changes since a commit, merge base
    workspace  the code now, cached for one run (reads, extracts, fingerprints)
    bodies     a symbol's text and its name-blind body (renames, moves; no parse)
    anchor     capture a reference now (refuses one that does not resolve)
    ranges     find a block of lines again
    check      per-reference status, worst case per memory
    follow     a symbol that moved, was renamed, or moved and changed
    lineage    one walk of git history per check: commits since an anchor, a file's path chain
    renames    a symbol's renames and moves in that history, the commit that made each
    follow_history   a symbol's result told from its renames (one story per rename)
    kinds      what kind of change: cosmetic, annotations, signature, body (syntax trees)
    described  a modified result's change kind, and whether it makes a memory stale
    blocks     a line range: the same text, a similar block, or gone
    history    what the code was at the anchor commit (is a candidate new?)
    confidence the named confidence levels and the evidence behind each
    similarity token similarity (rapidfuzz) and name affinity
    live       LiveConfirm: the protocol the bridge implements on language servers;
               which found symbols are asked (question)
    files, results   one file's content; result shapes the checks share
    deps       dependencies_changed, from the map's call graph
    changes    a diff's files and symbols, and the memories it touches
    symdiff    the symbols a diff added, removed, modified, moved, renamed
    recall     FTS5/BM25 search ranked with freshness
    service    the operations the CLI and the MCP tools share
    transfer   JSONL import/export
    views      the JSON shapes of every memory answer (CLI --json and MCP data)
    review     the interactive walk through stale memories

    errors     the domain's own error tree (translated by bridge.contract.translate)

Errors: MemoryInputError for malformed input, UnknownMemoryError (with
suggestions) for unknown memory IDs or symbols, MemoryNotFoundError for files
that are not there. A refused request writes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from disk.front_door import lazy_getattr

if TYPE_CHECKING:
    from disk.database import redact
    from memory.changes import Diff, Touched, diff_files, symbol_changes
    from memory.errors import (
        MemoryDomainError,
        MemoryInputError,
        MemoryNotFoundError,
        MemoryStoreError,
        UnknownMemoryError,
    )
    from memory.git import FileChangeKind
    from memory.live import LiveConfirm, confirm_check
    from memory.migrate import migrate_store
    from memory.model import (
        MEMORY_STATUSES,
        ORIGINS,
        Anchor,
        ChangeKind,
        CheckSettings,
        LiveCheck,
        LiveReason,
        Memory,
        MemoryCheck,
        MemoryStatus,
        RefCheck,
        RefReason,
        RefSpec,
        RefStatus,
    )
    from memory.recall import Hit, Recalled
    from memory.review import review_stale
    from memory.service import MemoryService, NewMemory
    from memory.stores import store_exists, store_location
    from memory.symdiff import SymbolChange, SymbolChangeKind
    from memory.transfer import export_lines, import_file
    from memory.views import (
        ChecksView,
        RecallView,
        RetiredView,
        SavedView,
        SupersededView,
        checks,
        hidden_line,
        memory_check,
        memory_view,
        recalled,
        ref_line,
        retired,
        saved,
        superseded,
    )

_HOME = {
    "memory.changes": ("Diff", "Touched", "diff_files", "symbol_changes"),
    "disk.database": ("redact",),
    "memory.errors": (
        "MemoryDomainError",
        "MemoryInputError",
        "MemoryNotFoundError",
        "MemoryStoreError",
        "UnknownMemoryError",
    ),
    "memory.git": ("FileChangeKind",),
    "memory.live": ("LiveConfirm", "confirm_check"),
    "memory.migrate": ("migrate_store",),
    "memory.model": (
        "MEMORY_STATUSES",
        "ORIGINS",
        "Anchor",
        "ChangeKind",
        "CheckSettings",
        "LiveCheck",
        "LiveReason",
        "Memory",
        "MemoryCheck",
        "MemoryStatus",
        "RefCheck",
        "RefReason",
        "RefSpec",
        "RefStatus",
    ),
    "memory.recall": ("Hit", "Recalled"),
    "memory.review": ("review_stale",),
    "memory.service": ("MemoryService", "NewMemory"),
    "memory.stores": ("store_exists", "store_location"),
    "memory.symdiff": ("SymbolChange", "SymbolChangeKind"),
    "memory.transfer": ("export_lines", "import_file"),
    "memory.views": (
        "ChecksView",
        "RecallView",
        "RetiredView",
        "SavedView",
        "SupersededView",
        "checks",
        "hidden_line",
        "memory_check",
        "memory_view",
        "recalled",
        "ref_line",
        "retired",
        "saved",
        "superseded",
    ),
}
"""Where each public name lives: module -> the names it holds."""

__all__ = [
    "MEMORY_STATUSES",
    "ORIGINS",
    "Anchor",
    "ChangeKind",
    "CheckSettings",
    "ChecksView",
    "Diff",
    "FileChangeKind",
    "Hit",
    "LiveCheck",
    "LiveConfirm",
    "LiveReason",
    "Memory",
    "MemoryCheck",
    "MemoryDomainError",
    "MemoryInputError",
    "MemoryNotFoundError",
    "MemoryService",
    "MemoryStatus",
    "MemoryStoreError",
    "NewMemory",
    "RecallView",
    "Recalled",
    "RefCheck",
    "RefReason",
    "RefSpec",
    "RefStatus",
    "RetiredView",
    "SavedView",
    "SupersededView",
    "SymbolChange",
    "SymbolChangeKind",
    "Touched",
    "UnknownMemoryError",
    "checks",
    "confirm_check",
    "diff_files",
    "export_lines",
    "hidden_line",
    "import_file",
    "memory_check",
    "memory_view",
    "migrate_store",
    "recalled",
    "redact",
    "ref_line",
    "retired",
    "review_stale",
    "saved",
    "store_exists",
    "store_location",
    "superseded",
    "symbol_changes",
]

__getattr__ = lazy_getattr(__name__, _HOME)
