"""Workspace trust: a repository's configuration runs no program until the user trusts it.

A repository's `codeanchor.toml` (or `[tool.codeanchor]` in its pyproject.toml)
can set the command a language server runs, its environment and its settings:
whoever wrote the repository would run code on the machine of whoever opens it.
So, like direnv's `allow` and git's `safe.directory`, that part applies only
once the user has trusted it (`codeanchor trust`):

- trust lives outside the repository, in `trust.json` under the user's
  configuration directory (`config_home`), written atomically under a lock;
- it is keyed by the root's real path and the SHA-256 of the part of the
  configuration that needs it (server tables and server choices, and the map's
  snapshot folder), so any edit of that part needs trust again; one trusted
  version per root;
- untrusted, the servers fall back to the built-in catalog (see
  `lsp.catalog_config.without_commands`) and a snapshot folder outside the
  root to the default, while settings that run nothing and write nothing
  elsewhere (budgets, timeouts, excludes) still apply, and the first answer
  says so.

A Config a caller builds and passes in (tests, embedding code) is the
caller's own and applies as given.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import os
import shlex
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from bridge.config import Config, ConfigError, catalog_of, load_config
from lsp import without_commands

TRUST_FILE = "trust.json"
TRUST_SCHEMA = 1


class TrustFileError(ConfigError):
    """The user's trust file cannot be read or written; the message names it."""

    code = "bad_trust_file"


def config_home() -> Path:
    """The user's codeanchor configuration directory: $CODEANCHOR_CONFIG_HOME, else
    $XDG_CONFIG_HOME/codeanchor (when absolute, as the XDG spec asks), else
    ~/.config/codeanchor."""
    own = os.environ.get("CODEANCHOR_CONFIG_HOME")
    if own:
        return Path(own).absolute()
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".config"
    return base / "codeanchor"


@dataclass(frozen=True, slots=True)
class Grant:
    """One root's trusted configuration."""

    digest: str
    source: str
    granted_at: str


