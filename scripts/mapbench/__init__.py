"""Helpers of scripts/bench_map.py: process sampling and MCP session measures."""
