"""Disk facts shared by the map and the live layer.

Both layers treat the disk as the source of truth, so the few facts they both
need about files live here, in one place: confining paths to the root
(`paths`), the stat prefilter key and the content hash (`stamps`), reading
source text safely (`text`) and UTF-16 columns (`columns`). Two pieces are
not about files, and are here because every layer may import disk/: the lazy
loader of each layer's front door (`front_door`), and the base of the error
trees that carry a code and a hint (`coded_error`). This package imports
nothing of ours.
"""
