"""The graph: the networkx graph the map is kept in, and the questions asked of it.

What nodes and edges carry and how rows become nodes (`mapgraph`); search,
neighbours, paths, impact, overview and outline as pure functions over a graph
(`query`), with Go's interface dispatch (`dispatch`) and TS/JS overrides
(`overrides`); what a search pattern matches and how well (`patterns`); the names
index a search narrows with (`names`).

May import: map's base modules. Not extraction, not linking: a graph is built
from rows and edges handed in.
Invariant: data in, data out; nothing here reads a file or prints.
"""
