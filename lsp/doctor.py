"""Which language servers really run, their versions, and how to get the rest.

An executable on PATH is not enough: rustup puts a `rust-analyzer` shim there
that fails until the component is installed. A server counts as found only
when its version command succeeds (or, for a server that prints no version,
when its npm package's package.json names one).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from lsp.catalog import Catalog, ServerSpec
from lsp.locate import locate

_VERSION_TIMEOUT_S = 10.0
_DETAIL_CHARS = 200


@dataclass(frozen=True, slots=True)
class ServerReport:
    """What `doctor` found about one server."""

    name: str
    languages: tuple[str, ...]
    chosen_for: tuple[str, ...]
    found: bool
    """True only when the executable exists AND its version command succeeds."""
    path: str | None
    """Where the executable is, even when it does not work."""
    version: str | None
    install: str
    problem: str | None = None
    """Why a server that is on disk is not usable (None when found or absent)."""


@dataclass(frozen=True, slots=True)
class _Probe:
    version: str | None
    problem: str | None


def version_command(spec: ServerSpec, executable: Path) -> list[str]:
    """The command that prints `spec`'s version, given where its server executable is."""
    if spec.version_executable is None:
        return [str(executable), *spec.version_args]
    sibling = executable.parent / spec.version_executable
    program = sibling if os.access(sibling, os.X_OK) else locate(spec.version_executable)
    return [str(program or spec.version_executable), *spec.version_args]


def _package_version(package: str, executable: Path) -> _Probe:
    """The version in the package.json of npm package `package`, found up from the
    script `executable` links to (node_modules/.bin/x -> node_modules/x/lib/x.js)."""
    for folder in executable.resolve().parents:
        manifest = folder / "package.json"
        if not manifest.is_file():
            continue
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return _Probe(None, f"{manifest} cannot be read: {exc}")
        if isinstance(data, dict) and data.get("name") == package:
            return _Probe(str(data.get("version", "")) or None, None)
    return _Probe(None, f"no package.json of {package} above {executable}")


def _probe(spec: ServerSpec, executable: Path) -> _Probe:
    if spec.version_package:
        return _package_version(spec.version_package, executable)
    command = version_command(spec, executable)
    shown = " ".join([Path(command[0]).name, *command[1:]])
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=_VERSION_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **spec.env},
        )
    except subprocess.TimeoutExpired:
        return _Probe(None, f"`{shown}` did not finish within {_VERSION_TIMEOUT_S:g} s")
    except OSError as exc:
        return _Probe(None, f"`{shown}` cannot run: {exc.strerror or exc}")
    output = (done.stdout or done.stderr).strip()
    first = output.splitlines()[0].strip() if output else None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        why = detail[0][:_DETAIL_CHARS] if detail else "no output"
        return _Probe(None, f"`{shown}` failed (exit {done.returncode}): {why}")
    return _Probe(first, None)


def check_server(spec: ServerSpec, chosen_for: tuple[str, ...] = ()) -> ServerReport:
    """Whether one server is installed and really runs (its version command succeeds).

    Cheap enough to call once before starting a server, so that a broken install
    (the rustup shim) is reported with its install command rather than as a crash.
    """
    path = locate(spec.command[0])
    probe = _Probe(None, None) if path is None else _probe(spec, path)
    return ServerReport(
        name=spec.name,
        languages=spec.languages,
        chosen_for=chosen_for,
        found=path is not None and probe.problem is None,
        path=None if path is None else str(path),
        version=probe.version,
        install=spec.install,
        problem=probe.problem,
    )


def examine(catalog: Catalog) -> list[ServerReport]:
    """One report per server in the catalog, chosen servers first."""
    reports = [
        check_server(
            spec, tuple(lang for lang, name in catalog.choice.items() if name == spec.name)
        )
        for spec in catalog.servers.values()
    ]
    return sorted(reports, key=lambda r: (not r.chosen_for, r.name))
