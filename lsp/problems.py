"""What keeps a server from answering in full, found before each query.

A workspace can be set up so that a server answers only in part however
fresh its view of the disk: a Go module whose dependencies are not in the
module cache (`lsp.gomod`) is the case handled so far. Each query's file is
checked alongside the disk sync; the pool reports the last finding for the
file's language, to go with the answer as warnings (or with an error's hint).
"""

from __future__ import annotations

from pathlib import Path

from lsp.catalog import ServerSpec
from lsp.gomod import GoModules, WorkspaceProblem


class WorkspaceChecks:
    """The checks by language, and what each found last."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._go: dict[str, GoModules] = {}
        self._found: dict[str, list[WorkspaceProblem]] = {}

    async def check(self, spec: ServerSpec, language: str, path: Path) -> None:
        """Check the workspace around `path` as `spec`'s server sees it."""
        if language != "go":
            return
        modules = self._go.setdefault(spec.name, GoModules(self._root, spec.env))
        self._found[language] = await modules.problems(path)

    def found(self, language: str) -> list[WorkspaceProblem]:
        """What the last check for `language` found."""
        return list(self._found.get(language, ()))
