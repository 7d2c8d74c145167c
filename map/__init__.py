"""The cached map: symbols and edges extracted with tree-sitter, kept in networkx.

Knows nothing of LSP. Imports `disk` for paths, stamps and text.
"""
