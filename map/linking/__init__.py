"""Linking: every file's references tied to the symbols they name, across files.

The repository's layout besides its sources (`layout`: go.mod, the TS/JS
configuration read by `projects`, resolved by `scripts`); per file, what it can
see (`scopes`, `assigned`, `modules`, `siblings`); one lookup or resolution
through the import structure (`lookup`, `resolve`, `resolution`, `values`, `members`,
`definitions`, C macros' expansions: `macros`, Lua's tables: `tables`, and pytest's
fixtures: `fixtures`); the references as compact
columns, what each consulted, what stayed open and why (`references`,
`consulted`, `unresolved`); the linker that keeps the graph's edges equal to a
from-scratch link edit by edit (`linker`, `link_input`, `link_changes`,
`edge_facts`); what it decided as a store row (`link_rows`); the extracts it
keeps packed (`packed`).

May import: extraction (its models and text helpers), graph, map's base modules.
Invariant: knows no file system and no store; an incremental link equals a full one.
"""
