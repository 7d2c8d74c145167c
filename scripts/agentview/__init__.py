"""The parts of scripts/bench_agent_view.py: corpora, the MCP session, the checks, the report."""
