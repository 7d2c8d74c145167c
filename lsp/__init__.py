"""The live layer: language servers behind a disk-is-truth LSP client.

Knows nothing of the map. Imports `disk` for paths, stamps and text.

    pool.LivePool          the front door: typed queries by path and LSP position
    settings.LiveSettings  timeouts, open-document limit, restart policy
    model                  what queries return (repo-relative, 1-based lines)
    errors                 the LspError tree (bad paths raise disk.errors)
    catalog, catalog_config, doctor
                           which server serves which language, and its quirks

Inside, one job per module:

    session    one server over time: start, sync, ask, cold start, restart
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
    edits      a rename's WorkspaceEdit as text edits per file, applied to text
    uris       file:// URIs <-> paths
"""
