"""The live layer: language servers behind a disk-is-truth LSP client.

Knows nothing of the map. Imports `disk` for paths, stamps and text.

The front door: the layers above import only the names in `__all__`, from
`lsp` itself (`from lsp import LivePool`), never a submodule. Each name is
loaded from its module on first use (PEP 562), so `import lsp` costs nothing,
and the LSP client (pygls, lsprotocol) loads only with the names that need it
(`LivePool`, the diagnostics and edit types).

    LivePool           typed queries by path and LSP position (pool)
    LiveSettings       timeouts, open-document limit, restart policy (settings)
    Span ... ServerStatus, DiagnosticsSource
                       what queries return: repo-relative, 1-based lines (model)
    LspError ...       the error tree (bad paths raise disk.errors) (errors)
    Catalog, ServerSpec, catalog_from_config, configured_servers, without_commands
                       which server serves which language, and its quirks
    examine, ServerReport
                       which servers are installed, their versions (doctor)
    npm_servers, choose_servers, install_server, install_status, uninstall_server,
    find_npm, Installed, InstallError, data_dir
                       the npm servers installed into the user's data folder
                       (install, userdata)
    Diagnostic, DiagnosticsReport      diagnostics of one document (diagnostics)
    FileEdits, TextEdit, apply_edits                     a rename's edits (edits)

Inside, one job per module:

    session    one server over time: start, sync, ask, cold start, restart
               (after a crash, a hang, or outgrowing `max_server_mb`)
    footprint  the resident memory of a server's processes (/proc)
    client     one server process: pygls client, handshake, timeouts, errors
    disksync   what a server must be told about the disk before a query
    documents  didOpen / didChange / didClose, keyed by content hash, LRU
    watch      the workspace's files by stat key (inotify, else a scan)
    compdb     the compile_commands.json generated for C trees that have none
    cheaders   #include lines, and the headers no folder holds
    problems   what keeps a server from answering in full (gomod: Go modules
               missing from the module cache; cheaders), found around each query
    inotify    the Linux inotify queue, through ctypes
    racy       when a stat key may vouch for a file's content
    convert    lsprotocol answers -> model results
    diagnostics  diagnostics pulled, or published and waited for
    published  what a server published per document, and when it is settled
               (never from before the workspace last changed)
    tsserver_pull  diagnostics asked of tsserver through typescript-language-server
    edits      a rename's WorkspaceEdit as text edits per file, applied to text
    uris       file:// URIs <-> paths
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from disk.front_door import lazy_getattr

if TYPE_CHECKING:
    from lsp.catalog import Catalog, ServerSpec
    from lsp.catalog_config import (
        ConfiguredServer,
        catalog_from_config,
        configured_servers,
        without_commands,
    )
    from lsp.diagnostics import Diagnostic, DiagnosticsReport
    from lsp.doctor import ServerReport, examine
    from lsp.edits import FileEdits, TextEdit, UnsupportedEditError, apply_edits
    from lsp.errors import (
        LspError,
        NoServerError,
        PositionError,
        RequestTimeoutError,
        ServerCrashedError,
        ServerGaveUpError,
        ServerRequestError,
        UnknownLanguageError,
        UnsupportedFileError,
        UnsupportedQueryError,
    )
    from lsp.install import (
        Installed,
        InstallError,
        choose_servers,
        find_npm,
        install_server,
        install_status,
        npm_servers,
        uninstall_server,
    )
    from lsp.model import (
        CallSite,
        DiagnosticsSource,
        DocumentSymbolNode,
        HoverInfo,
        Location,
        ServerStatus,
        Span,
        WorkspaceSymbol,
    )
    from lsp.pool import LivePool
    from lsp.settings import LiveSettings
    from lsp.userdata import data_dir

_HOME = {
    "lsp.catalog": ("Catalog", "ServerSpec"),
    "lsp.catalog_config": (
        "ConfiguredServer",
        "catalog_from_config",
        "configured_servers",
        "without_commands",
    ),
    "lsp.diagnostics": ("Diagnostic", "DiagnosticsReport"),
    "lsp.doctor": ("ServerReport", "examine"),
    "lsp.edits": ("FileEdits", "TextEdit", "UnsupportedEditError", "apply_edits"),
    "lsp.errors": (
        "LspError",
        "NoServerError",
        "PositionError",
        "RequestTimeoutError",
        "ServerCrashedError",
        "ServerGaveUpError",
        "ServerRequestError",
        "UnknownLanguageError",
        "UnsupportedFileError",
        "UnsupportedQueryError",
    ),
    "lsp.install": (
        "InstallError",
        "Installed",
        "choose_servers",
        "find_npm",
        "install_server",
        "install_status",
        "npm_servers",
        "uninstall_server",
    ),
    "lsp.userdata": ("data_dir",),
    "lsp.model": (
        "CallSite",
        "DiagnosticsSource",
        "DocumentSymbolNode",
        "HoverInfo",
        "Location",
        "ServerStatus",
        "Span",
        "WorkspaceSymbol",
    ),
    "lsp.pool": ("LivePool",),
    "lsp.settings": ("LiveSettings",),
}
"""Where each public name lives: module -> the names it holds."""

__all__ = [
    "CallSite",
    "Catalog",
    "ConfiguredServer",
    "Diagnostic",
    "DiagnosticsReport",
    "DiagnosticsSource",
    "DocumentSymbolNode",
    "FileEdits",
    "HoverInfo",
    "InstallError",
    "Installed",
    "LivePool",
    "LiveSettings",
    "Location",
    "LspError",
    "NoServerError",
    "PositionError",
    "RequestTimeoutError",
    "ServerCrashedError",
    "ServerGaveUpError",
    "ServerReport",
    "ServerRequestError",
    "ServerSpec",
    "ServerStatus",
    "Span",
    "TextEdit",
    "UnknownLanguageError",
    "UnsupportedEditError",
    "UnsupportedFileError",
    "UnsupportedQueryError",
    "WorkspaceSymbol",
    "apply_edits",
    "catalog_from_config",
    "choose_servers",
    "configured_servers",
    "data_dir",
    "examine",
    "find_npm",
    "install_server",
    "install_status",
    "npm_servers",
    "uninstall_server",
    "without_commands",
]

__getattr__ = lazy_getattr(__name__, _HOME)
