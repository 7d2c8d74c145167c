"""One module per tool family; each tool is a typed async function of the AppContext.

The MCP server and the CLI call these same functions. Beside them, what the
tools share: `targets` (what a tool is pointed at), `mapview` (map answers'
items and freshness), `symbol_search` (workspace symbols across languages),
`live_memory` (memory checks confirmed live from the CLI), `change_scope` (the
files a change may break), `diagnostic_baseline` (which diagnostics a change
introduced; `baseline_cache` keeps its reports), `rename_check` (what a rename
leaves), `callees_check` (callees of functions held by constants, and their
completeness).
"""
