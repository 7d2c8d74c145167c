"""The surface agents and people use: the tools, the MCP server, the CLI, the answer contract.

    workspace, config, trust one workspace: its configuration (trusted or not)
                             and the settings built from it
    context                  ... and its lazily started services (AppContext)
    tools/                   the tool functions, one module per family
    contract/                the answer contract: envelope, shapes, budget cuts,
                             errors and their translation
    server/                  the MCP server on stdio
    cli/                     the command line

bridge/ orchestrates the layers below and imports each through its front door
(`from verify import ...`, `from lsp import ...`, `from map import ...`,
`from memory import ...`); nothing imports bridge/. Lower layers' errors become
ToolErrors in one place, `bridge.contract.translate`.
"""
