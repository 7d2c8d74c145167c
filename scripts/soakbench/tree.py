"""The resident memory of every process below this one, read from /proc (Linux)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mapbench.procs import command_line, descendants

from lsp.footprint import rss_kib

SERVE = "codeanchor serve"


@dataclass(frozen=True)
class ProcessRss:
    """One process of the server's tree: its pid, a short name and its RSS in MB."""

    pid: int
    name: str
    rss_mb: float


def short_name(cmdline: str) -> str:
    """What a process is, in a few words: `codeanchor serve`, `ty server`, `node tsserver`."""
    words = cmdline.split()
    if "multiprocessing" in cmdline:
        return "map pool " + ("forkserver" if "forkserver" in cmdline else "worker")
    if "bench_soak.py" in cmdline:
        return SERVE + " (in-process)"
    if "bridge.cli" in words:
        return "codeanchor " + " ".join(words[words.index("bridge.cli") + 1 : -2])[:20]
    named = [Path(w).name for w in words[:3]]
    return " ".join(named)[:40]


def server_tree() -> list[ProcessRss]:
    """Every process this benchmark started (the server and its language servers); when
    it started no server (the loop runs in this process), this process too."""
    found = []
    below = descendants(os.getpid())
    serving = any("bridge.cli" in command_line(pid) for pid in below)
    for pid in below if serving else [os.getpid(), *below]:
        kib = rss_kib(pid)
        if kib:
            found.append(ProcessRss(pid, short_name(command_line(pid)), kib * 1024 / 1e6))
    return sorted(found, key=lambda p: p.pid)
