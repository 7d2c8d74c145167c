"""Holding a map's graph load at a gate, so a test can prove what answered without it."""

from __future__ import annotations

import threading

import pytest

from map.live.codemap import CodeMap


def hold_at_gate(monkeypatch: pytest.MonkeyPatch, method: str, timeout_s: float) -> threading.Event:
    """Make every call of `CodeMap.<method>` wait until the returned event is set
    (failing after `timeout_s`, so a test that never releases it cannot hang)."""
    gate = threading.Event()
    held = getattr(CodeMap, method)

    def at_gate(self: CodeMap, *args: object) -> bool:
        assert gate.wait(timeout_s), f"CodeMap.{method} was never released"
        result: bool = held(self, *args)
        return result

    monkeypatch.setattr(CodeMap, method, at_gate)
    return gate