class TrustStore:
    """The trusted configurations of one user, one per root (by real path)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.path = home / TRUST_FILE

    @classmethod
    def default(cls) -> TrustStore:
        """The store in the user's configuration directory."""
        return cls(config_home())

    def grant_for(self, root: Path) -> Grant | None:
        """What is trusted for `root`, if anything."""
        entry = self._read().get(_key(root))
        if entry is None:
            return None
        try:
            return Grant(str(entry["digest"]), str(entry["source"]), str(entry["grantedAt"]))
        except (TypeError, KeyError) as exc:
            raise self._broken(f"malformed entry for {_key(root)}") from exc

    def grant(self, root: Path, grant: Grant) -> None:
        """Trust `grant` for `root`, replacing what was trusted before."""
        with self._locked():
            roots = self._read()
            roots[_key(root)] = {
                "digest": grant.digest,
                "source": grant.source,
                "grantedAt": grant.granted_at,
            }
            self._write(roots)

    def revoke(self, root: Path) -> bool:
        """Trust nothing for `root` any more; False when nothing was trusted."""
        with self._locked():
            roots = self._read()
            if roots.pop(_key(root), None) is None:
                return False
            self._write(roots)
            return True

    def _read(self) -> dict[str, Any]:
        try:
            document = orjson.loads(self.path.read_bytes())
        except FileNotFoundError:
            return {}
        except (OSError, orjson.JSONDecodeError) as exc:
            raise self._broken(f"unreadable trust file ({exc})") from exc
        if not isinstance(document, dict) or document.get("schema") != TRUST_SCHEMA:
            raise self._broken(f"not a codeanchor trust file (schema {TRUST_SCHEMA})")
        roots = document.get("roots")
        if not isinstance(roots, dict):
            raise self._broken("malformed trust file (no roots table)")
        return roots

    def _broken(self, what: str) -> TrustFileError:
        hint = f"fix or delete {self.path} (it holds only trust decisions), then trust again"
        return TrustFileError(f"{self.path}: {what}", hint=hint)

    def _write(self, roots: dict[str, Any]) -> None:
        """Replace the file atomically: a crash leaves the old one or the new one."""
        data = orjson.dumps(
            {"schema": TRUST_SCHEMA, "roots": roots},
            option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS,
        )
        fd, temp = tempfile.mkstemp(prefix=f".{TRUST_FILE}.", suffix=".tmp", dir=self.home)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the store's lock: concurrent grants and revokes lose no update."""
        try:
            self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
            lock = os.open(self.home / f"{TRUST_FILE}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise TrustFileError(f"{self.home}: cannot write the trust file ({exc})") from exc
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield
        finally:
            os.close(lock)


def _key(root: Path) -> str:
    return os.path.realpath(root)


def config_digest(config: Config) -> str:
    """The SHA-256 of the part of `config` that needs trust (servers, snapshot folder)."""
    runnable = orjson.dumps(
        {
            "servers": config.servers,
            "server": config.server,
            "snapshot_dir": config.map.get("snapshot_dir"),
        },
        option=orjson.OPT_SORT_KEYS,
    )
    return "sha256:" + hashlib.sha256(runnable).hexdigest()


@dataclass(frozen=True, slots=True)
class TrustState:
    """Whether a root's configuration may run what it names, and what waits for trust."""

    root: Path
    source: str | None
    digest: str | None
    """None: nothing in the configuration needs trust."""
    ignored: tuple[str, ...]
    """What applies only once trusted (server tables, choices of unknown servers, a
    snapshot folder outside the root)."""
    trusted: bool
    problem: str | None = None
    """Why the trust file could not be read (then nothing counts as trusted)."""

    @property
    def needs_trust(self) -> bool:
        """The configuration names something that could run a program or write
        outside the root."""
        return self.digest is not None

    @property
    def applies(self) -> bool:
        """The whole configuration applies (trusted, or nothing needs trust)."""
        return not self.needs_trust or self.trusted

    @property
    def command(self) -> str:
        """The command that trusts this configuration."""
        return f"codeanchor trust --root {shlex.quote(str(self.root))}"

    def notice(self) -> str | None:
        """The warning an untrusted configuration earns (None when it applies)."""
        if self.applies:
            return None
        why = f" ({self.problem})" if self.problem else ""
        return (
            f"{self.source} is not trusted{why}, so what in it could run a program or write "
            f"outside the root was ignored: {'; '.join(self.ignored)}; the built-in servers "
            f"and defaults apply instead. Review it, then run `{self.command}` to use it"
        )

    def as_dict(self) -> dict[str, Any]:
        """The state as camelCase JSON."""
        return {
            "root": str(self.root),
            "source": self.source,
            "digest": self.digest,
            "needsTrust": self.needs_trust,
            "trusted": self.trusted,
            "needsTrustFor": list(self.ignored),
            "ignored": [] if self.applies else list(self.ignored),
            "problem": self.problem,
            "trustCommand": None if self.applies else self.command,
        }


def given(root: Path, config: Config) -> TrustState:
    """The state of a configuration the caller built itself: it applies as given."""
    return TrustState(root, config.source, None, (), trusted=True)


def assess(root: Path, config: Config, store: TrustStore) -> TrustState:
    """Whether `config`, read from `root`, is trusted in `store`."""
    _, ignored = _split(root, config)
    if not ignored:
        return TrustState(root, config.source, None, (), trusted=True)
    digest = config_digest(config)
    try:
        grant = store.grant_for(root)
    except TrustFileError as exc:
        return TrustState(root, config.source, digest, ignored, trusted=False, problem=str(exc))
    trusted = grant is not None and grant.digest == digest
    return TrustState(root, config.source, digest, ignored, trusted=trusted)


def applicable(config: Config, state: TrustState) -> Config:
    """`config` as it may apply: whole when trusted, else without what needs trust."""
    if state.applies:
        return config
    safe, _ = _split(state.root, config)
    return safe


def load_trusted(root: Path, store: TrustStore | None = None) -> tuple[Config, TrustState]:
    """The configuration of `root` as it may apply, and its trust state."""
    config = load_config(root)
    state = assess(root, config, TrustStore.default() if store is None else store)
    return applicable(config, state), state


def trust(root: Path, store: TrustStore | None = None) -> tuple[Config, TrustState]:
    """Trust the configuration of `root` as it is now (after checking it is valid).

    Returns the configuration and its new state; when nothing in it needs
    trust, nothing is written.
    """
    config = load_config(root)
    catalog_of(config)
    store = TrustStore.default() if store is None else store
    state = assess(root, config, store)
    if state.digest is None or state.trusted:
        return config, state
    store.grant(root, Grant(state.digest, str(state.source), datetime.now(UTC).isoformat()))
    return config, dataclasses.replace(state, trusted=True, problem=None)


def _split(root: Path, config: Config) -> tuple[Config, tuple[str, ...]]:
    """`config` without what needs trust, and a description of each thing left out:
    server tables and choices of unknown servers (`without_commands`), and a snapshot
    folder outside the root (the map would write there)."""
    try:
        table, ignored = without_commands({"servers": config.servers, "server": config.server})
    except ValueError as exc:
        raise ConfigError(f"{config.source}: {exc}") from exc
    map_table = dict(config.map)
    folder = map_table.get("snapshot_dir")
    if isinstance(folder, str) and os.path.isabs(folder) and not _inside(root, folder):
        del map_table["snapshot_dir"]
        ignored += (f"map.snapshot_dir = {folder!r} (outside the root)",)
    safe = dataclasses.replace(config, servers=table["servers"], server={}, map=map_table)
    return safe, ignored


def _inside(root: Path, path: str) -> bool:
    real_root = os.path.realpath(root)
    return os.path.commonpath([real_root, os.path.realpath(path)]) == real_root
