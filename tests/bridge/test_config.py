"""Configuration loading: defaults, both file forms, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.config import ConfigError, load_config


def test_no_configuration_means_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.bridge.budget_tokens == 2000 and config.source is None


def test_pyproject_table_is_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.codeanchor]\nbudget_tokens = 900\nservers = { python = "pyright" }\n'
        "[tool.codeanchor.live]\nrequest_timeout = 3.0\n"
    )
    config = load_config(tmp_path)
    assert config.bridge.budget_tokens == 900
    assert config.servers == {"python": "pyright"}
    assert config.live == {"request_timeout": 3.0}


def test_codeanchor_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.codeanchor]\nbudget_tokens = 900\n")
    (tmp_path / "codeanchor.toml").write_text("budget_tokens = 1200\n")
    assert load_config(tmp_path).bridge.budget_tokens == 1200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("budget_tokens = 'big'\n", "should be a int"),
        ("bugdet_tokens = 5\n", "unknown key"),
        ("servers = 3\n", "must be a table"),
        ("budget_tokens = [\n", "cannot read"),
    ],
)
def test_invalid_configuration_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "codeanchor.toml").write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(tmp_path)
