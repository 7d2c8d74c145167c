"""Every cache a server keeps between questions holds no more than its bound
(`[tool.codeanchor.cache]`), and answers the same past it as with room to spare."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.config import ConfigError
from bridge.context import AppContext
from verify import CacheSettings, CheckCache, label, names_code, scan
from verify.checkcache import Lru

TS = (".ts",)
NAMES = [f"fn{i}" for i in range(12)]


def test_an_lru_forgets_the_least_recently_used_past_its_size() -> None:
    kept: Lru[str, int] = Lru(3)
    for i, key in enumerate("abc"):
        kept.put(key, i)
    assert kept.get("a") == 0  # now the most recent
    kept.put("d", 3)
    assert len(kept) == 3
    assert kept.get("b") is None
    assert [kept.get(k) for k in "acd"] == [0, 2, 3]


def _workspace(root: Path) -> None:
    for i, name in enumerate(NAMES):
        (root / f"m{i}.ts").write_text(f"export function {name}() {{}}\n// {NAMES[i - 1]}\n")
        (root / f"use{i}.ts").write_text(f"{name}();\n{NAMES[i - 1]}();\n")


def _answers(root: Path, cache: CheckCache | None) -> list[object]:
    """Each name's sites and their roles, and whether each file's first line names code."""
    answers: list[object] = []
    for name in NAMES:
        found = scan(root, name, TS, cache=cache)
        labelled = label(root, name, found.sites, cache=cache)
        answers.append(sorted((s.place, s.role) for s in labelled.sites))
    for path in sorted(root.glob("*.ts")):
        answers.append(names_code(root, path.name, 1, 0, cache))
    return answers


def test_the_check_cache_past_its_bounds_answers_as_without_it(tmp_path: Path) -> None:
    _workspace(tmp_path)
    bounds = CacheSettings(names_kept=3, roles_kept=5, trees_kept=2, outlines_kept=2)
    cache = CheckCache(bounds)
    uncached = _answers(tmp_path, None)
    assert _answers(tmp_path, cache) == uncached
    (tmp_path / "use0.ts").write_text("// fn0();\n")  # an edit between two rounds
    uncached = _answers(tmp_path, None)
    assert _answers(tmp_path, cache) == uncached
    counts = cache.counts()
    assert counts["names"] == 3
    assert counts["roles"] == 5
    assert counts["trees"] == 2
    assert counts["clockedFiles"] == len(NAMES) * 2  # one stamp per listed file, no more


def test_cache_bounds_are_read_from_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "codeanchor.toml").write_text("[cache]\nnames_kept = 7\ntrees_kept = 1\n")
    app = AppContext(tmp_path)
    assert app.cache_settings == CacheSettings(names_kept=7, trees_kept=1)
    assert app.check_cache.sites.size == 7
    (tmp_path / "codeanchor.toml").write_text("[cache]\nnames = 7\n")
    with pytest.raises(ConfigError, match=r"\[tool.codeanchor.cache\].*unknown key"):
        AppContext(tmp_path)
