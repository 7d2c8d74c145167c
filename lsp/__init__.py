"""The live layer: language servers behind a disk-is-truth LSP client.

Knows nothing of the map. Imports `disk` for paths, stamps and text.
"""
