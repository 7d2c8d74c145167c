"""Processes below this one and their peak RSS, from /proc (Linux; 0 elsewhere)."""

from __future__ import annotations

import os
import threading
from pathlib import Path


def descendants(root_pid: int) -> list[int]:
    """Every live process below `root_pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = list(children.get(root_pid, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def vm_hwm_kib(pid: int) -> int:
    """The peak resident set of `pid` in KiB (0 when it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def command_line(pid: int) -> str:
    """The command line of `pid` ('' when it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class WorkerPeaks:
    """Samples the peak RSS (VmHWM) of this process's descendants while a measure runs.

    Pool workers of a forkserver are not our children, so RUSAGE_CHILDREN
    misses them; /proc sees them.
    """

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.peak_kib: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def __enter__(self) -> WorkerPeaks:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def largest_mb(self) -> float:
        return max(self.peak_kib.values(), default=0) * 1024 / 1e6

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            for pid in descendants(os.getpid()):
                hwm = vm_hwm_kib(pid)
                if hwm > self.peak_kib.get(pid, 0):
                    self.peak_kib[pid] = hwm
