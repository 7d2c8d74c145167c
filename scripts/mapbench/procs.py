"""Processes below this one and their peak RSS, from /proc (Linux; 0 elsewhere), and
fresh `codeanchor` processes timed from start to exit."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

CODE = Path(__file__).resolve().parents[2]
"""The tree whose code a started `codeanchor` runs (its working directory comes first
on sys.path with `python -m`)."""


def codeanchor(*args: str) -> list[str]:
    """The command line of `codeanchor ARGS` running this tree's code (from `CODE`)."""
    return [sys.executable, "-m", "bridge.cli", *args]


@dataclass(frozen=True)
class Exited:
    """A process run to its end: wall time from start to exit, its peak RSS (and of any
    child it waited for), its exit status and what it printed."""

    seconds: float
    peak_mb: float
    returncode: int
    stdout: str
    stderr: str


def run_to_exit(argv: list[str]) -> Exited:
    """Run `argv` from `CODE` to its exit; its own peak RSS comes from wait4, not sampling."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(argv, cwd=CODE, stdout=out, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        errors.seek(0)
        kib = 1024  # ru_maxrss is in KiB on Linux
        return Exited(
            seconds,
            usage.ru_maxrss * kib / 1e6,
            process.returncode,
            out.read().decode(errors="replace"),
            errors.read().decode(errors="replace"),
        )


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
