"""One module per tool family; each tool is a typed async function of the AppContext.

The MCP server and the CLI call these same functions.
"""
