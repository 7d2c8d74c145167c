"""What the MCP schema publishes: described parameters and named enumerations.

How a tool gets a typed contract (the SDK derives both schemas from the signature):

- each parameter is annotated with one of the `Annotated[..., Field(description=...)]`
  aliases below (or its own, written the same way): `tools/list` shows the
  description in the input schema;
- its answer is `class XAnswer(AnswerBase): data: XData` (bridge.contract.envelope), with
  `XData` a TypedDict whose keys are camelCase and whose enumerations are the
  `Literal`s below: the output schema carries the real shape, and the SDK checks
  every structured answer against it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from verify import ReasonCode, Source

Target = Annotated[
    str,
    Field(
        description="A node ID `path#Qual.Name`, or `path:LINE[:COL]` (1-based), "
        "or `path:LINE` with `name`."
    ),
]
Name = Annotated[
    str | None,
    Field(description="With a `path:LINE` target: the name on that line."),
]
Budget = Annotated[
    int | None,
    Field(description="Answer size cap in tokens (200-50000)."),
]
FilePath = Annotated[
    str, Field(description="A repo-relative file path (a node ID's path part also works).")
]
SymbolQuery = Annotated[
    str, Field(description="All or part of a symbol's name; exact names rank first.")
]
LanguageFilter = Annotated[
    str | None,
    Field(
        description="Ask only this language's server (python, typescript, go, ...); "
        "default: every language the workspace has source files in."
    ),
]
IncludeDeclaration = Annotated[
    bool, Field(description="Count the declaration itself among the references.")
]

SymbolKind = Literal[
    "file", "module", "namespace", "package", "class", "method", "property", "field",
    "constructor", "enum", "interface", "function", "variable", "constant", "string",
    "number", "boolean", "array", "object", "key", "null", "enummember", "struct",
    "event", "operator", "typeparameter",
]  # fmt: skip
"""LSP SymbolKind names, in lower case."""
Completeness = Literal["complete", "partial"]
CompletenessReason = ReasonCode
SiteSource = Source
"""Where an unconfirmed site comes from: code the map sees, or a text scan."""
SeenAs = Literal[
    "definition", "call", "inherits", "use", "import", "mention", "other", "library", "unparsed"
]

# memory_* parameters
MemoryId = Annotated[
    str, Field(description="A memory's ID, as memory_save or memory_recall gave it.")
]
MemoryText = Annotated[
    str,
    Field(
        description="What to remember, self-contained: a decision, a convention, a "
        "known fix, a fact."
    ),
]
MemoryRefs = Annotated[
    list[str],
    Field(
        description="References the memory is about, each `path`, `path#Qual.Name` or "
        "`path:START-END` (1-based, inclusive); each must exist now."
    ),
]
NewRefs = Annotated[
    list[str] | None,
    Field(description="The new memory's references (default: the old one's, where they are now)."),
]
MemoryKind = Annotated[
    str, Field(description="One word: decision, convention, known_fix, fact, ...")
]
NewKind = Annotated[
    str | None, Field(description="The new memory's kind (default: the old one's).")
]
MemoryTags = Annotated[
    list[str] | None,
    Field(description="Free words to find the memory by (default: none, or the old one's)."),
]
RecallQuery = Annotated[
    str, Field(description="Words to look for in memories' text, tags and code.")
]
RecallLimit = Annotated[int, Field(description="Most memories to return.")]
IncludeStale = Annotated[
    bool,
    Field(description="Also return stale memories (their code changed since they were saved)."),
]
MemoryIds = Annotated[
    list[str] | None, Field(description="The memories to check (default: every memory).")
]
