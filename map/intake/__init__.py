"""Intake: which files the map reads, and reading them: listing, hashing, extracting
in a pool of workers, and shipping extracts back packed.

Listing with .gitignore and skip reasons (`walk`, `treewalk`); the TS/JS
configuration files read for the layout (`configs`); the scan that
compares the disk with what the map knows and extracts what moved (`ingest`);
reading, hashing and extracting files, in a pool of workers when many
(`load`); what a worker sends back (`wire`); a team store's rows asked for
by content before anything is extracted (`shared`: a protocol the store
implements).

May import: extraction, linking (the packed form the linker takes in), map's
base modules, disk.
Invariant: reads the disk, writes nothing; decides what changed, not what it means.
"""
