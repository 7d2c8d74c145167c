"""Disk facts shared by the map and the live layer.

Both layers treat the disk as the source of truth, so the few facts they both
need about files live here, in one place: confining paths to the root
(`paths`), the stat prefilter key and the content hash (`stamps`), reading
source text safely (`text`) and UTF-16 columns (`columns`). One piece is not
about files: the lazy loader every layer's front door uses (`front_door`),
here because every layer may import disk/. This package imports nothing
of ours.
"""
