"""CPU seconds a language server's process tree has used, from /proc (Linux; 0 elsewhere)."""

from __future__ import annotations

import os
from pathlib import Path

from mapbench.procs import descendants


def tree_cpu_seconds(pid: int | None) -> float:
    """User plus system CPU seconds of `pid` and every live process below it (None: 0)."""
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for one in (pid, *descendants(pid)):
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / tick
