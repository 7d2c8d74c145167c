"""Views of memories: `memory ...` (the memory layer's own objects, not envelopes)."""

from __future__ import annotations

from collections.abc import Sequence

from bridge.cli.views.text import Page
from memory import Hit, Memory, MemoryCheck, ref_line


def refs(memory: Memory) -> str:
    """A memory's references, as written."""
    return ", ".join(a.ref for a in memory.anchors)


def line(memory: Memory) -> str:
    """`ID  STATUS  KIND [TAGS]: TEXT  (REFS)`."""
    tags = f" [{', '.join(memory.tags)}]" if memory.tags else ""
    return f"{memory.id}  {memory.status:<10} {memory.kind}{tags}: {memory.text}  ({refs(memory)})"


def memories(page: Page, found: Sequence[Memory]) -> None:
    """One line per memory."""
    for memory in found:
        page.add(line(memory))
    if not found:
        page.add("no memories")


def verified(page: Page, done: Sequence[Memory]) -> None:
    """`memory verify`: each memory re-anchored, with its references."""
    for memory in done:
        page.add(f"verified {memory.id}: {refs(memory)}")


def checks(page: Page, results: Sequence[MemoryCheck]) -> None:
    """Each memory's status, then each reference's, then its warnings."""
    for result in results:
        page.add(
            f"{result.memory.id}  {result.status}", "" if result.status == "active" else "yellow"
        )
        for checked in result.refs:
            page.add(f"    {ref_line(checked)}")
        for warning in result.warnings:
            page.add(f"    warning: {warning}", "yellow")


def shown(page: Page, result: MemoryCheck) -> None:
    """`memory show`: the memory, then its check."""
    page.add(line(result.memory))
    checks(page, [result])


def hits(page: Page, found: Sequence[Hit], hidden: str | None) -> None:
    """`memory recall`: `ID  STATUS  SCORE  TEXT`, best first, each hit's warning under it."""
    if not found:
        page.add("no memories match")
    for hit in found:
        memory = hit.check.memory
        page.add(f"{memory.id}  {hit.check.status:<10} {hit.score:>7.3f}  {memory.text}")
        if hit.warning:
            page.add(f"    {hit.warning}", "yellow")
    if hidden:
        page.add(hidden, "yellow")
