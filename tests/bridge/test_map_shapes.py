"""The enumerations and the watcher keys the map answers publish are exactly what the
map produces."""

from __future__ import annotations

import dataclasses
from typing import get_args

from bridge.contract.map_shapes import MapLanguage, SkipReason
from bridge.contract.map_status_shapes import WatcherInfo
from bridge.tools.mapping import watcher_info
from map.extraction.languages import LANGUAGES
from map.intake import load, walk
from map.live.watch import WatcherState


def test_the_published_languages_are_the_ones_the_map_extracts() -> None:
    assert get_args(MapLanguage) == LANGUAGES


def test_the_published_skip_reasons_are_every_reason_the_map_gives() -> None:
    given = {
        value
        for module in (walk, load)
        for name, value in vars(module).items()
        if name.startswith("SKIP_") and isinstance(value, str)
    }
    assert set(get_args(SkipReason)) == given


def test_a_running_watchers_state_has_the_published_keys() -> None:
    state = WatcherState("watching", "/repo", 1.0, False, False, 2, 0, 1.5, None)
    info = watcher_info(dataclasses.asdict(state))
    assert set(info) == set(WatcherInfo.__annotations__)
    assert info["rebuildCount"] == 2 and info["lastRebuildAt"] == 1.5
