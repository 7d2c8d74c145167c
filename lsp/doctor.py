"""Which language servers are installed, their versions, and how to get the rest."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from lsp.catalog import Catalog, ServerSpec, locate

_VERSION_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class ServerReport:
    """What `doctor` found about one server."""

    name: str
    languages: tuple[str, ...]
    chosen_for: tuple[str, ...]
    found: bool
    path: str | None
    version: str | None
    install: str


def _version(spec: ServerSpec, executable: str) -> str | None:
    try:
        done = subprocess.run(
            [executable, *spec.version_args],
            capture_output=True,
            text=True,
            timeout=_VERSION_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0].strip() if lines else None


def examine(catalog: Catalog) -> list[ServerReport]:
    """One report per server in the catalog, chosen servers first."""
    reports = []
    for spec in catalog.servers.values():
        path = locate(spec.command[0])
        chosen = tuple(lang for lang, name in catalog.choice.items() if name == spec.name)
        reports.append(
            ServerReport(
                name=spec.name,
                languages=spec.languages,
                chosen_for=chosen,
                found=path is not None,
                path=None if path is None else str(path),
                version=None if path is None else _version(spec, str(path)),
                install=spec.install,
            )
        )
    return sorted(reports, key=lambda r: (not r.chosen_for, r.name))
