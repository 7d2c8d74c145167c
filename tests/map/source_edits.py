"""Seeded random edits to a repository's existing source files, in any language the map
knows: a body changed, a function or method added, a definition renamed or removed, an
import added or removed, a definition moved to another file. Each edit is plain text
work on the files as they stand (no parser), so it is the same whatever the map does."""

from __future__ import annotations

import random
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Edit = dict[str, str]
"""path -> the file's new text (files are edited only, never added or removed)."""


@dataclass(frozen=True)
class Syntax:
    """How edits find and write definitions and imports in one language."""

    definition: str
    """A regex (multiline) whose first non-empty group is a defined name."""
    function: str
    """A new function, from `{name}` and the `{callee}` it calls."""
    blocks: str = "braces"
    """How a definition's lines end: "indent", "braces" or "end" (a line `end`)."""
    imports: str | None = None
    """A regex (multiline) of an import line; None: no import edits (in C and C++,
    an include moves the layout: see map.linking.linker.moves_layout)."""
    standalone: tuple[str, str] | None = None
    """A regex and its replacement that turn a matched import line into one that
    stands alone (a Go import from inside an `import (...)` block)."""
    header: str | None = None
    """A regex of the line new imports go after (else the first line)."""
    anchor: tuple[str, ...] = ()
    """Regexes tried in order: new functions go before the last line the first one
    matches (a class's closing brace, Lua's final `return`); else at the end."""
    method: tuple[str, str] | None = None
    """A class header's regex and a method to add after it (`{name}`, `{callee}`)."""


JAVA_MODS = r"(?:(?:public|private|protected|static|abstract|final) )*"
SYNTAX: dict[str, Syntax] = {
    ".py": Syntax(
        r"^[ \t]*(?:def|class) (\w+)",
        "\n\ndef {name}():\n    return {callee}()\n",
        blocks="indent",
        imports=r"^(?:from \S+ import .+|import \S.*)$",
        method=(r"^class \w+.*:$", "    def {name}(self):\n        return self.{callee}()\n\n"),
    ),
    ".ts": Syntax(
        r"^(?:export )?(?:function|class|interface) (\w+)|^[ \t]+(?!constructor)(\w+)\(.*\{",
        "\nexport function {name}(): number {{\n  return {callee}();\n}}\n",
        imports=r"^import .+$",
        method=(r"^export class .*\{$", "  {name}(): number {{\n    return {callee}();\n  }}\n"),
    ),
    ".go": Syntax(
        r"^func (?:\([^)]*\) )?(\w+)|^type (\w+)",
        "\nfunc {name}() {{\n\t{callee}()\n}}\n",
        imports=r'^(?:import |\t)"[^"]+"$',
        standalone=(r'^(?:import |\t)("[^"]+")$', r"import \1"),
        header=r"^package ",
    ),
    ".c": Syntax(
        r"^(?:static )?(?:int|void|struct \w+) \*?(\w+)\(|^struct (\w+) \{",
        "\nint {name}(void) {{\n  return {callee}(0);\n}}\n",
    ),
    ".java": Syntax(
        rf"^\s*{JAVA_MODS}(?:class|interface) (\w+)|^\s+{JAVA_MODS}[\w<>\[\]]+ (\w+)\(.*[{{;]$",
        "    static void {name}() {{ {callee}(); }}\n",
        imports=r"^import .+;$",
        header=r"^package ",
        anchor=(r"^\}$",),
    ),
    ".rs": Syntax(
        r"^\s*(?:pub )?(?:fn|struct|enum|trait) (\w+)",
        "\npub fn {name}() {{ {callee}(); }}\n",
        imports=r"^(?:use|mod) .+;$",
    ),
    ".rb": Syntax(
        r"^\s*(?:def|class|module) (\w+)",
        "\ndef {name}\n  {callee}\nend\n",
        blocks="end",
        imports=r"^require(?:_relative)? .+$",
    ),
    ".php": Syntax(
        r"^\s*(?:(?:public|private|protected|static) )*function (\w+)|^class (\w+)",
        "\nfunction {name}() {{ return {callee}(); }}\n",
        imports=r"^use .+;$",
        header=r"^namespace ",
    ),
    ".cs": Syntax(
        r"^\s*(?:(?:public|private|protected|static) )*class (\w+)"
        r"|^\s+(?:(?:public|private|protected|static) )+[\w\[\]<>]+ (\w+)\(",
        "        public static int {name}() {{ return {callee}(); }}\n",
        imports=r"^using .+;$",
        anchor=(r"^    \}$", r"^\}$"),
    ),
    ".kt": Syntax(
        r"^\s*(?:(?:open|private|public) )*(?:class|fun) (\w+)",
        "\nfun {name}() = {callee}()\n",
        imports=r"^import .+$",
        header=r"^package ",
    ),
    ".swift": Syntax(
        r"^\s*(?:class|func) (\w+)",
        "\nfunc {name}() {{ {callee}() }}\n",
        imports=r"^import .+$",
    ),
    ".scala": Syntax(
        r"^\s*(?:class|def|object) (\w+)",
        "\ndef {name}() = {callee}()\n",
        imports=r"^import .+$",
        header=r"^package ",
    ),
    ".lua": Syntax(
        r"^(?:local )?function (?:\w+[.:])?(\w+)",
        "\nfunction {name}()\n  return {callee}()\nend\n",
        blocks="end",
        imports=r"^local \w+ = require\(.+\)$",
        anchor=(r"^return ",),
    ),
    ".sh": Syntax(
        r"^(\w+)\(\) \{",
        "\n{name}() {{\n  {callee}\n}}\n",
        imports=r"^(?:source|\.) .+$",
        header=r"^#!",
    ),
}
SYNTAX[".h"] = SYNTAX[".c"]


