"""What keeps a server from answering in full, found around each query.

A workspace can be set up so that a server answers only in part however fresh
its view of the disk. Two cases are known: a Go module whose dependencies are
not in the module cache (`lsp.gomod`, checked before each Go query), and
headers a C tree includes that no folder holds (`lsp.cheaders`, found when the
generated compilation database is written). The pool reports what was found
for the queried file's language, to go with the answer as warnings (or with an
error's hint).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lsp.catalog import ServerSpec
from lsp.compdb import missing_headers
from lsp.gomod import BrokenModule, GoModules

_SHOWN = 3


@dataclass(frozen=True, slots=True)
class WorkspaceProblem:
    """Something in the workspace that keeps a server from answering in full."""

    cause: str
    fix: str

    @property
    def warning(self) -> str:
        """The problem as an answer's warning."""
        return f"{self.cause}: answers that involve them may be incomplete or fail; {self.fix}"


class WorkspaceChecks:
    """The checks by language, and what each found last."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._go: dict[str, GoModules] = {}
        self._broken: BrokenModule | None = None

    async def check(self, spec: ServerSpec, language: str, path: Path) -> bool:
        """Check the workspace around `path` as `spec`'s server sees it; True when it
        was broken and is whole now (a server that loaded it broken keeps it so:
        gopls still refuses references after `go mod download`, until restarted)."""
        if language != "go":
            return False
        modules = self._go.setdefault(spec.name, GoModules(self._root, spec.env))
        before, self._broken = self._broken, await modules.check(path)
        return before is not None and self._broken is None

    def found(self, language: str) -> list[WorkspaceProblem]:
        """What the last check for `language` found."""
        if language == "go":
            return [] if self._broken is None else [_go_problem(self._broken)]
        if language in ("c", "cpp"):
            missing = missing_headers(self._root)
            return [_header_problem(missing)] if missing else []
        return []


def _shown(items: list[str]) -> str:
    more = len(items) - _SHOWN
    return ", ".join(items[:_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _go_problem(broken: BrokenModule) -> WorkspaceProblem:
    place = "the root" if broken.folder == "." else broken.folder
    return WorkspaceProblem(
        cause=f"{len(broken.failed)} module(s) that the Go module in {place} requires "
        f"could not be loaded: {_shown(list(broken.failed))}",
        fix=f"run `go mod download` in {place} (codeanchor never downloads), then ask again",
    )


def _header_problem(missing: dict[str, list[str]]) -> WorkspaceProblem:
    ranked = sorted(missing.items(), key=lambda item: (-len(item[1]), item[0]))
    named = [f"{name} (included by {len(files)} file(s))" for name, files in ranked]
    return WorkspaceProblem(
        cause=f"{len(missing)} header(s) that the C/C++ files include are in no folder "
        f"clangd searches: {_shown(named)}",
        fix="add the folders that hold them to compile_flags.txt at the root (one "
        "`-I/path/to/folder` line each), or give codeanchor the compile_commands.json "
        "your build makes (in the root or build/)",
    )
