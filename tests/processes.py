"""The process table as /proc shows it now (Linux), for tests that check no
process outlives the one that started it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Process:
    """One process: its parent, its session and its command line."""

    ppid: int
    sid: int
    cmdline: str


def process_table() -> dict[int, Process]:
    """pid -> Process for every process; one that exits while read is left out."""
    table: dict[int, Process] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # the fields after the command name, which may itself hold ")"
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            table[int(entry.name)] = Process(int(fields[1]), int(fields[3]), cmdline)
        except (OSError, ValueError, IndexError):
            continue
    return table


def processes_under(marker: str) -> dict[int, str]:
    """pid -> command line of every process whose command line, or whose
    ancestor's, contains `marker` (a serve process and its servers)."""
    table = process_table()
    found: dict[int, str] = {}
    for pid, process in table.items():
        current, seen = pid, set()
        while current in table and current not in seen:
            seen.add(current)
            if marker in table[current].cmdline:
                found[pid] = process.cmdline
                break
            current = table[current].ppid
    return found


def session_members(sid: int) -> dict[int, str]:
    """pid -> command line of every process in session `sid`."""
    return {pid: p.cmdline for pid, p in process_table().items() if p.sid == sid}
