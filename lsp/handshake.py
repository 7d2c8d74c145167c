"""What codeanchor tells a language server it can do, and how it reads what a server
announces (which capability stands for each request) and asks
(`workspace/configuration`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lsprotocol import types

# Which InitializeResult capability announces each request we send.
PROVIDERS: Mapping[str, str] = {
    types.TEXT_DOCUMENT_DEFINITION: "definition_provider",
    types.TEXT_DOCUMENT_TYPE_DEFINITION: "type_definition_provider",
    types.TEXT_DOCUMENT_IMPLEMENTATION: "implementation_provider",
    types.TEXT_DOCUMENT_REFERENCES: "references_provider",
    types.TEXT_DOCUMENT_HOVER: "hover_provider",
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL: "document_symbol_provider",
    types.WORKSPACE_SYMBOL: "workspace_symbol_provider",
    types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY: "call_hierarchy_provider",
    types.CALL_HIERARCHY_INCOMING_CALLS: "call_hierarchy_provider",
    types.CALL_HIERARCHY_OUTGOING_CALLS: "call_hierarchy_provider",
    types.TEXT_DOCUMENT_DIAGNOSTIC: "diagnostic_provider",
    types.TEXT_DOCUMENT_RENAME: "rename_provider",
    types.WORKSPACE_EXECUTE_COMMAND: "execute_command_provider",
}


def client_capabilities() -> types.ClientCapabilities:
    """What codeanchor tells servers it can do."""
    link = {"dynamic_registration": False, "link_support": True}
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf16]
        ),
        workspace=types.WorkspaceClientCapabilities(
            workspace_folders=True,
            configuration=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True, relative_pattern_support=True
            ),
            symbol=types.WorkspaceSymbolClientCapabilities(dynamic_registration=False),
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(
                dynamic_registration=False, did_save=False
            ),
            definition=types.DefinitionClientCapabilities(**link),
            type_definition=types.TypeDefinitionClientCapabilities(**link),
            implementation=types.ImplementationClientCapabilities(**link),
            references=types.ReferenceClientCapabilities(dynamic_registration=False),
            hover=types.HoverClientCapabilities(
                dynamic_registration=False,
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText],
            ),
            document_symbol=types.DocumentSymbolClientCapabilities(
                dynamic_registration=False, hierarchical_document_symbol_support=True
            ),
            call_hierarchy=types.CallHierarchyClientCapabilities(dynamic_registration=False),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False),
            rename=types.RenameClientCapabilities(dynamic_registration=False),
        ),
        # Servers report their workspace loading only to clients that accept progress.
        window=types.WindowClientCapabilities(work_done_progress=True),
    )


def configuration_answer(settings: Mapping[str, Any], section: str | None) -> Any:
    """The value of one `workspace/configuration` section: exact key, else dotted path."""
    if section is None:
        return dict(settings)
    if section in settings:
        return settings[section]
    value: Any = settings
    for part in section.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value
