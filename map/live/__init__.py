"""The live map: one repository's map kept true while files change.

The stateful map (`codemap`) and the map behind its store (`store_backed`,
`reader`); what a rebuild checks and finds (`rescan`, `recheck`, `stale`); the
reports it gives (`reports`); the watcher and its debounce (`watch`, `debounce`,
`live_map`).

May import: every room below (store, intake, linking, graph, extraction) and
map's base modules.
Invariant: a file changed on disk is flagged stale at once, before any rebuild;
the one door above (map/__init__.py) exports from here and the rooms below.
"""