@dataclass(frozen=True)
class Definition:
    """A defined name and where its lines are in a file."""

    path: str
    name: str
    first: int
    last: int
    """The index of its last line (inclusive)."""


class Editor:
    """Random edits to the source files under a root, seeded."""

    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.rnd = random.Random(seed)
        self._kinds: dict[str, Callable[[str, int], Edit | None]] = {
            "body": self._body,
            "add": self._add,
            "rename": self._rename,
            "remove": self._remove,
            "import": self._import,
            "move": self._move,
        }
        self.files = sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and p.suffix in SYNTAX and ".codeanchor" not in p.parts
        )

    def edit(self, step: int) -> tuple[str, Edit]:
        """One random edit, written to disk: what it did, and the files' new texts."""
        while True:
            kind = self.rnd.choice(sorted(self._kinds))
            path = self.rnd.choice(self.files)
            edit = self._kinds[kind](path, step)
            if edit is not None and any(self._text(p) != t for p, t in edit.items()):
                for changed, text in edit.items():
                    (self.root / changed).write_text(text)
                return f"{kind} {sorted(edit)}", edit

    def _text(self, path: str) -> str:
        return (self.root / path).read_text()

    def _syntax(self, path: str) -> Syntax:
        return SYNTAX[Path(path).suffix]

    def _kin(self, path: str) -> list[str]:
        """The files written in `path`'s language (`path` too)."""
        syntax = self._syntax(path)
        return [p for p in self.files if self._syntax(p) == syntax]

    def definitions(self, path: str) -> list[Definition]:
        """The definitions the language's regex finds in `path`, with their lines."""
        lines = self._text(path).split("\n")
        syntax = self._syntax(path)
        found = []
        for at, line in enumerate(lines):
            match = re.match(syntax.definition, line)
            if match is not None:
                name = next(group for group in match.groups() if group)
                found.append(Definition(path, name, at, _block_end(lines, at, syntax.blocks)))
        return found

    def _names(self, path: str) -> list[str]:
        """The names defined in files of `path`'s language."""
        return sorted({d.name for p in self._kin(path) for d in self.definitions(p)})

    def _body(self, path: str, step: int) -> Edit | None:
        """A use of one defined name made a use of another, outside definition lines."""
        names = self._names(path)
        text = self._text(path)
        lines = text.split("\n")
        heads = {d.first for d in self.definitions(path)}
        uses = [
            (at, match)
            for at, line in enumerate(lines)
            if at not in heads and not line.startswith("#include")
            for match in re.finditer(r"\b\w+\b", line)
            if match.group() in names
        ]
        if not uses or len(names) < 2:
            return None
        at, match = self.rnd.choice(uses)
        other = self.rnd.choice([n for n in names if n != match.group()])
        line = lines[at]
        lines[at] = line[: match.start()] + other + line[match.end() :]
        return {path: "\n".join(lines)}

    def _add(self, path: str, step: int) -> Edit | None:
        """A new function (or a method, where the language has a class header to
        put one after) calling a defined name."""
        names = self._names(path)
        if not names:
            return None
        callee, name = self.rnd.choice(names), f"added{step}"
        syntax = self._syntax(path)
        lines = self._text(path).split("\n")
        if syntax.method is not None and self.rnd.random() < 0.5:
            header, method = syntax.method
            classes = [at for at, line in enumerate(lines) if re.match(header, line)]
            if classes:
                at = self.rnd.choice(classes) + 1
                lines[at:at] = method.format(name=name, callee=callee).split("\n")[:-1]
                return {path: "\n".join(lines)}
        return {path: _place(lines, syntax, syntax.function.format(name=name, callee=callee))}

    def _rename(self, path: str, step: int) -> Edit | None:
        """A definition renamed where it is defined (its uses elsewhere left as
        they were)."""
        found = self.definitions(path)
        if not found:
            return None
        definition = self.rnd.choice(found)
        lines = self._text(path).split("\n")
        head = lines[definition.first]
        renamed = f"{definition.name}_r{step}"
        lines[definition.first] = re.sub(rf"\b{definition.name}\b", renamed, head, count=1)
        return {path: "\n".join(lines)}

    def _remove(self, path: str, step: int) -> Edit | None:
        """A definition's lines removed."""
        found = self.definitions(path)
        if not found:
            return None
        definition = self.rnd.choice(found)
        lines = self._text(path).split("\n")
        del lines[definition.first : definition.last + 1]
        return {path: "\n".join(lines)}

    def _import(self, path: str, step: int) -> Edit | None:
        """An import line removed, or one of another file's added."""
        pattern = self._syntax(path).imports
        if pattern is None:
            return None
        lines = self._text(path).split("\n")
        own = [at for at, line in enumerate(lines) if re.match(pattern, line)]
        theirs = {
            self._standalone(path, line)
            for other in self._kin(path)
            if other != path
            for line in self._text(other).split("\n")
            if re.match(pattern, line)
        }
        new = sorted(theirs - {self._standalone(path, lines[at]) for at in own})
        if own and (not new or self.rnd.random() < 0.5):
            del lines[self.rnd.choice(own)]
            return {path: "\n".join(lines)}
        if not new:
            return None
        header = self._syntax(path).header
        heads = [at for at, line in enumerate(lines) if header and re.match(header, line)]
        at = heads[0] + 1 if heads else 0
        lines.insert(at, self.rnd.choice(new))
        return {path: "\n".join(lines)}

    def _standalone(self, path: str, line: str) -> str:
        rewrite = self._syntax(path).standalone
        return line if rewrite is None else re.sub(rewrite[0], rewrite[1], line)

    def _move(self, path: str, step: int) -> Edit | None:
        """A definition taken out of `path` and put into another file of its language."""
        found = self.definitions(path)
        others = [p for p in self._kin(path) if p != path]
        if not found or not others:
            return None
        definition = self.rnd.choice(found)
        target = self.rnd.choice(others)
        lines = self._text(path).split("\n")
        block = textwrap.dedent("\n".join(lines[definition.first : definition.last + 1]))
        del lines[definition.first : definition.last + 1]
        syntax = self._syntax(target)
        into = _place(self._text(target).split("\n"), syntax, f"\n{block}\n")
        return {path: "\n".join(lines), target: into}


