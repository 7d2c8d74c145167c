"""The MCP server: the tools registered with the SDK, served on stdio.

mcp_server     the FastMCP server, its lifespan (one AppContext) and error mapping
mcp_stdio      the stdio transport, closed cleanly when the client goes
registry       which tool functions are served, read-only or not
call_progress  a call's progress notifications, carried to worker threads
"""
