"""Anchored memories: notes tied to code, checked against git and the disk before use.

    model      the vocabulary: RefSpec, Anchor, Memory, RefCheck, MemoryCheck
    refs       parse `path`, `path#Qual.Name`, `path:START-END` (confined to the root)
    store      SQLite (WAL, schema version, one transaction per write)
    git        git plumbing: HEAD, branch, changes since a commit, merge base
    workspace  the code now, cached for one run (reads, extracts, fingerprints)
    anchor     capture a reference now (refuses one that does not resolve)
    ranges     find a block of lines again
    check      per-reference status, worst case per memory
    follow     a symbol that moved, was renamed, or moved and changed
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

    errors     the domain's own error tree (translated by bridge.translate)

Errors: MemoryInputError for malformed input, UnknownMemoryError (with
suggestions) for unknown memory IDs or symbols, MemoryNotFoundError for files
that are not there. A refused request writes nothing.
"""
