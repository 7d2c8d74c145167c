"""Installing the npm-distributed language servers into the user's data folder.

Each server the catalog gives `npm_packages` (pinned versions) is installed
with `npm install` into its own folder (`lsp.userdata.server_folder`), without
root: first into a temporary folder beside it, which replaces the old one only
once npm succeeded, so a failed or interrupted install leaves the previous one
working. `lsp.locate.locate` finds what is installed there.

    InstallError        npm is missing or failed, or a name names no npm server
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from lsp.catalog import Catalog, ServerSpec
from lsp.userdata import STAMP, server_folder, servers_dir

NPM_HINT = "install Node.js 18 or later with npm (e.g. `sudo apt-get install nodejs npm`)"
_NPM_FLAGS = ("--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error")
_TAIL_LINES = 8
_HEARTBEAT_S = 15.0


class InstallError(Exception):
    """A server could not be installed; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Installed:
    """One npm server as the user's data folder holds it."""

    name: str
    languages: tuple[str, ...]
    pinned: tuple[str, ...]
    """The packages the catalog pins."""
    folder: Path
    installed: tuple[str, ...] | None
    """The packages installed there, or None when it is not installed."""

    @property
    def current(self) -> bool:
        """Installed, at the versions the catalog pins."""
        return self.installed == self.pinned


def npm_servers(catalog: Catalog) -> list[ServerSpec]:
    """The servers `codeanchor servers install` can install, by name."""
    return sorted((s for s in catalog.servers.values() if s.npm_packages), key=lambda s: s.name)


def choose_servers(catalog: Catalog, names: Iterable[str]) -> list[ServerSpec]:
    """The npm servers `names` ask for: server names (`pyright`) or language names
    (`typescript`, `php`); all of them when `names` is empty. Raises InstallError
    naming what can be installed when a name is not one of them."""
    installable = {spec.name: spec for spec in npm_servers(catalog)}
    wanted = list(names)
    if not wanted:
        return list(installable.values())
    chosen: dict[str, ServerSpec] = {}
    for name in wanted:
        spec = installable.get(name) or installable.get(catalog.choice.get(name, ""))
        if spec is None:
            raise InstallError(_not_installable(catalog, name, sorted(installable)))
        chosen[spec.name] = spec
    return list(chosen.values())


def _not_installable(catalog: Catalog, name: str, installable: list[str]) -> str:
    spec = catalog.servers.get(name) or catalog.server_for_language(name)
    known = ", ".join(installable)
    if spec is None:
        return f"{name!r} is no language server or language codeanchor knows; it installs {known}"
    return (
        f"{spec.name} is not installed from npm: install it with {spec.install}; "
        f"`codeanchor servers install` installs {known}"
    )


def install_status(spec: ServerSpec) -> Installed:
    """What the user's data folder holds of `spec`."""
    folder = server_folder(spec.name)
    return Installed(spec.name, spec.languages, spec.npm_packages, folder, _stamp(folder))


def _stamp(folder: Path) -> tuple[str, ...] | None:
    try:
        data = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    packages = data.get("packages") if isinstance(data, dict) else None
    if not isinstance(packages, list) or not all(isinstance(p, str) for p in packages):
        return None
    return tuple(packages)


def find_npm() -> str:
    """The npm executable; raises InstallError saying what to install without it."""
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"npm not found: {NPM_HINT}, then run this again")
    return npm


def install_server(spec: ServerSpec, npm: str, say: Callable[[str], None]) -> Installed:
    """Install `spec`'s pinned npm packages into its folder, replacing what was there
    only once npm succeeded; `say` hears each step. Raises InstallError when npm
    fails (its last lines of output in the message)."""
    folder = server_folder(spec.name)
    try:
        servers_dir().mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InstallError(f"cannot create {servers_dir()}: {exc.strerror or exc}") from exc
    staging = folder.with_name(f".{spec.name}.installing-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    say(f"{spec.name}: npm install {' '.join(spec.npm_packages)} -> {folder}")
    started = time.monotonic()
    try:
        _npm_install(npm, staging, spec, say)
        (staging / STAMP).write_text(
            json.dumps({"server": spec.name, "packages": list(spec.npm_packages)}) + "\n",
            encoding="utf-8",
        )
        _swap_in(staging, folder)
    except OSError as exc:
        raise InstallError(f"cannot install into {folder}: {exc.strerror or exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"{spec.name}: installed in {time.monotonic() - started:.1f} s")
    return install_status(spec)


def _npm_install(npm: str, prefix: Path, spec: ServerSpec, say: Callable[[str], None]) -> None:
    """Run npm, saying every `_HEARTBEAT_S` that it still runs (a download can take
    minutes, and npm itself prints nothing at this log level)."""
    command = [npm, "install", "--prefix", str(prefix), *_NPM_FLAGS, *spec.npm_packages]
    started = time.monotonic()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as output:
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT
            )
        except OSError as exc:
            raise InstallError(f"cannot run {npm}: {exc.strerror or exc}; {NPM_HINT}") from exc
        while True:
            try:
                code = process.wait(timeout=_HEARTBEAT_S)
                break
            except subprocess.TimeoutExpired:
                say(f"{spec.name}: npm still running ({time.monotonic() - started:.0f} s)")
            except BaseException:  # Ctrl-C: no npm left behind
                process.kill()
                process.wait()
                raise
        if code != 0:
            output.seek(0)
            tail = output.read().strip().splitlines()[-_TAIL_LINES:]
            raise InstallError(
                f"npm could not install {spec.name} (exit {code}): "
                + (" | ".join(tail) or "no output")
            )


def _swap_in(staging: Path, folder: Path) -> None:
    """Put `staging` where `folder` is; the old folder goes only once the new is there."""
    retired = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    if folder.exists():
        folder.rename(retired)
    try:
        staging.rename(folder)
    except OSError:
        if retired.exists():
            retired.rename(folder)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def uninstall_server(spec: ServerSpec) -> bool:
    """Remove `spec` from the user's data folder; False when it was not there."""
    folder = server_folder(spec.name)
    if not folder.exists():
        return False
    shutil.rmtree(folder)
    return True
