"""How much memory a language server holds: the resident sets of its process and of
every process below it (tsserver runs three), read from /proc. Linux only: None
elsewhere, and a server is then never restarted for its size."""

from __future__ import annotations

from pathlib import Path

_PROC = Path("/proc")


def tree_rss_mb(pid: int) -> float | None:
    """The RSS of `pid` and its descendants in MB; None when /proc cannot tell."""
    if not (_PROC / str(pid)).is_dir():
        return None
    kib, todo, seen = 0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        kib += rss_kib(current)
        todo.extend(_children(current))
    return kib * 1024 / 1e6


def rss_kib(pid: int) -> int:
    """The resident set of `pid` in KiB (0 when it is gone)."""
    try:
        status = (_PROC / str(pid) / "status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    """The children of every thread of `pid` (/proc/PID/task/TID/children)."""
    found: list[int] = []
    try:
        tasks = list((_PROC / str(pid) / "task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return found
