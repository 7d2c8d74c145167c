"""The store: the map on disk (SQLite per checkout) and the answers it gives alone.

The database and its files (`mapstore`, `store_files`), its row layout and writes
(`store_rows`, `store_write`), a link restored or relinked from rows
(`link_store`, `store_link`, `lazy_table`, `link_stand_in`, `stored`), the graph's
rows read ahead by a helper process (`graph_feed`), answers from rows before the
graph is loaded (`warm`); the extracts a team shares in PostgreSQL, by content
(`team_store`).

May import: intake, linking, graph, extraction, map's base modules, disk.
Invariant: a store of another schema, or one that fails a check, is rebuilt,
never trusted; rows hold what a from-scratch build would write.
"""