def _block_end(lines: list[str], first: int, blocks: str) -> int:
    """The index of the last line of the definition starting at `first`."""
    indent = len(lines[first]) - len(lines[first].lstrip())
    if blocks == "indent":
        last = first
        for at in range(first + 1, len(lines)):
            line = lines[at]
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            if line.strip():
                last = at
        return last
    if blocks == "end":
        for at in range(first + 1, len(lines)):
            line = lines[at]
            if line.strip() == "end" and len(line) - len(line.lstrip()) == indent:
                return at
        return first
    depth, opened = 0, False
    for at in range(first, len(lines)):
        line = lines[at]
        depth += line.count("{") - line.count("}")
        opened = opened or "{" in line
        if opened:
            if depth <= 0:
                return at
        elif line.rstrip().endswith(";") or "=" in line:
            return at  # a declaration, or an expression body
    return first


def _place(lines: list[str], syntax: Syntax, code: str) -> str:
    """`lines` with `code` put where the language takes a new definition."""
    for anchor in syntax.anchor:
        found = [at for at, line in enumerate(lines) if re.match(anchor, line)]
        if found:
            at = found[-1]
            return "\n".join([*lines[:at], *code.rstrip("\n").split("\n"), *lines[at:]])
    return "\n".join(lines).rstrip("\n") + "\n" + code
