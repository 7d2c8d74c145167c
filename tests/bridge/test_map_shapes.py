"""The enumerations the map answers publish name exactly what the map produces."""

from __future__ import annotations

from typing import get_args

from bridge.map_shapes import MapLanguage, SkipReason
from map import ingest, walk
from map.languages import LANGUAGES


def test_the_published_languages_are_the_ones_the_map_extracts() -> None:
    assert get_args(MapLanguage) == LANGUAGES


def test_the_published_skip_reasons_are_every_reason_the_map_gives() -> None:
    given = {
        value
        for module in (walk, ingest)
        for name, value in vars(module).items()
        if name.startswith("SKIP_") and isinstance(value, str)
    }
    assert set(get_args(SkipReason)) == given
