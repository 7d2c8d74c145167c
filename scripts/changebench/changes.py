"""The scripted changes: which functions to change, and each kind of change.

A target is a function or method (not nested in a function, not an overload)
that another file calls by name, most calls first; names too common to count
calls by (promise and container methods) are skipped.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from map import Range, extract_file

EXTENSIONS = {
    "python": (".py",),
    "typescript": (".ts", ".tsx"),
    "go": (".go",),
    "c": (".c", ".h"),
}
ADDED = {
    "python": "added_param",
    "typescript": "addedParam: number",
    "go": "addedParam int",
    "c": "int added_param",
}
COMMON_NAMES = frozenset(
    {"catch", "then", "finally", "call", "apply", "bind", "push", "get", "set", "keys", "values"}
    | {"items", "update", "close", "open", "read", "write", "send", "next", "toString"}
)
"""Method names too common to count a file's calls by name (promises, containers)."""


@dataclass(frozen=True)
class Target:
    """A function other files call: its file, name, node ID and 1-based lines."""

    path: str
    name: str
    node_id: str
    first: int
    last: int
    name_line: int
    name_col: int


def targets(root: Path, language: str, limit: int) -> list[Target]:
    """Functions defined outside tests that another file calls by name, most calls first."""
    exts = EXTENSIONS[language]
    files = [
        p
        for p in subprocess.run(
            ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
        if p.endswith(exts)
    ]
    texts = {p: (root / p).read_text(encoding="utf-8", errors="replace") for p in files}
    found = []
    for path in files:
        if re.search(r"(^|/)(tests?|__tests__|examples?|docs)/|_test\.go$|\.test\.tsx?$", path):
            continue
        try:
            extract = extract_file(path, (root / path).read_bytes())
        except ValueError:
            continue
        kinds = {sym.qualname: sym.kind for sym in extract.symbols}
        for sym in extract.symbols:
            if sym.kind not in ("function", "method") or sym.name.startswith("_"):
                continue
            outer = ".".join(sym.container)
            if "~" in sym.node_id or (outer and kinds.get(outer) not in ("class", "struct")):
                continue  # an overload, or a function inside a function
            if len(sym.name) < 4 or sym.name in ("main", "init", "constructor", *COMMON_NAMES):
                continue
            word = re.compile(rf"\b{re.escape(sym.name)}\s*\(")
            calls = sum(len(word.findall(t)) for p, t in texts.items() if p != path)
            line = texts[path].splitlines()[sym.selection.start_line]
            if language == "c" and not _c_function(line, path, texts[path], sym.range):
                continue
            if calls:
                found.append(
                    (
                        -calls,
                        Target(
                            path,
                            sym.name,
                            sym.node_id,
                            sym.range.start_line + 1,
                            sym.range.end_line + 1,
                            sym.selection.start_line + 1,
                            sym.selection.start_char,
                        ),
                        line,
                    )
                )
    found.sort(key=lambda f: (f[0], f[1].node_id))
    return [t for _, t, _ in found][:limit]


def _c_function(line: str, path: str, text: str, span: Range) -> bool:
    """A C function's definition (in a .c file) or its prototype (in a header): not a
    macro, nor a library function declared `extern` for the file's own use."""
    if line.lstrip().startswith("#") or re.search(r"\bextern\b", line):
        return False
    return path.endswith(".h") or "{" in "\n".join(
        text.splitlines()[span.start_line : span.end_line + 1]
    )


def _params(line: str, name: str) -> tuple[int, int] | None:
    """Where the parameter list after `name` opens and closes on its line."""
    at = line.find(name + "(")
    if at < 0:
        at = line.find(name + " = (")
        if at < 0:
            return None
        at = line.index("(", at) - len(name)
    start = at + len(name)
    depth = 0
    for i in range(start, len(line)):
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        if depth == 0:
            return start, i
    return None


def edit(kind: str, language: str, text: str, t: Target) -> str | None:
    """`text` with the change `kind` made to `t` (None: it does not apply)."""
    lines = text.splitlines(keepends=True)
    if kind == "delete":
        return "".join(lines[: t.first - 1] + lines[t.last :])
    i = t.name_line - 1
    line = lines[i]
    if kind == "rename":
        col = t.name_col
        if line[col : col + len(t.name)] != t.name:
            return None
        lines[i] = line[:col] + t.name + "Renamed" + line[col + len(t.name) :]
        return "".join(lines)
    span = _params(line, t.name)
    if span is None:
        return None
    open_at, close_at = span
    params = line[open_at + 1 : close_at]
    if any(mark in params for mark in ("*", "=", "...", "?", "{", "[")):
        return None
    if kind == "add_param":
        added = ADDED[language]
        new = f"{params}, {added}" if params.strip() and params.strip() != "void" else added
        lines[i] = line[: open_at + 1] + new + line[close_at:]
    elif kind == "remove_param":
        parts = [p for p in params.split(",") if p.strip()]
        if (
            not parts
            or parts[-1].strip() in ("self", "cls")
            or (language in ("go", "c") and " " not in parts[-1].strip())
        ):
            return None
        lines[i] = line[: open_at + 1] + ",".join(parts[:-1]) + line[close_at:]
    else:  # return_type
        if language == "c":
            return None  # written before the name, often through a macro
        rest = line[close_at + 1 :]
        if language == "python":
            match = re.match(r"\s*->\s*([^:]+):", rest)
            new_rest = None if match is None else rest.replace(match.group(1), "None", 1)
        elif language == "typescript":
            match = re.match(r"\s*:\s*([^{=]+?)\s*(\{|=>)", rest)
            new_rest = None if match is None else rest.replace(match.group(1), "void", 1)
        else:
            match = re.match(r"\s*([^{]+?)\s*\{", rest)
            new_rest = None if match is None else rest.replace(match.group(1), "struct{}", 1)
        if new_rest is None:
            return None
        lines[i] = line[: close_at + 1] + new_rest
    return "".join(lines)
