"""The surfaces agents and people use: the tools, the MCP server, the CLI, the answer envelope.

bridge/ orchestrates the layers below and imports each through its front door
(`from lsp import ...`, `from map import ...`, `from memory import ...`);
nothing imports bridge/. Lower layers' errors become ToolErrors in one place,
`bridge.translate`.
"""
