"""Disk facts shared by the map and the live layer.

Both layers treat the disk as the source of truth, so the few facts they both
need about files live here, in one place: confining paths to the root
(`paths`), the stat prefilter key and the content hash (`stamps`), reading
source text safely (`text`) and UTF-16 columns (`columns`). This package
imports nothing from `map`, `lsp` or `bridge`.
"""
