"""Which symbols to ask about: a seeded sample of the map's symbols whose name
the parse-based ground truth can judge.

A symbol qualifies when its name is defined once in the project (so every
occurrence the truth keeps can mean it; a C prototype and its definition are
one, asked about at the definition), is not a name that builtin types,
JavaScript's globals, Go's standard library or a few much-used Python standard
library classes also carry (`get`, `send`, `parse`, `group` on a value of
unknown type are beyond what a parse can tell; for the languages of issue 24,
short lists of their standard libraries' much-used names, and the shell's
commands), is not a name the truth calls
ambiguous (a project module; something the map has no symbol for, see
Truth.ambiguous), and occurs somewhere beyond its definition. Callers are
sampled among functions and methods that are called.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import logging
import re
import threading
import types
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from accuracy.truth import Occurrence, Truth, Wanted, reached_as_member

if TYPE_CHECKING:
    from map.live.codemap import CodeMap

REFERENCE_KINDS = frozenset({"class", "interface", "struct", "type", "function", "method"})
CALLABLE_KINDS = frozenset({"function", "method"})
MIN_NAME = 3
PYTHON_AMBIGUOUS = frozenset(
    name
    for holder in (
        builtins,
        object,
        dict,
        list,
        str,
        bytes,
        set,
        BaseException,
        types.GeneratorType,
        types.ModuleType,
        re.Match,
        re.Pattern,
        threading.Thread,
        logging.Logger,
        io.IOBase,
    )
    for name in dir(holder)
)
JS_AMBIGUOUS = frozenset(
    [
        "toString",
        "valueOf",
        "toJSON",
        "map",
        "filter",
        "reduce",
        "forEach",
        "push",
        "pop",
        "shift",
        "unshift",
        "get",
        "set",
        "has",
        "delete",
        "keys",
        "values",
        "entries",
        "then",
        "catch",
        "finally",
        "parse",
        "stringify",
        "slice",
        "splice",
        "join",
        "split",
        "test",
        "exec",
        "call",
        "apply",
        "bind",
        "length",
        "size",
        "add",
        "clear",
        "trim",
        "trimStart",
        "trimEnd",
        "startsWith",
        "endsWith",
        "includes",
        "indexOf",
        "lastIndexOf",
        "toLowerCase",
        "toUpperCase",
        "padStart",
        "padEnd",
        "concat",
        "replace",
        "replaceAll",
        "match",
        "matchAll",
        "search",
        "at",
        "every",
        "some",
        "find",
        "findIndex",
        "sort",
        "reverse",
        "flat",
        "flatMap",
        "fill",
        "charAt",
        "charCodeAt",
        "normalize",
        "repeat",
        "substring",
        "assign",
        "freeze",
        "create",
        "isArray",
        "isInteger",
        "isFinite",
        "isNaN",
        "from",
        "of",
        "resolve",
        "reject",
        "all",
        "race",
        "any",
        "next",
        "return",
        "throw",
        "getTime",
        "toISOString",
        "name",
        "message",
        "stack",
        "cause",
        "description",
    ]
)
GO_AMBIGUOUS = frozenset(
    [
        "Get",
        "Set",
        "Add",
        "Del",
        "Has",
        "String",
        "Error",
        "Write",
        "Read",
        "Close",
        "Len",
        "Less",
        "Swap",
        "ServeHTTP",
        "Header",
        "WriteHeader",
        "Value",
        "Err",
        "Done",
        "Deadline",
        "Context",
        "WithContext",
        "Clone",
        "Run",
        "Query",
        "Encode",
        "URL",
    ]
)
RUBY_AMBIGUOUS = frozenset(
    {
        *("each", "map", "call", "to_s", "to_h", "to_a", "to_str", "inspect", "size"),
        *("length", "empty?", "include?", "key?", "fetch", "merge", "select", "reject"),
        *("find", "first", "last", "join", "split", "push", "pop", "read", "write"),
        *("close", "open", "run", "start", "stop", "get", "set", "delete", "clear"),
        *("update", "values", "keys", "hash", "dup", "clone", "freeze", "send", "tap"),
        *("respond_to?", "method_missing", "respond_to_missing?", "new", "name", "value"),
        # RSpec's DSL, which a project's specs call as much as any method of its own
        *("before", "after", "around", "let", "it", "describe", "context", "subject"),
        *("expect", "specify"),
    }
)
PHP_AMBIGUOUS = frozenset(
    {
        *("get", "set", "has", "remove", "add", "all", "count", "getName", "getValue"),
        *("write", "writeln", "run", "execute", "format", "load", "parse", "validate"),
        *("getIterator", "offsetGet", "offsetSet", "offsetExists", "offsetUnset"),
        *("jsonSerialize", "__toString", "getMessage", "getCode", "read", "close"),
    }
)
CSHARP_AMBIGUOUS = frozenset(
    {
        *("ToString", "Equals", "GetHashCode", "Dispose", "Add", "Remove", "Contains"),
        *("Clear", "Get", "Set", "Read", "Write", "Close", "Flush", "GetEnumerator"),
        *("MoveNext", "Reset", "CompareTo", "Invoke", "Parse", "TryParse", "Format"),
        *("Append", "AppendLine", "Substring", "IndexOf", "StartsWith", "EndsWith", "Trim"),
        *("Split", "Join", "Replace", "Count", "Any", "All", "Select", "Where", "First"),
        *("FirstOrDefault", "ToList", "ToArray", "Cast", "OfType", "Wait", "GetType"),
        *("GetValue", "SetValue", "WriteLine", "Insert", "CopyTo", "TryGetValue"),
    }
)
KOTLIN_AMBIGUOUS = frozenset(
    {
        *("toString", "equals", "hashCode", "let", "also", "apply", "run", "with", "map"),
        *("filter", "forEach", "add", "get", "set", "contains", "isEmpty", "size"),
        *("first", "last", "joinToString", "append", "build", "copy", "emit", "remove"),
    }
)
SWIFT_AMBIGUOUS = frozenset(
    {
        *("description", "append", "map", "filter", "reduce", "forEach", "contains"),
        *("first", "last", "count", "isEmpty", "removeAll", "insert", "remove"),
        *("resume", "cancel", "encode", "decode", "hash", "validate", "finish"),
    }
)
SCALA_AMBIGUOUS = frozenset(
    {
        *("apply", "unapply", "map", "flatMap", "filter", "foreach", "get", "getOrElse"),
        *("toString", "equals", "hashCode", "copy", "mkString", "contains", "head"),
        *("tail", "isEmpty", "size", "length", "parse", "run", "read", "write"),
    }
)
LUA_AMBIGUOUS = frozenset(
    {
        *("new", "init", "get", "set", "insert", "remove", "format", "find", "match"),
        *("gsub", "sub", "len", "concat", "sort", "type", "print", "error", "assert"),
        *("pairs", "ipairs", "tostring", "tonumber", "setmetatable", "getmetatable"),
        *("rawget", "rawset", "select", "unpack", "pcall", "xpcall", "require", "load"),
        *("next", "close", "read", "write", "open", "lines", "call"),
    }
)
SHELL_AMBIGUOUS = frozenset(
    {
        *("echo", "printf", "read", "test", "cd", "exit", "return", "local", "export"),
        *("set", "unset", "shift", "eval", "exec", "source", "trap", "wait", "kill"),
        *("cat", "grep", "sed", "awk", "cut", "tr", "sort", "head", "tail", "date"),
        *("sleep", "curl", "wget", "openssl", "base64", "log", "run", "main", "usage"),
    }
)
"""A shell function of one of these names shadows a command of that name (or is one
each script of the project may define: `main`, `usage`)."""
AMBIGUOUS = {
    "python": PYTHON_AMBIGUOUS,
    "typescript": JS_AMBIGUOUS,
    "go": GO_AMBIGUOUS,
    "ruby": RUBY_AMBIGUOUS,
    "php": PHP_AMBIGUOUS,
    "csharp": CSHARP_AMBIGUOUS,
    "kotlin": KOTLIN_AMBIGUOUS,
    "swift": SWIFT_AMBIGUOUS,
    "scala": SCALA_AMBIGUOUS,
    "lua": LUA_AMBIGUOUS,
    "bash": SHELL_AMBIGUOUS,
}


@dataclass(frozen=True)
class Symbol:
    """A sampled symbol: its node ID, where its name is, and its ground truth."""

    node_id: str
    kind: str
    name: str
    path: str
    line: int
    """1-based line of its name (the map's selection)."""
    truth: tuple[Occurrence, ...]
    macro: bool = False
    """A C function-like macro: it has uses, but no call hierarchy (LSP's callers are
    functions), so it is asked about references only."""

    @property
    def target(self) -> str:
        """The `path:LINE` TARGET (with `name`, the column is found for it)."""
        return f"{self.path}:{self.line}"

    @property
    def calls(self) -> tuple[Occurrence, ...]:
        """The occurrences that are calls of it."""
        return tuple(o for o in self.truth if o.is_call)


@dataclass(frozen=True)
class Declared:
    """A symbol as the map declares it, wherever the list came from (the map in
    process, or its outlines over MCP)."""

    node_id: str
    kind: str
    name: str
    path: str
    container: str
    """The innermost enclosing class or type's name, "" for a top-level symbol."""
    lines: tuple[int, int]
    """First and last lines of its definition, 1-based."""
    line: int
    """1-based line of its name."""


def candidates(code_map: CodeMap, truth: Truth) -> list[Symbol]:
    """Every symbol of the truth's language the ground truth can judge, by node ID."""
    declared = []
    for node, raw in code_map.graph.nodes(data=True):
        if raw.get("kind") == "file" or _language_of(code_map, raw["path"]) != truth.language:
            continue
        attrs = code_map.node(node)
        container = attrs["container"]
        declared.append(
            Declared(
                node,
                attrs["kind"],
                attrs["name"],
                attrs["path"],
                container[-1] if container else "",
                attrs["lines"],
                attrs["selection"].start_line + 1,
            )
        )
    return judgeable(declared, truth)


def judgeable(declared: list[Declared], truth: Truth) -> list[Symbol]:
    """The declared symbols the ground truth can judge, by node ID. A C prototype is
    one symbol with its definition, which alone is asked about."""
    declared = [d for d in declared if not truth.declares_prototype(d.path, d.line)]
    names = Counter(d.name for d in declared)
    ambiguous = AMBIGUOUS.get(truth.language, frozenset())
    found = []
    for d in sorted(declared, key=lambda d: d.node_id):
        if (
            d.kind not in REFERENCE_KINDS
            or names[d.name] != 1
            or len(d.name) < MIN_NAME
            or d.name.startswith("__")
            or d.name in ambiguous
            or truth.ambiguous(d.name)
        ):
            continue
        member = reached_as_member(truth.language, d.kind, d.container)
        wanted = Wanted(d.name, member, d.container, d.path, d.lines)
        occurrences = tuple(truth.occurrences(wanted))
        if len(occurrences) < 2:
            continue
        macro = truth.defines_macro(d.path, d.line)
        found.append(Symbol(d.node_id, d.kind, d.name, d.path, d.line, occurrences, macro))
    return found


def pick(found: list[Symbol], count: int, seed: int, *, callable_only: bool) -> list[Symbol]:
    """A seeded sample of `count` (all of them when fewer qualify).

    Ranked by a hash of the seed and the node ID, so a symbol's place does not
    depend on the others: code that adds or drops a few symbols (as a change to
    the map's extraction may) leaves the rest of the sample as it was, and a
    before/after comparison asks about the same symbols.
    """
    pool = [
        s
        for s in found
        if not callable_only or (s.kind in CALLABLE_KINDS and s.calls and not s.macro)
    ]
    return sorted(pool, key=lambda s: hashlib.sha256(f"{seed}:{s.node_id}".encode()).digest())[
        :count
    ]


def _language_of(code_map: CodeMap, path: str) -> str | None:
    extract = code_map.extract_of(path)
    return extract.language if extract is not None else None
