"""Workspace trust as data: where it is kept, what needs it, what an edit does to it.

No server runs here; tests/adversarial/test_config.py runs the hostile
configurations through the CLI and `serve`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.config import ConfigError
from bridge.trust import TrustStore, config_home, load_trusted, trust

EVIL = '[server.gopls]\nenv = { GOFLAGS = "-toolexec=/tmp/x" }\n'


@pytest.fixture
def store(tmp_path: Path) -> TrustStore:
    return TrustStore(tmp_path / "user-config")


def _root(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "repo"
    root.mkdir(exist_ok=True)
    (root / "codeanchor.toml").write_text(text)
    return root


@pytest.mark.parametrize(
    ("own", "xdg", "expected"),
    [
        ("/own", "/xdg", "/own"),
        (None, "/xdg", "/xdg/codeanchor"),
        (None, "relative/xdg", "~/.config/codeanchor"),  # the XDG spec ignores relative paths
        (None, None, "~/.config/codeanchor"),
    ],
)
def test_trust_lives_in_the_user_config_dir(
    monkeypatch: pytest.MonkeyPatch, own: str | None, xdg: str | None, expected: str
) -> None:
    for name, value in (("CODEANCHOR_CONFIG_HOME", own), ("XDG_CONFIG_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert config_home() == Path(expected).expanduser()


def test_untrusted_server_tables_are_left_out_and_named(tmp_path: Path, store: TrustStore) -> None:
    root = _root(tmp_path, f'budget_tokens = 900\nservers = {{ python = "pyright" }}\n{EVIL}')
    config, state = load_trusted(root, store)
    assert config.server == {} and config.servers == {"python": "pyright"}
    assert config.bridge.budget_tokens == 900
    assert state.ignored == ("[server.gopls] (env)",)
    notice = state.notice()
    assert notice is not None and "[server.gopls] (env)" in notice


def test_a_budget_edit_keeps_trust_and_a_server_edit_loses_it(
    tmp_path: Path, store: TrustStore
) -> None:
    root = _root(tmp_path, EVIL)
    trust(root, store)
    assert load_trusted(root, store)[0].server == {
        "gopls": {"env": {"GOFLAGS": "-toolexec=/tmp/x"}}
    }
    _root(tmp_path, f"budget_tokens = 900\n{EVIL}")
    assert load_trusted(root, store)[1].trusted is True
    _root(tmp_path, EVIL.replace("/tmp/x", "/tmp/y"))
    config, state = load_trusted(root, store)
    assert state.trusted is False and config.server == {}


def test_nothing_to_trust_writes_nothing(tmp_path: Path, store: TrustStore) -> None:
    root = _root(tmp_path, 'budget_tokens = 900\nservers = { python = "pyright" }\n')
    _, state = trust(root, store)
    assert state.needs_trust is False and state.notice() is None
    assert not store.path.exists()


def test_an_invalid_server_table_is_refused_not_trusted(tmp_path: Path, store: TrustStore) -> None:
    root = _root(tmp_path, '[server.gopls]\ncommand = "gopls"\n')
    with pytest.raises(ConfigError, match=r"server.gopls\] command must be a list"):
        trust(root, store)
    assert not store.path.exists()


def test_revoke_forgets_only_its_root(tmp_path: Path, store: TrustStore) -> None:
    first = _root(tmp_path, EVIL)
    second = tmp_path / "other"
    second.mkdir()
    (second / "codeanchor.toml").write_text(EVIL)
    trust(first, store)
    trust(second, store)
    assert store.revoke(first) is True and store.revoke(first) is False
    assert store.grant_for(first) is None and store.grant_for(second) is not None
