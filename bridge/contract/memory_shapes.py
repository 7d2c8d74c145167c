"""The typed answers of the memory_* tools (published as MCP output schemas).

Their `data` are the shapes `memory.views` builds, the same the CLI prints
with `--json`: keys camelCase, statuses, reasons, live reasons and
confidence levels enumerated. See docs/contracts.md#memory-answers-memory_.
"""

from __future__ import annotations

from bridge.contract.envelope import AnswerBase
from memory import ChecksView, RecallView, RetiredView, SavedView, SupersededView


class SavedAnswer(AnswerBase):
    """memory_save and memory_verify: the memory's ID and its references as anchored."""

    data: SavedView


class RecallAnswer(AnswerBase):
    """memory_recall: the hits, each with its check."""

    data: RecallView


class CheckAnswer(AnswerBase):
    """memory_check: one result per memory, stale ones first."""

    data: ChecksView


class SupersededAnswer(AnswerBase):
    """memory_supersede: the new memory."""

    data: SupersededView


class RetiredAnswer(AnswerBase):
    """memory_retire."""

    data: RetiredView
