"""A scripted language server (pygls) for tests of the client's own logic.

python fake_server.py cold N   definition answers [] N times, then line 1
python fake_server.py empty    definition always answers []
python fake_server.py once     definition answers line 1 once, then [] always
python fake_server.py hang     definition never answers (the rest works)
python fake_server.py modified N   definition fails with ContentModified N times, then line 1

In every mode, a workspace symbol query answers one class of that name, at line 1 of
app/shapes.py.
"""

from __future__ import annotations

import asyncio
import sys

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified
from pygls.lsp.server import LanguageServer


def serve(mode: str, empties: int) -> None:
    server = LanguageServer("fake-server", "1")
    asked = [0]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: types.DefinitionParams) -> list[types.Location]:
        asked[0] += 1
        if mode == "hang":
            await asyncio.Event().wait()
        if mode == "modified" and asked[0] <= empties:
            raise JsonRpcContentModified("content modified")
        if mode == "empty" or asked[0] <= empties or (mode == "once" and asked[0] > 1):
            return []
        start = types.Position(line=0, character=0)
        return [
            types.Location(uri=params.text_document.uri, range=types.Range(start=start, end=start))
        ]

    @server.feature(types.WORKSPACE_SYMBOL)
    def workspace_symbol(params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        start = types.Position(line=0, character=0)
        uri = f"{server.workspace.root_uri}/app/shapes.py"
        where = types.Location(uri=uri, range=types.Range(start=start, end=start))
        return [
            types.SymbolInformation(name=params.query, kind=types.SymbolKind.Class, location=where)
        ]

    server.start_io()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
