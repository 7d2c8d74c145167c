"""The surface agents use: tools, the MCP server, the CLI and the memory store."""
