"""map.forked: what forked children make comes back in order, and what a child that
failed did not make is made here."""

from __future__ import annotations

import os

import pytest

import map.forked as forked


def test_results_come_back_in_the_items_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "CHUNK_ITEMS", 3)
    parent = os.getpid()
    made = list(forked.forked_map(range(20), 3, lambda n: (n * n, os.getpid() != parent)))
    assert [(n, square) for n, (square, _) in made] == [(n, n * n) for n in range(20)]
    assert all(in_child for _, (_, in_child) in made)


def test_a_failed_childs_items_are_made_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "CHUNK_ITEMS", 2)
    parent = os.getpid()

    def make(n: int) -> int:
        if n == 5 and os.getpid() != parent:
            raise RuntimeError("a child fails")
        return n + 1

    assert list(forked.forked_map(range(12), 2, make)) == [(n, n + 1) for n in range(12)]
