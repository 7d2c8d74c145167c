"""The names of the session measures' figures (mapbench/serve.py, mapbench/restart.py),
apart from them: the scale series reads them without importing the MCP client SDK."""

from __future__ import annotations

FIRST_ANSWER = "start-to-answer"
INIT_ANSWER = "init-to-answer"
HUB_NEIGHBORS = "first map_neighbors (in) of the hub: ask -> answer"
GRAPH_ANSWER = "start-to-map_impact (needs loaded graph)"
"""The timing of the first map_impact, asked right after the first answers: map_impact
waits for the background graph load."""
GRAPH_LOADING = "graph still loading after it"
"""The note of an answer after which map_status said graphLoaded false."""
SEARCH_FOUND = "offline edits, restart: init -> map_search finds them"
CALLER_LISTED = "offline edits, restart: init -> map_neighbors lists the caller"
GRAPH_LOADED = "offline edits, restart: start -> map_impact (graph loaded)"
